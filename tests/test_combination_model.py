"""The chow and pung combination fans against a clean model of 第十条一(五) 2, 3, 5.

The model: among all two-, three- and four-set combination fans the sets display, choose the
highest-scoring collection such that
- no two chosen combinations link the same sets into a loop (套算一次: a set may join an already
  combined group once; a loop would count one link twice), and
- no set is in two chosen combinations of the same fan (不得相同).
The calculator follows the reference calculator's procedure instead (docs/rules.md); this test
checks, over every multiset of 2-4 chows and of 2-4 pungs, that both give the same points, and
that every combination the calculator counts is one the sets really display.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import pytest

from guobiao.scoring import _fan_ids as F
from guobiao.scoring.combinations import (
    chow_combinations,
    pair_chow_fan,
    pair_pung_fan,
    pung_combinations,
    triple_chow_fan,
    triple_pung_fan,
)
from guobiao.scoring.fans import Fan

POINTS = {f.number: f.points for f in Fan}
CHOWS = [s * 9 + r for s in range(3) for r in range(7)]
PUNGS = list(range(34))


def four_chow_fan(tiles: tuple[int, ...]) -> int:
    a, b, c, d = tiles
    if a // 9 == d // 9 and (b, c, d) in ((a + 1, a + 2, a + 3), (a + 2, a + 4, a + 6)):
        return F.FOUR_PURE_SHIFTED_CHOWS
    if a == b == c == d:
        return F.QUADRUPLE_CHOW
    return 0


def four_pung_fan(tiles: tuple[int, ...]) -> int:
    a, b, c, d = tiles
    if d < 27 and a // 9 == d // 9 and (b, c, d) == (a + 1, a + 2, a + 3):
        return F.FOUR_PURE_SHIFTED_PUNGS
    if tiles == (27, 28, 29, 30):
        return F.BIG_FOUR_WINDS
    return 0


def candidates(tiles: tuple[int, ...], chows: bool) -> list[tuple[int, tuple[int, ...]]]:
    pair = pair_chow_fan if chows else pair_pung_fan
    triple = triple_chow_fan if chows else triple_pung_fan
    four = four_chow_fan if chows else four_pung_fan
    out = []
    n = len(tiles)
    for size, fan_of in ((2, pair), (3, triple), (4, four)):
        for members in combinations(range(n), size):
            fan = fan_of(*(tiles[i] for i in members)) if size < 4 else four(tiles)
            if fan:
                out.append((fan, members))
    return out


def best_points(tiles: tuple[int, ...], chows: bool) -> int:
    found = candidates(tiles, chows)
    best = 0

    def walk(i: int, parent: list[int], used: set[tuple[int, int]], points: int) -> None:
        nonlocal best
        best = max(best, points)
        for j in range(i, len(found)):
            fan, members = found[j]
            if any((fan, m) in used for m in members):
                continue  # 不得相同
            roots = {find(parent, m) for m in members}
            if len(roots) < len(members):
                continue  # a loop: 套算一次
            merged = list(parent)
            first = roots.pop()
            for root in roots:
                merged[root] = first
            walk(j + 1, merged, used | {(fan, m) for m in members}, points + POINTS[fan])

    walk(0, list(range(len(tiles))), set(), 0)
    return best


def find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x


def legal(tiles: tuple[int, ...], chows: bool) -> bool:
    counts = [0] * 34
    for t in tiles:
        for u in (t, t + 1, t + 2) if chows else (t, t, t):
            counts[u] += 1
    return max(counts) <= 4


@pytest.mark.parametrize("size", [2, 3, 4])
def test_chows_agree_with_the_clean_model(size: int) -> None:
    checked = 0
    for tiles in combinations_with_replacement(CHOWS, size):
        if not legal(tiles, True):
            continue
        counted = chow_combinations(tiles)
        for fan, members in counted:  # every counted combination is displayed
            assert (fan, members) in candidates(tiles, True)
        assert sum(POINTS[f] for f, _ in counted) == best_points(tiles, True), tiles
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("size", [2, 3, 4])
def test_pungs_agree_with_the_clean_model(size: int) -> None:
    checked = 0
    for tiles in combinations(PUNGS, size):  # four of a tile: at most one pung of each
        counted = pung_combinations(tiles)
        assert sum(POINTS[f] for f, _ in counted) == best_points(tiles, False), tiles
        checked += 1
    assert checked > 100
