"""tabletop: rules-exact engines of Valdora, Valley of the Kings and Pandoria.

    >>> import tabletop
    >>> game = tabletop.new_game("valdora", players=4, seed=1)
    >>> game.apply(game.legal_actions()[0])

Actions, views, outcomes and records are the JSON-compatible values of the engine
protocol (docs/engine-protocol.md). Every refusal raises a subclass of
`tabletop.GameError`. The PettingZoo environments are in `tabletop.pettingzoo`, the
Gymnasium wrapper in `tabletop.gym`, the Ray runs in `tabletop.ray` (each imports its
library only when imported itself).
"""

from tabletop._native import (
    BadConfig,
    BadSeat,
    Bot,
    Game,
    GameError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NoRecord,
    NoSpaces,
    BadBuffer,
    NotYourTurn,
    UnknownGame,
    games,
    new_game,
    replay,
)

__all__ = [
    "BadConfig",
    "BadSeat",
    "Bot",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "NoRecord",
    "NoSpaces",
    "BadBuffer",
    "NotYourTurn",
    "UnknownGame",
    "games",
    "new_game",
    "replay",
]
