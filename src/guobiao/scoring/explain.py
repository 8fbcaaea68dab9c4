"""Why a hand scores what it scores: the sets or tiles each fan rests on, and the fans the hand
displays that were not counted, with the fan or principle (第十条一(五)) that excluded them.

Only :func:`guobiao.scoring.calculator.calculate` with ``explain=True`` calls this module; the counting
itself never depends on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from guobiao.core.context import WinContext
from guobiao.core.hand import Hand
from guobiao.core.shapes import CHOW, KONG, PAIR, PUNG, decompose
from guobiao.core.tiles import TILES
from guobiao.core.waits import is_unique_wait
from guobiao.scoring import _fan_ids as F
from guobiao.scoring._tables import IS_DRAGON, IS_TERMINAL_OR_HONOR, IS_WIND, SUIT
from guobiao.scoring.combinations import (
    Combination,
    chow_combinations,
    pair_chow_fan,
    pair_pung_fan,
    pung_combinations,
    triple_chow_fan,
    triple_pung_fan,
)
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import CountedFan, ExcludedFan, FanResult

__all__ = [
    "LANGUAGES",
    "Explanation",
    "SetView",
    "explain",
    "referee_text",
    "wait_exclusions",
    "wait_shapes",
    "with_winds",
]

_FANS: tuple[Fan, ...] = (Fan.CHICKEN_HAND, *Fan)
_SUIT_NAMES = ("万", "饼", "条", "风", "箭")


@dataclass(frozen=True, slots=True)
class SetView:
    """One set of the chosen decomposition: kind (shapes.CHOW/PUNG/KONG/PAIR), tile, and whether
    it was declared (exposed, or a concealed kong)."""

    kind: int
    tile: int
    declared: bool = False
    exposed: bool = False

    def __str__(self) -> str:
        if self.kind == CHOW:
            body = "".join(str(TILES[self.tile + i]) for i in range(3))
        else:
            body = str(TILES[self.tile]) * {PUNG: 3, KONG: 4, PAIR: 2}[self.kind]
        if self.declared:
            return f"[{body}]" if self.exposed else f"({body})"
        return body


@dataclass(frozen=True, slots=True)
class Explanation:
    bases: dict[int, tuple[str, ...]]
    excluded: tuple[tuple[int, str], ...]


def _name(fan: int) -> str:
    f = _FANS[fan]
    return f"{f.zh} {f.en}"


def _labels(sets: Sequence[SetView]) -> list[str]:
    """Each set's text, a second or third identical set marked ("W1W2W3 (2nd)"), so that a reason
    names the very set it means."""
    seen: dict[str, int] = {}
    out = []
    for s in sets:
        text = str(s)
        seen[text] = seen.get(text, 0) + 1
        out.append(text if seen[text] == 1 else f"{text} ({_ORDINALS[seen[text]]})")
    return out


_ORDINALS = ("", "1st", "2nd", "3rd", "4th")

# The principles of 第十条一(五), as every reason names them.
NON_REPEAT = "不重复原则, 第十条一(五)1"
NON_SEPARATION = "不拆移原则, 第十条一(五)2"
NON_IDENTICAL = "不得相同原则, 第十条一(五)3"
ACCOUNT_ONCE = "套算一次原则, 第十条一(五)5"


def _combination_bases(
    combos: Sequence[Combination], labels: Sequence[str], bases: dict[int, list[str]]
) -> None:
    for fan, members in combos:
        bases.setdefault(fan, []).append(" + ".join(labels[i] for i in members))


def _combination_exclusions(
    combos: Sequence[Combination],
    sets: Sequence[SetView],
    labels: Sequence[str],
    pair_fan: Callable[[int, int], int],
    triple_fan: Callable[[int, int, int], int],
    excluded: list[tuple[int, str]],
) -> None:
    """Pair and triple fans among the sets that were not counted, and why (不拆移, 不得相同,
    套算一次)."""
    n = len(sets)
    split = "whose own sets are not split to make another fan"
    for fan, members in combos:
        if len(members) == 4:  # a four-set fan holds every three-set fan of its sets
            for trio in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)):
                small = triple_fan(*(sets[i].tile for i in trio))
                if small:
                    excluded.append((small, f"part of {_name(fan)}, {split} ({NON_SEPARATION})"))
                    break
    counted = {(fan, members) for fan, members in combos}
    covering = [(fan, set(members)) for fan, members in combos if len(members) >= 3]
    for i in range(n):
        for j in range(i + 1, n):
            fan = pair_fan(sets[i].tile, sets[j].tile)
            if not fan or (fan, (i, j)) in counted:
                continue
            pair = f"{labels[i]} + {labels[j]}"
            inside = next((big for big, members in covering if {i, j} <= members), 0)
            same = next(((k, m) for f, m in combos if f == fan for k in (i, j) if k in m), None)
            if inside:  # which copy of a set does not matter here: one line for the fan
                excluded.append(
                    (
                        fan,
                        f"{sets[i]} + {sets[j]}: part of {_name(inside)}, {split} "
                        f"({NON_SEPARATION})",
                    )
                )
            elif same is not None:
                k, members = same
                partner = next(m for m in members if m != k)
                excluded.append(
                    (
                        fan,
                        f"{pair}: {labels[k]} already makes this fan with {labels[partner]}, "
                        f"and a set makes the same fan only once ({NON_IDENTICAL})",
                    )
                )
            else:
                excluded.append(
                    (
                        fan,
                        f"{pair}: both sets already combined, and a set joins the sets already "
                        f"combined only once ({ACCOUNT_ONCE})",
                    )
                )


def explain(
    table: Sequence[int],
    sets: Sequence[SetView],
    kinds: Sequence[int],
    total: Sequence[int],
    win: int,
    self_drawn: bool,
    fourth: bool,
    shape: str,
) -> Explanation:
    """Bases for every counted fan of ``table`` and the fans excluded by its structure."""
    bases: dict[int, list[str]] = {}
    excluded: list[tuple[int, str]] = []
    win_name = str(TILES[win])
    if table[F.NINE_GATES] and not sets:
        sets = _nine_gates_reading(table, total)
        if table[F.PUNG_OF_TERMINALS_OR_HONOURS]:
            excluded.append(
                (
                    F.PUNG_OF_TERMINALS_OR_HONOURS,
                    f"one terminal pung: implied by {_name(F.NINE_GATES)} ({NON_REPEAT})",
                )
            )
    chows = sorted((s for s in sets if s.kind == CHOW), key=lambda s: s.tile)
    pungs = sorted((s for s in sets if s.kind in (PUNG, KONG)), key=lambda s: s.tile)
    pair = next((s for s in sets if s.kind == PAIR), None)
    every_set = " ".join(str(s) for s in sets)
    if sets:
        chow_combos = chow_combinations(tuple(s.tile for s in chows))
        pung_combos = pung_combinations(tuple(s.tile for s in pungs))
        terminal_chows = table[F.PURE_TERMINAL_CHOWS] or table[F.THREE_SUITED_TERMINAL_CHOWS]
        chow_labels, pung_labels = _labels(chows), _labels(pungs)
        if not terminal_chows:
            _combination_bases(chow_combos, [str(c) for c in chows], bases)
            _combination_exclusions(
                chow_combos, chows, chow_labels, pair_chow_fan, triple_chow_fan, excluded
            )
        _combination_bases(pung_combos, [str(p) for p in pungs], bases)
        _combination_exclusions(
            pung_combos, pungs, pung_labels, pair_pung_fan, triple_pung_fan, excluded
        )
        if table[F.LITTLE_THREE_DRAGONS]:
            excluded.append(
                (
                    F.TWO_DRAGON_PUNGS,
                    f"with the dragon pair the pungs make {_name(F.LITTLE_THREE_DRAGONS)} "
                    f"({NON_REPEAT})",
                )
            )
        if table[F.LITTLE_FOUR_WINDS]:
            excluded.append(
                (
                    F.BIG_THREE_WINDS,
                    f"with the wind pair the pungs make {_name(F.LITTLE_FOUR_WINDS)} "
                    f"({NON_REPEAT})",
                )
            )
    _structural_exclusions(table, sets, pungs, win, self_drawn, fourth, excluded)
    for fan in range(1, len(table)):
        if not table[fan] or fan in bases:
            continue
        basis = _basis(
            fan,
            table,
            win,
            sets,
            pungs,
            pair,
            kinds,
            total,
            win_name,
            self_drawn,
            fourth,
            shape,
            every_set,
        )
        bases[fan] = [basis or shape or "every tile"]  # e.g. 九莲宝灯's extras rest on its shape
    unique = tuple(dict.fromkeys(excluded))  # the same reason twice says nothing new
    return Explanation({f: tuple(b) for f, b in bases.items()}, unique)


def _nine_gates_reading(table: Sequence[int], total: Sequence[int]) -> list[SetView]:
    """The reading of a 九莲宝灯 hand its added fans rest on (清龙, 连六, 双暗刻, docs/rules.md
    §6): the first split of its tiles whose chows make every chow fan it counts."""
    wanted = {f for f in (F.PURE_STRAIGHT, F.SHORT_STRAIGHT) if table[f]}
    for split in decompose(total):
        views = [SetView(s >> 6, s & 63) for s in split]
        chows = tuple(sorted(v.tile for v in views if v.kind == CHOW))
        made = {fan for fan, _ in chow_combinations(chows)}
        pungs = sum(v.kind == PUNG for v in views)
        if wanted <= made and (pungs == 2) == bool(table[F.TWO_CONCEALED_PUNGS]):
            return views
    return []


# Fans that a counted fan's own shape displays, never entered in the count (不重复原则).
_SHAPE_IMPLIES: dict[int, tuple[int, ...]] = {
    F.SEVEN_SHIFTED_PAIRS: (F.SEVEN_PAIRS, F.FULL_FLUSH, F.SINGLE_WAIT, F.NO_HONOURS),
    F.SEVEN_PAIRS: (F.SINGLE_WAIT,),
    F.THIRTEEN_ORPHANS: (F.ALL_TYPES, F.ALL_TERMINALS_AND_HONOURS),
    F.GREATER_HONOURS_AND_KNITTED_TILES: (F.LESSER_HONOURS_AND_KNITTED_TILES, F.ALL_TYPES),
    F.LESSER_HONOURS_AND_KNITTED_TILES: (F.ALL_TYPES,),
    F.NINE_GATES: (F.FULL_FLUSH, F.NO_HONOURS, F.PUNG_OF_TERMINALS_OR_HONOURS),
    F.FOUR_KONGS: (F.THREE_KONGS, F.ALL_PUNGS),
    F.FOUR_CONCEALED_PUNGS: (F.THREE_CONCEALED_PUNGS, F.ALL_PUNGS),
    F.THREE_CONCEALED_PUNGS: (F.TWO_CONCEALED_PUNGS,),
    F.TWO_CONCEALED_KONGS: (F.TWO_CONCEALED_PUNGS,),
    F.QUADRUPLE_CHOW: (F.TILE_HOG,),
    F.UPPER_TILES: (F.UPPER_FOUR,),
    F.LOWER_TILES: (F.LOWER_FOUR,),
    F.FULL_FLUSH: (F.ONE_VOIDED_SUIT, F.NO_HONOURS),
    F.HALF_FLUSH: (F.ONE_VOIDED_SUIT,),
    F.PURE_TERMINAL_CHOWS: (F.PURE_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS),
    F.THREE_SUITED_TERMINAL_CHOWS: (F.MIXED_DOUBLE_CHOW, F.TWO_TERMINAL_CHOWS),
}
_SHAPE_FANS = frozenset(
    {
        F.SEVEN_PAIRS,
        F.SEVEN_SHIFTED_PAIRS,
        F.THIRTEEN_ORPHANS,
        F.LESSER_HONOURS_AND_KNITTED_TILES,
        F.GREATER_HONOURS_AND_KNITTED_TILES,
        F.KNITTED_STRAIGHT,
        F.NINE_GATES,
    }
)
_CONCEALED_BY_NATURE = (
    F.SEVEN_SHIFTED_PAIRS,
    F.SEVEN_PAIRS,
    F.THIRTEEN_ORPHANS,
    F.GREATER_HONOURS_AND_KNITTED_TILES,
    F.LESSER_HONOURS_AND_KNITTED_TILES,
    F.NINE_GATES,
    F.FOUR_CONCEALED_PUNGS,
)


def _single_wait_shown(sets: Sequence[SetView], win: int) -> bool:
    """The hand waited on its pair tile alone (单钓将 displayed)."""
    standing = [0] * 34
    for s in sets:
        if s.declared:
            continue
        for t in (
            (s.tile, s.tile + 1, s.tile + 2)
            if s.kind == CHOW
            else (s.tile,) * (2 if s.kind == PAIR else 3)
        ):
            standing[t] += 1
    pair = any(s.kind == PAIR and s.tile == win for s in sets)
    return pair and standing[win] > 0 and is_unique_wait(standing, win)


def _structural_exclusions(
    table: Sequence[int],
    sets: Sequence[SetView],
    pungs: Sequence[SetView],
    win: int,
    self_drawn: bool,
    fourth: bool,
    excluded: list[tuple[int, str]],
) -> None:
    for fan, implied in _SHAPE_IMPLIES.items():
        if table[fan]:
            for other in implied:
                if not table[other]:
                    excluded.append((other, f"implied by {_name(fan)} ({NON_REPEAT})"))
    for fan in _CONCEALED_BY_NATURE:
        if table[fan]:
            other = F.FULLY_CONCEALED_HAND if self_drawn else F.CONCEALED_HAND
            excluded.append((other, f"{_name(fan)} is concealed by nature ({NON_REPEAT})"))
            break
    if self_drawn and (table[F.LAST_TILE_DRAW] or table[F.OUT_WITH_REPLACEMENT_TILE]):
        by = F.LAST_TILE_DRAW if table[F.LAST_TILE_DRAW] else F.OUT_WITH_REPLACEMENT_TILE
        excluded.append((F.SELF_DRAWN, f"implied by {_name(by)} ({NON_REPEAT})"))
    if table[F.ROBBING_THE_KONG] and fourth:
        excluded.append(
            (
                F.LAST_TILE,
                f"a robbed tile is always the last of its kind: {_name(F.ROBBING_THE_KONG)} "
                f"(第九条58; {NON_REPEAT})",
            )
        )
    for wind_fan in (F.PREVALENT_WIND, F.SEAT_WIND):
        if table[wind_fan]:
            excluded.append(
                (
                    F.PUNG_OF_TERMINALS_OR_HONOURS,
                    f"the wind pung counts as {_name(wind_fan)} instead ({NON_REPEAT})",
                )
            )
    if (table[F.MELDED_HAND] or table[F.FOUR_KONGS]) and _single_wait_shown(sets, win):
        by = F.MELDED_HAND if table[F.MELDED_HAND] else F.FOUR_KONGS
        excluded.append((F.SINGLE_WAIT, f"implied by {_name(by)} ({NON_REPEAT})"))
    if table[F.BIG_FOUR_WINDS]:
        for other in (F.PREVALENT_WIND, F.SEAT_WIND):
            excluded.append((other, f"implied by {_name(F.BIG_FOUR_WINDS)} ({NON_REPEAT})"))


def _waits_in(fan: int, s: SetView, win: int) -> bool:
    """Whether set ``s`` reads the winning tile as ``fan``'s wait: the 3 of 123 or the 7 of 789
    (边张), the middle of a chow (坎张), the pair (单钓将)."""
    if fan == F.SINGLE_WAIT:
        return s.kind == PAIR and s.tile == win
    if s.kind != CHOW:
        return False
    if fan == F.CLOSED_WAIT:
        return win == s.tile + 1
    return (s.tile % 9 == 0 and win == s.tile + 2) or (s.tile % 9 == 6 and win == s.tile)


def _basis(
    fan: int,
    table: Sequence[int],
    win: int,
    sets: Sequence[SetView],
    pungs: Sequence[SetView],
    pair: SetView | None,
    kinds: Sequence[int],
    total: Sequence[int],
    win_name: str,
    self_drawn: bool,
    fourth: bool,
    shape: str,
    every_set: str,
) -> str:
    if fan == F.DRAGON_PUNG:
        return ", ".join(str(p) for p in pungs if IS_DRAGON[p.tile])
    if fan == F.PUNG_OF_TERMINALS_OR_HONOURS:
        if table[F.NINE_GATES]:  # its two terminal pungs, one of them 九莲宝灯's own
            return " or ".join(str(p) for p in pungs)
        # the wind pungs of 三风刻 and 四喜 count there, not here (docs/rules.md §7)
        winds_used = table[F.BIG_THREE_WINDS] or table[F.LITTLE_FOUR_WINDS]
        return ", ".join(
            str(p)
            for p in pungs
            if IS_TERMINAL_OR_HONOR[p.tile]
            and not IS_DRAGON[p.tile]
            and not (winds_used and IS_WIND[p.tile])
        )
    if fan in (F.PREVALENT_WIND, F.SEAT_WIND, F.BIG_THREE_WINDS, F.LITTLE_FOUR_WINDS):
        return ", ".join(str(p) for p in pungs if IS_WIND[p.tile]) + (
            f", pair {pair}" if fan == F.LITTLE_FOUR_WINDS and pair else ""
        )
    if fan == F.LITTLE_THREE_DRAGONS:
        return ", ".join(str(p) for p in pungs if IS_DRAGON[p.tile]) + (
            f", pair {pair}" if pair else ""
        )
    if fan in (
        F.FOUR_KONGS,
        F.THREE_KONGS,
        F.TWO_MELDED_KONGS,
        F.TWO_CONCEALED_KONGS,
        F.MELDED_KONG,
        F.CONCEALED_KONG,
        F.MELDED_AND_CONCEALED_KONG,
    ):
        return ", ".join(str(p) for p in pungs if p.kind == KONG)
    if fan in (F.FOUR_CONCEALED_PUNGS, F.THREE_CONCEALED_PUNGS, F.TWO_CONCEALED_PUNGS):
        return ", ".join(str(p) for p in pungs if not p.exposed)
    if fan == F.TILE_HOG:
        return ", ".join(f"{TILES[k]}×4" for k in kinds if total[k] == 4)
    if fan in (F.EDGE_WAIT, F.CLOSED_WAIT, F.SINGLE_WAIT):
        held = next((s for s in sets if not s.declared and _waits_in(fan, s, win)), None)
        # the place in words, not tiles: the pages draw the tiles a basis names
        where = ""
        if held is not None and held.kind == CHOW:
            ranks = "".join(str(held.tile % 9 + r) for r in (1, 2, 3))
            where = f", the {win % 9 + 1} of {ranks}"
        elif held is not None:
            where = ", the pair"
        return f"won on {win_name}, the only winning tile{where} (独听)"
    if fan == F.SELF_DRAWN:
        return f"self-drawn {win_name}"
    if fan == F.LAST_TILE:
        return f"{win_name}: its other three copies already shown"
    if fan == F.LAST_TILE_DRAW:
        return f"{win_name}, drawn as the last tile of the wall"
    if fan == F.LAST_TILE_CLAIM:
        return f"{win_name}, the discard after the last tile of the wall"
    if fan == F.OUT_WITH_REPLACEMENT_TILE:
        return f"{win_name}, the kong's replacement tile"
    if fan == F.ROBBING_THE_KONG:
        return f"{win_name}, added to another player's pung"
    if fan == F.NO_HONOURS:
        return "no 风 or 箭 tile"
    if fan == F.ONE_VOIDED_SUIT:
        present = {SUIT[k] for k in kinds}
        return "no " + " ".join(_SUIT_NAMES[s] for s in range(3) if s not in present)
    if fan in (F.FULL_FLUSH, F.HALF_FLUSH, F.ALL_TYPES):
        families = sorted({SUIT[k] for k in kinds})
        return "tiles of " + " ".join(_SUIT_NAMES[s] for s in families)
    if fan == F.ALL_HONORS:
        return "only 风 and 箭 tiles"
    if fan == F.CHICKEN_HAND:
        return "no other fan"
    if fan == F.FLOWER_TILES:
        return "flowers"
    if fan == F.MELDED_HAND:
        return f"four declared sets, won on {win_name}"
    if fan in (F.CONCEALED_HAND, F.FULLY_CONCEALED_HAND):
        return "no exposed set" + (", self-drawn" if fan == F.FULLY_CONCEALED_HAND else "")
    if sets and fan in (
        F.ALL_PUNGS,
        F.ALL_CHOWS,
        F.OUTSIDE_HAND,
        F.ALL_FIVES,
        F.ALL_EVEN_PUNGS,
        F.PURE_TERMINAL_CHOWS,
        F.THREE_SUITED_TERMINAL_CHOWS,
    ):
        return every_set
    if fan in _SHAPE_FANS and shape:
        return shape
    return "every tile"


# --------------------------------------------------------------------------------------------
# The texts a referee reads: every basis and reason this module and the calculator write, with
# its principle and article, in English or 中文.

LANGUAGES = ("en", "zh")

_FULL_NAMES = sorted((f"{f.zh} {f.en}" for f in Fan), key=len, reverse=True)
_ZH_OF = {f"{f.zh} {f.en}": f.zh for f in Fan}

# (English as written, 中文): {F} a fan's full name ("清龙 Pure Straight"), {P} a principle
# with its article, {x} {y} {z} sets or tiles; the first template that matches the whole text
# gives its 中文.
_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("implied by {F} ({P})", "已含于{F}（{P}）"),
    ("{F} is concealed by nature ({P})", "{F}的牌型必然门前清（{P}）"),
    (
        "part of {F}, whose own sets are not split to make another fan ({P})",
        "是{F}的一部分，该番种的牌不能拆开另组番种（{P}）",
    ),
    (
        "{x}: part of {F}, whose own sets are not split to make another fan ({P})",
        "{x}：是{F}的一部分，该番种的牌不能拆开另组番种（{P}）",
    ),
    (
        "{x}: {y} already makes this fan with {z}, and a set makes the same fan only once ({P})",
        "{x}：{y}已与{z}组成此番种，不能再组成相同的番种（{P}）",
    ),
    (
        "{x}: both sets already combined, and a set joins the sets already combined only once"
        " ({P})",
        "{x}：两副牌都已组合过，只能套算一次（{P}）",
    ),
    ("with the dragon pair the pungs make {F} ({P})", "两副箭刻加箭牌将已成{F}（{P}）"),
    ("with the wind pair the pungs make {F} ({P})", "三副风刻加风牌将已成{F}（{P}）"),
    (
        "a robbed tile is always the last of its kind: {F} (第九条58; {P})",
        "被抢的杠牌必是绝张，已计{F}（第九条58：抢杠和不计和绝张；{P}）",
    ),
    ("the wind pung counts as {F} instead ({P})", "该风刻已计{F}（{P}）"),
    ("one terminal pung: implied by {F} ({P})", "其中一副幺九刻已含于{F}（{P}）"),
    ("its 3 wind pungs are in {F} ({P})", "三副风刻已计{F}（{P}）"),
    (
        "won on {x}, the only winning tile, the {y} of {z} (独听)",
        "和{x}，只和这一张，{z}的{y}（独听）",
    ),
    ("won on {x}, the only winning tile, the pair (独听)", "和{x}，只和这一张，单钓将牌（独听）"),
    ("won on {x}, the only winning tile (独听)", "和{x}，只和这一张（独听）"),
    ("self-drawn {x}", "自摸{x}"),
    ("{x}: its other three copies already shown", "{x}：其余三张已亮明"),
    ("{x}, drawn as the last tile of the wall", "{x}：自摸牌墙最后一张"),
    ("{x}, the discard after the last tile of the wall", "{x}：和打出的最后一张牌"),
    ("{x}, the kong's replacement tile", "{x}：开杠补进的牌"),
    ("{x}, added to another player's pung", "{x}：和别人加杠的牌"),
    ("no 风 or 箭 tile", "没有风牌、箭牌"),
    ("only 风 and 箭 tiles", "只有风牌、箭牌"),
    ("no other fan", "数不出其他番种"),
    ("no exposed set", "没有吃、碰、明杠"),
    ("no exposed set, self-drawn", "没有吃、碰、明杠，自摸"),
    ("no {x}", "缺{x}"),
    ("tiles of {x}", "牌的花色：{x}"),
    (
        "the hand waited on {x}, not on {y} alone: a wait fan needs a single winning tile"
        " (第九条77-79)",
        "听{x}，不止{y}一张：边张、坎张、单钓将只在独听时计分（第九条77-79）",
    ),
    ("flowers", "花牌"),
    ("{x} flower(s)", "{x}张花牌"),
    ("four declared sets, won on {x}", "四副牌都是吃、碰、明杠，和别人打出的{x}"),
    ("every tile", "每张牌"),
    ("{x}, pair {y}", "{x}，将{y}"),
    ("{x} or {y}", "{x}或{y}"),
)

# Reasons the calculator writes in a shorter form, completed with their principle.
_COMPLETED: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(implied by .+) \(不重复原则\)"), rf"\1 ({NON_REPEAT})"),
    (re.compile(r"(implied by [^(]+)"), rf"\1 ({NON_REPEAT})"),
    (
        re.compile(r"3 wind pungs are in 三风刻"),
        f"its 3 wind pungs are in {_name(F.BIG_THREE_WINDS)} ({NON_REPEAT})",
    ),
)


def _pattern(template: str) -> re.Pattern[str]:
    names = "|".join(map(re.escape, _FULL_NAMES))
    parts = re.split(r"(\{[A-Za-z]\})", template)
    out = []
    for part in parts:
        if part == "{F}":
            out.append(f"(?P<F>{names})")
        elif re.fullmatch(r"\{[A-Za-z]\}", part):
            out.append(f"(?P<{part[1]}>.+?)")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The templates as patterns, compiled when first read (not on import: a batch of scores
    never reads them, and compiling takes tens of milliseconds)."""
    return tuple((_pattern(en), zh) for en, zh in _TEMPLATES)


_ORDINAL_ZH = {f" ({o})": f"（第{n}副）" for o, n in zip(_ORDINALS[2:], "二三四", strict=True)}


def _zh_words(text: str) -> str:
    for en, zh in _ORDINAL_ZH.items():
        text = text.replace(en, zh)
    return text.replace(", 第十条", "，第十条").replace(" and ", "、").replace(" + ", "+")


def referee_text(text: str, lang: str = "en") -> str:
    """A basis or reason of :func:`explain` (or of the calculator) as a referee reads it: every
    reason with its principle and article (第十条一(五)); in ``lang`` "zh", in 中文, the fans by
    their 中文 names. A text it does not know is returned as it is (in 中文, fans named in 中文)."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    for pattern, replacement in _COMPLETED:
        if pattern.fullmatch(text):
            text = pattern.sub(replacement, text)
            break
    if lang == "en":
        return text
    for pattern, zh in _patterns():
        found = pattern.fullmatch(text)
        if found is not None:
            fields = {k: _zh_words(v) for k, v in found.groupdict().items()}
            if "F" in fields:
                fields["F"] = _ZH_OF[found["F"]]
            return zh.format(**fields)
    for name in _FULL_NAMES:
        text = text.replace(name, _ZH_OF[name])
    return _zh_words(text)


# --------------------------------------------------------------------------------------------
# What the explanation adds once the whole hand and its context are known.

_WAIT_FANS = (F.EDGE_WAIT, F.CLOSED_WAIT, F.SINGLE_WAIT)
# Fans that already say why no wait fan counts (their own exclusion names them).
_NO_WAIT_FANS = frozenset(
    {
        Fan.EDGE_WAIT,
        Fan.CLOSED_WAIT,
        Fan.SINGLE_WAIT,
        Fan.MELDED_HAND,
        Fan.FOUR_KONGS,
        Fan.NINE_GATES,  # a nine-sided wait by its definition (第九条4)
        Fan.SEVEN_PAIRS,
        Fan.SEVEN_SHIFTED_PAIRS,
        Fan.THIRTEEN_ORPHANS,
        Fan.LESSER_HONOURS_AND_KNITTED_TILES,
        Fan.GREATER_HONOURS_AND_KNITTED_TILES,
    }
)


def _set_tile(text: str) -> int | None:
    """The tile of a pung's text as a basis writes it ("[F1F1F1]", "F3F3F3", "(F2F2F2F2)")."""
    body = text.strip("[]()")
    found = [t for t in TILES[:34] if str(t) == body[:2]]
    return int(found[0]) if found and body == body[:2] * (len(body) // 2) else None


def with_winds(result: FanResult, seat_wind: int, round_wind: int) -> FanResult:
    """``result`` with the bases of 圈风刻, 门风刻 and 幺九刻 naming the very pungs they rest on:
    the prevalent wind's pung, the seat wind's, and the terminal and honour pungs that count
    neither (:func:`explain` is not told the winds, so it names every wind pung; ``calculate``
    with ``explain=True`` applies this)."""
    prevalent, seat = 27 + int(round_wind), 27 + int(seat_wind)
    counted = {f.fan for f in result.fans}
    keep: dict[Fan, Callable[[int], bool]] = {
        Fan.PREVALENT_WIND: lambda t: t == prevalent,
        Fan.SEAT_WIND: lambda t: t == seat,
        Fan.PUNG_OF_TERMINALS_OR_HONOURS: lambda t: (
            not (
                (t == prevalent and Fan.PREVALENT_WIND in counted)
                or (t == seat and Fan.SEAT_WIND in counted)
            )
        ),
    }
    fans = []
    for fan in result.fans:
        test = keep.get(fan.fan)
        if test is not None and len(fan.basis) == 1:
            parts = fan.basis[0].split(", ")
            tiles = [_set_tile(p) for p in parts]
            kept = [p for p, t in zip(parts, tiles, strict=True) if t is None or test(t)]
            if len(kept) == (1 if fan.fan is not Fan.PUNG_OF_TERMINALS_OR_HONOURS else fan.count):
                fan = CountedFan(fan.fan, fan.count, (", ".join(kept),))
        fans.append(fan)
    return replace(result, fans=tuple(fans))


def wait_exclusions(hand: Hand, context: WinContext, result: FanResult) -> tuple[ExcludedFan, ...]:
    """The wait fans (边张, 坎张, 单钓将) the winning tile would show in one of the hand's readings
    but that do not count because the hand waited on more than one tile (第九条77-79: 「单和」;
    docs/rules.md §3), with the tiles it waited on; () when a wait fan counts, when none would
    show, or when a counted fan already says why (七对, 全求人, ...)."""
    if not result.is_winning or {f.fan for f in result.fans} & _NO_WAIT_FANS:
        return ()
    from guobiao.core.shanten import waits  # its tables load only when a referee asks

    counts = [0] * 34
    for tile in hand.concealed:
        counts[tile] += 1
    ready_on = waits(counts, len(hand.melds))
    if len(ready_on) < 2:
        return ()
    win = int(context.win_tile)
    counts[win] += 1
    shown = {int(fan.number) for fan in wait_shapes(counts, win)}
    tiles = ", ".join(str(TILES[t]) for t in ready_on[:-1]) + f" and {TILES[ready_on[-1]]}"
    return tuple(
        ExcludedFan(
            _FANS[fan],
            f"the hand waited on {tiles}, not on {TILES[win]} alone: a wait fan needs a single "
            "winning tile (第九条77-79)",
        )
        for fan in _WAIT_FANS
        if fan in shown
    )


def wait_shapes(standing: Sequence[int], win: int) -> tuple[Fan, ...]:
    """The wait fans (边张, 坎张, 单钓将, in that order) that winning tile ``win`` shows in some
    reading of ``standing`` (the standing tiles with it, as counts by tile) into sets and a pair:
    the 3 of 123 or the 7 of 789, the middle of a chow, the pair. Whether one counts is the
    hand's to say: only on a single winning tile (独听), and never beside the fans that exclude
    it (七对, 全求人, ...)."""
    shown = {
        fan
        for split in decompose(standing)
        for s in split
        for fan in _WAIT_FANS
        if _waits_in(fan, SetView(s >> 6, s & 63), win)
    }
    return tuple(_FANS[fan] for fan in _WAIT_FANS if fan in shown)
