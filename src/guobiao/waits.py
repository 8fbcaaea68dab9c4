"""Waits of the regular shape, and the unique wait (独听) that 边张 坎张 单钓将 need.

Per-suit facts are memoised by suit pattern, so a whole hand is judged by four table look-ups.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

__all__ = ["is_unique_wait", "regular_waits"]


@lru_cache(maxsize=1 << 16)
def _suit_complete(pattern: tuple[int, ...], chows: bool) -> tuple[bool, bool]:
    """(splits into sets only, splits into sets + one pair) for one suit's counts."""
    counts = list(pattern)
    n = len(counts)

    def walk(i: int, need_pair: bool) -> bool:
        while i < n and counts[i] == 0:
            i += 1
        if i == n:
            return not need_pair
        ok = False
        if counts[i] >= 3:
            counts[i] -= 3
            ok = walk(i, need_pair)
            counts[i] += 3
        if not ok and need_pair and counts[i] >= 2:
            counts[i] -= 2
            ok = walk(i, False)
            counts[i] += 2
        if not ok and chows and i + 2 < n and counts[i + 1] and counts[i + 2]:
            counts[i] -= 1
            counts[i + 1] -= 1
            counts[i + 2] -= 1
            ok = walk(i, need_pair)
            counts[i] += 1
            counts[i + 1] += 1
            counts[i + 2] += 1
        return ok

    total = sum(pattern)
    return (total % 3 == 0 and walk(0, False), total % 3 == 2 and walk(0, True))


@lru_cache(maxsize=1 << 16)
def _suit_completers(
    pattern: tuple[int, ...], chows: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks (0-based) whose addition makes the suit split into sets only / into sets and a pair."""
    sets_only: list[int] = []
    with_pair: list[int] = []
    work = list(pattern)
    for r in range(len(pattern)):
        if not chows and not pattern[r]:
            continue  # an honour tile not held cannot join any set
        work[r] += 1
        done, paired = _suit_complete(tuple(work), chows)
        work[r] -= 1
        if done:
            sets_only.append(r)
        if paired:
            with_pair.append(r)
    return tuple(sets_only), tuple(with_pair)


_SPANS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


@lru_cache(maxsize=1 << 16)
def _regular_waits(counts: tuple[int, ...]) -> tuple[int, ...]:
    statuses = []
    for start, stop, chows in _SPANS:
        pattern = counts[start:stop]
        mod = sum(pattern) % 3
        done, paired = _suit_complete(pattern, chows)
        statuses.append((pattern, chows, mod, (mod == 0 and done) or (mod == 2 and paired)))
    waits: list[int] = []
    for index, (start, _, _) in enumerate(_SPANS):
        others = [st for i, st in enumerate(statuses) if i != index]
        if not all(st[3] for st in others):
            continue
        others_pairs = sum(1 for st in others if st[2] == 2)
        pattern, chows, mod, _ = statuses[index]
        sets_only, with_pair = _suit_completers(pattern, chows)
        if mod == 2 and others_pairs == 1:
            waits.extend(start + r for r in sets_only)
        elif mod == 1 and others_pairs == 0:
            waits.extend(start + r for r in with_pair)
    return tuple(waits)


def regular_waits(counts: Sequence[int]) -> list[int]:
    """Tiles that complete 3n+1 standing tiles into sets and a pair (a 5th copy included)."""
    return list(_regular_waits(tuple(counts)))


def is_unique_wait(standing: list[int], win: int) -> bool:
    """独听: exactly one tile kind completes the hand before the winning tile (regular or 七对)."""
    standing[win] -= 1
    key = tuple(standing)
    standing[win] += 1
    return _unique_wait(key)


@lru_cache(maxsize=1 << 16)
def _unique_wait(counts: tuple[int, ...]) -> bool:
    waits = set(_regular_waits(counts))
    if sum(counts) == 13 and sum(c // 2 for c in counts) == 6:
        waits.add(next(t for t in range(34) if counts[t] % 2))  # 七对 waits on its single
    return len(waits) == 1
