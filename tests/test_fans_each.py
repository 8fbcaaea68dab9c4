"""Every fan of 第九条 (and 明暗杠 of the ``mil`` profile), one hand that has it, one that nearly has it.

Each case states the *whole* expected fan table of its hand, derived from the rules: the fan's
definition in 第九条 (the number in the test id is the fan's number there), the 不计 list after it, and
the non-repeat principle of 第十条一(五)1 as the digest ``/work/shared/spec/RULES.md`` reads it
("reading excl." column). The companions of each hand are explained in its ``why``. The expectations
were cross-checked against the reference calculator (PyMahjongGB) while writing, but they are the
rules' answer, not a copy of anyone's output.

Context defaults: a win on a discard, seat wind East, prevalent wind East, no flowers. A pung
completed by a discarded winning tile is an exposed pung (第五条十三: 碰出的为明刻).

Every case runs under both profiles: ``1998`` and ``mil`` differ only when the hand has exactly one
melded and one concealed kong (明杠 + 暗杠 under 1998, 明暗杠 under mil: RULES.md "Two fan profiles").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from guobiao import Fan, Wind
from scoring import PROFILES, fan_table, score


@dataclass(frozen=True)
class Case:
    """One hand for one fan. ``fans`` is the full expected table under 1998 (None: not a win)."""

    fan: str  # the fan under test (中文 name, as in 第九条)
    hand: str
    fans: dict[str, int] | None
    why: str
    flags: dict[str, Any] = field(default_factory=dict)
    mil: dict[str, int] | None = None  # the table under mil when it differs (明暗杠)

    def expected(self, rules: str) -> dict[str, int] | None:
        if rules == "mil" and self.mil is not None:
            return self.mil
        return self.fans


# fmt: off
HAS: list[Case] = [
    # ---- 88 ----
    Case("大四喜", "[111z][222z]333z444z5m +5m",
         {"大四喜": 1, "混一色": 1, "双暗刻": 1, "单钓将": 1},
         "#1: 4 wind pungs; 不计圈风刻 门风刻 三风刻 碰碰和 (text), 幺九刻 (reading). 万+字 = 混一色; "
         "西 北 concealed = 双暗刻; 5m is the only wait = 单钓将"),
    Case("大三元", "[555z][666z]777z345m8p +8p",
         {"大三元": 1, "缺一门": 1, "单钓将": 1},
         "#2: 中发白 pungs; 不计箭刻 (text), 双箭刻 (reading); 缺一门 (no 条) still counts"),
    Case("绿一色", "[234s][666z]234s66s88s +8s",
         {"绿一色": 1, "箭刻": 1, "一般高": 1},
         "#3: only 23468条 and 发; 不计混一色 (text, and so 缺一门); 发 pung = 箭刻; 234s twice = 一般高; "
         "66s/88s wait on two tiles: no wait fan"),
    Case("绿一色", "234s234s666s888s2s +2s",
         {"绿一色": 1, "清一色": 1, "门前清": 1, "四归一": 1, "双暗刻": 1, "断幺": 1, "一般高": 1},
         "#3: without 发 it 'may also count 清一色' (text); four 2s in chows and pair = 四归一; "
         "666s 888s concealed = 双暗刻; 2s is not the only wait (5s also wins)"),
    Case("九莲宝灯", "1112345678999m +5m",
         {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1},
         "#4: 1112345678999 concealed + a tile of the suit; 不计清一色 (text), 门前清 无字 and one "
         "幺九刻 (reading); 111 234 55 678 999 keeps 双暗刻 and the other 幺九刻"),
    Case("四杠", "[1111m][2222p](3333s)(4444z)5z +5z",
         {"四杠": 1, "三色三节高": 1, "五门齐": 1, "双暗刻": 1, "幺九刻": 2},
         "#5: 4 kongs; 不计单钓将 (reading) and 碰碰和 (non-repeat); one kong-family fan only; the two "
         "concealed kongs are 暗刻 (双暗刻); 1m 2p 3s = 三色三节高; 1m and 北 = 幺九刻 ×2"),
    Case("四杠", "[1111m][2222p][3333s][4444z]5z +5z",
         {"四杠": 1, "三色三节高": 1, "五门齐": 1, "全求人": 1, "幺九刻": 2},
         "#5 with four melded kongs, won on a discard: 全求人 (#52, melded kongs are melds)"),
    Case("连七对", "2233445566778p +8p",
         {"连七对": 1, "断幺": 1},
         "#6: 7 consecutive pairs of one suit; 不计清一色 不求人 单钓 (text), 七对 门前清 无字 "
         "(reading); 断幺 is not implied (1-7 or 3-9 would not be all simples)"),
    Case("十三幺", "19m19p19s1234567z +1m",
         {"十三幺": 1},
         "#7: 不计五门齐 不求人 单钓 (text), 门前清 混幺九 (reading)"),
    # ---- 64 ----
    Case("清幺九", "[111m][999m]111p999s9p +9p",
         {"清幺九": 1, "双暗刻": 1, "单钓将": 1},
         "#8: pungs and pair of 1s and 9s; 不计碰碰和 同刻 无字 (text: 同刻 = 双同刻 here, 1m/1p and "
         "9m/9s), 混幺九 幺九刻 全带幺 (reading)"),
    Case("小四喜", "[111z][222z]333z44z35m +4m",
         {"小四喜": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1, "坎张": 1},
         "#9: 3 wind pungs + wind pair; 不计三风刻 (text), 幺九刻 (reading); 东 pung still counts "
         "圈风刻 and 门风刻 (RULES: 小四喜 may add them); 35m waits on 4m only = 坎张"),
    Case("小三元", "[555z][666z]77z345m79p +8p",
         {"小三元": 1, "缺一门": 1, "坎张": 1},
         "#10: 2 dragon pungs + dragon pair; 不计箭刻 (text), 双箭刻 (reading)"),
    Case("字一色", "[222z][555z]444z666z3z +3z",
         {"字一色": 1, "双箭刻": 1, "双暗刻": 1, "单钓将": 1},
         "#11: honours only; 不计碰碰和 (text), 混幺九 全带幺 幺九刻 (reading); 中 发 = 双箭刻; "
         "南 北 are neither seat nor prevalent wind"),
    Case("四暗刻", "222m444m777p999s5p +5p",
         {"四暗刻": 1, "幺九刻": 1, "无字": 1},
         "#12: 4 concealed pungs; 不计门前清 碰碰和 (text), 三暗刻 双暗刻 (reading); 6p also "
         "wins (77p + 567p): no 单钓将"),
    Case("一色双龙会", "1231237897855m +9m",
         {"一色双龙会": 1, "门前清": 1},
         "#13: 123 123 789 789 + 55 of one suit; 不计平和 七对 清一色 (text), 一般高 老少副 无字 "
         "(reading); 78m waits on 6m and 9m: no 边张"),
    # ---- 48 ----
    Case("一色四同顺", "[123m][123m]123123m5p +5p",
         {"一色四同顺": 1, "平和": 1, "缺一门": 1, "单钓将": 1},
         "#14: 4 identical chows; 不计一色三节高 一般高 四归一 (text), 一色三同顺 (reading)"),
    Case("一色四节高", "[222p][333p][444p]555p7s +7s",
         {"一色四节高": 1, "断幺": 1, "缺一门": 1, "单钓将": 1},
         "#15: pungs 2p 3p 4p 5p; 不计一色三同顺 碰碰和 (text), 一色三节高 (reading)"),
    # ---- 32 ----
    Case("一色四步高", "[123m][234m]345456m9p +9p",
         {"一色四步高": 1, "平和": 1, "缺一门": 1, "单钓将": 1},
         "#16 step 1: 123 234 345 456; 一色三步高 and 连六 of its own chows not counted (不拆移)"),
    Case("一色四步高", "[123m][345m]567789m9p +9p",
         {"一色四步高": 1, "平和": 1, "缺一门": 1, "单钓将": 1},
         "#16 step 2: 123 345 567 789; no 老少副 from its own 123/789 (不拆移)"),
    Case("三杠", "[1111m][5555p](7777s)456m9p +9p",
         {"三杠": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
         "#17: 3 kongs, one kong-family fan; one concealed kong is no 暗刻 fan"),
    Case("混幺九", "[111m][999m]222z999p9s +9s",
         {"混幺九": 1, "双同刻": 1, "双暗刻": 1, "单钓将": 1},
         "#18: terminals and honours only; 不计碰碰和 (text), 幺九刻 全带幺 (reading); 9m/9p = 双同刻"),
    # ---- 24 ----
    Case("七对", "11m55m22p77p99s11z3z +3z",
         {"七对": 1},
         "#19: 7 pairs; 不计不求人 单钓 (text), 门前清 (reading)"),
    Case("七星不靠", "14m258p36s123456z +7z",
         {"七星不靠": 1},
         "#20: all 7 honours + 7 knitted suit tiles; 不计五门齐 不求人 单钓 (text), 全不靠 门前清 "
         "(reading)"),
    Case("全双刻", "[222m][444p]666s888m2p +2p",
         {"全双刻": 1, "双暗刻": 1, "单钓将": 1},
         "#21: even pungs and pair; 不计碰碰和 断幺 (text), 无字 (reading)"),
    Case("清一色", "[123m][345m]678m999m4m +4m",
         {"清一色": 1, "连六": 1, "幺九刻": 1},
         "#22: one suit; 不计无字 (text); 345/678 = 连六; 4m and 5m both win: no 单钓将"),
    Case("一色三同顺", "[123p]123p123p456s9m +9m",
         {"一色三同顺": 1, "平和": 1, "单钓将": 1},
         "#23: 3 identical chows; 不计一色三节高 (text), 一般高 (reading)"),
    Case("一色三节高", "[111s][222s]333s567m9p +9p",
         {"一色三节高": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
         "#24: pungs 1s 2s 3s; 不计一色三同顺 (text)"),
    Case("全大", "[789m][999p]777s88s89m +7m",
         {"全大": 1, "一般高": 1, "幺九刻": 1, "边张": 1},
         "#25: only 7 8 9; 不计无字 (text), 大于五 (reading); 89m waits on 7m only = 边张"),
    Case("全中", "[456m][555p]444s66s45m +6m",
         {"全中": 1, "一般高": 1},
         "#26: only 4 5 6; 不计断幺 (text), 无字 (reading); 45m waits on 3m and 6m"),
    Case("全小", "[123m][111p]222s33s12m +3m",
         {"全小": 1, "一般高": 1, "幺九刻": 1, "边张": 1},
         "#27: only 1 2 3; 不计无字 (text), 小于五 (reading)"),
    # ---- 16 ----
    Case("清龙", "[123m]456m789m345s2p +2p",
         {"清龙": 1, "平和": 1, "单钓将": 1},
         "#28: 123 456 789 of one suit; its own 连六 and 老少副 not counted (不拆移)"),
    Case("三色双龙会", "[123m][789m]123p789p5s +5s",
         {"三色双龙会": 1, "单钓将": 1},
         "#29: 123+789 in two suits, 55 in the third; 不计喜相逢 老少副 无字 平和 (text)"),
    Case("一色三步高", "[123m]234m345m789p5s +5s",
         {"一色三步高": 1, "平和": 1, "单钓将": 1},
         "#30: 123 234 345 of one suit (step 1)"),
    Case("全带五", "[456m][555p]345s567m5s +5s",
         {"全带五": 1},
         "#31: a 5 in every set and the pair; 不计断幺 (text), 无字 (reading); 2s also wins"),
    Case("三同刻", "[222m][222p]222s567m9p +9p",
         {"三同刻": 1, "无字": 1, "单钓将": 1},
         "#32: pungs of 2 in three suits; 双同刻 not counted (reading)"),
    Case("三暗刻", "[234m]111m555p999s7z +7z",
         {"三暗刻": 1, "幺九刻": 2, "单钓将": 1},
         "#33: 3 concealed pungs; 双暗刻 not counted (reading)"),
    # ---- 12 ----
    Case("全不靠", "14m258p369s12345z +6z",
         {"全不靠": 1},
         "#34: 14 singles, knitted 147/258/369 + honours; 不计五门齐 不求人 单钓 (text), 门前清 "
         "(reading)"),
    Case("组合龙", "147m258p369s444z2z +2z",
         {"组合龙": 1, "门前清": 1, "幺九刻": 1, "单钓将": 1},
         "#35: 147m 258p 369s + a set + a pair (第八条 reading); 北 pung = 幺九刻; 2z the only wait"),
    Case("大于五", "[678m][999p]777s66s78m +9m",
         {"大于五": 1, "幺九刻": 1},
         "#36: only 6-9; 不计无字 (text); 78m waits on 6m and 9m"),
    Case("小于五", "[234m][111p]333s44s12m +3m",
         {"小于五": 1, "幺九刻": 1, "边张": 1},
         "#37: only 1-4; 不计无字 (text)"),
    Case("三风刻", "[222z][333z]444z567m9p +9p",
         {"三风刻": 1, "缺一门": 1, "单钓将": 1},
         "#38: 3 wind pungs; their 幺九刻 not counted (reading)"),
    # ---- 8 ----
    Case("花龙", "[123m][456p]789s234m9p +9p",
         {"花龙": 1, "平和": 1, "单钓将": 1},
         "#39: 123 456 789 over three suits"),
    Case("推不倒", "[123p][888p]456s777z9s +9s",
         {"推不倒": 1, "箭刻": 1, "单钓将": 1},
         "#40: only 1234589饼 245689条 白; 不计缺一门 (text)"),
    Case("三色三同顺", "[123m][123p]123s567m9s +9s",
         {"三色三同顺": 1, "平和": 1, "单钓将": 1},
         "#41: 123 in three suits; its 喜相逢 not counted (reading)"),
    Case("三色三节高", "[111m][222p]333s567m9s +9s",
         {"三色三节高": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
         "#42: pungs 1m 2p 3s"),
    Case("无番和", "[234m][567p]678s55s11z +5s",
         {"无番和": 1},
         "#43: no other fan: melds (no 门前清), a pung (no 平和), honours (no 无字 断幺), all suits, "
         "no dragons (no 五门齐), a two-tile wait"),
    Case("妙手回春", "[234m][567p]678s55s11z +5s",
         {"妙手回春": 1},
         "#44: self-drawn last tile of the wall; 不计自摸 (text)",
         {"self_drawn": True, "last": True}),
    Case("海底捞月", "[234m][567p]678s55s11z +5s",
         {"海底捞月": 1},
         "#45: won on the last discard",
         {"last": True}),
    Case("杠上开花", "[234m][6666p]678s55s11z +5s",
         {"杠上开花": 1, "明杠": 1},
         "#46: won on a kong replacement; 不计自摸 (text)",
         {"self_drawn": True, "kong": True}),
    Case("抢杠和", "[234m][567p]789s11z35s +4s",
         {"抢杠和": 1, "坎张": 1},
         "#47: won on a tile added to another's pung",
         {"kong": True}),
    # ---- 6 ----
    Case("碰碰和", "[222m][555p]888s33m77p +3m",
         {"碰碰和": 1, "断幺": 1},
         "#48: 4 pungs + pair; 888s is the only concealed pung (3m completed by a discard)"),
    Case("混一色", "[123m][555m]678m11z99m +9m",
         {"混一色": 1, "幺九刻": 1},
         "#49: one suit + honours; the pair of 东 is no fan"),
    Case("三色三步高", "[123m][234p]345s789m5p +5p",
         {"三色三步高": 1, "平和": 1, "老少副": 1, "单钓将": 1},
         "#50: 123m 234p 345s; the 4th chow 789m combines once with 123m = 老少副 (套算一次)"),
    Case("五门齐", "[234m][567p]678s11z55z +5z",
         {"五门齐": 1, "箭刻": 1},
         "#51: 万 饼 条 风 箭 all present"),
    Case("全求人", "[234m][567p][678s][444z]5s +5s",
         {"全求人": 1, "幺九刻": 1},
         "#52: 4 melds, a single wait won on a discard; 不计单钓 (text)"),
    Case("双暗杠", "(2222m)(5555p)678s33s11z +3s",
         {"双暗杠": 1, "门前清": 1},
         "#53: 2 concealed kongs; 暗杠 双暗刻 not counted (reading); concealed kongs keep 门前清 "
         "(第七条七(二))"),
    Case("双箭刻", "[555z][666z]234m567p9s +9s",
         {"双箭刻": 1, "单钓将": 1},
         "#54: 2 dragon pungs; 箭刻 not counted (reading)"),
    # ---- 4 ----
    Case("全带幺", "[123m][789p]111s789s9m +9m",
         {"全带幺": 1, "喜相逢": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
         "#55: a terminal or honour in every set and the pair; 789p/789s = 喜相逢"),
    Case("不求人", "234m567p678s55s11z +5s",
         {"不求人": 1},
         "#56: no melds, self-drawn; 自摸 门前清 not counted (reading)",
         {"self_drawn": True}),
    Case("双明杠", "[2222m][5555p]678s33s11z +3s",
         {"双明杠": 1},
         "#57: 2 melded kongs; 明杠 not counted (reading)"),
    Case("和绝张", "[234m][567p]789s11z35s +4s",
         {"和绝张": 1, "坎张": 1},
         "#58: the 4th tile, the other three visible",
         {"fourth": True}),
    # ---- 2 ----
    Case("箭刻", "[555z]234m567p345s9p +9p",
         {"箭刻": 1, "单钓将": 1},
         "#59: a dragon pung; not also 幺九刻 (reading)"),
    Case("圈风刻", "[222z]234m567p345s9p +9p",
         {"圈风刻": 1, "单钓将": 1},
         "#60: pung of the prevalent wind (南 in the South round); not also 幺九刻",
         {"prevalent": Wind.SOUTH}),
    Case("门风刻", "[222z]234m567p345s9p +9p",
         {"门风刻": 1, "单钓将": 1},
         "#61: pung of the seat wind (南 for the South seat); not also 幺九刻",
         {"seat": Wind.SOUTH}),
    Case("门前清", "234m567p678s55s11z +5s",
         {"门前清": 1},
         "#62: no melds, won on a discard"),
    Case("平和", "[234m]567p678s45s99p +6s",
         {"平和": 1},
         "#63: 4 chows + a suited pair; 无字 not counted (reading); 45s waits on 3s and 6s"),
    Case("四归一", "[234m]222234p678s9s +9s",
         {"四归一": 1, "喜相逢": 1, "无字": 1},
         "#64: four 2p in a pung and a chow, not a kong; 234m/234p = 喜相逢; 6s also wins"),
    Case("双同刻", "[222m]222p345s678m9p +9p",
         {"双同刻": 1, "无字": 1, "单钓将": 1},
         "#65: pungs of 2 in two suits"),
    Case("双暗刻", "[234m]555p777s678m9s +9s",
         {"双暗刻": 1, "无字": 1},
         "#66: 2 concealed pungs; 8s also wins (77 + 789s)"),
    Case("暗杠", "(5555p)[234m]678s33s11z +3s",
         {"暗杠": 1},
         "#67: a concealed kong"),
    Case("断幺", "[234m][567p]678s44s88p +4s",
         {"断幺": 1},
         "#68: no terminals or honours; 无字 not counted (reading)"),
    # ---- 1 ----
    Case("一般高", "[234m]234m567p345s9p +9p",
         {"一般高": 1, "平和": 1, "单钓将": 1},
         "#69: 234m twice"),
    Case("喜相逢", "[234m]234p567s678m9s +9s",
         {"喜相逢": 1, "平和": 1, "单钓将": 1},
         "#70: 234 in two suits"),
    Case("连六", "[123m]456m678p345s9s +9s",
         {"连六": 1, "平和": 1, "单钓将": 1},
         "#71: 123m + 456m"),
    Case("老少副", "[123m]789m456p567s9p +9p",
         {"老少副": 1, "平和": 1, "单钓将": 1},
         "#72: 123m + 789m"),
    Case("幺九刻", "[111m]234p567s678m9s +9s",
         {"幺九刻": 1, "无字": 1, "单钓将": 1},
         "#73: a pung of 1m"),
    Case("明杠", "[5555p][234m]678s33s11z +3s",
         {"明杠": 1},
         "#74: a melded kong"),
    Case("缺一门", "[234m]567m456p678p1z +1z",
         {"缺一门": 1, "连六": 1, "单钓将": 1},
         "#75: no 条; 234m + 567m = 连六"),
    Case("无字", "[234m][567p]678s55s99m +5s",
         {"无字": 1},
         "#76: no honours (and a 9: no 断幺)"),
    Case("边张", "[234m]567p678s12m99s +3m",
         {"边张": 1, "平和": 1},
         "#77: 12 waiting on 3 only; 边 does not affect 平和 (#63 text)"),
    Case("边张", "[234p][567p]789s1233m +3m",
         {"边张": 1, "平和": 1, "连六": 1},
         "#77 text example: 1233 和 3 is 边张"),
    Case("边张", "[234p][567p]123s7789m +7m",
         {"边张": 1, "平和": 1, "连六": 1},
         "#77 text example: 7789 和 7 is 边张 (77879和7)"),
    Case("坎张", "[234m]567p123s46m99s +5m",
         {"坎张": 1, "平和": 1},
         "#78: 46 waiting on 5 only"),
    Case("坎张", "[234p][567p]789s4556m +5m",
         {"坎张": 1, "平和": 1, "连六": 1},
         "#78 text example: 4556 和 5 也为坎张"),
    Case("单钓将", "[234m]567p345s678m1z +1z",
         {"单钓将": 1},
         "#79: waiting on the pair tile 东 only"),
    Case("自摸", "[234m]567p678s55s11z +5s",
         {"自摸": 1},
         "#80: self-drawn (with a meld: not 不求人)",
         {"self_drawn": True}),
    Case("花牌", "[234m][567p]678s55s11z +5s",
         {"无番和": 1, "花牌": 3},
         "#81: 1 per flower, added to a valid win; 无番和 still counts (#43: flowers aside)",
         {"flowers": 3}),
    Case("明暗杠", "[2222m](5555p)678s33s11z +3s",
         {"明杠": 1, "暗杠": 1},
         "mil profile: one melded + one concealed kong = 明暗杠 (5); 1998: 明杠 + 暗杠",
         mil={"明暗杠": 1}),
]

NOT: list[Case] = [
    Case("大四喜", "[111z][222z]333z44z34m +5m",
         {"小四喜": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1},
         "#1 needs a 4th wind pung: a wind pair makes 小四喜 (#9)"),
    Case("大三元", "[555z][666z]77z345m79p +8p",
         {"小三元": 1, "缺一门": 1, "坎张": 1},
         "#2 needs a 3rd dragon pung: a dragon pair makes 小三元 (#10)"),
    Case("绿一色", "[345s][666z]234s66s88s +8s",
         {"混一色": 1, "箭刻": 1},
         "#3: a 5s is not green"),
    Case("九莲宝灯", "[234m]1115678999m +5m",
         {"清一色": 1, "双暗刻": 1, "幺九刻": 2},
         "#4: the same tiles with a melded chow are not 九莲宝灯 (concealed shape)"),
    Case("四杠", "[1111m][2222p](3333s)[444z]5z +5z",
         {"三杠": 1, "三色三节高": 1, "碰碰和": 1, "五门齐": 1, "幺九刻": 2, "单钓将": 1},
         "#5: three kongs and a pung = 三杠 (#17); now 碰碰和 and 单钓将 count"),
    Case("连七对", "1122334455668p +8p",
         {"七对": 1, "清一色": 1},
         "#6: the pairs 1-6 and 8 are not 7 consecutive"),
    Case("十三幺", "19m19p19s123456z2m +1m",
         None,
         "#7: one honour missing, a 2m instead: no winning shape"),
    Case("十三幺", "11m99m11p99p11s22z3z +3z",
         {"七对": 1, "混幺九": 1},
         "#7: terminals and honours as seven pairs is 七对 + 混幺九, not 十三幺"),
    Case("清幺九", "[111m][999m]111p999s1z +1z",
         {"混幺九": 1, "双同刻": 2, "双暗刻": 1, "单钓将": 1},
         "#8: an honour pair makes it 混幺九 (#18), and then 双同刻 counts"),
    Case("小四喜", "[111z][222z]333z55z35m +4m",
         {"三风刻": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1, "坎张": 1},
         "#9 needs a wind pair: a dragon pair leaves 三风刻 (#38)"),
    Case("小三元", "[555z][666z]11z345m79p +8p",
         {"双箭刻": 1, "缺一门": 1, "坎张": 1},
         "#10 needs a dragon pair: a wind pair leaves 双箭刻 (#54)"),
    Case("字一色", "[222z][555z]444z666z1m +1m",
         {"混幺九": 1, "混一色": 1, "双箭刻": 1, "双暗刻": 1, "单钓将": 1},
         "#11: a pair of 1m is not an honour"),
    Case("四暗刻", "222m444m777p99s55p +9s",
         {"三暗刻": 1, "碰碰和": 1, "门前清": 1, "幺九刻": 1, "无字": 1},
         "#12: 9s pung completed by a discard is exposed: 3 concealed pungs"),
    Case("一色双龙会", "[123m][123m]789m78m55p +9m",
         {"平和": 1, "一般高": 2, "老少副": 1, "缺一门": 1},
         "#13 needs the pair of 5 in the same suit; 4 chows carry at most 3 pair fans "
         "(不得相同/套算一次)"),
    Case("一色四同顺", "[123m][123m]123234m5p +5p",
         {"一色三同顺": 1, "平和": 1, "四归一": 2, "缺一门": 1, "单钓将": 1},
         "#14: 123 123 123 234 is 一色三同顺; four 2m and four 3m = 四归一 ×2"),
    Case("一色四节高", "[222p][333p][444p]666p9s +9s",
         {"一色三节高": 1, "碰碰和": 1, "缺一门": 1, "无字": 1, "单钓将": 1},
         "#15: 2p 3p 4p 6p is only 一色三节高"),
    Case("一色四步高", "[123m][234m]345567m9p +9p",
         {"一色三步高": 1, "平和": 1, "连六": 1, "缺一门": 1, "单钓将": 1},
         "#16: 123 234 345 567 breaks the steps; 234+567 = 连六"),
    Case("三杠", "[1111m][5555p][777s]45m9p9p +6m",
         {"双明杠": 1, "幺九刻": 1, "无字": 1},
         "#17: two kongs and a pung"),
    Case("混幺九", "[123m][999m]222z999p9s +9s",
         {"全带幺": 1, "双同刻": 1, "双暗刻": 1, "幺九刻": 3, "单钓将": 1},
         "#18: a chow 123m: only 全带幺 (#55)"),
    Case("七对", "112233m4445566p +7p",
         {"门前清": 1, "平和": 1, "一般高": 1, "缺一门": 1},
         "#19: three 4p are no pair; the hand is regular: 123 123 44 456 567"),
    Case("七星不靠", "14m258p369s12345z +6z",
         {"全不靠": 1},
         "#20 needs all 7 honours: 6 honours + 8 knitted tiles is 全不靠 (#34)"),
    Case("全双刻", "[234m][444p]666s888m2p +2p",
         {"双暗刻": 1, "断幺": 1, "单钓将": 1},
         "#21: a chow is not a pung"),
    Case("清一色", "[123m][345m]678m999m1z +1z",
         {"混一色": 1, "连六": 1, "幺九刻": 1, "单钓将": 1},
         "#22: an honour pair makes 混一色 (#49)"),
    Case("一色三同顺", "[123p]123p234p456s9m +9m",
         {"平和": 1, "一般高": 1, "单钓将": 1},
         "#23: 123 123 234 is only 一般高"),
    Case("一色三节高", "[111s][222s]444s567m9p +9p",
         {"幺九刻": 1, "无字": 1, "单钓将": 1},
         "#24: 1s 2s 4s do not step by one"),
    Case("全大", "[789m][999p]777s88s68m +7m",
         {"大于五": 1, "幺九刻": 1, "坎张": 1},
         "#25: a 6 makes it 大于五 (#36)"),
    Case("全中", "[456m][555p]444s66s34m +5m",
         {"断幺": 1},
         "#26: a 3 is not a middle tile"),
    Case("全小", "[123m][111p]222s44s12m +3m",
         {"小于五": 1, "一般高": 1, "幺九刻": 1, "边张": 1},
         "#27: a 4 makes it 小于五 (#37)"),
    Case("清龙", "[567p]123345678m9m +9m",
         {"平和": 1, "连六": 1, "缺一门": 1},
         "#28: 1-9 of 万 all present, but only as 123 345 678 99: no straight"),
    Case("三色双龙会", "[123m][789m]123p789p5m +5m",
         {"平和": 1, "喜相逢": 2, "老少副": 1, "缺一门": 1, "单钓将": 1},
         "#29 needs the pair of 5 in the third suit"),
    Case("一色三步高", "[123m]234m456m789p5s +5s",
         {"平和": 1, "连六": 1, "单钓将": 1},
         "#30: 123 234 456 do not step evenly"),
    Case("全带五", "[456m][555p]345s678m5s +5s",
         {"断幺": 1},
         "#31: 678m has no 5"),
    Case("三同刻", "[222m][222p]333s567m9p +9p",
         {"双同刻": 1, "无字": 1, "单钓将": 1},
         "#32: only two pungs of 2"),
    Case("三暗刻", "[234m]111m555p99s7z7z +9s",
         {"双暗刻": 1, "幺九刻": 2},
         "#33: 9s pung completed by a discard is exposed"),
    Case("全不靠", "15m258p369s12345z +6z",
         None,
         "#34: 1m and 5m are not of one knitted sequence: no winning shape"),
    Case("组合龙", "147m258p36s9p444z2z +2z",
         None,
         "#35: 9p instead of 9s breaks the knitted straight: no winning shape"),
    Case("大于五", "[678m][999p]777s55s78m +9m",
         {"幺九刻": 1, "无字": 1},
         "#36: a pair of 5s"),
    Case("小于五", "[234m][111p]333s55s12m +3m",
         {"幺九刻": 1, "无字": 1, "边张": 1},
         "#37: a pair of 5s"),
    Case("三风刻", "[222z][333z]44z567m99p +9p",
         {"幺九刻": 3, "缺一门": 1},
         "#38: two wind pungs and a wind pair"),
    Case("花龙", "[123m][456p]789p234m9p +9p",
         {"平和": 1, "连六": 1, "缺一门": 1},
         "#39: 456 and 789 in the same suit"),
    Case("推不倒", "[123p][888p]567s777z9s +9s",
         {"箭刻": 1, "缺一门": 1, "单钓将": 1},
         "#40: 7s is not reversible"),
    Case("三色三同顺", "[123m][123p]234s567m9s +9s",
         {"平和": 1, "喜相逢": 1, "单钓将": 1},
         "#41: 234s is not 123"),
    Case("三色三节高", "[111m][222p]444s567m9s +9s",
         {"幺九刻": 1, "无字": 1, "单钓将": 1},
         "#42: 1 2 4 do not step by one"),
    Case("无番和", "[234m][567p]678s55s11z +5s",
         {"自摸": 1},
         "#43: self-drawn, the same hand has a fan (自摸) and is no 无番和",
         {"self_drawn": True}),
    Case("妙手回春", "[234m][567p]678s55s11z +5s",
         {"海底捞月": 1},
         "#44: the last tile won on a discard is 海底捞月 (#45)",
         {"last": True}),
    Case("海底捞月", "[234m][567p]678s55s11z +5s",
         {"妙手回春": 1},
         "#45: the last tile self-drawn is 妙手回春 (#44)",
         {"self_drawn": True, "last": True}),
    Case("杠上开花", "[234m][6666p]678s55s11z +5s",
         {"明杠": 1, "自摸": 1},
         "#46: self-drawn with a kong, but not on its replacement",
         {"self_drawn": True}),
    Case("抢杠和", "[234m][567p]789s11z35s +4s",
         {"坎张": 1},
         "#47: an ordinary discard"),
    Case("碰碰和", "[222m][555p]678s33m77p +3m",
         {"断幺": 1},
         "#48: a chow"),
    Case("混一色", "[123m][555m]678m11z99s +9s",
         {"幺九刻": 1, "缺一门": 1},
         "#49: a 条 pung"),
    Case("三色三步高", "[123m][234p]456s789m5p +5p",
         {"平和": 1, "老少副": 1, "单钓将": 1},
         "#50: 1 2 4 do not step by one"),
    Case("五门齐", "[234m][567p]678s11z44z +4z",
         {"幺九刻": 1},
         "#51: winds but no dragons"),
    Case("全求人", "[234m][567p][678s][444z]5s +5s",
         {"幺九刻": 1, "单钓将": 1, "自摸": 1},
         "#52 needs a discard: self-drawn it is 自摸 + 单钓将",
         {"self_drawn": True}),
    Case("双暗杠", "[2222m](5555p)678s33s11z +3s",
         {"明杠": 1, "暗杠": 1},
         "#53: one of the kongs is melded",
         mil={"明暗杠": 1}),
    Case("双箭刻", "[555z]66z234m567p78s +9s",
         {"箭刻": 1},
         "#54: one dragon pung and a dragon pair"),
    Case("全带幺", "[123m][789p]111s456s9m +9m",
         {"花龙": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
         "#55: 456s has no terminal"),
    Case("不求人", "[234m]567p678s55s11z +5s",
         {"自摸": 1},
         "#56: a melded chow",
         {"self_drawn": True}),
    Case("双明杠", "[2222m][555p]678s33s11z +3s",
         {"明杠": 1},
         "#57: a kong and a pung"),
    Case("和绝张", "[234m][567p]789s11z35s +4s",
         {"抢杠和": 1, "坎张": 1},
         "#58 text: 抢杠和不计和绝张",
         {"kong": True, "fourth": True}),
    Case("箭刻", "[234m]567p345s678m5z +5z",
         {"单钓将": 1},
         "#59: a pair of 中 is no pung"),
    Case("圈风刻", "[222z]234m567p345s9p +9p",
         {"幺九刻": 1, "单钓将": 1},
         "#60: 南 in the East round by the East seat is only 幺九刻"),
    Case("门风刻", "[222z]234m567p345s9p +9p",
         {"幺九刻": 1, "单钓将": 1},
         "#61: 南 for the West seat in the North round is only 幺九刻",
         {"seat": Wind.WEST, "prevalent": Wind.NORTH}),
    Case("门前清", "[234m]567p678s55s11z +5s",
         {"无番和": 1},
         "#62: a melded chow"),
    Case("平和", "[234m]567p678s45s11z +6s",
         {"无番和": 1},
         "#63: an honour pair"),
    Case("四归一", "(2222p)[234m]345p678s9s +9s",
         {"暗杠": 1, "无字": 1},
         "#64: four tiles as a kong do not count (不包括杠牌)"),
    Case("双同刻", "[222m]333p345s678m9p +9p",
         {"无字": 1, "单钓将": 1},
         "#65: 2m and 3p differ"),
    Case("双暗刻", "[234m]555p77s678m99s +7s",
         {"无字": 1},
         "#66: 7s pung completed by a discard is exposed"),
    Case("暗杠", "[5555p][234m]678s33s11z +3s",
         {"明杠": 1},
         "#67: a melded kong"),
    Case("断幺", "[234m][567p]678s44s99p +4s",
         {"无字": 1},
         "#68: a pair of 9p"),
    Case("一般高", "[234m]345m567p345s9p +9p",
         {"平和": 1, "喜相逢": 1, "单钓将": 1},
         "#69: 234m and 345m differ"),
    Case("喜相逢", "[234m]345p567s678m9s +9s",
         {"平和": 1, "单钓将": 1},
         "#70: 234m and 345p differ"),
    Case("连六", "[123m]345m678p345s9s +9s",
         {"平和": 1, "喜相逢": 1, "单钓将": 1},
         "#71: 123m and 345m overlap"),
    Case("老少副", "[123m]789p456p567s9m +9m",
         {"平和": 1, "连六": 1, "单钓将": 1},
         "#72: 123m and 789p are in different suits"),
    Case("幺九刻", "[222m]234p567s678m9s +9s",
         {"无字": 1, "单钓将": 1},
         "#73: a pung of 2m"),
    Case("明杠", "(5555p)[234m]678s33s11z +3s",
         {"暗杠": 1},
         "#74: a concealed kong"),
    Case("缺一门", "[234m]567m456p789s1z +1z",
         {"连六": 1, "单钓将": 1},
         "#75: all three suits"),
    Case("无字", "[234m][567p]678s55s11z +5s",
         {"无番和": 1},
         "#76: a pair of 东"),
    Case("边张", "[567p]12345m678s99s +3m",
         {"平和": 1},
         "#77 text: 手中有12345和3 不算边张 (3m and 6m both win)"),
    Case("坎张", "[234p]45567m678s99s +6m",
         {"平和": 1},
         "#78 text: 手中有45567和6 不算坎张 (3m and 6m both win)"),
    Case("单钓将", "[234m]567p345s1112m +2m",
         {"幺九刻": 1, "无字": 1},
         "#79: 1112 waits on 2m and 3m: not the only wait"),
    Case("自摸", "[234m]567p678s55s11z +5s",
         {"无番和": 1},
         "#80: won on a discard"),
    Case("花牌", "[234m][567p]678s55s11z +5s",
         {"无番和": 1},
         "#81: no flowers"),
    Case("明暗杠", "(2222m)(5555p)678s33s11z +3s",
         {"双暗杠": 1, "门前清": 1},
         "mil: two concealed kongs are 双暗杠 (#53), not 明暗杠"),
    Case("明暗杠", "[2222m][5555p]678s33s11z +3s",
         {"双明杠": 1},
         "mil: two melded kongs are 双明杠 (#57), not 明暗杠"),
]
# fmt: on


def _ids(cases: list[Case], kind: str) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for case in cases:
        fan = Fan.by_name(case.fan)
        english = "".join(word.capitalize() for word in fan.en.replace("-", " ").split())
        base = f"{fan.number:02d}-{english}-{case.fan}-{kind}"
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}{seen[base]}")
    return out


def _check(case: Case, rules: str) -> None:
    result = score(case.hand, rules, **case.flags)
    expected = case.expected(rules)
    if expected is None:
        assert not result.is_winning, f"{case.hand}: {case.why}"
        assert result.fans == ()
        return
    assert result.is_winning, f"{case.hand} should win: {case.why}"
    assert fan_table(result) == expected, f"{case.hand} {case.flags}: {case.why}"
    points = sum(Fan.by_name(name).points * n for name, n in expected.items())
    assert result.total == points


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize("case", HAS, ids=_ids(HAS, "has"))
def test_fan_counted(case: Case, rules: str) -> None:
    expected = case.expected(rules)
    assert expected is not None
    target = Fan.by_name(case.fan)
    result = score(case.hand, rules, **case.flags)
    assert result.count_of(target) == expected.get(case.fan, 0), case.why
    _check(case, rules)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize("case", NOT, ids=_ids(NOT, "not"))
def test_fan_not_counted(case: Case, rules: str) -> None:
    result = score(case.hand, rules, **case.flags)
    assert result.count_of(Fan.by_name(case.fan)) == 0, case.why
    _check(case, rules)


def test_every_fan_has_both_cases() -> None:
    """The tables above reach all 81 fans and 明暗杠, each with a positive and a near miss."""
    counted = {
        name
        for case in HAS
        for rules in PROFILES
        for name, n in (case.expected(rules) or {}).items()
        if n and name == case.fan
    }
    near_misses = {case.fan for case in NOT}
    every = {fan.zh for fan in Fan}
    assert len(every) == 82
    assert counted == every
    assert near_misses == every


def test_the_tables_name_real_fans() -> None:
    for case in HAS + NOT:
        Fan.by_name(case.fan)
        for table in (case.fans, case.mil):
            for name in table or {}:
                Fan.by_name(name)


@pytest.mark.parametrize("case", HAS + NOT, ids=_ids(HAS, "has") + _ids(NOT, "not"))
def test_explain_does_not_change_the_score(case: Case) -> None:
    """explain=True only adds the reasons: the counted fans and counts are the same."""
    plain = score(case.hand, **case.flags)
    explained = score(case.hand, explain=True, **case.flags)
    assert fan_table(explained) == fan_table(plain)
    assert explained.total == plain.total
    assert explained.is_winning == plain.is_winning
