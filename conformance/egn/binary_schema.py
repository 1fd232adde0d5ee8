"""EGN's binary records as protocol-buffer messages, built at run time.

EGN (docs/binary-format.md of its repository) serialises a game with protocol buffers, in
two layouts told apart by the file's first byte: *expanded* (``0x00``: every deal as a
message) and *condensed* (``0x01``: every deal as a Base64URL bit string, :mod:`.bitpack`).
A match file (EMN) in binary starts with ``0x02`` and embeds each game as EGN JSON text.

The messages are declared below as data, written from EGN's description of its fields
(names, numbers, types); nothing of its ``.proto`` files is used. They are compiled with
protobuf's descriptor API into one descriptor pool per layout (the expanded and the
condensed layouts both name their top message ``egn.EgnFile``), so no ``protoc`` and no
generated module is needed. Field presence follows proto3's ``optional``: a field the
record omits is omitted on the wire, as EGN's own encoder does.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

PACKAGE = "egn"
MAGIC_EXPANDED, MAGIC_CONDENSED, MAGIC_MATCH = 0x00, 0x01, 0x02

# (name, number, type, label) -- type: a scalar name, ".Message" for a message of this package,
# "map<int32,Message>" for a map; label: "optional" (proto3 optional), "repeated" or "" (implicit).
Field = tuple[str, int, str, str]

COMMON: dict[str, list[Field]] = {
    "Ruleset": [
        ("std", 1, "bool", "optional"), ("min_rank", 2, "int32", "optional"),
        ("winning_score", 3, "int32", "optional"), ("canadian", 4, "bool", "optional"),
        ("loner_lead", 5, "enum:Ruleset.LonerLead", "optional"), ("farmers", 6, "bool", "optional"),
        ("partners_best", 7, "bool", "optional"), ("go_under", 8, "bool", "optional"),
        ("joker", 9, "bool", "optional"), ("allow_no_trump", 10, "bool", "optional"),
        ("fast_break", 11, "bool", "optional"), ("four_trick_tokens", 12, "bool", "optional"),
        ("loner_march_score", 13, "int32", "optional"), ("loner_euchred_score", 14, "int32", "optional"),
        ("defend_alone", 15, "bool", "optional"), ("num_players", 16, "int32", "optional"),
        ("num_deals", 17, "int32", "optional"),
    ],
    "Metadata": [
        ("game_id", 1, "string", "optional"), ("title", 2, "string", "optional"),
        ("description", 3, "string", "optional"), ("players", 4, ".Player", "repeated"),
        ("initial_score", 5, "int32", "repeated"), ("date", 6, "string", "optional"),
        ("ruleset", 7, ".Ruleset", ""), ("final_score", 8, "int32", "repeated"),
    ],
    # A player is a bare name or a name with ids: a oneof of the two.
    "Player": [("name", 1, "string", "oneof:player"), ("player_with_id", 2, ".PlayerWithId", "oneof:player")],
    "PlayerWithId": [("name", 1, "string", ""), ("ids", 2, ".Id", "repeated")],
    "MatchPlayer": [("id", 1, "string", ""), ("name", 2, "string", ""), ("player_ids", 3, ".Id", "repeated")],
    "Id": [("id", 1, "string", ""), ("source", 2, "string", "")],
}
ENUMS: dict[str, list[tuple[str, int]]] = {
    "Ruleset.LonerLead": [("LEFT_OF_DEALER", 0), ("LEFT_OF_LONER", 1)],
    "MatchFormat.MatchType": [(name, i) for i, name in enumerate(
        ("BEST_OF_N", "PROGRESSIVE", "ROUND_ROBIN", "CUSTOM", "FIXED_GAMES", "TARGET_SCORE", "ELIMINATION", "SWISS",
         "TIMED", "SINGLE_GAME"))],
    "MatchResult.Status": [("COMPLETED", 0), ("IN_PROGRESS", 1), ("FORFEIT", 2), ("DRAW", 3)],
}
EXPANDED: dict[str, list[Field]] = {
    "CardList": [("cards", 1, "string", "repeated")],
    "AnnotationList": [("texts", 1, "string", "repeated")],
    "InitialState": [("dealer", 1, "int32", "optional"), ("up_card", 2, "string", "optional"),
                     ("playerCards", 4, ".CardList", "repeated")],
    "BiddingPhase.CardExchange": [("sender", 1, "int32", "optional"), ("receiver", 2, "int32", "optional"),
                                  ("cards", 3, "string", "repeated")],
    "BiddingPhase": [("phase_number", 1, "int32", "optional"), ("calls", 2, "string", "repeated"),
                     ("is_alone", 3, "bool", "optional"), ("alone_defender", 4, "int32", "optional"),
                     ("discard", 5, "string", "optional"), ("cardExchanges", 6, ".BiddingPhase.CardExchange", "repeated"),
                     ("callAnnotations", 7, "map<int32,AnnotationList>", "repeated")],
    "TrickPlayPhase.Trick": [("cards", 1, "string", "repeated")],
    "TrickPlayPhase": [("phase_number", 1, "int32", "optional"), ("tricks", 3, ".TrickPlayPhase.Trick", "repeated"),
                       ("playAnnotations", 4, "map<int32,AnnotationList>", "repeated")],
    "Phase": [("bidding", 1, ".BiddingPhase", "oneof:phase"), ("play", 2, ".TrickPlayPhase", "oneof:phase")],
    "AlternativeLine": [("branch_index", 1, "int32", "optional"), ("phases", 2, ".Phase", "repeated")],
    "Deal": [("deal_number", 1, "int32", "optional"), ("initial_state", 2, ".InitialState", ""),
             ("phases", 3, ".Phase", "repeated"), ("alternative_lines", 4, ".AlternativeLine", "repeated")],
    "EgnFile": [("file_type", 1, "string", "optional"), ("version", 2, "string", "optional"),
                ("metadata", 3, ".Metadata", ""), ("deals", 4, ".Deal", "repeated")],
}
CONDENSED: dict[str, list[Field]] = {
    "EgnFile": [("file_type", 1, "string", ""), ("version", 2, "string", ""), ("metadata", 3, ".Metadata", ""),
                ("deals", 4, "string", "repeated")],
}
MATCH: dict[str, list[Field]] = {
    "MatchFormat": [("type", 1, "enum:MatchFormat.MatchType", ""), ("target", 2, "int32", "optional")],
    "MatchResult": [("status", 1, "enum:MatchResult.Status", ""), ("winner", 2, "string", "repeated"),
                    ("scores", 3, "map<string,double>", "repeated")],
    "MatchMetadata": [("match_id", 1, "string", "optional"), ("title", 2, "string", "optional"),
                      ("description", 3, "string", "optional"), ("players", 4, ".MatchPlayer", "repeated"),
                      ("date", 5, "string", "optional"), ("match_format", 6, ".MatchFormat", ""),
                      ("result", 7, ".MatchResult", "")],
    "GameEntry": [("game_index", 1, "int32", ""), ("players", 2, "string", "repeated"),
                  ("egn_json", 3, "string", "oneof:game_data"), ("egn_protobuf_bytes", 4, "bytes", "oneof:game_data")],
    "MatchFile": [("file_type", 1, "string", ""), ("version", 2, "string", ""), ("metadata", 3, ".MatchMetadata", ""),
                  ("games", 4, ".GameEntry", "repeated")],
}

_F = descriptor_pb2.FieldDescriptorProto
SCALARS = {"bool": _F.TYPE_BOOL, "int32": _F.TYPE_INT32, "string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES,
           "double": _F.TYPE_DOUBLE}


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _set_type(field: descriptor_pb2.FieldDescriptorProto, kind: str) -> None:
    if kind in SCALARS:
        field.type = SCALARS[kind]
    elif kind.startswith("enum:"):
        field.type = _F.TYPE_ENUM
        field.type_name = f".{PACKAGE}.{kind[5:]}"
    else:
        field.type = _F.TYPE_MESSAGE
        field.type_name = f".{PACKAGE}{kind}" if kind.startswith(".") else f".{PACKAGE}.{kind}"


def _message(container: Any, name: str, fields: list[Field], scope: str) -> descriptor_pb2.DescriptorProto:
    msg = container.add(name=name)
    oneofs: dict[str, int] = {}
    for fname, number, kind, label in fields:
        field = msg.field.add(name=fname, number=number, json_name=fname)
        if kind.startswith("map<"):
            key, value = kind[4:-1].split(",")
            entry = msg.nested_type.add(name=_camel(fname) + "Entry")
            entry.options.map_entry = True
            for ename, enumber, ekind in (("key", 1, key), ("value", 2, value)):
                efield = entry.field.add(name=ename, number=enumber, label=_F.LABEL_OPTIONAL, json_name=ename)
                _set_type(efield, ekind)
            field.label = _F.LABEL_REPEATED
            field.type = _F.TYPE_MESSAGE
            field.type_name = f".{PACKAGE}.{scope}{name}.{entry.name}"
            continue
        _set_type(field, kind)
        if label == "repeated":
            field.label = _F.LABEL_REPEATED
            if kind in ("int32", "double", "bool"):
                field.options.packed = False          # as EGN's own files have them (readers take both)
            continue
        field.label = _F.LABEL_OPTIONAL
        if label == "optional":                       # proto3 optional: a synthetic oneof of its own
            field.proto3_optional = True
            field.oneof_index = len(msg.oneof_decl)
            msg.oneof_decl.add(name=f"_{fname}")
        elif label.startswith("oneof:"):
            group = label[6:]
            if group not in oneofs:
                oneofs[group] = len(msg.oneof_decl)
                msg.oneof_decl.add(name=group)
            field.oneof_index = oneofs[group]
    return msg


def _file(name: str, messages: dict[str, list[Field]], pool: descriptor_pool.DescriptorPool) -> None:
    proto = descriptor_pb2.FileDescriptorProto(name=name, package=PACKAGE, syntax="proto3")
    built: dict[str, descriptor_pb2.DescriptorProto] = {}
    enums = {k: v for k, v in ENUMS.items() if k.split(".")[0] in messages}
    # Outer messages first, then nested ones (``Outer.Inner``) inside them.
    for full in sorted(messages, key=lambda n: n.count(".")):
        outer, _, inner = full.rpartition(".")
        if outer:
            built[full] = _message(built[outer].nested_type, inner, messages[full], f"{outer}.")
        else:
            built[full] = _message(proto.message_type, full, messages[full], "")
    for full, values in enums.items():
        outer, _, inner = full.rpartition(".")
        enum = built[outer].enum_type.add(name=inner)
        for value_name, number in values:
            enum.value.add(name=value_name, number=number)
    if name != "egn_common":
        proto.dependency.append("egn_common")
    pool.Add(proto)


@cache
def _pool(layout: str) -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    _file("egn_common", COMMON, pool)
    _file(f"egn_{layout}", {"expanded": EXPANDED, "condensed": CONDENSED, "match": MATCH}[layout], pool)
    return pool


def message_class(layout: str, name: str) -> type:
    """The message class ``egn.NAME`` of a layout: ``expanded``, ``condensed`` or ``match``."""
    return message_factory.GetMessageClass(_pool(layout).FindMessageTypeByName(f"{PACKAGE}.{name}"))


def enum_names(layout: str, name: str) -> dict[int, str]:
    """Number -> name of enum ``egn.NAME`` (``Ruleset.LonerLead``, ``MatchFormat.MatchType``...)."""
    enum = _pool(layout).FindEnumTypeByName(f"{PACKAGE}.{name}")
    return {v.number: v.name for v in enum.values}
