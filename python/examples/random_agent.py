"""A random agent: every seat of a PettingZoo environment picks uniformly among its legal
actions (the mask). Prints each episode's rewards and the steps per second.

    python python/examples/random_agent.py --game valdora --players 4 --episodes 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tabletop.pettingzoo import env as make_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="valdora")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make_env(args.game, players=args.players)
    rng = np.random.default_rng(args.seed)
    env.reset(seed=args.seed)
    for episode in range(args.episodes):
        if episode:
            env.reset()
        steps, start = 0, time.perf_counter()
        returns = {agent: 0.0 for agent in env.possible_agents}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            returns[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
        seconds = time.perf_counter() - start
        print(f"episode {episode}: {steps} steps, {steps / seconds:,.0f} steps/s, rewards {returns}")
    env.close()


if __name__ == "__main__":
    main()
