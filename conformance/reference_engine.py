"""The reference engine: ``reference_impl`` behind the JSON Lines protocol (docs/protocol.md).

The conformance runner starts it as a subprocess (``euchre-spec engine``), exactly as it
starts a third-party engine, so the reference passes through the same path it judges.
It plays any rule table it is sent, so it declares ``"variants": "*"``.
"""

from __future__ import annotations

import json
import re
import sys
from typing import IO, Any

from reference_impl import ActionError, Deal, SpecError, State, new_game
from reference_impl.checks import semantic_problems
from reference_impl.perft import divide, perft
from reference_impl.quick_json import NOT_READ, quick_dumps, quick_loads
from reference_impl.resolve import ResolvedTable, table_hash
from reference_impl.rules import Rules
from reference_impl.schemas import table_problems

from . import PROTOCOL_VERSION, __version__


class ProtocolError(Exception):
    """A request that fails with an error category (docs/protocol.md, "Errors")."""

    def __init__(self, category: str, message: str):
        super().__init__(message)
        self.category = category
        self.message = message


def _require(message: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = message.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ProtocolError("bad_message", f"{message.get('type')}: field {key!r} must be {getattr(kind, '__name__', kind)}")
    return value


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate_at(value: Any, path: str = "$") -> str | None:
    """The path of the first string (key or value) holding a lone surrogate: JSON's
    ``\\ud800`` escape decodes to one, and it is not Unicode text."""
    if isinstance(value, str):
        return path if _LONE_SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and _LONE_SURROGATE.search(key):
                return path
            found = _lone_surrogate_at(item, f"{path}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _lone_surrogate_at(item, f"{path}[{index}]")
            if found:
                return found
    return None


def _cards(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ProtocolError("bad_message", f"deal: {what} must be a list of card strings")
    return tuple(value)


class ReferenceEngine:
    """Answers protocol requests with ``reference_impl``; one game at a time."""

    def __init__(self) -> None:
        self.rules: Rules | None = None
        self.state: State | None = None
        self._compiled: dict[str, Rules] = {}

    # Set by :func:`answer_line` for a request decoded from UTF-8 without a ``\\u`` escape,
    # which cannot hold a lone surrogate: the walk over the message is then skipped.
    unicode_known = False

    def handle(self, message: Any) -> dict[str, Any]:
        """The reply to one decoded request."""
        if not isinstance(message, dict):
            return self._error(None, "bad_message", "a message must be a JSON object")
        request_id = message.get("id")
        if not isinstance(request_id, int) or isinstance(request_id, bool) or request_id < 1:
            return self._error(None, "bad_message", "a message needs an integer id >= 1")
        kind = message.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return self._error(request_id, "bad_message", f"unknown message type {message.get('type')!r}")
        bad_text = None if self.unicode_known else _lone_surrogate_at(message)
        if bad_text:
            return self._error(request_id, "bad_message", f"{kind}: {bad_text} holds a lone surrogate (not Unicode text)")
        try:
            result = handler(self, message)
        except ProtocolError as exc:
            return self._error(request_id, exc.category, exc.message)
        except ActionError as exc:
            return self._error(request_id, exc.category, exc.message)
        except SpecError as exc:
            return self._error(request_id, "bad_deal", str(exc))
        return {"id": request_id, "ok": True, **result}

    @staticmethod
    def _error(request_id: int | None, category: str, message: str) -> dict[str, Any]:
        return {"id": request_id, "ok": False, "error": {"category": category, "message": message}}

    def _game(self) -> State:
        if self.state is None:
            raise ProtocolError("wrong_phase", "no game: send new_game first")
        return self.state

    # -- handlers ------------------------------------------------------------------------
    def hello(self, message: dict[str, Any]) -> dict[str, Any]:
        protocol = _require(message, "protocol", int)
        if protocol != PROTOCOL_VERSION:
            raise ProtocolError("unsupported", f"protocol {protocol} requested; this engine speaks {PROTOCOL_VERSION}")
        return {"protocol": PROTOCOL_VERSION,
                "engine": {"name": "euchre-spec reference", "version": __version__, "language": "Python"},
                "variants": "*", "commands": ["perft", "deal-deck", "seat-view"]}

    def rules_message(self, message: dict[str, Any]) -> dict[str, Any]:
        table = _require(message, "table", dict)
        sha = _require(message, "sha256", str)
        if table_hash(table) != sha:
            raise ProtocolError("bad_message", "sha256 does not match the table's canonical JSON")
        if sha not in self._compiled:
            problems = table_problems(table) or semantic_problems(table)
            if problems:
                path, text = problems[0]
                raise ProtocolError("unsupported", f"invalid rule table at {'.'.join(map(str, path)) or '$'}: {text}")
            selected = table.get("selected", {})
            self._compiled[sha] = Rules(ResolvedTable(table["id"], table, sha, dict(selected), "<protocol>"))
        self.rules = self._compiled[sha]
        self.state = None
        return {}

    def new_game_message(self, message: dict[str, Any]) -> dict[str, Any]:
        scores = message.get("scores")
        if scores is not None and (not isinstance(scores, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
            raise ProtocolError("bad_message", "new_game: scores must be a list of integers")
        if ("dealer" in message) == ("first_dealer" in message):
            raise ProtocolError("bad_message", "new_game: give exactly one of dealer and first_dealer")
        if "dealer" in message:
            dealer = _require(message, "dealer", int)
        else:
            first = _require(message, "first_dealer", dict)
            cards = _cards(first.get("cards"), "first_dealer.cards")
            start = first.get("start", 0)
            if not isinstance(start, int) or isinstance(start, bool):
                raise ProtocolError("bad_message", "new_game: first_dealer.start must be an integer seat")
        if self.rules is None:
            raise ProtocolError("wrong_phase", "no rules: send rules first")
        n = self.rules.n
        if scores is not None and len(scores) != len(self.rules.units):
            raise ProtocolError("bad_message", f"new_game: {len(scores)} scores given for {len(self.rules.units)} sides")
        if "dealer" in message:
            if not 0 <= dealer < n:
                raise ProtocolError("bad_message", f"new_game: dealer {dealer} is not a seat of {n} players")
            self.state = new_game(self.rules, dealer, scores=scores)
        else:
            if not 0 <= start < n:
                raise ProtocolError("bad_message", f"new_game: first_dealer.start {start} is not a seat of {n} players")
            unknown = [c for c in cards if c not in self.rules.card_index]
            if unknown:
                raise ProtocolError("bad_deal", f"not cards of this pack: {', '.join(unknown)}")
            self.state = new_game(self.rules, first_dealer_cards=cards, start_seat=start, scores=scores)
        return {"state": self.state.observation()}

    def deal_message(self, message: dict[str, Any]) -> dict[str, Any]:
        if "deck" in message:                           # types first, then the game's state
            deck = _cards(message["deck"], "deck")
        else:
            hands = tuple(_cards(h, "each hand") for h in _require(message, "hands", list))
            upcard = message.get("upcard")
            if upcard is not None and not isinstance(upcard, str):
                raise ProtocolError("bad_message", "deal: upcard must be a card or null")
            widow, kitty = _cards(message.get("widow", []), "widow"), _cards(message.get("kitty", []), "kitty")
        state = self._game()
        if not state.is_chance_node():
            raise ProtocolError("wrong_phase", f"no deal expected in phase {state.phase}")
        if "deck" in message:
            deal = self.rules.deal_from_order(deck, state.dealer)
        else:
            deal = Deal(hands, upcard, widow, kitty)
        state.deal(deal)
        return {"state": state.observation()}

    def act(self, message: dict[str, Any]) -> dict[str, Any]:
        seat = _require(message, "seat", int)           # types first (docs/protocol.md, "act")
        action = _require(message, "action", str)
        state = self._game()
        state.apply(action, seat)
        return {"state": state.observation()}

    def legal(self, message: dict[str, Any]) -> dict[str, Any]:
        state = self._game()
        return {"to_act": state.current_player(), "legal": state.legal_actions()}

    def state_message(self, message: dict[str, Any]) -> dict[str, Any]:
        if "seat" in message:
            seat = _require(message, "seat", int)
            state = self._game()
            if not 0 <= seat < state.rules.n:
                raise ProtocolError("bad_message", f"state: seat {seat} is not a seat of {state.rules.n} players")
            return {"state": state.observation(seat)}
        return {"state": self._game().observation()}

    def perft_message(self, message: dict[str, Any]) -> dict[str, Any]:
        depth = _require(message, "depth", int)
        state = self._game()
        longest = state.rules.max_hand_actions
        if not 0 <= depth <= longest:
            raise ProtocolError("bad_message", f"perft: depth must be 0..{longest}, the most decisions a hand of this variant can take")
        nodes = perft(state, depth)
        if message.get("divide"):
            return {"nodes": nodes, "divide": divide(state, depth) if depth and state.to_act >= 0 else {}}
        return {"nodes": nodes}

    def bye(self, message: dict[str, Any]) -> dict[str, Any]:
        return {}


_HANDLERS = {
    "hello": ReferenceEngine.hello,
    "rules": ReferenceEngine.rules_message,
    "new_game": ReferenceEngine.new_game_message,
    "deal": ReferenceEngine.deal_message,
    "act": ReferenceEngine.act,
    "legal": ReferenceEngine.legal,
    "state": ReferenceEngine.state_message,
    "perft": ReferenceEngine.perft_message,
    "bye": ReferenceEngine.bye,
}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def answer_line(engine: ReferenceEngine, raw: bytes) -> bytes:
    """The reply line (without its newline) to one request line."""
    try:
        message = quick_loads(raw)
        if message is NOT_READ:
            message = _LOADS(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        reply = ReferenceEngine._error(None, "bad_message", f"not JSON in UTF-8: {exc}")
    else:
        try:
            engine.unicode_known = b"\\u" not in raw
            reply = engine.handle(message)
        except Exception as exc:  # an engine bug must not kill the session
            request_id = message.get("id") if isinstance(message, dict) else None
            reply = ReferenceEngine._error(request_id if isinstance(request_id, int) and not isinstance(request_id, bool) else None,
                                           "internal", f"{type(exc).__name__}: {exc}")
        finally:
            engine.unicode_known = False
    # backslashreplace: a lone surrogate echoed from the request becomes its JSON escape
    return quick_dumps(reply) or _DUMPS(reply).encode("utf-8", "backslashreplace")


_LOADS = json.JSONDecoder(parse_constant=_refuse_constant).decode
_DUMPS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """Answer one request per input line until ``bye`` or the end of input."""
    engine = ReferenceEngine()
    for raw in stdin:
        line = answer_line(engine, raw)
        stdout.write(line + b"\n")
        stdout.flush()
        if b'"bye"' in raw and line.startswith(b'{"id":') and b'"ok":true' in line and _is_bye(raw):
            break
    return 0


def _is_bye(raw: bytes) -> bool:
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("type") == "bye"


def main() -> int:
    return serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())
