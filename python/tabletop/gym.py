"""A Gymnasium single-agent environment: one seat is the agent, our bots play the others.

    >>> from tabletop.gym import TabletopGym
    >>> env = TabletopGym("valdora", players=4, seat=0, opponents="greedy")
    >>> obs, info = env.reset(seed=1)
    >>> action = int(obs["action_mask"].nonzero()[0][0])
    >>> obs, reward, terminated, truncated, info = env.step(action)

Observations are those of `tabletop.pettingzoo` (`{"observation", "action_mask"}`), also
in `info["action_mask"]`; the reward comes at the end of the game ("win_loss",
"margin" or "zero_sum", as there). The opponents decide only from what their seats may know. An
illegal action raises `tabletop.IllegalAction` (changing nothing), or with
`illegal="lose"` ends the episode with reward -1 (PettingZoo's classic convention; what
Gymnasium's env checker, which steps unmasked random actions, expects).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces

import tabletop
from tabletop._common import check_reward, final_rewards, observation_space

__all__ = ["TabletopGym"]


class TabletopGym(gymnasium.Env):
    """`name` played from `seat`; `opponents` is one bot spec for every other seat
    ("random", "greedy", "ismcts:iters=200", … as `tabletop arena` takes them) or one
    spec per seat (the agent's own entry is ignored)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        name: str,
        players: int = 4,
        *,
        seat: int = 0,
        opponents: Union[str, Sequence[str]] = "greedy",
        reward: str = "win_loss",
        illegal: str = "raise",
        config: Optional[Dict[str, Any]] = None,
        data: Optional[str] = None,
        render_mode: Optional[str] = None,
    ):
        self.reward_kind = check_reward(reward)
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self._forfeited = False
        self._settings = {"players": players, "config": config, "data": data}
        self.game = tabletop.new_game(name, **self._settings)
        if not 0 <= seat < self.game.seats:
            raise tabletop.BadSeat(f"seat {seat} does not exist; this game has seats 0..{self.game.seats}")
        self.seat = seat
        if isinstance(opponents, str):
            opponents = [opponents] * self.game.seats
        if len(opponents) != self.game.seats:
            raise ValueError(f"opponents: give one spec, or one a seat ({self.game.seats})")
        self.opponents = list(opponents)
        # Refuse a bad spec now rather than at the first reset.
        for spec in self.opponents:
            tabletop.Bot(self.game, spec)
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.action_count)
        self._bots: Dict[int, tabletop.Bot] = {}

    def _observation(self) -> Dict[str, np.ndarray]:
        if self.game.to_move == self.seat:
            mask = self.game.legal_mask()
        else:
            mask = np.zeros(self.action_space.n, dtype=np.int8)
        return {"observation": self.game.observe(self.seat), "action_mask": mask}

    def _play_opponents(self) -> None:
        while not self.game.is_over and self.game.to_move != self.seat:
            self._bots[self.game.to_move].play(self.game)

    def _finish(self):
        obs = self._observation()
        info = {"action_mask": obs["action_mask"]}
        if not self.game.is_over:
            return obs, 0.0, False, False, info
        outcome = self.game.outcome()
        info["outcome"] = outcome
        truncated = bool(outcome is None or outcome.get("truncated"))
        reward = final_rewards(outcome, self.game.seats, self.reward_kind)[self.seat]
        return obs, reward, not truncated, truncated, info

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self._forfeited = False
        game_seed = int(self.np_random.integers(0, 2**63))
        self.game = tabletop.new_game(self.game.name, seed=game_seed, **self._settings)
        self._bots = {
            s: tabletop.Bot(self.game, spec, seed=game_seed + 1 + s)
            for s, spec in enumerate(self.opponents)
            if s != self.seat
        }
        self._play_opponents()
        obs, _, _, _, info = self._finish()
        return obs, info

    def step(self, action):
        if self._forfeited:
            raise tabletop.GameOver("the episode ended with an illegal action: call reset()")
        try:
            self.game.apply_index(int(action))
        except tabletop.GameError:
            if self.illegal == "raise":
                raise
            # PettingZoo's classic convention: an illegal move ends the episode, lost.
            self._forfeited = True
            obs = self._observation()
            return obs, -1.0, True, False, {"action_mask": obs["action_mask"], "illegal": True}
        self._play_opponents()
        return self._finish()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now (the method sb3-contrib's MaskablePPO calls)."""
        return self._observation()["action_mask"]

    def render(self):
        return self.game.render(self.seat) if self.render_mode == "ansi" else None
