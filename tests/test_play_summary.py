"""`play --games N` when a game does not end: the other games are still summed, and the
runaway game is counted with the seed that replays it (`play --games 1 --seed S`)."""

from __future__ import annotations

import random

from conformance.cli import main
from conformance.cli import play as cli
from reference_impl import selfplay
from reference_impl.resolve import resolve
from reference_impl.rules import Rules
from reference_impl.selfplay import EndlessGame, Summary, play_many, play_random_game


def test_a_runaway_game_is_counted_with_a_seed_that_replays_it(monkeypatch):
    # A bound of 8 hands: some games of Euchre (to 10) end within it, some do not.
    monkeypatch.setattr(selfplay, "MAX_HANDS", 8)
    rules = Rules(resolve("euchre"))
    summary = Summary()
    play_many(rules, 5, 40, summary)
    assert summary.games + len(summary.endless) == 40
    assert summary.games and summary.endless, (summary.games, summary.endless)
    for seed in summary.endless:
        try:
            play_random_game(rules, random.Random(seed))
        except EndlessGame:
            continue
        raise AssertionError(f"seed {seed} does not replay the runaway game")


def test_play_prints_the_summary_and_the_replay_command_and_fails(monkeypatch, capsys):
    monkeypatch.setattr(selfplay, "MAX_HANDS", 8)
    monkeypatch.setattr(cli, "MAX_HANDS", 8)
    status = main(["play", "euchre", "--games", "40", "--seed", "5", "--option", "game-target=10"])
    out, err = capsys.readouterr()
    summary = Summary()
    play_many(Rules(resolve("euchre")), 5, 40, summary)
    assert status == 1
    assert "not over after 8 hands" in out and "hands per second" in out
    replays = [line for line in err.splitlines() if "replay it with: euchre-spec play euchre --games 1 --seed" in line]
    assert [int(line.split("--seed ")[1].split()[0]) for line in replays] == summary.endless
    assert all(line.endswith("--option game-target=10") for line in replays)
