"""A player's hand and its text form.

Grammar (white space is ignored between tokens)::

    hand   := part* [ "+" tile ]
    part   := "[" mtiles [ ":" seat ] "]"     an exposed meld (chow, pung or kong), seat 1/2/3 = offered by
            | "(" tiles ")"                   a concealed kong (4 equal tiles)
            | tiles                           standing tiles; flowers (H1-H8 / 1f-8f) go to the flowers
    tiles  := ( botzone | compact | chinese | glyph )+
    mtiles := tiles, with "*" after the claimed tile (if known): [W3W4*W5:3], [34*5m:3]
    botzone:= [WBTFJH] digit                  W1 .. J3, H1 .. H8
    compact:= digit+ [mpszf]                  123m, 1234567z (东南西北中发白), 12f
    chinese:= Tile.chinese's names            一万 .. 九条, 东风 .. 北风, 红中 发财 白板, 春 .. 菊;
                                              also 东 南 西 北 中 发 白, 萬 筒 索, 發
    glyph  := Tile.glyph's characters         🀇 .. 🀡, 🀀 .. 🀆, 🀢 .. 🀩
    digit  := 0-9                             ASCII only: not '²', '①' or '١'

A meld is never empty; each of the 8 flowers is a single tile, so a flower named twice is refused.
The Chinese names never overlap when read longest first (东风 is F1, never 东 then 风: no name
starts with 风), so they need no separator, though white space may stand between any tiles.

The tile after ``+`` is the winning tile. Examples: ``[W1W2W3][F1F1F1]B4B5B6T7T8 +T9``, its compact
equivalent ``[123m][111z]456p78s +9s`` and ``[一万二万三万][东风东风东风]四饼五饼六饼七条八条 +九条``.
:func:`format_hand` writes each form (``compact=True``, ``style="chinese"``) and
``parse_hand(format_hand(h)) == h``; ``str(hand)`` is the Botzone form and ``repr(hand)``
``Hand.parse('...')``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from guobiao.core.melds import Meld, format_meld, read_meld
from guobiao.core.tiles import TILES, Tile, TileParseError, format_tiles, read_tiles, tile_of_index

__all__ = [
    "Hand",
    "duplicate_flower",
    "format_hand",
    "format_tiles",
    "parse_hand",
    "parse_tiles",
]


def _sorted(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles))


@dataclass(frozen=True, slots=True)
class Hand:
    """Standing (concealed) tiles, declared melds, the winning tile if any, and flowers.

    ``concealed`` never includes ``win_tile``; both are kept sorted so that equal hands compare equal.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: Tile | None = None
    flowers: tuple[Tile, ...] = field(default=())

    def __post_init__(self) -> None:
        try:  # TILES[t] takes an int (a Tile, numpy's): never a str such as "123", never 3.0
            object.__setattr__(self, "concealed", _sorted(TILES[t] for t in self.concealed))
            object.__setattr__(self, "flowers", _sorted(TILES[t] for t in self.flowers))
            if self.win_tile is not None and not isinstance(self.win_tile, Tile):
                object.__setattr__(
                    self, "win_tile", tile_of_index(self.win_tile, "Hand's win_tile")
                )
        except (TypeError, ValueError, IndexError):
            _refuse_tiles(self)
            raise
        if any(t.is_flower for t in self.concealed):
            raise ValueError("flowers are not standing tiles")
        if any(not t.is_flower for t in self.flowers):
            raise ValueError("only flowers go among the flowers")

    @property
    def standing(self) -> tuple[Tile, ...]:
        """The concealed tiles with the winning tile, if any."""
        if self.win_tile is None:
            return self.concealed
        return _sorted((*self.concealed, self.win_tile))

    def counts(self) -> list[int]:
        """Counts (length 34) of every playing tile in the hand: standing, winning and melded."""
        counts = [0] * 34
        for t in self.standing:
            counts[t] += 1
        for meld in self.melds:
            for t in meld.tiles:
                counts[t] += 1
        return counts

    def __str__(self) -> str:
        """The hand in its grammar (:func:`format_hand`), which :func:`parse_hand` reads back."""
        return format_hand(self)

    def __repr__(self) -> str:
        """``Hand.parse('[W1W2W3]W4W5W6B1B1B1T7T8T9F1 +F1')``: the expression that makes the
        hand again."""
        return f"Hand.parse({format_hand(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Hand:
        """:func:`parse_hand`: ``Hand.parse(str(hand)) == hand``."""
        return parse_hand(text)


def _refuse_tiles(hand: Hand) -> None:
    """Say which of a :class:`Hand`'s fields holds something that is no tile (a tile's name, a
    hand's text), and how to write it instead; return if none does."""
    for name in ("concealed", "flowers"):
        tiles = getattr(hand, name)
        if isinstance(tiles, str):
            raise TypeError(
                f"Hand's {name} takes a tuple of Tiles, not the text {tiles!r}: "
                f"parse_hand({tiles!r}) reads a hand's text"
            )
        for tile in tiles:
            tile_of_index(tile, f"Hand's {name}")
    if hand.win_tile is not None:
        tile_of_index(hand.win_tile, "Hand's win_tile")


def duplicate_flower(flowers: Iterable[Tile]) -> Tile | None:
    """The first flower named twice, if any: each of the 8 flowers is a single tile (第三条)."""
    seen: set[Tile] = set()
    for tile in flowers:
        if tile in seen:
            return tile
        seen.add(tile)
    return None


def _add_flower(flowers: list[Tile], tile: Tile, at: int) -> None:
    if tile in flowers:
        raise TileParseError(
            f"flower {tile} appears twice; each flower is a single tile", str(tile), at
        )
    flowers.append(tile)


def parse_hand(text: str) -> Hand:
    """Read a hand in the grammar of this module; errors name the offending text and position.

    Any number of tiles is read, as :func:`format_hand` writes any :class:`Hand` (a part of a
    hand, the tiles of a meld alone): ``parse_hand(format_hand(h)) == h`` for every hand. What
    needs a whole hand checks its size and names it in a ``ValueError``: ``calculate``
    (``InvalidHandError``: 13 standing tiles before the winning one, 3 fewer per meld),
    ``shanten``, ``waits`` and ``useful_tiles`` (13 or 14, 3 fewer per meld), and the commands
    that read a hand (``guobiao fan``, ``guobiao shanten``, ``guobiao tournament hand --tiles``).
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_hand takes a hand's text (a str), not {type(text).__name__}")
    concealed: list[Tile] = []
    flowers: list[Tile] = []
    melds: list[Meld] = []
    win_tile: Tile | None = None
    pos, n = 0, len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch in "[(":
            meld, pos = read_meld(text, pos)
            melds.append(meld)
        elif ch == "+":
            if win_tile is not None:
                raise TileParseError("only one winning tile may follow '+'", text[pos:], pos)
            tiles, end = read_tiles(text, pos + 1, "[(+])")
            if not tiles:
                raise TileParseError("'+' must be followed by the winning tile", text[pos:end], pos)
            if tiles[0][0].is_flower:
                raise TileParseError("a flower cannot be the winning tile", text[pos:end], pos)
            win_tile = tiles[0][0]
            for tile, at in tiles[1:]:  # only flowers may follow the winning tile
                if not tile.is_flower:
                    raise TileParseError("'+' takes exactly one winning tile", str(tile), at)
                _add_flower(flowers, tile, at)
            pos = end
        elif ch in "])":
            raise TileParseError(f"'{ch}' closes nothing", ch, pos)
        else:
            tiles, pos = read_tiles(text, pos, "[(+])")
            for tile, at in tiles:
                if tile.is_flower:
                    _add_flower(flowers, tile, at)
                else:
                    concealed.append(tile)
    return Hand(tuple(concealed), tuple(melds), win_tile, tuple(flowers))


def format_hand(hand: Hand, compact: bool = False, *, style: str = "botzone") -> str:
    """Write a hand so that :func:`parse_hand` reads it back unchanged: its tiles in Botzone
    names, compact (``compact=True``, ``[123m]456p``) or another ``style`` of
    :meth:`~guobiao.core.tiles.Tile.text` (``chinese``: ``[一万二万三万]四饼五饼六饼``; ``glyph``)."""
    parts = [format_meld(meld, compact, style=style) for meld in hand.melds]
    parts.append(format_tiles(hand.concealed, compact, style=style))
    text = "".join(parts)
    if hand.win_tile is not None:
        text += " +" + format_tiles((hand.win_tile,), compact, style=style)
    if hand.flowers:
        text += " " + format_tiles(hand.flowers, compact, style=style)
    return text


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Read a plain run of tiles (no melds, no '+') in any notation: ``W1W2``, ``12m``, ``一万二万``."""
    if not isinstance(text, str):
        raise TypeError(f"parse_tiles takes tiles' text (a str), not {type(text).__name__}")
    tiles, end = read_tiles(text, 0, "[(+])")
    if end < len(text):
        raise TileParseError("unexpected character", text[end], end)
    return tuple(t for t, _ in tiles)
