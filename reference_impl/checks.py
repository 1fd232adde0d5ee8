"""Semantic checks a JSON Schema cannot express: cross references between parts of a table.

Run on a *resolved* table (schema-valid, options applied), they make sure the interpreter
never meets a table it cannot play: every card named exists, the deal fits the pack, the
ranking lists every rank once, every cited source and clause exists.
"""

from __future__ import annotations

from typing import Any, Iterator

PathAndMessage = tuple[tuple[Any, ...], str]

BOWERS = ("right-bower", "left-bower")


def deck_cards(deck: dict[str, Any]) -> list[str]:
    """Every card of the pack, suit by suit in the table's order, then the extras."""
    return [rank + suit for suit in deck["suits"] for rank in deck["ranks"]] + list(deck.get("extra", []))


def _players(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    players = t["players"]
    n = players["count"]
    if players["sides"] == "partnerships":
        seats = [s for group in players["partnerships"] for s in group]
        if sorted(seats) != list(range(n)):
            yield ("players", "partnerships"), f"partnerships must list each seat 0..{n - 1} exactly once, got {seats}"
    elif "partnerships" in players:
        yield ("players", "partnerships"), f"partnerships are only for sides: partnerships, not {players['sides']}"


def _deck_and_ranking(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    deck, ranking = t["deck"], t["ranking"]
    cards = deck_cards(deck)
    for i, card in enumerate(deck.get("extra", [])):
        if cards.count(card) > 1:
            yield ("deck", "extra", i), f"{card} is already in the pack"
    missing = [s for s in deck["suits"] if s not in deck["colours"]]
    if missing:
        yield ("deck", "colours"), f"no colour for suit(s) {', '.join(missing)}"
    ranks = list(deck["ranks"])
    benny = ranking.get("benny")
    trump = ranking["trump"]
    if benny is not None and benny not in cards:
        yield ("ranking", "benny"), f"the Benny {benny} is not in the pack"
    if (benny is not None) != ("benny" in trump):
        yield ("ranking", "trump"), "`benny` must head the trump order exactly when ranking.benny names a card"
    bowers = [b for b in BOWERS if b in trump]
    if bowers and "J" not in ranks:
        yield ("ranking", "trump"), "bowers need jacks in the pack"
    if bowers and bowers != list(BOWERS):
        yield ("ranking", "trump"), "the trump order needs both bowers or neither"
    expected = [r for r in ranks if not (bowers and r == "J")]
    trump_ranks = [x for x in trump if x not in BOWERS and x != "benny"]
    if sorted(trump_ranks) != sorted(expected):
        yield ("ranking", "trump"), f"the trump order must list the ranks {expected} once each (jacks as bowers), got {trump_ranks}"
    if sorted(ranking["plain"]) != sorted(ranks):
        yield ("ranking", "plain"), f"the plain order must list the ranks {ranks} once each, got {ranking['plain']}"
    if bowers:
        for suit in deck["suits"]:
            same = [s for s in deck["suits"] if s != suit and deck["colours"].get(s) == deck["colours"].get(suit)]
            if len(same) != 1:
                yield ("deck", "colours"), f"the left bower needs exactly one other suit of {suit}'s colour, found {same}"
                break
    nt = ranking.get("no-trump")
    if nt is not None:
        if sorted(nt["plain"]) != sorted(ranks):
            yield ("ranking", "no-trump", "plain"), f"the no-trump order must list the ranks {ranks} once each"
        master = nt.get("master")
        if master is not None and master not in deck.get("extra", []):
            yield ("ranking", "no-trump", "master"), f"the master card {master} must be an extra card of the pack (it belongs to no suit)"
        if master is not None and "master-led" not in nt:
            yield ("ranking", "no-trump"), "a master card needs master-led (what its leader does)"
        if benny is not None and benny != master:
            yield ("ranking", "no-trump"), "at no-trumps the Benny must be the master card"
    for i, card in enumerate(deck.get("extra", [])):
        if card != benny and card != (nt or {}).get("master"):
            yield ("deck", "extra", i), f"the extra card {card} has no role: make it the Benny or the no-trump master"


def _deal(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    n = t["players"]["count"]
    size = len(deck_cards(t["deck"]))
    dealt = sum(p["count"] * (n if p["to"] == "players" else 1) for p in t["deal"]["packets"])
    dealt += 1 if t["deal"]["upcard"] else 0
    if dealt > size:
        yield ("deal", "packets"), f"the deal needs {dealt} cards but the pack has {size}"
    if not any(p["to"] == "players" for p in t["deal"]["packets"]):
        yield ("deal", "packets"), "no packet deals cards to the players"


def _bidding(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    bidding = t["bidding"]
    has_widow = any(p["to"] == "widow" for p in t["deal"]["packets"])
    if bidding["procedure"] == "upcard-rounds":
        if not t["deal"]["upcard"]:
            yield ("deal", "upcard"), "the upcard procedure needs an upcard"
        if "makers-need" not in t["scoring"]:
            yield ("scoring",), "the upcard procedure needs scoring.makers-need"
        if bidding["upcard-rounds"]["second-round"].get("no-trump") and "no-trump" not in t["ranking"]:
            yield ("ranking",), "calling no-trumps needs ranking.no-trump"
    else:
        ids = [b["id"] for b in bidding["auction"]["bids"]]
        for i, bid in enumerate(bidding["auction"]["bids"]):
            if ids.count(bid["id"]) > 1:
                yield ("bidding", "auction", "bids", i, "id"), f"duplicate bid id {bid['id']!r}"
            if bid["strain"] != "NT" and bid["strain"] not in t["deck"]["suits"]:
                yield ("bidding", "auction", "bids", i, "strain"), f"no suit {bid['strain']} in the pack"
            if "tricks" not in bid and "at-most" not in bid:
                yield ("bidding", "auction", "bids", i), "a bid needs `tricks` or `at-most`"
        if any(b["strain"] == "NT" for b in bidding["auction"]["bids"]) or bidding["auction"]["all-pass"]["then"] == "play-no-trump":
            if "no-trump" not in t["ranking"]:
                yield ("ranking",), "no-trump contracts need ranking.no-trump"
    for i, take in enumerate(t["exchange"]["takes"]):
        if take["from"] == "widow" and not has_widow:
            yield ("exchange", "takes", i, "from"), "no packet deals a widow"
        if take["from"] == "upcard" and not t["deal"]["upcard"]:
            yield ("exchange", "takes", i, "from"), "the deal has no upcard"
        if "round" in take.get("when", {}) and bidding["procedure"] != "upcard-rounds":
            yield ("exchange", "takes", i, "when", "round"), "rounds exist only in the upcard procedure"


def _alone(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    alone, sides = t["alone"], t["players"]["sides"]
    if alone["allowed"]:
        for key in ("declared", "effect"):
            if key not in alone:
                yield ("alone",), f"going alone needs alone.{key}"
        if alone.get("effect") == "partner-sits-out" and sides != "partnerships":
            yield ("alone", "effect"), f"with sides: {sides} the maker has no partner to sit out"
        if "lone-lead" not in t["play"]:
            yield ("play",), "going alone needs play.lone-lead"
    if alone.get("defend", {}).get("allowed"):
        if not alone["allowed"] and alone["defend"].get("against", "lone-maker") == "lone-maker":
            yield ("alone", "defend", "allowed"), "a lone defence against a lone maker needs going alone"
        if sides == "individual":
            yield ("alone", "defend", "allowed"), "with sides: individual a defender has no partner to sit out"
    if alone.get("partners-best", {}).get("allowed") and alone.get("effect") != "partner-sits-out":
        yield ("alone", "partners-best", "allowed"), "the partner's best card needs alone.effect: partner-sits-out"


def _scoring_and_game(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    clause_ids = [c["id"] for c in t.get("clauses", [])]
    row_ids = [r["id"] for r in t["scoring"]["rows"]]
    for i, row in enumerate(t["scoring"]["rows"]):
        if row_ids.count(row["id"]) > 1:
            yield ("scoring", "rows", i, "id"), f"duplicate row id {row['id']!r}"
        if row.get("enabled", True) and row["id"] not in clause_ids:
            yield ("scoring", "rows", i, "id"), f"row {row['id']!r} has no clause of the same id stating it"
        tricks = row["when"].get("maker-tricks")
        if isinstance(tricks, list) and tricks[0] > tricks[1]:
            yield ("scoring", "rows", i, "when", "maker-tricks"), f"empty range {tricks}"
    if t["game"]["first-dealer"] == "cut" and "cut-order" not in t["game"]:
        yield ("game", "first-dealer"), "cutting for the first deal needs game.cut-order"
    if t["game"]["first-dealer"] == "first-black-jack" and "J" not in t["deck"]["ranks"]:
        yield ("game", "first-dealer"), "no jacks in the pack"


def _clauses_and_sources(t: dict[str, Any]) -> Iterator[PathAndMessage]:
    sources = t["sources"]
    seen: dict[str, int] = {}
    for i, clause in enumerate(t.get("clauses", [])):
        if clause["id"] in seen:
            yield ("clauses", i, "id"), f"duplicate clause id {clause['id']!r} (also clause {seen[clause['id']]})"
        seen[clause["id"]] = i
        if clause["source"] not in sources:
            yield ("clauses", i, "source"), f"unknown source {clause['source']!r}"
    for key, option in t.get("options", {}).items():
        if option["source"] not in sources:
            yield ("options", key, "source"), f"unknown source {option['source']!r}"
        values = [c["value"] for c in option["choices"]]
        if option["default"] not in values:
            yield ("options", key, "default"), f"default {option['default']!r} is not one of {values}"
        for j, choice in enumerate(option["choices"]):
            if values.count(choice["value"]) > 1:
                yield ("options", key, "choices", j, "value"), f"duplicate value {choice['value']!r}"
            for k, clause in enumerate(choice.get("clauses", [])):
                if clause["source"] not in sources:
                    yield ("options", key, "choices", j, "clauses", k, "source"), f"unknown source {clause['source']!r}"
    for key, source in sources.items():
        if source["kind"] == "seed" and "file" not in source:
            yield ("sources", key), "a seed source names its file"


def semantic_problems(table: dict[str, Any]) -> list[PathAndMessage]:
    """Every cross-reference problem in a resolved table, as (path, message) pairs."""
    checks = (_players, _deck_and_ranking, _deal, _bidding, _alone, _scoring_and_game, _clauses_and_sources)
    return [problem for check in checks for problem in check(table)]
