"""The differential fuzz loop: random games on the engine and the reference, step by step.

Each game is determined by the run's seed and the game's number (its own random
generator), so any game can be played again exactly, on any worker. Workers are threads,
each with its own engine process and its own reference; while an engine computes its
reply the thread computes the reference's (see :mod:`.lockstep`), so two workers keep two
engines busy. A divergence does not end a game: it goes on along the reference's line
(:meth:`Fuzzer.play_game`), so one defect met early in every game does not hide the later
ones. Divergences are grouped by kind (the clause, the phase, the request and the fields that
differ); the run stops when ``max_divergences`` kinds are found or the budget is spent.
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
from conformance.runner.compare import Difference, signature
from .coverage import Coverage
from .divergence import Divergence
from .hands import HANDS_PER_GAME, play_hand
from .lockstep import EngineFactory, Lockstep, Reference, SetupError
from .policy import Policy, choose
from .script import Hand, Position, Script, Step, truncated

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
    resumed: int = 0         # games resumed on both from the reference's dealer and scores after the engine left its line
    narrowed: int = 0        # moves chosen among those both offer, where the legal sets differed
    taken_back: int = 0      # moves the engine refused, taken back on the reference (another one chosen)

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
        self._game = threading.local()

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
                self.play_game(lockstep, policy, game, coverage)
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
            known = self._by_signature.get(divergence.kind)
            if known is not None:
                known.count += 1
                if (divergence.game or 0) < (known.game or 0):
                    divergence.count = known.count
                    self._by_signature[divergence.kind] = divergence
            else:
                self._by_signature[divergence.kind] = divergence
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
    def play_game(self, lockstep: Lockstep, policy: Policy, game: int, coverage: Coverage) -> list[Divergence]:
        """Play game number ``game``; the divergences met on the way (each also recorded).

        A divergence does not end the game. Where the two disagree only on the legal set, the
        game goes on with a move both offer (the reference's line, which the engine still
        shares). Where the engine has left that line (it refused a move, took a refused one,
        or its state differs in another field), the reference alone plays the hand out, and
        both are given a new game from the reference's next dealer and scores: later hands
        and phases are still reached, and no divergence that only follows from an earlier
        one is reported."""
        rng = random.Random(f"{self.seed}:{game}")
        side = random.Random(f"{self.seed}:{game}:side")   # probes and views: the game is the same without them
        views = "seat-view" in (lockstep.hello.get("commands") or [])
        self._game.met = []                  # this worker's game: its divergences, and their kinds
        self._game.kinds = set()
        lockstep.begin()
        started = self._start(lockstep, policy.setup(rng, lockstep.refused), rng, game)
        if started is None:
            return self._game.met
        script, state = started
        coverage.games += 1
        coverage.setups.update(f for f in SETUP_FEATURES if f in script.setup)
        for _ in range(HANDS_PER_GAME):
            if state["game_over"] or not self.budget.claim_hand():
                break
            hand = Hand(policy.deal(rng, state["dealer"]))
            script.hands.append(hand)
            h = len(script.hands) - 1
            expected, actual, differences = lockstep.send({"type": "deal", **hand.deal})
            in_step = True
            if differences:
                in_step = self._found(script, Position("deal", h), "deal", expected, actual, differences, game)
            state = expected["state"] if expected.get("ok") else state
            theirs = _state_of(actual)
            mood = policy.mood(rng)
            refused: set[str] = set()        # moves of this turn the engine refused and the reference took
            while in_step and state["to_act"] is not None and not self.budget.stop.is_set():
                probe = policy.probe(side, state)
                if probe is not None:
                    coverage.probes += 1
                    in_step, theirs = self._probe(lockstep, script, hand, h, probe, state, game, theirs)
                    state = lockstep.reference.state
                    if not in_step or state["to_act"] is None:
                        break
                phase = state["phase"]
                legal = [a for a in self._both_offer(state["legal"], theirs) if a not in refused]
                if not legal:                # the engine refuses every move the reference offers
                    in_step = False
                    break
                action = choose(rng, legal, phase, mood)
                hand.steps.append(Step(state["to_act"], action))
                coverage.step(state, action)
                expected, actual, differences = lockstep.send({"type": "act", "seat": state["to_act"], "action": action})
                if differences:
                    in_step = self._found(script, Position("act", h, len(hand.steps) - 1), phase, expected, actual,
                                          differences, game)
                    if _refused_what_reference_took(expected, actual):
                        # Take the move back on the reference and choose another: the engine
                        # (which refused it, so changed nothing) is on the reference's line again.
                        refused.add(action)
                        state, theirs, in_step = self._take_back(lockstep, script)
                        continue
                refused = set()
                state = expected["state"]
                theirs = _state_of(actual)
                seat = policy.view(side) if views and in_step else None
                if seat is not None:
                    coverage.views += 1
                    hand.steps[-1] = replace(hand.steps[-1], views=(seat,))
                    expected, actual, differences = lockstep.send({"type": "state", "seat": seat})
                    if differences:      # a view changes nothing: the game goes on in step
                        self._found(script, Position("view", h, len(hand.steps) - 1), state["phase"],
                                    expected, actual, differences, game)
            if self.budget.stop.is_set():
                break
            if not in_step:
                state = self._finish_on_reference(lockstep, rng, mood)
                if state["game_over"]:
                    break
                resumed = self._start(lockstep, self._resume_setup(state, lockstep.refused), rng, game)
                if resumed is None:
                    break
                script, state = resumed
                with self._lock:
                    self.result.resumed += 1
                continue
            coverage.hand_end(state)
            self._hands_done += 1             # for progress only: an approximate count is enough
            if self.progress is not None:
                self.progress(self._hands_done, len(self._by_signature))
        return self._game.met

    def _start(self, lockstep: Lockstep, setup: dict[str, Any], rng: random.Random,
               game: int) -> tuple[Script, dict[str, Any]] | None:
        """A new game on both (without the setup features the engine answers `unsupported`
        to); its script and the reference's state, or None where they disagree on it."""
        lockstep.begin()
        script = Script(setup)
        expected, actual, differences = lockstep.send({"type": "new_game", **setup})
        if differences and _refused_feature(expected, actual, setup):
            for feature in SETUP_FEATURES:
                if feature in setup:
                    lockstep.refused.add(feature)
                    self._note(f"the engine answers `unsupported` to new_game with {feature}: games start without it")
            setup = {"dealer": setup["dealer"] if "dealer" in setup else rng.randrange(self.rules.n)}
            script = Script(setup)
            expected, actual, differences = lockstep.send({"type": "new_game", **setup})
        if differences:
            self._found(script, Position("new_game"), "new_game", expected, actual, differences, game)
            return None
        return script, expected["state"]

    def _take_back(self, lockstep: Lockstep, script: Script) -> tuple[dict[str, Any], dict[str, Any] | None, bool]:
        """Undo the last move on the reference (the engine refused it): a fresh reference
        replays the game without it. Whether the engine's state then agrees (it must have
        changed nothing), with the reference's state and the engine's."""
        script.hands[-1].steps.pop()
        reference = Reference(self.variant, self.reference_table)
        for position, request in script.requests():
            if position.kind in ("new_game", "deal", "act"):
                reference.handle(request)
        lockstep.reference = reference
        expected, actual, differences = lockstep.send({"type": "state"})
        with self._lock:
            self.result.taken_back += 1
        return reference.state, _state_of(actual), not differences

    @staticmethod
    def _resume_setup(state: dict[str, Any], refused: set[str]) -> dict[str, Any]:
        """Where the reference's game stands between hands, as new_game fields."""
        setup: dict[str, Any] = {"dealer": state["dealer"]}
        if "scores" not in refused and state.get("scores") is not None:
            setup["scores"] = list(state["scores"])
        return setup

    def _finish_on_reference(self, lockstep: Lockstep, rng: random.Random, mood: Any) -> dict[str, Any]:
        """The rest of the hand played by the reference alone (the engine has left its line)."""
        reference = lockstep.reference
        game = reference.engine.state
        if game is None:
            return reference.state
        for _ in play_hand(game, rng, mood):
            pass
        reference.state = game.observation()
        return reference.state

    def _both_offer(self, legal: list[str], theirs: dict[str, Any] | None) -> list[str]:
        """The reference's legal moves the engine offers too (all of them where the engine's
        legal set is not known or shares none): the game stays on a line both can play."""
        if theirs is None or not isinstance(theirs.get("legal"), list):
            return legal
        offered = theirs["legal"]
        if offered == legal:
            return legal
        try:
            common = [a for a in legal if a in set(offered)]
        except TypeError:                    # garbage in the engine's legal set
            return legal
        if common and len(common) < len(legal):
            with self._lock:
                self.result.narrowed += 1
        return common or legal

    def _probe(self, lockstep: Lockstep, script: Script, hand: Hand, h: int, probe: tuple[int, str],
               state: dict[str, Any], game: int, theirs: dict[str, Any] | None) -> tuple[bool, dict[str, Any] | None]:
        """A request the rules refuse, then the state, which must not have changed. Whether
        the engine is still in step, and its last state."""
        seat, token = probe
        phase = state["phase"]
        hand.steps.append(Step(seat, token, probe=True))
        index = len(hand.steps) - 1
        expected, actual, differences = lockstep.send({"type": "act", "seat": seat, "action": token})
        in_step = True
        if differences:
            in_step = self._found(script, Position("probe", h, index), phase, expected, actual, differences, game)
        if expected.get("ok"):                # the reference took it after all: an ordinary step
            hand.steps[index] = Step(seat, token)
            return in_step, _state_of(actual)
        hand.steps[index] = Step(seat, token, probe=True, reject=expected["error"]["category"])
        if not in_step:
            return False, theirs
        expected, actual, differences = lockstep.send({"type": "state"})
        if differences:
            in_step = self._found(script, Position("state", h, index), phase, expected, actual, differences, game)
        return in_step, _state_of(actual)

    def _found(self, script: Script, position: Position, phase: str, expected: dict[str, Any],
               actual: dict[str, Any], differences: list[Difference], game: int | None) -> bool:
        """Record a divergence (once per kind in a game); whether the engine is still on the
        reference's line after it."""
        divergence = self._divergence(script, position, phase, expected, actual, differences, game)
        if divergence.kind not in self._game.kinds:
            self._game.kinds.add(divergence.kind)
            self._game.met.append(divergence)
            self._record(divergence)
        return still_in_step(position.kind, expected, actual, differences)

    def _divergence(self, script: Script, position: Position, phase: str, expected: dict[str, Any],
                    actual: dict[str, Any], differences: list[Difference], game: int | None) -> Divergence:
        clause = self.clauses.cite(phase, [d.field for d in differences], expected.get("state"), actual.get("state"))
        return Divergence(script=truncated(script, position), position=position, differences=differences,
                          signature=signature(phase, position.kind, differences), phase=phase,
                          expected=expected, actual=actual, clause=clause, game=game)


# Fields whose difference leaves the engine's game where the reference's is: the moves it
# offers (the next move is then one both offer).
IN_STEP_FIELDS = frozenset({"legal"})


def still_in_step(kind: str, expected: dict[str, Any], actual: dict[str, Any], differences: list[Difference]) -> bool:
    """Whether, after a request on which they differ, the engine's game is still the
    reference's: a seat's view changes nothing; two refusals of different categories leave
    both games as they were; two acceptances differing only in the legal set leave the
    same game. Anything else (a refusal of an accepted move, a crash, another field) does not."""
    if kind == "view":
        return True
    if any(d.field == "transport" for d in differences):
        return False
    if not expected.get("ok") and not actual.get("ok"):
        return True
    return bool(expected.get("ok")) and bool(actual.get("ok")) and all(d.field in IN_STEP_FIELDS for d in differences)


def _refused_what_reference_took(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    return bool(expected.get("ok")) and actual.get("ok") is False and "transport" not in actual


def _state_of(reply: dict[str, Any]) -> dict[str, Any] | None:
    state = reply.get("state") if isinstance(reply, dict) else None
    return state if isinstance(state, dict) else None


def _refused_feature(expected: dict[str, Any], actual: dict[str, Any], setup: dict[str, Any]) -> bool:
    """The engine answered `unsupported` to a new_game the reference took, and it used a setup feature."""
    error = actual.get("error") if isinstance(actual.get("error"), dict) else {}
    return (bool(expected.get("ok")) and actual.get("ok") is False and error.get("category") == "unsupported"
            and any(f in setup for f in SETUP_FEATURES))
