"""Melds (面子): chows, pungs and kongs, exposed or concealed."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from guobiao.core.tiles import TILES, Tile, tile_of_index

__all__ = ["Meld", "MeldKind", "melds_text"]


class MeldKind(Enum):
    """The four kinds of declared set; the value is the name JSON lines use (``"chow"``)."""

    CHOW = "chow"  # 吃
    PUNG = "pung"  # 碰
    KONG = "kong"  # 明杠 (melded kong, incl. added kong)
    CONCEALED_KONG = "concealed_kong"  # 暗杠

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
    chow (which of its three tiles came from the discard), ``None`` when unknown.
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
        if self.claimed is not None and self.claimed not in self.tiles:
            raise ValueError(f"claimed tile {self.claimed} is not in the meld")

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
        """The set in the hand grammar: ``[W1W2W3]`` exposed, ``(B5B5B5B5)`` a concealed kong
        (without the offering seat, which ``format_hand`` writes as ``[F1F1F1:2]``)."""
        body = "".join(str(t) for t in self.tiles)
        return f"({body})" if self.is_concealed else f"[{body}]"


def melds_text(n: int) -> str:
    """``no meld``, ``1 meld``, ``2 melds``: a count of declared melds in a message."""
    return "no meld" if n == 0 else f"{n} meld" + ("" if n == 1 else "s")
