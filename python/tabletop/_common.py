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

REWARDS = ("win_loss", "margin")


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

    A game without an outcome, or one ended by a turn cap (`truncated`), rewards 0.
    """
    if outcome is None or outcome.get("truncated"):
        return [0.0] * seats
    by_seat = {s["seat"]: s for s in outcome["seats"]}
    out = []
    for seat in range(seats):
        me = by_seat[seat]
        if reward == "win_loss":
            out.append(1.0 if me["rank"] == 1 else -1.0)
        else:
            best_other = max(s["score"] for k, s in by_seat.items() if k != seat)
            out.append(float(me["score"] - best_other))
    return out
