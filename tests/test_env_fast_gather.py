"""The environment step's fast paths (issue 14), each against an independent reading:

- the observation's drawn-tile plane and relative current seat come from the gather chosen by the
  observer and the seat whose turn it is: checked against the engine's ``SeatView`` (``drawn``,
  ``current``) for every seat at every step;
- ``Table.play`` returns the seat to act next: checked against ``Game.to_act``;
- the mask, filled by identity from the engine's action objects (chows by value): checked
  against ``action_index`` of every legal action of the view, and the action each set index plays
  is the legal action itself.

Run on both builds (the compiled one compiles ``env.observation``, ``env.spaces`` and
``env._table``: hatch_build.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from guobiao.env._table import Table
from guobiao.env.observation import CURRENT, DRAWN, PHASE
from guobiao.env.spaces import action_index
from guobiao.table.game import Phase
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules

VARIANTS = [pytest.param(COMPETITION, id="competition"), pytest.param(BOTZONE, id="botzone")]


@pytest.mark.parametrize("rules", VARIANTS)
def test_drawn_tile_and_current_seat_by_observer(rules: TableRules) -> None:
    table = Table(rules)
    rng = random.Random(21)
    drawn_seen = 0
    for hand in range(25):
        table.new_hand(seed=500 + hand)
        game = table.game
        while True:
            for seat in range(4):
                view = game.view(seat)
                obs = table.observation(seat)
                plane = obs[DRAWN : DRAWN + 34]
                if view.drawn is None:
                    assert not plane.any(), (hand, seat)
                else:  # only the seat that drew sees its tile
                    assert seat == view.current
                    assert plane.nonzero()[0].tolist() == [int(view.drawn)]
                    drawn_seen += 1
                assert obs[CURRENT] == (view.current - seat) % 4
                assert obs[PHASE] == [Phase.ACT, Phase.RESPOND, Phase.ROB, Phase.OVER].index(
                    view.phase
                )
            if game.is_over:
                break
            seat = game.to_act[0]
            table.refresh(seat)
            index = rng.choice(sorted(table.builders[seat].actions))
            following = table.play(seat, index)
            assert following == (game.to_act[0] if game.to_act else -1)
    assert drawn_seen > 500


@pytest.mark.parametrize("rules", VARIANTS)
def test_the_mask_and_the_actions_it_plays(rules: TableRules) -> None:
    """Every seat's mask equals the view's legal actions through ``action_index``, and the
    action of every set index is one of the legal actions, the chow named by its index."""
    table = Table(rules)
    rng = random.Random(4)
    chows = 0
    for hand in range(25):
        table.new_hand(seed=900 + hand)
        game = table.game
        while not game.is_over:
            for seat in range(4):
                view = game.view(seat)
                claimed = None if view.last_discard is None else int(view.last_discard)
                expected = np.zeros(235, dtype=np.int8)
                for action in view.legal_actions:
                    expected[action_index(action, claimed)] = 1
                mask = table.mask(seat)
                assert np.array_equal(mask, expected), (hand, seat)
                for index in mask.nonzero()[0].tolist():
                    played = table.builders[seat].action(index)
                    assert played is not None and played in view.legal_actions
                    assert action_index(played, claimed) == index
                    chows += played.kind.value == "chow"
                assert table.builders[seat].action(int(np.argmin(expected))) is None
            seat = game.to_act[0]
            legal = table.mask(seat).nonzero()[0]
            # claim whenever possible (chows and pungs come often), else at random
            claims = [i for i in legal.tolist() if 34 <= i < 233]
            table.play(seat, max(claims) if claims else int(rng.choice(legal)))
    assert chows > 20
