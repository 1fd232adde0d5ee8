"""``euchre-spec egn check``: each record replayed through the reference, its first impossible
event reported with the deal, the trick and the seat; and every record, sound or defective,
written as a case that the reference engine passes (a defective one passes by failing exactly
where the record is impossible)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.egn.check import check_file
from conformance.egn.replay import KINDS

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "egn"

# Each defect euchre-spec egn check detects, the file that shows it, and where it is.
DEFECTS = [
    # file, kind, deal, trick, seat
    ("defect-revoke.egn", "revoke", 1, 1, 0),
    ("defect-revoke-shown-later.egn", "revoke", 1, 1, 0),
    ("defect-dealt-twice.egn", "dealt-twice", 2, 3, 3),
    ("defect-not-held.egn", "not-held", 1, 2, 0),
    ("defect-upcard-played.egn", "upcard-played", 1, 2, 0),
    ("defect-illegal-call.egn", "illegal-action", 1, None, 3),
    ("defect-trick-size.egn", "trick-size", 1, 2, 1),
    ("defect-extra-play.egn", "extra-play", 1, 6, 2),
    ("defect-bad-card.egn", "bad-card", 1, 3, 3),
    ("defect-bad-deal.egn", "bad-deal", 1, None, 2),
    ("defect-wrong-dealer.egn", "wrong-dealer", 2, None, 2),
    ("defect-cut-short.egn", "cut-short", 1, None, None),
    ("defect-after-end.egn", "after-end", 6, None, None),
    ("defect-score.egn", "score", 0, None, None),
]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_every_defect_kind_has_a_fixture():
    assert {kind for _, kind, *_ in DEFECTS} == set(KINDS)


@pytest.mark.parametrize("name, kind, deal, trick, seat", DEFECTS, ids=[d[0] for d in DEFECTS])
def test_each_defect_is_found_where_it_is(name, kind, deal, trick, seat):
    report = check_file(FIXTURES / name)
    assert (report.kind, report.deal, report.trick, report.seat) == (kind, deal, trick, seat), report.message
    assert not report.ok and report.message


def test_a_revoke_is_told_with_the_card_that_shows_it():
    direct = check_file(FIXTURES / "defect-revoke.egn").message
    later = check_file(FIXTURES / "defect-revoke-shown-later.egn").message
    assert "without following suit" in direct and "recorded hand" in direct
    assert "without following suit" in later and "played by seat 0 in trick" in later


def test_sound_records_are_ok():
    for path in FIXTURES.glob("*.egn"):
        if path.name.startswith(("defect-", "invalid-", "unsupported-")):
            continue
        report = check_file(path)
        assert report.ok, (path.name, report.message)


def test_the_command_prints_one_json_object_per_game_and_exits_1_on_a_defect():
    files = [FIXTURES / "defect-revoke.egn", FIXTURES / "hand-written-order.egn", FIXTURES / "invalid-structure.egn",
             FIXTURES / "unsupported-num-players.egn"]
    result = run("egn", "check", "--json", *map(str, files))
    assert result.returncode == 1, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["kind"] for line in lines] == ["revoke", None, "invalid", "unsupported"]
    revoke = lines[0]
    assert {k: revoke[k] for k in ("ok", "deal", "dealNumber", "trick", "seat")} == \
        {"ok": False, "deal": 1, "dealNumber": 0, "trick": 1, "seat": 0}
    assert set(revoke) >= {"file", "game", "kind", "deal", "trick", "seat", "message"}
    assert lines[1]["ok"] is True and lines[1]["scores"] == [0, 1]
    ok = run("egn", "check", str(FIXTURES / "hand-written-order.egn"))
    assert ok.returncode == 0 and "1 of 1 record(s) sound" in ok.stdout
    text = run("egn", "check", str(FIXTURES / "defect-dealt-twice.egn"))
    assert text.returncode == 1 and "dealt-twice" in text.stdout and "deal 2, trick 3, seat 3" in text.stdout


def test_a_missing_file_is_a_usage_error():
    result = run("egn", "check", "no-such-file.egn")
    assert result.returncode == 2 and "no such file" in result.stderr


def test_every_record_as_a_case_passes_on_the_reference_engine(tmp_path):
    """The sound records' cases, and the defective ones', which expect the failure the record
    has (an engine that went on would fail them); a deal after the game's end must be refused."""
    out = tmp_path / "cases"
    files = sorted(str(p) for p in FIXTURES.glob("*.egn") if not p.name.startswith(("invalid-", "unsupported-")))
    result = run("egn", "check", "--json", "-o", str(out), *files)
    assert result.returncode == 1
    written = {Path(json.loads(line)["file"]).name: json.loads(line)["case"] for line in result.stdout.splitlines()}
    assert all(written.values()), [name for name, case in written.items() if not case]
    texts = {name: Path(case).read_text() for name, case in written.items()}
    for name, kind, deal, trick, seat in DEFECTS:
        if kind in ("after-end", "cut-short"):
            assert "deal_reject: wrong_phase" in texts[name]
        else:
            assert "expected_failure:" in texts[name] and f"hand: {deal}" in texts[name]
    report = tmp_path / "report.jsonl"
    check = run("check", "--engine", "reference", "--corpus", str(out), "--json", str(report))
    assert check.returncode == 0, check.stdout + check.stderr
    outcomes = [json.loads(line) for line in report.read_text().splitlines()]
    cases = [line for line in outcomes if line.get("type") == "case"]
    assert len(cases) == len(files) and all(line["outcome"] == "pass" for line in cases)
    failing_where_expected = [line for line in cases if "failed where expected" in (line.get("detail") or "")]
    assert len(failing_where_expected) == len([d for d in DEFECTS if d[1] not in ("after-end", "cut-short")])


CARDS = [rank + suit for rank in "9TJQKA" for suit in "shcd"] + ["B", "7s", "R", "Nh"]


def _damage(record: dict, rng) -> None:
    """One small damage a real record might have: a card, a call, a flag, a seat changed."""
    deal = rng.choice(record["deals"])
    phases = {p["type"]: p for p in deal["phases"]}
    bidding, play = phases.get("EUCHRE_BIDDING"), phases.get("TRICK_PLAY")
    kind = rng.randrange(8)
    if kind == 0 and play and play["tricks"]:
        trick = rng.choice([t for t in play["tricks"] if t] or [[None]])
        if trick[0] is not None:
            trick[rng.randrange(len(trick))] = rng.choice(CARDS)
    elif kind == 1 and play:
        cells = [(i, j) for i, t in enumerate(play["tricks"]) for j in range(len(t))]
        if len(cells) > 1:
            (a, b), (c, d) = rng.sample(cells, 2)
            play["tricks"][a][b], play["tricks"][c][d] = play["tricks"][c][d], play["tricks"][a][b]
    elif kind == 2 and bidding and bidding["calls"]:
        bidding["calls"][rng.randrange(len(bidding["calls"]))] = rng.choice(["Pass", "Order", "s", "h", "c", "d", "n"])
    elif kind == 3 and bidding:
        bidding["isAlone"] = not bidding.get("isAlone", False)
    elif kind == 4 and bidding:
        bidding["discard"] = rng.choice(CARDS[:24])
    elif kind == 5:
        deal["initialState"]["dealer"] = rng.randrange(4)
    elif kind == 6 and bidding:
        bidding["aloneDefender"] = rng.randrange(4)
    elif kind == 7 and play and play["tricks"]:
        play["tricks"].pop(rng.randrange(len(play["tricks"])))


def test_damaged_records_give_cases_the_reference_passes_by_failing_where_the_damage_is(tmp_path):
    """Damage sound records at random (seeded); whatever the check finds, the case it writes
    must pass on the reference: a sound one by its expectations, a defective one by failing
    exactly where the record is impossible."""
    import random
    rng = random.Random(2024)
    sources = sorted(p for p in FIXTURES.glob("*.egn") if not p.name.startswith(("defect-", "invalid-", "unsupported-")))
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for i in range(40):
        record = json.loads(rng.choice(sources).read_text())
        for _ in range(rng.randrange(1, 3)):
            _damage(record, rng)
        (damaged / f"d{i:02d}.egn").write_text(json.dumps(record))
    out = tmp_path / "cases"
    result = run("egn", "check", "--json", "-o", str(out), *sorted(map(str, damaged.glob("*.egn"))))
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(reports) == 40 and all(r["kind"] in set(KINDS) | {None} for r in reports), result.stderr
    assert sum(r["kind"] is not None for r in reports) >= 20
    written = [r for r in reports if r["case"]]
    assert len(written) >= 30
    report = tmp_path / "report.jsonl"
    check = run("check", "--engine", "reference", "--corpus", str(out), "--json", str(report))
    assert check.returncode == 0, check.stdout + check.stderr
