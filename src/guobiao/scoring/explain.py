"""Why a hand scores what it scores: the sets or tiles each fan rests on, and the fans the hand
displays that were not counted, with the fan or principle (第十条一(五)) that excluded them.

Only :func:`guobiao.scoring.calculator.calculate` with ``explain=True`` calls this module; the counting
itself never depends on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from guobiao.core.shapes import CHOW, KONG, PAIR, PUNG
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

__all__ = ["Explanation", "SetView", "explain"]

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


def _combination_bases(
    combos: Sequence[Combination], sets: Sequence[SetView], bases: dict[int, list[str]]
) -> None:
    for fan, members in combos:
        bases.setdefault(fan, []).append(" + ".join(str(sets[i]) for i in members))


def _combination_exclusions(
    combos: Sequence[Combination],
    sets: Sequence[SetView],
    pair_fan: Callable[[int, int], int],
    triple_fan: Callable[[int, int, int], int],
    excluded: list[tuple[int, str]],
) -> None:
    """Pair and triple fans among the sets that were not counted, and why (不重复, 不得相同, 套算一次)."""
    n = len(sets)
    for fan, members in combos:
        if len(members) == 4:  # a four-set fan holds every three-set fan of its sets
            for trio in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)):
                small = triple_fan(*(sets[i].tile for i in trio))
                if small:
                    excluded.append((small, f"part of {_name(fan)} (不重复原则)"))
                    break
    counted = {(fan, members) for fan, members in combos}
    covering = [(fan, set(members)) for fan, members in combos if len(members) >= 3]
    for i in range(n):
        for j in range(i + 1, n):
            fan = pair_fan(sets[i].tile, sets[j].tile)
            if not fan or (fan, (i, j)) in counted:
                continue
            pair = f"{sets[i]} + {sets[j]}"
            inside = next((big for big, members in covering if {i, j} <= members), 0)
            if inside:
                excluded.append((fan, f"{pair}: part of {_name(inside)} (不重复原则)"))
            elif any(f == fan and {i, j} & set(m) for f, m in counted):
                excluded.append(
                    (
                        fan,
                        f"{pair}: a set already counted in this fan (不得相同原则, 第十条一(五)3)",
                    )
                )
            else:
                excluded.append(
                    (fan, f"{pair}: both sets already combined (套算一次原则, 第十条一(五)5)")
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
    chows = sorted((s for s in sets if s.kind == CHOW), key=lambda s: s.tile)
    pungs = sorted((s for s in sets if s.kind in (PUNG, KONG)), key=lambda s: s.tile)
    pair = next((s for s in sets if s.kind == PAIR), None)
    every_set = " ".join(str(s) for s in sets)
    if sets:
        chow_combos = chow_combinations(tuple(s.tile for s in chows))
        pung_combos = pung_combinations(tuple(s.tile for s in pungs))
        terminal_chows = table[F.PURE_TERMINAL_CHOWS] or table[F.THREE_SUITED_TERMINAL_CHOWS]
        if not terminal_chows:
            _combination_bases(chow_combos, chows, bases)
            _combination_exclusions(chow_combos, chows, pair_chow_fan, triple_chow_fan, excluded)
        _combination_bases(pung_combos, pungs, bases)
        _combination_exclusions(pung_combos, pungs, pair_pung_fan, triple_pung_fan, excluded)
        if table[F.LITTLE_THREE_DRAGONS]:
            excluded.append(
                (F.TWO_DRAGON_PUNGS, f"with the dragon pair it is {_name(F.LITTLE_THREE_DRAGONS)}")
            )
        if table[F.LITTLE_FOUR_WINDS]:
            excluded.append(
                (F.BIG_THREE_WINDS, f"with the wind pair it is {_name(F.LITTLE_FOUR_WINDS)}")
            )
    _structural_exclusions(table, sets, pungs, win, self_drawn, fourth, excluded)
    for fan in range(1, len(table)):
        if not table[fan] or fan in bases:
            continue
        basis = _basis(
            fan, sets, pungs, pair, kinds, total, win_name, self_drawn, fourth, shape, every_set
        )
        bases[fan] = [basis or shape or "every tile"]  # e.g. 九莲宝灯's extras rest on its shape
    unique = tuple(dict.fromkeys(excluded))  # the same reason twice says nothing new
    return Explanation({f: tuple(b) for f, b in bases.items()}, unique)


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
                    excluded.append((other, f"implied by {_name(fan)} (不重复原则)"))
    for fan in _CONCEALED_BY_NATURE:
        if table[fan]:
            other = F.FULLY_CONCEALED_HAND if self_drawn else F.CONCEALED_HAND
            excluded.append((other, f"{_name(fan)} is concealed by nature (不重复原则)"))
            break
    if self_drawn and (table[F.LAST_TILE_DRAW] or table[F.OUT_WITH_REPLACEMENT_TILE]):
        by = F.LAST_TILE_DRAW if table[F.LAST_TILE_DRAW] else F.OUT_WITH_REPLACEMENT_TILE
        excluded.append((F.SELF_DRAWN, f"implied by {_name(by)} (不重复原则)"))
    if table[F.ROBBING_THE_KONG] and fourth:
        excluded.append(
            (F.LAST_TILE, f"a robbed tile is always the last: {_name(F.ROBBING_THE_KONG)}")
        )
    for wind_fan in (F.PREVALENT_WIND, F.SEAT_WIND):
        if table[wind_fan]:
            excluded.append(
                (
                    F.PUNG_OF_TERMINALS_OR_HONOURS,
                    f"the wind pung counts as {_name(wind_fan)} instead",
                )
            )
    if (table[F.MELDED_HAND] or table[F.FOUR_KONGS]) and _single_wait_shown(sets, win):
        by = F.MELDED_HAND if table[F.MELDED_HAND] else F.FOUR_KONGS
        excluded.append((F.SINGLE_WAIT, f"implied by {_name(by)} (不重复原则)"))
    if table[F.BIG_FOUR_WINDS]:
        for other in (F.PREVALENT_WIND, F.SEAT_WIND):
            excluded.append((other, f"implied by {_name(F.BIG_FOUR_WINDS)} (不重复原则)"))


def _basis(
    fan: int,
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
        return ", ".join(
            str(p) for p in pungs if IS_TERMINAL_OR_HONOR[p.tile] and not IS_DRAGON[p.tile]
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
        return f"won on {win_name}, the only winning tile"
    if fan == F.SELF_DRAWN:
        return f"self-drawn {win_name}"
    if fan == F.LAST_TILE:
        return f"{win_name}: its other three copies already shown"
    if fan in (F.LAST_TILE_DRAW, F.LAST_TILE_CLAIM):
        return f"{win_name}, the last tile of the wall"
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
