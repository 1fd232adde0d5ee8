"""The engine under test and the reference interpreter, sent the same requests in lockstep.

The engine is driven exactly as ``euchre-spec check`` drives it: an
:class:`~conformance.runner.engine_process.EngineProcess` (its own process group, strict replies,
a restart after a crash), the ``rules`` message built as the runner builds it. The
reference is the reference engine called in this process, message by message, so its
replies are the protocol's own (error categories included) at no cost of pipes or JSON.

While a subprocess engine works out its reply the reference works out its own
(:class:`OverlappingEngine`): on a machine with two cores the checking then costs almost
nothing over the protocol itself.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from reference_impl import ActionError
from reference_impl.resolve import ResolvedTable
from reference_impl.schemas import first_error

from ..cases import Case
from conformance.runner.engine_process import EngineFailure, EngineProcess
from ..reference_engine import ReferenceEngine
from conformance.runner.declared import unsupported_reason
from conformance.runner.compare import Difference, diff_replies

EngineFactory = Callable[[], EngineProcess]
STATE_REPLY = "protocol/state-reply.schema.json"


class SetupError(Exception):
    """The engine cannot be fuzzed as asked (it does not start, or does not declare these
    rules): the user's problem to fix, said in one line."""


class OverlappingEngine(EngineProcess):
    """An engine process that runs ``meanwhile`` (the reference's step) after writing a
    request and before waiting for the reply. Falls back to running it afterwards if the
    base class no longer splits writing from reading."""

    meanwhile: Callable[[], None] | None = None

    def _exchange(self, data: bytes, timeout: float, what: str) -> bytes:
        hook, self.meanwhile = self.meanwhile, None
        if hook is None or not (hasattr(self, "_write") and hasattr(self, "_read_line")):
            line = super()._exchange(data, timeout, what)
            if hook is not None:
                hook()
            return line
        deadline = time.monotonic() + timeout
        self._write(data, deadline, timeout, what)
        hook()
        return self._read_line(timeout, what, deadline)


def rules_message(table: ResolvedTable) -> dict[str, Any]:
    """The ``rules`` request for a resolved table, as the runner sends it (the variant by
    its id, even when the table was read from a file)."""
    return {"type": "rules", "variant": table.id, "options": table.selected, "sha256": table.sha256, "table": table.table}


def support_problem(hello: dict[str, Any], table: ResolvedTable) -> str | None:
    """Why the engine's hello excludes these rules (the runner's own test), or None."""
    stub = Case(id="fuzz", title="", variant=table.id, options=dict(table.selected), clauses=[], tags=[], setup={},
                hands=[], expect={}, file="", line=None, data={}, table=table)
    return unsupported_reason(hello, stub)


class Reference:
    """The reference engine in this process, answering protocol messages as dictionaries."""

    def __init__(self, variant: str, table: ResolvedTable):
        self.engine = ReferenceEngine()
        # Every message here is built by the suite, from tables read as UTF-8 text: none can
        # hold a lone surrogate, and walking a whole table for one is most of a rules request.
        self.engine.unicode_known = True
        self.rules = rules_message(table)
        self.state: dict[str, Any] | None = None
        reply = self.handle(self.rules)
        if not reply.get("ok"):
            raise SetupError(f"the reference refuses the rules: {reply.get('error')}")

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["type"] == "act" and self.engine.state is not None:
            return self._act(message["seat"], message["action"])
        try:
            reply = self.engine.handle({"id": 1, **message})
        except Exception as exc:  # noqa: BLE001 - a bug of the interpreter is a reply like any other
            reply = {"id": 1, "ok": False, "error": {"category": "internal", "message": f"{type(exc).__name__}: {exc}"}}
        if reply.get("ok") and "state" in reply:
            self.state = reply["state"]
        return reply

    def _act(self, seat: int, action: str) -> dict[str, Any]:
        """The hot path: the fuzzer's own act requests are well formed, so the game state is
        asked directly, as the reference engine's ``act`` handler asks it, without
        re-checking the message's types."""
        game = self.engine.state
        try:
            game.apply(action, seat)
        except ActionError as exc:
            return {"id": 1, "ok": False, "error": {"category": exc.category, "message": exc.message}}
        except Exception as exc:  # noqa: BLE001 - a bug of the interpreter is a reply like any other
            return {"id": 1, "ok": False, "error": {"category": "internal", "message": f"{type(exc).__name__}: {exc}"}}
        self.state = game.observation()
        return {"id": 1, "ok": True, "state": self.state}


class Lockstep:
    """One engine and one reference, kept in step."""

    def __init__(self, make_engine: EngineFactory, variant: str, engine_table: ResolvedTable,
                 reference_table: ResolvedTable | None = None):
        self.make_engine = make_engine
        self.variant = variant
        self.engine_table = engine_table
        self.reference_table = reference_table or engine_table
        self.engine: EngineProcess | None = None
        self.reference: Reference | None = None
        self.refused: set[str] = set()        # setup features the engine answered `unsupported` to
        self._validated = False

    # -- life cycle ---------------------------------------------------------------------------------
    def begin(self) -> None:
        """Before a game: the engine running (restarted after a failure) and holding the rules."""
        if self.reference is None:
            self.reference = Reference(self.variant, self.reference_table)
        if self.engine is None:
            self.engine = self.make_engine()
        if not self.engine.alive():
            try:
                hello = self.engine.start()
            except EngineFailure as exc:
                raise SetupError(f"the engine did not start: {exc}") from None
            problem = support_problem(hello, self.engine_table)
            if problem:
                raise SetupError(f"the engine does not declare these rules: {problem}")
        if self.engine.current_table != self.engine_table.sha256:
            try:
                reply = self.engine.request(rules_message(self.engine_table))
            except EngineFailure as exc:
                self.engine.kill()
                raise SetupError(f"the engine failed on the rules: {exc}") from None
            if not reply.get("ok"):
                raise SetupError(f"the engine refuses the rules: {reply.get('error')}")
            self.engine.current_table = self.engine_table.sha256

    def close(self) -> None:
        if self.engine is not None:
            self.engine.stop()

    @property
    def hello(self) -> dict[str, Any]:
        return (self.engine.hello if self.engine is not None else None) or {}

    # -- one request ----------------------------------------------------------------------------------
    def engine_request(self, message: dict[str, Any], meanwhile: Callable[[], None] | None = None) -> dict[str, Any]:
        """The engine's reply to ``message``; ``meanwhile`` runs while the engine works on it
        (or after, for an engine that is no subprocess). A transport failure is a reply
        ``{"transport": outcome, "message": ...}``, and the engine is killed, to be
        restarted by the next :meth:`begin`."""
        engine = self.engine
        ran: list[bool] = []

        def hook() -> None:
            ran.append(True)
            meanwhile()

        if meanwhile is not None and isinstance(engine, OverlappingEngine):
            engine.meanwhile = hook
        try:
            reply = engine.request(message)
        except EngineFailure as exc:
            reply = {"transport": exc.outcome, "message": str(exc)}
            engine.kill()
        finally:
            if isinstance(engine, OverlappingEngine):
                engine.meanwhile = None
        if meanwhile is not None and not ran:
            meanwhile()
        return reply

    def send(self, message: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], list[Difference]]:
        """The reference's reply, the engine's reply and how they differ."""
        reference = self.reference
        answers: list[dict[str, Any]] = []
        reply = self.engine_request(message, lambda: answers.append(reference.handle(message)))
        expected = answers[0]
        differences = diff_replies(expected, reply)
        if not self._validated and not differences and "state" in reply:
            differences = self._schema_check(reply)
        return expected, reply, differences

    def _schema_check(self, reply: dict[str, Any]) -> list[Difference]:
        """The first state reply is validated against its schema, as the runner does."""
        self._validated = True
        problem = first_error(STATE_REPLY, reply)
        if problem is None:
            return []
        return [Difference("reply", "a reply valid against state-reply.schema.json", problem)]
