"""The on-disk cache of parsed and valid documents never hides a problem."""

import json

import pytest

from reference_impl import cache
from reference_impl.errors import SpecError
from reference_impl.schemas import schema_problems
from reference_impl.yaml_source import load_file, load_text

GOOD = "id: x\ntitle: t\nlist: [1, 2]\n"


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EUCHRE_SPEC_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_parsed_text_is_read_back_with_its_lines(private_cache):
    first = load_text(GOOD, "a.yaml")
    assert any(private_cache.rglob("*.json"))
    again = load_text(GOOD, "b.yaml")
    assert again.data == first.data and again.lines == first.lines and again.file == "b.yaml"


def test_a_changed_text_misses_the_cache(private_cache):
    load_text(GOOD, "a.yaml")
    assert load_text(GOOD.replace("[1, 2]", "[1, 3]"), "a.yaml").data["list"] == [1, 3]


def test_broken_yaml_is_never_cached(private_cache):
    for _ in range(2):
        with pytest.raises(SpecError):
            load_text("a: [1\n", "bad.yaml")
    assert not any(private_cache.rglob("*.json"))


def test_invalid_documents_are_reported_every_time(private_cache, tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("id: Not A Slug\n")
    for _ in range(2):
        assert schema_problems(load_file(path), "case.schema.json")


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("EUCHRE_SPEC_CACHE", "off")
    assert cache.cache_dir("parsed") is None
    assert load_text(GOOD, "a.yaml").data["id"] == "x"
    cache.write("parsed", "ab" * 32, {"x": 1})
    assert cache.read("parsed", "ab" * 32) is None


def test_a_resolved_table_is_read_back_the_same(private_cache):
    """Every variant, with and without an option: the cached resolution is the same table,
    in the same key order, with the same hash."""
    from reference_impl.catalog import variant_ids
    from reference_impl.resolve import resolve
    for variant in variant_ids():
        for options in ({}, {"game-target": 7} if variant == "euchre" else {}):
            first = resolve(variant, options)
            again = resolve(variant, options)
            assert again == first and list(again.table) == list(first.table)
            assert json.dumps(again.table) == json.dumps(first.table)
    assert any((private_cache / "resolved").glob("*/*.json")) or any((private_cache / "resolved").rglob("*.json"))


def test_a_resolution_is_not_read_by_other_code_or_schemas(private_cache, monkeypatch):
    import importlib
    resolving = importlib.import_module("reference_impl.resolve")
    resolving.resolve("euchre")
    entries = set((private_cache / "resolved").rglob("*.json"))
    monkeypatch.setattr(resolving, "_code_digest", lambda: "another version of the code")
    resolving.resolve("euchre")
    assert len(set((private_cache / "resolved").rglob("*.json")) - entries) == 1


def test_a_refused_option_is_refused_every_time(private_cache):
    from reference_impl.resolve import resolve
    for _ in range(2):
        with pytest.raises(SpecError):
            resolve("euchre", {"game-target": "many"})
    assert not any((private_cache / "resolved").rglob("*.json"))


def test_a_process_that_writes_much_prunes_the_cache_as_it_goes(private_cache, monkeypatch):
    """Pruning walks the whole cache, so it is not done every few writes; but a process that
    writes a quarter of the limit prunes, so no single process can grow the cache far past it."""
    monkeypatch.setattr(cache, "MAX_TOTAL", 40_000)
    monkeypatch.setattr(cache, "_pruned", True)            # its chance prune already spent
    monkeypatch.setattr(cache, "_written_since_prune", 0)
    entry = "x" * 1000
    for number in range(200):                              # 200 kB written, five times the limit
        cache.write("test-kind", f"{number:064x}", entry)
    entries, size = cache.usage()
    assert size <= 40_000 + 10_000 + 1_100, (entries, size)
    assert entries >= 20


@pytest.mark.parametrize("value", [
    {"data": {"title": "Écarté, à deux", "n": [1, -2, 2**63 - 1]}, "root": 1, "float": False},
    {"data": {"n": 2**70}, "root": 3, "float": False},            # past 64 bits: json writes it
    {"data": {"text": "lone \ud800"}, "root": 1, "float": False},  # orjson refuses a lone surrogate
])
def test_a_plain_answer_reads_back_exactly(private_cache, value):
    cache.write("test-kind", "ab" * 32, value, plain=True)
    assert cache.read("test-kind", "ab" * 32) == value
