"""Tile classes as tuples indexed by tile (0-33), for the hot paths (fans, waits, shanten)."""

from __future__ import annotations

from typing import Final

__all__ = [
    "EAST",
    "GREEN",
    "IS_DRAGON",
    "IS_HONOR",
    "IS_TERMINAL",
    "IS_TERMINAL_OR_HONOR",
    "IS_WIND",
    "RANK",
    "REVERSIBLE",
    "SUIT",
]

IS_HONOR: Final = tuple(t >= 27 for t in range(34))
IS_TERMINAL: Final = tuple(t < 27 and t % 9 in (0, 8) for t in range(34))
IS_TERMINAL_OR_HONOR: Final = tuple(IS_TERMINAL[t] or IS_HONOR[t] for t in range(34))
IS_WIND: Final = tuple(27 <= t <= 30 for t in range(34))
IS_DRAGON: Final = tuple(t >= 31 for t in range(34))
GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})  # 23468条 发 (绿一色)
REVERSIBLE: Final = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33})  # 推不倒
RANK: Final = tuple(t % 9 + 1 if t < 27 else 0 for t in range(34))
"""1-9 for suited tiles, 0 for honours."""
SUIT: Final = tuple(t // 9 if t < 27 else 3 + (t >= 31) for t in range(34))
"""0 万, 1 饼, 2 条, 3 winds, 4 dragons."""
EAST: Final = 27
