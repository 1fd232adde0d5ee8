"""The ``euchre-spec`` command line: one entry point for the spec, the interpreter and the suite.

Exit status (docs/cli.md): 0 everything passed; 1 a case failed or an input (a table, a
case, an option) was refused; 2 the command line itself was wrong; 3 an internal error of
euchre-spec (a bug: the message says where the traceback was saved); 130 interrupted by
Ctrl-C or SIGTERM. A user's mistake never shows a traceback.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import traceback
from typing import Any, Callable, Sequence

from conformance.cli.parser import build_parser
from conformance.cli.signals import Interrupted, catch_ending_signals, main_thread
from conformance.common.usage import EXIT_FAILED, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError

# Imported by the commands that use them, never here: a start of ``euchre-spec validate`` or
# ``--help`` does not pay for the interpreter's game loop or the engine processes. An exception
# of a module no command imported cannot have been raised, nor an engine started.
_SPEC_ERROR = ("reference_impl.errors", "SpecError")
_ENDLESS_GAME = ("reference_impl.selfplay", "EndlessGame")
_ENGINES = "conformance.runner.engine_process"


def _raised(where: tuple[str, str]) -> Any:
    """The exception class ``where`` names if its module is imported, else ``()``, which an
    ``except`` clause reads as no class at all."""
    module = sys.modules.get(where[0])
    return getattr(module, where[1], ()) if module is not None else ()


def _engines(call: str) -> None:
    """``kill_all`` or ``allow_starts`` of the engine processes, if a command imported them."""
    module = sys.modules.get(_ENGINES)
    if module is not None:
        getattr(module, call)()


def error(text: str) -> None:
    """The one line of an error, the console (rich) imported only when there is one to say."""
    from conformance.common.console import error as say_error
    say_error(text)


def _internal_error(exc: BaseException) -> int:
    """Save the traceback of a bug and say where, in one message."""
    from conformance import __version__     # read from the installed metadata: only a bug's message needs it
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        handle, path = tempfile.mkstemp(prefix="euchre-spec-crash-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(f"euchre-spec {__version__}\ncommand: {sys.argv!r}\n\n{text}")
        where = f"the traceback is in {path}"
    except OSError:
        where = "traceback:\n" + text
    error(f"internal error: {type(exc).__name__}: {exc}. This is a bug in euchre-spec {__version__}, not in your "
          f"input; please report it with the command line and {where}")
    return EXIT_INTERNAL



def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    handler: Callable = args.func
    previous = catch_ending_signals() if main_thread() else None
    try:
        return handler(args)
    except UsageError as exc:
        error(str(exc))
        return EXIT_USAGE
    except _raised(_SPEC_ERROR) as exc:
        for problem in exc.problems:
            error(str(problem))
        return EXIT_FAILED
    except _raised(_ENDLESS_GAME) as exc:
        error(str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt as exc:
        _engines("kill_all")
        error(f"interrupted by {exc.name}" if isinstance(exc, Interrupted) else "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - anything else is a bug of ours, said as such
        _engines("kill_all")
        return _internal_error(exc)
    finally:
        _engines("allow_starts")
        for number, handler_before in (previous or {}).items():
            signal.signal(number, handler_before)



def _silence_stdout() -> None:
    """After a closed pipe (``euchre-spec ... | head``), make the interpreter's final flush quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass

