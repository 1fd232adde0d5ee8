"""The request loop every adapter shares: one JSON request per input line, one reply per
output line, flushed; a refusal (any exception with a ``category``) becomes an error reply,
any other exception an ``internal`` one with its traceback on stderr, and serving goes on
until ``bye``."""

from __future__ import annotations

import json
import sys
import traceback
from typing import IO, Any, Callable


class Refused(Exception):
    """A request the engine refuses, with the protocol's error category."""

    def __init__(self, category: str, message: str) -> None:
        super().__init__(message)
        self.category = category


def serve(handle: Callable[[dict[str, Any]], dict[str, Any]], stdin: IO[str] | None = None,
          stdout: IO[str] | None = None) -> int:
    """Answer each request line of ``stdin`` on ``stdout`` with ``handle`` until ``bye`` or the
    end of input; a failure of the engine is an ``internal`` reply, never the end of serving."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        request_id, message = None, None
        try:
            message = json.loads(line)
            if not isinstance(message, dict):
                raise Refused("bad_message", "a request is a JSON object")
            request_id = message.get("id")
            reply = {"id": request_id, "ok": True, **handle(message)}
        except json.JSONDecodeError as exc:
            reply = {"id": None, "ok": False, "error": {"category": "bad_message", "message": f"not JSON: {exc}"}}
        except Exception as exc:
            category = getattr(exc, "category", None)
            if category is None:     # the engine (or the adapter) failed: report it, keep serving
                traceback.print_exc(file=sys.stderr)
                category, text = "internal", f"{type(exc).__name__}: {exc}"
            else:
                text = str(exc)
            reply = {"id": request_id, "ok": False, "error": {"category": category, "message": text}}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if isinstance(message, dict) and message.get("type") == "bye":
            break
    return 0
