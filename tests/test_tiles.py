"""Tiles and their notations (第三条)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guobiao.core.tiles import (
    FLOWERS,
    PLAYING_TILES,
    TERMINALS_AND_HONORS,
    TILES,
    Suit,
    Tile,
    TileParseError,
)


def test_counts_of_kinds() -> None:
    # 第三条: 34 kinds of playing tile (x4) and 8 flowers = 144 tiles.
    assert len(PLAYING_TILES) * 4 + len(FLOWERS) == 144
    assert len(TERMINALS_AND_HONORS) == 13


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("W1", 0),
        ("W9", 8),
        ("B1", 9),
        ("T9", 26),
        ("F1", 27),
        ("F4", 30),
        ("J1", 31),
        ("J3", 33),
        ("H1", 34),
        ("H8", 41),
        ("5m", 4),
        ("5p", 13),
        ("5s", 22),
        ("1z", 27),
        ("5z", 31),
        ("6z", 32),
        ("7z", 33),
        ("3f", 36),
        ("一万", 0),
        ("九饼", 17),
        ("五条", 22),
        ("东风", 27),
        ("北", 30),
        ("红中", 31),
        ("发", 32),
        ("白板", 33),
        ("春", 34),
        ("菊", 41),
    ],
)
def test_parse_each_notation(text: str, index: int) -> None:
    assert Tile.parse(text) == index


def test_names_of_honours() -> None:
    assert [TILES[i].chinese for i in range(27, 34)] == [
        "东风",
        "南风",
        "西风",
        "北风",
        "红中",
        "发财",
        "白板",
    ]
    assert TILES[31].glyph == "\U0001f004"  # 🀄 red dragon
    assert TILES[0].glyph == "\U0001f007"  # 🀇 one of characters


@given(st.sampled_from(TILES))
def test_every_notation_round_trips(tile: Tile) -> None:
    for text in (str(tile), tile.compact, tile.chinese, tile.glyph):
        assert Tile.parse(text) is tile


@pytest.mark.parametrize("text", ["W0", "B10", "F5", "J4", "H9", "0m", "8z", "x", ""])
def test_bad_tile_names_are_rejected(text: str) -> None:
    with pytest.raises(TileParseError, match="not a tile"):
        Tile.parse(text)


def test_classes() -> None:
    w1, b5, east, white, spring = (Tile.parse(t) for t in ("W1", "B5", "F1", "J3", "H1"))
    assert w1.is_terminal and w1.is_terminal_or_honor and not w1.is_honor
    assert not b5.is_terminal_or_honor and b5.suit is Suit.DOTS and b5.rank == 5
    assert east.is_honor and east.suit is Suit.WINDS
    assert white.suit is Suit.DRAGONS and white.rank == 3
    assert spring.is_flower and not spring.is_honor
    assert Tile.from_suit_rank(Suit.BAMBOO, 9) == Tile.parse("T9")
    with pytest.raises(ValueError):
        Tile(42)
