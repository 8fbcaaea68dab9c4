"""The circumstances of a win (和牌) that the tiles alone do not show."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from guobiao.core.tiles import TILES, Tile

__all__ = ["WinContext", "Wind"]


class Wind(IntEnum):
    """Seat and prevalent winds (门风, 圈风): East, South, West, North."""

    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    def __str__(self) -> str:
        """The wind's letter, ``E`` ``S`` ``W`` ``N``, as :meth:`parse` reads it."""
        return "ESWN"[self]

    def __format__(self, spec: str) -> str:
        # f"{wind}" is its letter, as str(); a numeric spec formats its number
        return str(self) if not spec else int.__format__(self, spec)

    @property
    def tile(self) -> Tile:
        return TILES[27 + self]

    @property
    def letter(self) -> str:
        return "ESWN"[self]

    @property
    def zh(self) -> str:
        return "东南西北"[self]

    @classmethod
    def parse(cls, text: str) -> Wind:
        """Read a wind: ``E`` / ``EAST`` / ``东`` / ``F1`` (any case); ValueError otherwise."""
        if not isinstance(text, str):
            raise TypeError(f"Wind.parse takes a wind's name (a str), not {type(text).__name__}")
        key = text.strip().upper()
        for wind in cls:
            if key in (wind.letter, wind.name, wind.zh, f"F{wind + 1}"):
                return wind
        raise ValueError(f"not a wind: {text!r} (use E, S, W or N)")


@dataclass(frozen=True, slots=True)
class WinContext:
    """How the winning tile came (第八条, 第九条).

    ``kong`` means 杠上开花 when ``self_drawn`` and 抢杠和 otherwise; ``last_tile`` means 妙手回春 when
    ``self_drawn`` and 海底捞月 otherwise; ``fourth_tile`` is 和绝张.
    """

    win_tile: Tile
    self_drawn: bool = False
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False
    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    flowers: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.win_tile, Tile):
            object.__setattr__(self, "win_tile", TILES[int(self.win_tile)])
        if self.win_tile.is_flower:
            raise ValueError("a flower cannot be the winning tile")
        if not 0 <= self.flowers <= 8:
            raise ValueError(f"flower count must be 0-8, not {self.flowers}")
