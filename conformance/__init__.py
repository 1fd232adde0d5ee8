"""Euchre Spec's conformance suite: the case corpus, the runner that drives any engine over
the JSON Lines protocol, its reports, and a pytest plugin."""

import importlib.resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PROTOCOL_VERSION = 1            # the major version, the integer an engine's hello must echo
PROTOCOL_SEMVER = "1.1.0"       # the protocol page's version (docs/cli.md, "Versions")
CORPUS_DIR = Path(str(importlib.resources.files(__name__))) / "corpus"    # package data

try:
    __version__ = version("euchre-spec")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"
