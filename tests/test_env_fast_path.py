"""The environments' fast path: ``Encoder.encode_game`` (straight from the engine's live state)
gives the same observation as ``Encoder.encode(game.view(seat))``, and the table's mask is the
view's legal actions, for every seat at every step of many random hands of both rule variants,
whether a seat is observed every step or only now and then (the encoder catching up)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from guobiao.env._table import Table
from guobiao.env.observation import Encoder
from guobiao.env.spaces import action_index
from guobiao.table.game import Game
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules

VARIANTS = [pytest.param(COMPETITION, id="competition"), pytest.param(BOTZONE, id="botzone")]


def by_view(game: Game, seat: int) -> np.ndarray:
    return Encoder().encode(game.view(seat)).copy()


@pytest.mark.parametrize("rules", VARIANTS)
def test_encode_game_equals_encode_view(rules: TableRules) -> None:
    rng = random.Random(5)
    table = Table(rules)
    for hand in range(120):
        table.new_hand(seed=hand)
        game = table.game
        every_step = hand % 2 == 0  # else each seat is observed at random moments only
        slow = [Encoder() for _ in range(4)]  # encode(view) kept incrementally as well
        while True:
            for seat in range(4):
                if every_step or rng.random() < 0.3 or game.is_over:
                    table.refresh(seat)
                    expected = by_view(game, seat)
                    assert np.array_equal(table.observation(seat), expected), (hand, seat)
                    assert np.array_equal(slow[seat].encode(game.view(seat)), expected)
                    view = game.view(seat)
                    claimed = None if view.last_discard is None else int(view.last_discard)
                    mask = np.zeros(235, dtype=np.int8)
                    for action in view.legal_actions:
                        mask[action_index(action, claimed)] = 1
                    assert np.array_equal(table.mask_array(seat), mask)
            if game.is_over:
                break
            seat = game.to_act[0]
            table.refresh(seat)
            table.play(seat, rng.choice(sorted(table.builders[seat].actions)))


def test_an_encoder_switches_between_paths_and_hands() -> None:
    encoder = Encoder()
    for seed in range(6):
        game = Game(BOTZONE if seed % 2 else COMPETITION, seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act[0]
            if rng.random() < 0.5:
                got = encoder.encode_game(game, 0).copy()
            else:
                got = encoder.encode(game.view(0)).copy()
            assert np.array_equal(got, by_view(game, 0))
            game.act(seat, rng.choice(game.legal_actions(seat)))


def test_the_board_hands_out_fresh_arrays_and_follows_undo() -> None:
    from guobiao.env.observation import Board

    board = Board()
    for rules in (COMPETITION, BOTZONE):
        game = Game(rules, 9)
        rng = random.Random(9)
        for _ in range(30):
            seat = game.to_act[0]
            game.act(seat, rng.choice(game.legal_actions(seat)))
        first = board.observe(game, 1)
        first[:] = 7  # the caller's own copy
        assert np.array_equal(board.observe(game, 1), by_view(game, 1))
        for _ in range(3):
            game.undo()  # the hand is rebuilt: the board starts again by itself
            for seat in range(4):
                assert np.array_equal(board.observe(game, seat), by_view(game, seat))


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_board_follows_claims_and_kongs(rules: TableRules) -> None:
    """A policy that declares every meld it may (kongs first, then pungs, chows), so that
    claims, concealed and added kongs, robbed kongs and full hands of melds come often: the
    observation and mask still equal the view's at every step."""
    from guobiao.env.spaces import CHOW, PASS_INDEX, PUNG, WIN_INDEX

    rng = random.Random(11)
    table = Table(rules)
    melds = 0
    for hand in range(80):
        table.new_hand(seed=1000 + hand)
        game = table.game
        while True:
            for seat in range(4):
                table.refresh(seat)
                assert np.array_equal(table.observation(seat), by_view(game, seat)), (hand, seat)
            if game.is_over:
                break
            seat = game.to_act[0]
            table.refresh(seat)
            legal = sorted(table.builders[seat].actions)
            declare = [i for i in legal if CHOW <= i < WIN_INDEX]
            if declare:
                index = max(declare)  # added, concealed, melded kongs before pungs before chows
                melds += index >= PUNG
            elif WIN_INDEX in legal and rng.random() < 0.5:
                index = WIN_INDEX
            else:
                index = rng.choice([i for i in legal if i != PASS_INDEX] or legal)
            table.play(seat, index)
    assert melds > 200  # the policy did declare


@pytest.mark.parametrize("rules", VARIANTS)
def test_a_table_pickles_and_copies_mid_hand(rules: TableRules) -> None:
    """A table's masks to act live in its board's buffer (views, which no pickle keeps): a
    pickled or copied table reads the game afresh, and plays on exactly as the original."""
    import copy
    import pickle

    for hand in range(6):
        table = Table(rules)
        table.new_hand(seed=50 + hand)
        rng = random.Random(hand)
        steps = 0
        while not table.game.is_over:
            seat = table.game.to_act[0]
            table.refresh(seat)
            if steps == 7 * hand + 3:
                original = table
                table = pickle.loads(pickle.dumps(table)) if hand % 2 else copy.deepcopy(table)
                assert table.game is not original.game
                for s in range(4):  # the copy's every seat as the original's
                    a, b = original.observe(s), table.observe(s)
                    assert np.array_equal(a["observation"], b["observation"])
                    assert np.array_equal(a["action_mask"], b["action_mask"])
            table.play(seat, rng.choice(sorted(table.builders[seat].actions)))
            steps += 1
        for seat in range(4):
            assert np.array_equal(table.observation(seat), by_view(table.game, seat))
            assert np.array_equal(table.mask(seat), np.zeros(235, dtype=np.int8))
