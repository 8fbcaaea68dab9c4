"""The table rules a competition may vary, in one object (第六条 to 第十条, 第十三、十四条).

Everything the engine, the settlement and the session read about "how this table plays" lives in
:class:`TableRules`: the fan profile, flowers on or off, how the wall is built and drawn, the
session length and the penalty amounts. :data:`COMPETITION` is the 1998 rules as written.
"""

from __future__ import annotations

from dataclasses import dataclass

from .calculator import PROFILES

__all__ = ["COMPETITION", "WALL_BUILDS", "TableRules"]

WALL_BUILDS = ("dice",)
"""How the wall is built and drawn: ``dice`` is 第六条五 (four walls of stacks, two dice throws
choosing the break, the deal in blocks of four with the dealer's jump)."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """How one table plays. Every field has the 1998 competition value as its default."""

    fan_profile: str = "1998"  # "1998" or "mil" (docs/rules.md)
    flowers: bool = True  # 第三条: 144 tiles with the 8 flowers; False plays 136
    wall_build: str = "dice"
    minimum: int = 8  # 起和分 (第五条)
    base: int = 8  # 底分 (第十条一)
    false_win_penalty: int = 10  # 错和 / 和错牌, to each other player (第十四条六)
    fake_win_penalty: int = 20  # 诈和, to each other player (第十四条六)
    starting_points: int = 500  # 基础比赛分 (第五条)
    hands_per_session: int = 16  # 4 rounds x 4 hands (第五条); fewer ends a session early

    def __post_init__(self) -> None:
        if self.fan_profile not in PROFILES:
            raise ValueError(
                f"fan_profile must be one of {', '.join(PROFILES)}, not {self.fan_profile!r}"
            )
        if self.wall_build not in WALL_BUILDS:
            raise ValueError(
                f"wall_build must be one of {', '.join(WALL_BUILDS)}, not {self.wall_build!r}"
            )
        for name in ("minimum", "base", "false_win_penalty", "fake_win_penalty", "starting_points"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative")
        if not 1 <= self.hands_per_session <= 16:
            raise ValueError("hands_per_session must be 1-16")

    @property
    def tile_count(self) -> int:
        return 144 if self.flowers else 136


COMPETITION = TableRules()
