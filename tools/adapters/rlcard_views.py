"""Seat views (``state`` with a ``seat``) for the adapters of RLCard games: what the engine's own
per-player state (``game.get_state(player_id)``) tells that player, and nothing the adapter knows
besides.

RLCard's games give each player a state dictionary (its hand, and whatever else the game
chose to put there); a learning agent sees nothing else. So a seat's view is the public part
of the protocol's state (the adapter's record of the bidding and the tricks, which every
seat sees at the table), ``legal`` only for the seat to act, the seat's own hand, and the
engine's state for that seat as ``information_state`` (cards as the protocol's tokens, so
that a leaking card is named the way the suite reads cards). What the engine leaves out of a
player's state the view leaves out (``fuzz --views`` reports a card forgotten), and what it
puts into every player's state the view shows every seat (a leak).
"""

from __future__ import annotations

from typing import Any, Callable

HISTORY_FIELDS = ("discards", "passed", "received")


class SeatViews:
    """Mixed into an adapter (before its :class:`protocol_adapter.OneVariantAdapter`): ``state``
    with a ``seat`` is answered by the adapter's ``seat_view(state, seat)`` from the full state
    (every other request as before), and ``hello`` declares ``seat-view``."""

    PLAYERS = 4

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("type") == "state" and "seat" in message:
            seat = checked_seat(message, self.PLAYERS)
            state = super().handle({**message, "seat": None})["state"]  # type: ignore[misc]
            return {"state": self.seat_view(state, seat)}  # type: ignore[attr-defined]
        reply = super().handle(message)  # type: ignore[misc]
        if message.get("type") == "hello":
            reply["commands"] = ["seat-view"]
        return reply


def checked_seat(message: dict[str, Any], players: int) -> int:
    """The request's seat (refused as ``bad_message`` where it is not one of ``players``)."""
    from jsonl_server import Refused
    seat = message.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise Refused("bad_message", f"state: seat {seat!r} is not a seat of {players} players")
    return seat


def plain(value: Any, card: Callable[[Any], str | None]) -> Any:
    """An engine's state as JSON: a card object or card index (``card`` says which, and its
    token) as the protocol's token, containers as lists and objects, anything else as text."""
    token = card(value)
    if token is not None:
        return token
    if isinstance(value, dict):
        return {str(k): plain(v, card) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v, card) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "tolist"):                 # a numpy array or number
        return plain(value.tolist(), card)
    return str(value)


def seat_view(state: dict[str, Any], seat: int, players: int, information_state: Any,
              history: dict[str, list[Any]] | None = None) -> dict[str, Any]:
    """The view of ``seat`` from the adapter's full ``state``: others' hands hidden, ``legal``
    empty unless it is to act, the history fields as ``history`` gives them (else nothing of
    anyone's: the engine keeps no such record), and the engine's ``information_state``."""
    view = dict(state)
    if view.get("to_act") != seat:
        view["legal"] = []
    hands = view.get("hands")
    if isinstance(hands, list):
        view["hands"] = [hand if owner == seat else None for owner, hand in enumerate(hands)]
    for name in HISTORY_FIELDS:
        view[name] = (history or {}).get(name) or [[] if owner == seat else None for owner in range(players)]
    view["information_state"] = information_state
    return view
