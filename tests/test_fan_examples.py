"""Every fan's example hand (guobiao.scoring.examples, the help page's): one for each fan, a legal
win that counts its fan under the profile the web table scores with (1998; 明暗杠 under mil), and
the same fans as the reference calculator (PyMahjongGB, tests/oracle.py) gives it."""

from __future__ import annotations

from typing import Any

import pytest

from guobiao import Fan
from guobiao.core.hand import Hand
from guobiao.core.melds import MeldKind
from guobiao.scoring.calculator import calculate
from guobiao.scoring.examples import EXAMPLES, FanExample, example
from guobiao.scoring.result import FanResult
from guobiao.table.rules import COMPETITION
from oracle import reference_fans, to_1998


def scored(ex: FanExample) -> FanResult:
    hand, context = ex.parse()
    # calculate raises InvalidHandError for a hand that cannot be (tiles, flags, flowers)
    return calculate(Hand(hand.concealed, hand.melds), context, ex.rules)


def reference_input(ex: FanExample) -> dict[str, Any]:
    """The example in the JSON-lines input format the oracle reads."""
    hand, context = ex.parse()
    return {
        "concealed": [str(t) for t in hand.concealed],
        "melds": [{"type": m.kind.value, "tiles": [str(t) for t in m.tiles]} for m in hand.melds],
        "win_tile": str(context.win_tile),
        "flowers": context.flowers,
        "self_drawn": context.self_drawn,
        "fourth_tile": context.fourth_tile,
        "kong": context.kong,
        "last_tile": context.last_tile,
        "seat_wind": context.seat_wind.letter,
        "round_wind": context.round_wind.letter,
    }


def test_every_fan_has_an_example() -> None:
    assert [f for f in Fan if f not in EXAMPLES] == []
    assert len(EXAMPLES) == len(Fan) == 82  # the 81 of 第九条 and 明暗杠 of mil


def test_the_tables_profile_is_the_examples() -> None:
    """The web table scores with 1998 (rooms: COMPETITION); only mil's 明暗杠 needs its own."""
    assert COMPETITION.fan_profile == "1998"
    assert {f for f, ex in EXAMPLES.items() if ex.rules != "1998"} == {
        Fan.MELDED_AND_CONCEALED_KONG
    }


@pytest.mark.parametrize("fan", list(Fan), ids=lambda f: f"{f.number}-{f.name}")
def test_the_example_is_a_win_that_counts_its_fan(fan: Fan) -> None:
    ex = example(fan)
    result = scored(ex)
    assert result.is_winning, ex.hand
    assert fan in {f.fan for f in result.fans}, (ex.hand, str(result))


@pytest.mark.parametrize("fan", list(Fan), ids=lambda f: f"{f.number}-{f.name}")
def test_the_example_scores_as_the_reference_scores_it(fan: Fan) -> None:
    ex = example(fan)
    result = scored(ex)
    reference = reference_fans(reference_input(ex))  # the mil profile
    if ex.rules == "1998":
        reference = to_1998(reference)
    assert {f.fan.zh: f.count for f in result.fans} == reference, ex.hand


@pytest.mark.parametrize("fan", list(Fan), ids=lambda f: f"{f.number}-{f.name}")
def test_the_standing_tiles_as_written_are_the_hands(fan: Fan) -> None:
    ex = example(fan)
    hand, context = ex.parse()
    assert tuple(sorted(ex.standing())) == hand.concealed
    assert len(hand.concealed) == 13 - 3 * len(hand.melds)
    assert context.flowers == len(hand.flowers)


def test_the_examples_show_what_their_fans_need() -> None:
    """A few the help page names: 平和 all chows, 边张 the 12+3 wait, 花牌 with flowers, 暗杠 a
    concealed kong, the win flags on the fans that are made of them."""
    hand, _ = example(Fan.ALL_CHOWS).parse()
    assert all(m.kind is MeldKind.CHOW for m in hand.melds)
    edge = example(Fan.EDGE_WAIT)
    assert [str(t) for t in edge.standing()[-2:]] + [str(edge.parse()[1].win_tile)] == [
        "W1",
        "W2",
        "W3",
    ]
    assert example(Fan.FLOWER_TILES).parse()[1].flowers > 0
    hand, _ = example(Fan.CONCEALED_KONG).parse()
    assert any(m.kind is MeldKind.CONCEALED_KONG for m in hand.melds)
    flags = {
        Fan.LAST_TILE_DRAW: ("self_drawn", "last_tile"),
        Fan.LAST_TILE_CLAIM: ("last_tile",),
        Fan.OUT_WITH_REPLACEMENT_TILE: ("self_drawn", "kong"),
        Fan.ROBBING_THE_KONG: ("kong",),
        Fan.LAST_TILE: ("fourth_tile",),
        Fan.SELF_DRAWN: ("self_drawn",),
        Fan.FULLY_CONCEALED_HAND: ("self_drawn",),
    }
    names = ("self_drawn", "fourth_tile", "kong", "last_tile")
    for fan, on in flags.items():
        ex = example(fan)
        assert {n for n in names if getattr(ex, n)} == set(on), fan
