"""Disputed and tricky hands, scored by the accepted reading (RULES.md "Both profiles", 第九条, 第十条).

Each case gives the whole expected fan table (both profiles agree on every hand here: none has one
melded and one concealed kong) and, in its id and comment, the rule it settles. Context defaults: a
win on a discard, seat and prevalent wind East, no flowers.
"""

from __future__ import annotations

from typing import Any

import pytest

from guobiao import Fan, Wind
from scoring import PROFILES, fan_table, score


def case(hand: str, expected: dict[str, int], id: str, **flags: Any) -> Any:
    return pytest.param(hand, flags, expected, id=id)


SD = {"self_drawn": True}

# fmt: off
DISPUTED = [
    # -- 七对 (#19) with other fans: its 不计 list is only 不求人 单钓 (+ 门前清 by the reading) --------
    case("1122334455667z +7z", {"七对": 1, "字一色": 1},
         "七对+字一色"),  # RULES: the rulebook's own example counts both
    case("1122445577889m +9m", {"七对": 1, "清一色": 1},
         "七对+清一色"),
    case("11m11m55p77p99s22z3z +3z", {"七对": 1, "四归一": 1},
         "七对+四归一-four-1m-as-two-pairs"),
    case("11m99m11p99p11s11m9s +9s", {"七对": 1, "清幺九": 1, "四归一": 1},
         "七对+清幺九+四归一"),
    case("11m99m11p99p11s22z3z +3z", {"七对": 1, "混幺九": 1},
         "七对+混幺九"),
    case("22s33s44s66s88s66z2s +2s", {"七对": 1, "绿一色": 1, "四归一": 1},
         "七对+绿一色"),
    case("77m88m99m77p88p99p7s +7s", {"七对": 1, "全大": 1},
         "七对+全大"),
    # -- 清幺九 (#8): 不计同刻 means 双同刻; 三同刻 still counts (rulebook example) --------------------
    case("[111m][111p]111s999m9p +9p", {"清幺九": 1, "三同刻": 1, "双暗刻": 1, "单钓将": 1},
         "清幺九+三同刻-no-双同刻"),
    # -- 大四喜 (#1) may add 字一色 混幺九 混一色 ---------------------------------------------------
    case("[111z][222z]333z444z5z +5z", {"大四喜": 1, "字一色": 1, "双暗刻": 1, "单钓将": 1},
         "大四喜+字一色"),
    case("[111z][222z]333z444z9m +9m",
         {"大四喜": 1, "混幺九": 1, "混一色": 1, "双暗刻": 1, "单钓将": 1},
         "大四喜+混幺九+混一色"),
    case("[111z][222z]333z555z6z +6z",
         {"字一色": 1, "三风刻": 1, "箭刻": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1, "单钓将": 1},
         "字一色+三风刻+风刻"),
    # -- 九莲宝灯 (#4): 不计清一色, and by the reading 门前清/不求人 无字 and one 幺九刻 ----------------
    case("1112345678999m +1m", {"九莲宝灯": 1, "清龙": 1, "四归一": 1},
         "九莲宝灯-on-1-清龙+四归一"),
    case("1112345678999m +2m", {"九莲宝灯": 1, "双暗刻": 1, "连六": 1, "幺九刻": 1},
         "九莲宝灯-on-2"),
    case("1112345678999m +3m", {"九莲宝灯": 1, "连六": 1},
         "九莲宝灯-on-3"),
    case("1112345678999m +4m", {"九莲宝灯": 1, "连六": 1},
         "九莲宝灯-on-4"),
    case("1112345678999m +5m", {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1},
         "九莲宝灯-on-5"),
    case("1112345678999m +6m", {"九莲宝灯": 1, "连六": 1},
         "九莲宝灯-on-6"),
    case("1112345678999m +7m", {"九莲宝灯": 1, "连六": 1},
         "九莲宝灯-on-7"),
    case("1112345678999m +8m", {"九莲宝灯": 1, "双暗刻": 1, "连六": 1, "幺九刻": 1},
         "九莲宝灯-on-8"),
    case("1112345678999m +9m", {"九莲宝灯": 1, "清龙": 1, "四归一": 1},
         "九莲宝灯-on-9"),
    case("1112345678999p +5p", {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1, "自摸": 1},
         "九莲宝灯-self-drawn-自摸-not-不求人", **SD),
    # -- inherently concealed forms: never 门前清; self-drawn 自摸, never 不求人 (RULES) ---------------
    case("222m444m777p999s5p +5p", {"四暗刻": 1, "幺九刻": 1, "无字": 1, "自摸": 1},
         "四暗刻-self-drawn-自摸-not-不求人", **SD),
    case("2233445566778p +8p", {"连七对": 1, "断幺": 1, "自摸": 1},
         "连七对-self-drawn", **SD),
    case("19m19p19s1234567z +1m", {"十三幺": 1, "自摸": 1},
         "十三幺-self-drawn", **SD),
    case("14m258p369s12345z +6z", {"全不靠": 1, "自摸": 1},
         "全不靠-self-drawn", **SD),
    case("14m258p36s123456z +7z", {"七星不靠": 1, "自摸": 1},
         "七星不靠-self-drawn", **SD),
    case("1122334455667z +7z", {"七对": 1, "字一色": 1, "自摸": 1},
         "七对-self-drawn", **SD),
    case("111222333m456p9s +9s", {"一色三节高": 1, "三暗刻": 1, "不求人": 1, "幺九刻": 1, "无字": 1,
                                  "单钓将": 1},
         "不求人-never-adds-自摸", **SD),
    # -- waits (#77-79): only the unique wait counts, at most one of them -------------------------
    case("[234m]567p345s1112m +2m", {"幺九刻": 1, "无字": 1},
         "1112-waits-on-2-and-3-no-单钓将"),
    case("[234m]567p345s1112m +3m", {"平和": 1},
         "1112-won-on-3-no-边张"),
    case("W1W1W1W1W2W2W3W3W4W4W6B1B1 +W5",
         {"门前清": 1, "四归一": 1, "连六": 1, "幺九刻": 1, "缺一门": 1, "无字": 1},
         "七对-shape-counts-in-uniqueness-no-坎张"),  # regular waits: 5m only; as 七对: 6m
    case("W1W1W1W1W3W4W5W6W6W6W8W8W8 +W2",
         {"清一色": 1, "门前清": 1, "四归一": 1, "双暗刻": 1, "连六": 1, "幺九刻": 1},
         "a-fifth-1m-counts-as-a-wait-no-坎张"),  # 2m and the (impossible) 5th 1m
    case("[234p][567p]789s4556m +5m", {"平和": 1, "连六": 1, "坎张": 1},
         "4556-on-5-坎张-not-also-单钓将"),  # #78 text example
    case("[234p][567p]789s1233m +3m", {"平和": 1, "连六": 1, "边张": 1},
         "1233-on-3-边张-not-also-单钓将"),  # #77 text example
    case("[234m][567p]678s55s11z +5s", {"无番和": 1},
         "shanpon-is-no-wait-fan"),
    # -- 和绝张 (#58) -----------------------------------------------------------------------------
    case("[777s][234m]567p11z89s +7s", {"和绝张": 1, "四归一": 1, "边张": 1},
         "和绝张-automatic-three-7s-in-own-pung"),
    case("[567s][678s][789s]89s11z +7s",
         {"一色三步高": 1, "混一色": 1, "和绝张": 1, "四归一": 1, "一般高": 1, "边张": 1},
         "和绝张-automatic-three-7s-in-own-chows"),
    case("[234m][567p]789s11z35s +4s", {"抢杠和": 1, "坎张": 1},
         "抢杠和-never-with-和绝张", kong=True, fourth=True),
    case("[234m][567p]789s11z35s +4s", {"海底捞月": 1, "和绝张": 1, "坎张": 1},
         "海底捞月+和绝张", last=True, fourth=True),
    # -- win-flag fans -----------------------------------------------------------------------------
    case("[234m][6666p]678s55s11z +5s", {"妙手回春": 1, "杠上开花": 1, "明杠": 1},
         "妙手回春+杠上开花-combine", self_drawn=True, kong=True, last=True),
    case("[234m][567p]678s55s11z +5s", {"自摸": 1, "花牌": 1},
         "flower-replacement-win-is-自摸-not-杠上开花", self_drawn=True, flowers=1),  # #81 text
    # -- 组合龙 (#35) + a set + a pair; 全不靠 (#34) with 组合龙 ----------------------------------------
    case("147m258p369s444z2z +2z", {"组合龙": 1, "门前清": 1, "幺九刻": 1, "单钓将": 1},
         "组合龙+pung+pair"),
    case("147m258p369s123m5p +5p", {"组合龙": 1, "门前清": 1, "平和": 1, "单钓将": 1},
         "组合龙+chow+pair-平和"),
    case("[123m]147m258p369s5p +5p", {"组合龙": 1, "平和": 1, "单钓将": 1},
         "组合龙+melded-chow"),
    case("147m258p369s99m11z +9m", {"组合龙": 1, "门前清": 1, "幺九刻": 1},
         "组合龙+shanpon"),
    case("147m258p369s1234z +5z", {"全不靠": 1, "组合龙": 1},
         "全不靠+组合龙-24"),
    # -- wind pungs ------------------------------------------------------------------------------
    case("[222z][333z]444z999m5p +5p",
         {"三风刻": 1, "碰碰和": 1, "双暗刻": 1, "幺九刻": 1, "缺一门": 1, "单钓将": 1},
         "三风刻+幺九刻-of-the-4th-pung"),
    case("[111z][222z]333z999m5p +5p",
         {"三风刻": 1, "碰碰和": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1, "幺九刻": 1, "缺一门": 1,
          "单钓将": 1},
         "三风刻+圈风刻+门风刻"),
    case("[111z][222z]333z44z35m +4m",
         {"小四喜": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1, "坎张": 1},
         "小四喜+圈风刻+门风刻"),
    case("[222z]234m567p345s9p +9p", {"圈风刻": 1, "门风刻": 1, "单钓将": 1},
         "圈风刻+门风刻-same-wind", seat=Wind.SOUTH, prevalent=Wind.SOUTH),
    # -- kongs and concealed pungs: one fan of each family ------------------------------------------
    case("(2222m)(5555p)678s33s11z +3s", {"双暗杠": 1, "门前清": 1},
         "双暗杠-excludes-双暗刻"),
    case("(2222m)(5555p)678s33s11z +3s", {"双暗杠": 1, "三暗刻": 1, "不求人": 1},
         "双暗杠+三暗刻", **SD),
    case("[1111m](2222p)(3333s)444z5z +5z",
         {"三杠": 1, "三暗刻": 1, "三色三节高": 1, "碰碰和": 1, "五门齐": 1, "幺九刻": 2,
          "单钓将": 1},
         "三杠+三暗刻"),
    case("(1111m)(1111p)(1111s)999m5s +5s",
         {"四暗刻": 1, "三杠": 1, "三同刻": 1, "幺九刻": 4, "无字": 1, "单钓将": 1, "自摸": 1},
         "四暗刻+三杠+三同刻", **SD),
    case("[1111m][2222p](3333s)(4444z)5z +5z",
         {"四杠": 1, "三色三节高": 1, "五门齐": 1, "双暗刻": 1, "幺九刻": 2},
         "四杠+双暗刻-no-单钓将"),
    # -- 一色三步高 (#30) step 1 and step 2 ------------------------------------------------------------
    case("[123m]234m345m789p5s +5s", {"一色三步高": 1, "平和": 1, "单钓将": 1},
         "一色三步高-step-1"),
    case("[123m]345m567m789p5s +5s", {"一色三步高": 1, "平和": 1, "单钓将": 1},
         "一色三步高-step-2"),
    # -- 缺一门 (#75) beside 大三元: the rulebook's example ----------------------------------------------
    case("[555z][666z]777z345m8p +8p", {"大三元": 1, "缺一门": 1, "单钓将": 1},
         "大三元+缺一门"),
]
# fmt: on


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(("hand", "flags", "expected"), DISPUTED)
def test_disputed(hand: str, flags: dict[str, Any], expected: dict[str, int], rules: str) -> None:
    result = score(hand, rules, **flags)
    assert result.is_winning
    assert fan_table(result) == expected
    assert result.total == sum(Fan.by_name(n).points * c for n, c in expected.items())


def test_no_heavenly_or_earthly_hands() -> None:
    """RULES.md: no 天和/地和/人和 in the 1998 table."""
    names = {fan.zh for fan in Fan}
    assert not names & {"天和", "地和", "人和"}
