"""Environment steps per second from Python, one core, side by side with OpenSpiel's Python
loop; then tabletop.ray.simulate on 1 and 2 workers. Run by scripts/bench-python.

Every loop plays uniformly random games to their end and counts the actions applied. "with
obs + mask": before each action the mover's observation tensor and legal-action mask are
written (into reused arrays where the API allows it), as a learning loop reads them.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

import numpy as np

import tabletop


def tabletop_loop(name, players, seconds, with_obs):
    rng = random.Random(1)
    steps = games = 0
    probe = tabletop.new_game(name, players=players)
    obs = np.empty(probe.observation_len, dtype=np.float32)
    mask = np.empty(probe.action_count, dtype=np.int8)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = tabletop.new_game(name, players=players, seed=games)
        while not game.is_over:
            if with_obs:
                game.observe(game.to_move, out=obs)
                game.legal_mask(out=mask)
            legal = game.legal_indices()
            game.apply_index(int(legal[rng.randrange(len(legal))]))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def pettingzoo_loop(name, players, seconds):
    from tabletop.pettingzoo import raw_env

    rng = random.Random(1)
    env = raw_env(name, players=players)
    steps = games = 0
    start = time.perf_counter()
    env.reset(seed=0)
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        games += 1
        env.reset()
    return steps, games, time.perf_counter() - start


def openspiel_loop(name, seconds, with_obs):
    import pyspiel

    rng = random.Random(1)
    game = pyspiel.load_game(name)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if with_obs:
                player = state.current_player()
                state.observation_tensor(player)
                state.legal_actions_mask(player)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def ray_speedup(name, players, games):
    import ray

    import tabletop.ray as tray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    tray.simulate(name, 4, players=players, workers=2)  # warm the workers up
    rates = {}
    for workers in (1, 2):
        summary = tray.simulate(name, games, players=players, seed=1, workers=workers)
        rates[workers] = summary["games_per_s"]
    ray.shutdown()
    return rates


def row(label, steps, games, seconds):
    print(f"| {label} | {steps / seconds:,.0f} | {games} games, {steps:,} steps, {seconds:.1f} s |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--ray-games", type=int, default=2000)
    parser.add_argument("--skip-openspiel", action="store_true")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}, tabletop {tabletop.games()}")
    print()
    print("| loop (random games to the end, one core) | steps/s | run |")
    print("| --- | ---: | --- |")
    for name, players in (("valdora", 4), ("valley", 4), ("pandoria", 4)):
        row(f"tabletop {name} {players}p, with obs + mask", *tabletop_loop(name, players, args.seconds, True))
    row("tabletop valdora 4p, bare (legal_indices, apply_index)", *tabletop_loop("valdora", 4, args.seconds, False))
    row("tabletop valdora 4p, PettingZoo raw_env AEC loop (last, step)", *pettingzoo_loop("valdora", 4, args.seconds))
    if not args.skip_openspiel:
        for name in ("connect_four", "chess"):
            row(f"OpenSpiel {name}, with obs + mask", *openspiel_loop(name, args.seconds, True))
            row(f"OpenSpiel {name}, bare (legal_actions, apply_action)", *openspiel_loop(name, args.seconds, False))
    print()
    rates = ray_speedup("valdora", 4, args.ray_games)
    print(f"tabletop.ray.simulate valdora 4p, {args.ray_games} games: 1 worker {rates[1]:,.1f} games/s, "
          f"2 workers {rates[2]:,.1f} games/s: {rates[2] / rates[1]:.2f}x")
    print(json.dumps({"ray_games_per_s": rates}))


if __name__ == "__main__":
    main()
