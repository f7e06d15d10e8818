"""The index and tensor API: fixed shapes, masks equal to the legal actions, round trips,
out-arrays, typed errors."""

from __future__ import annotations

import numpy as np
import pytest

import tabletop
from conftest import PLAYERS


def test_indices_round_trip_and_match_the_legal_actions(name):
    game = tabletop.new_game(name, players=PLAYERS[name], seed=21)
    rng = np.random.default_rng(21)
    count, length = game.action_count, game.observation_len
    assert count > 0 and length > 0
    mask = np.zeros(count, dtype=np.int8)
    obs = np.zeros(length, dtype=np.float32)
    for _ in range(300):
        if game.is_over:
            break
        legal = game.legal_actions()
        indices = game.legal_indices()
        assert sorted(game.action_index(a) for a in legal) == sorted(indices.tolist())
        for index in indices:
            assert game.action_index(game.action_at(int(index))) == index
        assert game.legal_mask(out=mask) is mask
        assert np.array_equal(np.flatnonzero(mask), np.sort(indices))
        seat = game.to_move
        assert game.observe(seat, out=obs) is obs
        assert obs.dtype == np.float32 and np.all((obs >= 0) & (obs <= 1))
        assert np.array_equal(game.observe(seat), obs)
        game.apply_index(int(rng.choice(indices)))


def test_the_fast_path_plays_the_same_game_as_json(name):
    by_index = tabletop.new_game(name, players=PLAYERS[name], seed=22)
    by_json = tabletop.new_game(name, players=PLAYERS[name], seed=22)
    rng = np.random.default_rng(22)
    for _ in range(200):
        if by_index.is_over:
            break
        index = int(rng.choice(by_index.legal_indices()))
        by_index.apply_index(index)
        by_json.apply(by_json.action_at(index))
    assert by_index.record() == by_json.record()


def test_a_seat_sees_only_its_own_view_in_its_observation(name):
    # Two samples of the hidden information that leave the seat's view alike leave its
    # observation alike too.
    game = tabletop.new_game(name, players=PLAYERS[name], seed=23)
    for _ in range(5):
        game.apply_index(int(game.legal_indices()[0]))
    seat = game.to_move
    observations = [game.determinize(seat, s).observe(seat) for s in range(4)]
    for obs in observations:
        assert np.array_equal(obs, game.observe(seat))


def test_bad_indices_and_buffers_are_refused_and_change_nothing():
    game = tabletop.new_game("valdora", players=4, seed=1)
    before = game.record()
    with pytest.raises(tabletop.MalformedAction):
        game.apply_index(game.action_count)
    with pytest.raises(tabletop.MalformedAction):
        game.action_at(10**9)
    with pytest.raises(OverflowError):
        game.apply_index(-1)
    illegal = next(i for i in range(game.action_count) if i not in set(game.legal_indices()))
    with pytest.raises(tabletop.IllegalAction):
        game.apply_index(illegal)
    with pytest.raises(tabletop.BadBuffer):
        game.observe(0, out=np.zeros(3, dtype=np.float32))
    with pytest.raises(tabletop.BadBuffer):
        game.legal_mask(out=np.zeros(3, dtype=np.int8))
    with pytest.raises(TypeError):
        game.observe(0, out=np.zeros(game.observation_len, dtype=np.float64))
    with pytest.raises(tabletop.BadSeat):
        game.observe(9)
    assert game.record() == before
