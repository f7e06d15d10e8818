"""End-of-game rewards shared by the PettingZoo and Gymnasium environments."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

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
