"""The PettingZoo environments pass PettingZoo's API test; the Gymnasium wrapper passes
Gymnasium's env checker and plays whole games against our bots."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import tabletop  # noqa: E402
from conftest import PLAYERS  # noqa: E402
from tabletop.gym import TabletopGym  # noqa: E402
from tabletop.pettingzoo import env as make_env  # noqa: E402


def test_api_test(name):
    api_test(make_env(name, players=PLAYERS[name]), num_cycles=300)


@pytest.mark.parametrize("reward", ["win_loss", "margin", "zero_sum"])
def test_a_whole_game_rewards_the_outcome(reward):
    env = make_env("pandoria", players=2, reward=reward)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    returns = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        obs, r, terminated, truncated, _ = env.last()
        returns[agent] += r
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.game
    outcome = game.outcome()
    scores = {s["seat"]: s["score"] for s in outcome["seats"]}
    for seat, agent in enumerate(env.possible_agents):
        rank = next(s["rank"] for s in outcome["seats"] if s["seat"] == seat)
        others = [v for k, v in scores.items() if k != seat]
        if reward == "win_loss":
            assert returns[agent] == (1.0 if rank == 1 else -1.0)
        elif reward == "zero_sum":
            assert returns[agent] == pytest.approx(scores[seat] - sum(others) / len(others))
        else:
            assert returns[agent] == scores[seat] - max(v for k, v in scores.items() if k != seat)
    if reward == "zero_sum":
        assert sum(returns.values()) == pytest.approx(0.0)


def test_reset_with_a_seed_repeats_the_episode():
    env = make_env("valdora", players=3)
    env.reset(seed=9)
    first = env.unwrapped.game.view(None)
    env.reset(seed=9)
    assert env.unwrapped.game.view(None) == first
    env.reset()
    assert env.unwrapped.game.view(None) != first


def test_bad_settings_are_refused():
    with pytest.raises(tabletop.BadConfig):
        make_env("valdora", players=9)
    with pytest.raises(ValueError):
        make_env("valdora", reward="elo")


def test_gymnasium_wrapper_passes_the_env_checker():
    check_env(TabletopGym("pandoria", players=2, opponents="random", illegal="lose"), skip_render_check=True)
    env = TabletopGym("pandoria", players=2, opponents="random")
    env.reset(seed=0)
    with pytest.raises(tabletop.IllegalAction):
        env.step(next(i for i, ok in enumerate(env.action_masks()) if not ok))


def test_gymnasium_wrapper_plays_against_bots():
    env = TabletopGym("pandoria", players=2, seat=1, opponents="greedy")
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.unwrapped.game.to_move == 1
    rng = np.random.default_rng(3)
    done, steps = False, 0
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        steps += 1
    assert "outcome" in info and reward in (1.0, -1.0)
    with pytest.raises(ValueError):
        TabletopGym("valdora", opponents=["random", "greedy"])
    with pytest.raises(tabletop.BadConfig):
        TabletopGym("valdora", opponents="wizard")
