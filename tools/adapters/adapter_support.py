"""What the adapters of engines written elsewhere share: finding the engine's checkout
through an environment variable (and saying which one when it is missing), the checks of
a ``new_game``, ``deal`` and ``act`` request that the protocol puts before any rule (so an
adapter refuses a malformed request in the protocol's order before the engine sees it), the
observable state's fixed fields, importing an engine's modules without its package's
``__init__``, and starting an adapter (protocol_adapter.py answers the protocol's requests
themselves).

Several pieces are here because every adapter had its own copy of the same lines: one copy
keeps the adapters' refusals and messages the same, so a difference between two engines'
reports is the engines', never their adapters'.

Nothing here is a rule of a game: the legal actions, trumps, trick winners and points always
come from the engine an adapter drives.
"""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path
from typing import IO, Any, Callable, Iterable

from jsonl_server import Refused, serve

Handler = Callable[[dict[str, Any]], dict[str, Any]]


class EngineMissing(SystemExit):
    """The engine's checkout cannot be found: the adapter exits at once with this message."""

    def __init__(self, variable: str, what: str, how: str) -> None:
        super().__init__(f"{what}: set {variable} to {how} (see tools/adapters/README.md)")


def engine_dir(variable: str, what: str, how: str, must_contain: Iterable[str] = ()) -> Path:
    """The folder named by ``variable``, holding every path of ``must_contain``; exits with a
    message naming the variable when it is unset or wrong."""
    value = os.environ.get(variable)
    if not value:
        raise EngineMissing(variable, f"{what} not found ({variable} is not set)", how)
    path = Path(value).expanduser()
    if not path.is_dir():
        raise EngineMissing(variable, f"{what} not found in {variable}={value} (not a folder)", how)
    missing = [name for name in must_contain if not (path / name).exists()]
    if missing:
        raise EngineMissing(variable, f"{what} not found in {variable}={value} (no {', '.join(missing)})", how)
    return path


def pack(ranks: str = "9TJQKA", suits: str = "CDHS", extra: Iterable[str] = ()) -> list[str]:
    """The cards of a pack in the protocol's notation."""
    return [rank + suit for suit in suits for rank in ranks] + list(extra)


def new_game_setup(message: dict[str, Any], players: int, units: int) -> tuple[int | None, dict[str, Any] | None, list[int]]:
    """``(dealer, first_dealer, scores)`` of a ``new_game``, refused as the protocol says."""
    has_dealer, has_first = "dealer" in message, "first_dealer" in message
    if has_dealer == has_first:
        raise Refused("bad_message", "new_game needs exactly one of dealer and first_dealer")
    dealer = message.get("dealer")
    if has_dealer and (not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players):
        raise Refused("bad_message", f"dealer must be a seat 0-{players - 1}")
    first = message.get("first_dealer")
    if has_first and not isinstance(first, dict):
        raise Refused("bad_message", "first_dealer must be an object")
    scores = message.get("scores")
    if scores is None:
        scores = [0] * units
    if (not isinstance(scores, list) or len(scores) != units
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
        raise Refused("bad_message", f"scores must be {units} integers")
    return dealer, first, list(scores)


def checked_deal(message: dict[str, Any], players: int, hand_size: int, cards: list[str], upcard: bool = True,
                 widow: int = 0) -> tuple[list[list[str]], str | None, list[str], list[str]]:
    """``(hands, upcard, widow, kitty)`` of a ``deal`` given as hands, refused as the protocol
    says; the kitty is completed with the undealt cards when it is not given."""
    hands, up, kitty, dealt_widow = message.get("hands"), message.get("upcard"), message.get("kitty"), message.get("widow")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise Refused("bad_message", "hands must be a list of lists of cards")
    if kitty is not None and not isinstance(kitty, list):
        raise Refused("bad_message", "kitty must be a list of cards")
    if dealt_widow is not None and not isinstance(dealt_widow, list):
        raise Refused("bad_message", "widow must be a list of cards")
    if len(hands) != players or any(len(h) != hand_size for h in hands):
        raise Refused("bad_deal", f"{players} hands of {hand_size} cards are needed")
    if upcard and not isinstance(up, str):
        raise Refused("bad_deal", "an upcard is needed")
    if not upcard and up is not None:
        raise Refused("bad_deal", "this game turns no card up")
    if len(dealt_widow or []) != widow:
        raise Refused("bad_deal", f"a widow of {widow} cards is needed" if widow else "this game deals no widow")
    named = [c for h in hands for c in h] + ([up] if up is not None else []) + list(dealt_widow or []) + list(kitty or [])
    unknown = [c for c in named if c not in cards]
    if unknown:
        raise Refused("bad_deal", f"not cards of the pack: {unknown}")
    if len(set(named)) != len(named):
        raise Refused("bad_deal", "a card is dealt twice")
    rest = [c for c in cards if c not in set(named)]
    return [list(h) for h in hands], up, list(dealt_widow or []), list(kitty or []) + rest


def checked_act(message: dict[str, Any]) -> tuple[int, str]:
    """``(seat, action)`` of an ``act``, refused as ``bad_message`` when either is not of its
    type, before the engine is asked anything."""
    seat, action = message.get("seat"), message.get("action")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(action, str):
        raise Refused("bad_message", "act needs an integer seat and a string action")
    return seat, action


def blank_state(units: int) -> dict[str, Any]:
    """The required fields of a state before the first deal."""
    return {"phase": "deal", "hand_number": 0, "dealer": 0, "to_act": None, "legal": [], "trump": None, "maker": None,
            "alone": False, "defender_alone": None, "sitting_out": [], "tricks": [], "hand_points": None,
            "scores": [0] * units, "next_dealer": None, "game_over": False, "winner": None}


class NamedCards:
    """The protocol's cards (``TH``) both ways as an engine's ``{"suit": name, "rank": name}``,
    for engines that name suits and ranks in words (two of them spell a rank differently: the
    names are given)."""

    SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

    def __init__(self, ranks: dict[str, str]) -> None:
        self.ranks = ranks
        self.rank_letters = {name: letter for letter, name in ranks.items()}
        self.suit_letters = {name: letter for letter, name in self.SUITS.items()}

    def engine_card(self, token: str) -> dict[str, str]:
        """A protocol card as the engine's."""
        return {"suit": self.SUITS[token[1]], "rank": self.ranks[token[0]]}

    def token(self, card: dict[str, Any]) -> str:
        """An engine card as the protocol's."""
        return self.rank_letters[card["rank"]] + self.suit_letters[card["suit"]]


def fisher_yates_numbers(start: list[str], target: list[str]) -> list[float]:
    """The random numbers a Fisher-Yates shuffle from the end (``j = floor(random() * (i + 1))``,
    as JavaScript engines write it) must draw to turn ``start`` into ``target``: how an adapter
    makes an engine that shuffles for itself deal the runner's cards."""
    deck = list(start)
    numbers = []
    for i in range(len(deck) - 1, 0, -1):
        j = deck.index(target[i], 0, i + 1)
        numbers.append((j + 0.5) / (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return numbers


def declared_options_check(message: dict[str, Any], variant: str, declared: dict[str, list[Any]], who: str) -> None:
    """Refuse (``unsupported``) rules outside what the adapter declared in ``hello``."""
    if message.get("variant") != variant:
        raise Refused("unsupported", f"{who} plays {variant} only")
    defaults = {key: option.get("default")
                for key, option in ((message.get("table") or {}).get("options") or {}).items()}
    for key, value in (message.get("options") or {}).items():
        if value not in declared.get(key, [defaults.get(key)]):
            raise Refused("unsupported", f"{who} cannot play {key}={value!r}")


def checkout_commit(root: Path) -> str:
    """The engine's version for reports: the commit of its checkout, read from a ``.commit``
    file written when it was checked out (a work tree made by ``git archive``) or from its
    ``.git``; ``unknown`` otherwise."""
    for path in (root / ".commit", root / ".git" / "HEAD"):
        if path.is_file():
            text = path.read_text(encoding="utf-8").strip()
            if text.startswith("ref: "):
                ref = root / ".git" / text[5:]
                text = ref.read_text(encoding="utf-8").strip() if ref.is_file() else text
            return text
    return "unknown"


def recording(handle: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """``handle`` unchanged, or, with ``EUCHRE_PROTOCOL_RECORD=FILE``, also appending each
    request and what ``handle`` answered (or the category it refused with) to FILE: the
    protocol half of a recorded exchange that the adapter tests replay without the engine."""
    path = os.environ.get("EUCHRE_PROTOCOL_RECORD")
    if not path:
        return handle
    out = open(path, "a", encoding="utf-8")

    def recorded(message: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = handle(message)
        except Refused as exc:
            out.write(json.dumps({"request": message, "refused": exc.category}) + "\n")
            out.flush()
            raise
        out.write(json.dumps({"request": message, "reply": reply}) + "\n")
        out.flush()
        return reply
    return recorded


def also_standard_lone_defence(declared: dict[str, list[Any]], argv: list[str]) -> None:
    """With ``--standard`` in ``argv``, also declare standard Euchre's lone defence, which the
    engine does not have: the corpus's default cases then run on it, and those with a lone
    defence fail where it is asked (published beside its own declaration)."""
    if "--standard" in argv:
        declared["defending-alone"] = [False, True]


def bare_package(name: str, folder: Path) -> None:
    """Register ``name`` as a package over ``folder`` without running its ``__init__`` (which in
    the RLCard copies imports every environment and their dependencies), unless it is already
    imported; the engine's own modules below it are then imported unchanged."""
    package = types.ModuleType(name)
    package.__path__ = [str(folder)]
    sys.modules.setdefault(name, package)


def run_adapter(start: Callable[[], Handler], stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Serve the protocol with the handler ``start`` returns (recorded as ``recording`` says),
    or exit with status 2 and the message naming the variable when the engine is missing.
    ``stdout`` is taken before ``start`` runs, so ``start`` may point ``sys.stdout`` elsewhere
    for an engine that prints."""
    stdout = stdout or sys.stdout
    try:
        handle = start()
    except SystemExit as exc:          # EngineMissing, or an engine that cannot be built here: one line
        if not isinstance(exc.code, str):
            raise
        print(exc.code, file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # a Python package the engine imports is not installed
        engine = Path(sys.argv[0]).stem.removesuffix("_engine")
        print(f"{engine}: the engine needs the Python package {exc.name!r}, which is not installed here "
              f"(pip install it; see tools/adapters/README.md)", file=sys.stderr)
        return 2
    return serve(recording(handle), stdin, stdout)
