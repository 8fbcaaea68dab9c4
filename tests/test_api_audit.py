"""The library's API with a python-chess eye (audit 8): ``repr`` is the expression that makes the
object again (``Hand.parse('...')``, ``Meld.parse('[F1F1F1:2]')``), ``str(meld)`` is what a hand's
text writes for it and ``Meld.parse`` reads it, a meld's claimed tile has a text (``*``) so that
every hand writes and reads back whole, a text where a ``Hand`` belongs is a ``TypeError`` that
names ``Hand.parse``, ``--rules`` takes any case, and a hand's text may use the Chinese names
``Tile.chinese`` writes (and the glyphs)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from guobiao import (
    TILES,
    Hand,
    Meld,
    MeldKind,
    Suit,
    Tile,
    TileParseError,
    WinContext,
    Wind,
    calculate,
    format_hand,
    parse_hand,
)
from guobiao.cli import main
from guobiao.core.hand import parse_tiles
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import CountedFan
from test_hand import hands as plain_hands
from test_hand import melds as plain_melds

NINE_GATES = "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"
STYLES = ("botzone", "compact", "chinese", "glyph")
AnyHand: Any = Hand
AnyMeld: Any = Meld
AnyCalculate: Any = calculate


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner(env={"COLUMNS": "200"}).invoke(main, list(args), input=stdin)


def _with_claimed(meld: Meld, draw: st.DrawFn) -> Meld:
    """The meld, with its claimed tile when it has one (a concealed kong never does)."""
    if meld.kind is MeldKind.CONCEALED_KONG or not draw(st.booleans()):
        return meld
    claimed = draw(st.sampled_from(meld.tiles))
    return Meld(meld.kind, meld.tile, meld.offered_by, claimed)


@st.composite
def claimed_melds(draw: st.DrawFn) -> Meld:
    """test_hand.py's melds, with their claimed tile too at times (as the game makes them)."""
    return _with_claimed(draw(plain_melds), draw)


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """test_hand.py's hands, some of whose melds name their claimed tile."""
    hand = draw(plain_hands)
    melds = tuple(_with_claimed(m, draw) for m in hand.melds)
    return Hand(hand.concealed, melds, hand.win_tile, hand.flowers)


melds = claimed_melds()


# -- repr is the expression that makes the object again ----------------------------------------


def test_the_repr_of_a_hand_is_hand_parse_of_its_text() -> None:
    """It was the dataclass's field-by-field dump, tuples of Tile.parse(...) and Meld(...)."""
    hand = Hand.parse("[W1W2W3]W4W5W6B1B1B1T7T8T9F1 +F1")
    assert repr(hand) == "Hand.parse('[W1W2W3]W4W5W6B1B1B1T7T8T9F1 +F1')"
    assert repr(Hand(())) == "Hand.parse('')"


@given(hands())
def test_eval_of_the_repr_of_a_hand_is_the_hand(hand: Hand) -> None:
    assert eval(repr(hand)) == hand


def test_the_repr_of_a_meld_a_kind_a_wind_a_suit_is_their_expression() -> None:
    meld = Meld(MeldKind.PUNG, Tile.parse("F1"), 2)
    assert repr(meld) == "Meld.parse('[F1F1F1:2]')"
    assert eval(repr(meld)) == meld
    assert [repr(MeldKind.CHOW), repr(Wind.SOUTH), repr(Suit.DOTS)] == [
        "MeldKind.CHOW",
        "Wind.SOUTH",
        "Suit.DOTS",
    ]


def test_the_repr_of_a_context_names_what_differs_from_the_defaults() -> None:
    context = WinContext(Tile.parse("W5"), self_drawn=True, seat_wind=Wind.SOUTH, flowers=2)
    assert repr(context) == (
        "WinContext(Tile.parse('W5'), self_drawn=True, seat_wind=Wind.SOUTH, flowers=2)"
    )
    assert eval(repr(context)) == context
    assert repr(WinContext(Tile.parse("F1"))) == "WinContext(Tile.parse('F1'))"


# -- a meld's text: str and Meld.parse --------------------------------------------------------


def test_str_of_a_meld_names_the_offering_seat_as_format_hand_does() -> None:
    """``str(meld)`` was ``[F1F1F1]`` where the hand's text says ``[F1F1F1:2]``."""
    hand = parse_hand("[F2F2F2F2:2](5555p)[J1J1J1:3][W1W2W3]W1W1 +W4")
    assert [str(m) for m in hand.melds] == ["[F2F2F2F2:2]", "(B5B5B5B5)", "[J1J1J1:3]", "[W1W2W3]"]
    assert "".join(map(str, hand.melds)) == format_hand(hand).split("W1W1")[0]


@given(melds)
def test_meld_parse_reads_what_str_writes(meld: Meld) -> None:
    assert Meld.parse(str(meld)) == meld


@given(melds, st.sampled_from(STYLES))
def test_meld_parse_reads_a_meld_in_any_notation(meld: Meld, style: str) -> None:
    hand = Hand((), (meld,))
    assert Meld.parse(format_hand(hand, style=style)) == meld


@pytest.mark.parametrize(
    ("text", "meld"),
    [
        ("[F1F1F1:2]", Meld(MeldKind.PUNG, TILES[27], 2)),
        (" [345m:3] ", Meld(MeldKind.CHOW, TILES[2], 3)),
        ("[W3W4*W5:3]", Meld(MeldKind.CHOW, TILES[2], 3, TILES[3])),
        ("[34*5m:3]", Meld(MeldKind.CHOW, TILES[2], 3, TILES[3])),
        ("[345*m]", Meld(MeldKind.CHOW, TILES[2], None, TILES[4])),
        ("(五饼五饼五饼五饼)", Meld(MeldKind.CONCEALED_KONG, TILES[13])),
        ("[东东东东:1]", Meld(MeldKind.KONG, TILES[27], 1)),
    ],
)
def test_meld_parse(text: str, meld: Meld) -> None:
    assert Meld.parse(text) == meld


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("W1W1W1", "a meld opens with"),
        ("[W1W1W1][W2W2W2]", "only one meld"),
        ("[W1W2W4]", "not a chow, pung or kong"),
        ("[W1*W2*W3]", "claims one tile"),
        ("(W1*W1W1W1)", "a concealed kong claims no tile"),
        ("", "a meld opens with"),
    ],
)
def test_meld_parse_refuses_what_is_not_one_meld(text: str, message: str) -> None:
    with pytest.raises(TileParseError, match=message):
        Meld.parse(text)


def test_meld_parse_takes_a_str() -> None:
    with pytest.raises(TypeError, match=re.escape("Meld.parse takes a meld's text")):
        Meld.parse(27)  # type: ignore[arg-type]


def test_a_concealed_kong_claims_no_tile() -> None:
    with pytest.raises(ValueError, match="claims no tile"):
        Meld(MeldKind.CONCEALED_KONG, TILES[0], claimed=TILES[0])


def test_format_hand_writes_the_hands_it_wrote_before_as_before() -> None:
    hand = parse_hand("[F2F2F2F2:2](5555p)[J1J1J1:3]W1W1W2W3 +W4 H1H5")
    assert format_hand(hand) == "[F2F2F2F2:2](B5B5B5B5)[J1J1J1:3]W1W1W2W3 +W4 H1H5"
    assert format_hand(hand, compact=True) == "[2222z:2](5555p)[555z:3]1123m +4m 15f"


def test_a_hand_from_the_game_with_a_claimed_chow_reads_back_whole() -> None:
    """The engine's chows name their claimed tile, which the hand's text dropped: such a hand
    did not read back as itself."""
    chow = Meld(MeldKind.CHOW, TILES[2], 3, TILES[3])
    hand = Hand(parse_tiles("W1W1B2B3B4T5T6T7F1F1"), (chow,), TILES[0])
    assert format_hand(hand) == "[W3W4*W5:3]W1W1B2B3B4T5T6T7F1F1 +W1"
    assert format_hand(hand, compact=True) == "[34*5m:3]11m234p567s11z +1m"
    assert parse_hand(format_hand(hand)) == hand


@given(hands(), st.sampled_from(STYLES))
def test_every_hand_reads_back_in_every_notation(hand: Hand, style: str) -> None:
    assert parse_hand(format_hand(hand, style=style)) == hand


# -- a text or a tile where an object belongs --------------------------------------------------


def test_calculate_given_a_text_says_to_use_hand_parse() -> None:
    """It raised ``AttributeError: 'str' object has no attribute 'concealed'``."""
    context = WinContext(Tile.parse("W5"))
    with pytest.raises(
        TypeError, match=re.escape(f"calculate takes a Hand, such as Hand.parse('{NINE_GATES}')")
    ):
        AnyCalculate(NINE_GATES, context)
    hand = Hand.parse(NINE_GATES)
    for wrong in (Tile.parse("W5"), "W5", Wind.EAST):
        with pytest.raises(TypeError, match="calculate takes a WinContext, such as WinContext"):
            AnyCalculate(hand, wrong)
    with pytest.raises(TypeError, match="calculate takes a Hand"):
        AnyCalculate(context, hand)  # the two swapped
    assert calculate(hand, context).total == 91  # and the right arguments score as before


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: AnyHand("123"), "Hand's concealed takes a tuple of Tiles, not the text '123'"),
        (lambda: AnyHand((), flowers="12"), "Hand's flowers takes a tuple of Tiles, not the text"),
        (lambda: AnyHand((), win_tile="5"), "Hand's win_tile takes a Tile"),
        (lambda: AnyMeld(MeldKind.PUNG, "5"), "Meld's tile takes a Tile"),
        (lambda: AnyMeld(MeldKind.PUNG, 5.0), "Meld's tile takes a Tile (or its index 0-41)"),
    ],
)
def test_a_str_of_digits_is_not_read_as_tile_indices(make: Any, words: str) -> None:
    """``Hand("123")`` was the hand W2 W3 W4; ``Meld(MeldKind.PUNG, "5")`` a pung of W6."""
    with pytest.raises(TypeError, match=re.escape(words)):
        make()


def test_a_hand_of_digits_points_to_parse_hand() -> None:
    """The digits were tile indices: no error to say that parse_hand reads a hand's text."""
    with pytest.raises(TypeError, match=re.escape("parse_hand('123') reads a hand's text")):
        AnyHand("123")


def test_parse_tiles_takes_a_str() -> None:
    with pytest.raises(TypeError, match="parse_tiles takes"):
        parse_tiles(None)  # type: ignore[arg-type]


def test_tile_text_refuses_an_unknown_style() -> None:
    """``text("compakt")`` was silently the Botzone name."""
    assert [Tile.parse("W5").text(s) for s in STYLES] == ["W5", "5m", "五万", "\U0001f00b"]
    with pytest.raises(ValueError, match="no tile style 'compakt'"):
        Tile.parse("W5").text("compakt")


# -- the command line: --rules in any case, Chinese hands ----------------------------------------


@pytest.mark.parametrize("spelling", ["MIL", "Mil"])
def test_rules_takes_any_case(spelling: str) -> None:
    result = invoke("fan", NINE_GATES, "--rules", spelling, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(
        invoke("fan", NINE_GATES, "--rules", "mil", "--json").output
    )


def test_rules_in_any_case_reach_the_command_in_their_canonical_spelling() -> None:
    """``simulate``, ``arena``, ``play`` get ``mil`` for ``--rules MIL`` (their TableRules and
    logs name it so); ``fan --jsonl`` scores with it."""
    from guobiao.cli.options import RULES

    assert [RULES.convert(s, None, None) for s in ("MIL", "Botzone", "1998")] == [
        "mil",
        "botzone",
        "1998",
    ]
    concealed = [str(tile) for tile in parse_hand(NINE_GATES).concealed]
    line = json.dumps({"concealed": concealed, "win_tile": "W5"})
    answer = invoke("fan", "--jsonl", "--rules", "MIL", stdin=line + "\n")
    assert answer.exit_code == 0, answer.output
    assert json.loads(answer.output)["total"] == 91


def test_rules_keeps_its_canonical_spelling_in_help() -> None:
    assert "[1998|mil|botzone]" in invoke("fan", "--help").output
    assert "[1998|mil|botzone]" in invoke("botzone-bot", "--help").output


def test_the_botzone_bot_takes_its_rules_in_any_case() -> None:
    request = '{"requests":["0 1 0"],"responses":[]}\n'
    upper = invoke(
        "botzone-bot", "--bot", "fan", "--rules", "BOTZONE", "--seed", "1", stdin=request
    )
    assert upper.exit_code == 0, upper.output
    lower = invoke(
        "botzone-bot", "--bot", "fan", "--rules", "botzone", "--seed", "1", stdin=request
    )
    assert upper.output == lower.output


def test_a_hand_in_chinese_names_is_the_same_hand() -> None:
    botzone = parse_hand("[W1W2W3][F1F1F1:2]B4B5B6T7T8B1B1 +T9 H1H2")
    assert (
        parse_hand("[一万二万三万][东风东风东风:2]四饼五饼六饼七条八条一饼一饼 +九条 春夏")
        == botzone
    )
    assert parse_hand("[一萬二萬三萬][东东东:2]四筒五筒六筒七索八索一筒一筒 +九索 春 夏") == botzone
    assert parse_hand("红中发财白板中发白") == parse_hand("J1J2J3J1J2J3")
    assert parse_hand("东风南风西风北风东南西北") == parse_hand("F1F2F3F4F1F2F3F4")


def test_chinese_names_read_longest_first_never_overlap() -> None:
    """A two-character name whose first character is a name too (东风) ends in a character that
    starts no name, so reading the longest name first is the only reading."""
    from guobiao.core.tiles import _WIDE_NAMES  # the names a hand's text reads besides ASCII

    singles = {name for name in _WIDE_NAMES if len(name) == 1}
    for name in _WIDE_NAMES:
        assert len(name) <= 2
        if len(name) == 2 and name[0] in singles:
            assert not any(other.startswith(name[1]) for other in _WIDE_NAMES), name
    # each Chinese name Tile.chinese writes is read in a hand, alone and between others
    for tile in TILES[:34]:
        assert parse_tiles(tile.chinese) == (tile,)
        assert parse_tiles("一万" + tile.chinese + "九条") == (TILES[0], tile, TILES[26])


def test_a_wrong_chinese_name_is_refused_at_its_place() -> None:
    with pytest.raises(TileParseError, match="unexpected character") as info:
        parse_hand("一万十万")
    assert info.value.position == 2


def test_fan_reads_a_chinese_hand_and_its_hand_line_reads_back() -> None:
    text = "[一万二万三万][东风东风东风:2]四饼五饼六饼七条八条一饼一饼 +九条 春夏"
    result = invoke("fan", text, "--tiles", "chinese")
    assert result.exit_code == 0, result.output
    assert result.output == invoke("fan", parse_hand(text).__str__(), "--tiles", "chinese").output
    line = result.output.split("Hand: ")[1].split("\n")[0]
    assert parse_hand(line) == parse_hand(text)  # the offering seat :2 is shown too


@pytest.mark.parametrize("style", ["chinese", "glyph"])
def test_the_hand_line_in_each_style_reads_back(style: str) -> None:
    text = "[W3W4*W5:3][F1F1F1:2](B5B5B5B5)T7T8T9T9 +T9 H1H2"
    result = invoke("fan", text, "--tiles", style)
    line = result.output.split("Hand: ")[1].split("\n")[0]
    assert parse_hand(line) == parse_hand(text)


def test_the_pointer_stands_under_a_wrong_tile_after_chinese_names() -> None:
    result = invoke("fan", "一万二万X +三万")
    assert result.exit_code == 2
    hand_line, pointer = result.output.splitlines()[-2:]
    assert pointer.index("^") == hand_line.index("X") + 4  # 一万二万: 4 characters, 8 columns


@pytest.mark.parametrize("fan", list(Fan))
def test_a_fan_reads_as_the_member_that_names_it(fan: Fan) -> None:
    """``repr(Fan.NINE_GATES)`` was Enum's ``<Fan.NINE_GATES: (1, 88, '九莲宝灯', ...)>``, and so
    every ``repr`` of a result listed value tuples: now the expression, which evaluates back."""
    assert repr(fan) == f"Fan.{fan.name}"
    assert eval(repr(fan)) is fan
    assert repr(CountedFan(fan)) == f"CountedFan(fan=Fan.{fan.name}, count=1, basis=())"
