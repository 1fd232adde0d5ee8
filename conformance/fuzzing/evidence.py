"""Evidence for one set of option values over another, from the engine's own play.

The engine is sent one fixed rule table, whatever it plays; beside it run references under
several hypotheses (full sets of option values): a *base* and, for each option and each
other value, the base with that one value changed. Moves are chosen among the engine's
legal moves (so its own rules are followed wherever they lead), deals now and then come
from another hypothesis's pack (so a Benny or a 32-card pack can show itself).

Replies are compared as *atoms*: acceptance, the error category, each scalar field, each
member of a set field (``legal`` holds ``pass``). Where the base and an alternative
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

from reference_impl import load_rules
from reference_impl.resolve import ResolvedTable

from ..runner import SET_FIELDS
from .coverage import Coverage
from .lockstep import Lockstep, Reference
from .policy import Policy, choose

DEATH = 3                    # what refusing a move the engine accepted weighs, in atoms
HANDS_PER_GAME = 6
OTHER_PACK = 0.3             # deals drawn from another hypothesis's pack
Key = Hashable


@dataclass
class Tally:
    """The evidence for one alternative against the base."""

    wins: int = 0            # atoms where the alternative agrees with the engine and the base does not
    losses: int = 0          # the other way round
    contested: int = 0       # atoms on which the two predictions differ

    @property
    def net(self) -> int:
        return self.wins - self.losses


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return (type(value).__name__, value) if isinstance(value, bool) else value


def atoms(reply: dict[str, Any]) -> dict[Any, Any]:
    """A reply as atoms: ``ok``, ``category``, one per scalar field, one per set member."""
    if "transport" in reply:
        return {"ok": "transport"}
    if not reply.get("ok"):
        error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
        return {"ok": False, "category": error.get("category")}
    found: dict[Any, Any] = {"ok": True}
    state = reply.get("state")
    if not isinstance(state, dict):
        found["state"] = "not an object"
        return found
    for name, value in state.items():
        if name in SET_FIELDS and isinstance(value, list):
            for item in value:
                if isinstance(item, Hashable):
                    found[name, item] = True
        elif name == "hands" and isinstance(value, list):
            for seat, cards in enumerate(value):
                for card in cards if isinstance(cards, list) else []:
                    if isinstance(card, Hashable):
                        found[name, seat, card] = True
        else:
            found[name, None] = _freeze(value)
    return found


def _field(atom: Any) -> str | None:
    return atom[0] if isinstance(atom, tuple) else None


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
    hands: int = 0
    games: int = 0
    coverage: Coverage = field(default_factory=Coverage)


class Panel:
    """The engine and the hypotheses' references, playing the engine's game together."""

    def __init__(self, lockstep: Lockstep, variant: str, base: Hypothesis, alternatives: list[Hypothesis],
                 units: int):
        self.lockstep = lockstep
        self.variant = variant
        self.base = base
        self.alternatives = alternatives
        self.units = units
        self.rules = load_rules(variant, dict(base.table.selected))
        for hypothesis in [base, *alternatives]:
            if hypothesis.policy is None:
                rules = load_rules(variant, dict(hypothesis.table.selected))
                hypothesis.policy = Policy(rules, hypothesis.reference, units, probes=0.0)

    def play_game(self, rng: random.Random, tally: Round, claim_hand) -> None:
        """One game on the engine, scored against every hypothesis still in it."""
        lockstep = self.lockstep
        lockstep.begin()
        alive = [self.base, *self.alternatives]
        setup = self.base.policy.setup(rng, lockstep.refused)
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
            if self.alternatives and rng.random() < OTHER_PACK:
                source = rng.choice(self.alternatives)
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

    def _send(self, alive: list[Hypothesis], message: dict[str, Any], tally: Round) -> tuple[dict[str, Any], bool]:
        """Send to the engine and to every hypothesis alive; settle the atoms they dispute.
        The engine's reply, and whether the game can go on."""
        predictions: dict[Key, dict[str, Any]] = {}

        def predict() -> None:
            for hypothesis in alive:
                predictions[hypothesis.key] = hypothesis.reference.handle(message)

        reply = self.lockstep.engine_request(message, predict)
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
                    tally.tallies.setdefault(hypothesis.key, Tally()).wins += DEATH
            return reply, False
        self._settle(alive, predictions, reply, tally)
        for hypothesis in list(alive[1:]):
            if not predictions[hypothesis.key].get("ok"):
                tally.tallies.setdefault(hypothesis.key, Tally()).losses += DEATH
                alive.remove(hypothesis)
        return reply, True

    def _settle(self, alive: list[Hypothesis], predictions: dict[Key, dict[str, Any]], reply: dict[str, Any],
                tally: Round) -> None:
        base = predictions[self.base.key]
        others = [h for h in alive[1:] if not _same_reply(base, predictions[h.key])]
        if not others:
            return
        base_atoms = atoms(base)
        engine_atoms = atoms(reply)
        state = reply.get("state") if reply.get("ok") else None
        reported = set(state) if isinstance(state, dict) else set()
        for hypothesis in others:
            mine = atoms(predictions[hypothesis.key])
            record = tally.tallies.setdefault(hypothesis.key, Tally())
            for atom in base_atoms.keys() | mine.keys():
                theirs, ours = mine.get(atom), base_atoms.get(atom)
                if theirs == ours:
                    continue
                name = _field(atom)
                if name is not None and name not in reported:
                    continue            # a field the engine does not report settles nothing
                record.contested += 1
                truth = engine_atoms.get(atom)
                if theirs == truth:
                    record.wins += 1
                elif ours == truth:
                    record.losses += 1


def _same_reply(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.get("ok") != b.get("ok"):
        return False
    if not a.get("ok"):
        return (a.get("error") or {}).get("category") == (b.get("error") or {}).get("category")
    return a.get("state") == b.get("state")


def _unsupported(reply: dict[str, Any] | None) -> bool:
    error = (reply or {}).get("error")
    return isinstance(error, dict) and error.get("category") == "unsupported"
