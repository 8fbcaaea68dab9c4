"""The board's cheaper step (issue 14): the wall counted down by one a draw, and a claim's meld
written by its counts (a pung or a kong as one write a cell, the kind's code by identity), the
kinds held read again only for a seat whose melds or flowers changed. A policy that claims
whenever it may makes many pungs, kongs and chows; every seat's observation must stay the
view's, and its mask the view's legal actions, at every step of every rule variant."""

from __future__ import annotations

import random

import numpy as np
import pytest

from guobiao.core.melds import MeldKind
from guobiao.env._table import Table
from guobiao.env.observation import WALL, Encoder
from guobiao.env.spaces import DISCARD, PASS_INDEX
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules
from test_env_fast import slow_mask  # the mask from the view, the reference

VARIANTS = [
    pytest.param(COMPETITION, id="competition"),
    pytest.param(BOTZONE, id="botzone"),
    pytest.param(TableRules(fan_profile="mil", flowers=False), id="mil-136"),
]


@pytest.mark.parametrize("rules", VARIANTS)
def test_claims_keep_every_observation_and_mask_exact(rules: TableRules) -> None:
    rng = random.Random(14)
    table = Table(rules)
    declared: dict[MeldKind, int] = dict.fromkeys(MeldKind, 0)
    for hand in range(40):
        table.new_hand(seed=1000 + hand)
        game = table.game
        while True:
            for seat in range(4):
                table.refresh(seat)
                expected = Encoder().encode(game.view(seat))
                observed = table.observation(seat)
                assert np.array_equal(observed, expected), (hand, seat)
                assert observed[WALL] == game.wall_remaining
                assert np.array_equal(table.mask_array(seat), slow_mask(game, seat)), (hand, seat)
            if game.is_over:
                break
            seat = game.to_act[0]
            legal = sorted(table.builders[seat].actions)
            # claim, kong or win whenever one may: a discard or a pass only when that is all
            claims = [i for i in legal if i >= DISCARD + 34 and i != PASS_INDEX]
            before = len(game.live_seat(seat).melds)
            table.play(seat, rng.choice(claims or legal))
            melds = game.live_seat(seat).melds
            if len(melds) > before:
                declared[melds[-1].kind] += 1
    # the meld paths ran for every kind
    assert min(declared.values()) > 0, declared
