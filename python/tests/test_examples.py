"""The examples keep working: the PPO self-play example's pieces, and one short run of it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import jax
import numpy as np

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ppo = load("ppo_selfplay")


def test_advantages_carry_the_final_reward_back_to_every_decision():
    values = np.array([0.1, 0.2, 0.3], np.float32)
    advantages, returns = ppo.advantages_of(values, 1.0, gamma=1.0, lam=1.0)
    np.testing.assert_allclose(advantages, [0.9, 0.8, 0.7], rtol=1e-6)
    np.testing.assert_allclose(returns, [1.0, 1.0, 1.0], rtol=1e-6)
    # With λ < 1 the last decision still sees the reward, earlier ones less of it.
    advantages, _ = ppo.advantages_of(values, 1.0, gamma=1.0, lam=0.5)
    np.testing.assert_allclose(advantages[-1], 0.7, rtol=1e-6)
    assert advantages[0] < 0.9


def test_the_policy_never_picks_a_masked_action_and_its_log_probabilities_are_normalised():
    params = jax.device_get(ppo.init_params(jax.random.PRNGKey(0), 12, 30, 16))
    rng = np.random.default_rng(0)
    obs = rng.random((64, 12), dtype=np.float32)
    mask = rng.random((64, 30)) < 0.2
    mask[:, 7] = True
    for _ in range(20):
        actions, log_probs, values = ppo.act(params, obs, mask, rng)
        assert mask[np.arange(64), actions].all()
        assert values.shape == (64,)
    log_policy = ppo.masked_log_policy(params, obs, mask, np)
    np.testing.assert_allclose(np.exp(log_policy).sum(axis=1), 1.0, rtol=1e-5)
    assert (np.exp(log_policy)[~mask] == 0).all()
    # The JAX loss sees the same policy as the numpy actor.
    np.testing.assert_allclose(
        np.asarray(ppo.masked_log_policy(jax.tree_util.tree_map(jax.numpy.asarray, params), obs, mask))[mask],
        log_policy[mask],
        rtol=1e-4,
        atol=1e-5,
    )


def test_a_short_self_play_run_trains_and_is_evaluated(tmp_path):
    args = ppo.parse_args(
        [
            "--game", "pandoria", "--players", "2", "--envs", "2", "--max-updates", "2",
            "--minibatch", "64", "--eval-every", "1", "--eval-games", "2", "--final-games", "2",
            "--out", str(tmp_path / "curve"),
        ]
    )
    curve, final = ppo.train(args)
    assert [update for update, *_ in curve] == [0, 1, 2]
    assert [games for _, games, *_ in curve] == [0, 2, 4]
    assert set(final) == {"random", "greedy"}
    for trained, uniform in final.values():
        assert 0.0 <= trained <= 1.0 and 0.0 <= uniform <= 1.0
    assert (tmp_path / "curve.csv").read_text().count("\n") == 4
    assert "<svg" in (tmp_path / "curve.svg").read_text()


def test_no_training_time_means_no_update():
    args = ppo.parse_args(
        ["--game", "pandoria", "--players", "2", "--envs", "1", "--minutes", "0", "--eval-games", "1", "--final-games", "1"]
    )
    curve, _ = ppo.train(args)
    assert [update for update, *_ in curve] == [0]
