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

The step kinds themselves are modules of :mod:`reference_impl.step_kinds`, each with its
``begin`` and its decisions; this class keeps the game's data, walks the steps, and answers
the public surface. Those modules take the state as their first argument.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from .errors import ActionError, ILLEGAL_ACTION, OUT_OF_TURN, WRONG_PHASE, SpecError
from .rules import AGAINST_REST, CALLED, PLAY, TEAMS, Deal, Rules
from .step_kinds import (auction, discard, exchange, force_bid, give, make_trumps, name, offer, play, propose,
                         set_trumps, throw_in)
from .step_kinds.common import (AFTER_EXCHANGE, CONCEDED_NAMES, CONCEDED_NONE, DEAL, DISCARD_PHASE, GAME_OVER, M_NONE,
                                M_PLAY, MASTER_SUIT, PLAY_PHASE, TAKE_OFFER, TAKE_PHASE)
from .step_kinds.hand_end import score_hand
from .step_kinds.play import play_card, playable, why_not_playable
from .steps import BIDDING, NAME, NO_STEP, PROPOSAL, PROPOSE, TRUMPS, Step
from .visibility import history_fields, seat_view

# The phases a step kind waits in by a fixed name, named here too: they are the state's surface.
PHASES = (DEAL, TAKE_OFFER, DISCARD_PHASE, TAKE_PHASE, PLAY_PHASE, MASTER_SUIT, GAME_OVER)


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
            return self.rules.play_tokens(playable(self))
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
            if not playable(self) >> arg & 1:
                raise ActionError(ILLEGAL_ACTION, why_not_playable(self, arg))
            self.events.append(("action", self.to_act, action))
            play_card(self, arg)
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
        self.advance()

    # -- the steps of a hand -----------------------------------------------------------------------
    def advance(self) -> None:
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
            score_hand(self)
            return
        raise SpecError(f"{self.rules.id}: the hand's steps ended without a play")

    def next_step(self) -> None:
        """The current step is done: go on with the next."""
        self.cursor += 1
        self.advance()

    def claimable(self, seat: int) -> int:
        """The seats of other sides than ``seat``'s that reneged this hand and have not been
        claimed against yet (a bitmask)."""
        own = 1 << seat
        for partner in self._partners(seat):
            own |= 1 << partner
        return self.reneged & ~self.claimed & ~own


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


# The step kinds, a module each (see :mod:`reference_impl.step_kinds`); the state walks a hand's
# steps through the tables gathered from them: a kind's ``begin``, and for each decision a step
# can wait for, its legal actions and what applying one does.
STEP_KINDS = (name, make_trumps, auction, force_bid, set_trumps, throw_in, offer, exchange, give, propose, play)
_BEGIN: dict[int, Callable[[State, Step], bool]] = {kind.KIND: kind.begin for kind in STEP_KINDS}
_LEGAL: dict[int, Callable[[State], list[str]]] = {M_NONE: _none}
_APPLY: dict[int, Callable[[State, str, int], None]] = {}
for _module in (*STEP_KINDS, discard):
    for _mode, (_legal, _apply) in _module.DECISIONS.items():
        _LEGAL[_mode], _APPLY[_mode] = _legal, _apply


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
