"""The JSON API: every game opened, played to its end, viewed, copied and pickled."""

from __future__ import annotations

import copy
import pickle

import pytest

import tabletop
from conftest import PLAYERS, play_randomly


def test_every_registered_game_is_listed():
    assert sorted(tabletop.games()) == sorted(PLAYERS)


def test_a_new_game_offers_actions_and_views(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=1)
    assert game.name == name
    assert game.seats == PLAYERS[name]
    assert game.to_move is not None and not game.is_over
    legal = game.legal_actions()
    assert legal, "a running game has legal actions"
    described = game.describe_legal()
    assert [d["action"] for d in described] == legal
    assert all(d["description"] and d["rule"] for d in described)
    for seat in [None, *range(game.seats)]:
        assert isinstance(game.view(seat), dict)
    assert game.outcome() is None
    assert isinstance(game.render(0), str)


def test_a_game_played_to_its_end_has_an_outcome_and_a_record(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=2)
    taken = play_randomly(game, seed=2)
    assert game.is_over and game.to_move is None
    assert game.legal_actions() == []
    outcome = game.outcome()
    assert sorted(s["seat"] for s in outcome["seats"]) == list(range(game.seats))
    record = game.record()
    assert record["game"] == name and record["seed"] == 2
    assert len(record["actions"]) == taken
    again = tabletop.replay(record)
    assert again.outcome() == outcome
    assert again.view(None) == game.view(None)


def test_same_seed_and_actions_give_the_same_game(name):
    first = tabletop.new_game(name, players=PLAYERS[name], seed=9)
    second = tabletop.new_game(name, players=PLAYERS[name], seed=9)
    play_randomly(first, seed=4)
    for action in first.record()["actions"]:
        second.apply(action)
    assert second.outcome() == first.outcome()
    assert second.record() == first.record()


def test_seeds_differ(name):
    views = {
        str(tabletop.new_game(name, players=PLAYERS[name], seed=s).view(None)) for s in range(4)
    }
    assert len(views) > 1


def test_clone_is_independent(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=3)
    for copied in (game.clone(), copy.copy(game), copy.deepcopy(game)):
        before = game.view(None)
        copied.apply(copied.legal_actions()[0])
        assert game.view(None) == before
        assert copied.record()["actions"] != game.record()["actions"]


def test_pickling_replays_the_record(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=6)
    for _ in range(5):
        game.apply(game.legal_actions()[-1])
    back = pickle.loads(pickle.dumps(game))
    assert back.record() == game.record()
    assert back.view(0) == game.view(0)


def test_determinize_keeps_the_seats_view_and_has_no_record(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=7)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    seat = game.to_move
    samples = [game.determinize(seat, seed=s) for s in range(3)]
    for sample in samples:
        assert sample.determinized
        # What the seat knows is the same in every sample; only what it cannot see varies.
        assert sample.view(seat) == game.view(seat)
        assert sample.legal_actions() == game.legal_actions()
        with pytest.raises(tabletop.NoRecord):
            sample.record()
        with pytest.raises(tabletop.NoRecord):
            sample.clone().record()
    # A sample is a game: it plays on.
    play_randomly(samples[0], seed=1)
    assert samples[0].outcome() is not None


def test_bots_play_their_seat(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=8)
    bot = tabletop.Bot(game, "greedy", seed=1)
    assert "greedy" in bot.spec
    choice = bot.choose(game)
    assert choice in game.legal_actions()
    played = bot.play(game)
    assert game.record()["actions"] == [played]
    with pytest.raises(tabletop.BadConfig):
        tabletop.Bot(game, "wizard")
