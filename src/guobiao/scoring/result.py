"""What the fan calculator returns: counted fans, the total, and why other fans were left out."""

from __future__ import annotations

from dataclasses import dataclass

from guobiao.scoring.fans import Fan

__all__ = ["MINIMUM_POINTS", "CountedFan", "ExcludedFan", "FanResult", "InvalidHandError"]

MINIMUM_POINTS = 8
"""起和分 (第五条): the fan points a win needs, flowers excluded."""


class InvalidHandError(ValueError):
    """Input that cannot be a real hand (wrong tile count, five of a tile, contradictory flags)."""


@dataclass(frozen=True, slots=True)
class CountedFan:
    """A fan counted ``count`` times; ``basis`` names the sets or tiles each count rests on."""

    fan: Fan
    count: int = 1
    basis: tuple[str, ...] = ()

    @property
    def points(self) -> int:
        """Points per occurrence."""
        return self.fan.points

    @property
    def total(self) -> int:
        """The fan's points times its count."""
        return self.fan.points * self.count

    def __str__(self) -> str:
        """``清龙 Pure Straight 16``; a fan counted more than once ``花牌 Flower Tiles 1x2``."""
        points = f"{self.points}x{self.count}" if self.count > 1 else str(self.total)
        return f"{self.fan.zh} {self.fan.en} {points}"


@dataclass(frozen=True, slots=True)
class ExcludedFan:
    """A fan the hand displays that is not counted, and the fan or principle that excluded it."""

    fan: Fan
    reason: str


@dataclass(frozen=True, slots=True)
class FanResult:
    """The score of one winning hand under one rules profile.

    ``fans`` lists the counted fans in table order (highest first), flowers last. ``total`` includes
    flowers; ``meets_minimum`` compares the total without flowers to :data:`MINIMUM_POINTS`.
    ``is_winning`` is False when the tiles form no winning shape (then ``fans`` is empty).

    When calculated with ``explain=True``: each fan's ``basis``, ``excluded`` (fans displayed but
    not counted, with the reason), ``decomposition`` (the reading of the hand that scored) and
    ``alternatives`` (other readings and their points, not taken: 就高不就低).
    """

    fans: tuple[CountedFan, ...]
    is_winning: bool = True
    excluded: tuple[ExcludedFan, ...] = ()
    decomposition: str = ""
    alternatives: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        """Every counted fan's points, flowers included."""
        return sum(f.total for f in self.fans)

    @property
    def flower_points(self) -> int:
        """The points of the flowers (花牌, 1 each)."""
        return sum(f.total for f in self.fans if f.fan is Fan.FLOWER_TILES)

    @property
    def points_without_flowers(self) -> int:
        """The total less the flowers: what the 8-point minimum (起和分) is measured on."""
        return self.total - self.flower_points

    @property
    def meets_minimum(self) -> bool:
        """A winning hand of at least :data:`MINIMUM_POINTS` without flowers: a valid win."""
        return self.is_winning and self.points_without_flowers >= MINIMUM_POINTS

    def count_of(self, fan: Fan) -> int:
        """How many times ``fan`` is counted (0 if not)."""
        return sum(f.count for f in self.fans if f.fan is fan)

    def __str__(self) -> str:
        """One line: ``24 points: 清龙 Pure Straight 16, 门前清 Concealed Hand 2, ...``, with
        ``(below the 8-point minimum)`` when it does not reach 起和分; or ``no winning shape``."""
        if not self.is_winning:
            return "no winning shape"
        short = "" if self.meets_minimum else f" (below the {MINIMUM_POINTS}-point minimum)"
        fans = ", ".join(map(str, self.fans))
        return f"{self.total} points{short}: {fans}"


# The calculator makes one FanResult a call. A frozen dataclass's __init__ sets each field through
# object.__setattr__, a slow call per field. winning_result fills an object of the same layout
# whose slots are written plainly, then makes it the FanResult it is laid out as (``__class__``,
# which Python allows between classes of the same slots): a third of the time. A field added to
# FanResult changes its slots, and the relabelling then fails (TypeError) until it is added here.
class _Filling:
    """A :class:`FanResult` being filled in: its slots, without the frozen ``__setattr__``."""

    __slots__ = ("alternatives", "decomposition", "excluded", "fans", "is_winning")
    fans: tuple[CountedFan, ...]
    is_winning: bool
    excluded: tuple[ExcludedFan, ...]
    decomposition: str
    alternatives: tuple[tuple[str, int], ...]


def winning_result(fans: tuple[CountedFan, ...]) -> FanResult:
    """``FanResult(fans)``: a winning hand's result without explanation, made faster."""
    result = _Filling()
    result.fans = fans
    result.is_winning = True
    result.excluded = ()
    result.decomposition = ""
    result.alternatives = ()
    result.__class__ = FanResult  # type: ignore[assignment]
    return result  # type: ignore[return-value]
