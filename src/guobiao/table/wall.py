"""The wall and the deal (第六条五): building, the two dice throws, the break, the jump deal.

Seats are numbered by seat wind: 0 East (the dealer), 1 South (the dealer's 下家), 2 West, 3 North.
Each player builds a wall of 18 stacks of two tiles in front of them (17 without flowers); seen
by its builder, stacks are counted from the right end. Right to left along one's own wall runs
clockwise around the table, onto the wall of the player on one's left (上家, seat - 1).

1. The dealer throws two dice: counting counter-clockwise from the dealer as 1, the total picks
   the second thrower (5/9 East, 2/6/10 South, 3/7/11 West, 4/8/12 North).
2. The second thrower throws; the sum of both throws is counted in stacks from the right end of
   the second thrower's wall (clockwise). Those stacks stay at the far end of the wall; the deal
   starts with the next stack (docs/rules.md).
3. The dealer takes two stacks (4 tiles), then South, West, North, three times (12 tiles each);
   then the dealer jumps (跳牌): the top tiles of the 1st and 3rd of the next stacks; South,
   West and North take one tile each (bottom of the 1st, top and bottom of the 2nd).
4. Play draws on from the live end (the bottom of that 3rd stack next); kong and flower
   replacements come from the far end, top tile first.

:class:`Wall` keeps the tiles in live order (position 0 is the first tile dealt) and two ends.

The Botzone variant (``TableRules.wall_build == "botzone"``, docs/rules.md §20) has no dice and no
stacks: :func:`deal_botzone` cuts a 136-tile wall string into four segments of 34; seat i is dealt
the 13 tiles at positions 34i+33, 34i+32, ..., 34i+21 and :class:`SegmentWall` hands out its later
tiles, kong replacements included, from that same end (34i+20 first).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from guobiao.core.tiles import TILES, Tile
from guobiao.table.rules import TableRules

__all__ = [
    "SEGMENT",
    "Deal",
    "SegmentWall",
    "Wall",
    "deal",
    "deal_botzone",
    "deal_from",
    "deal_from_build",
    "is_tile_set",
    "second_thrower",
    "shuffled_tiles",
]


SEGMENT = 34
"""Tiles in each seat's segment of the Botzone wall."""


_SET: Final = tuple(t for t in range(34) for _ in range(4))
_FLOWERS: Final = tuple(range(34, 42))
_BITS: Final = tuple(n.bit_length() for n in range(145))


def shuffled_tiles(rng: random.Random, flowers: bool = True) -> list[int]:
    """All the tiles of a set (144, or 136 without flowers) in random order.

    The order is ``rng.shuffle`` of the set in order (CPython's Fisher-Yates, each index drawn by
    ``getrandbits`` with rejection), written out here: the same deals for the same seed on
    every Python version, in half the time."""
    tiles = list(_SET + _FLOWERS) if flowers else list(_SET)
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(tiles) - 1, 0, -1):
        k = bits[i + 1]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def is_tile_set(tiles: list[int], flowers: bool) -> bool:
    """Exactly one set of tiles: four of each kind, and the 8 flowers once each when used."""
    counts = [0] * 42
    for t in tiles:
        if not 0 <= t < 42:
            return False
        counts[t] += 1
    return counts[:34] == [4] * 34 and counts[34:] == ([1] * 8 if flowers else [0] * 8)


def second_thrower(first_throw: int) -> int:
    """第六条五(五)2: counting counter-clockwise from the dealer as 1."""
    return (first_throw - 1) % 4


class Wall:
    """The tiles not yet drawn: a live end (draws) and a far end (replacements).

    Both ends skip positions the other end already took, so no tile is handed out twice even
    when they meet inside one stack.
    """

    __slots__ = ("_back", "_back_order", "_taken", "front", "remaining", "tiles")

    def __init__(self, tiles: list[int], front: int = 0) -> None:
        self.tiles = tiles  # in live order: position 0 is dealt first
        self.front = front
        self.remaining = len(tiles) - front
        n = len(tiles)
        self._taken = bytearray(n)
        self._taken[:front] = b"\x01" * front
        # The far end, top tile of the last stack first: n-2, n-1, n-4, n-3, ...
        self._back_order = [p for k in range(n // 2 - 1, -1, -1) for p in (2 * k, 2 * k + 1)]
        self._back = 0

    def draw(self) -> int:
        """The next tile from the live end."""
        if self.remaining <= 0:
            raise IndexError("the wall is empty")
        while self._taken[self.front]:
            self.front += 1
        return self._take(self.front)

    def draw_replacement(self) -> int:
        """A replacement tile (补牌) from the far end."""
        if self.remaining <= 0:
            raise IndexError("the wall is empty")
        while self._taken[self._back_order[self._back]]:
            self._back += 1
        return self._take(self._back_order[self._back])

    def _take(self, position: int) -> int:
        self._taken[position] = 1
        self.remaining -= 1
        return self.tiles[position]


class SegmentWall:
    """The Botzone wall: four segments of 34, each seat drawing only from the end of its own.

    ``left[seat]`` counts the tiles still in that seat's segment; the next one for seat i is at
    position ``34 * i + left[i] - 1``. ``remaining`` is the total in all four segments.
    """

    __slots__ = ("left", "remaining", "tiles")

    def __init__(self, tiles: list[int], dealt: int = 13) -> None:
        if len(tiles) != 4 * SEGMENT:
            raise ValueError(f"a Botzone wall has {4 * SEGMENT} tiles, not {len(tiles)}")
        self.tiles = tiles
        self.left = [SEGMENT - dealt] * 4
        self.remaining = 4 * (SEGMENT - dealt)

    def draw_for(self, seat: int) -> int:
        """The next tile of ``seat``'s segment (a draw or a kong replacement)."""
        n = self.left[seat]
        if n <= 0:
            raise IndexError(f"seat {seat}'s segment of the wall is empty")
        n -= 1
        self.left[seat] = n
        self.remaining -= 1
        return self.tiles[SEGMENT * seat + n]


@dataclass(frozen=True, slots=True)
class Deal:
    """A recorded deal: enough to rebuild the hand exactly (replays)."""

    dice: tuple[int, int, int, int]  # dealer's two dice, second thrower's two dice
    wall: tuple[int, ...]  # tiles in live order
    hands: tuple[tuple[int, ...], ...]  # the four hands after the jump, by seat
    front: int  # the next live position after the deal
    build: tuple[int, ...] | None = None  # the walls as built (seat by seat, stack by stack,
    # top then bottom) before the dice; None when the deal was given in live order
    layout: str = "dice"  # the rules' wall_build: "dice", or "botzone" (``wall`` is then the
    # 136-tile wall string as the judge gives it, ``dice`` (0, 0, 0, 0) and ``front`` 0)

    def __reduce__(self) -> tuple[Any, ...]:
        # by its fields: compiled (hatch_build.py), a frozen class is not rebuilt by setattr
        return (Deal, (self.dice, self.wall, self.hands, self.front, self.build, self.layout))

    @property
    def second_thrower(self) -> int:
        return second_thrower(self.dice[0] + self.dice[1])

    @property
    def break_count(self) -> int:
        """Stacks counted from the right end of the second thrower's wall."""
        return sum(self.dice)

    def wall_tiles(self) -> tuple[Tile, ...]:
        return tuple(TILES[t] for t in self.wall)


def _live_order(stacks: list[list[tuple[int, int]]], thrower: int, count: int) -> list[int]:
    """Tiles in draw order, from the break onward, clockwise: top then bottom of each stack."""
    per_wall = len(stacks[0])
    ring = [stacks[(thrower - i // per_wall) % 4][i % per_wall] for i in range(4 * per_wall)]
    start = count % len(ring)
    order: list[int] = []
    for i in range(len(ring)):
        top, bottom = ring[(start + i) % len(ring)]
        order.extend((top, bottom))
    return order


def deal(rng: random.Random, rules: TableRules) -> Deal:
    """Shuffle, build the four walls, throw the dice and deal (第六条五); with the Botzone rules,
    shuffle a 136-tile wall string and deal it as the judge does (:func:`deal_botzone`)."""
    tiles = shuffled_tiles(rng, rules.flowers)
    if rules.wall_build == "botzone":
        return _deal_segments(tiles)  # one set of 136 by construction (TableRules: no flowers)
    dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    return deal_from_build(tiles, dice)


def deal_from_build(tiles: list[int], dice: tuple[int, int, int, int]) -> Deal:
    """Deal from walls as built: ``tiles`` seat by seat (E S W N), each wall's stacks from its
    right end, top tile then bottom; the dice choose the break."""
    if len(tiles) % 8:
        raise ValueError(f"{len(tiles)} tiles do not make four walls of stacks of two")
    if not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"dice show 1-6, not {dice}")
    per_wall = len(tiles) // 8  # stacks in front of each player
    stacks = [
        [
            (tiles[(w * per_wall + s) * 2], tiles[(w * per_wall + s) * 2 + 1])
            for s in range(per_wall)
        ]
        for w in range(4)
    ]
    thrower = second_thrower(dice[0] + dice[1])
    order = _live_order(stacks, thrower, sum(dice))
    dealt = deal_from(order, dice)
    return Deal(dealt.dice, dealt.wall, dealt.hands, dealt.front, tuple(tiles))


def deal_from(order: list[int], dice: tuple[int, int, int, int]) -> Deal:
    """Deal from a wall already in live order: blocks of four, then the dealer's jump."""
    hands: list[list[int]] = [[], [], [], []]
    position = 0
    for _ in range(3):
        for seat in range(4):
            hands[seat].extend(order[position : position + 4])
            position += 4
    # 跳牌: stacks a, b, c follow; the dealer takes a-top and c-top, South a-bottom, West b-top,
    # North b-bottom; c-bottom is the next live tile.
    a, b, c = position, position + 2, position + 4
    hands[0].extend((order[a], order[c]))
    hands[1].append(order[a + 1])
    hands[2].append(order[b])
    hands[3].append(order[b + 1])
    return Deal(dice, tuple(order), tuple(tuple(h) for h in hands), c + 1)


def deal_botzone(tiles: Sequence[int]) -> Deal:
    """The Botzone deal of a 136-tile wall string (the judge's ``walltiles``, as tile ints).

    Segment i is positions 34i to 34i+33; seat i (0 East, the dealer) is dealt 13 tiles from its
    end, 34i+33 first, and later draws on from there (:class:`SegmentWall`). No dice are thrown.
    """
    wall = [int(t) for t in tiles]
    if len(wall) != 4 * SEGMENT or not is_tile_set(wall, flowers=False):
        raise ValueError("a Botzone wall is one set of 136 tiles without flowers")
    return _deal_segments(wall)


def _deal_segments(wall: list[int]) -> Deal:
    """:func:`deal_botzone` of a wall known to be one set of 136 tiles."""
    hands = tuple(tuple(wall[SEGMENT * seat + 33 : SEGMENT * seat + 20 : -1]) for seat in range(4))
    return Deal((0, 0, 0, 0), tuple(wall), hands, 0, None, "botzone")
