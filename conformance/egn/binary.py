"""EGN's binary records (``.egnb``): read into the JSON form, and written from it.

The first byte names the layout (EGN's binary-format description): ``0x00`` expanded (the
whole record as protocol-buffer messages), ``0x01`` condensed (the same, but each deal a
bit string, :mod:`.bitpack`); a file starting with any other byte is a condensed record
from before the layout byte existed. The JSON form read here goes through the same checks
as a ``.egn`` file (:func:`~.record.parse_record`), so a binary record and its JSON form
give the same game, and the same case.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.message import DecodeError

from reference_impl.errors import Problem

from .binary_schema import MAGIC_CONDENSED, MAGIC_EXPANDED, MAGIC_MATCH, enum_names, message_class
from .bitpack import PackError, pack_deal, unpack_deal

EXPANDED, CONDENSED = "expanded", "condensed"
MAX_BYTES = 8 * 1024 * 1024
MAX_DEALS = 100           # deals in one game record: as many as the JSON form allows (record._parse, "$.deals")
RULESET_INTS = ("min_rank", "winning_score", "loner_march_score", "loner_euchred_score", "num_players", "num_deals")


class BinaryError(ValueError):
    """Bytes that are not an EGN binary record (or a record the binary form cannot hold)."""

    def __init__(self, path: str, message: str):
        self.problem = Problem("", path, message)
        super().__init__(f"{path}: {message}")


def layout_of(data: bytes) -> str:
    """``expanded`` or ``condensed``, from the first byte (a legacy file without it is condensed)."""
    if not data:
        raise BinaryError("$", "an empty file")
    if data[0] == MAGIC_MATCH:
        return "match"
    return EXPANDED if data[0] == MAGIC_EXPANDED else CONDENSED


def decode(data: bytes) -> tuple[dict[str, Any], str]:
    """The JSON form of a binary record and its layout. Raises :class:`BinaryError`."""
    if len(data) > MAX_BYTES:
        raise BinaryError("$", f"larger than {MAX_BYTES // (1024 * 1024)} MiB")
    layout = layout_of(data)
    if layout == "match":
        raise BinaryError("$", "a binary match file (EMN, first byte 0x02), not a game: read it as a match")
    payload = data[1:] if data[0] in (MAGIC_EXPANDED, MAGIC_CONDENSED) else data
    try:
        message = message_class(layout, "EgnFile").FromString(payload)
    except DecodeError as exc:
        raise BinaryError("$", f"not a protocol-buffer EGN record ({layout} layout): {exc}") from None
    if len(message.deals) > MAX_DEALS:      # (before each is made a JSON object: a byte or two each)
        raise BinaryError("$.deals", f"{len(message.deals)} deals, more than a game has (at most {MAX_DEALS})")
    record: dict[str, Any] = {}
    if message.HasField("file_type") if layout == EXPANDED else message.file_type:
        record["fileType"] = message.file_type
    if message.HasField("version") if layout == EXPANDED else message.version:
        record["version"] = message.version
    record["metadata"] = metadata_json(message.metadata, layout) if message.HasField("metadata") else {}
    if layout == EXPANDED:
        record["deals"] = [_deal_json(deal) for deal in message.deals]
    else:
        deals = []
        for i, text in enumerate(message.deals):
            try:
                deals.append(unpack_deal(text, i))
            except PackError as exc:
                raise BinaryError(f"$.deals[{i}]", f"condensed deal {text!r}: {exc}") from None
        record["deals"] = deals
    return record, layout


def metadata_json(meta: Any, layout: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field, key in (("game_id", "gameId"), ("title", "title"), ("description", "description")):
        if meta.HasField(field):
            out[key] = getattr(meta, field)
    players: list[Any] = []
    for player in meta.players:
        if player.WhichOneof("player") == "player_with_id":
            nested = player.player_with_id
            entry: dict[str, Any] = {"name": nested.name}
            if nested.ids:
                entry["playerIds"] = [{"id": i.id, "source": i.source} for i in nested.ids]
            players.append(entry)
        else:
            players.append(player.name)
    out["players"] = players
    out["initialScore"] = list(meta.initial_score)
    if meta.final_score:
        out["finalScore"] = list(meta.final_score)
    if meta.HasField("date"):
        out["date"] = meta.date
    if meta.HasField("ruleset"):
        rules: dict[str, Any] = {}
        leads = enum_names(layout, "Ruleset.LonerLead")
        for field, value in meta.ruleset.ListFields():
            rules[field.name] = leads.get(value, value) if field.name == "loner_lead" else value
        out["ruleset"] = rules
    return out


def _annotations(entries: Any) -> dict[str, list[str]]:
    return {str(key): list(entries[key].texts) for key in sorted(entries)}


def _phase_json(phase: Any) -> dict[str, Any]:
    if phase.WhichOneof("phase") == "bidding":
        b = phase.bidding
        out: dict[str, Any] = {"phaseNumber": b.phase_number, "type": "EUCHRE_BIDDING", "calls": list(b.calls)}
        if b.HasField("is_alone"):
            out["isAlone"] = b.is_alone
        if b.HasField("alone_defender"):
            out["aloneDefender"] = b.alone_defender
        if b.HasField("discard"):
            out["discard"] = b.discard
        if b.cardExchanges:
            out["cardExchanges"] = []
            for x in b.cardExchanges:
                item: dict[str, Any] = {}
                if x.HasField("sender"):
                    item["sender"] = x.sender
                item["receiver"] = x.receiver
                item["cards"] = list(x.cards)
                out["cardExchanges"].append(item)
        if b.callAnnotations:
            out["callAnnotations"] = _annotations(b.callAnnotations)
        return out
    p = phase.play
    out = {"phaseNumber": p.phase_number, "type": "TRICK_PLAY", "tricks": [list(t.cards) for t in p.tricks]}
    if p.playAnnotations:
        out["playAnnotations"] = _annotations(p.playAnnotations)
    return out


def _deal_json(deal: Any) -> dict[str, Any]:
    state: dict[str, Any] = {}
    s = deal.initial_state
    if s.HasField("dealer"):
        state["dealer"] = s.dealer
    if s.HasField("up_card"):
        state["upCard"] = s.up_card
    if s.playerCards:
        state["playerCards"] = [list(hand.cards) for hand in s.playerCards]
    out: dict[str, Any] = {"dealNumber": deal.deal_number, "initialState": state,
                           "phases": [_phase_json(p) for p in deal.phases]}
    if deal.alternative_lines:
        out["alternativeLines"] = [{"branchIndex": line.branch_index, "phases": [_phase_json(p) for p in line.phases]}
                                   for line in deal.alternative_lines]
    return out


# -- writing ---------------------------------------------------------------------------------------
def encode(record: dict[str, Any], layout: str) -> bytes:
    """A JSON EGN record (checked already) as binary, in the ``expanded`` or ``condensed`` layout.
    Raises :class:`BinaryError` for what the layout cannot hold (see :mod:`.bitpack`)."""
    message = message_class(layout, "EgnFile")()
    message.file_type = record.get("fileType", "Euchre Game Notation")
    message.version = record.get("version", "1.4")
    fill_metadata(message.metadata, record.get("metadata", {}), layout)
    rules = record.get("metadata", {}).get("ruleset", {})
    for i, deal in enumerate(record.get("deals", [])):
        if layout == CONDENSED:
            if isinstance(deal, str):
                message.deals.append(deal)
                continue
            try:
                message.deals.append(pack_deal(deal, rules.get("num_players", 4), rules.get("min_rank", 9)))
            except PackError as exc:
                raise BinaryError(f"$.deals[{i}]", f"cannot be condensed: {exc}") from None
        else:
            if isinstance(deal, str):
                deal = unpack_deal(deal, i)
            _fill_deal(message.deals.add(), deal)
    magic = MAGIC_CONDENSED if layout == CONDENSED else MAGIC_EXPANDED
    data = bytes([magic]) + message.SerializeToString()
    if len(data) > MAX_BYTES:
        raise BinaryError("$", f"the binary record would be larger than {MAX_BYTES // (1024 * 1024)} MiB")
    return data


def fill_metadata(meta: Any, data: dict[str, Any], layout: str) -> None:
    for field, key in (("game_id", "gameId"), ("title", "title"), ("description", "description"), ("date", "date")):
        if key in data:
            setattr(meta, field, data[key])
    for player in data.get("players", []):
        entry = meta.players.add()
        if isinstance(player, str):
            entry.name = player
        else:
            entry.player_with_id.name = player.get("name", "")
            for ident in player.get("playerIds", []):
                entry.player_with_id.ids.add(id=ident.get("id", ""), source=ident.get("source", ""))
    meta.initial_score.extend(data.get("initialScore", []))
    meta.final_score.extend(data.get("finalScore", []))
    if "ruleset" in data:
        meta.ruleset.SetInParent()
        leads = {name: number for number, name in enum_names(layout, "Ruleset.LonerLead").items()}
        for key, value in data["ruleset"].items():
            setattr(meta.ruleset, key, leads[value] if key == "loner_lead" else value)


def _fill_phase(target: Any, phase: dict[str, Any]) -> None:
    if phase.get("type") == "EUCHRE_BIDDING":
        b = target.bidding
        b.SetInParent()
        b.phase_number = phase.get("phaseNumber", 0)
        b.calls.extend(phase.get("calls", []))
        if "isAlone" in phase:
            b.is_alone = phase["isAlone"]
        if "aloneDefender" in phase:
            b.alone_defender = phase["aloneDefender"]
        if "discard" in phase:
            b.discard = phase["discard"]
        for x in phase.get("cardExchanges", []):
            item = b.cardExchanges.add(receiver=x["receiver"], cards=x["cards"])
            if "sender" in x:
                item.sender = x["sender"]
        for key, texts in phase.get("callAnnotations", {}).items():
            b.callAnnotations[int(key)].texts.extend(texts)
        return
    p = target.play
    p.SetInParent()
    p.phase_number = phase.get("phaseNumber", 0)
    for trick in phase.get("tricks", []):
        p.tricks.add(cards=trick)
    for key, texts in phase.get("playAnnotations", {}).items():
        p.playAnnotations[int(key)].texts.extend(texts)


def _fill_deal(target: Any, deal: dict[str, Any]) -> None:
    target.deal_number = deal.get("dealNumber", 0)
    state = deal.get("initialState", {})
    target.initial_state.SetInParent()
    if "dealer" in state:
        target.initial_state.dealer = state["dealer"]
    if "upCard" in state:
        target.initial_state.up_card = state["upCard"]
    for hand in state.get("playerCards", []):
        target.initial_state.playerCards.add(cards=hand)
    for phase in deal.get("phases", []):
        _fill_phase(target.phases.add(), phase)
    for line in deal.get("alternativeLines", []):
        entry = target.alternative_lines.add(branch_index=line.get("branchIndex", 0))
        for phase in line.get("phases", []):
            _fill_phase(entry.phases.add(), phase)
