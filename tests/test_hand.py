"""The hand notation: parse and format are symmetric; errors name text and position."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guobiao.core.hand import Hand, format_hand, parse_hand, parse_tiles
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.tiles import TILES, TileParseError


def test_botzone_and_compact_forms_are_the_same_hand() -> None:
    a = parse_hand("[W1W2W3][F1F1F1]B4B5B6T7T8 +T9")
    b = parse_hand("[123m][111z]456p78s +9s")
    assert a == b
    assert a.melds == (Meld(MeldKind.CHOW, TILES[0]), Meld(MeldKind.PUNG, TILES[27]))
    assert [str(t) for t in a.concealed] == ["B4", "B5", "B6", "T7", "T8"]
    assert str(a.win_tile) == "T9"


def test_kongs_seats_and_flowers() -> None:
    hand = parse_hand("[F2F2F2F2:2](5555p)[J1J1J1:3]W1W1W2W3 +W4 H1H5")
    kinds = [m.kind for m in hand.melds]
    assert kinds == [MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.PUNG]
    assert [m.offered_by for m in hand.melds] == [2, None, 3]
    assert [str(f) for f in hand.flowers] == ["H1", "H5"]
    assert format_hand(hand) == "[F2F2F2F2:2](B5B5B5B5)[J1J1J1:3]W1W1W2W3 +W4 H1H5"
    assert format_hand(hand, compact=True) == "[2222z:2](5555p)[555z:3]1123m +4m 15f"


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("W1W2X3", "unexpected character", 4),
        ("W1W2W", "must be followed by a digit", 4),
        ("123", "must end with a suit letter", 0),
        # W10 (a tile written with two digits): W1, then a 0 it named as digits without a suit
        ("W1W10B1", "one letter and one digit: W1 is a tile, then 0 is left over", 2),
        ("F12", "one letter and one digit: F1 is a tile, then 2 is left over", 0),
        ("W1 23", "must end with a suit letter", 3),  # apart: compact digits
        ("[W1W2W4]", "not a chow, pung or kong", 0),
        ("[W1W2W3", "not closed", 0),
        ("(W1W1W1)", "four equal tiles", 0),
        ("W1]", "closes nothing", 2),
        ("W1 +W2W3", "exactly one winning tile", 6),
        ("W1 +H1", "flower cannot be the winning tile", 3),
        ("[W1W2W3:4]", "offering seat", 7),
        ("8z", "no such tile", 0),
    ],
)
def test_errors_name_the_text_and_position(text: str, message: str, position: int) -> None:
    with pytest.raises(TileParseError, match=message) as info:
        parse_hand(text)
    assert info.value.position == position


def test_a_letter_tile_then_compact_digits_still_mixes() -> None:
    """W123m is W1, then 23m: the notations mix as before; only digits with no suit refused."""
    assert parse_tiles("W123m") == parse_tiles("W1W2W3")


def test_parse_tiles() -> None:
    assert parse_tiles("19m19p19s1234567z") == tuple(
        TILES[i] for i in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
    )


melds = st.one_of(
    st.builds(
        lambda t, s: Meld(MeldKind.CHOW, TILES[t], s),
        st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]),
        st.sampled_from([None, 3]),
    ),
    st.builds(
        lambda t, s: Meld(MeldKind.PUNG, TILES[t], s),
        st.integers(0, 33),
        st.sampled_from([None, 1, 2, 3]),
    ),
    st.builds(
        lambda t, s: Meld(MeldKind.KONG, TILES[t], s),
        st.integers(0, 33),
        st.sampled_from([None, 1, 2, 3]),
    ),
    st.builds(lambda t: Meld(MeldKind.CONCEALED_KONG, TILES[t]), st.integers(0, 33)),
)
hands = st.builds(
    Hand,
    concealed=st.lists(st.sampled_from(TILES[:34]), max_size=14).map(tuple),
    melds=st.lists(melds, max_size=4).map(tuple),
    win_tile=st.one_of(st.none(), st.sampled_from(TILES[:34])),
    flowers=st.lists(st.sampled_from(TILES[34:]), max_size=8, unique=True).map(tuple),
)


@given(hands, st.booleans())
def test_format_then_parse_round_trips(hand: Hand, compact: bool) -> None:
    assert parse_hand(format_hand(hand, compact=compact)) == hand


@given(st.lists(st.sampled_from(TILES[:34]), min_size=1, max_size=14), st.randoms())
def test_order_of_standing_tiles_does_not_matter(tiles: list[int], rnd: object) -> None:
    shuffled = list(tiles)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    a = "".join(str(TILES[t]) for t in tiles)
    b = "".join(str(TILES[t]) for t in shuffled)
    assert parse_hand(a) == parse_hand(b)
