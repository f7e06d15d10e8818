"""Determinism across front ends: a record made in Python replays to the same outcome in
the `tabletop` command (`replay`, and the engine line protocol)."""

from __future__ import annotations

import json
import subprocess

import tabletop
from conftest import PLAYERS, play_randomly


def played_record(name: str, seed: int) -> tabletop.Game:
    game = tabletop.new_game(name, players=PLAYERS[name], seed=seed)
    play_randomly(game, seed=seed)
    return game


def test_tabletop_replay_prints_the_same_outcome(name, cli, tmp_path):
    game = played_record(name, seed=11)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(game.record()))
    out = subprocess.run([cli, "replay", path], check=True, capture_output=True, text=True).stdout
    table = out[out.rindex("\noutcome\n"):].splitlines()
    rows = {}
    for line in table:
        cells = line.split()
        if len(cells) >= 3 and all(c.lstrip("-").isdigit() for c in cells[:3]):
            rows[int(cells[0])] = (int(cells[1]), int(cells[2]))
    expected = {s["seat"]: (s["rank"], s["score"]) for s in game.outcome()["seats"]}
    assert rows == expected


def test_the_engine_protocol_reaches_the_same_outcome(name, cli):
    game = played_record(name, seed=12)
    record = game.record()
    lines = [{"cmd": "new", "game": name, "players": PLAYERS[name], "seed": record["seed"]}]
    lines += [{"cmd": "apply", "id": 1, "action": a} for a in record["actions"]]
    lines += [{"cmd": "outcome", "id": 1}, {"cmd": "record", "id": 1}]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    out = subprocess.run([cli, "engine"], input=text, check=True, capture_output=True, text=True)
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    assert not [r for r in replies if "error" in r]
    assert replies[-2]["outcome"] == game.outcome()
    assert replies[-1]["record"] == record
