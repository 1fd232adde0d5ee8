"""What the command line shares between its commands: exit codes, argument types that
refuse a bad value with one line, and the check that an output file can be written."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Sequence

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class UsageError(Exception):
    """A command-line argument that cannot be used (exit status 2)."""


# -- argument types: each refuses a bad value with one line ------------------------------------
def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, got {text!r}")
    return value


def percent(text: str) -> float:
    """A share of the selected cases, 0 to 100 (``--fail-under``)."""
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, got {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, got {text!r}")
    return value


def shard(text: str) -> tuple[int, int]:
    k, sep, n = text.partition("/")
    try:
        parts = (int(k), int(n))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/N, got {text!r}") from None
    if not sep or not 1 <= parts[0] <= parts[1]:
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, got {text!r}")
    return parts


def readable_file(text: str) -> Path:
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"cannot read {text}")
    return path


def existing_path(text: str) -> Path:
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"no such file or folder: {text}")
    return path


def output_file(path: str, what: str) -> Path:
    """A file the command will write: its folder is created, and it must be writable now,
    before a long run, not found unwritable at its end."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{what} {path} is a folder, not a file")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    return target


def output_folder(path: str, what: str) -> Path:
    """A folder the command will write files into (``what``: the option that names it): made
    if missing, and writable now, before a long run, not found unwritable at its end."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{what} {path} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {what} {path}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write in {what} {path}")
    return folder


def invalidate(path: Path) -> None:
    """Empty an output file at the start of a run (it was just found writable): a run that
    is stopped before writing it must not leave the previous run's verdict in its place."""
    try:
        with open(path, "w", encoding="utf-8"):
            pass
    except OSError:
        pass


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it, then
    renamed over it (a reader never sees half a file, a run killed meanwhile leaves the
    file as it was, emptied at the start by :func:`invalidate`)."""
    import tempfile
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["stick-the-dealer=true"]`` -> ``{"stick-the-dealer": "true"}``."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option expects KEY=VALUE, got {pair!r}")
        options[key.strip()] = value.strip()
    return options
