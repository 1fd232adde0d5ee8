"""Running cases against an engine and classifying what happens.

A :class:`Session` owns one long-lived engine process and plays cases through it, one at a
time: it sends the rule table when it changes, starts a game, deals each hand, applies each
scripted action, and compares the engine's answers with the case's expectations. The first
disagreement ends the case with the step, the field, the expected and actual values, and
the rule clause. Transport failures (crash, hang, garbage) are recorded and the engine is
restarted for the next case. The next scripted action is sent as soon as a reply arrives,
before that reply is checked, so that the engine computes while the runner checks (see
:meth:`EngineProcess.request`).
"""

from __future__ import annotations

import time
from typing import Any

from reference_impl.schemas import first_error

from conformance.cases import Case
from conformance.runner.cited_clause import ClauseTracer, Point
from conformance.common.clip import clip_text
from conformance.runner.engine_process import EngineFailure, EngineProcess, EngineTimedOut
from conformance.runner.seat_views import ReferenceReplay, view_differences, wants_views
from conformance.common.json_values import same_set, strict_equal
from conformance.common.shown import one_line
from conformance.runner.fields import (OBSERVATION_REQUIRED, OBSERVATION_REQUIRED_SET, OPTIONAL_FIELDS, REPLY_SCHEMAS,
                                        RULE_CATEGORIES, SEAT_SET_FIELDS, SET_FIELDS, TRACED_FIELDS)
from conformance.runner.results import FAILING, CaseResult, Failure
from conformance.runner.state_consistency import card_count, dealt_cards, inconsistency


class CaseFailed(Exception):
    def __init__(self, failure: Failure, outcome: str = "fail"):
        super().__init__(failure.message)
        self.failure = failure
        self.outcome = outcome


class CasePlayer:
    """One engine process, used for case after case: each case played on it and judged.

    It plays a case as written; :class:`~conformance.runner.session.Session` (the runner's
    session) first checks the case against what the engine declares and adapts it to the
    engine's options, through the two hooks :meth:`_prepare` and :meth:`_adapted_detail`. The
    replays that vouch for an adapted case are played by a ``CasePlayer`` of their own on the
    in-process reference (:mod:`conformance.runner.adapt`)."""

    def __init__(self, argv: list[str], timeout: float = 10.0, case_timeout: float = 60.0,
                 strict_replies: bool = False, corpus_version: str | None = None, start_timeout: float | None = None):
        self.engine = EngineProcess(argv, timeout, corpus_version=corpus_version,
                                    **({"start_timeout": start_timeout} if start_timeout else {}))
        self.case_timeout = case_timeout
        self.strict_replies = strict_replies
        self._validated: set[str] = set()
        self._clause_index: dict[str, dict[str, dict[str, Any]]] = {}
        self._tracers: dict[str, ClauseTracer] = {}
        self._point = Point(moment="setup")
        self._engine_state: dict[str, Any] | None = None
        self.start_error: str | None = None
        self._replay: ReferenceReplay | None = None     # a case checking every view: the reference beside it
        # what every state reply is checked against (see state_consistency): the cards the
        # case dealt this hand, the table's seats, and the cards in play at the play's start
        self._dealt: frozenset[str] | None = None
        self._seats: int | None = None
        self._play_cards: tuple[Any, int] | None = None

    def close(self) -> None:
        self.engine.stop()

    # -- running one case ----------------------------------------------------------------------
    def run(self, case: Case) -> CaseResult:
        started = time.monotonic()
        starts_before, left_before, hit_budget = self.engine.starts, self.engine.left_behind, False
        self._deadline = started + self.case_timeout
        self._position: tuple[str, dict[str, Any]] = ("engine start", {})
        played = case
        try:
            if not self.engine.alive():
                self._validated.clear()
                self.engine.start()
            prepared = self._prepare(case, started)
            if isinstance(prepared, CaseResult):
                return prepared
            played = prepared
            self._play(played)
            outcome, failure, detail = "pass", None, None
        except CaseFailed as exc:
            outcome, failure, detail = exc.outcome, exc.failure, None
            self._cite(played, failure)
        except EngineFailure as exc:
            where, context = self._position
            outcome, detail = exc.outcome, None
            hit_budget = isinstance(exc, CaseTimedOut)
            failure = Failure(where=where, message=str(exc), **context)
            self.engine.kill()          # restarted fresh by the next case
        except Exception as exc:  # a reply of a shape past the (once per kind) schema check
            where, context = self._position
            outcome, detail = "error", None
            failure = Failure(where=where, message=f"cannot check the engine's reply: {type(exc).__name__}: {exc}", **context)
            self.engine.kill()
        try:
            self.engine.drain(min(self.engine.timeout, max(0.05, self._deadline - time.monotonic())))
                                        # the answer to an action sent ahead of a failure, within the budget
        except EngineFailure:
            self.engine.kill()          # this case is already decided; the next gets a fresh engine
        expected = case.data.get("expected_failure") if isinstance(case.data, dict) else None
        if expected is not None and outcome in ("pass", "fail"):
            outcome, failure, detail = _against_expected_failure(expected, outcome, failure)
        stderr = self.engine.stderr_text() or None if outcome in FAILING else None
        if played is not case and detail is None:
            detail = self._adapted_detail(case, played)
        result = CaseResult(case, outcome, time.monotonic() - started, failure, stderr, detail=detail)
        result.engine_starts = self.engine.starts - starts_before
        result.left_processes = self.engine.left_behind - left_before
        result.hit_case_timeout = hit_budget
        return result

    def _prepare(self, case: Case, started: float) -> Case | CaseResult:
        """The case to play on the started engine, or the result that ends it unplayed."""
        return case

    def _adapted_detail(self, case: Case, played: Case) -> str | None:
        """What a result says of a case played in another form than written (see :meth:`_prepare`)."""
        return None

    def _cite(self, case: Case, failure: Failure) -> None:
        """Cite the clause behind the field that differed (traced in the reference, see
        :mod:`conformance.runner.cited_clause`), keeping the case's clauses as context."""
        failure.case_clauses = list(case.clauses)
        field, actual = failure.field, failure.actual
        refused = field is None and failure.action is not None and self._point.moment == "before" \
            and failure.message.startswith("engine refused act")
        if refused:                 # a legal action refused: the rule that makes it legal
            field, actual = "legal", None
        if field is None or case.table is None:
            return
        try:
            tracer = self._tracers.get(case.table.sha256)
            if tracer is None:
                tracer = self._tracers[case.table.sha256] = ClauseTracer(case)
            if field not in TRACED_FIELDS:      # a field of the engine's own: a view showing cards, or nothing
                cited = tracer.cite_own_field(field, actual)
            else:
                cited = tracer.cite(case, self._point, field, self._engine_state, actual,
                                    refused=failure.action if refused else None)
        except Exception as exc:    # noqa: BLE001 - a bug of ours: the case keeps its step's clause, and says so
            failure.internal_error = f"tracing the rule broken: {type(exc).__name__}: {clip_text(str(exc), 300)}"
            return
        if cited:
            failure.clause = self._clause(case, cited)

    def _clause(self, case: Case, clause_id: str | None = None) -> dict[str, Any] | None:
        """The clause a failure cites, with its source (looked up in a per-table index, since
        every step names one)."""
        clause_id = clause_id or case.clauses[0]
        index = self._clause_index.get(case.table.sha256)
        if index is None:
            index = self._clause_index[case.table.sha256] = _clause_index(case.table.table)
        return index.get(clause_id, {"id": clause_id})

    def _request(self, case: Case, message: dict[str, Any], where: str, clause: dict[str, Any] | None = None,
                 then: dict[str, Any] | None = None, **context: Any) -> dict[str, Any]:
        """Send a request that must succeed; an error reply ends the case. ``then``: the
        request that comes next if this one's reply is right (see EngineProcess.request)."""
        self._position = (where, context)
        reply = self._ask(message, then)
        kind = message["type"]
        if not reply.get("ok"):
            error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
            category = error.get("category")
            text = f"engine refused {kind}: {one_line(str(category))}: {one_line(str(error.get('message', '')))}"
            if category == "unsupported":
                # Support is declared in hello, before any case starts: refusing later is no
                # way out of a case (it would turn failures into skips).
                text += " (the engine declared this case supported in hello)"
            outcome = "fail" if category in RULE_CATEGORIES | {"unsupported"} else "error"
            raise CaseFailed(Failure(where=where, message=text, clause=clause or self._clause(case), **context), outcome)
        self._check_reply(kind, reply, where)
        return reply

    def _ask(self, message: dict[str, Any], then: dict[str, Any] | None = None) -> dict[str, Any]:
        """One request, waited for no longer than the per-reply timeout nor than what is left
        of the case's budget: a case ends when its budget is spent, not at the next request
        nor after a reply in flight (so a case takes at most --case-timeout, and a run of C
        cases at most about C times that, plus each engine start)."""
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise CaseTimedOut(f"case not finished within {self.case_timeout:g} s")
        limit = min(self.engine.timeout, left)
        try:
            return self.engine.request(message, timeout=limit, then=then)
        except EngineTimedOut:
            if limit < self.engine.timeout:
                raise CaseTimedOut(f"case not finished within {self.case_timeout:g} s "
                                   f"(still waiting for the reply to {message['type']})") from None
            raise

    def _check_reply(self, kind: str, reply: dict[str, Any], where: str) -> None:
        schema = REPLY_SCHEMAS.get(kind)
        if schema is None:
            return
        if "state" in reply or schema == "state-reply":
            state = reply.get("state")
            if not isinstance(state, dict) or not state.keys() >= OBSERVATION_REQUIRED_SET:
                missing = [k for k in OBSERVATION_REQUIRED if not isinstance(state, dict) or k not in state]
                raise CaseFailed(Failure(where=where, message=f"the {kind} reply's state lacks {', '.join(missing)}"), "error")
        if self.strict_replies or schema not in self._validated:
            problem = first_error(f"protocol/{schema}.schema.json", reply)
            if problem:
                raise CaseFailed(Failure(where=where, message=f"the {kind} reply is not valid: {problem}"), "error")
            self._validated.add(schema)
        if isinstance(reply.get("state"), dict):
            self._check_consistent(reply["state"], where)

    def _check_consistent(self, state: dict[str, Any], where: str) -> None:
        """Every state reply, whatever fields the case names: it must agree with itself and
        with the deal, and during the play keep its cards (see state_consistency)."""
        problem = inconsistency(state, self._dealt, self._seats)
        if problem is None and state.get("phase") == "play":
            count = card_count(state)
            hand = state.get("hand_number")
            if count is not None:
                if self._play_cards is None or self._play_cards[0] != hand:
                    self._play_cards = (hand, count)
                elif self._play_cards[1] != count:
                    problem = ("hands", f"{count} cards in the hands and tricks, {self._play_cards[1]} at the start "
                                        f"of the play", False)
        if problem is not None:
            field, what, malformed = problem
            if malformed:       # (the schema is checked on the first reply of each kind only)
                raise CaseFailed(Failure(where=where, message=f"the state is not of the protocol's shape: {field}: {what}",
                                         field=field, actual=state.get(field)), "error")
            raise CaseFailed(Failure(where=where, message=f"the state contradicts itself or the deal: {field}: {what}",
                                     field=field, actual=state.get(field)), "fail")

    def _send_rules(self, case: Case) -> None:
        table = case.table
        if self.engine.current_table == table.sha256:
            return
        self._request(case, {"type": "rules", "variant": case.variant, "options": table.selected,
                             "sha256": table.sha256, "table": table.table}, where="rules")
        self.engine.current_table = table.sha256

    def _play(self, case: Case) -> None:
        self._send_rules(case)
        self._dealt, self._play_cards = None, None
        count = (case.table.table.get("players") or {}).get("count")
        self._seats = count if type(count) is int else None
        setup = case.setup
        message: dict[str, Any] = {"type": "new_game"}
        if "dealer" in setup:
            message["dealer"] = setup["dealer"]
        else:
            message["first_dealer"] = {"cards": setup["first_dealer"]["cards"], "start": setup["first_dealer"].get("start", 0)}
        if "scores" in setup:
            message["scores"] = setup["scores"]
        state = self._request(case, message, where="new game")["state"]
        self._at(Point(moment="setup"), state)
        self._expect(case, setup.get("expect"), state, None, "new game")
        self._replay = ReferenceReplay(case) if wants_views(case, self.engine.hello) else None
        self._check_views(case, "new game")
        for h, hand in enumerate(case.hands, 1):
            deal = {"type": "deal", **hand["deal"]}
            self._dealt, self._play_cards = (None if "deal_reject" in hand else dealt_cards(hand["deal"])), None
            if "deal_reject" in hand:
                self._refused(case, deal, hand["deal_reject"], state, f"hand {h} deal", self._clause(case), hand=h)
                continue
            state = self._request(case, deal, where=f"hand {h} deal", hand=h)["state"]
            self._at(Point(h, moment="deal"), state)
            self._expect(case, hand.get("after_deal"), state, None, f"hand {h} after the deal", hand=h)
            if self._replay is not None:
                self._replay.deal(hand["deal"])
                self._check_views(case, f"hand {h} after the deal", hand=h)
            steps = hand["steps"]
            for s, step in enumerate(steps, 1):
                state = self._step(case, h, s, step, state, steps[s] if s < len(steps) else None)
            self._at(Point(h, moment="end"), state)
            self._expect(case, hand.get("expect"), state, None, f"hand {h} end", hand=h)
            for count in hand.get("perft") or []:
                self._perft(case, h, count)
        self._at(Point(moment="case-end"), state)
        self._expect(case, case.expect, state, None, "end of case")

    def _at(self, point: Point, engine_state: dict[str, Any]) -> None:
        """Where the next comparison is made, and the engine's state there (for the trace)."""
        self._point, self._engine_state = point, engine_state

    def _perft(self, case: Case, h: int, count: dict[str, Any]) -> None:
        where = f"hand {h} perft depth {count['depth']}"
        divide = "divide" in count
        reply = self._request(case, {"type": "perft", "depth": count["depth"], "divide": divide}, where=where, hand=h)
        if not strict_equal(count["nodes"], reply.get("nodes")):
            raise CaseFailed(Failure(where=where, message="wrong number of legal action sequences", field="nodes",
                                     expected=count["nodes"], actual=reply.get("nodes"), clause=self._clause(case), hand=h))
        if divide:
            got = reply.get("divide") if isinstance(reply.get("divide"), dict) else {}
            for action in sorted(set(count["divide"]) | set(got)):
                if not strict_equal(count["divide"].get(action), got.get(action)):
                    raise CaseFailed(Failure(where=where, message=f"wrong count under the first action {action}",
                                             field=f"divide[{action}]", expected=count["divide"].get(action),
                                             actual=got.get(action), clause=self._clause(case), hand=h))

    def _step(self, case: Case, h: int, s: int, step: dict[str, Any], state: dict[str, Any],
              following: dict[str, Any] | None = None) -> dict[str, Any]:
        """Check the state before a scripted action, apply it, check the state after.
        ``following``: the next step, whose action is sent ahead when it is a plain one."""
        seat, action = step["seat"], step["action"]
        where = f"hand {h} step {s} (seat {seat} {action})"
        context = {"hand": h, "step": s, "seat": seat, "action": action}
        clause = self._clause(case, step.get("clause"))
        if "reject" in step:
            self._refused(case, {"type": "act", "seat": seat, "action": action}, step["reject"], state, where, clause,
                          **context)
            return state
        self._at(Point(h, s, "before"), state)
        if not strict_equal(seat, state.get("to_act")):
            raise CaseFailed(Failure(where=where, message=f"seat {seat} should be to act", field="to_act",
                                     expected=seat, actual=state.get("to_act"), clause=clause, **context))
        if "legal" in step and not same_set(step["legal"], state.get("legal")):
            legal = state.get("legal")
            shown = sorted(legal, key=str) if isinstance(legal, list) else legal
            raise CaseFailed(Failure(where=where, message="wrong legal actions before this step", field="legal",
                                     expected=sorted(step["legal"]), actual=shown,
                                     clause=clause, **context))
        done_before = _completed_tricks(state)
        then = None
        if following is not None and "reject" not in following and "view" not in step and self._replay is None:
            then = {"type": "act", "seat": following["seat"], "action": following["action"]}
        after = self._request(case, {"type": "act", "seat": seat, "action": action}, where=where,
                              clause=clause, then=then, **context)["state"]
        finished = _completed_tricks(after)
        trick_winner = finished[-1]["winner"] if len(finished) > len(done_before) else None
        self._at(Point(h, s, "after"), after)
        self._expect(case, step.get("expect"), after, trick_winner, where, clause=clause, **context)
        if "view" in step and "seat-view" in ((self.engine.hello or {}).get("commands") or []):
            # a seat's view is checked where the engine declares it; the rest of the case runs for every engine
            view = step["view"]
            seen = self._request(case, {"type": "state", "seat": view["seat"]}, where=where + f" (seat {view['seat']}'s view)",
                                 clause=clause, **context)["state"]
            self._expect(case, view["expect"], seen, None, where + f" (seat {view['seat']}'s view)", clause=clause, **context)
        if self._replay is not None:
            self._replay.act(seat, action)
            self._check_views(case, where, clause=clause, **context)
        return after

    def _check_views(self, case: Case, where: str, clause: dict[str, Any] | None = None, **context: Any) -> None:
        """Every seat's view, exactly as the reference derives it (a case with ``views: every-step``)."""
        replay = self._replay
        if replay is None:
            return
        for seat in range(replay.rules.n):
            at = where + f" (seat {seat}'s view)"
            seen = self._request(case, {"type": "state", "seat": seat}, where=at, clause=clause, **context)["state"]
            differences = view_differences(replay.view(seat), seen, replay.names)
            if differences:
                key, expected, actual = differences[0]
                raise CaseFailed(Failure(where=at, message=f"seat {seat}'s view is wrong: {key}", field=key,
                                         expected=expected, actual=actual, clause=clause or self._clause(case), **context))

    def _refused(self, case: Case, message: dict[str, Any], category: str, state: dict[str, Any] | None, where: str,
                 clause: dict[str, Any] | None, **context: Any) -> None:
        """Send a request the engine must refuse with ``category``, then check that a
        ``state`` request shows nothing changed."""
        self._position = (where, context)
        reply = self._ask(message)
        kind = message["type"]
        if reply.get("ok"):
            raise CaseFailed(Failure(where=where, message=f"engine accepted a {kind} it must refuse ({category})",
                                     field="error", expected=category, actual="accepted", clause=clause, **context))
        error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
        if error.get("category") != category:
            raise CaseFailed(Failure(where=where, message=f"engine refused the {kind} with the wrong error category",
                                     field="error.category", expected=category, actual=error.get("category"),
                                     clause=clause, **context))
        after = self._request(case, {"type": "state"}, where=where + " (state after the refusal)", **context)["state"]
        if state is not None and not strict_equal(state, after):
            changed = sorted(k for k in set(after) | set(state) if not strict_equal(state.get(k), after.get(k)))
            raise CaseFailed(Failure(where=where, message=f"the refused {kind} changed the state",
                                     field=changed[0], expected=state.get(changed[0]), actual=after.get(changed[0]),
                                     clause=clause, **context))

    def _expect(self, case: Case, expect: dict[str, Any] | None, state: dict[str, Any], trick_winner: int | None,
                where: str, clause: dict[str, Any] | None = None, **context: Any) -> None:
        for key, expected in (expect or {}).items():
            if key == "trick_winner":
                actual = trick_winner
                if actual is None:
                    raise CaseFailed(Failure(where=where, message="this step should have completed a trick", field=key,
                                             expected=expected, actual=None, clause=clause or self._clause(case), **context))
            elif key in OPTIONAL_FIELDS and key not in state:
                continue            # an optional field the engine does not report is not compared
            else:
                actual = state.get(key)
            if not _same(key, expected, actual):
                raise CaseFailed(Failure(where=where, message=f"wrong {key}", field=key, expected=expected, actual=actual,
                                         clause=clause or self._clause(case), **context))


def _against_expected_failure(expected: dict[str, Any], outcome: str, failure: Failure | None) -> tuple[str, Failure | None, str | None]:
    """A case that must make a conforming engine fail at a given place (a defective record):
    failing there is a pass, and anything else is a failure."""
    where = f"hand {expected['hand']}" + (f" step {expected['step']}" if "step" in expected else "")
    if outcome == "pass":
        return "fail", Failure(where=where, message=f"the engine should have failed here ({expected['reason']}) but went on",
                               hand=expected["hand"] or None, step=expected.get("step")), None
    at = (failure.hand or 0) == expected["hand"] and ("step" not in expected or failure.step == expected["step"]) \
        and ("field" not in expected or failure.field == expected["field"])
    if at:
        return "pass", None, f"failed where expected ({where}: {expected['reason']}): {failure.message}"
    return outcome, Failure(**{**failure.__dict__, "message": f"{failure.message} (the case expects its failure at "
                                                               f"{where}: {expected['reason']})"}), None


def _clause_index(table: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each clause of a table, as a failure cites it: id, title and source."""
    index = {}
    for clause in table.get("clauses", []):
        source = table["sources"].get(clause["source"], {})
        info = {"id": clause["id"], "title": clause["title"], "source": clause["source"],
                "source_title": source.get("title")}
        if source.get("url"):
            info["url"] = source["url"]
        index[clause["id"]] = info
    return index


class CaseTimedOut(EngineFailure):
    """The whole case took longer than its budget (each reply came, but too slowly)."""

    outcome = "timeout"


def _completed_tricks(state: dict[str, Any]) -> list[dict[str, Any]]:
    tricks = state.get("tricks") or []
    return [t for t in tricks if isinstance(t, dict) and t.get("winner") is not None]


def _same(key: str, expected: Any, actual: Any) -> bool:
    """Whether the engine's value of a field is the case's: as JSON values (a boolean is not
    a number, at any depth), sets of distinct items for the set fields (an item listed
    twice is wrong), one set per seat for ``hands``."""
    if key in SET_FIELDS:
        return same_set(expected, actual)
    if key in SEAT_SET_FIELDS:
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(a is None if e is None else same_set(e, a) for a, e in zip(actual, expected)))
    return strict_equal(expected, actual)


same_value = _same     # how an expectation is compared, for those who derive one (conformance.corpus_tools.requirements)
