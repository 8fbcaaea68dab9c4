"""Tiles (第三条): the 34 kinds of playing tile and the 8 flowers, and their notations.

A :class:`Tile` is a small ``int`` (0-41) so that tables and counts index by it directly:

====== ========= ====================== =====================
index  Botzone   compact                 中文
====== ========= ====================== =====================
0-8    W1..W9    1m..9m                  一万..九万 (characters)
9-17   B1..B9    1p..9p                  一饼..九饼 (dots)
18-26  T1..T9    1s..9s                  一条..九条 (bamboo)
27-30  F1..F4    1z..4z                  东风 南风 西风 北风
31-33  J1..J3    5z..7z                  红中 发财 白板
34-41  H1..H8    1f..8f                  春 夏 秋 冬 梅 兰 竹 菊
====== ========= ====================== =====================

``str(tile)`` is the Botzone name; :meth:`Tile.parse` reads any of the notations (and the glyph),
and a hand's text (``parse_hand``) may use any of them too: ``W1W2W3``, ``123m``, ``一万二万三万``.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from enum import IntEnum
from typing import Final

__all__ = [
    "FLOWERS",
    "KIND_COUNT",
    "PLAYING_TILES",
    "TERMINALS_AND_HONORS",
    "TILES",
    "Suit",
    "Tile",
    "TileParseError",
]

KIND_COUNT: Final = 34
"""Number of kinds of playing tile (flowers excluded); counts arrays have this length."""


class Suit(IntEnum):
    """The six families of tiles, in index order."""

    CHARACTERS = 0  # 万 W / m
    DOTS = 1  # 饼 B / p
    BAMBOO = 2  # 条 T / s
    WINDS = 3  # 风 F / z1-4
    DRAGONS = 4  # 箭 J / z5-7
    FLOWERS = 5  # 花 H / f

    def __repr__(self) -> str:
        """``Suit.DOTS``: the expression that names the suit."""
        return f"Suit.{self.name}"

    @property
    def is_numbered(self) -> bool:
        """Characters, dots or bamboo: the suits ranked 1-9."""
        return self <= Suit.BAMBOO

    @property
    def letter(self) -> str:
        """The Botzone letter: ``W`` ``B`` ``T`` ``F`` ``J`` ``H``."""
        return "WBTFJH"[self]


class TileParseError(ValueError):
    """A text that names no tile (or no hand), with the offending text and its position."""

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        self.text = text
        self.position = position
        where = f" at position {position}" if position is not None else ""
        super().__init__(f"{message}{where}" + (f": {text!r}" if text else ""))


_SUIT_START = (0, 9, 18, 27, 31, 34)
_SUIT_SIZE = (9, 9, 9, 4, 3, 8)
_NUMERALS = "一二三四五六七八九"
_SUIT_ZH = "万饼条"
_HONOR_ZH = ("东风", "南风", "西风", "北风", "红中", "发财", "白板")
_FLOWER_ZH = "春夏秋冬梅兰竹菊"
# Unicode Mahjong Tiles block (U+1F000): winds, dragons, characters, bamboo, dots, flowers.
_GLYPH_BASE = (0x1F007, 0x1F019, 0x1F010, 0x1F000, 0x1F004, 0x1F022)
_DRAGON_GLYPH = (0x1F004, 0x1F005, 0x1F006)  # 中 发 白
_FLOWER_GLYPH = (0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F024, 0x1F025)


class Tile(int):
    """One tile kind, 0-41 (see the module table). Immutable and hashable like any int."""

    __slots__ = ()

    def __new__(cls, index: int) -> Tile:
        if not 0 <= index < 42:
            raise ValueError(f"tile index out of range 0-41: {index}")
        return super().__new__(cls, index)

    # -- structure -----------------------------------------------------------------
    @property
    def suit(self) -> Suit:
        """The tile's family: ``Tile.parse("W5").suit is Suit.CHARACTERS``."""
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """1-9 for suited tiles, 1-4 for winds (东南西北), 1-3 for dragons (中发白), 1-8 for flowers."""
        return int(self) - _SUIT_START[_SUIT_OF[self]] + 1

    @property
    def is_suited(self) -> bool:
        """A character, dot or bamboo tile (序数牌)."""
        return int(self) < 27

    @property
    def is_honor(self) -> bool:
        """A wind or a dragon (字牌)."""
        return 27 <= int(self) < 34

    @property
    def is_flower(self) -> bool:
        """One of the eight flowers (花牌), ``H1``-``H8``."""
        return int(self) >= 34

    @property
    def is_terminal(self) -> bool:
        """A 1 or 9 of a suit (老头牌)."""
        return int(self) < 27 and int(self) % 9 in (0, 8)

    @property
    def is_terminal_or_honor(self) -> bool:
        """幺九牌: 1s and 9s of the suits and all honours."""
        return self.is_terminal or self.is_honor

    # -- notations ------------------------------------------------------------------
    def __str__(self) -> str:
        """The Botzone name, ``W5``, which :meth:`parse` reads back."""
        return _BOTZONE[self]

    def __repr__(self) -> str:
        """``Tile.parse('W5')``: the expression that makes the tile again."""
        return f"Tile.parse({_BOTZONE[self]!r})"

    @property
    def compact(self) -> str:
        """The compact form: ``5m``, ``1z`` (东) .. ``7z`` (白), ``1f`` .. ``8f``."""
        return _COMPACT[self]

    @property
    def chinese(self) -> str:
        """The Chinese name: ``五万``, ``东风``, ``红中``, ``春``."""
        return _CHINESE[self]

    @property
    def glyph(self) -> str:
        """The Unicode tile glyph (U+1F000 block)."""
        return _GLYPH[self]

    def text(self, style: str = "botzone") -> str:
        """The tile written in ``style``: ``botzone`` (W5), ``compact`` (5m), ``chinese`` (五万)
        or ``glyph`` (🀋); :meth:`parse` reads each back. ValueError for another style."""
        names = _STYLES.get(style)
        if names is None:
            raise ValueError(f"no tile style {style!r}: choose one of {', '.join(_STYLES)}")
        return names[self]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one tile in Botzone (``W5``), compact (``5m``) or Chinese (``五万``, ``东``) notation."""
        if not isinstance(text, str):
            raise TypeError(f"Tile.parse takes a tile's name (a str), not {type(text).__name__}")
        key = text.strip()
        for candidate in (key, key.upper(), key.lower()):
            tile = _BY_NAME.get(candidate)
            if tile is not None:  # Tile(0) is falsy: compare with None
                return tile
        raise TileParseError("not a tile name", text)

    @classmethod
    def from_suit_rank(cls, suit: Suit, rank: int) -> Tile:
        """The tile of ``suit`` and ``rank`` (:attr:`rank`'s numbering); ValueError off the range."""
        if not 1 <= rank <= _SUIT_SIZE[suit]:
            raise ValueError(f"rank {rank} out of range for {suit.name}")
        return TILES[_SUIT_START[suit] + rank - 1]


def not_a_tile(value: object, what: str) -> TypeError | ValueError:
    """The error to raise when ``what`` was given ``value`` where a :class:`Tile` (or its index
    0-41) belongs: a tile's name is read by :meth:`Tile.parse`, a hand's text by ``parse_hand``."""
    if isinstance(value, str):
        return TypeError(
            f"{what} takes a Tile, such as Tile.parse({value!r}), not the text {value!r}"
        )
    if isinstance(value, int):
        return ValueError(f"{what}: tile index out of range 0-41: {value}")
    return TypeError(f"{what} takes a Tile (or its index 0-41), not {type(value).__name__}")


def tile_of_index(value: object, what: str) -> Tile:
    """The :class:`Tile` of an index given as ``what``, or the error :func:`not_a_tile` says."""
    try:  # an int, or what stands for one (numpy's): never a str of digits, never a float
        index = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise not_a_tile(value, what) from None
    if not 0 <= index < 42:
        raise not_a_tile(index, what)
    return TILES[index]


def _suit_of(index: int) -> Suit:
    for suit in reversed(Suit):
        if index >= _SUIT_START[suit]:
            return suit
    raise AssertionError(index)


_SUIT_OF: Final = tuple(_suit_of(i) for i in range(42))


def _botzone(index: int) -> str:
    suit = _SUIT_OF[index]
    return f"{suit.letter}{index - _SUIT_START[suit] + 1}"


def _compact(index: int) -> str:
    suit = _SUIT_OF[index]
    if suit.is_numbered:
        return f"{index % 9 + 1}{'mps'[suit]}"
    if suit is Suit.FLOWERS:
        return f"{index - 33}f"
    return f"{index - 26}z"


def _chinese(index: int) -> str:
    suit = _SUIT_OF[index]
    if suit.is_numbered:
        return _NUMERALS[index % 9] + _SUIT_ZH[suit]
    if suit is Suit.FLOWERS:
        return _FLOWER_ZH[index - 34]
    return _HONOR_ZH[index - 27]


def _glyph(index: int) -> str:
    suit = _SUIT_OF[index]
    if suit is Suit.DRAGONS:
        return chr(_DRAGON_GLYPH[index - 31])
    if suit is Suit.FLOWERS:
        return chr(_FLOWER_GLYPH[index - 34])
    return chr(_GLYPH_BASE[suit] + index - _SUIT_START[suit])


_BOTZONE: Final = tuple(_botzone(i) for i in range(42))
_COMPACT: Final = tuple(_compact(i) for i in range(42))
_CHINESE: Final = tuple(_chinese(i) for i in range(42))
_GLYPH: Final = tuple(_glyph(i) for i in range(42))

TILES: Final[tuple[Tile, ...]] = tuple(Tile(i) for i in range(42))
"""Every tile kind by index; ``TILES[i]`` is the canonical instance."""
PLAYING_TILES: Final = TILES[:KIND_COUNT]
FLOWERS: Final = TILES[KIND_COUNT:]
TERMINALS_AND_HONORS: Final = tuple(t for t in PLAYING_TILES if t.is_terminal_or_honor)


def _names() -> dict[str, Tile]:
    names: dict[str, Tile] = {}
    for tile in TILES:
        names[_BOTZONE[tile]] = tile
        names[_COMPACT[tile]] = tile
        names[_CHINESE[tile]] = tile
        names[_GLYPH[tile]] = tile
    for i, short in enumerate("东南西北中发白"):
        names[short] = TILES[27 + i]
    for i, alt in enumerate(("东", "南", "西", "北", "中", "發", "白")):
        names.setdefault(alt, TILES[27 + i])
    names["发"] = TILES[32]
    names["红中"] = TILES[31]
    for suit, alt in ((0, "萬"), (1, "筒"), (2, "索")):
        for r in range(9):
            names[_NUMERALS[r] + alt] = TILES[suit * 9 + r]
    return names


_BY_NAME: Final = _names()
_STYLES: Final = {"botzone": _BOTZONE, "compact": _COMPACT, "chinese": _CHINESE, "glyph": _GLYPH}

# The names a hand's text may hold besides the ASCII ones (Botzone, compact): the Chinese names
# and the glyphs. Read longest first, they never overlap: a two-character name whose first
# character is a tile (东风, 南风, 西风, 北风) ends in 风, which starts no name.
_WIDE_NAMES: Final = {name: tile for name, tile in _BY_NAME.items() if not name.isascii()}
# (first index, tiles) of each letter
_BOTZONE_LETTERS: Final = {
    "W": (0, 9),
    "B": (9, 9),
    "T": (18, 9),
    "F": (27, 4),
    "J": (31, 3),
    "H": (34, 8),
}
_COMPACT_LETTERS: Final = {"m": (0, 9), "p": (9, 9), "s": (18, 9), "z": (27, 7), "f": (34, 8)}
# ASCII digits only: str.isdigit() also accepts '²' or '①', which int() refuses.
_DIGITS: Final = frozenset("0123456789")
MARK: Final = "*"
"""In a meld's text, written after the claimed tile: ``[W3W4*W5:3]`` claimed W4."""


def read_tiles(
    text: str, pos: int, stop: str, marks: list[int] | None = None
) -> tuple[list[tuple[Tile, int]], int]:
    """Read tiles in any notation from ``pos`` until a character in ``stop`` or the end; return
    the (tile, position) pairs and where the reading stopped. White space between tiles is
    skipped. With ``marks``, a :data:`MARK` after a tile appends that tile's place in the list
    to it (a meld's claimed tile); without, a mark is refused. TileParseError names the place."""
    out: list[tuple[Tile, int]] = []
    n = len(text)
    letter_end = -1  # where the last letter-and-digit tile (W1) ended
    while pos < n and text[pos] not in stop:
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch == MARK and marks is not None and out:
            marks.append(len(out) - 1)
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
            letter_end = pos
        elif ch in _DIGITS:
            start = pos
            ranks: list[tuple[int, int]] = []  # (rank, position) until the suit letter
            while pos < n and (text[pos] in _DIGITS or (text[pos] == MARK and marks is not None)):
                if text[pos] == MARK:  # after a digit: marks the tile of that digit
                    marks.append(len(out) + len(ranks) - 1)  # type: ignore[union-attr]
                else:
                    ranks.append((int(text[pos]), pos))
                pos += 1
            if (pos >= n or text[pos] not in "mpszfMPSZF") and start == letter_end:
                # W10, B12: more digits right after a tile written as a letter and a digit
                raise TileParseError(
                    f"a tile is one letter and one digit: {text[start - 2 : start]} is a tile, "
                    f"then {text[start:pos]} is left over",
                    text[start - 2 : pos],
                    start - 2,
                )
            if pos >= n or text[pos] not in "mpszfMPSZF":
                raise TileParseError(
                    "digits must end with a suit letter m, p, s, z or f",
                    text[start : pos + 1],
                    start,
                )
            letter = text[pos].lower()
            base, size = _COMPACT_LETTERS[letter]
            for rank, at in ranks:
                if not 1 <= rank <= size:
                    raise TileParseError("no such tile", f"{rank}{letter}", at)
                out.append((TILES[base + rank - 1], at))
            pos += 1
        else:
            tile = _WIDE_NAMES.get(text[pos : pos + 2])
            width = 2
            if tile is None:
                tile, width = _WIDE_NAMES.get(ch), 1
            if tile is None:
                raise TileParseError("unexpected character", ch, pos)
            out.append((tile, pos))
            pos += width
    return out, pos


def format_tiles(tiles: Iterable[Tile], compact: bool = False, *, style: str = "botzone") -> str:
    """Write tiles in ``style`` (:meth:`Tile.text`) one after the other: ``W1W2W3``, ``一万二万三万``;
    the compact style (or ``compact=True``) writes a suit's ranks together, ``123m``."""
    if not compact and style != "compact":
        names = _STYLES.get(style)
        if names is None:
            raise ValueError(f"no tile style {style!r}: choose one of {', '.join(_STYLES)}")
        return "".join([names[t] for t in tiles])
    out: list[str] = []
    digits: list[str] = []
    letter = ""
    for tile in tiles:
        code = _COMPACT[tile]
        if code[1] != letter and digits:
            out.append("".join(digits) + letter)
            digits = []
        letter = code[1]
        digits.append(code[0])
    if digits:
        out.append("".join(digits) + letter)
    return "".join(out)
