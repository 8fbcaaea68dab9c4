"""The environment's step checks an action once (issue 14): ``Table.play`` reads it off the
seat's mask, filled from the engine's legal actions, and hands it to ``Game.act_legal``, which
does what ``Game.act`` does without checking it again. Two games of the same deal, one played by
``act`` and one by ``act_legal``, must stay the same at every step of every rule variant."""

from __future__ import annotations

import random

import pytest

from guobiao.table.game import Game
from guobiao.table.rules import BOTZONE, COMPETITION, TableRules

VARIANTS = [
    pytest.param(COMPETITION, id="competition"),
    pytest.param(BOTZONE, id="botzone"),
    pytest.param(TableRules(fan_profile="mil", flowers=False), id="mil-136"),
]


def state(game: Game) -> tuple[object, ...]:
    result = game.result
    return (
        game.phase,
        game.current,
        game.to_act,
        game.drawn_tile,
        game.claimable_tile,
        tuple(game.changes),
        tuple(game.history),
        tuple(game.legal_actions(seat) for seat in range(4)),
        result.summary() if result is not None else None,
    )


@pytest.mark.parametrize("rules", VARIANTS)
def test_act_legal_plays_as_act(rules: TableRules) -> None:
    rng = random.Random(14)
    for hand in range(40):
        checked = Game(rules, 500 + hand)
        unchecked = Game(rules, 500 + hand)
        while not checked.is_over:
            seat = checked.to_act[0]
            legal = checked.legal_actions(seat)
            claims = [a for a in legal if a.kind.value not in ("discard", "pass")]
            action = rng.choice(claims if claims and rng.random() < 0.5 else legal)
            checked.act(seat, action)
            unchecked.act_legal(seat, action)
            assert state(unchecked) == state(checked), (hand, seat, action)
