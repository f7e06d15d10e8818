"""tabletop.ray against a local Ray instance with several workers: the merged summary is
the one `tabletop simulate --json` / `tabletop arena --json` print, for any worker count."""

from __future__ import annotations

import json
import subprocess

import pytest

ray = pytest.importorskip("ray")

import tabletop  # noqa: E402
import tabletop.ray as tray  # noqa: E402

# What depends on the machine and the split, not on the games.
TIMING = {"seconds", "games_per_s", "actions_per_s", "threads", "threads_requested"}


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def without(report: dict, keys: set) -> dict:
    return {k: v for k, v in report.items() if k not in keys}


def cli_json(cli, *args) -> dict:
    out = subprocess.run([cli, *map(str, args), "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("name, players, games", [("valdora", 3, 6), ("pandoria", 2, 20), ("valley", 2, 8)])
def test_simulate_merges_the_command_summary_for_any_worker_count(cli, name, players, games):
    expected = cli_json(cli, "simulate", name, "--players", players, "--games", games, "--seed", 40, "--threads", 2)
    for workers in (1, 2, 3):
        got = tray.simulate(name, games, players=players, seed=40, workers=workers)
        assert without(got, TIMING) == without(expected, TIMING), workers
        assert got["threads"] == min(workers, games)


def test_simulate_takes_the_turn_cap(cli):
    expected = cli_json(cli, "simulate", "valdora", "--games", 4, "--seed", 2, "--turn-cap", 30)
    got = tray.simulate("valdora", 4, seed=2, turn_cap=30, workers=2)
    assert without(got, TIMING) == without(expected, TIMING)
    assert got["truncated"] == 4


def test_arena_merges_the_command_report(cli):
    bots = ["random", "greedy:lookahead=ply", "random"]
    expected = cli_json(cli, "arena", "--game", "valdora", "--bots", ",".join(bots), "--games", 6, "--seed", 5)
    per_bot = {"ms_per_decision"}
    for workers in (1, 3):
        got = tray.arena("valdora", bots, 6, seed=5, workers=workers)
        assert without(got, TIMING | {"bots"}) == without(expected, TIMING | {"bots"})
        assert [without(b, per_bot) for b in got["bots"]] == [without(b, per_bot) for b in expected["bots"]]


def test_bad_input_is_refused_before_any_task():
    with pytest.raises(tabletop.UnknownGame):
        tray.simulate("chess", 2)
    with pytest.raises(tabletop.BadConfig, match="unsupported player count"):
        tray.simulate("valdora", 2, players=9)
    with pytest.raises(tabletop.BadConfig):
        tray.arena("valdora", ["random", "wizard", "random"], 2)
    with pytest.raises(ValueError, match="arena"):
        tray.simulate("valdora", 2, bots="greedy")
    with pytest.raises(ValueError):
        tray.simulate("valdora", 0)


def test_split_covers_every_game_once():
    for games in (1, 5, 17):
        for workers in (1, 2, 3, 8):
            ranges = tray.split(games, workers)
            assert [i for a, b in ranges for i in range(a, b)] == list(range(games))
            assert len(ranges) == min(games, workers)
