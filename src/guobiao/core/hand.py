"""A player's hand and its text form.

Grammar (white space is ignored between tokens)::

    hand   := part* [ "+" tile ]
    part   := "[" tiles [ ":" seat ] "]"      an exposed meld (chow, pung or kong), seat 1/2/3 = offered by
            | "(" tiles ")"                   a concealed kong (4 equal tiles)
            | tiles                           standing tiles; flowers (H1-H8 / 1f-8f) go to the flowers
    tiles  := ( botzone | compact )+
    botzone:= [WBTFJH] digit                  W1 .. J3, H1 .. H8
    compact:= digit+ [mpszf]                  123m, 1234567z (东南西北中发白), 12f
    digit  := 0-9                             ASCII only: not '²', '①' or '١'

A meld is never empty; each of the 8 flowers is a single tile, so a flower named twice is refused.

The tile after ``+`` is the winning tile. Examples: ``[W1W2W3][F1F1F1]B4B5B6T7T8 +T9`` and its compact
equivalent ``[123m][111z]456p78s +9s``. :func:`format_hand` writes either form and
``parse_hand(format_hand(h)) == h``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from guobiao.core.melds import Meld, MeldKind
from guobiao.core.tiles import TILES, Tile, TileParseError, tile_of_index

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
        try:
            object.__setattr__(self, "concealed", _sorted(TILES[int(t)] for t in self.concealed))
            object.__setattr__(self, "flowers", _sorted(TILES[int(t)] for t in self.flowers))
            if self.win_tile is not None and not isinstance(self.win_tile, Tile):
                object.__setattr__(self, "win_tile", TILES[int(self.win_tile)])
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


_SUIT_LETTERS = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_RANKS = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_BOTZONE_LETTERS = {
    "W": (0, 9),
    "B": (9, 9),
    "T": (18, 9),
    "F": (27, 4),
    "J": (31, 3),
    "H": (34, 8),
}
# ASCII digits only: str.isdigit() also accepts '²' or '①', which int() refuses.
_DIGITS = frozenset("0123456789")


def _read_tiles(text: str, pos: int, stop: str) -> tuple[list[tuple[Tile, int]], int]:
    """Read tiles from ``pos`` until a character in ``stop`` or the end; return (tile, position) pairs."""
    out: list[tuple[Tile, int]] = []
    n = len(text)
    while pos < n and text[pos] not in stop:
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch in "WBTFJHwbtfjh":
            base, size = _BOTZONE_LETTERS[ch.upper()]
            if pos + 1 >= n or text[pos + 1] not in _DIGITS:
                raise TileParseError(
                    f"'{ch}' must be followed by a digit", text[pos : pos + 2], pos
                )
            rank = int(text[pos + 1])
            if not 1 <= rank <= size:
                raise TileParseError("no such tile", text[pos : pos + 2], pos)
            out.append((TILES[base + rank - 1], pos))
            pos += 2
        elif ch in _DIGITS:
            start = pos
            while pos < n and text[pos] in _DIGITS:
                pos += 1
            if pos >= n or text[pos] not in "mpszfMPSZF":
                raise TileParseError(
                    "digits must end with a suit letter m, p, s, z or f",
                    text[start : pos + 1],
                    start,
                )
            letter = text[pos].lower()
            for i in range(start, pos):
                rank = int(text[i])
                if not 1 <= rank <= _SUIT_RANKS[letter]:
                    raise TileParseError("no such tile", f"{text[i]}{letter}", i)
                out.append((TILES[_SUIT_LETTERS[letter] + rank - 1], i))
            pos += 1
        else:
            raise TileParseError("unexpected character", ch, pos)
    return out, pos


def _meld_from(
    tiles: list[tuple[Tile, int]], start: int, concealed: bool, seat: int | None
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
        return Meld(MeldKind.CONCEALED_KONG, kinds[0])
    if len(kinds) == 4 and len(set(kinds)) == 1:
        return Meld(MeldKind.KONG, kinds[0], seat)
    if len(kinds) == 3 and len(set(kinds)) == 1:
        return Meld(MeldKind.PUNG, kinds[0], seat)
    first = kinds[0]
    if (
        len(kinds) == 3
        and first.is_suited
        and first.rank <= 7
        and kinds[1] == first + 1
        and kinds[2] == first + 2
    ):
        return Meld(MeldKind.CHOW, first, seat)
    raise TileParseError("not a chow, pung or kong", where, start)


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
            close = "]" if ch == "[" else ")"
            tiles, end = _read_tiles(text, pos + 1, "]):")
            seat: int | None = None
            if end < n and text[end] == ":" and ch == "[":
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
                raise TileParseError(f"'{ch}' is not closed by '{close}'", text[pos:end], pos)
            melds.append(_meld_from(tiles, pos, ch == "(", seat))
            pos = end + 1
        elif ch == "+":
            if win_tile is not None:
                raise TileParseError("only one winning tile may follow '+'", text[pos:], pos)
            tiles, end = _read_tiles(text, pos + 1, "[(+])")
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
            tiles, pos = _read_tiles(text, pos, "[(+])")
            for tile, at in tiles:
                if tile.is_flower:
                    _add_flower(flowers, tile, at)
                else:
                    concealed.append(tile)
    return Hand(tuple(concealed), tuple(melds), win_tile, tuple(flowers))


def format_tiles(tiles: Iterable[Tile], compact: bool = False) -> str:
    """Write tiles in Botzone form (``W1W2W3``) or compact form (``123m``)."""
    if not compact:
        return "".join(str(t) for t in tiles)
    out: list[str] = []
    digits: list[str] = []
    letter = ""
    for tile in tiles:
        code = tile.compact
        if code[1] != letter and digits:
            out.append("".join(digits) + letter)
            digits = []
        letter = code[1]
        digits.append(code[0])
    if digits:
        out.append("".join(digits) + letter)
    return "".join(out)


def format_hand(hand: Hand, compact: bool = False) -> str:
    """Write a hand so that :func:`parse_hand` reads it back unchanged."""
    parts: list[str] = []
    for meld in hand.melds:
        body = format_tiles(meld.tiles, compact)
        if meld.is_concealed:
            parts.append(f"({body})")
        elif meld.offered_by is not None:
            parts.append(f"[{body}:{meld.offered_by}]")
        else:
            parts.append(f"[{body}]")
    parts.append(format_tiles(hand.concealed, compact))
    text = "".join(parts)
    if hand.win_tile is not None:
        text += " +" + format_tiles((hand.win_tile,), compact)
    if hand.flowers:
        text += " " + format_tiles(hand.flowers, compact)
    return text


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Read a plain run of tiles (no melds, no '+')."""
    tiles, end = _read_tiles(text, 0, "[(+])")
    if end < len(text):
        raise TileParseError("unexpected character", text[end], end)
    return tuple(t for t, _ in tiles)
