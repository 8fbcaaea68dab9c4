"""Winning shapes (第八条二) and the decompositions of a hand into sets and a pair.

Tiles here are plain ints 0-33 (the :class:`~guobiao.core.tiles.Tile` indexes) and hands are counts
arrays of length 34: this module is on the hot path of the fan calculator and of shanten.

A *set* is encoded as an int ``kind * 64 + tile`` with ``kind`` one of :data:`CHOW` (``tile`` is the
lowest tile), :data:`PUNG`, :data:`KONG` or :data:`PAIR`; sort order of encoded sets is stable.
Per-suit decompositions are memoised by suit pattern, so that a hand is split by combining at most
four small cached tables instead of searching the whole hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Final

__all__ = [
    "CHOW",
    "KNITTED_STRAIGHTS",
    "KONG",
    "PAIR",
    "PUNG",
    "THIRTEEN_ORPHANS",
    "decompose",
    "suit_splits",
]

# Set kinds (Final: compiled, their uses read the value itself).
CHOW: Final = 0
PUNG: Final = 1
KONG: Final = 2
PAIR: Final = 3

THIRTEEN_ORPHANS: Final[tuple[int, ...]] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# 组合龙: 147, 258, 369 each in a different suit (six arrangements).
KNITTED_STRAIGHTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sorted(
            suit * 9 + r
            for suit, start in zip(order, (0, 1, 2), strict=True)
            for r in (start, start + 3, start + 6)
        )
    )
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)


@lru_cache(maxsize=(1 << 11) // 3)  # bounded (some 0.2 MiB; a third: see core.bounded)
def _suit_splits(pattern: tuple[int, ...], base: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Every way to split one suit's counts into sets, plus one pair when it holds 3n+2 tiles,
    and whether it holds the pair (0 or 1).

    Each split is a sorted tuple of encoded sets with tiles offset by ``base`` (honours from 27
    take no chows); an empty suit has one empty split, a suit of 3n+1 tiles none.
    """
    results: set[tuple[int, ...]] = set()
    remainder = sum(pattern) % 3
    if remainder != 1:  # 3n tiles take no pair, 3n+2 exactly one
        _walk(list(pattern), 0, remainder == 0, base, [], results)
    return tuple(sorted(results)), remainder // 2


def _walk(
    counts: list[int],
    i: int,
    pair_used: bool,
    base: int,
    chosen: list[int],
    results: set[tuple[int, ...]],
) -> None:
    """Take every set (and the pair, unless ``pair_used``) the lowest tile from rank ``i`` can
    start; at the end of the suit, add the sets ``chosen`` to ``results``."""
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        results.add(tuple(sorted(chosen)))
        return
    t = base + i
    if counts[i] >= 3:
        counts[i] -= 3
        chosen.append(PUNG << 6 | t)
        _walk(counts, i, pair_used, base, chosen, results)
        chosen.pop()
        counts[i] += 3
    if not pair_used and counts[i] >= 2:
        counts[i] -= 2
        chosen.append(PAIR << 6 | t)
        _walk(counts, i, True, base, chosen, results)
        chosen.pop()
        counts[i] += 2
    if base < 27 and i + 2 < n and counts[i + 1] and counts[i + 2]:  # honours take no chows
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        chosen.append(CHOW << 6 | t)
        _walk(counts, i, pair_used, base, chosen, results)
        chosen.pop()
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1


def suit_splits(pattern: tuple[int, ...], base: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Every way to split one suit's counts into sets (and the pair, when it holds 3n+2 tiles),
    each a sorted tuple of encoded sets from tile ``base`` (27 for the honours, which take no
    chows), and whether it holds the pair (0 or 1): the memoised table :func:`decompose` reads."""
    return _suit_splits(pattern, base)


def decompose(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """All ways to split standing tiles (3n+2 of them) into n sets and one pair.

    Each result is a sorted tuple of encoded sets (exactly one :data:`PAIR`). Sets are pungs and
    chows only: declared melds are not part of ``counts``.
    """
    # One memoised table per suit (万 饼 条 and the honours): the hand is their product.
    characters, c_pair = _suit_splits(tuple(counts[0:9]), 0)
    dots, d_pair = _suit_splits(tuple(counts[9:18]), 9)
    bamboo, b_pair = _suit_splits(tuple(counts[18:27]), 18)
    honours, h_pair = _suit_splits(tuple(counts[27:34]), 27)
    if c_pair + d_pair + b_pair + h_pair != 1:
        return []
    if len(characters) == len(dots) == len(bamboo) == len(honours) == 1:  # the usual case
        return [tuple(sorted(characters[0] + dots[0] + bamboo[0] + honours[0]))]
    return [
        tuple(sorted(c + d + b + h)) for c, d, b, h in product(characters, dots, bamboo, honours)
    ]
