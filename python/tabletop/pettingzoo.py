"""PettingZoo AEC environments of the three games.

    >>> from tabletop.pettingzoo import env
    >>> e = env("valdora", players=4)
    >>> e.reset(seed=1)
    >>> for agent in e.agent_iter():
    ...     obs, reward, terminated, truncated, info = e.last()
    ...     mask = obs["action_mask"]
    ...     e.step(None if terminated or truncated else int(mask.nonzero()[0][0]))

Observations are as PettingZoo's classic games (its chess environment) give them:
`{"observation": float32 array in [0, 1], "action_mask": int8 array}`; the observation is
what the agent's seat may know (docs/contract.md, "Action space and observations"), the
mask is all zeros except for the agent to move. Rewards come at the end of the game:
"win_loss" (+1 every winner, -1 the others), "margin" (the score minus the best other
score) or "zero_sum" (the score minus the mean of the other scores: the one for self-play). A game ended by a turn cap is truncated with reward 0. An illegal action raises
`tabletop.IllegalAction` (and changes nothing) rather than ending the game.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import tabletop
from tabletop._common import check_reward, final_rewards, observation_space

__all__ = ["env", "raw_env", "TabletopEnv"]


class TabletopEnv(AECEnv):
    """One game of `name` as an AEC environment: agents `player_0 .. player_{n-1}` are
    the seats."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        name: str,
        players: int = 4,
        *,
        reward: str = "win_loss",
        config: Optional[Dict[str, Any]] = None,
        data: Optional[str] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        self.reward_kind = check_reward(reward)
        self._settings = {"players": players, "config": config, "data": data}
        # One game to learn the sizes (and to refuse a bad config at once).
        self.game = tabletop.new_game(name, **self._settings)
        self.metadata = {**self.metadata, "name": f"tabletop_{self.game.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.seats)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = self.game.action_count
        self.observation_spaces = {agent: observation_space(self.game) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._no_moves = np.zeros(actions, dtype=np.int8)
        self._episodes = 0
        self._base_seed: Optional[int] = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        seat = self._seat[agent]
        observation = self.game.observe(seat)
        mask = self.game.legal_mask() if self.game.to_move == seat else self._no_moves.copy()
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        # The game's seed: the one given, else the next of the last one given (so that a
        # run of episodes after reset(seed=S) is reproducible), else drawn at random.
        if seed is not None:
            self._base_seed, self._episodes = seed, 0
        if self._base_seed is None:
            game_seed = int(np.random.default_rng().integers(0, 2**63))
        else:
            game_seed = self._base_seed + self._episodes
        self._episodes += 1
        self.game = tabletop.new_game(self.game.name, seed=game_seed, **self._settings)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self.game.apply_index(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_over:
            outcome = self.game.outcome()
            truncated = bool(outcome is None or outcome.get("truncated"))
            for agent_, value in zip(
                self.possible_agents, final_rewards(outcome, self.game.seats, self.reward_kind)
            ):
                self.rewards[agent_] = value
                self.terminations[agent_] = not truncated
                self.truncations[agent_] = truncated
            # Every agent is told the end in turn, starting from the seat after the last mover.
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % len(self.agents)]
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.game.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def raw_env(name: str, players: int = 4, **kwargs) -> TabletopEnv:
    """The environment without PettingZoo's wrappers."""
    return TabletopEnv(name, players, **kwargs)


def env(name: str, players: int = 4, **kwargs) -> AECEnv:
    """The environment of `name` with PettingZoo's usual checks (order enforcing)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(name, players, **kwargs))
