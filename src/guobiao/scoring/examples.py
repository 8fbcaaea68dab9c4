"""One example winning hand for every fan (第九条), as the help page shows it under the fan, and
what each fan asks of a hand in one line (:data:`DEFINITIONS`, English and 中文).

Each hand shows its fan plainly and is a legal win that the calculator scores with that fan
(tests/test_fan_examples.py); most carry a few small fans beside it, and a small fan's hand may
stay under the 8-point minimum (第五条): it is there to show the fan, not to be played. Hands are
in the notation of :mod:`guobiao.core.hand` (``[...]`` a melded set, ``(...)`` a concealed kong,
``+`` the winning tile, ``1f`` .. ``8f`` flowers). Unless an example says otherwise it is won on a
discard, seat wind and prevalent wind East, no flowers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.core.tiles import Tile, read_tiles
from guobiao.scoring.fans import Fan

__all__ = ["DEFINITIONS", "EXAMPLES", "Definition", "FanExample", "example", "fan_summary"]

_MELD = re.compile(r"\[[^\]]*\]|\([^)]*\)")  # a melded set or a concealed kong in a hand's text


@dataclass(frozen=True, slots=True)
class FanExample:
    """A fan's example: the hand's text and the win's circumstances (:class:`WinContext`)."""

    hand: str
    self_drawn: bool = False
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False
    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    rules: str = "1998"  # the profile that counts the fan (明暗杠: mil)

    def parse(self) -> tuple[Hand, WinContext]:
        """The hand (its flowers among them) and the context ``calculate`` takes."""
        hand = parse_hand(self.hand)
        assert hand.win_tile is not None, self.hand
        context = WinContext(
            hand.win_tile,
            self_drawn=self.self_drawn,
            fourth_tile=self.fourth_tile,
            kong=self.kong,
            last_tile=self.last_tile,
            seat_wind=self.seat_wind,
            round_wind=self.round_wind,
            flowers=len(hand.flowers),
        )
        return hand, context

    def standing(self) -> tuple[Tile, ...]:
        """The standing tiles in the order written (``Hand`` sorts them): a wait stays beside the
        winning tile that completes it (边张's 12 before +3)."""
        text = _MELD.sub(" ", self.hand.split("+", 1)[0])
        return tuple(t for t, _ in read_tiles(text, 0, "")[0] if not t.is_flower)


_E = FanExample
_SOUTH = Wind.SOUTH

# fmt: off
EXAMPLES: Final[dict[Fan, FanExample]] = {
    # 88
    Fan.BIG_FOUR_WINDS: _E("[111z][222z]333z444z5m +5m"),
    Fan.BIG_THREE_DRAGONS: _E("[555z][666z]777z345m8p +8p"),
    Fan.ALL_GREEN: _E("[234s][666z]234s66s88s +8s"),
    Fan.NINE_GATES: _E("1112345678999m +5m"),
    Fan.FOUR_KONGS: _E("[1111m][2222p](3333s)(4444z)5z +5z"),
    Fan.SEVEN_SHIFTED_PAIRS: _E("2233445566778p +8p"),
    Fan.THIRTEEN_ORPHANS: _E("19m19p19s1234567z +1m"),
    # 64
    Fan.ALL_TERMINALS: _E("[111m][999m]111p999s9p +9p"),
    Fan.LITTLE_FOUR_WINDS: _E("[111z][222z]333z44z35m +4m"),
    Fan.LITTLE_THREE_DRAGONS: _E("[555z][666z]77z345m79p +8p"),
    Fan.ALL_HONORS: _E("[222z][555z]444z666z3z +3z"),
    Fan.FOUR_CONCEALED_PUNGS: _E("222m444m777p999s5p +5p"),
    Fan.PURE_TERMINAL_CHOWS: _E("123123789789m5m +5m"),
    # 48
    Fan.QUADRUPLE_CHOW: _E("[234s][234s]234234s5p +5p"),
    Fan.FOUR_PURE_SHIFTED_PUNGS: _E("[222p][333p][444p]555p7s +7s"),
    # 32
    Fan.FOUR_PURE_SHIFTED_CHOWS: _E("[123m][234m]345456m9p +9p"),
    Fan.THREE_KONGS: _E("[1111m][5555p](7777s)456m9p +9p"),
    Fan.ALL_TERMINALS_AND_HONOURS: _E("[111m][999m]222z999p9s +9s"),
    # 24
    Fan.SEVEN_PAIRS: _E("1155m2277p99s113z +3z"),
    Fan.GREATER_HONOURS_AND_KNITTED_TILES: _E("14m258p36s123456z +7z"),
    Fan.ALL_EVEN_PUNGS: _E("[222m][444p]666s888m2p +2p"),
    Fan.FULL_FLUSH: _E("[123m][345m]678m999m4m +4m"),
    Fan.PURE_TRIPLE_CHOW: _E("[123p]123p123p456s9m +9m"),
    Fan.PURE_SHIFTED_PUNGS: _E("[111s][222s]333s567m9p +9p"),
    Fan.UPPER_TILES: _E("[789m][999p]777s88s89m +7m"),
    Fan.MIDDLE_TILES: _E("[456m][555p]444s66s45m +6m"),
    Fan.LOWER_TILES: _E("[123m][111p]222s33s12m +3m"),
    # 16
    Fan.PURE_STRAIGHT: _E("[123m]456m789m345s2p +2p"),
    Fan.THREE_SUITED_TERMINAL_CHOWS: _E("[123m][789m]123p789p5s +5s"),
    Fan.PURE_SHIFTED_CHOWS: _E("[123m]234m345m789p5s +5s"),
    Fan.ALL_FIVES: _E("[456m][555p]345s567m5s +5s"),
    Fan.TRIPLE_PUNG: _E("[222m][222p]222s567m9p +9p"),
    Fan.THREE_CONCEALED_PUNGS: _E("[234m]111m555p999s7z +7z"),
    # 12
    Fan.LESSER_HONOURS_AND_KNITTED_TILES: _E("14m258p369s12345z +6z"),
    Fan.KNITTED_STRAIGHT: _E("147m258p369s444z2z +2z"),
    Fan.UPPER_FOUR: _E("[678m][999p]777s66s78m +9m"),
    Fan.LOWER_FOUR: _E("[234m][111p]333s44s12m +3m"),
    Fan.BIG_THREE_WINDS: _E("[222z][333z]444z567m9p +9p"),
    # 8
    Fan.MIXED_STRAIGHT: _E("[123m][456p]789s234m9p +9p"),
    Fan.REVERSIBLE_TILES: _E("[123p][888p]456s777z9s +9s"),
    Fan.MIXED_TRIPLE_CHOW: _E("[123m][123p]123s567m9s +9s"),
    Fan.MIXED_SHIFTED_PUNGS: _E("[111m][222p]333s567m9s +9s"),
    Fan.CHICKEN_HAND: _E("[234m][567p]678s11z55s +5s"),
    Fan.LAST_TILE_DRAW: _E("[234m][567p]678s11z55s +5s", self_drawn=True, last_tile=True),
    Fan.LAST_TILE_CLAIM: _E("[234m][567p]678s11z55s +5s", last_tile=True),
    Fan.OUT_WITH_REPLACEMENT_TILE: _E("[234m][6666p]678s11z55s +5s", self_drawn=True, kong=True),
    Fan.ROBBING_THE_KONG: _E("[234m][567p]789s11z35s +4s", kong=True),
    # 6
    Fan.ALL_PUNGS: _E("[222m][555p]888s77p33m +3m"),
    Fan.HALF_FLUSH: _E("[123m][555m]678m11z99m +9m"),
    Fan.MIXED_SHIFTED_CHOWS: _E("[123m][234p]345s789m5p +5p"),
    Fan.ALL_TYPES: _E("[234m][567p]678s11z55z +5z"),
    Fan.MELDED_HAND: _E("[234m][567p][678s][444z]5s +5s"),
    Fan.TWO_CONCEALED_KONGS: _E("(2222m)(5555p)678s11z33s +3s"),
    Fan.TWO_DRAGON_PUNGS: _E("[555z][666z]234m567p9s +9s"),
    # 4
    Fan.OUTSIDE_HAND: _E("[123m][789p]111s789s9m +9m"),
    Fan.FULLY_CONCEALED_HAND: _E("234m567p678s11z55s +5s", self_drawn=True),
    Fan.TWO_MELDED_KONGS: _E("[2222m][5555p]678s11z33s +3s"),
    Fan.LAST_TILE: _E("[234m][567p]789s11z35s +4s", fourth_tile=True),
    # 2
    Fan.DRAGON_PUNG: _E("[555z]234m567p345s9p +9p"),
    Fan.PREVALENT_WIND: _E("[222z]234m567p345s9p +9p", round_wind=_SOUTH),
    Fan.SEAT_WIND: _E("[222z]234m567p345s9p +9p", seat_wind=_SOUTH),
    Fan.CONCEALED_HAND: _E("234m567p678s11z55s +5s"),
    Fan.ALL_CHOWS: _E("[234m]567p678s99p45s +6s"),
    Fan.TILE_HOG: _E("[234m]222234p678s9s +9s"),
    Fan.DOUBLE_PUNG: _E("[222m]222p345s678m9p +9p"),
    Fan.TWO_CONCEALED_PUNGS: _E("[234m]555p777s678m9s +9s"),
    Fan.CONCEALED_KONG: _E("(5555p)[234m]678s11z33s +3s"),
    Fan.ALL_SIMPLES: _E("[234m][567p]678s88p44s +4s"),
    # 1
    Fan.PURE_DOUBLE_CHOW: _E("[234m]234m567p345s9p +9p"),
    Fan.MIXED_DOUBLE_CHOW: _E("[234m]234p567s678m9s +9s"),
    Fan.SHORT_STRAIGHT: _E("[123m]456m678p345s9s +9s"),
    Fan.TWO_TERMINAL_CHOWS: _E("[123m]789m456p567s9p +9p"),
    Fan.PUNG_OF_TERMINALS_OR_HONOURS: _E("[111m]234p567s678m9s +9s"),
    Fan.MELDED_KONG: _E("[5555p][234m]678s11z33s +3s"),
    Fan.ONE_VOIDED_SUIT: _E("[234m]567m456p678p1z +1z"),
    Fan.NO_HONOURS: _E("[234m][567p]678s99m55s +5s"),
    Fan.EDGE_WAIT: _E("[234m]567p678s99s12m +3m"),
    Fan.CLOSED_WAIT: _E("[234m]567p123s99s46m +5m"),
    Fan.SINGLE_WAIT: _E("[234m]678m567p345s1z +1z"),
    Fan.SELF_DRAWN: _E("[234m]567p678s11z55s +5s", self_drawn=True),
    Fan.FLOWER_TILES: _E("[234m][567p]678s11z55s1f5f +5s"),
    # the mil profile's
    Fan.MELDED_AND_CONCEALED_KONG: _E("[2222m](5555p)678s11z33s +3s", rules="mil"),
}
# fmt: on


def example(fan: Fan) -> FanExample:
    """The example hand of ``fan``; KeyError for none (every :class:`Fan` has one)."""
    return EXAMPLES[fan]


@dataclass(frozen=True, slots=True)
class Definition:
    """What a fan asks of a hand, in one line (第九条, as the rules digest puts it)."""

    en: str
    zh: str

    def text(self, lang: str) -> str:
        """The line in ``lang`` ("en" or "zh")."""
        return self.zh if lang == "zh" else self.en


_D = Definition

# Every fan's definition, by fan: the help page's (GET /api/fans) and ``guobiao fans``'s.
# fmt: off
DEFINITIONS: Final[dict[Fan, Definition]] = {
    # 88
    Fan.BIG_FOUR_WINDS: _D("Pungs or kongs of all four winds.", "东南西北四副风刻（或杠）。"),
    Fan.BIG_THREE_DRAGONS: _D("Pungs or kongs of all three dragons.", "中发白三副箭刻（或杠）。"),
    Fan.ALL_GREEN: _D("Green tiles only: 2 3 4 6 8 bamboo and the Green Dragon.", "只由 2、3、4、6、8 条和发财组成。"),
    Fan.NINE_GATES: _D("1112345678999 of one suit, concealed, and any tile of that suit.", "同一花色 1112345678999 门前清听牌，和这一花色的任一张。"),
    Fan.FOUR_KONGS: _D("Four kongs.", "四个杠。"),
    Fan.SEVEN_SHIFTED_PAIRS: _D("Seven pairs in a row in one suit.", "同一花色序数相连的七个对子。"),
    Fan.THIRTEEN_ORPHANS: _D("One of each 1, 9 and honour, and a second of one of them.", "万饼条的 1、9 和七种字牌各一张，其中一种成对。"),
    # 64
    Fan.ALL_TERMINALS: _D("Pungs and a pair of 1s and 9s only.", "只由 1、9 的刻子（或杠）和将组成。"),
    Fan.LITTLE_FOUR_WINDS: _D("Three wind pungs and a pair of the fourth wind.", "三副风刻，第四种风牌作将。"),
    Fan.LITTLE_THREE_DRAGONS: _D("Two dragon pungs and a pair of the third dragon.", "两副箭刻，第三种箭牌作将。"),
    Fan.ALL_HONORS: _D("Honours only: pungs and a pair.", "只由字牌的刻子（或杠）和将组成。"),
    Fan.FOUR_CONCEALED_PUNGS: _D("Four concealed pungs or kongs.", "四副暗刻（或暗杠）。"),
    Fan.PURE_TERMINAL_CHOWS: _D("123 123 789 789 and a pair of 5s, all of one suit.", "同一花色两副 123、两副 789，5 作将。"),
    # 48
    Fan.QUADRUPLE_CHOW: _D("Four identical chows of one suit.", "同一花色四副相同的顺子。"),
    Fan.FOUR_PURE_SHIFTED_PUNGS: _D("Four pungs of one suit, each one higher (3 4 5 6).", "同一花色四副依次递增一的刻子。"),
    # 32
    Fan.FOUR_PURE_SHIFTED_CHOWS: _D("Four chows of one suit, each starting one higher, or each two higher.", "同一花色四副依次递增一或递增二的顺子。"),
    Fan.THREE_KONGS: _D("Three kongs.", "三个杠。"),
    Fan.ALL_TERMINALS_AND_HONOURS: _D("Only 1s, 9s and honours.", "只由 1、9 和字牌组成。"),
    # 24
    Fan.SEVEN_PAIRS: _D("Seven pairs.", "七个对子。"),
    Fan.GREATER_HONOURS_AND_KNITTED_TILES: _D("All seven honours and seven knitted tiles (147, 258, 369 of three suits), each a single.", "七种字牌各一张，加上三种花色 147、258、369 中的七张，全为单张。"),
    Fan.ALL_EVEN_PUNGS: _D("Pungs and a pair of 2s, 4s, 6s and 8s only.", "只由 2、4、6、8 的刻子（或杠）和将组成。"),
    Fan.FULL_FLUSH: _D("One suit only, no honours.", "只由一种花色的序数牌组成。"),
    Fan.PURE_TRIPLE_CHOW: _D("Three identical chows of one suit.", "同一花色三副相同的顺子。"),
    Fan.PURE_SHIFTED_PUNGS: _D("Three pungs of one suit, each one higher.", "同一花色三副依次递增一的刻子。"),
    Fan.UPPER_TILES: _D("Suited 7, 8 and 9 only.", "只由序数牌 7、8、9 组成。"),
    Fan.MIDDLE_TILES: _D("Suited 4, 5 and 6 only.", "只由序数牌 4、5、6 组成。"),
    Fan.LOWER_TILES: _D("Suited 1, 2 and 3 only.", "只由序数牌 1、2、3 组成。"),
    # 16
    Fan.PURE_STRAIGHT: _D("123, 456 and 789 of one suit.", "同一花色的 123、456、789。"),
    Fan.THREE_SUITED_TERMINAL_CHOWS: _D("123 and 789 of two suits, and a pair of 5s of the third.", "两种花色各有 123、789，第三种花色的 5 作将。"),
    Fan.PURE_SHIFTED_CHOWS: _D("Three chows of one suit, each starting one higher, or each two higher.", "同一花色三副依次递增一或递增二的顺子。"),
    Fan.ALL_FIVES: _D("Every set and the pair hold a 5.", "每副牌和将都有 5。"),
    Fan.TRIPLE_PUNG: _D("Pungs of the same number in all three suits.", "三种花色同一数字的刻子。"),
    Fan.THREE_CONCEALED_PUNGS: _D("Three concealed pungs or kongs.", "三副暗刻（或暗杠）。"),
    # 12
    Fan.LESSER_HONOURS_AND_KNITTED_TILES: _D("Fourteen singles: knitted tiles (147, 258, 369 of three suits) and honours.", "十四张单张：三种花色 147、258、369 中的牌和字牌。"),
    Fan.KNITTED_STRAIGHT: _D("147, 258 and 369, each in a different suit.", "147、258、369 分属三种花色。"),
    Fan.UPPER_FOUR: _D("Suited 6 to 9 only.", "只由序数牌 6 至 9 组成。"),
    Fan.LOWER_FOUR: _D("Suited 1 to 4 only.", "只由序数牌 1 至 4 组成。"),
    Fan.BIG_THREE_WINDS: _D("Three wind pungs or kongs.", "三副风刻（或杠）。"),
    # 8
    Fan.MIXED_STRAIGHT: _D("123, 456 and 789, each in a different suit.", "123、456、789 分属三种花色。"),
    Fan.REVERSIBLE_TILES: _D("Tiles that look the same upside down only: 1234589 dots, 245689 bamboo, the White Dragon.", "只由 1234589 饼、245689 条和白板组成。"),
    Fan.MIXED_TRIPLE_CHOW: _D("The same chow in all three suits.", "三种花色同一数字的顺子。"),
    Fan.MIXED_SHIFTED_PUNGS: _D("Pungs of three suits, each one higher (3 dots, 4 bamboo, 5 characters).", "三种花色依次递增一的刻子。"),
    Fan.CHICKEN_HAND: _D("A win with no other fan (flowers aside).", "除花牌外没有任何番种的和牌。"),
    Fan.LAST_TILE_DRAW: _D("Self-drawn on the last tile of the wall.", "自摸牌墙最后一张牌和牌。"),
    Fan.LAST_TILE_CLAIM: _D("Won on the last discard.", "和最后一张打出的牌。"),
    Fan.OUT_WITH_REPLACEMENT_TILE: _D("Won on a kong's replacement tile (not a flower's).", "开杠后补的牌和牌（补花不算）。"),
    Fan.ROBBING_THE_KONG: _D("Won on the tile another player adds to a pung.", "和别人加杠的那张牌。"),
    # 6
    Fan.ALL_PUNGS: _D("Four pungs or kongs and a pair.", "四副刻子（或杠）加将。"),
    Fan.HALF_FLUSH: _D("One suit and honours.", "一种花色的序数牌加字牌。"),
    Fan.MIXED_SHIFTED_CHOWS: _D("Chows of three suits, each starting one higher.", "三种花色依次递增一的顺子。"),
    Fan.ALL_TYPES: _D("All three suits, a wind and a dragon.", "万、饼、条、风、箭五种牌俱全。"),
    Fan.MELDED_HAND: _D("Four melded sets, won on a discard for the pair.", "四副吃、碰、明杠，单钓别人打出的牌和牌。"),
    Fan.TWO_CONCEALED_KONGS: _D("Two concealed kongs.", "两个暗杠。"),
    Fan.TWO_DRAGON_PUNGS: _D("Two dragon pungs or kongs.", "两副箭刻（或杠）。"),
    # 4
    Fan.OUTSIDE_HAND: _D("Every set and the pair hold a 1, a 9 or an honour.", "每副牌和将都有 1、9 或字牌。"),
    Fan.FULLY_CONCEALED_HAND: _D("Self-drawn with no melded set (concealed kongs allowed).", "没有吃、碰、明杠（暗杠可以），自摸和牌。"),
    Fan.TWO_MELDED_KONGS: _D("Two melded kongs.", "两个明杠。"),
    Fan.LAST_TILE: _D("Won on the last tile of its kind, the other three in sight.", "和其余三张已亮明的第四张牌。"),
    # 2
    Fan.DRAGON_PUNG: _D("A pung or kong of a dragon.", "一副箭刻（或杠）。"),
    Fan.PREVALENT_WIND: _D("A pung or kong of the round's wind.", "与圈风相同的风刻（或杠）。"),
    Fan.SEAT_WIND: _D("A pung or kong of your seat wind.", "与本家门风相同的风刻（或杠）。"),
    Fan.CONCEALED_HAND: _D("Won on a discard with no melded set (concealed kongs allowed).", "没有吃、碰、明杠（暗杠可以），和别人打出的牌。"),
    Fan.ALL_CHOWS: _D("Four chows and a pair of a suit.", "四副顺子，序数牌作将。"),
    Fan.TILE_HOG: _D("All four of a tile in the hand, not as a kong.", "同一种牌四张都在手中，但不是杠。"),
    Fan.DOUBLE_PUNG: _D("Pungs of the same number in two suits.", "两种花色同一数字的刻子。"),
    Fan.TWO_CONCEALED_PUNGS: _D("Two concealed pungs or kongs.", "两副暗刻（或暗杠）。"),
    Fan.CONCEALED_KONG: _D("A concealed kong.", "一个暗杠。"),
    Fan.ALL_SIMPLES: _D("No 1s, 9s or honours.", "没有 1、9 和字牌。"),
    # 1
    Fan.PURE_DOUBLE_CHOW: _D("Two identical chows of one suit.", "同一花色两副相同的顺子。"),
    Fan.MIXED_DOUBLE_CHOW: _D("The same chow in two suits.", "两种花色同一数字的顺子。"),
    Fan.SHORT_STRAIGHT: _D("Two chows of one suit, six tiles in a row (123 456).", "同一花色六张相连的两副顺子。"),
    Fan.TWO_TERMINAL_CHOWS: _D("123 and 789 of one suit.", "同一花色的 123 和 789。"),
    Fan.PUNG_OF_TERMINALS_OR_HONOURS: _D("A pung or kong of 1s, 9s or a wind that no other fan counts.", "1、9 或风牌的刻子（或杠），未计入其他番种的。"),
    Fan.MELDED_KONG: _D("A melded kong.", "一个明杠。"),
    Fan.ONE_VOIDED_SUIT: _D("One of the three suits missing.", "缺少万、饼、条中的一种。"),
    Fan.NO_HONOURS: _D("No honours.", "没有字牌。"),
    Fan.EDGE_WAIT: _D("Won on the 3 of 12 or the 7 of 89, the only tile waited on.", "只听 12 的 3 或 89 的 7 而和牌。"),
    Fan.CLOSED_WAIT: _D("Won on the middle tile of a chow, the only tile waited on.", "只听顺子中间的一张而和牌。"),
    Fan.SINGLE_WAIT: _D("Won on the pair's tile, the only tile waited on.", "只听将牌而和牌。"),
    Fan.SELF_DRAWN: _D("Won on a tile you drew.", "自己摸到和牌的那张牌。"),
    Fan.FLOWER_TILES: _D("1 point for each flower, counted once the hand has the minimum without them.", "每张花牌 1 番，只在达到起和分之后计入。"),
    # the mil profile's
    Fan.MELDED_AND_CONCEALED_KONG: _D("A concealed kong and a melded kong.", "一个暗杠和一个明杠。"),
}
# fmt: on


def fan_summary(fan: Fan) -> dict[str, int | str]:
    """A fan's number, points, names and definitions (``zh_def``, ``en_def``): what ``GET
    /api/fans`` and ``guobiao fans --json`` give of every fan beside its example."""
    return {
        "number": fan.number,
        "points": fan.points,
        "zh": fan.zh,
        "en": fan.en,
        "en_def": DEFINITIONS[fan].en,
        "zh_def": DEFINITIONS[fan].zh,
    }
