"""Impossible input is refused with a clear message; a non-winning hand is reported, not raised.

- 第三条: four copies of each tile; 第五条十 and 第十四条九: 13 tiles (+1), a wrong count is 相公.
- 第九条58 和绝张: the other three copies are visible, so the hand cannot hold one.
- 第九条46 杠上开花: the winning tile is a kong's replacement, so the hand has a kong.
- 第九条47 抢杠和: the tile robbed from another's pung is the 4th, so the hand cannot hold one.
- ``guobiao.cli.jsonio.evaluate`` never raises: malformed input is ``{"ok": false, "reason": "invalid"}``,
  tiles without a winning shape ``{"ok": false, "reason": "not_winning"}``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from guobiao import Hand, WinContext, Wind, parse_hand
from guobiao.cli.jsonio import evaluate
from guobiao.core.tiles import Tile
from guobiao.scoring.calculator import calculate
from guobiao.scoring.result import FanResult, InvalidHandError


def score(text: str, *, rules: str = "1998", **flags: Any) -> FanResult:
    hand = parse_hand(text)
    assert hand.win_tile is not None
    context = WinContext(win_tile=hand.win_tile, **flags)
    return calculate(Hand(hand.concealed, hand.melds), context, rules)


# ------------------------------------------------------------------------------------------------
# InvalidHandError


# (hand, context flags, a regex the message must match: it names the problem)
INVALID = [
    # five of a tile, counting melds
    pytest.param("[234m](2222p)234p678s9s +9s", {}, r"more than four.*B2", id="5xB2-kong+chow"),
    pytest.param("[111m][111m]234p678s9s +9s", {}, r"more than four.*W1", id="6xW1-two-pungs"),
    pytest.param("[555s]234m567p678s5s +5s", {}, r"more than four.*T5", id="5xT5-win-tile"),
    pytest.param("W1W1W1W1W2W3W4W5W6W7W8W9F1 +W1", {}, r"more than four.*W1", id="5xW1-standing"),
    # wrong tile count (相公)
    pytest.param("234m567p678s55s1z +5s", {}, r"相公", id="too-few-12+1"),
    pytest.param("234m567p678s55s11z1z +5s", {}, r"相公", id="too-many-14+1"),
    pytest.param("[234m]567p678s55s11z1z +5s", {}, r"相公", id="too-many-with-a-meld"),
    pytest.param("[234m][567p]678s55s +5s", {}, r"相公", id="too-few-with-melds"),
    pytest.param("[123m][123p][123s][789m][789p] +5s", {}, r"at most 4 melds", id="five-melds"),
    # contradictory flags
    pytest.param(
        "234m567p678s55s11z +5s", {"fourth_tile": True}, r"和绝张.*T5", id="和绝张-holding-a-copy"
    ),
    pytest.param(
        "[567s]234m567p789s5s +5s", {"fourth_tile": True}, r"和绝张", id="和绝张-holding-a-copy-2"
    ),
    pytest.param(
        "234m567p678s55s11z +5s",
        {"self_drawn": True, "kong": True},
        r"杠上开花",
        id="杠上开花-without-a-kong",
    ),
    pytest.param(
        "234m567p678s55s11z +5s", {"kong": True}, r"抢杠和.*T5", id="抢杠和-holding-a-copy"
    ),
    pytest.param(
        "[555s]234m567p678s1z +5s", {"kong": True}, r"抢杠和", id="抢杠和-copy-in-own-pung"
    ),
]


@pytest.mark.parametrize(("hand", "flags", "message"), INVALID)
def test_invalid_hand_is_refused(hand: str, flags: dict[str, Any], message: str) -> None:
    for rules in ("1998", "mil"):
        with pytest.raises(InvalidHandError, match=message):
            score(hand, rules=rules, **flags)


def test_win_tile_must_agree_with_the_context() -> None:
    hand = parse_hand("234m567p678s55s11z +5s")
    context = WinContext(win_tile=Tile.parse("1z"))
    with pytest.raises(InvalidHandError, match="winning tile"):
        calculate(hand, context)


def test_invalid_hand_error_is_a_value_error() -> None:
    assert issubclass(InvalidHandError, ValueError)


def test_the_same_hands_are_valid_without_the_contradiction() -> None:
    """The flag checks refuse only the contradiction: the plain hands score normally."""
    assert score("234m567p678s55s11z +5s").is_winning
    assert score("[234m][6666p]678s55s11z +5s", self_drawn=True, kong=True).is_winning
    assert score("[234m][567p]789s11z35s +4s", kong=True).is_winning
    assert score("[234m][567p]789s11z35s +4s", fourth_tile=True).is_winning


def test_context_refuses_a_flower_winning_tile_and_flower_counts() -> None:
    with pytest.raises(ValueError, match="flower"):
        WinContext(win_tile=Tile.parse("H1"))
    with pytest.raises(ValueError, match="0-8"):
        WinContext(win_tile=Tile.parse("W1"), flowers=9)


# ------------------------------------------------------------------------------------------------
# Not a winning shape: is_winning False, nothing counted


NOT_WINNING = [
    pytest.param("234m567p678s55s12z +5s", id="two-single-honours"),
    pytest.param("19m19p19s123456z2m +1m", id="thirteen-orphans-less-one"),
    pytest.param("11m55m22p77p99s123z +3z", id="five-pairs-and-singles"),
    pytest.param("15m258p369s12345z +6z", id="knitted-misplaced"),
    pytest.param("147m258p369s1234z +5m", id="knitted-with-a-pair"),
    pytest.param("[123m][456m][789m]123p1z +2z", id="single-wait-wrong-tile"),
    pytest.param("1112345678999m +1p", id="nine-gates-other-suit"),
]


@pytest.mark.parametrize("hand", NOT_WINNING)
def test_not_winning(hand: str) -> None:
    for rules in ("1998", "mil"):
        result = score(hand, rules=rules, flowers=2)
        assert result.is_winning is False
        assert result.fans == ()
        assert result.total == 0
        assert not result.meets_minimum


# ------------------------------------------------------------------------------------------------
# guobiao.cli.jsonio.evaluate

GOOD: dict[str, Any] = {
    "concealed": ["T6", "T7", "T8", "T5", "T5", "F1", "F1"],
    "melds": [
        {"type": "chow", "tiles": ["W2", "W3", "W4"], "from": 3},
        {"type": "chow", "tiles": ["B5", "B6", "B7"]},
    ],
    "win_tile": "T5",
    "self_drawn": False,
    "fourth_tile": False,
    "kong": False,
    "last_tile": False,
    "seat_wind": "E",
    "round_wind": "E",
    "flowers": 0,
}


def _with(**changes: Any) -> dict[str, Any]:
    obj = copy.deepcopy(GOOD)
    for key, value in changes.items():
        if value is _DROP:
            del obj[key]
        else:
            obj[key] = value
    return obj


_DROP = object()


def _meld(**meld: Any) -> dict[str, Any]:
    obj = copy.deepcopy(GOOD)
    obj["melds"][0] = meld
    return obj


def test_json_good_hand() -> None:
    out = evaluate(GOOD)
    assert out["ok"] is True
    assert out["total"] == 8
    assert out["meets_minimum"] is True
    assert [(f["zh"], f["points"], f["count"]) for f in out["fans"]] == [("无番和", 8, 1)]


MALFORMED = [
    pytest.param(None, id="null"),
    pytest.param([], id="array"),
    pytest.param("234m567p678s55s11z +5s", id="string"),
    pytest.param(17, id="number"),
    pytest.param({}, id="empty-object"),
    pytest.param(_with(win_tile=_DROP), id="missing-win_tile"),
    pytest.param(_with(concealed=_DROP), id="missing-concealed"),
    pytest.param(_with(winning_tile="T5"), id="unknown-key"),
    pytest.param(_with(dealer=True), id="unknown-key-2"),
    pytest.param(_with(win_tile="X5"), id="bad-win_tile-name"),
    pytest.param(_with(win_tile="T0"), id="bad-win_tile-rank"),
    pytest.param(_with(win_tile=""), id="empty-win_tile"),
    pytest.param(_with(win_tile=5), id="win_tile-not-a-string"),
    pytest.param(_with(win_tile="T5T5"), id="win_tile-two-tiles"),
    pytest.param(_with(win_tile="H1"), id="flower-win_tile"),
    pytest.param(_with(concealed=["T6", "T7", "T8", "T5", "T5", "F1", "Z9"]), id="bad-concealed"),
    pytest.param(_with(concealed=["T6", "T7", "T8", "T5", "T5", "F1", "H1"]), id="flower-held"),
    pytest.param(_with(concealed="T6T7T8T5T5F1F1"), id="concealed-not-a-list"),
    pytest.param(_with(melds={"type": "chow"}), id="melds-not-a-list"),
    pytest.param(_meld(type="chow", tiles=["W2", "W2", "W4"]), id="meld-not-a-chow"),
    pytest.param(_meld(type="chow", tiles=["F1", "F2", "F3"]), id="meld-honour-chow"),
    pytest.param(_meld(type="chow", tiles=["W8", "W9", "W10"]), id="meld-bad-tile-name"),
    pytest.param(_meld(type="pung", tiles=["W2", "W2"]), id="meld-pung-of-two"),
    pytest.param(_meld(type="kong", tiles=["W2", "W2", "W2"]), id="meld-kong-of-three"),
    pytest.param(_meld(type="kong", tiles=["W2", "W2", "W2", "W3"]), id="meld-kong-mixed"),
    pytest.param(_meld(type="pung", tiles=["H1", "H1", "H1"]), id="meld-of-flowers"),
    pytest.param(_meld(type="pong", tiles=["W2", "W2", "W2"]), id="meld-unknown-type"),
    pytest.param(_meld(tiles=["W2", "W3", "W4"]), id="meld-without-type"),
    pytest.param(_meld(type="chow", tiles="W2W3W4"), id="meld-tiles-not-a-list"),
    pytest.param(_meld(type="chow", tiles=["W2", "W3", "W4"], **{"from": 4}), id="meld-from-4"),
    pytest.param(_with(melds=[["W2", "W3", "W4"]]), id="meld-not-an-object"),
    pytest.param(_with(flowers=9), id="flowers-9"),
    pytest.param(_with(flowers=-1), id="flowers-negative"),
    pytest.param(_with(flowers=True), id="flowers-bool"),
    pytest.param(_with(flowers=2.5), id="flowers-fraction"),
    pytest.param(_with(flowers="3"), id="flowers-string"),
    pytest.param(_with(self_drawn="yes"), id="flag-not-a-bool"),
    pytest.param(_with(kong=1), id="flag-number"),
    pytest.param(_with(seat_wind="Q"), id="bad-seat-wind"),
    pytest.param(_with(round_wind=None), id="null-round-wind"),
    # impossible hands (InvalidHandError)
    pytest.param(_with(concealed=["T6", "T7", "T8", "T5", "T5", "F1"]), id="相公"),
    pytest.param(_with(concealed=["T5", "T5", "T5", "T5", "T6", "F1", "F1"]), id="five-T5"),
    pytest.param(_with(fourth_tile=True), id="和绝张-holding-a-copy"),
    pytest.param(_with(kong=True, self_drawn=True), id="杠上开花-without-a-kong"),
    pytest.param(_with(kong=True), id="抢杠和-holding-a-copy"),
    pytest.param(_with(melds=[{"type": "chow", "tiles": ["W2", "W3", "W4"]}] * 5), id="five-melds"),
    pytest.param({**GOOD, 1: 2}, id="non-string-key"),
]


@pytest.mark.parametrize("obj", MALFORMED)
def test_json_malformed_is_invalid(obj: Any) -> None:
    for rules in ("1998", "mil"):
        out = evaluate(obj, rules)
        assert out["ok"] is False
        assert out["reason"] == "invalid"
        assert isinstance(out["message"], str) and out["message"]


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        pytest.param(_with(win_tile=_DROP), "win_tile", id="missing-win_tile"),
        pytest.param(_with(winning_tile="T5"), "winning_tile", id="unknown-key"),
        pytest.param(_with(win_tile="X5"), "X5", id="bad-tile"),
        pytest.param(_meld(type="chow", tiles=["W2", "W2", "W4"]), "melds[0]", id="bad-meld"),
        pytest.param(_with(flowers=9), "flowers", id="flowers"),
        pytest.param(_with(fourth_tile=True), "和绝张", id="和绝张"),
    ],
)
def test_json_invalid_message_names_the_problem(obj: dict[str, Any], words: str) -> None:
    assert words in evaluate(obj)["message"]


@pytest.mark.parametrize(
    "concealed",
    [
        ["T6", "T7", "T8", "T5", "T9", "F1", "F1"],
        ["T6", "T7", "T8", "T5", "T5", "F1", "F2"],
    ],
)
def test_json_not_winning(concealed: list[str]) -> None:
    for rules in ("1998", "mil"):
        out = evaluate(_with(concealed=concealed), rules)
        assert out["ok"] is False
        assert out["reason"] == "not_winning"


def test_json_accepts_the_other_notations_and_winds() -> None:
    out = evaluate(_with(win_tile="5s", seat_wind="S", round_wind="N"))
    assert out["ok"] is True
    assert out["total"] == 8


def test_json_context_winds_reach_the_calculator() -> None:
    obj = _with(
        concealed=["T6", "T7", "T8", "T5", "T5", "F2", "F2"],
        melds=[
            {"type": "chow", "tiles": ["W2", "W3", "W4"]},
            {"type": "pung", "tiles": ["F1", "F1", "F1"]},
        ],
        seat_wind="E",
        round_wind="S",
    )
    fans = {f["zh"]: f["count"] for f in evaluate(obj)["fans"]}
    assert fans.get("门风刻") == 1
    assert "圈风刻" not in fans
    assert Wind.parse("S") is Wind.SOUTH
