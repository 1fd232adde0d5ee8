"""One engine under test, as a subprocess speaking JSON Lines.

Everything an engine can do wrong at the transport level becomes one exception the runner
classifies: it exits (:class:`EngineCrashed`), stops answering (:class:`EngineTimedOut`),
writes something that is not a reply (:class:`EngineGarbled`). The engine is started
without a shell. On Linux it runs under a keeper that is its child subreaper
(:mod:`conformance.runner.containment`): a timeout, a crash, a restart, the end of the run,
SIGTERM or Ctrl-C end the engine and *every* process it started, even one that left its
process group (a ``setsid`` daemon), and the number of those that had left is counted
(:attr:`EngineProcess.left_behind`, the report's "left N process(es) behind"). Elsewhere
the engine is started in a session (and so a process group) of its own and the group is
killed, so a wrapper script that does not ``exec`` its engine, or an engine that forks,
leaves nothing behind in it. Its stderr is drained continuously (an engine that floods it
must not block) and the last part kept for the report.

Replies are read strictly: UTF-8 only, one JSON object per line, ``ok`` a boolean, ``id``
the integer of the request, numbers no larger than a 64-bit integer; the ``hello`` reply is
checked against its schema before any case runs.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from pathlib import Path
from typing import Any, Callable, Sequence

from reference_impl.quick_json import NOT_READ, quick_dumps, quick_loads
from reference_impl.schemas import first_error

from conformance import PROTOCOL_SEMVER, PROTOCOL_VERSION, __version__
from conformance.runner import containment
from conformance.common.shown import one_line

MAX_LINE = 4 * 1024 * 1024      # a reply longer than this is garbage (an endless line)
STDERR_KEEP = 16 * 1024         # bytes of stderr kept for the report
MAX_DIGITS = 20                 # a protocol integer fits in 64 bits: 20 digits at most
# A run of MAX_DIGITS + 1 digits, found by turning every ASCII digit into "#" and looking for
# that many in a row: a tenth of the cost of a regular expression on a reply of a kilobyte.
# ("#" already in the reply can only make a reply look suspect, which costs a slower decode.)
_DIGITS_MARKED = bytes.maketrans(b"0123456789", b"#" * 10)
_TOO_MANY_DIGITS = b"#" * (MAX_DIGITS + 1)
START_TIMEOUT = 30.0            # seconds for an engine to start and answer hello (a JVM, a busy machine)
POLL = 0.2                      # seconds between checks that the engine is still running
KEEPER_GRACE = 5.0              # seconds a keeper has to kill its engine's processes when asked
KILL_ALL_WAIT = 2.0             # seconds kill_all waits for the keepers to have done so
_RUNNING: "weakref.WeakSet[EngineProcess]" = weakref.WeakSet()
_SHUTTING_DOWN = threading.Event()
_left_lock = threading.Lock()
_left_total = 0                 # processes left behind by every engine this process ended


def kill_all() -> None:
    """End every engine still running, with everything it started, and start no more (the
    runner is stopping: the end of the run, SIGTERM or Ctrl-C). Waits a little for the
    keepers (see :mod:`conformance.runner.containment`) to have killed their engines' processes,
    so that none is alive once the runner has exited."""
    _SHUTTING_DOWN.set()
    engines = [engine for engine in list(_RUNNING) if engine.process is not None]
    for engine in engines:
        engine.kill_group()
    deadline = time.monotonic() + KILL_ALL_WAIT
    for engine in engines:
        process = engine.process
        if process is None or not engine.kept:
            continue
        try:
            engine._end_keeper(process, deadline)
        except Exception:  # noqa: BLE001 - a stop in another thread may be closing it meanwhile
            pass


def _close_pipes(process: subprocess.Popen) -> None:
    """Close our ends of an ended process's stdin, stdout and stderr."""
    for pipe in (process.stdin, process.stdout, process.stderr):
        try:
            pipe.close()
        except OSError:
            pass


def forget_inherited() -> None:
    """In a forked child: the parent's engines are the parent's to end, never the child's
    (its :func:`kill_all` would otherwise end them too), and its count starts afresh."""
    global _left_total
    _RUNNING.clear()
    _left_total = 0


def note_left(count: int) -> None:
    """Count processes an engine left behind (also called with a worker process's count)."""
    global _left_total
    with _left_lock:
        _left_total += count


def left_behind_total() -> int:
    """Processes left behind by the engines this process has ended (and its workers'), so far."""
    return _left_total


def end_orphaned(handle: tuple[int, int, bool]) -> None:
    """End the engine of a worker process that died without ending it: ``handle`` is the
    worker's :meth:`EngineProcess.handle`. A keeper notices that its runner is gone and
    kills everything itself; SIGTERM only makes it do so now (a SIGKILL would leave the
    engine's escaped processes to init). Without a keeper, the engine's group is killed."""
    pid, group, kept = handle
    try:
        if kept:
            os.kill(pid, signal.SIGTERM)
        else:
            os.killpg(group, signal.SIGKILL)
    except OSError:
        pass


def allow_starts() -> None:
    """Undo :func:`kill_all`'s ban on new engines (a command run in-process has ended)."""
    _SHUTTING_DOWN.clear()


atexit.register(kill_all)


class EngineFailure(Exception):
    """The engine failed at the transport level; ``outcome`` is the report's word for it."""

    outcome = "error"


class EngineCrashed(EngineFailure):
    outcome = "crash"


class EngineTimedOut(EngineFailure):
    outcome = "timeout"


class EngineGarbled(EngineFailure):
    outcome = "error"


class _BadNumber(ValueError):
    pass


def _checked_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _BadNumber(f"an integer of {len(text.lstrip('-'))} digits (protocol integers fit in 64 bits)")
    return int(text)


def _refuse_constant(name: str) -> Any:
    raise _BadNumber(f"{name} (not a JSON number)")


_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_plain_decode = json.JSONDecoder().decode
_checked_decode = json.JSONDecoder(parse_int=_checked_int, parse_constant=_refuse_constant).decode


def _request_line(message: dict[str, Any]) -> bytes:
    return (quick_dumps(message) or _encode(message).encode("utf-8")) + b"\n"


def _needs_checking(line: bytes) -> bool:
    """Whether a reply may hold an over-long integer or a NaN/Infinity: only then is it decoded
    with the hooks that refuse them (a hook called for every integer costs a tenth of a run)."""
    return _TOO_MANY_DIGITS in line.translate(_DIGITS_MARKED) or b"NaN" in line or b"Infinity" in line


def decode_reply(line: bytes, what: str) -> dict[str, Any]:
    """The reply object on one line, or :class:`EngineGarbled` saying what is wrong with it."""
    shown = line[:200]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EngineGarbled(f"reply to {what} is not UTF-8 ({exc.reason} at byte {exc.start}): {shown!r}") from None
    try:
        if _needs_checking(line):
            reply = _checked_decode(text)
        else:
            reply = quick_loads(line)
            if reply is NOT_READ:
                reply = _plain_decode(text)
    except _BadNumber as exc:
        raise EngineGarbled(f"reply to {what} holds {exc}: {shown!r}") from None
    except ValueError as exc:
        raise EngineGarbled(f"reply to {what} is not JSON ({exc}): {shown!r}") from None
    except RecursionError:
        raise EngineGarbled(f"reply to {what} nests too deeply to decode: {shown!r}") from None
    if "\\u" in text:      # an escaped lone surrogate decodes to text no report can encode
        try:
            json.dumps(reply, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise EngineGarbled(f"reply to {what} holds a lone surrogate (not Unicode): {shown!r}") from None
    if not isinstance(reply, dict) or "ok" not in reply:
        raise EngineGarbled(f"reply to {what} is not a reply object: {shown!r}")
    if type(reply["ok"]) is not bool:
        raise EngineGarbled(f"reply to {what} has ok {reply['ok']!r}: it must be true or false")
    return reply


def _reply_to(request_id: int, line: bytes, what: str) -> dict[str, Any]:
    """The reply on ``line``, which must carry ``request_id`` (else :class:`EngineGarbled`)."""
    reply = decode_reply(line, what)
    if type(reply.get("id")) is not int or reply["id"] != request_id:
        raise EngineGarbled(f"reply to request {request_id} ({what}) carries id {reply.get('id')!r}")
    return reply


def engine_command(spec: str) -> list[str]:
    """The argv for ``--engine``: ``reference`` is our own engine, anything else is split
    like a shell would split it, but run without one."""
    if spec == "reference":
        return [sys.executable, "-m", "conformance.reference_engine"]
    argv = shlex.split(spec)
    if not argv:
        raise ValueError("the engine command is empty")
    return argv


class _StderrTail(threading.Thread):
    """Drains a pipe forever, remembering only its last bytes."""

    def __init__(self, pipe):
        super().__init__(daemon=True)
        self.pipe = pipe
        self.chunks: deque[bytes] = deque()
        self.size = 0
        self.total = 0
        self.lock = threading.Lock()

    def run(self) -> None:
        try:
            while True:
                chunk = os.read(self.pipe.fileno(), 65536)
                if not chunk:
                    return
                with self.lock:
                    self.total += len(chunk)
                    self.chunks.append(chunk)
                    self.size += len(chunk)
                    while self.size - len(self.chunks[0]) >= STDERR_KEEP:
                        self.size -= len(self.chunks.popleft())
        except (OSError, ValueError):
            return

    def text(self) -> str:
        with self.lock:
            data = b"".join(self.chunks)[-STDERR_KEEP:]
            total = self.total
        text = data.decode("utf-8", "replace")
        if total > len(data):
            text = f"[... {total - len(data)} earlier bytes of stderr not kept]\n" + text
        return text


class EngineProcess:
    """A running engine: send requests, read replies, restart after a failure."""

    def __init__(self, argv: Sequence[str], timeout: float = 10.0, cwd: str | Path | None = None,
                 corpus_version: str | None = None, start_timeout: float = START_TIMEOUT):
        self.argv = list(argv)
        self.start_timeout = max(start_timeout, timeout)
        self.suite = {"name": "euchre-spec", "version": __version__, "protocol_version": PROTOCOL_SEMVER}
        if corpus_version:
            self.suite["corpus_version"] = corpus_version
        self.timeout = timeout
        self.cwd = cwd
        self.process: subprocess.Popen | None = None
        self.hello: dict[str, Any] | None = None
        self.current_table: str | None = None   # sha256 of the rules the engine holds
        self.starts = 0
        self.left_behind = 0                    # processes found alive after this engine ended, killed
        self.kept = False                       # the current process is a keeper (containment)
        self.engine_pid: int | None = None      # the engine's own pid (and process group)
        self._report: int | None = None         # the keeper's report pipe
        self._counting = threading.Lock()       # one thread reads the keeper's last word (kill_all and a worker's stop may race)
        self._keeper_since = 0                  # the keeper's start time (clock ticks since boot)
        self._next_id = 0
        self._buffer = b""
        self._selector: selectors.BaseSelector | None = None
        self._write_selector: selectors.BaseSelector | None = None
        self._stderr: _StderrTail | None = None
        # A request sent before the runner asked for it (see request's ``then``): the
        # message, its id, and the failure met writing it (raised when it is asked for).
        self._ahead: tuple[dict[str, Any], int, EngineFailure | None] | None = None

    # Whether ``then`` is honoured: a subprocess computes while the runner checks.
    pipelines = True

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> dict[str, Any]:
        """Start the engine and shake hands; returns the engine's hello reply."""
        self.stop()
        if _SHUTTING_DOWN.is_set():
            raise EngineCrashed("not started: the run is stopping")
        self.starts += 1
        self._launch()
        self.current_table = None
        reply = self.request({"type": "hello", "protocol": PROTOCOL_VERSION, "protocol_version": PROTOCOL_SEMVER,
                              "suite": self.suite}, timeout=self.start_timeout)
        if not reply["ok"]:
            error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
            raise EngineGarbled(f"hello refused: {one_line(str(error.get('category')))}: {one_line(str(error.get('message')))}")
        protocol = reply.get("protocol")
        if type(protocol) is int and protocol != PROTOCOL_VERSION:
            raise EngineGarbled(f"engine speaks protocol {protocol!r}; this runner speaks {PROTOCOL_VERSION}")
        problem = first_error("protocol/hello-reply.schema.json", reply)     # the quick validator first
        if problem:
            raise EngineGarbled(f"the hello reply is not valid: {problem}")
        self.hello = reply
        return reply

    def _launch(self) -> None:
        """Start the process, in a session of its own (under a keeper where there can be
        one), and wire up its pipes."""
        self.kept = containment.available()
        if self.kept:
            containment.become_subreaper()     # what a killed keeper leaves comes to us, not to init
        report_write = None
        argv = self.argv
        if self.kept:
            self._report, report_write = os.pipe()
            argv = containment.keeper_argv(self.argv, report_write)
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, cwd=self.cwd, bufsize=0, start_new_session=True,
                                            pass_fds=(report_write,) if report_write is not None else ())
        except (OSError, ValueError) as exc:
            self._close_report()
            raise EngineCrashed(f"cannot start {self.argv[0]!r}: {exc}") from None
        finally:
            if report_write is not None:
                os.close(report_write)
        _RUNNING.add(self)
        self.engine_pid = self.process.pid
        if self.kept:
            self._keeper_since = containment.start_time(self.process.pid) or 0
            self._keeper_started()
        self._buffer = b""
        self._ahead = None
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        # Requests are written without blocking, so that an engine that stops reading its
        # input cannot hang the runner once the pipe to it is full (see _write).
        os.set_blocking(self.process.stdin.fileno(), False)
        self._write_selector = selectors.DefaultSelector()
        self._write_selector.register(self.process.stdin, selectors.EVENT_WRITE)
        self._stderr = _StderrTail(self.process.stderr)
        self._stderr.start()

    def _keeper_started(self) -> None:
        """Wait for the keeper to say that the engine's program runs (or why it could not)."""
        deadline = time.monotonic() + self.start_timeout
        lines: list[str] = []
        pending = b""
        while not lines or lines[-1].split()[0] not in ("started", "error"):
            report = self._report
            try:
                if report is None:
                    raise OSError("the keeper's report was closed")
                ready = _readable(report, deadline - time.monotonic())
                chunk = os.read(report, 4096) if ready else b""
            except (OSError, ValueError):
                # An interrupt stopped every engine from the main thread while this one was
                # starting: its keeper's report is closed under us. Not an engine's fault.
                if _SHUTTING_DOWN.is_set() or self.process is None:
                    raise EngineCrashed("not started: the run is stopping") from None
                raise
            if not chunk and self.process is None:
                raise EngineCrashed("not started: the run is stopping")
            if not chunk:
                self._discard_process()
                raise EngineCrashed(f"cannot start {self.argv[0]!r}: its keeper process "
                                    + ("ended" if ready else f"did not answer within {self.start_timeout:g} s"))
            *complete, pending = (pending + chunk).split(b"\n")
            lines += [line.decode("ascii", "replace") for line in complete if line.strip()]
        words = lines[-1].split()
        if words[0] == "error":
            number = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
            self._discard_process()
            raise EngineCrashed(f"cannot start {self.argv[0]!r}: {OSError(number, os.strerror(number), self.argv[0])}")
        self.engine_pid = int(words[1])

    def _discard_process(self) -> None:
        """Forget a process that never became an engine (its keeper has ended, or is killed)."""
        process, self.process = self.process, None
        _RUNNING.discard(self)
        self._force_kill_process(process)
        process.wait()
        _close_pipes(process)
        self._close_report()

    def _close_report(self) -> None:
        if self._report is not None:
            try:
                os.close(self._report)
            except OSError:
                pass
            self._report = None

    def _read_left(self) -> int | None:
        """The keeper's last word, once it has ended: how many processes it found alive
        after the engine's process group was gone (and killed); None if it did not say
        (it was killed, or stopped and killed by us: it did not do its job)."""
        data = b""
        try:
            while _readable(self._report, 0.5):
                chunk = os.read(self._report, 4096)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        left = None
        for line in data.decode("ascii", "replace").splitlines():
            words = line.split()
            if len(words) == 2 and words[0] == "left" and words[1].isdigit():
                left = int(words[1])
        return left

    def handle(self) -> tuple[int, int, bool] | None:
        """What another process needs to end this engine (see :func:`end_orphaned`): the
        pid of the process started, the engine's process group, whether it is a keeper."""
        if self.process is None or self.process.poll() is not None:
            return None
        return self.process.pid, self.engine_pid or self.process.pid, self.kept

    def alive(self) -> bool:
        return self.process is not None and self.hello is not None and not self._ended()

    def stop(self) -> None:
        """Say bye if the engine is healthy, then make sure it is gone with everything it
        started (its whole process group, and under a keeper every other descendant)."""
        process = self.process
        if process is None:
            return
        if process.poll() is None and self.hello is not None:
            try:
                self.request({"type": "bye"}, timeout=min(self.timeout, 2.0))
            except EngineFailure:
                pass
        self._wait(process, time.monotonic() + 1.0)
        self.kill_group()
        if self.kept:
            self._end_keeper(process, time.monotonic() + KEEPER_GRACE)
        else:
            process.wait()
        _close_pipes(process)
        if self._selector is not None:
            self._selector.close()
        if self._write_selector is not None:
            self._write_selector.close()
            self._write_selector = None
        if self._stderr is not None:
            self._stderr.join(timeout=1.0)
        _RUNNING.discard(self)
        self.process = None
        self.hello = None
        self._ahead = None

    def _wait(self, process: subprocess.Popen, deadline: float) -> bool:
        """Wait for the process started (the keeper, or the engine) to end until
        ``deadline``; whether it did. A stopped keeper will not: no use waiting for it."""
        while True:
            try:
                process.wait(timeout=max(0.0, min(0.05, deadline - time.monotonic())))
                return True
            except subprocess.TimeoutExpired:
                pass
            if time.monotonic() >= deadline or (self.kept and containment.process_state(process.pid) in ("T", "t")):
                return False

    def _end_keeper(self, process: subprocess.Popen, deadline: float) -> None:
        """Wait for the keeper (already asked to end) until ``deadline``; a keeper that is
        stopped, or still running then, is killed. Then count what it left behind, and if
        it did not say (it was killed, by us or by the engine), find and kill that
        ourselves: its orphans are ours (see :func:`containment.sweep`)."""
        if not self._wait(process, deadline):
            self._force_kill()
            process.wait()
        with self._counting:                        # the main thread's kill_all and a worker's stop, at once
            if self._report is None:
                return                              # counted already (kill_all, then stop)
            left = self._read_left()
            self._close_report()
        if left is None:
            spared = {engine.process.pid for engine in list(_RUNNING)
                      if engine is not self and engine.process is not None and engine.kept}
            left = containment.sweep(spared, self._keeper_since, self.engine_pid or process.pid)
        if left:
            self.left_behind += left
            note_left(left)

    def kill_group(self) -> None:
        """End the engine and anything it started: ask its keeper (which kills the engine's
        process group and then every descendant left), or else SIGKILL the process group."""
        process = self.process
        if process is None:
            return
        if self.kept:
            try:
                process.send_signal(signal.SIGTERM)     # (sends nothing once the keeper is reaped)
            except OSError:
                pass
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def _force_kill(self) -> None:
        """The last resort when a keeper does not end: SIGKILL it and the engine's group."""
        if self.process is not None:
            self._force_kill_process(self.process)

    def _force_kill_process(self, process: subprocess.Popen) -> None:
        try:
            process.kill()                      # a keeper stopped or not ending (it is in a session of its own)
        except OSError:
            pass
        for group in {process.pid, self.engine_pid or process.pid}:
            try:
                os.killpg(group, signal.SIGKILL)
            except OSError:
                pass

    def kill(self) -> None:
        """End a misbehaving engine at once, with everything it started."""
        self.kill_group()
        self.hello = None
        self.stop()

    def stderr_text(self) -> str:
        return self._stderr.text() if self._stderr is not None else ""

    def exit_status(self) -> int | None:
        return self.process.poll() if self.process is not None else None

    # -- requests ---------------------------------------------------------------------------
    def request(self, message: dict[str, Any], timeout: float | None = None,
                then: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one request and return the engine's reply to it.

        ``then`` is the request the runner will make next if this reply is right (the next
        scripted action of a case). It is sent as soon as this reply has arrived, before
        this reply is decoded and checked, so the engine computes its answer meanwhile: on
        two cores a case runs in about the time of the slower side instead of the sum of
        both. The engine still never has two requests unanswered. If the runner asks for
        something else instead (the case failed), :meth:`drain` reads and drops the reply."""
        if not self._running():
            raise EngineCrashed("the engine is not running")
        timeout = self.timeout if timeout is None else timeout
        what = message["type"]
        if self._ahead is not None and self._ahead[0] == message:
            _, request_id, failure = self._ahead
            self._ahead = None
            if failure is not None:
                raise failure
            line = self._read_line(timeout, what)
        else:
            self.drain(timeout)
            self._next_id += 1
            request_id = self._next_id
            line = self._exchange(_request_line({"id": request_id, **message}), timeout, what)
        if then is not None and self.pipelines:
            self._send_ahead(then, timeout)
        return _reply_to(request_id, line, what)

    def _send_ahead(self, message: dict[str, Any], timeout: float) -> None:
        self._next_id += 1
        data = _request_line({"id": self._next_id, **message})
        try:
            self._write(data, time.monotonic() + timeout, timeout, message["type"])
            failure = None
        except EngineFailure as exc:      # the engine's, at the request it concerns: not now
            failure = exc
        self._ahead = (message, self._next_id, failure)

    def drain(self, timeout: float | None = None) -> None:
        """Read and drop the reply to a request sent ahead and then not asked for, so that
        the next reply read is the next request's; an engine that does not answer it, or
        answers garbage, raises :class:`EngineFailure` (to be killed and restarted)."""
        ahead, self._ahead = self._ahead, None
        if ahead is None or ahead[2] is not None or not self._running():
            return
        message, request_id, _ = ahead
        what = f"{message['type']} (sent ahead, not needed)"
        _reply_to(request_id, self._read_line(self.timeout if timeout is None else timeout, what), what)

    def _running(self) -> bool:
        return self.process is not None

    def _exchange(self, data: bytes, timeout: float, what: str) -> bytes:
        """Write one request line and read one reply line, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        self._write(data, deadline, timeout, what)
        return self._read_line(timeout, what, deadline)

    def _write(self, data: bytes, deadline: float, timeout: float, what: str) -> None:
        view = memoryview(data)
        fd = self.process.stdin.fileno()
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ValueError, OSError):
                raise EngineCrashed(self._exit_text("the engine closed its input")) from None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineTimedOut(f"the engine did not read the {what} request within {timeout:g} s")
            self._write_selector.select(remaining)

    def _read_line(self, timeout: float, what: str, deadline: float | None = None) -> bytes:
        if deadline is None:
            deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
                return line
            if len(self._buffer) > MAX_LINE:
                raise EngineGarbled(f"reply to {what} exceeds {MAX_LINE} bytes without a line end")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineTimedOut(f"no reply to {what} within {timeout:g} s")
            if not self._selector.select(min(remaining, POLL)):
                # Nothing to read: the engine may have exited while something it started
                # still holds its output open (no end of file comes then).
                if self._ended() and not self._selector.select(0):
                    raise EngineCrashed(self._exit_text(f"the engine exited before replying to {what}"))
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise EngineCrashed(self._exit_text(f"the engine closed its output before replying to {what}"))
            self._buffer += chunk

    def _ended(self) -> bool:
        """Whether the engine has ended: its keeper has, and (a keeper may have been killed
        by the engine, which then runs on as our child) so has the engine itself."""
        if self.process.poll() is None:
            return False
        if not self.kept or self.engine_pid is None or self.engine_pid == self.process.pid:
            return True
        return containment.process_state(self.engine_pid) in (None, "Z", "X")

    def _exit_text(self, what: str) -> str:
        try:
            status = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return what
        return f"{what} (exit status {status})"


def _readable(fd: int, timeout: float) -> bool:
    """Whether ``fd`` has something to read (or its end) within ``timeout`` seconds."""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        return bool(selector.select(max(0.0, timeout)))


class InProcessEngine(EngineProcess):
    """The reference engine called in this process, through the same protocol bytes: what a
    subprocess would be sent and would answer, without the pipes. Used where thousands of
    short games are played (fuzzing, benchmarks' floors); ``transform`` may rewrite each
    reply line (a hostile engine for the runner's own fuzzing)."""

    def __init__(self, timeout: float = 10.0, corpus_version: str | None = None,
                 transform: "Callable[[int, bytes], bytes] | None" = None, factory: "Callable[[], Any] | None" = None):
        super().__init__(["<in-process reference engine>"], timeout, corpus_version=corpus_version)
        self.transform = transform
        self.factory = factory
        self.engine: Any = None
        self.requests = 0

    pipelines = False      # nothing runs meanwhile in one process

    def _launch(self) -> None:
        from conformance.reference_engine import ReferenceEngine, answer_line
        self.engine = (self.factory or ReferenceEngine)()
        self._answer = answer_line

    def _running(self) -> bool:
        return self.engine is not None

    def _exchange(self, data: bytes, timeout: float, what: str) -> bytes:
        self.requests += 1
        line = self._answer(self.engine, data.rstrip(b"\n"))
        if self.transform is not None:
            line = self.transform(self.requests, line)
        if b"\n" in line:
            line = line.split(b"\n", 1)[0]
        return line

    def alive(self) -> bool:
        return self.engine is not None and self.hello is not None

    def stop(self) -> None:
        self.engine = None
        self.hello = None

    def kill_group(self) -> None:
        pass

    def kill(self) -> None:
        self.stop()

    def stderr_text(self) -> str:
        return ""

    def exit_status(self) -> int | None:
        return None
