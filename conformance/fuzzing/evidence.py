"""Evidence for one set of option values over another, from the engine's own play.

The engine is sent one fixed rule table, whatever it plays; beside it run references under
several hypotheses (full sets of option values): a *base* and, for each option and each
other value, the base with that one value changed. Moves are chosen among the engine's
legal moves (so its own rules are followed wherever they lead), deals now and then come
from another hypothesis's pack (so a Benny or a 32-card pack can show itself).

Replies are compared as *atoms*: acceptance, the error category, each scalar field, each
member of a set field (``legal`` holds ``pass``), each entry of a mapping (the counters:
tokens, lone tallies), and only in the fields where the base and the alternative predict
differently. Where the base and an alternative
predict an atom differently, the engine settles it: a *win* for the alternative when it
agrees with the engine and the base does not, a *loss* the other way round. A hypothesis
that refuses a move the engine accepted is out for the rest of the game (a heavy loss);
if the base is out, the game ends. Most steps need none of this: when every hypothesis
predicts the same reply there is nothing to settle, and that is one dictionary comparison
per hypothesis.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Hashable

from reference_impl.resolve import ResolvedTable

from conformance.runner.fields import SET_FIELDS
from .coverage import Coverage
from .lockstep import Lockstep, Reference
from .policy import Policy, choose
from .script import Script

DEATH = 3                    # what refusing a move the engine accepted weighs, in atoms
HANDS_PER_GAME = 12         # long enough for a game of a fixed number of deals to end
NEAR_TARGET = 0.3           # fewer games start near the target than in fuzzing: long games tell more here
OTHER_PACK = 0.3             # deals drawn from another pack that some hypothesis plays with
SPECIAL_SOURCE = 0.3         # deals drawn from a hypothesis under which some deals start a hand unusually
Key = Hashable


@dataclass
class Tally:
    """The evidence for one alternative against the base."""

    wins: int = 0            # atoms where the alternative agrees with the engine and the base does not
    losses: int = 0          # the other way round
    contested: int = 0       # atoms on which the two predictions differ
    won_at: set[int] = field(default_factory=set)   # the replies (numbered in the round) it won atoms of

    @property
    def net(self) -> int:
        return self.wins - self.losses


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return (type(value).__name__, value) if isinstance(value, bool) else value


@dataclass
class Hypothesis:
    key: Key
    options: dict[str, Any]
    table: ResolvedTable
    reference: Reference
    policy: Policy | None = None


@dataclass
class Round:
    """The evidence of one round: a tally per alternative, and what was played."""

    tallies: dict[Key, Tally] = field(default_factory=dict)
    replies: int = 0
    hands: int = 0
    games: int = 0
    coverage: Coverage = field(default_factory=Coverage)


class Panel:
    """The engine and the hypotheses' references, playing the engine's game together."""

    def __init__(self, lockstep: Lockstep, variant: str, base: Hypothesis, alternatives: list[Hypothesis]):
        self.lockstep = lockstep
        self.variant = variant
        self.base = base
        self.alternatives = alternatives
        for hypothesis in [base, *alternatives]:
            if hypothesis.policy is None:
                hypothesis.policy = Policy(hypothesis.reference.engine.rules, hypothesis.reference, probes=0.0)
        self.rules = base.policy.rules
        # The packs other than the base's, each with the hypotheses that use it: a deal
        # from another pack is drawn from one of them, every pack as often as any other.
        packs: dict[tuple, list[Hypothesis]] = {}
        for hypothesis in alternatives:
            pack = tuple(sorted(hypothesis.policy.rules.card_names))
            if pack != tuple(sorted(self.rules.card_names)):
                packs.setdefault(pack, []).append(hypothesis)
        self.other_packs = list(packs.values())
        known = set(base.policy.special_deals)
        self.special = [(h, start) for h in alternatives for start in sorted(h.policy.special_deals) if start not in known]
        # First dealers chosen by cards whenever some hypothesis would choose them so.
        self.by_cards = any(h.policy.first_dealer_by_cards for h in [base, *alternatives])

    def play_game(self, rng: random.Random, tally: Round, claim_hand) -> None:
        """One game on the engine, scored against every hypothesis still in it."""
        lockstep = self.lockstep
        lockstep.begin()
        alive = [self.base, *self.alternatives]
        setup = self.base.policy.setup(rng, lockstep.refused, by_cards=self.by_cards, near_target=NEAR_TARGET)
        reply, go_on = self._send(alive, {"type": "new_game", **setup}, tally)
        if not go_on and _unsupported(reply) and ("scores" in setup or "first_dealer" in setup):
            lockstep.refused.update(k for k in ("scores", "first_dealer") if k in setup)
            alive = [self.base, *self.alternatives]
            reply, go_on = self._send(alive, {"type": "new_game", "dealer": rng.randrange(self.rules.n)}, tally)
        if not go_on:
            return
        tally.games += 1
        state = reply["state"]
        for _ in range(HANDS_PER_GAME):
            if not isinstance(state, dict) or state.get("game_over") or state.get("phase") != "deal":
                return
            if not claim_hand():
                return
            source = self.base
            if self.other_packs and rng.random() < OTHER_PACK:
                source = rng.choice(self.other_packs[rng.randrange(len(self.other_packs))])
            if source is self.base and self.special and rng.random() < SPECIAL_SOURCE:
                # A deal that starts a hand in a way only some hypotheses know (a weak hand
                # its holder may swap, say), each such way as often as any other.
                source, start = self.special[rng.randrange(len(self.special))]
                deal = source.policy.special_deal(rng, state.get("dealer", 0), start).to_json()
            else:
                deal = source.policy.deal(rng, state.get("dealer", 0))
            reply, go_on = self._send(alive, {"type": "deal", **deal}, tally)
            tally.hands += 1
            if not go_on:
                return
            state = reply["state"]
            mood = self.base.policy.mood(rng)
            while isinstance(state, dict) and isinstance(state.get("to_act"), int) and state.get("legal"):
                legal = [a for a in state["legal"] if isinstance(a, str)]
                if not legal:
                    return
                action = choose(rng, legal, str(state.get("phase")), mood)
                tally.coverage.step({"phase": str(state.get("phase")), "to_act": state["to_act"],
                                     "dealer": state.get("dealer"), "legal": legal}, action)
                reply, go_on = self._send(alive, {"type": "act", "seat": state["to_act"], "action": action}, tally)
                if not go_on:
                    return
                state = reply["state"]

    def replay(self, script: Script, tally: Round) -> None:
        """A game already played (a deviation a check found) sent again to the engine and to
        every hypothesis: a discriminating game where the rounds' random games were not."""
        self.lockstep.begin()
        alive = [self.base, *self.alternatives]
        for _, message in script.requests():
            _, go_on = self._send(alive, message, tally)
            if not go_on:
                return

    def _send(self, alive: list[Hypothesis], message: dict[str, Any], tally: Round) -> tuple[dict[str, Any], bool]:
        """Send to the engine and to every hypothesis alive; settle the atoms they dispute.
        The engine's reply, and whether the game can go on."""
        predictions: dict[Key, dict[str, Any]] = {}

        def predict() -> None:
            for hypothesis in alive:
                predictions[hypothesis.key] = hypothesis.reference.handle(message)

        reply = self.lockstep.engine_request(message, predict)
        tally.replies += 1
        base = predictions[self.base.key]
        engine_ok = reply.get("ok") is True
        if not engine_ok:
            # The engine refused: a deal outside its pack is evidence where the hypotheses
            # disagree on accepting it (a setup it does not support is none); the game ends.
            if not _unsupported(reply):
                self._settle(alive, predictions, reply, tally)
            return reply, False
        if not base.get("ok"):
            for hypothesis in alive[1:]:
                if predictions[hypothesis.key].get("ok"):
                    record = tally.tallies.setdefault(hypothesis.key, Tally())
                    record.wins += DEATH
                    record.won_at.add(tally.replies)
            return reply, False
        self._settle(alive, predictions, reply, tally)
        for hypothesis in list(alive[1:]):
            if not predictions[hypothesis.key].get("ok"):
                tally.tallies.setdefault(hypothesis.key, Tally()).losses += DEATH
                alive.remove(hypothesis)
        return reply, True

    def _settle(self, alive: list[Hypothesis], predictions: dict[Key, dict[str, Any]], reply: dict[str, Any],
                tally: Round) -> None:
        base = _View(predictions[self.base.key])
        engine = _View(reply)
        for hypothesis in alive[1:]:
            prediction = predictions[hypothesis.key]
            if _same_reply(base.reply, prediction):
                continue
            mine = _View(prediction)
            record = tally.tallies.setdefault(hypothesis.key, Tally())
            if _both_lost(base, mine, engine):
                continue
            for name in base.disputed(mine):
                if name not in _VERDICT and name not in engine.reported:
                    continue                # a field the engine does not report settles nothing
                ours, theirs, truth = base.atoms(name), mine.atoms(name), engine.atoms(name)
                for atom in ours.keys() | theirs.keys():
                    predicted, other = theirs.get(atom), ours.get(atom)
                    if predicted == other:
                        continue
                    record.contested += 1
                    actual = truth.get(atom)
                    if predicted == actual:
                        record.wins += 1
                        record.won_at.add(tally.replies)
                    elif other == actual:
                        record.losses += 1


_VERDICT = ("ok", "category")


def _both_lost(base: "_View", other: "_View", engine: "_View") -> bool:
    """Whether both hypotheses have lost the engine's place in the game (each names another
    phase than it is in): the rest of the reply then tells nothing between them (a game over
    and a thrown-in hand may both keep the dealer the engine keeps, for different reasons)."""
    if engine.ok is not True or base.ok is not True or other.ok is not True or "phase" not in engine.state:
        return False
    phase = engine.state["phase"]
    return base.state.get("phase") != phase and other.state.get("phase") != phase


class _View:
    """One reply, split into atoms field by field, each field only when it is asked for."""

    def __init__(self, reply: dict[str, Any]):
        self.reply = reply
        if "transport" in reply:
            self.ok: Any = "transport"
        else:
            self.ok = reply.get("ok") is True
        error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
        self.category = error.get("category") if self.ok is False else None
        state = reply.get("state") if self.ok is True else None
        self.state: dict[str, Any] = state if isinstance(state, dict) else {}
        self.reported = set(self.state)
        self._atoms: dict[str, dict[Any, Any]] = {}

    def disputed(self, other: "_View") -> list[str]:
        """The fields (or ``ok`` and ``category``) on which two replies differ."""
        if self.ok != other.ok:
            return list(_VERDICT)
        if self.ok is not True:
            return ["category"] if self.category != other.category else []
        return [k for k in self.state.keys() | other.state.keys() if self.state.get(k) != other.state.get(k)]

    def atoms(self, name: str) -> dict[Any, Any]:
        found = self._atoms.get(name)
        if found is None:
            found = self._atoms[name] = self._split(name)
        return found

    def _split(self, name: str) -> dict[Any, Any]:
        if name == "ok":
            return {None: self.ok}
        if name == "category":
            return {None: self.category}
        if name not in self.state:
            return {}
        value = self.state[name]
        if name in SET_FIELDS and isinstance(value, list):
            return {item: True for item in value if isinstance(item, Hashable)}
        if name == "hands" and isinstance(value, list):
            return {(seat, card): True for seat, cards in enumerate(value) if isinstance(cards, list)
                    for card in cards if isinstance(card, Hashable)}
        if isinstance(value, dict):     # counters: each kind its own atom (tokens and tallies are two options)
            return {key: _freeze(item) for key, item in value.items()}
        return {None: _freeze(value)}


def _same_reply(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.get("ok") != b.get("ok"):
        return False
    if not a.get("ok"):
        return (a.get("error") or {}).get("category") == (b.get("error") or {}).get("category")
    return a.get("state") == b.get("state")


def _unsupported(reply: dict[str, Any] | None) -> bool:
    error = (reply or {}).get("error")
    return isinstance(error, dict) and error.get("category") == "unsupported"
