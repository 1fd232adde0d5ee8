"""The game as a state machine: legal actions, apply, observe; hand after hand to game over.

The surface follows OpenSpiel's ``State``: :meth:`State.legal_actions` lists what the seat
to act may do, :meth:`State.apply` does it (or raises :class:`ActionError` and changes
nothing), :meth:`State.is_terminal` says the game is over and :meth:`State.returns` gives the
scores. Dealing is the one chance event: when :meth:`State.is_chance_node` is true the state
waits for :meth:`State.deal` with the next hand's cards (explicit, or shuffled by a seeded
generator), so a game can be replayed exactly from its deals and its actions.

Nothing here names a variant: every behaviour comes from the compiled :class:`Rules`.

``State.events`` is the game's log, a list of tuples whose first item is the kind:
``("first-dealer", seat)``, ``("deal", hand_number, dealer, hand_masks, upcard, widow_mask)``,
``("action", seat, token)``, ``("benny-suit", suit)``, ``("contract", bid_id, seat)``,
``("no-contract",)``, ``("trump", suit_or_NT, maker)``, ``("alone", seat)``,
``("defend-alone", seat)``, ``("take", seat, source, cards)``, ``("decline", seat, source)``,
``("master-suit", suit)``,
``("trick", leader, ((seat, card), ...), winner)``, ``("score", row_id, points, scores)``,
``("throw-in", hand_number)``, ``("game-over", winner)``. Cards in it are indices into
``rules.card_names`` except in ``take``, which lists tokens.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from .errors import ActionError, ILLEGAL_ACTION, OUT_OF_TURN, WRONG_PHASE, SpecError
from .rules import ALONE, BID, CALL, DEFEND_ALONE, ORDER, PASS, PLAY, TAKE, Deal, Rules

# Phases, as named in observations and in the protocol.
DEAL = "deal"                      # waiting for the next hand's cards
BENNY_SUIT = "benny-suit"          # the dealer names the suit a Benny upcard stands for
ROUND_1 = "bid-round-1"            # accept the upcard's suit, or pass
ROUND_2 = "bid-round-2"            # name another suit, or pass
AUCTION = "auction"                # bid higher, or pass
ALONE_PHASE = "alone"              # the maker: go alone, or pass
DEFEND_PHASE = "defend-alone"      # a defender: defend alone, or pass
GIVE_PHASE = "partners-best"       # a loner's partner: give a card, or pass
TAKE_PHASE = "take-best"           # the loner: take the offered card unseen, or pass
TAKE_OFFER = "take-offer"          # a player the table offers the upcard (or widow): take it, or pass
DISCARD_PHASE = "discard"          # discard one card (repeated for each card owed)
PLAY_PHASE = "play"                # play a card to the trick
MASTER_SUIT = "master-suit"        # the leader of the master card names its suit
GAME_OVER = "game-over"

_STEPS_BEFORE = ("alone", "defend", "exchange", "best", "play")
_STEPS_AFTER = ("exchange", "alone", "defend", "best", "play")


class State:
    """One game in progress. Create it with :func:`new_game`."""

    __slots__ = ("rules", "scores", "dealer", "hand_number", "phase", "to_act", "hands", "upcard",
                 "widow", "kitty", "proposal", "turned_down", "round", "passes", "trump", "maker",
                 "bid", "alone", "defender_alone", "active", "taken", "discards", "steps", "queue",
                 "offered", "auction_passed", "leader", "trick", "led", "tricks", "tricks_won",
                 "next_of", "n_active", "hand_points", "last_row", "winner", "events", "upcard_taken",
                 "discarded", "thrown_in", "pending")

    def __init__(self, rules: Rules, dealer: int, scores: Sequence[int] | None = None):
        self.rules = rules
        self.scores: list[int] = list(scores) if scores is not None else [0] * len(rules.units)
        if len(self.scores) != len(rules.units):
            raise SpecError(f"{len(self.scores)} scores given for {len(rules.units)} sides")
        if not 0 <= dealer < rules.n:
            raise SpecError(f"dealer {dealer} is not a seat of {rules.n} players")
        self.dealer = dealer
        self.hand_number = 0
        self.phase = DEAL
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
        self.passes = 0
        self.trump = -1
        self.maker = -1
        self.bid = -1
        self.alone = False
        self.defender_alone = -1
        self.active = (1 << n) - 1
        self.taken = [0] * n
        self.discards: list[list[int]] = []
        self.discarded: list[int] = []
        self.pending: list = []             # exchange rules still to apply
        self.steps: list[str] = []
        self.queue: list[int] = []
        self.offered = -1
        self.auction_passed = 0
        self.leader = -1
        self.trick: list[tuple[int, int]] = []
        self.led = -1
        self.tricks: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
        self.tricks_won = [0] * n
        self.next_of: list[int] = list(self.rules.left)
        self.n_active = n

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
        if self.phase == PLAY_PHASE:
            return self.rules.play_tokens(self._playable())
        return _LEGAL[self.phase](self)

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
        if self.phase == PLAY_PHASE:
            if kind != PLAY:
                raise ActionError(ILLEGAL_ACTION, f"{action} is not allowed in phase play: seat {self.to_act} must play a card")
            if not self._playable() >> arg & 1:
                raise ActionError(ILLEGAL_ACTION, self._why_not_playable(arg))
            self.events.append(("action", self.to_act, action))
            self._play(arg)
            return
        if action not in _LEGAL[self.phase](self):
            raise ActionError(ILLEGAL_ACTION, f"{action} is not allowed in phase {self.phase} for seat {self.to_act}")
        self.events.append(("action", self.to_act, action))
        _APPLY[self.phase](self, kind, arg)

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
        event log then records nothing, which makes copying several times cheaper."""
        other = object.__new__(State)
        for name in _SHARED_SLOTS:             # immutable values, or never changed in place
            setattr(other, name, getattr(self, name))
        for name in _LIST_SLOTS:
            setattr(other, name, list(getattr(self, name)))
        other.discards = [list(entry) for entry in self.discards]
        other.events = list(self.events) if keep_events else _NO_EVENTS
        return other

    # -- starting a hand ------------------------------------------------------------------------
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
        eldest = r.left[self.dealer]
        if r.procedure == "auction":
            self.phase, self.to_act = AUCTION, eldest
            return
        if upcard >= 0 and upcard == r.benny:
            if r.benny_upcard == "redeal":
                self._throw_in(same_dealer=True)
                return
            self.phase, self.to_act = BENNY_SUIT, self.dealer
            return
        self.proposal = r.printed_suit[upcard]
        self.phase, self.round, self.to_act = ROUND_1, 1, eldest

    def _throw_in(self, same_dealer: bool) -> None:
        self.thrown_in = True
        self.hand_points = [0] * len(self.rules.units)
        self.events.append(("throw-in", self.hand_number))
        if not same_dealer:
            self.dealer = self.rules.left[self.dealer]
        self.phase, self.to_act = DEAL, -1

    # -- bidding ----------------------------------------------------------------------------------
    def _legal_benny_suit(self) -> list[str]:
        return list(self.rules.name_token)

    def _apply_benny_suit(self, kind: int, arg: int) -> None:
        self.proposal = arg
        self.events.append(("benny-suit", self.rules.suits[arg]))
        self.phase, self.round, self.to_act = ROUND_1, 1, self.rules.left[self.dealer]

    def _legal_round_1(self) -> list[str]:
        return ["pass", "order"]

    def _apply_round_1(self, kind: int, arg: int) -> None:
        r = self.rules
        if kind == ORDER:
            self._make_trump(self.proposal, self.to_act)
            return
        self.passes += 1
        if self.passes == r.n:
            self.turned_down = self.proposal
            self.phase, self.round, self.passes, self.to_act = ROUND_2, 2, 0, r.left[self.dealer]
        else:
            self.to_act = r.left[self.to_act]

    def _legal_round_2(self) -> list[str]:
        r = self.rules
        stuck = r.all_pass == "dealer-must-call" and self.to_act == self.dealer
        legal = [] if stuck else ["pass"]
        for suit, token in enumerate(r.call_token[:r.NT]):
            if suit != self.turned_down or r.turned_down_allowed:
                legal.append(token)
        if r.round2_no_trump:
            legal.append(r.call_token[r.NT])
        return legal

    def _apply_round_2(self, kind: int, arg: int) -> None:
        r = self.rules
        if kind == CALL:
            self._make_trump(arg, self.to_act)
            return
        self.passes += 1
        if self.passes == r.n:
            self._throw_in(same_dealer=r.all_pass_same_dealer)
        else:
            self.to_act = r.left[self.to_act]

    def _legal_auction(self) -> list[str]:
        r = self.rules
        legal = ["pass"]
        legal += [bid.token for bid in r.bids[self.bid + 1:]]
        return legal

    def _apply_auction(self, kind: int, arg: int) -> None:
        r = self.rules
        seat = self.to_act
        if kind == BID:
            self.bid, self.maker = arg, seat
        else:
            self.auction_passed |= 1 << seat
        everyone = (1 << r.n) - 1
        still_in = [s for s in range(r.n) if not self.auction_passed >> s & 1]
        if self.maker >= 0 and still_in == [self.maker]:
            bid = r.bids[self.bid]
            self.events.append(("contract", bid.id, self.maker))
            self._make_trump(bid.strain, self.maker)
            return
        if self.auction_passed == everyone:
            if r.all_pass == "play-no-trump":
                self.trump, self.maker = r.NT, -1
                self.events.append(("no-contract",))
                self.steps = ["play"]
                self._advance()
            else:
                self._throw_in(same_dealer=r.all_pass_same_dealer)
            return
        nxt = r.left[seat]
        while self.auction_passed >> nxt & 1:
            nxt = r.left[nxt]
        self.to_act = nxt

    def _make_trump(self, context: int, maker: int) -> None:
        r = self.rules
        self.trump, self.maker = context, maker
        self.events.append(("trump", r.call_token[context][5:], maker))
        if self.bid >= 0 and r.bids[self.bid].alone:
            self._go_alone()
        self.steps = list(_STEPS_BEFORE if r.alone_before_exchange else _STEPS_AFTER)
        self._advance()

    # -- the steps between making trumps and the play ----------------------------------------------
    def _advance(self) -> None:
        """Run the remaining steps until one needs a decision."""
        while self.steps:
            step = self.steps.pop(0)
            if _BEGIN[step](self):
                return

    def _partners(self, seat: int) -> list[int]:
        """The seats playing with ``seat`` in this hand."""
        r = self.rules
        if r.sides == "partnerships":
            return [s for s in r.units[r.unit_of[seat]] if s != seat]
        if r.sides == "bidder-vs-rest" and self.maker >= 0 and seat != self.maker:
            return [s for s in range(r.n) if s not in (seat, self.maker)]
        return []

    def _maker_side(self) -> list[int]:
        if self.maker < 0:
            return []
        return [self.maker] + (self._partners(self.maker) if self.rules.sides == "partnerships" else [])

    def _go_alone(self) -> None:
        self.alone = True
        self.events.append(("alone", self.maker))
        if self.rules.alone_effect == "partner-sits-out":
            for partner in self._partners(self.maker):
                self.active &= ~(1 << partner)

    def _begin_alone(self) -> bool:
        if not self.rules.alone_allowed or self.alone or self.maker < 0:
            return False
        self.phase, self.to_act = ALONE_PHASE, self.maker
        return True

    def _apply_alone(self, kind: int, arg: int) -> None:
        if kind == ALONE:
            self._go_alone()
        self._advance()

    def _begin_defend(self) -> bool:
        r = self.rules
        if not r.defend_allowed or self.maker < 0 or not (self.alone or r.defend_any_maker):
            return False
        side = self._maker_side()
        start = r.left[self.dealer] if r.defend_from_eldest else r.left[self.maker]
        queue = []
        for k in range(r.n):
            seat = (start + k) % r.n
            if seat not in side and self.active >> seat & 1:
                queue.append(seat)
        self.queue = queue
        if not queue:
            return False
        self.phase, self.to_act = DEFEND_PHASE, queue[0]
        return True

    def _legal_yes_no(self) -> list[str]:
        return ["pass", _YES[self.phase]]

    def _apply_defend(self, kind: int, arg: int) -> None:
        seat = self.queue.pop(0)
        if kind == DEFEND_ALONE:
            self.defender_alone = seat
            self.events.append(("defend-alone", seat))
            for partner in self._partners(seat):
                self.active &= ~(1 << partner)
            self.queue = []
        if self.queue:
            self.to_act = self.queue[0]
        else:
            self._advance()

    def _begin_exchange(self) -> bool:
        """Apply the table's takes in order; an optional take first asks its taker."""
        r = self.rules
        if self.maker < 0:
            return False
        self.discards = []
        self.pending = [take for take in r.takes if self._take_applies(take)]
        return self._continue_exchange()

    def _taker(self, take) -> int:
        return self.dealer if take.who == "dealer" else self.maker

    def _take_applies(self, take) -> bool:
        if take.round is not None and take.round != self.round:
            return False
        if take.maker is not None and (take.maker == "dealer") != (self.maker == self.dealer):
            return False
        if take.unless_alone and self.alone:
            return False
        return bool(self.active >> self._taker(take) & 1) or self.rules.sitting_out_takes

    def _continue_exchange(self) -> bool:
        while self.pending:
            take = self.pending[0]
            if not self._available(take):
                self.pending.pop(0)
                continue
            if take.optional:
                self.phase, self.to_act = TAKE_OFFER, self._taker(take)
                return True
            self.pending.pop(0)
            self._take(take)
        if not self.discards:
            return False
        self.phase, self.to_act = DISCARD_PHASE, self.discards[0][0]
        return True

    def _available(self, take) -> bool:
        if take.source == "upcard":
            return self.upcard >= 0 and not self.upcard_taken
        return bool(self.widow)

    def _take(self, take) -> None:
        seat = self._taker(take)
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

    def _apply_take_offer(self, kind: int, arg: int) -> None:
        take = self.pending.pop(0)
        if kind == TAKE:
            self._take(take)
        else:
            self.events.append(("decline", self.to_act, take.source))
        if not self._continue_exchange():
            self._advance()

    def _discardable(self) -> int:
        hand = self.hands[self.to_act]
        if not self.rules.may_discard_taken:
            hand &= ~self.taken[self.to_act]
        return hand

    def _legal_discard(self) -> list[str]:
        return self.rules.discard_tokens(self._discardable())

    def _apply_discard(self, kind: int, arg: int) -> None:
        self.hands[self.to_act] &= ~(1 << arg)
        self.discarded.append(arg)
        entry = self.discards[0]
        entry[1] -= 1
        if entry[1] == 0:
            self.discards.pop(0)
            if not self.discards:
                self._advance()
                return
        self.to_act = self.discards[0][0]

    def _begin_best(self) -> bool:
        if not (self.rules.partners_best and self.alone):
            return False
        partners = self._partners(self.maker)
        if len(partners) != 1:
            return False
        self.phase, self.to_act = GIVE_PHASE, partners[0]
        return True

    def _legal_give(self) -> list[str]:
        return ["pass"] + self.rules.give_tokens(self.hands[self.to_act])

    def _apply_give(self, kind: int, arg: int) -> None:
        if kind == PASS:
            self._advance()
            return
        self.hands[self.to_act] &= ~(1 << arg)
        self.offered = arg
        self.phase, self.to_act = TAKE_PHASE, self.maker

    def _apply_take(self, kind: int, arg: int) -> None:
        if kind == TAKE:
            self.hands[self.maker] |= 1 << self.offered
            self.taken[self.maker] = 0      # this discard is free: the upcard rule binds the exchange only
            self.events.append(("take", self.maker, "partner", [self.rules.card_names[self.offered]]))
            self.discards = [[self.maker, 1]]
            self.phase = DISCARD_PHASE
            return
        self.discarded.append(self.offered)
        self._advance()

    # -- the play ------------------------------------------------------------------------------
    def _begin_play(self) -> bool:
        r = self.rules
        eldest = r.left[self.dealer]
        rule = r.lone_lead if self.alone else r.lead
        if self.maker < 0 or rule == "eldest":
            start = eldest
        elif rule == "maker-left":
            start = r.left[self.maker]
        else:
            start = self.maker
        active = self.active
        while not active >> start & 1:
            start = r.left[start]
        self.next_of = [0] * r.n
        for seat in range(r.n):
            nxt = r.left[seat]
            while not active >> nxt & 1:
                nxt = r.left[nxt]
            self.next_of[seat] = nxt
        self.n_active = bin(active).count("1")
        self.leader = self.to_act = start
        self.trick, self.led = [], -1
        self.phase = PLAY_PHASE
        return True

    def _playable(self) -> int:
        """The bitmask of cards the seat to act may play: follow the effective suit led if
        able (the master card too, where it may be played at any time), else anything."""
        hand = self.hands[self.to_act]
        if self.trick:
            r = self.rules
            follow = hand & r.suit_mask[self.trump][self.led]
            if follow:
                if r.master_any_time and self.trump == r.NT:
                    follow |= hand & r.master_bit
                return follow
        return hand

    def _why_not_playable(self, card: int) -> str:
        r = self.rules
        name = r.card_names[card]
        if not self.hands[self.to_act] >> card & 1:
            return f"seat {self.to_act} does not hold {name}"
        led = r.suits[self.led] if self.led >= 0 else "?"
        return f"seat {self.to_act} must follow the suit led ({led}) and {name} does not"

    def _play(self, card: int) -> None:
        seat = self.to_act
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        if not trick:
            led = self.rules.eff[self.trump][card]
            if led < 0 and self.rules.master_names_suit:
                trick.append((seat, card))
                self.phase = MASTER_SUIT
                return
            self.led = led
        trick.append((seat, card))
        if len(trick) == self.n_active:
            self._finish_trick()
        else:
            self.to_act = self.next_of[seat]

    def _apply_master_suit(self, kind: int, arg: int) -> None:
        self.led = arg
        self.events.append(("master-suit", self.rules.suits[arg]))
        self.phase = PLAY_PHASE
        if len(self.trick) == self.n_active:
            self._finish_trick()
        else:
            self.to_act = self.next_of[self.to_act]

    def _finish_trick(self) -> None:
        power = self.rules.power[self.trump][self.led]
        winner, best = -1, -1
        for seat, card in self.trick:
            if power[card] > best:
                winner, best = seat, power[card]
        trick = (self.leader, tuple(self.trick), winner)
        self.tricks.append(trick)
        self.events.append(("trick", *trick))
        self.tricks_won[winner] += 1
        if len(self.tricks) == self.rules.hand_size:
            self.trick = []
            self._score_hand()
            return
        self.trick, self.led = [], -1
        self.leader = self.to_act = winner

    # -- scoring and the end of the game -------------------------------------------------------
    def _score_hand(self) -> None:
        r = self.rules
        won = self.tricks_won
        maker = self.maker
        if maker < 0:
            maker_unit, maker_tricks, made, value = -1, 0, None, 0
        else:
            maker_unit = r.unit_of[maker]
            side = r.units[maker_unit] if r.sides == "partnerships" else (maker,)
            maker_tricks = sum(won[s] for s in side)
            if self.bid >= 0:
                bid = r.bids[self.bid]
                made, value = bid.min_tricks <= maker_tricks <= bid.max_tricks, bid.value
            else:
                made, value = maker_tricks >= r.makers_need, 0
        row = self._matching_row(maker_tricks, made)
        points = [0] * len(r.units)
        for target, fixed, contract, per_trick, at_least in row.awards:
            for unit in range(len(points)):
                if target == "makers":
                    if unit != maker_unit:
                        continue
                elif target == "defenders" and (unit == maker_unit or maker_unit < 0):
                    continue
                amount = fixed + contract * value
                if per_trick:
                    amount += per_trick * sum(won[s] for s in r.units[unit])
                if at_least is not None and amount < at_least:
                    amount = at_least
                points[unit] += amount
        scores = self.scores
        for unit, amount in enumerate(points):
            scores[unit] += amount
        self.hand_points = points
        self.last_row = row.id
        self.events.append(("score", row.id, tuple(points), tuple(scores)))
        self._check_game_over(points, maker_unit, row)

    def _matching_row(self, maker_tricks: int, made: bool | None):
        for row in self.rules.scoring_rows:
            if row.maker_tricks is not None and not row.maker_tricks[0] <= maker_tricks <= row.maker_tricks[1]:
                continue
            if row.made is not None and row.made != made:
                continue
            if row.alone is not None and row.alone != self.alone:
                continue
            if row.defender_alone is not None and row.defender_alone != (self.defender_alone >= 0):
                continue
            if row.contract is not None and (row.contract == "none") != (self.maker < 0):
                continue
            if row.bids is not None and (self.bid < 0 or self.rules.bids[self.bid].id not in row.bids):
                continue
            return row
        raise SpecError(f"no scoring row of {self.rules.id} matches a hand with {maker_tricks} maker tricks"
                        f" (alone={self.alone}, defender alone={self.defender_alone >= 0}, made={made})")

    def _check_game_over(self, points: list[int], maker_unit: int, row) -> None:
        r = self.rules
        target, lose_at = r.target, r.lose_at
        reached = [u for u, score in enumerate(self.scores) if score >= target]
        lost = [u for u, score in enumerate(self.scores) if lose_at is not None and score <= lose_at]
        if not reached and not lost:
            self.dealer = r.left[self.dealer]
            self.phase, self.to_act = DEAL, -1
            return
        if reached:
            self.winner = self._break_tie(reached, points, maker_unit, row)
            if self.winner is None and "play-on" in r.simultaneous and not lost:
                self.dealer = r.left[self.dealer]
                self.phase, self.to_act = DEAL, -1
                return
        else:
            alive = [u for u in range(len(r.units)) if u not in lost]
            top = max((self.scores[u] for u in alive), default=None)
            leaders = [u for u in alive if self.scores[u] == top]
            self.winner = leaders[0] if len(leaders) == 1 else None
        self.events.append(("game-over", self.winner))
        self.phase, self.to_act = GAME_OVER, -1

    def _break_tie(self, reached: list[int], points: list[int], maker_unit: int, row) -> int | None:
        """Among several sides reaching the target on one hand, the winner by the table's
        tie-breaks in order; None if they leave a tie."""
        r = self.rules
        candidates = reached
        for rule in r.simultaneous:
            if len(candidates) == 1:
                break
            if rule == "makers":
                candidates = [u for u in candidates if u == maker_unit] or candidates
            elif rule == "highest":
                top = max(self.scores[u] for u in candidates)
                candidates = [u for u in candidates if self.scores[u] == top]
            elif rule == "earliest-trick":
                # Replay the hand's per-trick awards in trick order from the scores before it.
                per_trick = {}
                for target, _fixed, _contract, amount, _least in row.awards:
                    for unit in candidates:
                        if target == "everyone" or (target == "makers") == (unit == maker_unit):
                            per_trick[unit] = per_trick.get(unit, 0) + amount
                running = [score - gained for score, gained in zip(self.scores, points)]
                for _leader, _cards, winner in self.tricks:
                    unit = r.unit_of[winner]
                    if per_trick.get(unit):
                        running[unit] += per_trick[unit]
                        if running[unit] >= r.target:
                            candidates = [unit]
                            break
        return candidates[0] if len(candidates) == 1 else None

    # -- observation -----------------------------------------------------------------------------
    def observation(self) -> dict[str, Any]:
        """The observable state, in the protocol's field names (see docs/protocol.md)."""
        r = self.rules
        names = r.card_names
        tricks = [{"leader": leader, "cards": [[s, names[c]] for s, c in cards], "winner": winner}
                  for leader, cards, winner in self.tricks]
        if self.trick:
            tricks.append({"leader": self.leader, "cards": [[s, names[c]] for s, c in self.trick], "winner": None})
        return {
            "phase": self.phase,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self.current_player(),
            "legal": self.legal_actions(),
            "upcard": names[self.upcard] if self.upcard >= 0 else None,
            "upcard_suit": r.suits[self.proposal] if self.proposal >= 0 else None,
            "turned_down": r.suits[self.turned_down] if self.turned_down >= 0 else None,
            "trump": (r.call_token[self.trump][5:] if self.trump >= 0 else None),
            "maker": self.maker if self.maker >= 0 else None,
            "contract": r.bids[self.bid].id if self.bid >= 0 else None,
            "alone": self.alone,
            "defender_alone": self.defender_alone if self.defender_alone >= 0 else None,
            "sitting_out": [s for s in range(r.n) if not self.active >> s & 1],
            "hands": [r.cards_of(h) for h in self.hands],
            "tricks": tricks,
            "tricks_won": list(self.tricks_won),
            "hand_points": list(self.hand_points) if self.hand_points is not None else None,
            "scoring_row": self.last_row,
            "scores": list(self.scores),
            "next_dealer": self.dealer if self.phase == DEAL and self.hand_number > 0 else None,
            "game_over": self.phase == GAME_OVER,
            "winner": self.winner,
        }


class _NullLog(list):
    """An event log that keeps nothing (for the copies a search makes)."""

    def append(self, item) -> None:
        pass


_NO_EVENTS = _NullLog()
# How clone() copies each slot: lists that are changed in place are copied; the rest
# (ints, strings, tuples, the rules, lists only ever replaced whole) are shared.
_LIST_SLOTS = ("scores", "hands", "kitty", "taken", "discarded", "steps", "queue", "trick", "tricks",
               "tricks_won", "next_of", "pending")
_SHARED_SLOTS = tuple(name for name in State.__slots__ if name not in _LIST_SLOTS + ("discards", "events"))

_YES = {ALONE_PHASE: "alone", DEFEND_PHASE: "defend-alone", TAKE_PHASE: "take", TAKE_OFFER: "take"}


def _none(state: State) -> list[str]:
    return []


def _master_suits(state: State) -> list[str]:
    return list(state.rules.name_token)


_LEGAL = {
    DEAL: _none, GAME_OVER: _none,
    BENNY_SUIT: State._legal_benny_suit,
    ROUND_1: State._legal_round_1,
    ROUND_2: State._legal_round_2,
    AUCTION: State._legal_auction,
    ALONE_PHASE: State._legal_yes_no,
    DEFEND_PHASE: State._legal_yes_no,
    GIVE_PHASE: State._legal_give,
    TAKE_PHASE: State._legal_yes_no,
    TAKE_OFFER: State._legal_yes_no,
    DISCARD_PHASE: State._legal_discard,
    MASTER_SUIT: _master_suits,
}
_APPLY = {
    BENNY_SUIT: State._apply_benny_suit,
    ROUND_1: State._apply_round_1,
    ROUND_2: State._apply_round_2,
    AUCTION: State._apply_auction,
    ALONE_PHASE: State._apply_alone,
    DEFEND_PHASE: State._apply_defend,
    GIVE_PHASE: State._apply_give,
    TAKE_PHASE: State._apply_take,
    TAKE_OFFER: State._apply_take_offer,
    DISCARD_PHASE: State._apply_discard,
    MASTER_SUIT: State._apply_master_suit,
}
_BEGIN = {
    "alone": State._begin_alone,
    "defend": State._begin_defend,
    "exchange": State._begin_exchange,
    "best": State._begin_best,
    "play": State._begin_play,
}


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
