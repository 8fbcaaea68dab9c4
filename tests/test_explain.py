"""Explanations: the sets each fan rests on, and why displayed fans are not counted."""

from __future__ import annotations

from guobiao.core.context import WinContext
from guobiao.core.hand import Hand, parse_hand
from guobiao.scoring.calculator import calculate
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import FanResult


def explain(text: str, self_drawn: bool = False, rules: str = "1998") -> FanResult:
    hand = parse_hand(text)
    assert hand.win_tile is not None
    context = WinContext(hand.win_tile, self_drawn=self_drawn)
    return calculate(Hand(hand.concealed, hand.melds), context, rules, explain=True)


def basis(result: FanResult, fan: Fan) -> tuple[str, ...]:
    return next(f.basis for f in result.fans if f.fan is fan)


def reasons(result: FanResult, fan: Fan) -> list[str]:
    return [e.reason for e in result.excluded if e.fan is fan]


def test_chow_fans_name_their_chows() -> None:
    # 234m 234m 234p 567p + 55s: 一般高 on the two 234m, 喜相逢 on 234m + 234p, 连六 on 234p 567p.
    result = explain("W2W3W4W2W3W4B2B3B4B5B6B7T5 +T5", self_drawn=True)
    assert basis(result, Fan.PURE_DOUBLE_CHOW) == ("W2W3W4 + W2W3W4",)
    assert basis(result, Fan.MIXED_DOUBLE_CHOW) == ("W2W3W4 + B2B3B4",)
    assert basis(result, Fan.SHORT_STRAIGHT) == ("B2B3B4 + B5B6B7",)
    # The second 234m + 234p would repeat 喜相逢 on a set already in it: 不得相同 (第十条一(五)3).
    assert any("不得相同" in r for r in reasons(result, Fan.MIXED_DOUBLE_CHOW))
    # 不求人 makes 自摸 a repeat: 不重复.
    assert any("不重复" in r for r in reasons(result, Fan.SELF_DRAWN))


def test_account_once_principle_is_named() -> None:
    # 234567s 234567p: four links in a loop, only three count (套算一次, 第十条一(五)5).
    result = explain("T2T3T4T5T6T7B2B3B4B5B6B7W1 +W1")
    pair_fans = result.count_of(Fan.MIXED_DOUBLE_CHOW) + result.count_of(Fan.SHORT_STRAIGHT)
    assert pair_fans == 3
    assert any("套算一次" in e.reason or "不得相同" in e.reason for e in result.excluded)


def test_the_higher_reading_is_taken_and_the_other_shown() -> None:
    # 111222333m 456m 55s: three pungs (一色三节高 24 + 三暗刻 16 ...) beat three chows 123m.
    result = explain("W1W1W1W2W2W2W3W3W3W4W5W6T5 +T5")
    assert result.count_of(Fan.PURE_SHIFTED_PUNGS) == 1
    assert result.decomposition.startswith("W4W5W6 W1W1W1")
    assert len(result.alternatives) == 1
    reading, points = result.alternatives[0]
    assert reading.startswith("W1W2W3 W1W2W3 W1W2W3") and points < result.total


def test_four_set_fans_hide_their_three_set_fans() -> None:
    result = explain("[F1F1F1][F2F2F2]F3F3F3F4F4J1J1 +F4")
    assert result.count_of(Fan.BIG_FOUR_WINDS) == 1
    excluded = {e.fan for e in result.excluded}
    assert {Fan.BIG_THREE_WINDS, Fan.ALL_PUNGS, Fan.PREVALENT_WIND, Fan.SEAT_WIND} <= excluded


def test_special_shapes_are_concealed_by_nature() -> None:
    result = explain("W1W1W2W2W3W3W4W4W5W5W6W6W7 +W7", self_drawn=True)
    assert result.count_of(Fan.SEVEN_SHIFTED_PAIRS) == 1
    excluded = {e.fan for e in result.excluded}
    assert {Fan.SEVEN_PAIRS, Fan.FULL_FLUSH, Fan.FULLY_CONCEALED_HAND} <= excluded
    assert basis(result, Fan.SEVEN_SHIFTED_PAIRS)[0].startswith("七对 W1W1")


def test_without_explain_nothing_extra_is_computed() -> None:
    hand = parse_hand("W1W1W1W2W2W2W3W3W3W4W5W6T5 +T5")
    assert hand.win_tile is not None
    plain = calculate(Hand(hand.concealed, hand.melds), WinContext(hand.win_tile))
    assert plain.excluded == () and plain.alternatives == () and plain.decomposition == ""
    assert all(f.basis == () for f in plain.fans)
    assert plain.total == explain("W1W1W1W2W2W2W3W3W3W4W5W6T5 +T5").total


def test_every_counted_fan_of_every_family_has_a_basis() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import handgen
    from guobiao.cli.jsonio import hand_from_json

    for obj in handgen.generate(3000, 12345):
        hand, context = hand_from_json(obj)
        result = calculate(hand, context, "1998", explain=True)
        missing = [f.fan.zh for f in result.fans if not f.basis]
        assert not missing, (handgen.describe(obj), missing)
