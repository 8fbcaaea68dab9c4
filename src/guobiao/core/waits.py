"""Waits of the regular shape, and the unique wait (独听) that 边张 坎张 单钓将 need.

A suit is judged by table look-ups: every one-suit pattern that splits into sets (with or without
one pair) is listed once, on first use, by enumerating multisets of at most four sets; a pattern
is then keyed as an int with four bits per rank. The tiles that complete a suit pattern are
memoised per pattern, so a whole hand is judged suit by suit, never as one 34-count key.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from operator import mul
from typing import Final

__all__ = ["is_sole_wait", "is_unique_wait", "is_unique_wait_of_winning", "regular_waits"]

_SPANS: Final = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
_POW16: Final = tuple(1 << 4 * r for r in range(9))
"""Place values of a suit pattern key: four bits a rank never carry (at most 4 sets + a pair)."""


def _key(pattern: Sequence[int]) -> int:
    return sum(map(mul, pattern, _POW16))


@cache
def _complete_keys(chows: bool) -> tuple[frozenset[int], frozenset[int]]:
    """Keys of the one-suit patterns that split into sets only / into sets and one pair.

    A suit of a hand holds at most 14 tiles (four sets and the pair), so multisets of at most four
    sets cover every pattern; a rank may exceed four (the 5th copy a wait may name).
    """
    ranks = 9 if chows else 7
    shapes = [3 * _POW16[r] for r in range(ranks)]  # pungs
    if chows:
        shapes += [_POW16[r] + _POW16[r + 1] + _POW16[r + 2] for r in range(ranks - 2)]
    sets_only: set[int] = set()
    with_pair: set[int] = set()
    for n in range(5):
        for combo in combinations_with_replacement(shapes, n):
            key = sum(combo)
            sets_only.add(key)
            with_pair.update(key + 2 * _POW16[r] for r in range(ranks))
    return frozenset(sets_only), frozenset(with_pair)


def _completers(pattern: tuple[int, ...], complete: frozenset[int]) -> list[int]:
    """The ranks (0-based) whose addition makes one suit's counts a ``complete`` pattern."""
    key = _key(pattern)
    return [r for r in range(len(pattern)) if key + _POW16[r] in complete]


def regular_waits(counts: Sequence[int]) -> list[int]:
    """Tiles that complete 3n+1 standing tiles into sets and a pair (a 5th copy included)."""
    sets_only, with_pair = _complete_keys(True)
    honours_only, honours_pair = _complete_keys(False)
    statuses = []
    for start, stop, chows in _SPANS:
        pattern = tuple(counts[start:stop])
        key = _key(pattern)
        mod = sum(pattern) % 3
        done = key in (sets_only if chows else honours_only)
        paired = key in (with_pair if chows else honours_pair)
        statuses.append((pattern, mod, (mod == 0 and done) or (mod == 2 and paired)))
    waits: list[int] = []
    for index, (start, _, _) in enumerate(_SPANS):
        others = [st for i, st in enumerate(statuses) if i != index]
        if not all(st[2] for st in others):
            continue
        others_pairs = sum(1 for st in others if st[1] == 2)
        pattern, mod, _ = statuses[index]
        chows = start < 27
        if mod == 2 and others_pairs == 1:
            complete = sets_only if chows else honours_only
            waits.extend(start + r for r in _completers(pattern, complete))
        elif mod == 1 and others_pairs == 0:
            complete = with_pair if chows else honours_pair
            waits.extend(start + r for r in _completers(pattern, complete))
    return waits


def is_unique_wait(standing: list[int], win: int) -> bool:
    """独听: exactly one tile kind completes the hand before the winning tile (regular or 七对)."""
    counts = list(standing)
    counts[win] -= 1
    waits = set(regular_waits(counts))
    if sum(counts) == 13 and sum(c // 2 for c in counts) == 6:
        waits.add(next(t for t in range(34) if counts[t] % 2))  # 七对 waits on its single
    return len(waits) == 1


@lru_cache(maxsize=(1 << 11) // 3)  # bounded (some 0.2 MiB; a third: see core.bounded)
def _only_wait(pattern: tuple[int, ...]) -> int:
    """The one rank (0-based) that completes one suit's counts, which hold 3n+1 tiles (to take
    the pair) or 3n+2 (to take a set); -1 when there are more or none, or when 3n+2 tiles already
    split into sets and a pair (the hand then also waits in the suit holding its pair)."""
    sets_only, with_pair = _complete_keys(len(pattern) == 9)
    key = _key(pattern)
    remainder = sum(pattern) % 3
    if remainder == 2 and key in with_pair:
        return -1
    ranks = _completers(pattern, with_pair if remainder == 1 else sets_only)
    return ranks[0] if len(ranks) == 1 else -1


def is_sole_wait(pattern: tuple[int, ...], rank: int) -> bool:
    """Whether one suit's counts, less one tile of ``rank`` (0-based), have that rank as their
    only wait: the winning suit's part of :func:`is_unique_wait_of_winning`."""
    less = list(pattern)
    less[rank] -= 1
    return _only_wait(tuple(less)) == rank


# The suit of each tile as (first tile, one past the last tile), honours as one suit.
_SUIT_SPAN: Final = tuple((t - t % 9, t - t % 9 + 9) if t < 27 else (27, 34) for t in range(34))


def is_unique_wait_of_winning(standing: list[int], win: int) -> bool:
    """:func:`is_unique_wait` for standing tiles that split into sets and a pair with ``win``.

    Every suit of such a hand splits by itself, so only the winning tile's suit decides:

    - a tile of another suit completes the hand only if the winning suit, less the winning tile,
      splits into sets and a pair; then the suit holding the hand's pair also waits on that
      pair's tile (making it a pung), so the wait is not unique;
    - a tile of the winning suit completes it if the suit, less the winning tile, plus that tile
      splits as the whole suit did (into sets and a pair exactly when it holds the hand's pair);
    - 七对 adds the odd tile when the 13 tiles hold six pairs: unless that tile is the winning
      tile, the hand (all of it standing) has exactly two odd counts, the winning tile's one.
    """
    start, stop = _SUIT_SPAN[win]
    if not is_sole_wait(tuple(standing[start:stop]), win - start):
        return False
    # 七对 would also wait on the other odd tile (a hand without melds holds 14 tiles).
    return not (
        standing[win] % 2 and sum(standing) == 14 and standing.count(1) + standing.count(3) == 2
    )
