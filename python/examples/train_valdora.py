"""Policy-gradient self-improvement on Valdora with action masking, against random bots.

A masked softmax policy, linear in the observation (logits = W·obs + b over the 486
actions; illegal actions get probability 0), is trained with REINFORCE (CleanRL-style
batches of whole episodes, advantages normalised within the batch, Adam) from seat 0 of a
3-player game whose other seats are played by our `random` bot (tabletop.gym). The reward
is the final score margin (score minus the best other score). It prints the learning curve
(win rate and margin over the last episodes) and writes it as CSV and SVG, with the win
rate of a uniformly random agent in the same seat as the reference.

numpy only: PyPI's torch wheel for Linux pulls in about 2.5 GB of CUDA libraries, so this
example keeps to a policy whose gradient is written out by hand (docs/python.md).

    python python/examples/train_valdora.py --minutes 4 --out docs/python-learning
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from tabletop.gym import TabletopGym


class MaskedLinearPolicy:
    def __init__(self, observations: int, actions: int, rng: np.random.Generator):
        self.W = np.zeros((actions, observations), dtype=np.float32)
        self.b = np.zeros(actions, dtype=np.float32)
        self.rng = rng
        # Adam's moments.
        self.m = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self.v = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self.t = 0

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.W @ obs + self.b
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        p = self.probabilities(obs, mask)
        return int(self.rng.choice(len(p), p=p))

    def gradient(self, episode, advantage: float):
        """The gradient of advantage · Σ log π(a|s) over one episode's steps."""
        obs = np.stack([o for o, _, _ in episode])
        masks = np.stack([m for _, m, _ in episode]).astype(bool)
        actions = np.array([a for _, _, a in episode])
        logits = obs @ self.W.T + self.b
        logits = np.where(masks, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        p[np.arange(len(actions)), actions] -= 1.0  # p - onehot = -∇logits log π
        dlogits = -p * advantage
        return dlogits.T @ obs, dlogits.sum(axis=0)

    def ascend(self, grads, lr: float, beta1=0.9, beta2=0.999, eps=1e-8):
        self.t += 1
        for i, (param, g) in enumerate(zip((self.W, self.b), grads)):
            self.m[i] = beta1 * self.m[i] + (1 - beta1) * g
            self.v[i] = beta2 * self.v[i] + (1 - beta2) * g * g
            m_hat = self.m[i] / (1 - beta1**self.t)
            v_hat = self.v[i] / (1 - beta2**self.t)
            param += lr * m_hat / (np.sqrt(v_hat) + eps)


def play_episode(env, policy, seed):
    obs, info = env.reset(seed=seed)
    episode, done = [], False
    while not done:
        action = policy.act(obs["observation"], obs["action_mask"])
        episode.append((obs["observation"], obs["action_mask"], action))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    outcome = info.get("outcome") or {"seats": []}
    won = any(s["seat"] == env.seat and s["rank"] == 1 for s in outcome["seats"])
    return episode, reward, won


def random_agent_win_rate(env, episodes, rng):
    wins = 0
    for i in range(episodes):
        obs, info = env.reset(seed=10_000_000 + i)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += any(s["seat"] == env.seat and s["rank"] == 1 for s in info["outcome"]["seats"])
    return wins / episodes


def write_svg(path: Path, curve, baseline: float, players: int):
    width, height, pad = 640, 360, 48
    last = max(e for e, _, _ in curve) or 1
    x = lambda e: pad + (width - 2 * pad) * e / last  # noqa: E731
    y = lambda r: height - pad - (height - 2 * pad) * r  # noqa: E731
    points = " ".join(f"{x(e):.1f},{y(w):.1f}" for e, w, _ in curve)
    ticks = "".join(
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#ddd"/>'
        f'<text x="{pad - 6}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="11">{t:.0%}</text>'
        for t in (0, 0.25, 0.5, 0.75, 1.0)
    )
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>{ticks}'
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">Valdora, {players} players: '
        f"win rate of the trained policy (seat 0) against random bots</text>"
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(baseline):.1f}" y2="{y(baseline):.1f}" '
        f'stroke="red" stroke-dasharray="6 4"/>'
        f'<text x="{width - pad}" y="{y(baseline) - 6:.1f}" text-anchor="end" font-size="11" '
        f'fill="red">uniformly random agent {baseline:.0%}</text>'
        f'<polyline points="{points}" fill="none" stroke="#2a6fb0" stroke-width="2"/>'
        f'<text x="{width / 2}" y="{height - 12}" text-anchor="middle" font-size="12">'
        f"training episodes (win rate over the last 50)</text></svg>\n"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--lr", type=float, default=0.001)
    parser.add_argument("--baseline-episodes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="write OUT.csv and OUT.svg")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    env = TabletopGym("valdora", players=args.players, seat=0, opponents="random", reward="margin")
    baseline = random_agent_win_rate(env, args.baseline_episodes, rng)
    print(f"uniformly random agent in seat 0: {baseline:.1%} wins over {args.baseline_episodes} games")
    policy = MaskedLinearPolicy(env.observation_space["observation"].shape[0], env.action_space.n, rng)

    start, episodes, curve, history = time.perf_counter(), 0, [], []
    while time.perf_counter() - start < args.minutes * 60:
        batch = [play_episode(env, policy, seed=args.seed * 1_000_000 + episodes + i) for i in range(args.batch)]
        episodes += len(batch)
        returns = np.array([r for _, r, _ in batch], dtype=np.float32)
        advantages = (returns - returns.mean()) / (returns.std() + 1e-6)
        grads = [np.zeros_like(policy.W), np.zeros_like(policy.b)]
        for (episode, _, _), advantage in zip(batch, advantages):
            gw, gb = policy.gradient(episode, float(advantage))
            grads[0] += gw / len(batch)
            grads[1] += gb / len(batch)
        policy.ascend(grads, args.lr)
        history += [(won, r) for _, r, won in batch]
        recent = history[-50:]
        win_rate = float(np.mean([w for w, _ in recent]))
        margin = float(np.mean([r for _, r in recent]))
        curve.append((episodes, win_rate, margin))
        print(f"{episodes:5d} episodes, {time.perf_counter() - start:6.0f} s: "
              f"win rate {win_rate:.0%}, margin {margin:+.1f} (last {len(recent)})", flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with open(args.out.with_suffix(".csv"), "w") as f:
            f.write("episodes,win_rate_last_50,margin_last_50\n")
            f.writelines(f"{e},{w:.4f},{m:.3f}\n" for e, w, m in curve)
        write_svg(args.out.with_suffix(".svg"), curve, baseline, args.players)


if __name__ == "__main__":
    main()
