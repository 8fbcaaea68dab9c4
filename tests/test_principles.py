"""The scoring principles of 第十条一(五), the 8-point minimum, and the two fan profiles.

第十条一(五) (计分原则):
  1. 不重复原则 non-repeat: a fan that necessarily co-exists with a counted fan is not counted.
  2. 不拆移原则 non-separation: the sets of a counted fan are not split to form new fans among themselves.
  3. 不得相同的原则 non-identical: sets already combined into a fan do not form the same fan again with
     another set.
  4. 就高不就低原则 take the higher: of alternative combinations, count the higher-scoring one.
  5. 套算一次原则 account once: a set not yet combined may combine once with an already combined set.
第十条一(一)2 and 第五条三十四(二): a win needs 8 fan points; flowers (#81) do not count toward them
and are scored only after a valid win. RULES.md "Two fan profiles": one melded + one concealed kong is
明杠 + 暗杠 under ``1998`` and 明暗杠 (5) under ``mil``.

The rulebook states the principles without worked hands; the hands below are the classic examples
of the accepted reading (RULES.md "Reading" of the principles and of the "不计" lists).
"""

from __future__ import annotations

from typing import Any

import pytest

from guobiao import Fan
from guobiao.cli.jsonio import evaluate
from guobiao.scoring.result import FanResult
from scoring import fan_table, score


def excluded_names(result: FanResult) -> set[str]:
    return {e.fan.zh for e in result.excluded}


# ------------------------------------------------------------------------------------------------
# 1. 不重复原则


# (hand, flags, the fan that implies, the fans it implies: counted never, reported as excluded)
NON_REPEAT = [
    pytest.param(
        "[111z][222z]333z444z5m +5m",
        {},
        "大四喜",
        ["碰碰和", "圈风刻", "门风刻", "三风刻", "幺九刻"],
        id="1-大四喜-implies-碰碰和-风刻-幺九刻",
    ),
    pytest.param(
        "[555z][666z]777z345m8p +8p", {}, "大三元", ["箭刻", "双箭刻"], id="2-大三元-implies-箭刻"
    ),
    pytest.param("[123m][345m]678m999m4m +4m", {}, "清一色", ["无字"], id="22-清一色-implies-无字"),
    pytest.param(
        "[456m][555p]345s567m5s +5s",
        {},
        "全带五",
        ["断幺", "无字"],
        id="31-全带五-implies-断幺-无字",
    ),
    pytest.param("[234m]567p678s45s99p +6s", {}, "平和", ["无字"], id="63-平和-implies-无字"),
    pytest.param("[555z][666z]234m567p9s +9s", {}, "双箭刻", ["箭刻"], id="54-双箭刻-implies-箭刻"),
    pytest.param(
        "[234m][567p]678s55s11z +5s",
        {"self_drawn": True, "last": True},
        "妙手回春",
        ["自摸"],
        id="44-妙手回春-implies-自摸",
    ),
    pytest.param(
        "[234m][6666p]678s55s11z +5s",
        {"self_drawn": True, "kong": True},
        "杠上开花",
        ["自摸"],
        id="46-杠上开花-implies-自摸",
    ),
    pytest.param(
        "234m567p678s55s11z +5s",
        {"self_drawn": True},
        "不求人",
        ["自摸"],
        id="56-不求人-implies-自摸",
    ),
    pytest.param(
        "[234m][567p][678s][444z]5s +5s", {}, "全求人", ["单钓将"], id="52-全求人-implies-单钓将"
    ),
    pytest.param(
        "11m55m22p77p99s11z3z +3z",
        {},
        "七对",
        ["单钓将", "门前清"],
        id="19-七对-implies-单钓-门前清",
    ),
    pytest.param(
        "222m444m777p999s5p +5p",
        {},
        "四暗刻",
        ["碰碰和", "门前清", "三暗刻"],
        id="12-四暗刻-implies-碰碰和-门前清",
    ),
]


@pytest.mark.parametrize(("hand", "flags", "fan", "implied"), NON_REPEAT)
def test_non_repeat(hand: str, flags: dict[str, Any], fan: str, implied: list[str]) -> None:
    """第十条一(五)1: the fans a counted fan necessarily brings are not counted again."""
    table = fan_table(score(hand, **flags))
    assert table.get(fan) == 1
    for name in implied:
        assert name not in table, f"{name} is implied by {fan}"


# Fans the hand displays that a counted fan excludes, with explain=True: each must be reported in
# ``excluded`` with a reason (the calculator's explain contract).
EXPLAINED = [
    *NON_REPEAT,
    pytest.param(
        "[1111m][2222p](3333s)(4444z)5z +5z",
        {},
        "四杠",
        ["单钓将", "碰碰和"],
        id="5-四杠-explains-单钓将-碰碰和",
    ),
    pytest.param(
        "(2222m)(5555p)678s33s11z +3s",
        {},
        "双暗杠",
        ["双暗刻"],
        id="53-双暗杠-explains-双暗刻",
    ),
]


@pytest.mark.parametrize(("hand", "flags", "fan", "implied"), EXPLAINED)
def test_non_repeat_is_explained(
    hand: str, flags: dict[str, Any], fan: str, implied: list[str]
) -> None:
    result = score(hand, explain=True, **flags)
    assert fan_table(result).get(fan) == 1
    missing = set(implied) - excluded_names(result)
    assert not missing, f"not explained: {missing}; excluded = {result.excluded}"
    assert all(e.reason for e in result.excluded)
    assert len(set(result.excluded)) == len(result.excluded), "an exclusion is listed twice"


# The rulebook's 不计 lists name only what necessarily co-exists (第九条 preamble of the lists, as
# RULES.md quotes it); other fans still count. Its examples: 七对 + 字一色, 清幺九 + 三同刻, and 缺一门
# beside 大三元, 小三元, 一色四步高, 一色四节高 and 三风刻.
NOT_IMPLIED = [
    pytest.param("1122334455667z +7z", "字一色", "七对", id="七对+字一色"),
    pytest.param("[111m][111p]111s999m9p +9p", "清幺九", "三同刻", id="清幺九+三同刻"),
    pytest.param("[555z][666z]777z345m8p +8p", "大三元", "缺一门", id="大三元+缺一门"),
    pytest.param("[555z][666z]77z345m79p +8p", "小三元", "缺一门", id="小三元+缺一门"),
    pytest.param("[123m][234m]345456m9p +9p", "一色四步高", "缺一门", id="一色四步高+缺一门"),
    pytest.param("[222p][333p][444p]555p7s +7s", "一色四节高", "缺一门", id="一色四节高+缺一门"),
    pytest.param("[222z][333z]444z567m9p +9p", "三风刻", "缺一门", id="三风刻+缺一门"),
]


@pytest.mark.parametrize(("hand", "fan", "companion"), NOT_IMPLIED)
def test_non_repeat_keeps_what_is_not_implied(hand: str, fan: str, companion: str) -> None:
    table = fan_table(score(hand))
    assert table.get(fan) == 1
    assert table.get(companion) == 1


# ------------------------------------------------------------------------------------------------
# 2. 不拆移原则


# (hand, the fan made of the sets, the fans its own sets would form among themselves)
NON_SEPARATION = [
    pytest.param(
        "[123m]456m789m345s2p +2p", "清龙", ["连六", "老少副"], id="28-清龙-no-连六-老少副"
    ),
    pytest.param(
        "[123p]123p123p456s9m +9m", "一色三同顺", ["一般高"], id="23-一色三同顺-no-一般高"
    ),
    pytest.param(
        "[123m][345m]567789m9p +9p",
        "一色四步高",
        ["一色三步高", "老少副"],
        id="16-一色四步高-no-一色三步高-老少副",
    ),
    pytest.param(
        "[123m][123p]123s567m9s +9s", "三色三同顺", ["喜相逢"], id="41-三色三同顺-no-喜相逢"
    ),
    pytest.param(
        "1231237897855m +9m", "一色双龙会", ["一般高", "老少副"], id="13-一色双龙会-no-一般高"
    ),
    pytest.param(
        "[123m][789m]123p789p5s +5s",
        "三色双龙会",
        ["喜相逢", "老少副"],
        id="29-三色双龙会-no-喜相逢-老少副",
    ),
    pytest.param("[222m][222p]222s567m9p +9p", "三同刻", ["双同刻"], id="32-三同刻-no-双同刻"),
    pytest.param("[555z][666z]777z345m8p +8p", "大三元", ["双箭刻"], id="2-大三元-no-双箭刻"),
    pytest.param("[111m][999m]111p999s9p +9p", "清幺九", ["双同刻"], id="8-清幺九-no-双同刻"),
]


@pytest.mark.parametrize(("hand", "fan", "parts"), NON_SEPARATION)
def test_non_separation(hand: str, fan: str, parts: list[str]) -> None:
    """第十条一(五)2: a counted fan's own sets are not split up to form other fans."""
    result = score(hand, explain=True)
    table = fan_table(result)
    assert table.get(fan) == 1
    for name in parts:
        assert name not in table, f"{name} would split {fan}"
    assert set(parts) <= excluded_names(result)


def test_non_separation_leaves_a_fourth_set_free() -> None:
    """The set outside the fan is not part of it: 清龙 + a 4th chow 123m still counts 一般高 once."""
    table = fan_table(score("[123m]123m456m789m5p +5p"))
    assert table == {"清龙": 1, "平和": 1, "一般高": 1, "缺一门": 1, "单钓将": 1}


# ------------------------------------------------------------------------------------------------
# 3. 不得相同的原则 and 5. 套算一次原则


def test_non_identical_234s_223344p_567p() -> None:
    """234s 234p 234p 567p: 一般高 (234p 234p) + 喜相逢 + 连六, each once.

    The 234s pairs with one 234p only (not a second 喜相逢 with the other, 不得相同), and 567p makes
    one 连六 with a 234p (套算一次), so these fans are worth 3 points.
    """
    table = fan_table(score("[234s]223344p567p9m +9m"))
    assert table == {"平和": 1, "一般高": 1, "喜相逢": 1, "连六": 1, "单钓将": 1}


def test_non_identical_234567s_234567p() -> None:
    """234s 567s 234p 567p: 4 chows, 4 possible pairings, but at most 3 fans (3 points of them).

    喜相逢 ×2 + 连六, or 喜相逢 + 连六 ×2: both readings are 3 points; neither fan may go missing.
    """
    for pair in ("9m", "1z"):
        table = fan_table(score(f"[234s]567s234p567p{pair} +{pair}"))
        xi, lian = table.get("喜相逢", 0), table.get("连六", 0)
        assert xi >= 1 and lian >= 1
        assert xi + lian == 3, table


def test_non_identical_three_pungs_of_one_number() -> None:
    """Three pungs of 2: 三同刻 once, never also 双同刻 of any two of them."""
    table = fan_table(score("[222m][222p]222s333s5p +5p"))
    assert table == {"三同刻": 1, "碰碰和": 1, "双暗刻": 1, "断幺": 1, "单钓将": 1}


# (hand, expected table: the free 4th set combines once with one set of the three-set fan)
ACCOUNT_ONCE = [
    pytest.param(
        "[123m]123m123m789m5p +5p",
        {"一色三同顺": 1, "平和": 1, "老少副": 1, "缺一门": 1, "单钓将": 1},
        id="一色三同顺+789m-老少副-once",
    ),
    pytest.param(
        "[123m]123p123s123m5p +5p",
        {"三色三同顺": 1, "平和": 1, "一般高": 1, "单钓将": 1},
        id="三色三同顺+123m-一般高-once",
    ),
    pytest.param(
        "[234m][234m]234p234s1z +1z",
        {"三色三同顺": 1, "一般高": 1, "单钓将": 1},
        id="三色三同顺+234m-melded",
    ),
    pytest.param(
        "[123m][234p]345s789m5p +5p",
        {"三色三步高": 1, "平和": 1, "老少副": 1, "单钓将": 1},
        id="三色三步高+789m-老少副",
    ),
    pytest.param(
        "[123m]234m345m123p5p +5p",
        {"一色三步高": 1, "平和": 1, "喜相逢": 1, "缺一门": 1, "单钓将": 1},
        id="一色三步高+123p-喜相逢",
    ),
    pytest.param(
        "[123m]456m789m123p5p +5p",
        {"清龙": 1, "平和": 1, "喜相逢": 1, "缺一门": 1, "单钓将": 1},
        id="清龙+123p-喜相逢",
    ),
    pytest.param(
        "[111m][222p]333s111p5p +5p",
        {
            "三色三节高": 1,
            "碰碰和": 1,
            "双同刻": 1,
            "双暗刻": 1,
            "幺九刻": 2,
            "无字": 1,
            "单钓将": 1,
        },
        id="三色三节高+111p-双同刻",
    ),
]


@pytest.mark.parametrize(("hand", "expected"), ACCOUNT_ONCE)
def test_account_once(hand: str, expected: dict[str, int]) -> None:
    """第十条一(五)5: a free set combines once with a set already combined into a fan."""
    assert fan_table(score(hand)) == expected


# ------------------------------------------------------------------------------------------------
# 4. 就高不就低原则


def test_take_the_higher_pungs_over_chows() -> None:
    """111 222 333m read as pungs (一色三节高 24 + 三暗刻 16) beats 123 ×3 (一色三同顺 24 + 平和 2)."""
    result = score("111222333m456p9s +9s")
    assert fan_table(result) == {
        "一色三节高": 1,
        "三暗刻": 1,
        "门前清": 1,
        "幺九刻": 1,
        "无字": 1,
        "单钓将": 1,
    }
    assert result.total == 45


def test_take_the_higher_chows_over_pungs() -> None:
    """With 123m melded, 111 222 333m can only be chows: 123 ×4 = 一色四同顺 (48)."""
    result = score("[123m]111222333m9s +9s")
    assert fan_table(result) == {"一色四同顺": 1, "全带幺": 1, "平和": 1, "缺一门": 1, "单钓将": 1}


def test_take_the_higher_seven_pairs_over_regular() -> None:
    """112233m 445566p 77s: 七对 (24) beats 123 123 456 456 77 (一般高 ×2 平和 门前清 ...)."""
    result = score("112233m445566p7s +7s")
    assert fan_table(result) == {"七对": 1, "无字": 1}


def test_take_the_higher_quadruple_chow_over_seven_pairs() -> None:
    """111122223333m 55p: 一色四同顺 (48) beats 七对 + 四归一 ×3 (30)."""
    result = score("111122223333m5p +5p")
    assert fan_table(result) == {"一色四同顺": 1, "门前清": 1, "平和": 1, "缺一门": 1, "单钓将": 1}


def test_take_the_higher_nine_gates_reading() -> None:
    """九莲宝灯 won on 1m: 111 123 456 789 99 (清龙 + 四归一) is the best reading of the rest."""
    result = score("1112345678999m +1m")
    assert fan_table(result) == {"九莲宝灯": 1, "清龙": 1, "四归一": 1}


# ------------------------------------------------------------------------------------------------
# The 8-point minimum (起和分) and flowers


def test_eight_points_meet_the_minimum() -> None:
    result = score("[234m][567p]678s11z55z +5z")  # 五门齐 6 + 箭刻 2
    assert result.points_without_flowers == 8
    assert result.meets_minimum


def test_seven_points_do_not_meet_it() -> None:
    result = score("[234m][567p][678s][444z]5s +5s")  # 全求人 6 + 幺九刻 1
    assert fan_table(result) == {"全求人": 1, "幺九刻": 1}
    assert result.is_winning
    assert not result.meets_minimum


@pytest.mark.parametrize("flowers", [1, 3, 8])
def test_flowers_do_not_count_toward_the_minimum(flowers: int) -> None:
    """第五条三十四(二): 花牌分不计在起和分内. 7 points + flowers is still short of 8."""
    result = score("[234m][567p][678s][444z]5s +5s", flowers=flowers)
    assert result.flower_points == flowers
    assert result.points_without_flowers == 7
    assert not result.meets_minimum


def test_flowers_are_added_to_a_valid_win() -> None:
    """#81: 每花计一分 … 和牌后才能计分: a chicken hand with 3 flowers scores 8 + 3."""
    result = score("[234m][567p]678s55s11z +5s", flowers=3)
    assert fan_table(result) == {"无番和": 1, "花牌": 3}
    assert result.meets_minimum
    assert result.total == 11


def test_no_flowers_without_a_winning_shape() -> None:
    result = score("234m567p678s55s12z +5s", flowers=3)
    assert not result.is_winning
    assert result.fans == ()
    assert not result.meets_minimum


def test_json_minimum_ignores_flowers() -> None:
    obj = {
        "concealed": ["T6", "T7", "T8", "T5", "T5", "F1", "F1"],
        "melds": [
            {"type": "chow", "tiles": ["W2", "W3", "W4"]},
            {"type": "chow", "tiles": ["B5", "B6", "B7"]},
        ],
        "win_tile": "T5",
        "self_drawn": True,
        "flowers": 7,
    }
    out = evaluate(obj)  # 自摸 1 + 7 flowers = 8, but 1 point without flowers
    assert out["ok"] is True
    assert out["total"] == 8
    assert out["meets_minimum"] is False


# ------------------------------------------------------------------------------------------------
# The profiles: 1998 and mil (RULES.md "Two fan profiles")


@pytest.mark.parametrize(
    ("hand", "flags", "common"),
    [
        pytest.param("[2222m](5555p)678s33s11z +3s", {}, {}, id="discard"),
        pytest.param(
            "[2222m](5555p)678s33s11z +3s",
            {"self_drawn": True},
            {"双暗刻": 1, "自摸": 1},
            id="self-drawn",
        ),
    ],
)
def test_melded_and_concealed_kong(
    hand: str, flags: dict[str, Any], common: dict[str, int]
) -> None:
    """One melded + one concealed kong: 明杠 1 + 暗杠 2 under 1998, 明暗杠 5 under mil."""
    old = score(hand, "1998", **flags)
    mil = score(hand, "mil", **flags)
    assert fan_table(old) == {"明杠": 1, "暗杠": 1, **common}
    assert fan_table(mil) == {"明暗杠": 1, **common}
    assert mil.total - old.total == 5 - 3
    assert Fan.MELDED_AND_CONCEALED_KONG.points == 5


@pytest.mark.parametrize(
    "hand",
    [
        "(2222m)(5555p)678s33s11z +3s",  # 双暗杠
        "[2222m][5555p]678s33s11z +3s",  # 双明杠
        "[2222m][5555p](7777s)33s45m +6m",  # 三杠
        "(5555p)[234m]678s33s11z +3s",  # 暗杠
    ],
)
def test_profiles_agree_on_other_kongs(hand: str) -> None:
    assert fan_table(score(hand, "1998")) == fan_table(score(hand, "mil"))
    assert "明暗杠" not in fan_table(score(hand, "mil"))


def test_unknown_profile_is_refused() -> None:
    with pytest.raises(ValueError, match="profile"):
        score("[234m][567p]678s55s11z +5s", "2006")
