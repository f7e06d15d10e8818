"""What the PettingZoo and Gymnasium environments share: the observation space and the
end-of-game rewards."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
from gymnasium import spaces


def observation_space(game) -> spaces.Dict:
    """`{"observation": float32 in [0, 1], "action_mask": int8}` for `game`'s sizes."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=(game.observation_len,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.action_count,), dtype=np.int8),
        }
    )

REWARDS = ("win_loss", "margin", "zero_sum")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def final_rewards(outcome: Optional[Dict[str, Any]], seats: int, reward: str) -> List[float]:
    """Each seat's reward for a finished game.

    - "win_loss": +1 for every winner (rank 1, shared victories included), -1 for every
      other seat.
    - "margin": the seat's score minus the best score among the other seats (positive
      for the winner: its lead; negative for the others: how far behind the best).
    - "zero_sum": the seat's score minus the mean score of the other seats; the rewards
      of a game sum to zero. The reward for self-play: under the other two, a game where
      every seat stays level pays more on average than one played to win (with "margin",
      all but the winner are behind the best; with "win_loss", a shared victory is a win
      for all), so one policy playing every seat learns to keep still.

    A game without an outcome, or one ended by a turn cap (`truncated`), rewards 0.
    """
    if outcome is None or outcome.get("truncated"):
        return [0.0] * seats
    by_seat = {s["seat"]: s for s in outcome["seats"]}
    out = []
    for seat in range(seats):
        me = by_seat[seat]
        others = [s["score"] for k, s in by_seat.items() if k != seat]
        if reward == "win_loss":
            out.append(1.0 if me["rank"] == 1 else -1.0)
        elif reward == "zero_sum":
            out.append(float(me["score"] - sum(others) / len(others)))
        else:
            out.append(float(me["score"] - max(others)))
    return out
