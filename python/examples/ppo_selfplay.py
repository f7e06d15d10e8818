"""CleanRL-style PPO with invalid-action masking, trained by self-play on a tabletop game.

One policy plays every seat of `--envs` games at once, through the PettingZoo AEC
environment (`tabletop.pettingzoo`); each seat's decisions are a trajectory of their own,
rewarded when the game ends. The agent and the update follow CleanRL's `ppo.py`: separate
actor and critic MLPs (tanh, orthogonal initialisation), generalised advantage estimation,
the clipped surrogate objective with a value loss and an entropy bonus, Adam with gradient
clipping and a learning rate annealed to zero; written with JAX and optax. Illegal actions
get a logit of -1e9 before the softmax, the masking of Huang and Ontañón, "A Closer Look at
Invalid Action Masking in Policy Gradient Algorithms" (2020), which CleanRL uses.

The policy never trains against anyone but itself. Every `--eval-every` updates it plays
seat 0 of `--eval-games` games against our `random` bots (`tabletop.gym`); the learning
curve of that win rate is printed, and written as CSV and SVG with `--out`, beside the win
rate of a uniformly random agent in the same seat and games. At the end the policy also
plays against our `greedy` bots.

    pip install -r python/examples/requirements.txt
    python python/examples/ppo_selfplay.py --minutes 10 --out docs/python-learning
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax

from tabletop.gym import TabletopGym
from tabletop.pettingzoo import raw_env


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="valdora")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=10.0, help="training time")
    parser.add_argument("--max-updates", type=int, default=None, help="stop after this many updates")
    parser.add_argument("--envs", type=int, default=8, help="games played at once per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--gae-lambda", type=float, default=1.0)
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument(
        "--reward",
        choices=["zero_sum", "margin", "win_loss"],
        default="zero_sum",
        help="the environment's reward at the end of a game (zero_sum: the one for self-play)",
    )
    parser.add_argument("--reward-scale", type=float, default=0.02, help="rewards are multiplied by this")
    parser.add_argument("--eval-every", type=int, default=5, help="updates between evaluations")
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--final-games", type=int, default=100, help="games of the final evaluation")
    parser.add_argument("--out", type=Path, default=None, help="write OUT.csv and OUT.svg")
    return parser.parse_args(argv)


# ---- The agent: CleanRL's actor and critic, as plain JAX functions of a parameter tree.


def init_params(key, observations: int, actions: int, hidden: int):
    def layer(key, n_in, n_out, scale):
        init = jax.nn.initializers.orthogonal(scale)
        return {"w": init(key, (n_in, n_out), jnp.float32), "b": jnp.zeros(n_out, jnp.float32)}

    keys = jax.random.split(key, 6)
    relu_gain = float(np.sqrt(2))
    return {
        "actor": [
            layer(keys[0], observations, hidden, relu_gain),
            layer(keys[1], hidden, hidden, relu_gain),
            layer(keys[2], hidden, actions, 0.01),
        ],
        "critic": [
            layer(keys[3], observations, hidden, relu_gain),
            layer(keys[4], hidden, hidden, relu_gain),
            layer(keys[5], hidden, 1, 1.0),
        ],
    }


# The logit of an illegal action: its probability is 0 in float32.
MASKED_LOGIT = -1e9


def mlp(layers, x, xp=jnp):
    """The network with JAX (training) or numpy (`xp=np`, acting: a JAX call costs
    milliseconds of dispatch, a game thousands of decisions)."""
    for layer in layers[:-1]:
        x = xp.tanh(x @ layer["w"] + layer["b"])
    return x @ layers[-1]["w"] + layers[-1]["b"]


def masked_log_policy(params, obs, mask, xp=jnp):
    """log π(·|obs) with illegal actions at zero probability."""
    logits = xp.where(mask, mlp(params["actor"], obs, xp), MASKED_LOGIT)
    logits = logits - logits.max(axis=1, keepdims=True)
    return logits - xp.log(xp.exp(logits).sum(axis=1, keepdims=True))


def act(params, obs, mask, rng: np.random.Generator):
    """Sampled actions (Gumbel-max), their log-probabilities and the critic's values, for a
    batch, with the parameters as numpy arrays."""
    log_policy = masked_log_policy(params, obs, mask, np)
    action = np.argmax(log_policy + rng.gumbel(size=log_policy.shape), axis=1)
    log_prob = log_policy[np.arange(len(action)), action]
    return action, log_prob, mlp(params["critic"], obs, np)[:, 0]


def ppo_loss(params, batch, clip, ent_coef, vf_coef):
    log_policy = masked_log_policy(params, batch["obs"], batch["mask"])
    new_log_prob = jnp.take_along_axis(log_policy, batch["action"][:, None], axis=1)[:, 0]
    log_ratio = new_log_prob - batch["log_prob"]
    ratio = jnp.exp(log_ratio)
    advantage = batch["advantage"]
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    policy_loss = jnp.maximum(-advantage * ratio, -advantage * jnp.clip(ratio, 1 - clip, 1 + clip)).mean()
    value = mlp(params["critic"], batch["obs"])[:, 0]
    value_loss = 0.5 * ((value - batch["return"]) ** 2).mean()
    # Entropy over the legal actions only (the illegal ones have probability 0).
    probability = jnp.exp(log_policy)
    entropy = -jnp.sum(jnp.where(batch["mask"], probability * log_policy, 0.0), axis=1).mean()
    approx_kl = ((ratio - 1) - log_ratio).mean()
    loss = policy_loss - ent_coef * entropy + vf_coef * value_loss
    return loss, {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy, "approx_kl": approx_kl}


def make_optimizer(args):
    return optax.chain(
        optax.clip_by_global_norm(args.max_grad_norm),
        optax.inject_hyperparams(optax.adam)(learning_rate=args.lr, eps=1e-5),
    )


def make_update(args, optimizer):
    @jax.jit
    def update(params, opt_state, batch):
        grads, stats = jax.grad(ppo_loss, has_aux=True)(params, batch, args.clip, args.ent_coef, args.vf_coef)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, stats

    return update


# ---- Self-play rollouts.


def advantages_of(values: np.ndarray, final_reward: float, gamma: float, lam: float):
    """GAE over one seat's trajectory whose only reward comes after its last decision."""
    advantages = np.zeros_like(values)
    next_value, running = 0.0, 0.0
    for t in range(len(values) - 1, -1, -1):
        reward = final_reward if t == len(values) - 1 else 0.0
        delta = reward + gamma * next_value - values[t]
        running = delta + gamma * lam * running
        advantages[t] = running
        next_value = values[t]
    return advantages, advantages + values


class SelfPlay:
    """`--envs` games, every seat played by the current policy, in lockstep: one forward
    pass a step for every game still running (padded to a fixed batch, one compilation)."""

    def __init__(self, args):
        self.args = args
        self.envs = [
            raw_env(args.game, args.players, reward=args.reward) for _ in range(args.envs)
        ]
        first = self.envs[0]
        self.observations = first.observation_space(first.possible_agents[0])["observation"].shape[0]
        self.actions = first.action_space(first.possible_agents[0]).n
        self.games = 0

    def play(self, params, rng: np.random.Generator):
        """One game in every environment, with the parameters as numpy arrays; returns the
        batch of every seat's decisions."""
        args, envs = self.args, self.envs
        seats = len(envs[0].possible_agents)
        trajectories = [[[] for _ in range(seats)] for _ in envs]
        rewards = [None] * len(envs)
        for env in envs:
            env.reset(seed=args.seed * 1_000_000 + self.games)
            self.games += 1
        obs = np.zeros((len(envs), self.observations), np.float32)
        mask = np.ones((len(envs), self.actions), bool)
        running = list(range(len(envs)))
        while running:
            for e in running:
                seen = envs[e].observe(envs[e].agent_selection)
                obs[e], mask[e] = seen["observation"], seen["action_mask"]
            actions, log_probs, values = act(params, obs, mask, rng)
            still = []
            for e in running:
                env = envs[e]
                seat = env.possible_agents.index(env.agent_selection)
                trajectories[e][seat].append((obs[e].copy(), mask[e].copy(), actions[e], log_probs[e], values[e]))
                env.step(int(actions[e]))
                if env.game.is_over:
                    rewards[e] = [env.rewards[agent] * args.reward_scale for agent in env.possible_agents]
                else:
                    still.append(e)
            running = still
            mask[:] = True  # the rows of finished games stay well-formed
        return self.batch(trajectories, rewards)

    def batch(self, trajectories, rewards):
        columns = {"obs": [], "mask": [], "action": [], "log_prob": [], "advantage": [], "return": []}
        for game, game_rewards in zip(trajectories, rewards):
            for steps, reward in zip(game, game_rewards):
                if not steps:
                    continue
                obs, mask, action, log_prob, value = map(np.array, zip(*steps))
                advantage, ret = advantages_of(value.astype(np.float32), reward, self.args.gamma, self.args.gae_lambda)
                for name, column in zip(columns, (obs, mask, action, log_prob, advantage, ret)):
                    columns[name].append(column)
        return {name: np.concatenate(parts) for name, parts in columns.items()}


# ---- Evaluation against our bots.


def win_rate(args, opponents: str, games: int, choose, seed: int) -> float:
    """Seat 0's share of wins (shared first places count) over `games` games against
    `opponents`, deciding with `choose(observation, mask) -> action`."""
    env = TabletopGym(args.game, players=args.players, seat=0, opponents=opponents)
    wins = 0
    for game in range(games):
        obs, info = env.reset(seed=seed + game)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(choose(obs["observation"], obs["action_mask"]))
            done = terminated or truncated
        seats = (info.get("outcome") or {}).get("seats", [])
        wins += any(s["seat"] == 0 and s["rank"] == 1 for s in seats)
    return wins / games


def policy_chooser(params, seed: int):
    """The policy (parameters as numpy arrays) deciding one observation at a time."""
    rng = np.random.default_rng(seed)

    def choose(observation, mask):
        action, _, _ = act(params, observation[None, :], mask[None, :].astype(bool), rng)
        return int(action[0])

    return choose


def random_chooser(seed: int):
    rng = np.random.default_rng(seed)
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


# ---- Training.


def train(args):
    selfplay = SelfPlay(args)
    params = init_params(jax.random.PRNGKey(args.seed), selfplay.observations, selfplay.actions, args.hidden)
    optimizer = make_optimizer(args)
    opt_state = optimizer.init(params)
    update = make_update(args, optimizer)
    eval_seed = 10_000_000
    baseline = win_rate(args, "random", args.eval_games, random_chooser(args.seed), eval_seed)
    print(f"uniformly random agent in seat 0 against random bots: {baseline:.0%} of {args.eval_games} games")

    curve, start, updates, decisions, playing = [], time.perf_counter(), 0, 0, 0.0
    rng = np.random.default_rng(args.seed)

    def evaluate():
        acting = jax.device_get(params)
        rate = win_rate(args, "random", args.eval_games, policy_chooser(acting, args.seed + updates), eval_seed)
        curve.append((updates, selfplay.games, time.perf_counter() - start, rate))
        print(
            f"update {updates:4d}, {selfplay.games:5d} self-play games, {decisions:8d} decisions, "
            f"{time.perf_counter() - start:6.0f} s ({playing:.0f} s playing): wins {rate:.0%} against random bots",
            flush=True,
        )

    evaluate()
    while time.perf_counter() - start < args.minutes * 60 and updates != args.max_updates:
        played = time.perf_counter()
        batch = selfplay.play(jax.device_get(params), rng)
        playing += time.perf_counter() - played
        decisions += len(batch["action"])
        # The learning rate falls linearly to zero over the training time (CleanRL's anneal_lr).
        done = (time.perf_counter() - start) / (args.minutes * 60)
        opt_state[1].hyperparams["learning_rate"] = jnp.float32(args.lr * max(0.0, 1.0 - done))
        for _ in range(args.epochs):
            order = rng.permutation(len(batch["action"]))
            for first in range(0, len(order) - args.minibatch + 1, args.minibatch):
                rows = order[first : first + args.minibatch]
                params, opt_state, stats = update(params, opt_state, {k: v[rows] for k, v in batch.items()})
        updates += 1
        if updates % args.eval_every == 0:
            evaluate()
            print(
                "  " + ", ".join(f"{name} {float(value):.4f}" for name, value in stats.items()),
                flush=True,
            )
    if curve[-1][0] != updates:
        evaluate()

    acting = jax.device_get(params)
    final = {
        opponents: (
            win_rate(args, opponents, args.final_games, policy_chooser(acting, args.seed), 20_000_000),
            win_rate(args, opponents, args.final_games, random_chooser(args.seed + 1), 20_000_000),
        )
        for opponents in ("random", "greedy")
    }
    for opponents, (trained, uniform) in final.items():
        print(
            f"final, {args.final_games} games against {opponents} bots: trained policy {trained:.1%}, "
            f"uniformly random agent {uniform:.1%}"
        )
    if args.out:
        write_curve(args, args.out, curve, baseline)
    return curve, final


def write_curve(args, out: Path, curve, baseline: float):
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".csv"), "w") as f:
        f.write("update,self_play_games,seconds,win_rate_vs_random\n")
        f.writelines(f"{u},{g},{s:.1f},{w:.4f}\n" for u, g, s, w in curve)
    width, height, pad = 640, 360, 48
    last = max(s for _, _, s, _ in curve) or 1.0
    x = lambda s: pad + (width - 2 * pad) * s / last  # noqa: E731
    y = lambda r: height - pad - (height - 2 * pad) * r  # noqa: E731
    points = " ".join(f"{x(s):.1f},{y(w):.1f}" for _, _, s, w in curve)
    ticks = "".join(
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#ddd"/>'
        f'<text x="{pad - 6}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="11">{t:.0%}</text>'
        for t in (0, 0.25, 0.5, 0.75, 1.0)
    )
    minutes = "".join(
        f'<text x="{x(m * 60):.1f}" y="{height - pad + 16}" text-anchor="middle" font-size="11">{m}</text>'
        for m in range(0, int(last // 60) + 1, max(1, int(last // 60) // 5 or 1))
    )
    out.with_suffix(".svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>{ticks}{minutes}'
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{args.game.capitalize()}, {args.players} players: '
        f"PPO self-play, win rate in seat 0 against random bots</text>"
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(baseline):.1f}" y2="{y(baseline):.1f}" '
        f'stroke="#d55e00" stroke-dasharray="6 4"/>'
        f'<text x="{width - pad}" y="{y(baseline) - 6:.1f}" text-anchor="end" font-size="11" '
        f'fill="#d55e00">uniformly random agent {baseline:.0%}</text>'
        f'<polyline points="{points}" fill="none" stroke="#0072b2" stroke-width="2"/>'
        f'<text x="{width / 2}" y="{height - 10}" text-anchor="middle" font-size="12">'
        f"minutes of training ({args.eval_games} evaluation games a point)</text></svg>\n"
    )


if __name__ == "__main__":
    train(parse_args())
