"""The public types as a newcomer meets them at the prompt: readable ``str`` of a result and of a
wind (which parse back), clear errors for a wrong argument type,
messages that count melds in words (a hand's size is checked where it is used: ``parse_hand``
reads any tiles, as ``format_hand`` writes any ``Hand``)."""

from __future__ import annotations

import pytest

from guobiao import (
    Fan,
    FanResult,
    InvalidHandError,
    Tile,
    WinContext,
    Wind,
    calculate,
    parse_hand,
)
from guobiao.core.shanten import shanten
from guobiao.scoring.result import CountedFan


def test_a_wind_reads_as_its_letter_and_parses_back() -> None:
    assert [str(w) for w in Wind] == ["E", "S", "W", "N"]
    assert [f"{w}" for w in Wind] == ["E", "S", "W", "N"]
    assert f"{Wind.WEST:d}" == "2" and f"{Wind.NORTH:02d}" == "03"  # a numeric spec: its number
    assert all(Wind.parse(str(w)) is w for w in Wind)
    assert int(Wind.SOUTH) == 1 and Wind.SOUTH + 1 == 2  # still an int


def test_a_result_prints_its_total_and_fans() -> None:
    hand = parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5 H1H2")
    result = calculate(hand, WinContext(Tile.parse("W5"), flowers=2))
    text = str(result)
    assert text.startswith(f"{result.total} points: 九莲宝灯 Nine Gates 88, ")
    assert text.endswith(", 花牌 Flower Tiles 1x2")
    assert text.count(",") == len(result.fans) - 1
    assert str(CountedFan(Fan.PURE_STRAIGHT)) == "清龙 Pure Straight 16"


def test_a_result_below_the_minimum_or_not_winning_says_so() -> None:
    short = FanResult(fans=(CountedFan(Fan.ALL_CHOWS), CountedFan(Fan.SINGLE_WAIT)))
    assert (
        str(short) == "3 points (below the 8-point minimum): 平和 All Chows 2, 单钓将 Single Wait 1"
    )
    assert str(FanResult(fans=(), is_winning=False)) == "no winning shape"


@pytest.mark.parametrize("bad", [None, 5, b"W1", ["W1"]])
def test_parsers_refuse_a_non_string_by_name(bad: object) -> None:
    kind = type(bad).__name__
    with pytest.raises(TypeError, match=f"Tile.parse takes a tile's name \\(a str\\), not {kind}"):
        Tile.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=f"parse_hand takes a hand's text \\(a str\\), not {kind}"):
        parse_hand(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=f"Wind.parse takes a wind's name \\(a str\\), not {kind}"):
        Wind.parse(bad)  # type: ignore[arg-type]


def test_messages_count_melds_in_words() -> None:
    with pytest.raises(InvalidHandError, match="with no meld a hand holds 13 concealed tiles"):
        calculate(parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9 +W9"), WinContext(Tile.parse("W9")))
    hand = parse_hand("[T5T5T5]W1W1W1W2W3W4W5W6W7 +W9")
    with pytest.raises(InvalidHandError, match="with 1 meld a hand holds 10 concealed tiles"):
        calculate(hand, WinContext(Tile.parse("W9")))
    counts = [0] * 34
    counts[0] = 3
    with pytest.raises(ValueError, match="3 standing tiles with 2 melds: expected 7 or 8"):
        shanten(counts, 2)
