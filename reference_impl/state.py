"""The game as a state machine: legal actions, apply, observe; hand after hand to game over.

The surface follows the ``State`` of game-research libraries: :meth:`State.legal_actions` lists what the seat
to act may do, :meth:`State.apply` does it (or raises :class:`ActionError` and changes
nothing), :meth:`State.is_terminal` says the game is over and :meth:`State.returns` gives the
scores. Dealing is the one chance event: when :meth:`State.is_chance_node` is true the state
waits for :meth:`State.deal` with the next hand's cards (explicit, or shuffled by a seeded
generator), so a game can be replayed exactly from its deals and its actions.

Nothing here names a variant: a hand is the table's steps (:mod:`reference_impl.steps`),
walked with an integer cursor; each step kind has a ``begin`` (which either settles the step
at once or waits for a decision) and the decisions it waits for.

``State.events`` is the game's log, a list of tuples whose first item is the kind:
``("first-dealer", seat)``, ``("deal", hand_number, dealer, hand_masks, upcard, widow_mask)``,
``("action", seat, token)``, ``("benny-suit", suit)``, ``("contract", bid_id, seat)``,
``("no-contract", strain)``, ``("trump", strain, maker)``, ``("alone", seat)``,
``("defend-alone", seat)``, ``("drop", seat)``, ``("swap", seat, laid, taken)``,
``("take", seat, source, cards)``, ``("decline", seat, source)``, ``("call", seat, suit, card)``,
``("partner", seat)``, ``("master-suit", suit)``, ``("trick", leader, ((seat, card), ...), winner)``,
``("score", row_id, points, scores)``, ``("counters", {id: values})``, ``("throw-in", hand_number)``,
``("game-over", winner)``; and, where a table has them, ``("declare", seat, step_id, points, scores)``,
``("misdeal", seat)``, ``("stand", seat)``, ``("refuse", seat)``, ``("exchange", seat, laid, taken)``,
``("renege", seat, card)``, ``("renege-claim", seat, seats_claimed_against)``. Cards in it are
indices into ``rules.card_names`` except in ``take``, ``swap``, ``call``, ``exchange`` and
``renege``, which name them.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from .errors import ActionError, ILLEGAL_ACTION, OUT_OF_TURN, WRONG_PHASE, SpecError
from .rules import AGAINST_REST, CALLED, EACH_ALONE, PLAY, TEAMS, Deal, Rules
from .scoring import award_points, recipients
from .steps import (ALONE, AUCTION, BIDDING, DEFEND_ALONE, EXCHANGE, FORCE_BID, GIVE, MAKE_TRUMPS, NAME, OFFER,
                    PARTNER, PROPOSAL, QUEUE_DEFENDERS, QUEUE_EVERYONE, QUEUE_MAKER_PARTNERS, QUEUE_OTHERS,
                    NO_STEP, SET_TRUMPS, SIT_OUT, SWAP, THROW_IN, TRUMPS, Step)
from .steps import CLAIM, MISDEAL, PROPOSE, SCORE
from .steps import CONCEDE, DECIDE_FIRST, DECIDE_UNANIMOUS
from .steps import PLAY as PLAY_STEP
from .visibility import history_fields, seat_view

# Phases with fixed names (a step names its own decisions' phase; see the table's `hand`).
DEAL = "deal"                      # waiting for the next hand's cards
TAKE_OFFER = "take-offer"          # a player offered the upcard (or widow): take it, or pass
DISCARD_PHASE = "discard"          # discard one card (repeated for each card owed)
TAKE_PHASE = "take-best"           # the loner: take the offered card unseen, or pass
PLAY_PHASE = "play"                # play a card to the trick
MASTER_SUIT = "master-suit"        # the leader of the master card names its suit
GAME_OVER = "game-over"

# What the state waits for (dispatch of legal actions and of apply).
(M_NONE, M_NAME, M_MAKE, M_AUCTION, M_OFFER, M_TAKE_OFFER, M_DISCARD, M_GIVE, M_TAKE_BEST, M_PLAY,
 M_MASTER) = range(11)
# An exchange by proposal (propose or stand; accept or refuse; discard then draw), and the play
# where a card the play rules forbid may still be played (a renege, claimed after the hand).
M_PROPOSE, M_RESPOND, M_EXCHANGE, M_FREE_PLAY = range(11, 15)
# What a finished discard goes back to.
AFTER_EXCHANGE, AFTER_GIVE, AFTER_SWAP = range(3)
AFTER_GIVE_FIRST = 3               # the receiver of a packet has discarded first: the giver passes it now
# Which side conceded the hand (the condition atom `conceded`, the observation's `conceded`).
CONCEDED_NONE, CONCEDED_MAKERS, CONCEDED_DEFENDERS = range(3)
CONCEDED_NAMES = (None, "makers", "defenders")


class State:
    """One game in progress. Create it with :func:`new_game`."""

    __slots__ = ("rules", "scores", "counters", "dealer", "hand_number", "phase", "mode", "to_act", "hands",
                 "upcard", "widow", "kitty", "proposal", "turned_down", "round", "trump", "maker", "bid", "alone",
                 "defender_alone", "active", "taken", "discards", "discard_limit", "discard_free", "resume",
                 "discarded", "pending", "cursor", "step", "queue", "offered", "auction_passed", "auction_rounds", "high_bid",
                 "high_bidder", "leader", "trick", "led", "tricks", "tricks_won", "next_of", "n_active",
                 "hand_points", "last_row", "winner", "events", "upcard_taken", "thrown_in", "partner",
                 "partner_shown", "called", "swap_seat", "givers", "stood", "exchanges", "exchange_count",
                 "reneged", "claimed", "declared", "conceded", "forced", "gift", "gift_ready")

    def __init__(self, rules: Rules, dealer: int, scores: Sequence[int] | None = None):
        self.rules = rules
        units = len(rules.units)
        self.scores: list[int] = list(scores) if scores is not None else [rules.start_score] * units
        if len(self.scores) != units:
            raise SpecError(f"{len(self.scores)} scores given for {units} sides")
        if not 0 <= dealer < rules.n:
            raise SpecError(f"dealer {dealer} is not a seat of {rules.n} players")
        self.counters: dict[str, list[int]] = {c.id: [c.start] * (rules.n if c.per_player else units)
                                               for c in rules.counters}
        self.dealer = dealer
        self.hand_number = 0
        self.phase = DEAL
        self.mode = M_NONE
        self.to_act = -1
        self.hand_points: list[int] | None = None
        self.last_row: str | None = None
        self.winner: int | None = None
        self.events: list[tuple[Any, ...]] = []
        self.thrown_in = False
        self._clear_hand()

    def _clear_hand(self) -> None:
        n = self.rules.n
        self.hands = [0] * n
        self.upcard = -1
        self.upcard_taken = False
        self.widow = 0
        self.kitty: list[int] = []
        self.proposal = -1
        self.turned_down = -1
        self.round = 0
        self.trump = -1
        self.maker = -1
        self.bid = -1
        self.alone = False
        self.defender_alone = -1
        self.active = (1 << n) - 1
        self.taken = [0] * n
        self.discards: list[list[int]] = []
        self.discard_limit = self.rules.full_mask
        self.discard_free = True
        self.resume = AFTER_EXCHANGE
        self.discarded: list[int] = []
        self.pending: list = []             # exchange rules still to apply
        self.cursor = 0
        self.step: Step = NO_STEP           # the step running (NO_STEP between hands)
        self.queue: list[int] = []
        self.offered = -1
        self.auction_passed = 0
        self.auction_rounds = 0             # rounds of the auction completed (for a step with `rounds`)
        self.high_bid = -1
        self.high_bidder = -1
        self.leader = -1
        self.trick: list[tuple[int, int]] = []
        self.led = -1
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.tricks_won = [0] * n
        self.next_of: list[int] = list(self.rules.left)
        self.n_active = n
        self.partner = -1
        self.partner_shown = False
        self.called = -1
        self.swap_seat = -1
        self.givers: list[int] = []
        self.stood = -1                     # the seat that stood: played without proposing, or refused, before any exchange
        self.exchanges = 0                  # exchanges made by proposal this hand
        self.exchange_count = 0             # cards laid out so far by the seat exchanging
        self.reneged = 0                    # seats that played a card the play rules forbid (where that is allowed)
        self.claimed = 0                    # the seats of those a renege was claimed against
        self.declared: list[int] = []       # points scored at once this hand, per unit (declarations); empty: none
        self.conceded = CONCEDED_NONE       # which side conceded the hand (an offer with effect: concede)
        self.forced = False                 # the contract was forced: a force-bid step, or a seat that might not pass
        self.gift: list[int] = []           # the cards of a packet passed so far by the giver (give-count > 1)
        self.gift_ready = False             # give-order: discard-first: the receiver has discarded for this giver

    # -- the public surface ---------------------------------------------------------------------
    def is_chance_node(self) -> bool:
        """True when the next hand's cards are awaited (call :meth:`deal`)."""
        return self.phase == DEAL

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def current_player(self) -> int | None:
        """The seat to act, or None while a deal is awaited or the game is over."""
        return self.to_act if self.to_act >= 0 else None

    def returns(self) -> list[int]:
        """The game scores, one per scoring unit (partnership, or player)."""
        return list(self.scores)

    def legal_actions(self) -> list[str]:
        """The actions the seat to act may take now, as tokens (empty when none)."""
        if self.mode == M_PLAY:
            return self.rules.play_tokens(self._playable())
        return _LEGAL[self.mode](self)

    def apply(self, action: str, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (or check that it is ``seat``'s turn).

        Raises :class:`ActionError` with category ``wrong_phase``, ``out_of_turn`` or
        ``illegal_action`` (checked in that order); the state is then unchanged.
        """
        if self.to_act < 0:
            raise ActionError(WRONG_PHASE, f"no one is to act in phase {self.phase}")
        if seat is not None and seat != self.to_act:
            raise ActionError(OUT_OF_TURN, f"seat {seat} acted but seat {self.to_act} is to act")
        try:
            kind, arg = self.rules.decode[action]
        except (KeyError, TypeError):
            raise ActionError(ILLEGAL_ACTION, f"{action!r} is not an action of this variant") from None
        if self.mode == M_PLAY:
            if kind != PLAY:
                raise ActionError(ILLEGAL_ACTION, f"{action} is not allowed in phase {self.phase}: "
                                                  f"seat {self.to_act} must play a card")
            if not self._playable() >> arg & 1:
                raise ActionError(ILLEGAL_ACTION, self._why_not_playable(arg))
            self.events.append(("action", self.to_act, action))
            self._play(arg)
            return
        if action not in _LEGAL[self.mode](self):
            raise ActionError(ILLEGAL_ACTION, f"{action} is not allowed in phase {self.phase} for seat {self.to_act}")
        self.events.append(("action", self.to_act, action))
        _APPLY[self.mode](self, action, arg)

    def deal(self, deal: Deal) -> None:
        """Start the next hand with the given cards (the dealer is the state's dealer)."""
        if self.phase != DEAL:
            raise ActionError(WRONG_PHASE, f"a deal is not expected in phase {self.phase}")
        problems = self.rules.check_deal(deal)
        if problems:
            raise SpecError("; ".join(problems))
        r = self.rules
        self._start_hand([r.mask_of(h) for h in deal.hands],
                         r.card_index[deal.upcard] if deal.upcard is not None else -1,
                         r.mask_of(deal.widow), [r.card_index[c] for c in deal.kitty])

    def deal_random(self, rng: random.Random) -> None:
        """Shuffle with ``rng`` and deal the next hand (``rules.random_deal`` gives the same
        deal as a :class:`Deal`, for a record)."""
        if self.phase != DEAL:
            raise ActionError(WRONG_PHASE, f"a deal is not expected in phase {self.phase}")
        r = self.rules
        order = r.shuffled(rng)
        n, dealer = r.n, self.dealer
        hands = [0] * n
        widow, upcard = 0, -1
        for card, destination in zip(order, r.deal_plan):
            if destination >= 0:
                hands[(dealer + 1 + destination) % n] |= 1 << card
            elif destination == -1:
                widow |= 1 << card
            else:
                upcard = card
        self._start_hand(hands, upcard, widow, order[len(r.deal_plan):])

    def clone(self, keep_events: bool = True) -> "State":
        """An independent copy. A search (perft) passes ``keep_events=False``: the copy's
        event log then starts empty instead of copying the game's, which makes copying
        several times cheaper."""
        other = _blank(self.rules)
        # Values that are immutable or only ever replaced whole are shared; lists changed in
        # place are copied. Spelled out, not looped over: this is perft's inner loop.
        other.rules = self.rules
        other.dealer = self.dealer
        other.hand_number = self.hand_number
        other.phase = self.phase
        other.mode = self.mode
        other.to_act = self.to_act
        other.upcard = self.upcard
        other.widow = self.widow
        other.proposal = self.proposal
        other.turned_down = self.turned_down
        other.round = self.round
        other.trump = self.trump
        other.maker = self.maker
        other.bid = self.bid
        other.alone = self.alone
        other.defender_alone = self.defender_alone
        other.active = self.active
        other.discard_limit = self.discard_limit
        other.discard_free = self.discard_free
        other.resume = self.resume
        other.cursor = self.cursor
        other.step = self.step
        other.offered = self.offered
        other.auction_passed = self.auction_passed
        other.auction_rounds = self.auction_rounds
        other.high_bid = self.high_bid
        other.high_bidder = self.high_bidder
        other.leader = self.leader
        other.led = self.led
        other.n_active = self.n_active
        other.hand_points = self.hand_points
        other.last_row = self.last_row
        other.winner = self.winner
        other.upcard_taken = self.upcard_taken
        other.thrown_in = self.thrown_in
        other.partner = self.partner
        other.partner_shown = self.partner_shown
        other.called = self.called
        other.swap_seat = self.swap_seat
        other.stood = self.stood
        other.exchanges = self.exchanges
        other.exchange_count = self.exchange_count
        other.reneged = self.reneged
        other.claimed = self.claimed
        other.declared = self.declared[:]
        other.conceded = self.conceded
        other.forced = self.forced
        other.gift = self.gift[:]
        other.gift_ready = self.gift_ready
        other.scores = self.scores[:]
        other.hands = self.hands[:]
        other.kitty = self.kitty[:]
        other.taken = self.taken[:]
        other.discarded = self.discarded[:]
        other.pending = self.pending[:]
        other.queue = self.queue[:]
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]
        other.tricks_won = self.tricks_won[:]
        other.next_of = self.next_of[:]
        other.givers = self.givers[:]
        other.discards = [entry[:] for entry in self.discards]
        other.counters = {key: values[:] for key, values in self.counters.items()}
        other.events = self.events[:] if keep_events else []
        return other

    # -- sides of the hand ------------------------------------------------------------------------
    def maker_side(self) -> frozenset[int]:
        """The seats playing with the maker this hand (the maker included; empty without one)."""
        r = self.rules
        if self.maker < 0:
            return frozenset()
        if r.sides == TEAMS:
            return frozenset(r.units[r.unit_of[self.maker]])
        if r.sides == CALLED and self.partner >= 0:
            return frozenset((self.maker, self.partner))
        return frozenset((self.maker,))

    def maker_side_tricks(self) -> int:
        side = self.maker_side()
        return sum(self.tricks_won[s] for s in side)

    def made(self) -> bool:
        """Whether the makers made it: as their bid says, else ``makers-need`` tricks."""
        tricks = self.maker_side_tricks()
        if self.bid >= 0:
            bid = self.rules.bids[self.bid]
            return bid.min_tricks <= tricks <= bid.max_tricks
        return tricks >= self.rules.makers_need

    def _partners(self, seat: int) -> tuple[int, ...]:
        """The seats playing with ``seat`` in this hand (not ``seat`` itself)."""
        r = self.rules
        if r.sides == TEAMS:
            return r.team_mates[seat]
        if r.sides == CALLED and self.maker >= 0 and self.partner >= 0 and seat in (self.maker, self.partner):
            return (self.partner,) if seat == self.maker else (self.maker,)
        if r.sides == AGAINST_REST and self.maker >= 0 and seat != self.maker:
            return tuple(s for s in range(r.n) if s not in (seat, self.maker))
        return ()

    # -- starting and ending a hand ------------------------------------------------------------
    def _start_hand(self, hands: list[int], upcard: int, widow: int, kitty: list[int]) -> None:
        self._clear_hand()
        self.thrown_in = False
        self.hand_points = None
        self.last_row = None
        self.hands = hands
        self.upcard = upcard
        self.widow = widow
        self.kitty = kitty
        self.hand_number += 1
        self.events.append(("deal", self.hand_number, self.dealer, tuple(hands), upcard, widow))
        r = self.rules
        if upcard >= 0 and not r.cards.benny_mask >> upcard & 1:
            self.proposal = r.printed_suit[upcard]
        self._advance()

    def _throw_in(self, same_dealer: bool) -> None:
        self.thrown_in = True
        self.hand_points = [0] * len(self.rules.units)
        self.events.append(("throw-in", self.hand_number))
        self.mode, self.to_act = M_NONE, -1
        if self.rules.deals and self.hand_number >= self.rules.deals:
            self._end_game(self._best([u for u in range(len(self.rules.units))]))
            return
        if not same_dealer:
            self.dealer = self.rules.left[self.dealer]
        self.phase = DEAL

    # -- the steps of a hand -----------------------------------------------------------------------
    def _advance(self) -> None:
        """Run the steps from the cursor until one waits for a decision (or the hand ends)."""
        steps = self.rules.steps
        while self.cursor < len(steps):
            step = steps[self.cursor]
            settled = self.trump >= 0 and (step.kind in BIDDING or (step.kind == NAME and step.effect in (PROPOSAL, TRUMPS)))
            if not settled and step.when(self, -1, -1):
                self.step = step
                if _BEGIN[step.kind](self, step):        # waits for a decision, or ended the hand
                    return
            self.cursor += 1
        if len(self.tricks) == self.rules.hand_size:       # the steps after the play are done
            self._score_hand()
            return
        raise SpecError(f"{self.rules.id}: the hand's steps ended without a play")

    def _next(self) -> None:
        """The current step is done: go on with the next."""
        self.cursor += 1
        self._advance()

    def _wait(self, mode: int, phase: str, seat: int) -> bool:
        self.mode, self.phase, self.to_act = mode, phase, seat
        return True

    def _seats_from(self, start: int) -> list[int]:
        """Every seat in the hand, clockwise from ``start``."""
        n = self.rules.n
        return [(start + k) % n for k in range(n) if self.active >> ((start + k) % n) & 1]

    # name ---------------------------------------------------------------------------------------
    def _begin_name(self, step: Step) -> bool:
        if step.effect == PARTNER and (self.maker < 0 or self.alone):
            return False
        seat = step.who(self)
        if seat < 0:
            return False
        return self._wait(M_NAME, step.phase, seat)

    def _legal_name(self) -> list[str]:
        return [self.rules.name_token[ctx] for ctx in self.step.names]

    def _apply_name(self, action: str, arg: int) -> None:
        r = self.rules
        effect = self.step.effect
        if effect == PROPOSAL:
            self.proposal = arg
            self.events.append(("benny-suit", r.suits[arg]))
        elif effect == TRUMPS:
            self._make_trump(arg, self.maker)
            return
        else:
            self._call_partner(arg)
        self._next()

    def _call_partner(self, suit: int) -> None:
        """The holder of the named suit's best card (its ace, or its top trump) partners the
        maker; he is known to the others only when he plays it."""
        r = self.rules
        members = [c for c in range(r.n_cards) if r.eff[self.trump][c] == suit]
        best = max(members, key=lambda c: r.power[self.trump][suit][c]) if members else -1
        self.called = best
        holder = next((s for s, hand in enumerate(self.hands) if best >= 0 and hand >> best & 1), -1)
        self.partner = holder if holder != self.maker else -1
        self.events.append(("call", self.maker, r.suits[suit], r.card_names[best] if best >= 0 else None))

    # make-trumps ------------------------------------------------------------------------------------
    def _begin_make(self, step: Step) -> bool:
        if step.order and self.proposal < 0:
            return False
        self.queue = self._seats_from(step.start(self))
        return self._wait(M_MAKE, step.phase, self.queue[0])

    def _legal_make(self) -> list[str]:
        step, r = self.step, self.rules
        stuck = step.stuck(self) == self.to_act
        if step.order:
            return ["order"] if stuck else ["pass", "order"]
        legal = [] if stuck else ["pass"]
        for suit, token in enumerate(r.call_token[:r.NT]):
            if suit != self.turned_down or step.turned_down_allowed:
                legal.append(token)
        if step.no_trump:
            legal.append(r.call_token[r.NT])
        if step.low_no_trump:
            legal.append(r.call_token[r.NL])
        return legal

    def _apply_make(self, action: str, arg: int) -> None:
        step = self.step
        if action != "pass":
            self.round = step.number
            self.forced = step.stuck(self) == self.to_act      # the stuck seat had no pass: its trumps are forced
            self._make_trump(self.proposal if action == "order" else arg, self.to_act)
            return
        self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
            return
        if step.order:
            self.turned_down = self.proposal
        self._next()

    # auction ------------------------------------------------------------------------------------------
    def _begin_auction(self, step: Step) -> bool:
        if self.maker >= 0:
            return False
        self.queue = self._seats_from(step.start(self))
        self.high_bid, self.high_bidder, self.auction_passed, self.auction_rounds = -1, -1, 0, 0
        return self._wait(M_AUCTION, step.phase, self.queue[0])

    def _legal_auction(self) -> list[str]:
        bids = self.rules.bids
        high = self.high_bid
        step = self.step
        if self._stuck_in_auction():
            return [bids[i].token for i in step.stuck_bids]     # stuck: every other seat passed, no bid made
        return ["pass"] + [bids[i].token for i in self.step.bids if i > high and (bids[i].after < 0 or high >= bids[i].after)]

    def _stuck_in_auction(self) -> bool:
        """The seat to act is the auction's stuck seat, every other seat passed and no bid
        was made: it may not pass (its bid is a forced contract)."""
        step = self.step
        return self.high_bid < 0 and bool(step.stuck_bids) and step.stuck(self) == self.to_act and all(
            s == self.to_act or self.auction_passed >> s & 1 for s in self.queue)

    def _apply_auction(self, action: str, arg: int) -> None:
        seat = self.to_act
        if action == "pass":
            self.auction_passed |= 1 << seat
        else:
            self.forced = self._stuck_in_auction()
            self.high_bid, self.high_bidder = arg, seat
        if not self.step.until_passed:
            self.queue.pop(0)
            if self.queue:
                self.to_act = self.queue[0]
            else:
                self._auction_over()
            return
        still_in = [s for s in self.queue if not self.auction_passed >> s & 1]
        if (self.high_bidder >= 0 and still_in == [self.high_bidder]) or not still_in:
            self._auction_over()
            return
        order = self.queue
        at = order.index(seat)
        for k in range(1, len(order) + 1):
            nxt = order[(at + k) % len(order)]
            if not self.auction_passed >> nxt & 1:
                if at + k >= len(order):          # the turn goes back past the first seat: a round ended
                    self.auction_rounds += 1
                    if self.step.max_rounds and self.auction_rounds >= self.step.max_rounds:
                        self._auction_over()
                        return
                self.to_act = nxt
                return

    def _auction_over(self) -> None:
        if self.high_bidder < 0:
            self._next()
            return
        self._win_contract(self.high_bid, self.high_bidder)
        if self.trump < 0 and self.phase not in (DEAL, GAME_OVER):
            self._next()

    def _win_contract(self, bid: int, seat: int) -> None:
        """``seat`` wins the contract ``bid``: trumps are made if the bid names them."""
        r = self.rules
        self.bid, self.maker = bid, seat
        self.events.append(("contract", r.bids[bid].id, seat))
        if r.bids[bid].alone:            # a lone bid is alone from the moment it wins, before trumps are named
            self._go_alone()
        if r.bids[bid].strain >= 0:
            self._make_trump(r.bids[bid].strain, seat)

    # force-bid, set-trumps, throw-in -----------------------------------------------------------------
    def _begin_force_bid(self, step: Step) -> bool:
        if self.maker >= 0:
            return False
        seat = step.who(self)
        if seat < 0:
            return False
        self.forced = True
        self._win_contract(step.bid, seat)
        return self.trump >= 0          # trumps made: the steps went on from there

    def _begin_set_trumps(self, step: Step) -> bool:
        trumps = step.trumps if step.trumps >= 0 else self.rules.printed_suit[self.upcard]   # the upcard's suit
        self.trump, self.maker = trumps, -1
        self.events.append(("no-contract", self.rules.strain_names[trumps]))
        return False

    def _begin_throw_in(self, step: Step) -> bool:
        if self.maker >= 0:
            return False
        self._throw_in(same_dealer=step.same_dealer)
        return True

    def _make_trump(self, context: int, maker: int) -> None:
        r = self.rules
        self.trump, self.maker = context, maker
        self.events.append(("trump", r.strain_names[context], maker))
        if self.bid >= 0 and r.bids[self.bid].alone and not self.alone:
            self._go_alone()
        self._next()

    # offer ---------------------------------------------------------------------------------------------
    def _begin_offer(self, step: Step) -> bool:
        if step.queue < 0:
            seat = step.target(self)
            self.queue = [seat] if seat >= 0 and self.active >> seat & 1 else []
        else:
            start = step.target(self)
            if start < 0:
                return False
            side = self.maker_side()
            seats = self._seats_from(start)
            if step.queue == QUEUE_DEFENDERS:
                seats = [s for s in seats if s not in side]
            elif step.queue == QUEUE_MAKER_PARTNERS:
                seats = [s for s in seats if s in side and s != self.maker]
            elif step.queue == QUEUE_OTHERS:
                seats = [s for s in seats if s != self.maker]
            self.queue = seats
            if step.decision == DECIDE_UNANIMOUS:      # every seat that will be asked is known now
                self.queue = [s for s in seats if self.active >> s & 1 and step.eligible(self, s, -1)]
        return self._next_offer()

    def _next_offer(self) -> bool:
        """Ask the next seat of the offer's queue; False when no one is left to ask."""
        step = self.step
        while self.queue:
            seat = self.queue[0]
            if not self.active >> seat & 1 or not step.eligible(self, seat, -1):
                self.queue.pop(0)
                continue
            if step.decision == DECIDE_FIRST:          # this seat answers for its side: no one after it
                self.queue = [seat]
            if step.forced(self, seat, -1):
                self.queue.pop(0)
                if step.decision == DECIDE_UNANIMOUS and self.queue:   # agreed: the others are asked still
                    continue
                if self._accept(step, seat):
                    return True
                continue
            return self._wait(M_OFFER, step.phase, seat)
        return False

    def _legal_offer(self) -> list[str]:
        return [self.step.decline, self.step.accept]

    def _apply_offer(self, action: str, arg: int) -> None:
        step = self.step
        seat = self.queue.pop(0)
        if step.decision == DECIDE_UNANIMOUS:
            if action != step.accept:                  # one refusal settles it for the side
                self.queue = []
            elif not self.queue and self._accept(step, seat):   # the last seat agreed: it takes effect
                return
            if not self._next_offer():
                self._next()
            return
        if action == step.accept and self._accept(step, seat):
            return
        if not self._next_offer():
            self._next()

    def _accept(self, step: Step, seat: int) -> bool:
        """Do what accepting the offer does; True when that waits for a decision."""
        effect = step.effect
        if step.first_accept_ends:
            self.queue = []
        if effect == ALONE:
            self._go_alone()
        elif effect == DEFEND_ALONE:
            self.defender_alone = seat
            self.events.append(("defend-alone", seat))
            for partner in self._partners(seat):
                self.active &= ~(1 << partner)
        elif effect == SIT_OUT:
            self.active &= ~(1 << seat)
            self.events.append(("drop", seat))
        elif effect == SCORE:
            return self._score_at_once(step, seat)
        elif effect == CONCEDE:
            self._concede(seat)
            return True
        elif effect == MISDEAL:
            self.events.append(("misdeal", seat))
            self._throw_in(same_dealer=step.same_dealer)
            return True
        elif effect == CLAIM:
            against = self.claimable(seat)
            self.claimed |= against
            self.events.append(("renege-claim", seat, tuple(s for s in range(self.rules.n) if against >> s & 1)))
        elif effect == SWAP:
            self.swap_seat = seat
            self.discards = [[seat, step.swap_count]]
            self.discard_limit, self.discard_free, self.resume = step.swap_mask, True, AFTER_SWAP
            return self._wait(M_DISCARD, DISCARD_PHASE, seat)
        return False

    def _go_alone(self) -> None:
        self.alone = True
        self.events.append(("alone", self.maker))
        for partner in self._partners(self.maker):
            self.active &= ~(1 << partner)

    def _finish_swap(self) -> None:
        seat, count = self.swap_seat, self.step.swap_count
        laid = self.discarded[-count:]
        del self.discarded[-count:]
        taken = self.kitty[:count]
        self.kitty = laid + self.kitty[count:]
        for card in taken:
            self.hands[seat] |= 1 << card
        names = self.rules.card_names
        self.events.append(("swap", seat, [names[c] for c in laid], [names[c] for c in taken]))
        if not self._next_offer():
            self._next()

    # exchange -------------------------------------------------------------------------------------------
    def _begin_exchange(self, step: Step) -> bool:
        # A take whose seat is not there (the maker's, where trumps were set with no maker) is
        # passed over; the others are offered as written (the dealer takes the upcard after
        # `set-trumps` as after a bidding round). The semantic checks refuse a take that can
        # never find its seat.
        self.discards = []
        self.discard_limit, self.discard_free, self.resume = self.rules.full_mask, step.may_discard_taken, AFTER_EXCHANGE
        pending = []
        for take in step.takes:
            seat = take.who(self)
            if seat >= 0 and take.when(self, -1, -1) and (step.sitting_out_takes or self.active >> seat & 1):
                pending.append(take)
        self.pending = pending
        return self._continue_exchange()

    def _continue_exchange(self) -> bool:
        while self.pending:
            take = self.pending[0]
            if not self._available(take):
                self.pending.pop(0)
                continue
            if take.optional:
                return self._wait(M_TAKE_OFFER, TAKE_OFFER, take.who(self))
            self.pending.pop(0)
            self._take(take)
        if not self.discards:
            return False
        return self._wait(M_DISCARD, DISCARD_PHASE, self.discards[0][0])

    def _available(self, take) -> bool:
        if take.source == "upcard":
            return self.upcard >= 0 and not self.upcard_taken
        return bool(self.widow)

    def _take(self, take) -> None:
        seat = take.who(self)
        if take.source == "upcard":
            cards = 1 << self.upcard
            self.upcard_taken = True
        else:
            cards, self.widow = self.widow, 0
        self.hands[seat] |= cards
        self.taken[seat] |= cards
        self.events.append(("take", seat, take.source, self.rules.cards_of(cards)))
        count = bin(cards).count("1")
        for entry in self.discards:
            if entry[0] == seat:
                entry[1] += count
                return
        self.discards.append([seat, count])

    def _legal_take(self) -> list[str]:
        return ["pass", "take"]

    def _apply_take_offer(self, action: str, arg: int) -> None:
        take = self.pending.pop(0)
        if action == "take":
            self._take(take)
        else:
            self.events.append(("decline", self.to_act, take.source))
        if not self._continue_exchange():
            self._next()

    # discard ---------------------------------------------------------------------------------------------
    def _discardable(self) -> int:
        hand = self.hands[self.to_act] & self.discard_limit
        if not self.discard_free:
            hand &= ~self.taken[self.to_act]
        return hand

    def _legal_discard(self) -> list[str]:
        return self.rules.discard_tokens(self._discardable())

    def _apply_discard(self, action: str, arg: int) -> None:
        self.hands[self.to_act] &= ~(1 << arg)
        self.discarded.append(arg)
        entry = self.discards[0]
        entry[1] -= 1
        if entry[1] == 0:
            self.discards.pop(0)
        if self.discards:
            self.to_act = self.discards[0][0]
            return
        if self.resume == AFTER_SWAP:
            self._finish_swap()
        elif self.resume == AFTER_GIVE:
            if not self._next_giver():
                self._next()
        elif self.resume == AFTER_GIVE_FIRST:
            self.gift_ready = True
            self._wait(M_GIVE, self.step.phase, self.givers[0])
        else:
            self._next()

    # give (the partner's best) ------------------------------------------------------------------------
    def _begin_give(self, step: Step) -> bool:
        if self.maker < 0:
            return False
        r = self.rules
        side = self.maker_side()
        self.givers = [(self.maker + k) % r.n for k in range(1, r.n) if (self.maker + k) % r.n in side]
        return self._next_giver()

    def _next_giver(self) -> bool:
        if not self.givers:
            return False
        step = self.step
        if step.discard_first and not self.gift_ready:      # the receiver lays away his cards first
            self.taken[self.maker] = 0
            self.discards = [[self.maker, step.give_count]]
            self.discard_limit, self.discard_free, self.resume = self.rules.full_mask, True, AFTER_GIVE_FIRST
            return self._wait(M_DISCARD, DISCARD_PHASE, self.maker)
        return self._wait(M_GIVE, step.phase, self.givers[0])

    def _legal_give(self) -> list[str]:
        cards = self.rules.give_tokens(self.hands[self.to_act])
        return (["pass"] + cards) if self.step.giver_may_pass else cards

    def _apply_give(self, action: str, arg: int) -> None:
        if self.step.give_count > 1 or self.step.discard_first:
            self._give_packet(arg)
            return
        self.givers.pop(0)
        if action == "pass":
            if not self._next_giver():
                self._next()
            return
        self.hands[self.to_act] &= ~(1 << arg)
        self.offered = arg
        if self.step.receiver_may_refuse:
            self._wait(M_TAKE_BEST, TAKE_PHASE, self.maker)
        else:
            self._take_best()

    def _give_packet(self, card: int) -> None:
        """One card of a packet of ``give-count`` (the giver may not pass, the receiver not
        refuse): the giver passes them one at a time; the receiver takes the packet whole, then
        discards as many (or has discarded first, with give-order: discard-first)."""
        step = self.step
        giver = self.to_act
        self.hands[giver] &= ~(1 << card)
        self.gift.append(card)
        if len(self.gift) < step.give_count:
            self._wait(M_GIVE, step.phase, giver)
            return
        self.givers.pop(0)
        for given in self.gift:
            self.hands[self.maker] |= 1 << given
        self.events.append(("take", self.maker, "partner", [self.rules.card_names[c] for c in self.gift]))
        self.gift = []
        if step.discard_first:
            self.gift_ready = False
            if not self._next_giver():
                self._next()
            return
        self.taken[self.maker] = 0      # free, as the partner's best: a rule on discarding taken cards binds the exchange only
        self.discards = [[self.maker, step.give_count]]
        self.discard_limit, self.discard_free, self.resume = self.rules.full_mask, True, AFTER_GIVE
        self._wait(M_DISCARD, DISCARD_PHASE, self.maker)

    def _take_best(self) -> None:
        self.hands[self.maker] |= 1 << self.offered
        self.taken[self.maker] = 0      # this discard is free: a rule on discarding taken cards binds the exchange only
        self.events.append(("take", self.maker, "partner", [self.rules.card_names[self.offered]]))
        self.discards = [[self.maker, 1]]
        self.discard_limit, self.discard_free, self.resume = self.rules.full_mask, True, AFTER_GIVE
        self._wait(M_DISCARD, DISCARD_PHASE, self.maker)

    def _apply_take_best(self, action: str, arg: int) -> None:
        if action == "take":
            self._take_best()
            return
        self.discarded.append(self.offered)
        if not self._next_giver():
            self._next()

    # declarations, misdeals, renege claims (offers' effects) ------------------------------------------
    def _score_at_once(self, step: Step, seat: int) -> bool:
        """A declaration: the seat's side scores the step's points now, which may end the game
        (True then: nothing more is asked)."""
        r = self.rules
        unit = r.unit_of[seat]
        self.scores[unit] += step.points
        if not self.declared:
            self.declared = [0] * len(r.units)
        self.declared[unit] += step.points
        self.events.append(("declare", seat, step.id, step.points, tuple(self.scores)))
        if self._reached(unit) and (r.win_requires is None or r.win_requires(self, -1, unit)):
            self.hand_points = list(self.declared)
            self._end_game(unit)
            return True
        return False

    def _concede(self, seat: int) -> None:
        """The seat's side concedes: the hand ends here and is scored (rows test `conceded`)."""
        self.conceded = CONCEDED_MAKERS if seat in self.maker_side() else CONCEDED_DEFENDERS
        self.queue = []
        self.events.append(("concede", seat, CONCEDED_NAMES[self.conceded]))
        self.mode, self.to_act = M_NONE, -1
        self._score_hand()

    def claimable(self, seat: int) -> int:
        """The seats of other sides than ``seat``'s that reneged this hand and have not been
        claimed against yet (a bitmask)."""
        own = 1 << seat
        for partner in self._partners(seat):
            own |= 1 << partner
        return self.reneged & ~self.claimed & ~own

    # an exchange by proposal ----------------------------------------------------------------------------
    def _begin_propose(self, step: Step) -> bool:
        self.exchanges = 0
        return self._ask_proposal()

    def _ask_proposal(self) -> bool:
        """The proposer proposes an exchange or stands; False (the step is over) when the
        stock can no longer serve one, or the table's number of exchanges has been made."""
        step = self.step
        seat = step.who(self)
        if seat < 0 or len(self.kitty) < step.min_discard or (step.max_exchanges and self.exchanges >= step.max_exchanges):
            return False
        return self._wait(M_PROPOSE, step.phase, seat)

    def _legal_propose(self) -> list[str]:
        return ["stand", "propose"]

    def _apply_propose(self, action: str, arg: int) -> None:
        if action == "stand":
            if self.exchanges == 0:
                self.stood = self.to_act
            self.events.append(("stand", self.to_act))
            self._next()
            return
        self._wait(M_RESPOND, self.step.phase, self.step.responder(self))

    def _legal_respond(self) -> list[str]:
        return ["refuse", "accept"]

    def _apply_respond(self, action: str, arg: int) -> None:
        if action == "refuse":
            if self.exchanges == 0:
                self.stood = self.to_act
            self.events.append(("refuse", self.to_act))
            self._next()
            return
        self.exchange_count = 0
        self._wait(M_EXCHANGE, DISCARD_PHASE, self.step.who(self))

    def _exchange_minimum(self) -> int:
        step = self.step
        least = step.min_discard if self.to_act == step.who(self) else step.responder_min_discard
        return min(least, len(self.kitty))

    def _legal_exchange(self) -> list[str]:
        legal = ["draw"] if self.exchange_count >= self._exchange_minimum() else []
        if self.exchange_count < len(self.kitty):
            legal += self.rules.discard_tokens(self.hands[self.to_act])
        return legal

    def _apply_exchange(self, action: str, arg: int) -> None:
        seat = self.to_act
        if action != "draw":
            self.hands[seat] &= ~(1 << arg)
            self.discarded.append(arg)
            self.exchange_count += 1
            return
        count = self.exchange_count
        laid = self.discarded[len(self.discarded) - count:] if count else []
        taken, self.kitty = self.kitty[:count], self.kitty[count:]
        for card in taken:
            self.hands[seat] |= 1 << card
        names = self.rules.card_names
        self.events.append(("exchange", seat, [names[c] for c in laid], [names[c] for c in taken]))
        self.exchange_count = 0
        if seat == self.step.who(self):
            self._wait(M_EXCHANGE, DISCARD_PHASE, self.step.responder(self))
            return
        self.exchanges += 1
        if not self._ask_proposal():
            self._next()

    # the play where reneging is allowed ------------------------------------------------------------------
    def _legal_free_play(self) -> list[str]:
        return self.rules.play_tokens(self.hands[self.to_act])

    def _apply_free_play(self, action: str, arg: int) -> None:
        """Any card held may be played; one the play rules forbid is a renege, remembered for
        a claim after the last trick."""
        if not self._playable() >> arg & 1:
            self.reneged |= 1 << self.to_act
            self.events.append(("renege", self.to_act, self.rules.card_names[arg]))
        self._play(arg)

    # the play ------------------------------------------------------------------------------------------
    def _begin_play(self, step: Step) -> bool:
        r = self.rules
        active = self.active
        if not active:                   # every seat sat out: the hand is void (the play step's rule)
            self._throw_in(same_dealer=step.same_dealer)
            return True
        start = r.left[self.dealer]
        for when, leader in step.lead:   # the first rule that holds and names a seat (a maker's seat
            if when(self, -1, -1):       # names none in a hand with no maker)
                seat = leader(self)
                if seat >= 0:
                    start = seat
                    break
        start = self._next_active(start)
        if self.trump < 0 and not step.trumps_by_lead:
            raise SpecError(f"{r.id}: the play begins with no trumps made, and its step does not take them from the lead")
        left = r.left
        next_of = [0] * r.n
        for seat in range(r.n):          # ends: ``active`` holds a seat (checked above), and left is one cycle
            nxt = left[seat]
            while not active >> nxt & 1:
                nxt = left[nxt]
            next_of[seat] = nxt
        self.next_of = next_of
        self.n_active = bin(active).count("1")
        self.leader = start
        self.trick, self.led = [], -1
        return self._wait(M_FREE_PLAY if step.renege else M_PLAY, PLAY_PHASE, start)

    def _next_active(self, seat: int) -> int:
        """``seat`` if it plays, else the first seat to its left that does: bounded by the
        number of seats, so that a hand with no one left to play raises instead of spinning."""
        r, active = self.rules, self.active
        for _ in range(r.n):
            if active >> seat & 1:
                return seat
            seat = r.left[seat]
        raise SpecError(f"{r.id}: no seat is left to play the hand")

    def _playable(self) -> int:
        """The bitmask of cards the seat to act may play: follow the effective suit led if
        able (the master card too, where it may be played at any time), else anything; the
        play step's stricter rules (``must``) narrow that further."""
        hand = self.hands[self.to_act]
        if self.trick:
            if self.step.strict:
                return self._strict_playable(hand)
            r = self.rules
            follow = hand & r.suit_mask[self.trump][self.led]
            if follow:
                if r.master_any_time and self.trump >= r.NT:
                    follow |= hand & r.master_bit
                return follow
        return hand

    def _beating(self, cards: int) -> int:
        """The cards of the bitmask ``cards`` that would take the trick as it stands (an equal
        card only where the later of two equal cards wins)."""
        r = self.rules
        power = r.power[self.trump][self.led]
        best = max(power[c] for _, c in self.trick)
        later = r.later_equal_wins
        beating = 0
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            if power[c] > best or (later and power[c] == best):
                beating |= low
            cards ^= low
        return beating

    def _strict_playable(self, hand: int) -> int:
        """Follow suit, then the play step's ``must`` rules, each a condition on the legal set:
        ``head`` (a seat that follows must beat the trick's best card if it can), ``trump`` (a
        seat void in the suit led must play a trump if it has one), ``overtrump`` (a trump
        played to a trick that already holds a trump must beat it if one can; a seat unable
        to overtrump may play any trump, or, without ``trump``, anything)."""
        r, step, trump = self.rules, self.step, self.trump
        head, must_trump, overtrump = step.must_head, step.must_trump, step.must_overtrump
        if True in step.partner_frees and self._partner_winning():
            free_head, free_trump, free_overtrump = step.partner_frees
            head, must_trump, overtrump = head and not free_head, must_trump and not free_trump, \
                overtrump and not free_overtrump
        follow = hand & r.suit_mask[trump][self.led]
        if follow:
            if r.master_any_time and trump >= r.NT:
                follow |= hand & r.master_bit
            if step.privileged and self.led == trump and not follow & ~self._excused(follow):
                return hand                            # only privileged trumps above the card led: free
            if head:
                follow = self._beating(follow) or follow
            if step.trump_any_time and self.led != trump and trump < r.NT:
                follow |= hand & r.suit_mask[trump][trump]
            return follow
        if trump >= r.NT:                              # no trump suit: nothing more to require
            return hand
        trumps = hand & r.suit_mask[trump][trump]
        if not trumps:
            return hand
        if overtrump and any(r.eff[trump][c] == trump for _, c in self.trick):
            trumps = self._beating(trumps) or trumps
        return trumps if must_trump else (hand & ~r.suit_mask[trump][trump]) | trumps

    def _excused(self, trumps: int) -> int:
        """The privileged trumps of ``trumps`` that rank above the trump led: they need not
        follow it (the top trumps' right to renege)."""
        trump = self.trump
        power = self.rules.power[trump][trump]
        led = power[self.trick[0][1]]
        excused = 0
        cards = trumps & self.step.privileged[trump]
        while cards:
            low = cards & -cards
            if power[low.bit_length() - 1] > led:
                excused |= low
            cards ^= low
        return excused

    def _partner_winning(self) -> bool:
        """Whether a partner of the seat to act holds the trick as it stands."""
        r = self.rules
        power = r.power[self.trump][self.led]
        winner, best = -1, -1
        for seat, card in self.trick:
            if power[card] > best or (r.later_equal_wins and power[card] == best):
                winner, best = seat, power[card]
        return winner in r.team_mates[self.to_act]

    def _why_not_playable(self, card: int) -> str:
        r = self.rules
        name = r.card_names[card]
        hand = self.hands[self.to_act]
        if not hand >> card & 1:
            return f"seat {self.to_act} does not hold {name}"
        led = r.suits[self.led] if self.led >= 0 else "?"
        if not hand & r.suit_mask[self.trump][self.led]:
            if self.step.must_overtrump and r.eff[self.trump][card] == self.trump:
                return f"seat {self.to_act} must overtrump the trick if able and {name} does not"
            return f"seat {self.to_act}, void in the suit led ({led}), must play a trump if able and {name} is not one"
        if r.eff[self.trump][card] == self.led and self.step.must_head:
            return f"seat {self.to_act} must head the trick (beat its best card) if able and {name} does not"
        return f"seat {self.to_act} must follow the suit led ({led}) and {name} does not"

    def _play(self, card: int) -> None:
        seat = self.to_act
        self.hands[seat] &= ~(1 << card)
        if card == self.called and not self.partner_shown:
            self.partner_shown = True
            self.events.append(("partner", seat))
        trick = self.trick
        if not trick:
            if self.trump < 0:                 # trumps by the first lead: its suit is trumps
                self._trumps_by_lead(card)
            led = self.rules.eff[self.trump][card]
            if led < 0 and self.rules.master_names_suit:
                trick.append((seat, card))
                self.mode, self.phase = M_MASTER, MASTER_SUIT
                return
            self.led = led
        trick.append((seat, card))
        if len(trick) == self.n_active:
            self._finish_trick()
        else:
            self.to_act = self.next_of[seat]

    def _trumps_by_lead(self, card: int) -> None:
        r = self.rules
        self.trump = r.printed_suit[card]
        self.events.append(("trump", r.strain_names[self.trump], self.maker))

    def _legal_master(self) -> list[str]:
        return list(self.rules.name_token[:self.rules.NT])

    def _apply_master_suit(self, action: str, arg: int) -> None:
        self.led = arg
        self.events.append(("master-suit", self.rules.suits[arg]))
        self.mode, self.phase = (M_FREE_PLAY if self.step.renege else M_PLAY), PLAY_PHASE
        if len(self.trick) == self.n_active:
            self._finish_trick()
        else:
            self.to_act = self.next_of[self.to_act]

    def _finish_trick(self) -> None:
        power = self.rules.power[self.trump][self.led]
        winner, best = -1, -1
        if self.rules.later_equal_wins:            # of two equal cards (copies), the later wins
            for seat, card in self.trick:
                if power[card] >= best:
                    winner, best = seat, power[card]
        else:
            for seat, card in self.trick:
                if power[card] > best:
                    winner, best = seat, power[card]
        trick = (self.leader, tuple(self.trick), winner)
        self.tricks.append(trick)
        self.events.append(("trick", *trick))
        self.tricks_won[winner] += 1
        if len(self.tricks) == self.rules.hand_size:
            self.trick = []
            if self.cursor + 1 < len(self.rules.steps):    # steps after the play (a claim) come first
                self.mode, self.to_act = M_NONE, -1
                self._next()
            else:
                self._score_hand()
            return
        self.trick, self.led = [], -1
        self.leader = self.to_act = winner

    # -- scoring and the end of the game -------------------------------------------------------
    def _score_hand(self) -> None:
        r = self.rules
        row = next((row for row in r.scoring_rows if row.when(self, -1, -1)), None)
        if row is None:
            from .resolve import table_problem     # only on this error: resolve is not compiled
            raise SpecError(table_problem(r.resolved, ("scoring", "rows"),
                                          f"no scoring row of {r.id} matches a hand with {self.maker_side_tricks()} maker "
                                          f"tricks (alone={self.alone}, defender alone={self.defender_alone >= 0}, "
                                          f"maker={self.maker})"))
        value, bid_tricks = (r.bids[self.bid].value, r.bids[self.bid].min_tricks) if self.bid >= 0 else (0, 0)
        points = [0] * len(r.units)
        scores = self.scores
        for award in row.awards:
            for unit in recipients(self, award.target):
                if award.when is not None and not award.when(self, -1, unit):
                    continue
                points[unit] += award_points(self, award, unit, value, bid_tricks, scores[unit] + points[unit])
        for unit, amount in enumerate(points):
            scores[unit] += amount
        if r.counters:
            self._count(points)
        self.hand_points = [p + d for p, d in zip(points, self.declared)] if self.declared else points
        self.last_row = row.id
        self.events.append(("score", row.id, tuple(points), tuple(scores)))
        self._check_game_over(points)

    def _count(self, points: list[int]) -> None:
        """Add to each counter what the hand earned, and turn full counters into points."""
        r = self.rules
        for counter in r.counters:
            values = self.counters[counter.id]
            for rule in counter.rules:
                for who in recipients(self, rule.target, counter.per_player):
                    seat, unit = (who, -1) if counter.per_player else (-1, who)
                    if rule.when is None or rule.when(self, seat, unit):
                        values[who] += rule.add
            if counter.every:
                for who, value in enumerate(values):
                    while values[who] >= counter.every:
                        values[who] -= counter.every
                        unit = r.unit_of[who] if counter.per_player else who
                        points[unit] += counter.points
                        self.scores[unit] += counter.points
        self.events.append(("counters", {key: tuple(values) for key, values in self.counters.items()}))

    def _reached(self, unit: int) -> bool:
        r, score = self.rules, self.scores[unit]
        if r.count_down:
            return score <= r.target
        return r.target > 0 and score >= r.target

    def _check_game_over(self, points: list[int]) -> None:
        r = self.rules
        units = range(len(r.units))
        reached = [u for u in units if self._reached(u)]
        if r.win_requires is not None:
            reached = [u for u in reached if r.win_requires(self, -1, u)]
        lost = [u for u in units if r.lose_at is not None and self.scores[u] <= r.lose_at]
        deals_done = bool(r.deals) and self.hand_number >= r.deals
        if not reached and not lost and not deals_done:
            self._next_hand()
            return
        if reached:
            winner = self._break_tie(reached, points)
            if winner is None and "play-on" in r.simultaneous and not lost and not deals_done:
                self._next_hand()
                return
        elif lost:
            winner = self._best([u for u in units if u not in lost])
        else:
            winner = self._best(list(units))
        self._end_game(winner)

    def _next_hand(self) -> None:
        self.dealer = self.rules.left[self.dealer]
        self.phase, self.mode, self.to_act = DEAL, M_NONE, -1

    def _end_game(self, winner: int | None) -> None:
        self.winner = winner
        self.events.append(("game-over", winner))
        self.phase, self.mode, self.to_act = GAME_OVER, M_NONE, -1

    def _best(self, units: list[int]) -> int | None:
        """The unit with the best score (the lowest when counting down), None for a tie."""
        if not units:
            return None
        scores = [self.scores[u] for u in units]
        top = min(scores) if self.rules.count_down else max(scores)
        leaders = [u for u in units if self.scores[u] == top]
        return leaders[0] if len(leaders) == 1 else None

    def _break_tie(self, reached: list[int], points: list[int]) -> int | None:
        """Among several units reaching the target on one hand, the winner by the table's
        tie-breaks in order; None if they leave a tie."""
        r = self.rules
        candidates = reached
        maker_units = {r.unit_of[s] for s in self.maker_side()}
        for rule in r.simultaneous:
            if len(candidates) == 1:
                break
            if rule == "makers":
                candidates = [u for u in candidates if u in maker_units] or candidates
            elif rule in ("highest", "lowest"):
                scores = [self.scores[u] for u in candidates]
                top = max(scores) if rule == "highest" else min(scores)
                candidates = [u for u in candidates if self.scores[u] == top]
            elif rule == "earliest-trick":
                candidates = self._earliest(candidates, points, maker_units)
        return candidates[0] if len(candidates) == 1 else None

    def _earliest(self, candidates: list[int], points: list[int], maker_units: set[int]) -> list[int]:
        """Replay the hand's per-trick awards in trick order from the scores before it: the
        first candidate whose tricks took it to the target."""
        r = self.rules
        row = next(row for row in r.scoring_rows if row.id == self.last_row) if self.last_row else None
        per_trick: dict[int, int] = {}
        for award in row.awards if row else ():
            for unit in candidates:
                if award.target == "everyone" or (award.target in ("makers", "maker")) == (unit in maker_units):
                    per_trick[unit] = per_trick.get(unit, 0) + award.per_trick
        running = [score - gained for score, gained in zip(self.scores, points)]
        for _leader, _cards, winner in self.tricks:
            unit = r.unit_of[winner]
            if per_trick.get(unit) and unit in candidates:
                running[unit] += per_trick[unit]
                if running[unit] >= r.target:
                    return [unit]
        return candidates

    # -- observation -----------------------------------------------------------------------------
    def observation(self, seat: int | None = None) -> dict[str, Any]:
        """The observable state, in the protocol's field names (see the protocol page).

        Without ``seat``, everything (the view a conformance case checks); with it, what
        that seat may see by the table's ``visibility`` (:func:`reference_impl.visibility.seat_view`):
        the hands it may not see hidden, ``legal`` empty unless it is to act, a called partner
        unknown until he plays the called card (unless it is that seat), and of the hand's
        discards, passed and received cards only its own."""
        r = self.rules
        names = r.card_names
        tricks = [{"leader": leader, "cards": [[s, names[c]] for s, c in cards], "winner": winner}
                  for leader, cards, winner in self.tricks]
        if self.trick:
            tricks.append({"leader": self.leader, "cards": [[s, names[c]] for s, c in self.trick], "winner": None})
        hands: list[Any] = [r.cards_of(h) for h in self.hands]
        view = {
            "phase": self.phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self.current_player(),
            "legal": self.legal_actions(),
            "upcard": names[self.upcard] if self.upcard >= 0 else None,
            "upcard_suit": r.suits[self.proposal] if self.proposal >= 0 else None,
            "turned_down": r.suits[self.turned_down] if self.turned_down >= 0 else None,
            "trump": r.strain_names[self.trump] if self.trump >= 0 else None,
            "maker": self.maker if self.maker >= 0 else None,
            "contract": r.bids[self.bid].id if self.bid >= 0 else None,
            "alone": self.alone,
            "defender_alone": self.defender_alone if self.defender_alone >= 0 else None,
            "sitting_out": [s for s in range(r.n) if not self.active >> s & 1],
            "hands": hands,
            "tricks": tricks,
            "tricks_won": list(self.tricks_won),
            "hand_points": list(self.hand_points) if self.hand_points is not None else None,
            "scoring_row": self.last_row,
            "scores": list(self.scores),
            "next_dealer": self.dealer if self.phase == DEAL and self.hand_number > 0 else None,
            "game_over": self.phase == GAME_OVER,
            "winner": self.winner,
        }
        if self.counters:
            view["counters"] = {key: list(values) for key, values in self.counters.items()}
        if any(step.renege for step in r.steps):
            claimed = [s for s in range(r.n) if self.claimed >> s & 1]
            view["reneges"] = [s for s in range(r.n) if self.reneged >> s & 1] if seat is None else claimed
            view["renege_claims"] = claimed
        if r.concessions:
            view["conceded"] = CONCEDED_NAMES[self.conceded]
        if any(step.kind == PROPOSE for step in r.steps):
            view["stood"] = self.stood if self.stood >= 0 else None
        if r.sides == CALLED:
            known = seat is None or self.partner_shown or seat == self.partner
            view["called_card"] = names[self.called] if self.called >= 0 else None
            view["partner"] = self.partner if self.partner >= 0 and known else None
        if seat is None:
            view.update(history_fields(self, None))
            return view
        return seat_view(self, view, seat)




def _none(state: State) -> list[str]:
    return []


_LEGAL = {
    M_NONE: _none, M_NAME: State._legal_name, M_MAKE: State._legal_make, M_AUCTION: State._legal_auction,
    M_OFFER: State._legal_offer, M_TAKE_OFFER: State._legal_take, M_DISCARD: State._legal_discard,
    M_GIVE: State._legal_give, M_TAKE_BEST: State._legal_take, M_MASTER: State._legal_master,
    M_PROPOSE: State._legal_propose, M_RESPOND: State._legal_respond, M_EXCHANGE: State._legal_exchange,
    M_FREE_PLAY: State._legal_free_play,
}
_APPLY = {
    M_NAME: State._apply_name, M_MAKE: State._apply_make, M_AUCTION: State._apply_auction,
    M_OFFER: State._apply_offer, M_TAKE_OFFER: State._apply_take_offer, M_DISCARD: State._apply_discard,
    M_GIVE: State._apply_give, M_TAKE_BEST: State._apply_take_best, M_MASTER: State._apply_master_suit,
    M_PROPOSE: State._apply_propose, M_RESPOND: State._apply_respond, M_EXCHANGE: State._apply_exchange,
    M_FREE_PLAY: State._apply_free_play,
}
_BEGIN = {
    NAME: State._begin_name, MAKE_TRUMPS: State._begin_make, AUCTION: State._begin_auction,
    FORCE_BID: State._begin_force_bid, SET_TRUMPS: State._begin_set_trumps, THROW_IN: State._begin_throw_in,
    OFFER: State._begin_offer, EXCHANGE: State._begin_exchange, GIVE: State._begin_give, PLAY_STEP: State._begin_play,
    PROPOSE: State._begin_propose,
}


def _blank_uninitialised(rules: Rules) -> State:
    """A state with no fields set, for :meth:`State.clone` to fill (pure Python)."""
    return object.__new__(State)


def _blank_initialised(rules: Rules) -> State:
    """A new state for :meth:`State.clone` to overwrite (compiled: a native class cannot be
    created without its ``__init__``)."""
    return State(rules, 0)


try:
    object.__new__(State)
    _blank: Callable[[Rules], State] = _blank_uninitialised
except TypeError:
    _blank = _blank_initialised


def new_game(rules: Rules, dealer: int | None = None, *, rng: random.Random | None = None,
             first_dealer_cards: Sequence[str] | None = None, start_seat: int = 0,
             scores: Sequence[int] | None = None) -> State:
    """A new game, waiting for its first deal.

    The first dealer is ``dealer`` when given; otherwise it is chosen by the table's method
    from ``first_dealer_cards`` (the cards dealt face up, or cut, in order) or, failing
    those, from a pack shuffled by ``rng``.
    """
    if dealer is None:
        method = rules.first_dealer_method
        if method == "random":
            if rng is None:
                raise SpecError("a random first dealer needs a dealer or a random generator")
            dealer = rng.randrange(rules.n)
        else:
            cards = first_dealer_cards
            if cards is None:
                if rng is None:
                    raise SpecError(f"choosing the first dealer by {method} needs its cards or a random generator")
                cards = list(rules.card_names)
                rng.shuffle(cards)
            if method == "first-black-jack":
                dealer = rules.first_dealer_by_black_jack(cards, start_seat)
            else:
                dealer = rules.first_dealer_by_cut(cards)
    state = State(rules, dealer, scores)
    state.events.append(("first-dealer", dealer))
    return state
