"""Bad input raises a typed exception and changes nothing."""

from __future__ import annotations

import pytest

import tabletop
from conftest import PLAYERS, play_randomly


def test_the_exceptions_form_one_hierarchy():
    for kind in (tabletop.UnknownGame, tabletop.BadConfig, tabletop.MalformedAction,
                 tabletop.IllegalAction, tabletop.BadSeat, tabletop.NoRecord):
        assert issubclass(kind, tabletop.GameError)
    assert issubclass(tabletop.GameOver, tabletop.IllegalAction)
    assert issubclass(tabletop.NotYourTurn, tabletop.IllegalAction)
    assert issubclass(tabletop.GameError, Exception)


def test_unknown_game():
    with pytest.raises(tabletop.UnknownGame, match="known games: valdora") as err:
        tabletop.new_game("chess")
    assert err.value.kind == "unknown_game"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 300}, "unsupported player count 300"),
        ({"config": {"colour": 1}}, "unknown field"),
        ({"players": None, "config": {"players": "four"}}, "bad valdora config"),
        ({"players": 4, "config": {"open_scores": "yes"}}, "bad valdora config"),
        ({"config": {"players": {1, 2}}}, "not a JSON-compatible value"),
        ({"config": {1: 2}}, "dict key must be a str"),
        ({"data": "/dev/null"}, "not a regular file"),
        ({"data": "/no/such/file.toml"}, "cannot read data file"),
    ],
)
def test_bad_config(kwargs, message):
    with pytest.raises(tabletop.BadConfig, match=message):
        tabletop.new_game("valdora", **kwargs)


def test_negative_seed_is_a_type_error_not_a_crash():
    with pytest.raises(OverflowError):
        tabletop.new_game("valdora", seed=-1)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "no_such_action"},
        "move",
        None,
        [1, 2],
        {"type": "move", "to": 0, "extra": 1},
        {"type": "move", "to": 1.5},
        {"type": "move", "to": 2**70},
        {"type": "move", "to": float("nan")},
        object(),
    ],
)
def test_malformed_actions_change_nothing(action):
    game = tabletop.new_game("valdora", players=4, seed=1)
    before = (game.record(), game.view(None), game.legal_actions())
    with pytest.raises(tabletop.MalformedAction) as err:
        game.apply(action)
    assert err.value.kind == "malformed"
    assert (game.record(), game.view(None), game.legal_actions()) == before


def test_an_illegal_action_changes_nothing(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=1)
    before = (game.record(), game.view(None))
    illegal = None
    # A well-formed action that is not legal now: one legal later or for another seat.
    probe = game.clone()
    legal_now = game.legal_actions()
    while illegal is None and not probe.is_over:
        probe.apply(probe.legal_actions()[0])
        illegal = next((a for a in probe.legal_actions() if a not in legal_now), None)
    assert illegal is not None
    with pytest.raises(tabletop.IllegalAction):
        game.apply(illegal)
    assert (game.record(), game.view(None)) == before


def test_no_action_once_the_game_is_over():
    game = tabletop.new_game("pandoria", players=2, seed=3)
    play_randomly(game, seed=3)
    with pytest.raises(tabletop.GameOver) as err:
        game.apply({"type": "skip"})
    assert err.value.kind == "game_over"
    bot = tabletop.Bot(game, "random")
    with pytest.raises(tabletop.GameOver):
        bot.play(game)


@pytest.mark.parametrize("seat", [-1, 4, 256, 2**40])
def test_bad_seats(seat):
    game = tabletop.new_game("valdora", players=4)
    with pytest.raises(tabletop.BadSeat):
        game.view(seat)
    with pytest.raises(tabletop.BadSeat):
        game.determinize(seat, 0)


def test_a_bot_of_another_game_is_refused():
    valdora = tabletop.new_game("valdora", players=4)
    pandoria = tabletop.new_game("pandoria", players=2)
    bot = tabletop.Bot(valdora, "random")
    with pytest.raises(tabletop.GameError, match="this bot plays valdora, not pandoria"):
        bot.play(pandoria)


@pytest.mark.parametrize(
    "record",
    [
        {"game": "valdora", "seed": -1, "actions": []},
        {"game": "valdora", "seed": 0},
        {"game": "valdora", "seed": 0, "actions": [{"type": "nope"}]},
        {"game": "nope", "seed": 0, "actions": []},
        "not a record",
    ],
)
def test_bad_records(record):
    with pytest.raises(tabletop.GameError):
        tabletop.replay(record)
