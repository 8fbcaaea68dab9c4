"""Melds (面子): chows, pungs and kongs, exposed or concealed, and their text.

A meld is written as in a hand's text (``guobiao.core.hand``): ``[W1W2W3]`` an exposed chow,
``[F1F1F1:2]`` a pung offered by the opposite seat (1 next, 2 opposite, 3 previous),
``[W3W4*W5:3]`` a chow whose claimed tile is W4 (``*`` follows it), ``(B5B5B5B5)`` a concealed
kong. :meth:`Meld.parse` reads what ``str(meld)`` writes, in any tile notation (``[345m:3]``,
``[三万四万五万]``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from guobiao.core.tiles import (
    MARK,
    TILES,
    Tile,
    TileParseError,
    format_tiles,
    read_tiles,
    tile_of_index,
)

__all__ = ["Meld", "MeldKind", "format_meld", "melds_text", "read_meld"]


class MeldKind(Enum):
    """The four kinds of declared set; the value is the name JSON lines use (``"chow"``)."""

    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠 (melded kong, incl. added kong)
    CONCEALED_KONG = "concealed_kong"  # 暗杠

    def __repr__(self) -> str:
        """``MeldKind.CHOW``: the expression that names the kind."""
        return f"MeldKind.{self.name}"

    @property
    def size(self) -> int:
        """Tiles in the set: 3 for a chow or pung, 4 for a kong."""
        return 3 if self in (MeldKind.CHOW, MeldKind.PUNG) else 4

    @property
    def is_kong(self) -> bool:
        """A melded or concealed kong."""
        return self in (MeldKind.KONG, MeldKind.CONCEALED_KONG)


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``tile`` is the lowest tile of a chow, the repeated tile otherwise.

    ``offered_by`` is the seat that gave the claimed tile, relative to the owner (1 next, 2 opposite,
    3 previous); ``None`` for a concealed kong or when unknown. ``claimed`` is the claimed tile of a
    chow (which of its three tiles came from the discard; ``*`` follows it in the text,
    ``[W3W4*W5:3]``), ``None`` when unknown.

    ``str(meld)`` is the meld's text in a hand (``[F1F1F1:2]``), which :meth:`parse` reads back.
    """

    kind: MeldKind
    tile: Tile
    offered_by: int | None = None
    claimed: Tile | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tile, Tile):
            object.__setattr__(self, "tile", tile_of_index(self.tile, "Meld's tile"))
        if self.tile.is_flower:
            raise ValueError(f"a meld cannot be made of flowers: {self.tile}")
        if self.kind is MeldKind.CHOW and (not self.tile.is_suited or self.tile.rank > 7):
            raise ValueError(f"no chow starts at {self.tile}")
        if self.offered_by is not None and self.offered_by not in (1, 2, 3):
            raise ValueError(f"offered_by must be 1, 2 or 3, not {self.offered_by}")
        if self.kind is MeldKind.CONCEALED_KONG and self.offered_by is not None:
            raise ValueError("a concealed kong is offered by nobody")
        if self.claimed is not None:
            if not isinstance(self.claimed, Tile):
                object.__setattr__(self, "claimed", tile_of_index(self.claimed, "Meld's claimed"))
            if self.claimed not in self.tiles:
                raise ValueError(f"claimed tile {self.claimed} is not in the meld")
            if self.kind is MeldKind.CONCEALED_KONG:
                raise ValueError("a concealed kong claims no tile")

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The set's tiles, lowest first: ``(W1, W2, W3)``, ``(F1, F1, F1, F1)``."""
        t = int(self.tile)
        if self.kind is MeldKind.CHOW:
            return (TILES[t], TILES[t + 1], TILES[t + 2])
        return (TILES[t],) * self.kind.size

    @property
    def is_concealed(self) -> bool:
        """A concealed kong (暗杠): the only declared set that stays concealed."""
        return self.kind is MeldKind.CONCEALED_KONG

    def __str__(self) -> str:
        """The set as a hand's text writes it (``format_hand``): ``[W1W2W3]``, ``[F1F1F1:2]``
        (offered by the opposite seat), ``[W3W4*W5:3]`` (claimed W4), ``(B5B5B5B5)``;
        :meth:`parse` reads it back."""
        return format_meld(self)

    def __repr__(self) -> str:
        """``Meld.parse('[F1F1F1:2]')``: the expression that makes the meld again."""
        return f"Meld.parse({format_meld(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read one meld as ``str(meld)`` writes it, in any tile notation: ``[F1F1F1:2]``,
        ``[345m:3]``, ``(五饼五饼五饼五饼)``. TileParseError (a ValueError) names the place of a fault."""
        if not isinstance(text, str):
            raise TypeError(f"Meld.parse takes a meld's text (a str), not {type(text).__name__}")
        start = len(text) - len(text.lstrip())
        if start == len(text) or text[start] not in "[(":
            raise TileParseError("a meld opens with '[' (exposed) or '(' (concealed kong)", text)
        meld, end = read_meld(text, start)
        if text[end:].strip():
            raise TileParseError("only one meld may be given", text[end:].strip(), end)
        return meld


def format_meld(meld: Meld, compact: bool = False, *, style: str = "botzone") -> str:
    """Write a meld as a hand's text does: its tiles in ``style`` (``format_tiles``), ``*`` after
    the claimed tile, ``:seat`` for the offering seat, in ``[...]`` or ``(...)``."""
    tiles = meld.tiles
    claimed = meld.claimed
    if claimed is None:
        body = format_tiles(tiles, compact, style=style)
    else:  # the mark after the claimed tile: in a compact run, after its digit
        at = tiles.index(claimed) + 1
        head = format_tiles(tiles[:at], compact, style=style)
        tail = format_tiles(tiles[at:], compact, style=style)
        if compact or style == "compact":  # the suit letter once, after the last digit: 34*5m
            head, tail = head[:-1], tail or head[-1]
        body = head + MARK + tail
    if meld.kind is MeldKind.CONCEALED_KONG:
        return f"({body})"
    if meld.offered_by is not None:
        return f"[{body}:{meld.offered_by}]"
    return f"[{body}]"


def read_meld(text: str, pos: int) -> tuple[Meld, int]:
    """Read the meld that opens at ``text[pos]`` (``[`` or ``(``); return it and the position
    after its closing bracket. TileParseError names the place of a fault."""
    n = len(text)
    opening = text[pos]
    close = "]" if opening == "[" else ")"
    marks: list[int] = []
    tiles, end = read_tiles(text, pos + 1, "]):", marks)
    seat: int | None = None
    if end < n and text[end] == ":" and opening == "[":
        digit_at = end + 1
        while digit_at < n and text[digit_at].isspace():
            digit_at += 1
        if digit_at >= n or text[digit_at] not in "123":
            raise TileParseError(
                "':' must be followed by the offering seat 1, 2 or 3",
                text[end : digit_at + 1],
                end,
            )
        seat = int(text[digit_at])
        end = digit_at + 1
        while end < n and text[end].isspace():
            end += 1
    if end >= n or text[end] != close:
        raise TileParseError(f"'{opening}' is not closed by '{close}'", text[pos:end], pos)
    if len(marks) > 1:
        raise TileParseError(
            f"a meld claims one tile: '{MARK}' follows it once", text[pos : end + 1], pos
        )
    claimed = tiles[marks[0]][0] if marks else None
    return _meld_from(tiles, pos, opening == "(", seat, claimed), end + 1


def _meld_from(
    tiles: list[tuple[Tile, int]],
    start: int,
    concealed: bool,
    seat: int | None,
    claimed: Tile | None,
) -> Meld:
    kinds = sorted(t for t, _ in tiles)
    where = "".join(str(t) for t in kinds)
    if not kinds:
        raise TileParseError("an empty meld: a meld holds a chow, pung or kong", "", start)
    if any(t.is_flower for t in kinds):
        raise TileParseError("a meld cannot contain flowers", where, start)
    if concealed:
        if len(kinds) != 4 or len(set(kinds)) != 1:
            raise TileParseError("a concealed kong (...) needs four equal tiles", where, start)
        if claimed is not None:
            raise TileParseError("a concealed kong claims no tile", where, start)
        return Meld(MeldKind.CONCEALED_KONG, kinds[0])
    if len(kinds) == 4 and len(set(kinds)) == 1:
        return Meld(MeldKind.KONG, kinds[0], seat, claimed)
    if len(kinds) == 3 and len(set(kinds)) == 1:
        return Meld(MeldKind.PUNG, kinds[0], seat, claimed)
    first = kinds[0]
    if (
        len(kinds) == 3
        and first.is_suited
        and first.rank <= 7
        and kinds[1] == first + 1
        and kinds[2] == first + 2
    ):
        return Meld(MeldKind.CHOW, first, seat, claimed)
    raise TileParseError("not a chow, pung or kong", where, start)


def melds_text(n: int) -> str:
    """``no meld``, ``1 meld``, ``2 melds``: a count of declared melds in a message."""
    return "no meld" if n == 0 else f"{n} meld" + ("" if n == 1 else "s")
