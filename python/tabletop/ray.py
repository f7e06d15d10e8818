"""Simulations and arenas on Ray: seed ranges fanned out to Ray tasks, the parts merged
into the very report `tabletop simulate --json` and `tabletop arena --json` print for the
same games, whatever the number of workers.

Ray is initialised locally (`ray.init()`) unless it already is; to run on a cluster, call
`ray.init(address="auto")` (or `ray.init("ray://HEAD:10001")`) first, or set `RAY_ADDRESS`,
with the `tabletop` package installed on every node (docs/python.md).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import ray

from tabletop import _native

__all__ = ["simulate", "arena", "split"]


def split(games: int, workers: int) -> List[Tuple[int, int]]:
    """`games` as contiguous ranges, one per worker (at most one worker per game), in
    order: the split `tabletop simulate --threads` makes."""
    workers = max(1, min(workers, games))
    return [(games * t // workers, games * (t + 1) // workers) for t in range(workers)]


def _ensure_ray() -> None:
    if not ray.is_initialized():
        ray.init(address=os.environ.get("RAY_ADDRESS"), log_to_driver=False)


def _workers(workers: Optional[int]) -> int:
    if workers is not None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        return workers
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _check_games(games: int, seed: int) -> None:
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if seed < 0 or seed + games - 1 > 2**64 - 1:
        raise ValueError(
            f"seed {seed} with {games} games would run past the largest seed {2**64 - 1}"
        )


@ray.remote(num_cpus=1)
def _simulate_part(game: str, start: int, end: int, options: Dict[str, Any]) -> str:
    return _native.simulate_part(game, start, end, **options)


@ray.remote(num_cpus=1)
def _arena_part(game: str, bots: List[str], start: int, end: int, options: Dict[str, Any]) -> str:
    return _native.arena_part(game, bots, start, end, **options)


def simulate(
    game: str,
    games: int = 1000,
    *,
    bots: Union[None, str] = None,
    players: Optional[int] = None,
    seed: int = 0,
    workers: Optional[int] = None,
    turn_cap: Optional[int] = None,
    data: Optional[Union[str, os.PathLike]] = None,
) -> Dict[str, Any]:
    """Uniformly random games `seed .. seed + games - 1` of `game` over Ray tasks; returns
    the summary `tabletop simulate GAME --json` prints for the same games (only `seconds`,
    the rates and `threads`, here the workers, differ).

    `bots` is None or "random": a simulation plays uniformly random moves, as the
    command does; bots of other kinds play in `arena`. `workers` defaults to the CPUs of
    the Ray cluster.
    """
    if bots not in (None, "random"):
        raise ValueError(
            f"simulate plays uniformly random games (bots=None or 'random'), not {bots!r}: "
            "use tabletop.ray.arena for other bots"
        )
    _check_games(games, seed)
    _ensure_ray()
    requested = _workers(workers)
    ranges = split(games, requested)
    options = {"seed": seed, "players": players, "turn_cap": turn_cap,
               "data": None if data is None else os.fspath(data)}
    # A bad config is refused here, once, before any task starts.
    _native.simulate_part(game, 0, 0, **options)
    start = time.perf_counter()
    parts = ray.get([_simulate_part.remote(game, a, b, options) for a, b in ranges])
    seconds = time.perf_counter() - start
    return json.loads(
        _native.simulate_summary(
            game, parts, workers=len(ranges), workers_requested=requested,
            seconds=seconds, **options,
        )
    )


def arena(
    game: str,
    bots: Sequence[str],
    games: int = 100,
    *,
    seed: int = 0,
    workers: Optional[int] = None,
    data: Optional[Union[str, os.PathLike]] = None,
) -> Dict[str, Any]:
    """`bots` (one spec a seat: "random", "greedy", "ismcts:iters=1000", …) against each
    other over games `seed ..` with rotated seats, on Ray tasks; returns the report
    `tabletop arena --json` prints for the same games (only the timings and `threads`,
    here the workers, differ)."""
    bots = [str(b) for b in bots]
    if not bots:
        raise ValueError("bots must name one bot a seat")
    _check_games(games, seed)
    _ensure_ray()
    requested = _workers(workers)
    ranges = split(games, requested)
    options = {"seed": seed, "data": None if data is None else os.fspath(data)}
    _native.arena_part(game, bots, 0, 0, **options)
    start = time.perf_counter()
    parts = ray.get([_arena_part.remote(game, bots, a, b, options) for a, b in ranges])
    seconds = time.perf_counter() - start
    return json.loads(
        _native.arena_report(
            game, bots, parts, seed=seed, workers=len(ranges),
            workers_requested=requested, seconds=seconds,
        )
    )
