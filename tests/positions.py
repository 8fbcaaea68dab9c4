"""What the shanten module answers for a list of positions, to compare two configurations of its
tables (tests/test_shanten_table.py, tests/test_memory_bounds.py)."""

from __future__ import annotations

from typing import Any

from guobiao.core.shanten import discard_options, shanten, useful_tiles, waits


def shanten_answers(hands: list[tuple[list[int], int]]) -> list[tuple[Any, ...]]:
    """For each (14-form counts, melds): the shanten, the discard options, and the useful tiles
    and waits of the 13-form left by taking one tile of the most held kind."""
    out: list[tuple[Any, ...]] = []
    for counts, melds in hands:
        thirteen = list(counts)
        thirteen[max(range(34), key=counts.__getitem__)] -= 1
        out.append(
            (
                shanten(counts, melds),
                discard_options(counts, melds),
                useful_tiles(thirteen, melds),
                waits(thirteen, melds),
            )
        )
    return out
