"""The steps of a hand, compiled from the table's ``hand`` list.

Each step becomes a small frozen record whose ``kind`` is an integer and whose conditions,
seat references and card sets are already closures and bitmasks; the state machine walks
them with an integer cursor. Nothing here decides anything: :mod:`reference_impl.state`
runs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .conditions import (Predicate, SeatFunction, always, card_mask, compile_condition, never, nobody, seat_function,
                         strain_index)

if TYPE_CHECKING:                      # pragma: no cover
    from .rules import Rules
    from .state import State

NAME, MAKE_TRUMPS, AUCTION, FORCE_BID, SET_TRUMPS, THROW_IN, OFFER, EXCHANGE, GIVE, PLAY = range(10)
UPCARD_SUIT = -2                        # set-trumps: the printed suit of the upcard
KINDS = {"name": NAME, "make-trumps": MAKE_TRUMPS, "auction": AUCTION, "force-bid": FORCE_BID,
         "set-trumps": SET_TRUMPS, "throw-in": THROW_IN, "offer": OFFER, "exchange": EXCHANGE, "give": GIVE,
         "play": PLAY}
BIDDING = frozenset({MAKE_TRUMPS, AUCTION, FORCE_BID, SET_TRUMPS, THROW_IN})
PROPOSE = 10                           # an exchange by proposal: propose or stand, accept or refuse, discard and draw
KINDS["propose"] = PROPOSE

# What an accepted offer, or a name, does.
PROPOSAL, TRUMPS, PARTNER, ALONE, DEFEND_ALONE, SIT_OUT, SWAP = range(7)
EFFECTS = {"proposal": PROPOSAL, "trumps": TRUMPS, "partner": PARTNER, "alone": ALONE,
           "defend-alone": DEFEND_ALONE, "sit-out": SIT_OUT, "swap-with-kitty": SWAP}
NAME_PHASES = {PROPOSAL: "benny-suit", TRUMPS: "name-trumps", PARTNER: "call-partner"}
# Offers whose acceptance scores at once (a declaration), calls a misdeal, or claims a renege.
SCORE, MISDEAL, CLAIM = 7, 8, 9
EFFECTS.update({"score": SCORE, "misdeal": MISDEAL, "claim-renege": CLAIM})
# An offer whose acceptance concedes the hand for the accepting seat's side (it ends at once).
CONCEDE = 10
EFFECTS["concede"] = CONCEDE
# Who decides an offer to a queue: each seat for itself, the first seat asked for its side,
# or every seat asked, the offer taking effect only if all accept.
DECIDE_EACH, DECIDE_FIRST, DECIDE_UNANIMOUS = range(3)
DECISIONS = {"each-seat": DECIDE_EACH, "first-seat": DECIDE_FIRST, "unanimous": DECIDE_UNANIMOUS}

# Who is asked by an offer.
QUEUE_DEFENDERS, QUEUE_MAKER_PARTNERS, QUEUE_OTHERS, QUEUE_EVERYONE = range(4)
QUEUES = {"defenders": QUEUE_DEFENDERS, "maker-partners": QUEUE_MAKER_PARTNERS, "others": QUEUE_OTHERS,
          "everyone": QUEUE_EVERYONE}


@dataclass(frozen=True)
class Take:
    """One exchange rule: the seat ``who`` takes the ``source`` cards when ``when`` holds."""

    who: SeatFunction
    source: str                      # "upcard" or "widow"
    when: Predicate
    optional: bool


@dataclass(frozen=True)
class Bid:
    id: str
    token: str
    strain: int                      # a trump context, or -1 when the winner names trumps
    value: int
    min_tricks: int
    max_tricks: int
    alone: bool
    after: int                       # the bid may be made once the high bid is at least this one (-1: any time)


@dataclass(frozen=True)
class Step:
    id: str
    kind: int
    phase: str
    clause: str | None
    when: Predicate
    number: int = 0                                  # make-trumps: the bidding round (1, 2, ...)
    # name
    who: SeatFunction = nobody
    names: tuple[int, ...] = ()                      # trump contexts that may be named
    effect: int = -1
    # make-trumps
    start: SeatFunction = nobody
    order: bool = False                              # accept the proposal (else name a suit)
    turned_down_allowed: bool = False
    no_trump: bool = False
    low_no_trump: bool = False                       # low no-trumps (`call:NL`) may be named too
    stuck: SeatFunction = nobody                     # the seat that may not pass, or nobody
    # auction
    bids: tuple[int, ...] = ()                       # indices into Rules.bid_list
    until_passed: bool = True
    max_rounds: int = 0                              # auction going until passed: the most rounds (0: no limit)
    stuck_bids: tuple[int, ...] = ()                 # auction: what the stuck seat may bid (it may not pass)
    # force-bid, set-trumps, throw-in
    bid: int = -1
    trumps: int = -1
    same_dealer: bool = False                        # throw-in, offer (misdeal), play (every seat sat out)
    # offer
    queue: int = -1                                  # a QUEUE_*, or -1 for the single seat `target`
    target: SeatFunction = nobody
    accept: str = ""
    decline: str = "pass"
    first_accept_ends: bool = True
    eligible: Predicate = always
    forced: Predicate = never
    swap_count: int = 0
    swap_mask: int = 0
    points: int = 0                                  # offer with `score`: what the accepting seat's side scores at once
    decision: int = 0                                # offer to a queue: a DECIDE_* (who decides for the side)
    # propose (the proposer is `who`)
    responder: SeatFunction = nobody
    min_discard: int = 1                             # the fewest cards the proposer lays out in an exchange
    responder_min_discard: int = 0                   # the fewest the responder lays out
    max_exchanges: int = 0                           # 0: as many as the stock allows
    # play
    renege: bool = False                             # a card the play rules forbid may be played, to be claimed later
    # exchange
    takes: tuple[Take, ...] = ()
    may_discard_taken: bool = True
    sitting_out_takes: bool = False
    # give
    giver_may_pass: bool = True
    receiver_may_refuse: bool = True
    give_count: int = 1                  # cards each giver passes
    discard_first: bool = False          # the receiver discards give_count cards before taking them
    # play
    lead: tuple[tuple[Predicate, SeatFunction], ...] = ()
    strict: bool = False                 # any rule beyond following suit (the three below)
    must_head: bool = False              # a seat following suit must beat the trick's best card if able
    must_trump: bool = False             # a seat void in the suit led must play a trump if able
    must_overtrump: bool = False         # a trump played to a trick holding one must beat it if able
    partner_frees: tuple[bool, bool, bool] = (False, False, False)   # head, trump, overtrump lifted while a partner wins
    trump_any_time: bool = False         # a seat that can follow a plain suit led may trump instead (may-trump: always)
    privileged: tuple[int, ...] = ()     # per trump context: the trumps that need not follow a lower trump led
    trumps_by_lead: bool = False         # trumps not yet made: the suit of the first card led is trumps


NO_STEP = Step(id="", kind=-1, phase="", clause=None, when=always)   # the step of a state between hands


def _queue(rules: "Rules", spec: Any) -> tuple[int, SeatFunction]:
    if isinstance(spec, str):
        return -1, seat_function(rules, spec)
    return QUEUES[spec["seats"]], seat_function(rules, spec["from"])


def compile_steps(rules: "Rules", table: Mapping[str, Any]) -> tuple[Step, ...]:
    """The hand's steps, ready to run."""
    steps = []
    clause_ids = {c["id"] for c in table.get("clauses", [])}
    rounds = 0
    for spec in table["hand"]:
        kind = KINDS[spec["kind"]]
        clause = spec.get("clause") or (spec["id"] if spec["id"] in clause_ids else None)
        common: dict[str, Any] = {"id": spec["id"], "kind": kind, "clause": clause,
                                  "when": compile_condition(rules, spec.get("when"))}
        phase = spec.get("phase")
        if kind == PLAY and spec.get("renege") == "allowed":
            common["renege"] = True
        if kind == NAME:
            effect = EFFECTS[spec["effect"]]
            step = Step(phase=phase or NAME_PHASES[effect], who=seat_function(rules, spec["who"]),
                        names=tuple(strain_index(rules, s) for s in spec["names"]), effect=effect, **common)
        elif kind == MAKE_TRUMPS:
            rounds += 1
            step = Step(phase=phase or f"bid-round-{rounds}", number=rounds, start=seat_function(rules, spec["from"]),
                        order=spec["action"] == "order", turned_down_allowed=spec.get("turned-down") == "allowed",
                        no_trump=bool(spec.get("no-trump")), low_no_trump=bool(spec.get("low-no-trump")),
                        stuck=seat_function(rules, spec["stuck"]) if spec.get("stuck") else nobody, **common)
        elif kind == AUCTION:
            first = len(rules.bid_list)
            ids = [b["id"] for b in spec["bids"]]
            enabled = []
            for bid in spec["bids"]:
                position = len(rules.bid_list)
                rules.bid_list.append(Bid(
                    bid["id"], f"bid:{bid['id']}",
                    strain_index(rules, bid["strain"]) if bid.get("strain") else -1, bid.get("value", 0),
                    bid.get("tricks", 0), bid.get("at-most", rules.hand_size), bool(bid.get("alone")),
                    first + ids.index(bid["after"]) if bid.get("after") else -1))
                if bid.get("enabled", True):
                    enabled.append(position)
            stuck_at = ids.index(spec.get("stuck-from", ids[0])) if spec.get("stuck") else len(ids)
            step = Step(phase=phase or "auction", start=seat_function(rules, spec["from"]), bids=tuple(enabled),
                        until_passed=spec.get("turns", "until-passed") == "until-passed",
                        max_rounds=spec.get("rounds", 0),
                        stuck=seat_function(rules, spec["stuck"]) if spec.get("stuck") else nobody,
                        stuck_bids=tuple(range(first + stuck_at, first + len(ids))), **common)
        elif kind == FORCE_BID:
            position = next(i for i, b in enumerate(rules.bid_list) if b.id == spec["bid"])
            step = Step(phase=phase or "", who=seat_function(rules, spec["who"]), bid=position, **common)
        elif kind == SET_TRUMPS:
            trumps = UPCARD_SUIT if spec["trumps"] == "upcard" else strain_index(rules, spec["trumps"])
            step = Step(phase=phase or "", trumps=trumps, **common)
        elif kind == THROW_IN:
            step = Step(phase=phase or "", same_dealer=spec.get("next-dealer") == "same", **common)
        elif kind == OFFER:
            queue, target = _queue(rules, spec["to"])
            swap = spec.get("swap") or {}
            step = Step(phase=phase or spec["id"], queue=queue, target=target, accept=spec["accept"],
                        decline=spec.get("decline", "pass"), effect=EFFECTS[spec["effect"]],
                        first_accept_ends=spec.get("stop", "first-accept") == "first-accept",
                        eligible=compile_condition(rules, spec["eligible"]) if "eligible" in spec else always,
                        forced=compile_condition(rules, spec["forced"]) if "forced" in spec else never,
                        swap_count=swap.get("count", 0),
                        swap_mask=card_mask(rules, swap["of"]) if "of" in swap else rules.full_mask,
                        points=spec.get("points", 0), decision=DECISIONS[spec.get("decision", "each-seat")],
                        same_dealer=spec.get("next-dealer", "same") == "same", **common)
        elif kind == PROPOSE:
            exchange = spec.get("exchange") or {}
            step = Step(phase=phase or "propose", who=seat_function(rules, spec["proposer"]),
                        responder=seat_function(rules, spec["responder"]),
                        min_discard=exchange.get("proposer-at-least", 1),
                        responder_min_discard=exchange.get("responder-at-least", 0),
                        max_exchanges=spec.get("exchanges", 0), **common)
        elif kind == EXCHANGE:
            takes = tuple(Take(seat_function(rules, take["who"]), take["from"],
                               compile_condition(rules, take.get("when")), bool(take.get("optional")))
                          for take in spec["takes"])
            step = Step(phase=phase or "take-offer", takes=takes, may_discard_taken=spec.get("may-discard-taken", True),
                        sitting_out_takes=spec.get("sitting-out-takes", False), **common)
        elif kind == GIVE:
            step = Step(phase=phase or "partners-best", giver_may_pass=spec.get("giver-may-pass", True),
                        receiver_may_refuse=spec.get("receiver-may-refuse", True), give_count=spec.get("give-count", 1),
                        discard_first=spec.get("give-order") == "discard-first", **common)
        else:
            lead = tuple((compile_condition(rules, rule.get("when")), seat_function(rules, rule["seat"]))
                         for rule in spec["lead"])
            must = set(spec.get("must", ()))
            frees = set(spec.get("partner-winning-frees", ()))
            any_time = spec.get("may-trump") == "always"
            privileged = _privileged(rules, spec.get("privileged-trumps", 0))
            step = Step(phase=phase or "play", lead=lead, same_dealer=spec.get("all-sit-out") == "void-same-dealer",
                        strict=bool(must) or any_time or bool(privileged), trump_any_time=any_time,
                        trumps_by_lead=spec.get("trumps-by") == "first-lead",
                        privileged=privileged, must_head="head" in must,
                        must_trump="trump" in must, must_overtrump="overtrump" in must,
                        partner_frees=("head" in frees, "trump" in frees, "overtrump" in frees), **common)
        steps.append(step)
    return tuple(steps)


def _privileged(rules: "Rules", count: int) -> tuple[int, ...]:
    """For each trump suit, the bitmask of its ``count`` highest trumps (every copy of each)."""
    if not count:
        return ()
    masks = []
    for ctx in range(len(rules.suits)):
        power = rules.cards.power[ctx][ctx]
        members = [c for c in range(len(power)) if rules.cards.eff[ctx][c] == ctx]
        strengths = sorted({power[c] for c in members}, reverse=True)[:count]
        masks.append(sum(1 << c for c in members if power[c] in strengths))
    return tuple(masks)


def offer_tokens(table: Mapping[str, Any]) -> set[str]:
    """Every accept and decline word the table's offers use (part of its vocabulary)."""
    words = set()
    for spec in table["hand"]:
        if spec["kind"] == "offer":
            words.add(spec["accept"])
            words.add(spec.get("decline", "pass"))
        elif spec["kind"] == "propose":
            words.update(PROPOSE_WORDS)
    return words


PROPOSE_WORDS = ("propose", "stand", "accept", "refuse", "draw")   # the words of an exchange by proposal

__all__ = ["Step", "Take", "Bid", "NO_STEP", "compile_steps", "offer_tokens", "Callable"]
