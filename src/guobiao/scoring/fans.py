"""The fans (番种) of 第九条: number, points, 中文 and English names.

``Fan`` members are in table order (1-81); ``MELDED_AND_CONCEALED_KONG`` (明暗杠, 5 points) exists only
in the ``mil`` profile (see docs/rules.md).
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Fan"]


class Fan(Enum):
    """One fan of the 1998 table. ``value`` is its number; ``points``, ``zh``, ``en`` its data."""

    number: int
    points: int
    zh: str
    en: str

    def __new__(cls, number: int, points: int, zh: str, en: str) -> Fan:
        fan = object.__new__(cls)
        fan._value_ = number
        fan.number = number
        fan.points = points
        fan.zh = zh
        fan.en = en
        return fan

    BIG_FOUR_WINDS = (1, 88, "大四喜", "Big Four Winds")
    BIG_THREE_DRAGONS = (2, 88, "大三元", "Big Three Dragons")
    ALL_GREEN = (3, 88, "绿一色", "All Green")
    NINE_GATES = (4, 88, "九莲宝灯", "Nine Gates")
    FOUR_KONGS = (5, 88, "四杠", "Four Kongs")
    SEVEN_SHIFTED_PAIRS = (6, 88, "连七对", "Seven Shifted Pairs")
    THIRTEEN_ORPHANS = (7, 88, "十三幺", "Thirteen Orphans")
    ALL_TERMINALS = (8, 64, "清幺九", "All Terminals")
    LITTLE_FOUR_WINDS = (9, 64, "小四喜", "Little Four Winds")
    LITTLE_THREE_DRAGONS = (10, 64, "小三元", "Little Three Dragons")
    ALL_HONORS = (11, 64, "字一色", "All Honors")
    FOUR_CONCEALED_PUNGS = (12, 64, "四暗刻", "Four Concealed Pungs")
    PURE_TERMINAL_CHOWS = (13, 64, "一色双龙会", "Pure Terminal Chows")
    QUADRUPLE_CHOW = (14, 48, "一色四同顺", "Quadruple Chow")
    FOUR_PURE_SHIFTED_PUNGS = (15, 48, "一色四节高", "Four Pure Shifted Pungs")
    FOUR_PURE_SHIFTED_CHOWS = (16, 32, "一色四步高", "Four Pure Shifted Chows")
    THREE_KONGS = (17, 32, "三杠", "Three Kongs")
    ALL_TERMINALS_AND_HONOURS = (18, 32, "混幺九", "All Terminals and Honours")
    SEVEN_PAIRS = (19, 24, "七对", "Seven Pairs")
    GREATER_HONOURS_AND_KNITTED_TILES = (20, 24, "七星不靠", "Greater Honours and Knitted Tiles")
    ALL_EVEN_PUNGS = (21, 24, "全双刻", "All Even Pungs")
    FULL_FLUSH = (22, 24, "清一色", "Full Flush")
    PURE_TRIPLE_CHOW = (23, 24, "一色三同顺", "Pure Triple Chow")
    PURE_SHIFTED_PUNGS = (24, 24, "一色三节高", "Pure Shifted Pungs")
    UPPER_TILES = (25, 24, "全大", "Upper Tiles")
    MIDDLE_TILES = (26, 24, "全中", "Middle Tiles")
    LOWER_TILES = (27, 24, "全小", "Lower Tiles")
    PURE_STRAIGHT = (28, 16, "清龙", "Pure Straight")
    THREE_SUITED_TERMINAL_CHOWS = (29, 16, "三色双龙会", "Three-Suited Terminal Chows")
    PURE_SHIFTED_CHOWS = (30, 16, "一色三步高", "Pure Shifted Chows")
    ALL_FIVES = (31, 16, "全带五", "All Fives")
    TRIPLE_PUNG = (32, 16, "三同刻", "Triple Pung")
    THREE_CONCEALED_PUNGS = (33, 16, "三暗刻", "Three Concealed Pungs")
    LESSER_HONOURS_AND_KNITTED_TILES = (34, 12, "全不靠", "Lesser Honours and Knitted Tiles")
    KNITTED_STRAIGHT = (35, 12, "组合龙", "Knitted Straight")
    UPPER_FOUR = (36, 12, "大于五", "Upper Four")
    LOWER_FOUR = (37, 12, "小于五", "Lower Four")
    BIG_THREE_WINDS = (38, 12, "三风刻", "Big Three Winds")
    MIXED_STRAIGHT = (39, 8, "花龙", "Mixed Straight")
    REVERSIBLE_TILES = (40, 8, "推不倒", "Reversible Tiles")
    MIXED_TRIPLE_CHOW = (41, 8, "三色三同顺", "Mixed Triple Chow")
    MIXED_SHIFTED_PUNGS = (42, 8, "三色三节高", "Mixed Shifted Pungs")
    CHICKEN_HAND = (43, 8, "无番和", "Chicken Hand")
    LAST_TILE_DRAW = (44, 8, "妙手回春", "Last Tile Draw")
    LAST_TILE_CLAIM = (45, 8, "海底捞月", "Last Tile Claim")
    OUT_WITH_REPLACEMENT_TILE = (46, 8, "杠上开花", "Out with Replacement Tile")
    ROBBING_THE_KONG = (47, 8, "抢杠和", "Robbing the Kong")
    ALL_PUNGS = (48, 6, "碰碰和", "All Pungs")
    HALF_FLUSH = (49, 6, "混一色", "Half Flush")
    MIXED_SHIFTED_CHOWS = (50, 6, "三色三步高", "Mixed Shifted Chows")
    ALL_TYPES = (51, 6, "五门齐", "All Types")
    MELDED_HAND = (52, 6, "全求人", "Melded Hand")
    TWO_CONCEALED_KONGS = (53, 6, "双暗杠", "Two Concealed Kongs")
    TWO_DRAGON_PUNGS = (54, 6, "双箭刻", "Two Dragon Pungs")
    OUTSIDE_HAND = (55, 4, "全带幺", "Outside Hand")
    FULLY_CONCEALED_HAND = (56, 4, "不求人", "Fully Concealed Hand")
    TWO_MELDED_KONGS = (57, 4, "双明杠", "Two Melded Kongs")
    LAST_TILE = (58, 4, "和绝张", "Last Tile")
    DRAGON_PUNG = (59, 2, "箭刻", "Dragon Pung")
    PREVALENT_WIND = (60, 2, "圈风刻", "Prevalent Wind")
    SEAT_WIND = (61, 2, "门风刻", "Seat Wind")
    CONCEALED_HAND = (62, 2, "门前清", "Concealed Hand")
    ALL_CHOWS = (63, 2, "平和", "All Chows")
    TILE_HOG = (64, 2, "四归一", "Tile Hog")
    DOUBLE_PUNG = (65, 2, "双同刻", "Double Pung")
    TWO_CONCEALED_PUNGS = (66, 2, "双暗刻", "Two Concealed Pungs")
    CONCEALED_KONG = (67, 2, "暗杠", "Concealed Kong")
    ALL_SIMPLES = (68, 2, "断幺", "All Simples")
    PURE_DOUBLE_CHOW = (69, 1, "一般高", "Pure Double Chow")
    MIXED_DOUBLE_CHOW = (70, 1, "喜相逢", "Mixed Double Chow")
    SHORT_STRAIGHT = (71, 1, "连六", "Short Straight")
    TWO_TERMINAL_CHOWS = (72, 1, "老少副", "Two Terminal Chows")
    PUNG_OF_TERMINALS_OR_HONOURS = (73, 1, "幺九刻", "Pung of Terminals or Honours")
    MELDED_KONG = (74, 1, "明杠", "Melded Kong")
    ONE_VOIDED_SUIT = (75, 1, "缺一门", "One Voided Suit")
    NO_HONOURS = (76, 1, "无字", "No Honours")
    EDGE_WAIT = (77, 1, "边张", "Edge Wait")
    CLOSED_WAIT = (78, 1, "坎张", "Closed Wait")
    SINGLE_WAIT = (79, 1, "单钓将", "Single Wait")
    SELF_DRAWN = (80, 1, "自摸", "Self-Drawn")
    FLOWER_TILES = (81, 1, "花牌", "Flower Tiles")
    # Outside the 1998 table: the reference calculator's fan for one melded + one concealed kong.
    MELDED_AND_CONCEALED_KONG = (82, 5, "明暗杠", "Concealed Kong and Melded Kong")

    def __str__(self) -> str:
        """The Chinese and English names: ``九莲宝灯 Nine Gates``."""
        return f"{self.zh} {self.en}"

    def __repr__(self) -> str:
        """``Fan.NINE_GATES``: the expression that names the member (not its value tuple)."""
        return f"Fan.{self.name}"

    @classmethod
    def by_name(cls, name: str) -> Fan:
        """Find a fan by 中文 name, English name (any case) or member name."""
        key = name.strip()
        for fan in cls:
            if key in (fan.zh, fan.name) or key.lower() == fan.en.lower():
                return fan
        raise KeyError(f"no fan named {name!r}")
