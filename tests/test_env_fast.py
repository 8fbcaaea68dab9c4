"""The AEC environment's step as the benchmark drives it (``env.last()`` every step, a random index
of the mask played) gives the observation and the mask of the slow, independent readings: the
observation of ``Encoder.encode(game.view(seat))``, the mask of the view's legal actions through
``action_index``; and the index played is the engine action the space names. Run on both builds
(the compiled one compiles ``env.spaces`` and ``env._table``: hatch_build.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from guobiao.env.aec import raw_env
from guobiao.env.observation import Encoder
from guobiao.env.spaces import CHOW, PASS_INDEX, action_index, index_action
from guobiao.table.game import ActionKind, Game
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules


def slow_mask(game: Game, seat: int) -> np.ndarray:
    view = game.view(seat)
    claimed = None if view.last_discard is None else int(view.last_discard)
    mask = np.zeros(235, dtype=np.int8)
    for action in view.legal_actions:
        mask[action_index(action, claimed)] = 1
    return mask


@pytest.mark.parametrize("rules", [COMPETITION, BOTZONE], ids=["competition", "botzone"])
def test_every_step_of_the_aec_env_matches_the_slow_readings(rules: TableRules) -> None:
    env = raw_env(rules, 11)
    rng = random.Random(11)
    steps = chows = 0
    for _ in range(40):
        env.reset()
        game = env.table.game
        while env.agents:
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            seat = int(env.agent_selection[-1])
            assert obs is not None
            assert np.array_equal(obs["observation"], Encoder().encode(game.view(seat)))
            assert np.array_equal(obs["action_mask"], slow_mask(game, seat))
            legal = obs["action_mask"].nonzero()[0]
            index = int(legal[rng.randrange(len(legal))])
            chosen = index_action(index)
            played = env.table.builders[seat].action(index)
            assert played == chosen  # a chow: the same chow (its lowest tile)
            if played is not None and played.kind is ActionKind.CHOW:
                assert CHOW <= index < CHOW + 63
                chows += 1
            before = len(game.changes)
            env.step(index)
            assert len(game.changes) >= before
            steps += 1
    assert steps > 2000 and chows > 0


def test_a_step_after_the_mask_is_taken_never_reuses_it() -> None:
    env = raw_env(BOTZONE, 3)
    env.reset()
    first, *_ = env.last()
    assert first is not None
    legal = first["action_mask"].nonzero()[0]
    env.step(int(legal[0]))
    second, *_ = env.last()
    assert second is not None
    # the arrays handed out are copies: the next step left the first ones as they were
    assert first["action_mask"][int(legal[0])] == 1
    assert second["action_mask"].base is None or second["action_mask"] is not first["action_mask"]
    assert env.table.builders[int(env.agent_selection[-1])].action(PASS_INDEX) in (
        None,
        index_action(PASS_INDEX),
    )
