"""Euchre Spec's conformance suite: the case corpus, the runner that drives any engine over
the JSON Lines protocol, its reports, and a pytest plugin."""

import importlib.resources
from pathlib import Path
from typing import Any

PROTOCOL_VERSION = 1            # the major version, the integer an engine's hello must echo
PROTOCOL_SEMVER = "1.4.0"       # the protocol page's version (docs/cli.md, "Versions")
CORPUS_DIR = Path(str(importlib.resources.files(__name__))) / "corpus"    # package data


def __getattr__(name: str) -> Any:
    """``__version__``, read from the installed metadata when first asked for: importing
    importlib.metadata costs every engine process a few hundredths of a second."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        found = version("euchre-spec")
    except PackageNotFoundError:  # running from a checkout that was never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found
