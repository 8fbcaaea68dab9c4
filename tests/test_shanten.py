"""Tests of guobiao.core.shanten: cases from the rules, differential tests against MahjongGB, properties.

The differential part compares every shape's shanten and useful tiles with PyMahjongGB 1.4.0 (the
C++ reference) on seeded random hands, some uniform, most biased towards ready or special shapes.
``check_against_reference`` is reused by ``benchmarks/bench_shanten.py --check N`` for long runs.
"""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import MahjongGB  # the reference calculator: a test dependency (pyproject's "test" extra)
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guobiao.core.hand import parse_hand, parse_tiles
from guobiao.core.shanten import (
    DiscardOption,
    Shape,
    clear_caches,
    discard_options,
    hand_shanten,
    hand_waits,
    honors_and_knitted_shanten,
    knitted_straight_shanten,
    ready_waits,
    regular_shanten,
    seven_pairs_shanten,
    shanten,
    thirteen_orphans_shanten,
    useful_tiles,
    waits,
)
from guobiao.core.tiles import TILES

NAMES = [str(TILES[i]) for i in range(34)]
INDEX = {name: i for i, name in enumerate(NAMES)}
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def counts_of(text: str) -> list[int]:
    counts = [0] * 34
    for tile in parse_tiles(text):
        counts[tile] += 1
    return counts


def botzone(text: str) -> tuple[str, ...]:
    """The reference's input: Botzone tile names."""
    return tuple(str(t) for t in parse_tiles(text))


def names(kinds: list[int]) -> str:
    return "".join(NAMES[t] for t in kinds)


# ---------------------------------------------------------------------------------------------
# 1. Cases from the rules
# ---------------------------------------------------------------------------------------------


def test_nine_gates_waits_on_all_nine() -> None:
    c = counts_of("1112345678999m")
    assert shanten(c) == 0
    assert waits(c) == list(range(9))
    assert useful_tiles(c) == list(range(9))
    for t in range(9):
        c[t] += 1
        assert shanten(c) == -1
        c[t] -= 1


def test_thirteen_orphans() -> None:
    c = counts_of("19m19p19s1234567z")
    assert thirteen_orphans_shanten(c) == 0
    assert waits(c) == list(ORPHANS)  # 十三面
    c = counts_of("119m19p19s123456z")
    assert waits(c) == [33]  # the missing 白板
    c[33] += 1
    assert shanten(c) == thirteen_orphans_shanten(c) == -1


def test_seven_pairs() -> None:
    c = counts_of("1122m3344p5566s7z")
    assert seven_pairs_shanten(c) == 0
    assert waits(c) == [33]
    c[33] += 1
    assert shanten(c) == -1


def test_seven_pairs_four_of_a_kind_counts_as_two_pairs() -> None:
    # As the reference shanten and fan calculator (七对 + 四归一): 1111m is two pairs.
    c = counts_of("1111m3344p5566s7z")
    assert seven_pairs_shanten(c) == 0
    assert waits(c, shapes=Shape.SEVEN_PAIRS) == [33]
    c = counts_of("111m33p44p55s66s77z")  # 13 tiles, the fourth 1m completes
    assert waits(c) == [0]
    c[0] += 1
    assert seven_pairs_shanten(c) == -1


def test_honors_and_knitted_tiles() -> None:
    c = counts_of("147m258p369s1234z")  # 13 distinct: waits on the three dragons
    assert honors_and_knitted_shanten(c) == 0
    assert waits(c) == [31, 32, 33]
    c = counts_of("14m25p36s1234567z")  # 七星不靠 lacking one of 7m, 8p, 9s
    assert waits(c) == [6, 16, 26]
    c[6] += 1
    assert shanten(c) == honors_and_knitted_shanten(c) == -1


def test_knitted_straight() -> None:
    c = counts_of("147m258p369s11p55z")
    assert knitted_straight_shanten(c) == 0
    assert waits(c) == [9, 31]  # 1p or 中 (双碰)
    c = counts_of("147m258p369s5m")  # with one melded pung the rest is a single wait
    assert knitted_straight_shanten(c, 1) == 0
    assert waits(c, 1) == [4]
    c = counts_of("14m258p369s123m55z")  # 7m missing from the knitted straight; 123m, 55z done
    assert waits(c) == [6]
    c[6] += 1
    assert knitted_straight_shanten(c) == -1


def test_regular_examples() -> None:
    c = counts_of("123m456p789s111z22z")  # 4 sets + pair = complete
    assert regular_shanten(c) == -1 and shanten(c) == -1
    c = counts_of("123m456p789s111z2z")
    assert shanten(c) == 0 and waits(c) == [28]  # 单钓 南
    assert regular_shanten(counts_of("13m"), 4) == 0  # four melds, 14-form, not complete
    assert regular_shanten(counts_of("33m"), 4) == -1
    c = counts_of("1m")
    assert waits(c, 4) == [0]
    assert regular_shanten(counts_of("19m19p19s1234567z")) == 8


def test_fifth_tile_wait_is_reported_like_the_reference() -> None:
    c = counts_of("1111m")  # three melds and a concealed 1111m: 1m on paper, never drawable
    assert shanten(c, 3) == 0
    assert waits(c, 3) == [0]
    assert useful_tiles(c, 3) == [0]
    c = counts_of("1111m258p")  # not ready: a fourfold kind is not useful in the regular shape
    assert regular_shanten(c, 2) == 2
    assert 0 not in useful_tiles(c, 2, shapes=Shape.REGULAR)


def test_hand_wrappers() -> None:
    hand = parse_hand("[W1W2W3]B1B2B3T5T5T5J1J1F2F3")
    assert hand_shanten(hand) == 1
    assert hand_waits(hand) == []
    hand = parse_hand("[W1W2W3](B1B1B1B1)T5T6T7J1J1F2F2")
    assert hand_shanten(hand) == 0
    assert [str(t) for t in hand_waits(hand)] == ["F2", "J1"]
    hand = parse_hand("[W1W2W3](B1B1B1B1)T5T6T7J1J1F2F2 +F2")
    assert hand_shanten(hand) == -1
    assert [str(t) for t in hand_waits(hand)] == ["F2", "J1"]  # the waits before the winning tile


def test_discard_options() -> None:
    c = counts_of("123m456p789s111z2z9m")
    options = discard_options(c)
    assert all(isinstance(o, DiscardOption) for o in options)
    best = options[0]
    assert best.shanten == 0
    assert {str(o.tile) for o in options if o.shanten == 0} == {"F2", "W9"}
    by_tile = {str(o.tile): o for o in options}
    assert [str(t) for t in by_tile["W9"].useful] == ["F2"]
    assert by_tile["W9"].live == 3  # 4 南 minus the one in hand
    assert [str(t) for t in by_tile["F2"].useful] == ["W9"]
    assert by_tile["F2"].live == 3
    seen = [0] * 34
    seen[28] = 3
    assert {str(o.tile): o.live for o in discard_options(c, visible=seen)}["W9"] == 0
    with pytest.raises(AttributeError):
        best.shanten = 5  # type: ignore[misc]


def test_clear_caches_changes_nothing() -> None:
    c = counts_of("147m258p369s11p55z")
    before = (shanten(c), waits(c), useful_tiles(c))
    clear_caches()
    assert (shanten(c), waits(c), useful_tiles(c)) == before


@pytest.mark.parametrize(
    ("counts", "melds"),
    [
        ([0] * 33, 0),
        ([1] * 13 + [0] * 21, 1),
        ([1] * 12 + [0] * 22, 0),
        ([1] * 13 + [0] * 21, 5),
        ([-1] + [1] * 14 + [0] * 19, 0),
        ([6] + [1] * 7 + [0] * 26, 0),
    ],
)
def test_invalid_input(counts: list[int], melds: int) -> None:
    with pytest.raises(ValueError):
        shanten(counts, melds)
    with pytest.raises(ValueError):
        regular_shanten(counts, melds)


def test_form_checks() -> None:
    c13 = counts_of("123m456p789s111z2z")
    c14 = counts_of("123m456p789s111z2z3z")
    with pytest.raises(ValueError):
        waits(c14)
    with pytest.raises(ValueError):
        useful_tiles(c14)
    with pytest.raises(ValueError):
        discard_options(c13)
    with pytest.raises(ValueError):
        seven_pairs_shanten(counts_of("1122m3344p5"))  # with melds there are no seven pairs
    with pytest.raises(ValueError):
        knitted_straight_shanten(counts_of("147m258p3"), 2)
    with pytest.raises(ValueError):
        waits(counts_of("1122m3344p55s"), 1, shapes=Shape.SEVEN_PAIRS)


# ---------------------------------------------------------------------------------------------
# 2. Differential tests against MahjongGB
# ---------------------------------------------------------------------------------------------

Meld = tuple[str, int]  # ("CHI", lowest tile) / ("PENG", t) / ("GANG", t)
Deal = tuple[list[int], list[Meld]]


class Wall:
    """The 136 tiles; draws respect the four copies of each kind."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left = [4] * 34

    def take(self, *tiles: int) -> bool:
        need = Counter(tiles)
        if any(self.left[t] < n for t, n in need.items()):
            return False
        for t in tiles:
            self.left[t] -= 1
        return True

    def give_back(self, tile: int) -> None:
        self.left[tile] += 1

    def draw(self) -> int:
        tile = self.rng.choices(range(34), weights=self.left)[0]
        self.left[tile] -= 1
        return tile

    def draw_near(self, tile: int) -> int:
        """A tile close to ``tile`` (same suit, rank ±2) if one is left, else any tile."""
        if tile < 27:
            near = [t for t in range(tile - 2, tile + 3) if t // 9 == tile // 9 and self.left[t]]
            if near and self.rng.random() < 0.6:
                pick = self.rng.choice(near)
                self.left[pick] -= 1
                return pick
        return self.draw()

    def set(self) -> list[int]:
        while True:
            if self.rng.random() < 0.55:
                start = 9 * self.rng.randrange(3) + self.rng.randrange(7)
                tiles = [start, start + 1, start + 2]
            else:
                tiles = [self.rng.randrange(34)] * 3
            if self.take(*tiles):
                return tiles

    def meld(self) -> Meld:
        while True:
            roll = self.rng.random()
            if roll < 0.5:
                start = 9 * self.rng.randrange(3) + self.rng.randrange(7)
                if self.take(start, start + 1, start + 2):
                    return ("CHI", start)
            else:
                t = self.rng.randrange(34)
                kong = roll > 0.85
                if self.take(*[t] * (4 if kong else 3)):
                    return ("GANG" if kong else "PENG", t)

    def pair(self) -> list[int]:
        while True:
            t = self.rng.randrange(34)
            if self.take(t, t):
                return [t, t]


def _melds(wall: Wall) -> list[Meld]:
    return [wall.meld() for _ in range(wall.rng.choice((0, 0, 0, 1, 1, 2, 3, 4)))]


def _finish(wall: Wall, tiles: list[int], melds: list[Meld]) -> Deal:
    """From a 14-form hand: drop one tile, then swap 0-3 tiles for fresh ones from the wall."""
    rng = wall.rng
    rng.shuffle(tiles)
    wall.give_back(tiles.pop())
    for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 2, 3))):
        i = rng.randrange(len(tiles))
        old = tiles[i]
        tiles[i] = wall.draw_near(old)
        wall.give_back(old)
    return sorted(tiles), melds


def deal_uniform(rng: random.Random) -> Deal:
    wall = Wall(rng)
    melds = _melds(wall)
    return sorted(wall.draw() for _ in range(13 - 3 * len(melds))), melds


def deal_regular(rng: random.Random) -> Deal:
    wall = Wall(rng)
    melds = _melds(wall)
    tiles = wall.pair()
    for _ in range(4 - len(melds)):
        tiles += wall.set()
    return _finish(wall, tiles, melds)


def deal_seven_pairs(rng: random.Random) -> Deal:
    wall = Wall(rng)
    tiles: list[int] = []
    suit = rng.choice((None, 0, 1, 2))
    while len(tiles) < 14:
        t = rng.randrange(34) if suit is None else 9 * suit + rng.randrange(9)
        if (rng.random() < 0.15 or t not in tiles) and wall.take(t, t):
            tiles += [t, t]
    return _finish(wall, tiles, [])


def deal_thirteen_orphans(rng: random.Random) -> Deal:
    wall = Wall(rng)
    tiles = list(ORPHANS)
    wall.take(*tiles)
    extra = rng.choice(ORPHANS)
    wall.take(extra)
    return _finish(wall, [*tiles, extra], [])


def _knitted(rng: random.Random) -> list[int]:
    perm = rng.choice(PERMS)
    return [9 * suit + j + 3 * step for suit, j in enumerate(perm) for step in range(3)]


def deal_honors_and_knitted(rng: random.Random) -> Deal:
    wall = Wall(rng)
    candidates = _knitted(rng) + list(range(27, 34))
    tiles = rng.sample(candidates, 14)
    wall.take(*tiles)
    return _finish(wall, tiles, [])


def deal_knitted_straight(rng: random.Random) -> Deal:
    wall = Wall(rng)
    melds = [wall.meld()] if rng.random() < 0.4 else []
    tiles = _knitted(rng)
    wall.take(*tiles)
    tiles += wall.pair()
    if not melds:
        tiles += wall.set()
    return _finish(wall, tiles, melds)


GENERATORS: dict[str, Callable[[random.Random], Deal]] = {
    "uniform": deal_uniform,
    "regular": deal_regular,
    "seven_pairs": deal_seven_pairs,
    "thirteen_orphans": deal_thirteen_orphans,
    "honors_and_knitted": deal_honors_and_knitted,
    "knitted_straight": deal_knitted_straight,
}


def pack_of(meld: Meld) -> tuple[str, str, int]:
    kind, tile = meld
    return (kind, NAMES[tile + 1 if kind == "CHI" else tile], 1)


def _reference_shapes(hand: tuple[str, ...], k: int) -> dict[Shape, tuple[int, list[int]]]:
    """Per-shape (shanten, sorted useful kinds) from MahjongGB, for the shapes it accepts."""
    assert MahjongGB is not None
    calls: list[tuple[Shape, Any]] = [(Shape.REGULAR, MahjongGB.RegularShanten)]
    if k <= 1:
        calls.append((Shape.KNITTED_STRAIGHT, MahjongGB.KnittedStraightShanten))
    if k == 0:
        calls += [
            (Shape.SEVEN_PAIRS, MahjongGB.SevenPairsShanten),
            (Shape.THIRTEEN_ORPHANS, MahjongGB.ThirteenOrphansShanten),
            (Shape.HONORS_AND_KNITTED, MahjongGB.HonorsAndKnittedTilesShanten),
        ]
    out: dict[Shape, tuple[int, list[int]]] = {}
    for shape, function in calls:
        s, useful = function(hand)
        out[shape] = (s, sorted(INDEX[u] for u in useful))
    return out


_MINE: dict[Shape, Callable[[list[int], int], int]] = {
    Shape.REGULAR: regular_shanten,
    Shape.SEVEN_PAIRS: lambda c, k: seven_pairs_shanten(c),
    Shape.THIRTEEN_ORPHANS: lambda c, k: thirteen_orphans_shanten(c),
    Shape.HONORS_AND_KNITTED: lambda c, k: honors_and_knitted_shanten(c),
    Shape.KNITTED_STRAIGHT: knitted_straight_shanten,
}


def check_deal(deal: Deal, rng: random.Random, full: bool = True) -> list[str]:
    """Compare one 13-form deal with the reference; return mismatch descriptions."""
    assert MahjongGB is not None
    tiles, melds = deal
    k = len(melds)
    hand = tuple(NAMES[t] for t in tiles)
    packs = tuple(pack_of(m) for m in melds)
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    where = f"{names(tiles)} melds={melds}"
    bad: list[str] = []
    ref_all = MahjongGB.MahjongShanten(pack=packs, hand=hand)
    if shanten(c, k) != ref_all:
        bad.append(f"shanten {shanten(c, k)} != {ref_all}: {where}")
    if not full:
        return bad
    ref = _reference_shapes(hand, k)
    for shape, (s, useful) in ref.items():
        mine = (_MINE[shape](c, k), useful_tiles(c, k, shapes=shape))
        if mine != (s, useful):
            bad.append(f"{shape.name} {mine} != {(s, useful)}: {where}")
    best = min(s for s, _ in ref.values())
    union = sorted({u for s, useful in ref.values() if s == best for u in useful})
    if useful_tiles(c, k) != union:
        bad.append(f"useful {useful_tiles(c, k)} != {union}: {where}")
    if waits(c, k) != (union if best == 0 else []):
        bad.append(f"waits {waits(c, k)}: {where}")
    if best == 0 and sorted(ready_waits(bytes(c), k)) != union:  # the game loop's shortcut
        bad.append(f"ready_waits {sorted(ready_waits(bytes(c), k))}: {where}")
    # The 14-form: complete iff the drawn tile is a wait, else the best discard's shanten.
    drawn = rng.choice([t for t in range(34) if c[t] < 4])
    c[drawn] += 1
    if best == 0 and drawn in union:
        expected = -1
    else:
        expected = 99
        for d in range(34):
            if c[d]:
                rest = [*tiles, drawn]
                rest.remove(d)
                after = MahjongGB.MahjongShanten(pack=packs, hand=tuple(NAMES[t] for t in rest))
                expected = min(expected, after)
    if shanten(c, k) != expected:
        bad.append(f"14-form +{NAMES[drawn]}: {shanten(c, k)} != {expected}: {where}")
    return bad


def check_against_reference(
    count: int, seed: int = 0, full: bool = True
) -> tuple[Counter[str], list[str]]:
    """Check ``count`` deals from each generator; return the deals done per generator and mismatches."""
    rng = random.Random(seed)
    done: Counter[str] = Counter()
    bad: list[str] = []
    for _ in range(count):
        for name, generate in GENERATORS.items():
            bad += check_deal(generate(rng), rng, full)
            done[name] += 1
    return done, bad


@pytest.mark.parametrize("seed", range(4))
def test_against_reference(seed: int) -> None:
    done, bad = check_against_reference(1000, seed=seed)
    assert sum(done.values()) == 6000
    assert bad == []


def test_shanten_against_reference_many() -> None:
    done, bad = check_against_reference(10_000, seed=100, full=False)
    assert sum(done.values()) == 60_000
    assert bad == []


def test_low_shanten_is_covered() -> None:
    """The biased generators do reach ready and one-away hands of every shape."""
    rng = random.Random(7)
    seen: Counter[tuple[str, int]] = Counter()
    for _ in range(300):
        for name, generate in GENERATORS.items():
            tiles, melds = generate(rng)
            c = [0] * 34
            for t in tiles:
                c[t] += 1
            seen[name, shanten(c, len(melds))] += 1
    for name in GENERATORS:
        if name != "uniform":
            assert seen[name, 0] >= 30 and seen[name, 1] >= 30, (name, seen)


def _is_win(tiles: list[int], melds: list[Meld], tile: int) -> bool | None:
    """MahjongGB's fan calculator as a winning-shape oracle; None if it refuses the hand."""
    assert MahjongGB is not None
    try:
        MahjongGB.MahjongFanCalculator(
            pack=tuple(pack_of(m) for m in melds),
            hand=tuple(NAMES[t] for t in tiles),
            winTile=NAMES[tile],
            flowerCount=0,
            isSelfDrawn=False,
            is4thTile=False,
            isAboutKong=False,
            isWallLast=False,
            seatWind=0,
            prevalentWind=0,
        )
    except TypeError as error:
        if "NOT_WIN" in str(error):
            return False
        return None
    return True


def test_waits_against_fan_calculator() -> None:
    """Every drawable kind wins in the reference fan calculator exactly when it is a wait."""
    rng = random.Random(11)
    checked = 0
    for _ in range(1000):
        for generate in GENERATORS.values():
            tiles, melds = generate(rng)
            c = [0] * 34
            for t in tiles:
                c[t] += 1
            if shanten(c, len(melds)) != 0:
                continue
            w = waits(c, len(melds))
            for t in range(34):
                win = _is_win(tiles, melds, t)
                if win is not None:
                    assert win == (t in w), (names(tiles), melds, NAMES[t], names(w))
            checked += 1
    assert checked >= 1500


def test_reference_quirks() -> None:
    """The conventions the module documents, as the reference shows them."""
    assert MahjongGB is not None
    assert MahjongGB.SevenPairsShanten(botzone("1111m11223344p5p")) == (0, ("B5",))
    assert seven_pairs_shanten(counts_of("1111m11223344p5p")) == 0
    assert MahjongGB.RegularShanten(botzone("1111m258p"))[0] == 2
    assert "W1" not in MahjongGB.RegularShanten(botzone("1111m258p"))[1]
    assert MahjongGB.RegularShanten(("W4",) * 4) == (0, ("W4",))
    assert MahjongGB.RegularShanten(("W4",) * 4 + ("W5",) * 3) == (0, ("W3", "W4", "W6"))
    assert waits(counts_of("4444555m"), 2) == [2, 3, 5]


# ---------------------------------------------------------------------------------------------
# 3. Properties
# ---------------------------------------------------------------------------------------------


@st.composite
def hands13(draw: st.DrawFn) -> tuple[list[int], int]:
    """A 13-form hand drawn from the 136-tile wall, with 0-4 melds."""
    melds = draw(st.sampled_from((0, 0, 0, 1, 2, 3, 4)))
    n = 13 - 3 * melds
    style = draw(st.sampled_from(("wall", "suit", "knitted")))
    pool: Sequence[int]
    if style == "wall":
        pool = range(136)
    elif style == "suit":
        suit = draw(st.integers(0, 3))
        pool = range(36 * suit, 36 * suit + 36) if suit < 3 else range(108, 136)
    else:
        perm = draw(st.sampled_from(PERMS))
        kinds = [9 * s + j + 3 * step for s, j in enumerate(perm) for step in range(3)]
        pool = [4 * t + i for t in [*kinds, *range(27, 34)] for i in range(4)]
    picks = draw(st.lists(st.sampled_from(list(pool)), min_size=n, max_size=n, unique=True))
    c = [0] * 34
    for p in picks:
        c[p // 4] += 1
    return c, melds


def _with(c: list[int], t: int) -> list[int]:
    out = list(c)
    out[t] += 1
    return out


@settings(max_examples=300, deadline=None)
@given(hands13())
def test_waits_are_exactly_the_completing_tiles(hand: tuple[list[int], int]) -> None:
    c, k = hand
    s = shanten(c, k)
    assert s >= 0
    w = waits(c, k)
    assert w == [t for t in range(34) if shanten(_with(c, t), k) == -1]
    assert (s == 0) == bool(w)


@settings(max_examples=300, deadline=None)
@given(hands13())
def test_useful_tiles_lower_the_shanten(hand: tuple[list[int], int]) -> None:
    c, k = hand
    s = shanten(c, k)
    useful = useful_tiles(c, k)
    for t in range(34):
        after = shanten(_with(c, t), k)
        assert s - 1 <= after <= s
        if c[t] < 4:
            assert (t in useful) == (after == s - 1)
        elif t in useful:
            assert after == s - 1


@settings(max_examples=200, deadline=None)
@given(hands13(), st.integers(0, 33))
def test_fourteen_form_and_discards(hand: tuple[list[int], int], drawn: int) -> None:
    c, k = hand
    if c[drawn] == 4:
        return
    c14 = _with(c, drawn)
    s14 = shanten(c14, k)
    options = discard_options(c14, k)
    assert len(options) == sum(1 for n in c14 if n)
    for option in options:
        rest = list(c14)
        rest[option.tile] -= 1
        assert option.shanten == shanten(rest, k)
        assert list(option.useful) == useful_tiles(rest, k)
    best = min(o.shanten for o in options)
    assert s14 == (-1 if drawn in waits(c, k) else best)


@settings(max_examples=300, deadline=None)
@given(hands13(), st.permutations((0, 1, 2)), st.booleans(), st.permutations(range(7)))
def test_symmetries(
    hand: tuple[list[int], int], suits: list[int], mirror: bool, honors: list[int]
) -> None:
    """Renaming suits, reading ranks 9..1 or permuting honours changes no shanten or wait."""
    c, k = hand

    def move(t: int) -> int:
        if t >= 27:
            return 27 + honors[t - 27]
        rank = 8 - t % 9 if mirror else t % 9
        return 9 * suits[t // 9] + rank

    moved = [0] * 34
    for t in range(34):
        moved[move(t)] = c[t]
    assert shanten(moved, k) == shanten(c, k)
    assert regular_shanten(moved, k) == regular_shanten(c, k)
    assert waits(moved, k) == sorted(move(t) for t in waits(c, k))
    if k <= 1:  # 147/258/369 read backwards are 369/258/147: knitted shapes are symmetric too
        assert knitted_straight_shanten(moved, k) == knitted_straight_shanten(c, k)
    if k == 0:
        assert seven_pairs_shanten(moved) == seven_pairs_shanten(c)
        assert honors_and_knitted_shanten(moved) == honors_and_knitted_shanten(c)


@settings(max_examples=200, deadline=None)
@given(hands13(), st.randoms(use_true_random=False))
def test_order_independence_and_shape_minimum(
    hand: tuple[list[int], int], rnd: random.Random
) -> None:
    c, k = hand
    tiles = [TILES[t] for t in range(34) for _ in range(c[t])]
    rnd.shuffle(tiles)
    parsed = parse_hand("[F1F1F1]" * k + "".join(str(t) for t in tiles))
    assert hand_shanten(parsed) == shanten(c, k)
    assert [int(t) for t in hand_waits(parsed)] == waits(c, k)
    per_shape = [regular_shanten(c, k)]
    if k <= 1:
        per_shape.append(knitted_straight_shanten(c, k))
    if k == 0:
        per_shape += [seven_pairs_shanten(c), thirteen_orphans_shanten(c)]
        per_shape.append(honors_and_knitted_shanten(c))
    assert shanten(c, k) == min(per_shape)
    assert shanten(tuple(c), k) == shanten(bytes(c), k) == shanten(c, k)


def test_benchmark_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parents[1] / "benchmarks" / "bench_shanten.py"
    spec = importlib.util.spec_from_file_location("bench_shanten", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["-n", "300"])
    out = capsys.readouterr().out
    assert "ratio" in out
