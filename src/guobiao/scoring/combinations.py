"""Fans that combine chows or pungs (第十条一(五) 2, 3, 5: 不拆移, 不得相同, 套算一次).

Each function returns the combinations it counts as (fan number, indexes of the sets combined), so
that the calculator counts them and an explanation can name the sets each rests on.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb
from typing import Final

from guobiao.scoring import _fan_ids as F
from guobiao.scoring._combination_table import (
    CHOW_TABLE,
    CHOW_VALUES,
    PUNG_TABLE,
    PUNG_VALUES,
)
from guobiao.scoring._tables import IS_DRAGON, IS_WIND, RANK, SUIT

__all__ = [
    "CHOW_LOWS",
    "Combination",
    "chow_combinations",
    "chow_fans",
    "chow_rank",
    "pair_chow_fan",
    "pair_pung_fan",
    "pung_combinations",
    "pung_fans",
    "pung_rank",
    "terminal_chows",
    "triple_chow_fan",
    "triple_pung_fan",
]


def _same_suit(a: int, b: int) -> bool:
    return SUIT[a] == SUIT[b]


def _four_chows_fan(c: tuple[int, ...]) -> int:
    a, b, d, e = c
    if _same_suit(a, e):
        if b == a + 2 and d == a + 4 and e == a + 6:
            return F.FOUR_PURE_SHIFTED_CHOWS
        if b == a + 1 and d == a + 2 and e == a + 3:
            return F.FOUR_PURE_SHIFTED_CHOWS
        if a == b == d == e:
            return F.QUADRUPLE_CHOW
    return 0


def triple_chow_fan(a: int, b: int, c: int) -> int:
    """Fan of three chows given by their lowest tiles, sorted."""
    sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
    if sa != sb and sa != sc and sb != sc:
        ranks = sorted((RANK[a], RANK[b], RANK[c]))
        if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return F.MIXED_SHIFTED_CHOWS
        if ranks[0] == ranks[2]:
            return F.MIXED_TRIPLE_CHOW
        if ranks == [1, 4, 7]:
            return F.MIXED_STRAIGHT
    elif sa == sb == sc:
        if b == a + 3 and c == b + 3:
            return F.PURE_STRAIGHT
        if (b == a + 2 and c == b + 2) or (b == a + 1 and c == b + 1):
            return F.PURE_SHIFTED_CHOWS
        if a == b == c:
            return F.PURE_TRIPLE_CHOW
    return 0


def pair_chow_fan(a: int, b: int) -> int:
    if not _same_suit(a, b):
        return F.MIXED_DOUBLE_CHOW if RANK[a] == RANK[b] else 0
    if a + 3 == b or b + 3 == a:
        return F.SHORT_STRAIGHT
    if a + 6 == b or b + 6 == a:  # 123 and 789: no other chows of a suit are six apart
        return F.TWO_TERMINAL_CHOWS
    if a == b:
        return F.PURE_DOUBLE_CHOW
    return 0


# Pair fans kept first when a 4th chow may join a three-chow fan only once (套算一次), and the
# order in which duplicates are dropped when pair fans would link the same chows twice (不得相同).
_PAIR_CHOW_FANS: Final = (
    F.PURE_DOUBLE_CHOW,
    F.MIXED_DOUBLE_CHOW,
    F.SHORT_STRAIGHT,
    F.TWO_TERMINAL_CHOWS,
)
Combination = tuple[int, tuple[int, ...]]  # (fan number, indexes of the sets it combines)


def _limit_pair_fans(edges: list[Combination], limit: int) -> list[Combination]:
    """Keep at most ``limit`` pairwise fans: drop repeats of one fan first, 老少副 before 一般高."""
    by_fan: dict[int, list[Combination]] = {f: [] for f in _PAIR_CHOW_FANS}
    for edge in edges:
        by_fan[edge[0]].append(edge)
    count = len(edges)
    for keep in (1, 0):
        for fan in reversed(_PAIR_CHOW_FANS):
            while len(by_fan[fan]) > keep and count > limit:
                by_fan[fan].pop()
                count -= 1
    return [edge for fan in _PAIR_CHOW_FANS for edge in by_fan[fan]]


def chow_combinations(chows: tuple[int, ...]) -> tuple[Combination, ...]:
    """The combination fans of sorted chows (by lowest tile), each with the chows it combines."""
    n = len(chows)
    if n < 2:
        return ()
    if n == 4:
        fan = _four_chows_fan(chows)
        if fan:
            return ((fan, (0, 1, 2, 3)),)
    if n >= 3:
        for trio in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)) if n == 4 else ((0, 1, 2),):
            fan = triple_chow_fan(chows[trio[0]], chows[trio[1]], chows[trio[2]])
            if not fan:
                continue
            found: list[Combination] = [(fan, trio)]
            if n == 4:  # the 4th chow joins the three once (套算一次)
                free = next(i for i in range(4) if i not in trio)
                links = {pair_chow_fan(chows[i], chows[free]): i for i in reversed(trio)}
                for pair_fan in _PAIR_CHOW_FANS:
                    if pair_fan in links:
                        found.append((pair_fan, tuple(sorted((links[pair_fan], free)))))
                        break
            return tuple(found)
    edges: list[Combination] = []
    for i in range(n):
        for j in range(i + 1, n):
            fan = pair_chow_fan(chows[i], chows[j])
            if fan:
                edges.append((fan, (i, j)))
    # No loops: n chows carry at most n - 1 links, fewer when a chow links to none.
    linked = {i for _, pair in edges for i in pair}
    limit = len(linked) - 1 if linked else 0
    if n == 2:
        return tuple(edges)
    return tuple(_limit_pair_fans(edges, limit))


def triple_pung_fan(a: int, b: int, c: int) -> int:
    if c < 27:
        sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
        if sa != sb and sa != sc and sb != sc:
            ranks = sorted((RANK[a], RANK[b], RANK[c]))
            if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
                return F.MIXED_SHIFTED_PUNGS
            if ranks[0] == ranks[2]:
                return F.TRIPLE_PUNG
        elif sa == sb == sc and b == a + 1 and c == b + 1:
            return F.PURE_SHIFTED_PUNGS
        return 0
    if IS_WIND[a] and IS_WIND[b] and IS_WIND[c]:
        return F.BIG_THREE_WINDS
    if a == 31 and b == 32 and c == 33:
        return F.BIG_THREE_DRAGONS
    return 0


def pair_pung_fan(a: int, b: int) -> int:
    if a < 27 and b < 27:
        return F.DOUBLE_PUNG if RANK[a] == RANK[b] else 0
    if IS_DRAGON[a] and IS_DRAGON[b]:
        return F.TWO_DRAGON_PUNGS
    return 0


def pung_combinations(pungs: tuple[int, ...]) -> tuple[Combination, ...]:
    """The combination fans of sorted pungs/kongs (by tile), each with the pungs it combines."""
    n = len(pungs)
    if n == 4:
        a, b, c, d = pungs
        if d < 27 and _same_suit(a, d) and b == a + 1 and c == a + 2 and d == a + 3:
            return ((F.FOUR_PURE_SHIFTED_PUNGS, (0, 1, 2, 3)),)
        if pungs == (27, 28, 29, 30):
            return ((F.BIG_FOUR_WINDS, (0, 1, 2, 3)),)
    if n >= 3:
        for trio in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)) if n == 4 else ((0, 1, 2),):
            fan = triple_pung_fan(pungs[trio[0]], pungs[trio[1]], pungs[trio[2]])
            if not fan:
                continue
            found: list[Combination] = [(fan, trio)]
            if n == 4:  # the 4th pung joins the three once (套算一次)
                free = next(i for i in range(4) if i not in trio)
                for i in trio:
                    pair_fan = pair_pung_fan(pungs[i], pungs[free])
                    if pair_fan:
                        found.append((pair_fan, (min(i, free), max(i, free))))
                        break
            return tuple(found)
    out: list[Combination] = []
    for i in range(n):
        for j in range(i + 1, n):
            fan = pair_pung_fan(pungs[i], pungs[j])
            if fan:
                out.append((fan, (i, j)))
    return tuple(out)


# Every combination of 2-4 chows or pungs ranked as one int (the combinatorial number system), by
# which the generated tables (_combination_table) give its fans without working them out.
CHOW_LOWS: Final = tuple(t for t in range(27) if t % 9 <= 6)
"""The lowest tiles of the 21 chows."""


def _binomial(n: int, k: int) -> int:
    return comb(n, k) if n >= k else 0


# The rank of sorted chows c_0 <= ... <= c_k-1 (chow numbers 0-20) is the sum of C(c_i + i, i + 1)
# after the offset of their count k; for pungs (distinct tiles p_0 < ... ) the sum of C(p_i, i + 1).
_CHOW_NUMBER: Final = {t: i for i, t in enumerate(CHOW_LOWS)}
_CHOW_PLACE: Final = tuple(
    tuple(_binomial(_CHOW_NUMBER[t] + i, i + 1) if t in _CHOW_NUMBER else 0 for t in range(27))
    for i in range(4)
)
_CHOW_OFFSET: Final = (0, 0, 0, comb(22, 2), comb(22, 2) + comb(23, 3))
_PUNG_PLACE: Final = tuple(tuple(_binomial(t, i + 1) for t in range(34)) for i in range(4))
_PUNG_OFFSET: Final = (0, 0, 0, comb(34, 2), comb(34, 2) + comb(34, 3))


def chow_rank(chows: tuple[int, ...]) -> int:
    """The index of 2-4 sorted chows (by lowest tile) in the chow table."""
    rank: int = _CHOW_OFFSET[len(chows)]
    for i, low in enumerate(chows):
        rank += _CHOW_PLACE[i][low]
    return rank


def pung_rank(pungs: tuple[int, ...]) -> int:
    """The index of 2-4 sorted pungs (by tile, all different) in the pung table."""
    rank: int = _PUNG_OFFSET[len(pungs)]
    for i, tile in enumerate(pungs):
        rank += _PUNG_PLACE[i][tile]
    return rank


# The calculator's hot path needs only the fans, not the sets they rest on: read from the
# generated tables by rank (no table fills as hands come, so memory stays what the tables take).
# An explanation asks for the sets as well, rarely enough to work them out again.


# The places of the first to fourth set, by tile (the rank is their sum plus the count's offset).
_C0, _C1, _C2, _C3 = _CHOW_PLACE
_P0, _P1, _P2, _P3 = _PUNG_PLACE
_C_3: Final = _CHOW_OFFSET[3]
_C_4: Final = _CHOW_OFFSET[4]
_P_3: Final = _PUNG_OFFSET[3]
_P_4: Final = _PUNG_OFFSET[4]


def chow_fans(chows: Sequence[int]) -> tuple[int, ...]:
    """The fan numbers of :func:`chow_combinations`, one entry per count (:func:`chow_rank`
    written out by count: the hot path)."""
    n = len(chows)
    if n == 2:
        a, b = chows
        return CHOW_VALUES[CHOW_TABLE[_C0[a] + _C1[b]]]
    if n == 3:
        a, b, c = chows
        return CHOW_VALUES[CHOW_TABLE[_C_3 + _C0[a] + _C1[b] + _C2[c]]]
    if n == 4:
        a, b, c, d = chows
        return CHOW_VALUES[CHOW_TABLE[_C_4 + _C0[a] + _C1[b] + _C2[c] + _C3[d]]]
    return ()


def pung_fans(pungs: Sequence[int]) -> tuple[int, ...]:
    """The fan numbers of :func:`pung_combinations`, one entry per count (:func:`pung_rank`
    written out by count: the hot path)."""
    n = len(pungs)
    if n == 2:
        a, b = pungs
        return PUNG_VALUES[PUNG_TABLE[_P0[a] + _P1[b]]]
    if n == 3:
        a, b, c = pungs
        return PUNG_VALUES[PUNG_TABLE[_P_3 + _P0[a] + _P1[b] + _P2[c]]]
    if n == 4:
        a, b, c, d = pungs
        return PUNG_VALUES[PUNG_TABLE[_P_4 + _P0[a] + _P1[b] + _P2[c] + _P3[d]]]
    return ()


@lru_cache(maxsize=1 << 14)
def terminal_chows(chows: tuple[int, ...]) -> tuple[int, int]:
    """(fan, pair tile) when four sorted chows are two 123s and two 789s that, with a pair of 5s,
    make 一色双龙会 (one suit, the pair too) or 三色双龙会 (two suits, the pair the third); (0, -1)
    otherwise."""
    if len(chows) != 4 or sorted(RANK[c] for c in chows) != [1, 1, 7, 7]:
        return 0, -1
    suits = {SUIT[c] for c in chows}
    if len(suits) == 1:
        (suit,) = suits
        return F.PURE_TERMINAL_CHOWS, suit * 9 + 4
    low = {SUIT[c] for c in chows if RANK[c] == 1}
    high = {SUIT[c] for c in chows if RANK[c] == 7}
    if len(low) == 2 and low == high:
        (third,) = {0, 1, 2} - low
        return F.THREE_SUITED_TERMINAL_CHOWS, third * 9 + 4
    return 0, -1
