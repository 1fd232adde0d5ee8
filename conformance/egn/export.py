"""A game as an EGN record: from a game the reference played (its event log) or from a case.

The game is replayed through the reference interpreter, and each action is written where
EGN keeps it: bids in ``calls`` (``Pass``, ``Order``, a suit letter, ``n`` for no-trumps),
``isAlone``, ``aloneDefender``, the dealer's ``discard``, cards taken from the kitty or passed
by a loner's partner in ``cardExchanges``, and each trick's cards in the order they fell.
Every hand is written in ``playerCards`` (the five cards dealt), so nothing need be filled
when the record is imported again.

EGN has no place for a few choices: the suit a dealer names for a Benny turned up, the
suit a Benny led at no-trumps stands for, the cards laid in a farmer's hand or going under,
a railroading loner's discard, and a partner's card offered and refused. They are written as
annotations that other readers show as comments, ``euchre-spec: name:H`` (on the bidding's
first call, or on the card played), which the importer reads back; so importing an exported
game gives back the same game.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable, Sequence

from reference_impl import ActionError, Deal, State, new_game
from reference_impl.options import yaml_text
from reference_impl.rules import Rules
from reference_impl.steps import EXCHANGE, GIVE, MAKE_TRUMPS, NAME, OFFER, PROPOSAL, SWAP

from ..cases import case_deal
from .cards import to_egn as egn_card
from .record import BIDDING, FILE_TYPE, PLAY, VERSION
from .ruleset import Unmappable, flags_for_rules, options_note, rules_for

HINT_PREFIX = "euchre-spec: "

Action = tuple[int, str]
Hand = tuple[Deal, list[Action]]


class ExportError(ValueError):
    """A game that EGN cannot record (its rules, or a case that is no game)."""


def game_from_events(rules: Rules, events: Sequence[tuple[Any, ...]]) -> tuple[int, list[Hand]]:
    """The first dealer and each hand (its deal and actions) of a game's event log."""
    first: int | None = None
    hands: list[tuple[list[str], list[list[str]], str | None, list[Action]]] = []
    for event in events:
        kind = event[0]
        if kind == "first-dealer":
            first = event[1]
        elif kind == "deal":
            _, _, dealer, masks, upcard, _widow = event
            if first is None:
                first = dealer
            cards = [rules.cards_of(mask) for mask in masks]
            hands.append(([], cards, rules.card_names[upcard] if upcard >= 0 else None, []))
        elif kind == "action" and hands:
            hands[-1][3].append((event[1], event[2]))
        elif kind == "swap" and hands:
            hands[-1][0].extend(event[3])           # the cards taken: the top of the kitty
    out: list[Hand] = []
    for taken, cards, upcard, actions in hands:
        seen = set(taken) | {c for hand in cards for c in hand} | ({upcard} if upcard else set())
        kitty = tuple(taken) + tuple(c for c in rules.card_names if c not in seen)
        out.append((Deal(tuple(tuple(h) for h in cards), upcard, (), kitty), actions))
    return (first if first is not None else 0), out


def to_egn(rules: Rules, dealer: int, hands: Iterable[Hand], scores: Sequence[int] | None = None,
           title: str | None = None, game_id: str | None = None, description: str | None = None,
           players: Sequence[str] | None = None) -> dict[str, Any]:
    """The EGN record of a game (raises :class:`ExportError` if EGN cannot say its rules)."""
    hands = list(hands)
    if rules.points_per_point != 1:
        raise ExportError(f"variant {rules.id} counts its scores in half points (scoring.unit: half); an EGN "
                          "record carries whole points only, so it cannot record this game")
    try:
        ruleset = flags_for_rules(rules)
    except Unmappable as exc:
        raise ExportError(str(exc)) from None
    if ruleset.extras:
        differs = _differs(rules, rules_for(ruleset.options), dealer, scores, hands)
        if differs:
            said = ", ".join(f"{k}={yaml_text(v)}" for k, v in ruleset.extras.items())
            raise ExportError(f"EGN cannot say {said}, and in this game it matters: {differs}" + _advice(ruleset.extras))
        note = (f"Played with options EGN has no flag for, which change nothing in this game: "
                f"{options_note(ruleset.extras)}")
        description = f"{description} {note}" if description else note
    state = new_game(rules, dealer=dealer, scores=scores)
    initial = list(state.scores)
    deals = []
    for number, (deal, actions) in enumerate(hands):
        deals.append(_deal(state, number, deal, actions))
    names = (list(players) if players and len(players) == rules.n else None) or rules.table["players"].get("names") \
        or [f"Seat {s}" for s in range(rules.n)]
    metadata: dict[str, Any] = {}
    if game_id:
        metadata["gameId"] = game_id[:64]
    if title:
        metadata["title"] = title[:128]
    if description:
        if len(description) > 1024:            # keep the options note whole: it is at the end
            description = "..." + description[-1021:]
        metadata["description"] = description
    metadata["players"] = list(names)
    metadata["initialScore"] = initial
    if state.is_terminal():
        metadata["finalScore"] = list(state.scores)
    metadata["ruleset"] = ruleset.flags
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": metadata, "deals": deals}


def _outcome(rules: Rules, dealer: int, scores: Sequence[int] | None, hands: list[Hand]) -> list[tuple[Any, ...]]:
    """What a game's actions come to under ``rules``: each trick's winner, each hand's points
    and scores, the end (an action refused ends it, said as such)."""
    state = new_game(rules, dealer=dealer, scores=scores)
    for number, (deal, actions) in enumerate(hands, 1):
        try:
            state.deal(deal)
            for seat, token in actions:
                state.apply(token, seat)
        except ActionError as exc:
            state.events.append(("refused", number, f"{exc.message}"))
            break
    keep = {"trick": lambda e: e[1:], "score": lambda e: e[2:], "throw-in": lambda e: e[1:],
            "game-over": lambda e: e[1:], "refused": lambda e: e[1:], "deal": lambda e: e[1:3]}
    return [(e[0],) + tuple(keep[e[0]](e)) for e in state.events if e[0] in keep]


def _differs(rules: Rules, egn_rules: Rules, dealer: int, scores: Sequence[int] | None, hands: list[Hand]) -> str | None:
    """Where the game would go otherwise under the rules its EGN record says (None: nowhere)."""
    ours, theirs = _outcome(rules, dealer, scores, hands), _outcome(egn_rules, dealer, scores, hands)
    hand = 0
    for a, b in zip(ours + [None], theirs + [None]):
        if a is not None and a[0] == "deal":
            hand = a[1]
        if a != b:
            what = {"score": "scores", "trick": "a trick goes", "refused": "an action is refused",
                    "game-over": "the game ends", "throw-in": "the deal is thrown in"}.get((b or a or ("",))[0], "it goes")
            return f"in deal {hand} {what} otherwise under the rules EGN would say"
    return None


def _advice(extras: dict[str, Any]) -> str:
    if "lone-defender-scoring" in extras:
        return (" (EGN's defend_alone gives 4 points to a lone defender who euchres the loner: use the option "
                "lone-defender-scoring=four-for-euchre, or defending-alone=false)")
    return ""


def _deal(state: State, number: int, deal: Deal, actions: list[Action]) -> dict[str, Any]:
    rules = state.rules
    state.deal(deal)
    dealer = state.dealer
    calls: list[str] = []
    hints: list[str] = []
    play_hints: dict[str, list[str]] = {}
    exchanges: list[dict[str, Any]] = []
    tricks: list[list[str]] = []
    current: list[str] = []
    discard = None
    offered: tuple[int, str] | None = None          # (giver, card) passed to a lone maker
    bid = False
    flat = 0
    for index, (seat, token) in enumerate(actions):
        step, phase = state.step, state.phase
        kind = step.kind if step is not None else None
        before = len(state.tricks)
        events = len(state.events)
        accept = step.accept if step is not None and kind == OFFER else None
        if phase == "play":
            current.append(egn_card(token.partition(":")[2]))
            flat += 1
        elif phase == "master-suit":
            play_hints.setdefault(str(flat - 1), []).append(HINT_PREFIX + token)
        elif kind == MAKE_TRUMPS:
            bid = True
            calls.append(_call(token))
        elif kind == NAME and step.effect == PROPOSAL:
            hints.append(token)
        elif kind == OFFER and phase == "discard":
            hints.append(token)                      # a card laid for the kitty's: EGN names only those taken
        elif kind == OFFER and step.effect == SWAP and token != accept and (seat, accept) in actions[index + 1:]:
            hints.append(token)                      # declined here, to swap at a later offer (going under)
        elif kind == OFFER:
            pass                                     # lone hands and lone defences: read from the state below
        elif kind == EXCHANGE and phase == "discard":
            discard = egn_card(token.partition(":")[2])
        elif kind == GIVE and phase == "partners-best":
            if token != "pass":
                offered = (seat, token.partition(":")[2])
        elif kind == GIVE and phase == "take-best":
            if token == "take" and offered is not None:
                exchanges.append({"sender": offered[0], "receiver": state.maker, "cards": [egn_card(offered[1])]})
            else:
                hints += [f"give:{offered[1]}" if offered else "pass", token]
        elif kind == GIVE and phase == "discard":
            hints.append(token)
        else:
            raise ExportError(f"hand {number + 1}: phase {phase} has no place in an EGN record")
        state.apply(token, seat)
        for event in state.events[events:]:
            if event[0] == "swap":
                exchanges.append({"receiver": event[1], "cards": [egn_card(c) for c in event[3]]})
        if phase == "play" and len(state.tricks) > before:
            tricks.append(current)
            current = []
    if current:
        tricks.append(current)
    alone = state.alone
    defender = state.defender_alone if state.defender_alone >= 0 else None
    record: dict[str, Any] = {
        "dealNumber": number,
        "initialState": {"dealer": dealer, "upCard": egn_card(deal.upcard),
                         "playerCards": [[egn_card(c) for c in hand] for hand in deal.hands]},
        "phases": [],
    }
    if bid or hints or exchanges:
        bidding: dict[str, Any] = {"phaseNumber": 0, "type": BIDDING, "calls": calls}
        if not (state.phase == "alone" and not tricks and discard is None and not exchanges):
            bidding["isAlone"] = alone            # left out where the game stops before the lone call is made
        if defender is not None:
            bidding["aloneDefender"] = defender
        if discard is not None:
            bidding["discard"] = discard
        if exchanges:
            bidding["cardExchanges"] = exchanges
        if hints:
            bidding["callAnnotations"] = {"0": [HINT_PREFIX + " ".join(hints)]}
        record["phases"].append(bidding)
    if tricks:
        play: dict[str, Any] = {"phaseNumber": 1, "type": PLAY, "tricks": tricks}
        if play_hints:
            play["playAnnotations"] = play_hints
        record["phases"].append(play)
    return record


def _call(token: str) -> str:
    if token == "pass":
        return "Pass"
    if token == "order":
        return "Order"
    strain = token.partition(":")[2]
    return "n" if strain == "NT" else strain.lower()


def game_from_case(case: Any) -> tuple[Rules, int, list[int] | None, list[Hand]]:
    """A case's game, replayed on the reference: its rules, first dealer, starting scores and
    hands (steps the engine must refuse are left out, as are deals it must refuse)."""
    from reference_impl import load_rules

    if isinstance(case.data, dict) and case.data.get("expected_failure"):
        raise ExportError(f"case {case.id} expects an engine to fail: it is a defective record, not a game")
    rules = load_rules(case.variant, case.options)
    setup = case.setup
    scores = setup.get("scores")
    if "dealer" in setup:
        state = new_game(rules, dealer=setup["dealer"], scores=scores)
    else:
        first = setup["first_dealer"]
        state = new_game(rules, first_dealer_cards=first["cards"], start_seat=first.get("start", 0), scores=scores)
    for number, hand in enumerate(case.hands, 1):
        if hand.get("deal_reject"):
            continue
        deal = hand["deal"]
        if "deck" in deal:
            state.deal(rules.deal_from_order(deal["deck"], state.dealer))
        else:
            state.deal(case_deal(deal))
        for step in hand["steps"]:
            if "reject" in step:
                continue
            state.apply(step["action"], step["seat"])
    dealer, hands = game_from_events(rules, state.events)
    return rules, dealer, scores, hands


def case_to_egn(case: Any) -> dict[str, Any]:
    """The EGN record of a case's game."""
    rules, dealer, scores, hands = game_from_case(case)
    return to_egn(rules, dealer, hands, scores, title=case.title, game_id=case.id,
                  description=f"Exported by euchre-spec from the case {case.id}.", players=case_players(case))


PLAYERS_NOTE = re.compile(r"players by seat (\[[^\]]*\])")


def case_players(case: Any) -> list[str] | None:
    """The players' names an imported case keeps in its description (``players by seat [...]``,
    written by the importer), so that a game exported again keeps them."""
    text = case.data.get("description", "") if isinstance(case.data, dict) else ""
    found = PLAYERS_NOTE.search(text or "")
    if not found:
        return None
    try:
        names = json.loads(found.group(1))
    except json.JSONDecodeError:
        return None
    return [str(n) for n in names] if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
