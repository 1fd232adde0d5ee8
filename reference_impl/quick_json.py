"""JSON on the hot paths: orjson where it reads and writes exactly what the standard library
would, the standard library for everything else.

A check run decodes and encodes every protocol request and reply (130,000 of them for 2,000
cases), and a first run writes the cache entry of every file it parses. orjson takes a
tenth of the time for a reply of a kilobyte, and it must never change a result, so it is
only a shortcut:

- reading: text holding a run of 19 digits is left to :mod:`json` (orjson reads an integer
  past 64 bits as a float), and so is whatever orjson refuses (NaN, a lone surrogate,
  nesting past 1,024 levels, bytes that are not UTF-8), for the caller's strict decoder to
  accept or to word its refusal;
- writing: values of JSON's own types without floats (protocol messages hold none, and
  the cache says when an entry holds none: orjson writes NaN as null); what it refuses (a lone surrogate, an integer past 64 bits) is left
  to the caller's encoder. Its output is the standard library's compact form
  (``separators=(",", ":")``, ``ensure_ascii=False``) byte for byte.

Without orjson (a platform it has no wheel for) everything takes the standard library.
"""

from __future__ import annotations

from typing import Any

try:
    import orjson
except ImportError:               # pragma: no cover - the fallback is the standard library
    orjson = None  # type: ignore[assignment]

NOT_READ = object()               # quick_loads's answer where the standard library must decide
_DIGITS_MARKED = bytes.maketrans(b"0123456789", b"#" * 10)
_LONG_INTEGER = b"#" * 19         # 19 digits may pass 2**63; 18 never do


def quick_loads(data: bytes) -> Any:
    """The value of ``data``, or :data:`NOT_READ` where :mod:`json` must decide."""
    if orjson is None or _LONG_INTEGER in data.translate(_DIGITS_MARKED):
        return NOT_READ
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return NOT_READ


def quick_dumps(value: Any) -> bytes | None:
    """Compact UTF-8 JSON of ``value`` (JSON's own types, no floats), or None where the
    caller's encoder must write it."""
    if orjson is None:
        return None
    try:
        return orjson.dumps(value)
    except TypeError:             # orjson.JSONEncodeError is a TypeError
        return None
