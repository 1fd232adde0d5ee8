"""The differential fuzz loop: random games on the engine and the reference, step by step.

Each game is determined by the run's seed and the game's number (its own random
generator), so any game can be played again exactly, on any worker. Workers are threads,
each with its own engine process and its own reference; while an engine computes its
reply the thread computes the reference's (see :mod:`.lockstep`), so two workers keep two
engines busy. By default the run stops at the first divergence; identify's check keeps
going and collects one divergence per kind (signature).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from reference_impl import load_rules
from reference_impl.resolve import ResolvedTable

from .clauses import ClauseIndex
from .compare import Difference, signature
from .coverage import Coverage
from .divergence import Divergence
from .lockstep import EngineFactory, Lockstep, Reference, SetupError
from .policy import Policy, choose
from .script import Hand, Position, Script, Step, truncated

HANDS_PER_GAME = 30          # a game still running after this many hands is left, the next one started
SETUP_FEATURES = ("first_dealer", "scores")


@dataclass
class FuzzResult:
    hands: int = 0
    games: int = 0
    steps: int = 0
    elapsed: float = 0.0
    divergences: list[Divergence] = field(default_factory=list)
    coverage: Coverage = field(default_factory=Coverage)
    notes: list[str] = field(default_factory=list)
    hello: dict[str, Any] = field(default_factory=dict)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.elapsed if self.elapsed > 0 else 0.0


class _Budget:
    """Hands left to play (or seconds), shared by the workers; also the stop flag."""

    def __init__(self, hands: int | None, seconds: float | None):
        self.left = hands
        self.seconds = seconds
        self.deadline: float | None = None
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.next_game = 0

    def start(self) -> None:
        if self.seconds:
            self.deadline = time.monotonic() + self.seconds

    def claim_hand(self) -> bool:
        if self.stop.is_set() or (self.deadline is not None and time.monotonic() >= self.deadline):
            return False
        with self.lock:
            if self.left is None:
                return True
            if self.left <= 0:
                return False
            self.left -= 1
            return True

    def claim_game(self) -> int | None:
        with self.lock:
            if self.stop.is_set() or self.left is not None and self.left <= 0:
                return None
            if self.deadline is not None and time.monotonic() >= self.deadline:
                return None
            game, self.next_game = self.next_game, self.next_game + 1
            return game


class Fuzzer:
    """Plays random games on an engine beside the reference until the budget is spent or
    enough divergences are found."""

    def __init__(self, make_engine: EngineFactory, variant: str, engine_table: ResolvedTable,
                 reference_table: ResolvedTable | None = None, seed: int = 0, hands: int | None = 1000,
                 seconds: float | None = None, jobs: int = 1, max_divergences: int = 1, probes: float = 0.03,
                 progress: Callable[[int, int], None] | None = None):
        self.make_engine = make_engine
        self.variant = variant
        self.engine_table = engine_table
        self.reference_table = reference_table or engine_table
        self.seed = seed
        self.jobs = max(1, jobs)
        self.max_divergences = max_divergences
        self.probes = probes
        self.progress = progress
        self.budget = _Budget(hands, seconds)
        self.rules = load_rules(variant, dict(self.reference_table.selected))
        self.clauses = ClauseIndex(self.reference_table.table)
        self.result = FuzzResult()
        self._lock = threading.Lock()
        self._by_signature: dict[tuple, Divergence] = {}
        self._errors: list[BaseException] = []
        self._hands_done = 0

    # -- the run ----------------------------------------------------------------------------------------
    def run(self) -> FuzzResult:
        """Play until the budget is spent; the clock (and a time budget) starts once every
        worker's engine has started and holds the rules."""
        self._ready = threading.Barrier(self.jobs + 1)
        threads = [threading.Thread(target=self._worker, daemon=True) for _ in range(self.jobs)]
        for thread in threads:
            thread.start()
        started = time.perf_counter()
        try:
            try:
                self._ready.wait()
            except threading.BrokenBarrierError:
                pass                              # a worker failed to start: its error is raised below
            started = time.perf_counter()
            self.budget.start()
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.2)
        except KeyboardInterrupt:
            self.budget.stop.set()
            self._ready.abort()
            raise
        self.result.elapsed = time.perf_counter() - started
        if self._errors:
            raise self._errors[0]
        # Those a case can state first (the others are reported, but cannot fail a check).
        self.result.divergences = sorted(self._by_signature.values(), key=lambda d: (not d.statable, d.game))
        return self.result

    def _worker(self) -> None:
        lockstep = Lockstep(self.make_engine, self.variant, self.engine_table, self.reference_table)
        coverage = Coverage()
        try:
            lockstep.begin()
            policy = Policy(self.rules, Reference(self.variant, self.reference_table), probes=self.probes)
            with self._lock:
                self.result.hello = self.result.hello or dict(lockstep.hello)
            self._ready.wait()
            while True:
                game = self.budget.claim_game()
                if game is None:
                    break
                divergence = self.play_game(lockstep, policy, game, coverage)
                if divergence is not None:
                    self._record(divergence)
        except threading.BrokenBarrierError:
            pass                                  # another worker failed to start
        except SetupError as exc:
            if coverage.games or self._by_signature:
                # It started once: a restart after a crash failed. What was found stands.
                self._note(f"the run stopped early: {exc}")
                self.budget.stop.set()
            else:
                self._errors.append(exc)
                self.budget.stop.set()
                self._ready.abort()
        except BaseException as exc:  # noqa: BLE001 - re-raised by run() in the main thread
            self._errors.append(exc)
            self.budget.stop.set()
            self._ready.abort()
        finally:
            lockstep.close()
            with self._lock:
                self.result.coverage.merge(coverage)
                self.result.hands += coverage.hands
                self.result.games += coverage.games
                self.result.steps += coverage.steps

    def _record(self, divergence: Divergence) -> None:
        with self._lock:
            known = self._by_signature.get(divergence.signature)
            if known is not None:
                known.count += 1
                if (divergence.game or 0) < (known.game or 0):
                    divergence.count = known.count
                    self._by_signature[divergence.signature] = divergence
            else:
                self._by_signature[divergence.signature] = divergence
            found = sum(1 for d in self._by_signature.values() if d.statable)
            if found >= self.max_divergences:
                self.budget.stop.set()
        if self.progress is not None:
            self.progress(self._hands_done, found)

    def _note(self, text: str) -> None:
        with self._lock:
            if text not in self.result.notes:
                self.result.notes.append(text)

    # -- one game ---------------------------------------------------------------------------------------
    def play_game(self, lockstep: Lockstep, policy: Policy, game: int, coverage: Coverage) -> Divergence | None:
        """Play game number ``game``; the divergence that ended it, if one did."""
        rng = random.Random(f"{self.seed}:{game}")
        side = random.Random(f"{self.seed}:{game}:side")   # probes and views: the game is the same without them
        views = "seat-view" in (lockstep.hello.get("commands") or [])
        lockstep.begin()
        setup = policy.setup(rng, lockstep.refused)
        script = Script(setup)
        expected, actual, differences = lockstep.send({"type": "new_game", **setup})
        if differences and _refused_feature(expected, actual, setup):
            for feature in SETUP_FEATURES:
                if feature in setup:
                    lockstep.refused.add(feature)
                    self._note(f"the engine answers `unsupported` to new_game with {feature}: games start without it")
            setup = {"dealer": setup.get("dealer", rng.randrange(self.rules.n))}
            script = Script(setup)
            expected, actual, differences = lockstep.send({"type": "new_game", **setup})
        if differences:
            return self._divergence(script, Position("new_game"), "new_game", expected, actual, differences, game)
        coverage.games += 1
        coverage.setups.update(f for f in SETUP_FEATURES if f in setup)
        state = expected["state"]
        for h in range(HANDS_PER_GAME):
            if state["game_over"] or not self.budget.claim_hand():
                break
            hand = Hand(policy.deal(rng, state["dealer"]))
            script.hands.append(hand)
            expected, actual, differences = lockstep.send({"type": "deal", **hand.deal})
            if differences:
                return self._divergence(script, Position("deal", h), "deal", expected, actual, differences, game)
            state = expected["state"]
            mood = policy.mood(rng)
            while state["to_act"] is not None:
                probe = policy.probe(side, state)
                if probe is not None:
                    coverage.probes += 1
                    found = self._probe(lockstep, script, hand, h, probe, state, game)
                    if found is not None:
                        return found
                    state = lockstep.reference.state
                    if state["to_act"] is None:
                        break
                phase = state["phase"]
                action = choose(rng, state["legal"], phase, mood)
                hand.steps.append(Step(state["to_act"], action))
                coverage.step(state, action)
                expected, actual, differences = lockstep.send({"type": "act", "seat": state["to_act"], "action": action})
                if differences:
                    return self._divergence(script, Position("act", h, len(hand.steps) - 1), phase, expected, actual,
                                            differences, game)
                state = expected["state"]
                seat = policy.view(side) if views else None
                if seat is not None:
                    coverage.views += 1
                    hand.steps[-1] = replace(hand.steps[-1], views=(seat,))
                    expected, actual, differences = lockstep.send({"type": "state", "seat": seat})
                    if differences:
                        return self._divergence(script, Position("view", h, len(hand.steps) - 1), state["phase"],
                                                expected, actual, differences, game)
            coverage.hand_end(state)
            self._hands_done += 1             # for progress only: an approximate count is enough
            if self.progress is not None:
                self.progress(self._hands_done, len(self._by_signature))
        return None

    def _probe(self, lockstep: Lockstep, script: Script, hand: Hand, h: int, probe: tuple[int, str],
               state: dict[str, Any], game: int) -> Divergence | None:
        """A request the rules refuse, then the state, which must not have changed."""
        seat, token = probe
        phase = state["phase"]
        hand.steps.append(Step(seat, token, probe=True))
        index = len(hand.steps) - 1
        expected, actual, differences = lockstep.send({"type": "act", "seat": seat, "action": token})
        if differences:
            return self._divergence(script, Position("probe", h, index), phase, expected, actual, differences, game)
        if expected.get("ok"):                # the reference took it after all: an ordinary step
            hand.steps[index] = Step(seat, token)
            return None
        hand.steps[index] = Step(seat, token, probe=True, reject=expected["error"]["category"])
        expected, actual, differences = lockstep.send({"type": "state"})
        if differences:
            return self._divergence(script, Position("state", h, index), phase, expected, actual, differences, game)
        return None

    def _divergence(self, script: Script, position: Position, phase: str, expected: dict[str, Any],
                    actual: dict[str, Any], differences: list[Difference], game: int | None) -> Divergence:
        return Divergence(script=truncated(script, position), position=position, differences=differences,
                          signature=signature(phase, position.kind, differences), phase=phase, expected=expected,
                          actual=actual, clause=self.clauses.cite(phase, [d.field for d in differences],
                                                                   expected.get("state"), actual.get("state")),
                          game=game)


def _refused_feature(expected: dict[str, Any], actual: dict[str, Any], setup: dict[str, Any]) -> bool:
    """The engine answered `unsupported` to a new_game the reference took, and it used a setup feature."""
    error = actual.get("error") if isinstance(actual.get("error"), dict) else {}
    return (bool(expected.get("ok")) and actual.get("ok") is False and error.get("category") == "unsupported"
            and any(f in setup for f in SETUP_FEATURES))
