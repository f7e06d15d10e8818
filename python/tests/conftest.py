"""Shared fixtures: the `tabletop` command the package is checked against, random play."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

import tabletop

ROOT = Path(__file__).resolve().parents[2]

# One player count each game plays with, kept small: games are played to their end.
PLAYERS = {"valdora": 3, "valley": 2, "pandoria": 2}


def cli_binary() -> Path:
    """The `tabletop` command: $TABLETOP_BIN, else the newest cargo build of this
    checkout (scripts/test runs cargo test, which builds target/debug/tabletop)."""
    if "TABLETOP_BIN" in os.environ:
        return Path(os.environ["TABLETOP_BIN"])
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    built = [p for p in (target / "release" / "tabletop", target / "debug" / "tabletop") if p.exists()]
    if built:
        return max(built, key=lambda p: p.stat().st_mtime)
    found = shutil.which("tabletop")
    if found is None:
        pytest.fail("no tabletop binary: run cargo build, or set TABLETOP_BIN")
    return Path(found)


@pytest.fixture(scope="session")
def cli() -> Path:
    return cli_binary()


def play_randomly(game: tabletop.Game, seed: int, max_actions: int = 100_000) -> int:
    """Plays `game` to its end with uniformly random legal actions; the actions taken."""
    rng = random.Random(seed)
    taken = 0
    while not game.is_over and taken < max_actions:
        game.apply(rng.choice(game.legal_actions()))
        taken += 1
    return taken


@pytest.fixture(params=sorted(PLAYERS))
def name(request) -> str:
    return request.param
