"""Euchre Spec's conformance suite: the case corpus, the runner that drives any engine over
the JSON Lines protocol, its reports, and a pytest plugin."""

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PROTOCOL_VERSION = 1
CORPUS_DIR = Path(__file__).resolve().parent / "corpus"

try:
    __version__ = version("euchre-spec")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"
