"""One engine under test, as a subprocess speaking JSON Lines.

Everything an engine can do wrong at the transport level becomes one exception the runner
classifies: it exits (:class:`EngineCrashed`), stops answering (:class:`EngineTimedOut`),
writes something that is not a reply (:class:`EngineGarbled`). The engine is started
without a shell; its stderr is drained continuously (an engine that floods it must not
block) and the last part kept for the report.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Sequence

from . import PROTOCOL_VERSION, __version__

MAX_LINE = 4 * 1024 * 1024      # a reply longer than this is garbage (an endless line)
STDERR_KEEP = 16 * 1024         # bytes of stderr kept for the report


class EngineFailure(Exception):
    """The engine failed at the transport level; ``outcome`` is the report's word for it."""

    outcome = "error"


class EngineCrashed(EngineFailure):
    outcome = "crash"


class EngineTimedOut(EngineFailure):
    outcome = "timeout"


class EngineGarbled(EngineFailure):
    outcome = "error"


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

    def __init__(self, argv: Sequence[str], timeout: float = 10.0, cwd: str | Path | None = None):
        self.argv = list(argv)
        self.timeout = timeout
        self.cwd = cwd
        self.process: subprocess.Popen | None = None
        self.hello: dict[str, Any] | None = None
        self.current_table: str | None = None   # sha256 of the rules the engine holds
        self.starts = 0
        self._next_id = 0
        self._buffer = b""
        self._selector: selectors.BaseSelector | None = None
        self._write_selector: selectors.BaseSelector | None = None
        self._stderr: _StderrTail | None = None

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> dict[str, Any]:
        """Start the process and shake hands; returns the engine's hello reply."""
        self.stop()
        self.starts += 1
        try:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, cwd=self.cwd, bufsize=0)
        except OSError as exc:
            raise EngineCrashed(f"cannot start {self.argv[0]!r}: {exc}") from None
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        # Requests are written without blocking, so that an engine that stops reading its
        # input cannot hang the runner once the pipe to it is full (see _write).
        os.set_blocking(self.process.stdin.fileno(), False)
        self._write_selector = selectors.DefaultSelector()
        self._write_selector.register(self.process.stdin, selectors.EVENT_WRITE)
        self._stderr = _StderrTail(self.process.stderr)
        self._stderr.start()
        self.current_table = None
        reply = self.request({"type": "hello", "protocol": PROTOCOL_VERSION,
                              "suite": {"name": "euchre-spec", "version": __version__}})
        if not reply.get("ok"):
            error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
            raise EngineGarbled(f"hello refused: {error.get('category')}: {error.get('message')}")
        if reply.get("protocol") != PROTOCOL_VERSION:
            raise EngineGarbled(f"engine speaks protocol {reply.get('protocol')!r}; this runner speaks {PROTOCOL_VERSION}")
        self.hello = reply
        return reply

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None and self.hello is not None

    def stop(self) -> None:
        """Say bye if the engine is healthy, then make sure the process is gone."""
        process = self.process
        if process is None:
            return
        if process.poll() is None and self.hello is not None:
            try:
                self.request({"type": "bye"}, timeout=min(self.timeout, 2.0))
            except EngineFailure:
                pass
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for pipe in (process.stdin, process.stdout, process.stderr):
            try:
                pipe.close()
            except OSError:
                pass
        if self._selector is not None:
            self._selector.close()
        if self._write_selector is not None:
            self._write_selector.close()
            self._write_selector = None
        if self._stderr is not None:
            self._stderr.join(timeout=1.0)
        self.process = None
        self.hello = None

    def kill(self) -> None:
        """End a misbehaving process at once."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        self.hello = None
        self.stop()

    def stderr_text(self) -> str:
        return self._stderr.text() if self._stderr is not None else ""

    def exit_status(self) -> int | None:
        return self.process.poll() if self.process is not None else None

    # -- requests ---------------------------------------------------------------------------
    def request(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send one request and return the engine's reply to it."""
        if self.process is None:
            raise EngineCrashed("the engine is not running")
        self._next_id += 1
        message = {"id": self._next_id, **message}
        data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        self._write(data, deadline, timeout, message["type"])
        line = self._read_line(timeout, message["type"], deadline)
        try:
            reply = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise EngineGarbled(f"reply to {message['type']} is not JSON: {line[:200]!r}") from None
        except RecursionError:
            raise EngineGarbled(f"reply to {message['type']} nests too deeply to decode: {line[:200]!r}") from None
        if b"\\u" in line:      # an escaped lone surrogate decodes to text no report can encode
            try:
                json.dumps(reply, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:
                raise EngineGarbled(f"reply to {message['type']} holds a lone surrogate (not Unicode): {line[:200]!r}") from None
        if not isinstance(reply, dict) or "ok" not in reply:
            raise EngineGarbled(f"reply to {message['type']} is not a reply object: {line[:200]!r}")
        if reply.get("id") != message["id"]:
            raise EngineGarbled(f"reply to request {message['id']} ({message['type']}) carries id {reply.get('id')!r}")
        return reply

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
            if not self._selector.select(remaining):
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise EngineCrashed(self._exit_text(f"the engine closed its output before replying to {what}"))
            self._buffer += chunk

    def _exit_text(self, what: str) -> str:
        try:
            status = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return what
        return f"{what} (exit status {status})"
