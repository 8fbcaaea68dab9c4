"""The circumstances of a win (和牌) that the tiles alone do not show."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from guobiao.core.tiles import TILES, Tile, tile_of_index

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

    def __repr__(self) -> str:
        """``Wind.SOUTH``: the expression that names the wind."""
        return f"Wind.{self.name}"

    def __format__(self, spec: str) -> str:
        # f"{wind}" is its letter, as str(); a numeric spec formats its number
        return str(self) if not spec else int.__format__(self, spec)

    @property
    def tile(self) -> Tile:
        """The wind's tile: ``F1`` 东 .. ``F4`` 北."""
        return TILES[27 + self]

    @property
    def letter(self) -> str:
        """``E``, ``S``, ``W`` or ``N``."""
        return "ESWN"[self]

    @property
    def zh(self) -> str:
        """``东``, ``南``, ``西`` or ``北``."""
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

    def __repr__(self) -> str:
        """``WinContext(Tile.parse('W5'), self_drawn=True, seat_wind=Wind.SOUTH)``: the expression
        that makes the context again, naming what differs from the defaults."""
        given = [
            f"{name}={value!r}"
            for name, value, default in (
                ("self_drawn", self.self_drawn, False),
                ("fourth_tile", self.fourth_tile, False),
                ("kong", self.kong, False),
                ("last_tile", self.last_tile, False),
                ("seat_wind", self.seat_wind, Wind.EAST),
                ("round_wind", self.round_wind, Wind.EAST),
                ("flowers", self.flowers, 0),
            )
            if value != default
        ]
        return f"WinContext({', '.join([repr(self.win_tile), *given])})"

    def __post_init__(self) -> None:
        if not isinstance(self.win_tile, Tile):
            object.__setattr__(
                self, "win_tile", tile_of_index(self.win_tile, "WinContext's win_tile")
            )
        if self.seat_wind not in _WINDS or self.round_wind not in _WINDS:
            _refuse_winds(self.seat_wind, self.round_wind)
        if self.win_tile.is_flower:
            raise ValueError("a flower cannot be the winning tile")
        if not 0 <= self.flowers <= 8:
            raise ValueError(f"flower count must be 0-8, not {self.flowers}")
        flags = (self.self_drawn, self.fourth_tile, self.kong, self.last_tile)
        if (
            not flags[0].__class__
            is flags[1].__class__
            is flags[2].__class__
            is flags[3].__class__
            is bool
        ):
            _refuse_flags(flags)


_WINDS: frozenset[int] = frozenset(Wind)
"""The winds a context takes: a :class:`Wind` (or its number 0-3, which compares equal)."""


def _refuse_flags(flags: tuple[object, ...]) -> None:
    """A win's flag that is no bool (``kong=2``, ``last_tile=None``) would be read as some other
    flag or as none: say which."""
    names = ("self_drawn", "fourth_tile", "kong", "last_tile")
    name, value = next((n, v) for n, v in zip(names, flags, strict=True) if v.__class__ is not bool)
    raise TypeError(f"WinContext's {name} takes True or False, not {value!r}")


def _refuse_winds(seat: object, prevalent: object) -> None:
    """A seat or prevalent wind that is no :class:`Wind` would score as no wind at all: say so."""
    name, value = ("seat_wind", seat) if seat not in _WINDS else ("round_wind", prevalent)
    hint = f"Wind.parse({value!r})" if isinstance(value, str) else "Wind.EAST .. Wind.NORTH"
    raise TypeError(f"WinContext's {name} takes a Wind, such as {hint}, not {value!r}")
