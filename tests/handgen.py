"""Seeded generator of valid, winning MCR hands in the ``guobiao.cli.jsonio`` input format.

Every hand is built from a winning shape (4 sets + a pair, seven pairs, thirteen orphans, honours
and knitted tiles, knitted straight + set + pair, nine gates), so the reference calculator always
finds a shape. Hands are real and consistent:

- at most 4 of any tile, counting standing tiles, the winning tile and melds (a kong holds 4);
- 13 - 3 * melds standing tiles plus the winning tile (kongs count as 3 for this);
- the winning tile belongs to the concealed part of the shape, never to a declared meld;
- exposed chows are offered by the previous player (``from`` 3), pungs and kongs by any seat,
  concealed kongs by nobody (``from`` null);
- ``kong`` when self-drawn (杠上开花) needs a kong among the melds; ``kong`` on a discard
  (抢杠和) needs the winning tile held nowhere else in the hand, and is never combined with
  ``fourth_tile`` or ``last_tile``;
- ``fourth_tile`` (和绝张) only when no other copy of the winning tile stands in the hand
  (copies in the hand's own exposed melds are fine);
- flowers 0-8.

Hands need not reach the 8-point minimum. Besides plain random hands, biased *families* reach
every one of the 81 fans (and 明暗杠): see :data:`FAMILIES`. ``generate(n, seed)`` mixes the
families; ``generate_family(name, n, seed)`` draws from one. Tile indices follow
``guobiao.core.tiles``: W1-9 = 0-8, B1-9 = 9-17, T1-9 = 18-26, F1-4 = 27-30, J1-3 = 31-33.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "FAMILIES",
    "TILE_NAMES",
    "describe",
    "generate",
    "generate_family",
    "generate_tagged",
    "generate_with_specials",
    "hand_issues",
]

TILE_NAMES: tuple[str, ...] = (
    *(f"{s}{r}" for s in "WBT" for r in range(1, 10)),
    *(f"F{r}" for r in range(1, 5)),
    *(f"J{r}" for r in range(1, 4)),
)
TILE_INDEX: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}
WIND_LETTERS = "ESWN"

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
HONOURS = WINDS + DRAGONS
SUITED = tuple(range(27))
ALL_TILES = tuple(range(34))
TERMINALS = tuple(s * 9 + r for s in range(3) for r in (0, 8))
ORPHANS = TERMINALS + HONOURS
GREEN = (19, 20, 21, 23, 25, 32)  # T2 T3 T4 T6 T8 J2(发)
REVERSIBLE = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33)  # B1234589 T245689 J3(白)

Set = tuple[str, int]  # ("chow", lowest tile) or ("pung", tile)


def tile(suit: int, rank: int) -> int:
    """Index of a suited tile: suit 0 W, 1 B, 2 T; rank 1-9."""
    return suit * 9 + rank - 1


def _rank(t: int) -> int:
    return t % 9 + 1


def _set_tiles(s: Set) -> list[int]:
    kind, t = s
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


# ---------------------------------------------------------------------------------------------
# Shapes produced by the families, and their assembly into hands


@dataclass
class Regular:
    """4 sets + a pair, and how to declare them."""

    sets: list[Set]
    pair: int
    declared: int | None = None  # number of declared melds (incl. concealed kongs); None = random
    kongs: tuple[int, int] | None = None  # forced (melded kongs, concealed kongs)
    exposed_only: bool = False  # no concealed kongs (全求人)
    kong_p: float = 0.12  # chance that a declared pung is a kong
    self_drawn: bool | None = None


@dataclass
class Special:
    """A 14-tile fully concealed hand (seven pairs, 十三幺, 全不靠, 九莲宝灯)."""

    tiles: list[int]
    win: int | None = None  # forced winning tile


@dataclass
class Knitted:
    """组合龙 (9 knitted tiles) + one set + a pair; the set may be declared."""

    knitted: list[int]
    extra: Set
    pair: int
    flags: dict[str, Any] = field(default_factory=dict)


Shape = Regular | Special | Knitted


def _random_set(rng: random.Random, chow_p: float = 0.55) -> Set:
    if rng.random() < chow_p:
        return ("chow", tile(rng.randrange(3), rng.randint(1, 7)))
    return ("pung", rng.choice(ALL_TILES))


def _meld_dict(kind: str, t: int, rng: random.Random) -> dict[str, Any]:
    if kind == "chow":
        return {"type": "chow", "tiles": [TILE_NAMES[x] for x in (t, t + 1, t + 2)], "from": 3}
    if kind == "concealed_kong":
        return {"type": kind, "tiles": [TILE_NAMES[t]] * 4, "from": None}
    size = 4 if kind == "kong" else 3
    return {"type": kind, "tiles": [TILE_NAMES[t]] * size, "from": rng.randint(1, 3)}


def _meld_tiles(meld: Mapping[str, Any]) -> list[int]:
    return [TILE_INDEX[x] for x in meld["tiles"]]


def _assemble_regular(rng: random.Random, shape: Regular) -> dict[str, Any] | None:
    sets = list(shape.sets)
    order = list(range(4))
    rng.shuffle(order)
    kinds: dict[int, str] = {}  # set index -> meld kind
    if shape.kongs is not None:
        n_mk, n_ck = shape.kongs
        pungs = [i for i in order if sets[i][0] == "pung"]
        if len(pungs) < n_mk + n_ck:
            return None
        for i in pungs[:n_mk]:
            kinds[i] = "kong"
        for i in pungs[n_mk : n_mk + n_ck]:
            kinds[i] = "concealed_kong"
    rest = [i for i in order if i not in kinds]
    if shape.declared is None:
        extra = rng.choices(range(len(rest) + 1), weights=[4, 3, 3, 2, 2][: len(rest) + 1])[0]
    else:
        extra = max(0, min(len(rest), shape.declared - len(kinds)))
    for i in rest[:extra]:
        kind, _ = sets[i]
        if kind == "chow":
            kinds[i] = "chow"
        elif rng.random() < shape.kong_p:
            concealed = not shape.exposed_only and rng.random() < 0.4
            kinds[i] = "concealed_kong" if concealed else "kong"
        else:
            kinds[i] = "pung"
    if shape.declared is None and not shape.exposed_only:
        # an occasional concealed kong among the otherwise concealed pungs
        for i in rest[extra:]:
            if sets[i][0] == "pung" and rng.random() < 0.04:
                kinds[i] = "concealed_kong"
    melds = [_meld_dict(kinds[i], sets[i][1], rng) for i in sorted(kinds)]
    standing = [shape.pair, shape.pair]
    for i in range(4):
        if i not in kinds:
            standing += _set_tiles(sets[i])
    win = rng.choice(standing)
    standing.remove(win)
    return _finish(rng, standing, melds, win, shape.self_drawn)


def _assemble_special(rng: random.Random, shape: Special) -> dict[str, Any] | None:
    standing = list(shape.tiles)
    win = shape.win if shape.win is not None else rng.choice(standing)
    standing.remove(win)
    return _finish(rng, standing, [], win, None)


def _assemble_knitted(rng: random.Random, shape: Knitted) -> dict[str, Any] | None:
    standing = [*shape.knitted, shape.pair, shape.pair]
    melds: list[dict[str, Any]] = []
    kind, t = shape.extra
    if rng.random() < 0.4:
        if kind == "chow":
            melds.append(_meld_dict("chow", t, rng))
        else:
            melds.append(_meld_dict(rng.choice(["pung", "pung", "kong", "concealed_kong"]), t, rng))
    else:
        standing += _set_tiles(shape.extra)
    win = rng.choice(standing)
    standing.remove(win)
    return _finish(rng, standing, melds, win, None)


def _finish(
    rng: random.Random,
    standing: list[int],
    melds: list[dict[str, Any]],
    win: int,
    self_drawn: bool | None,
) -> dict[str, Any] | None:
    counts = Counter(standing)
    counts[win] += 1
    for meld in melds:
        counts.update(_meld_tiles(meld))
    if max(counts.values()) > 4:
        return None
    in_standing = standing.count(win)
    has_kong = any(m["type"] in ("kong", "concealed_kong") for m in melds)
    if self_drawn is None:
        self_drawn = rng.random() < 0.45
    if self_drawn:
        kong = has_kong and rng.random() < 0.35
    else:
        kong = counts[win] == 1 and rng.random() < 0.2
    robbing = kong and not self_drawn
    last_tile = not robbing and rng.random() < 0.08
    fourth_tile = not robbing and in_standing == 0 and rng.random() < 0.2
    flowers = 0 if rng.random() < 0.7 else rng.randint(1, 8)
    return {
        "concealed": [TILE_NAMES[t] for t in sorted(standing)],
        "melds": melds,
        "win_tile": TILE_NAMES[win],
        "self_drawn": self_drawn,
        "fourth_tile": fourth_tile,
        "kong": kong,
        "last_tile": last_tile,
        "seat_wind": rng.choice(WIND_LETTERS),
        "round_wind": rng.choice(WIND_LETTERS),
        "flowers": flowers,
    }


def assemble(rng: random.Random, shape: Shape) -> dict[str, Any] | None:
    """Turn a shape into a hand dict, or None when it would need a fifth copy of a tile."""
    if isinstance(shape, Regular):
        return _assemble_regular(rng, shape)
    if isinstance(shape, Special):
        return _assemble_special(rng, shape)
    return _assemble_knitted(rng, shape)


# ---------------------------------------------------------------------------------------------
# Families


def _fill(rng: random.Random, sets: list[Set], chow_p: float = 0.55) -> list[Set]:
    while len(sets) < 4:
        sets.append(_random_set(rng, chow_p))
    rng.shuffle(sets)
    return sets


def fam_random(rng: random.Random) -> Shape:
    return Regular(_fill(rng, []), rng.choice(ALL_TILES))


def fam_open(rng: random.Random) -> Shape:
    """Open hands won on a discard, mostly simples and chows: 无番和 and the small fans."""
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.75:
            sets.append(("chow", tile(rng.randrange(3), rng.randint(1, 7))))
        else:
            sets.append(("pung", tile(rng.randrange(3), rng.randint(2, 8))))
    pair = rng.choice(ALL_TILES) if rng.random() < 0.5 else rng.choice(HONOURS)
    return Regular(sets, pair, declared=rng.randint(1, 4), self_drawn=rng.random() < 0.2)


def fam_chicken(rng: random.Random) -> Shape:
    """Aimed at 无番和: unrelated chows in three suits, a simple pung, an honour pair, open."""
    suits = [0, 1, 2]
    rng.shuffle(suits)
    starts = rng.sample(range(1, 8), 3)
    sets: list[Set] = [("chow", tile(s, r)) for s, r in zip(suits, starts, strict=True)]
    k = rng.randrange(3)  # the pung's suit; keep it off that suit's chow (四归一)
    ranks = [r for r in range(2, 9) if not starts[k] <= r <= starts[k] + 2]
    sets.append(("pung", tile(suits[k], rng.choice(ranks))))
    rng.shuffle(sets)
    return Regular(sets, rng.choice(HONOURS), declared=rng.randint(1, 3), self_drawn=False)


def fam_concealed(rng: random.Random) -> Shape:
    """No declared melds: 门前清, 不求人, 平和 and the waits."""
    sets = _fill(rng, [], chow_p=0.8)
    pair = rng.choice(SUITED) if rng.random() < 0.8 else rng.choice(HONOURS)
    return Regular(sets, pair, declared=0)


def fam_one_suit(rng: random.Random) -> Shape:
    s = rng.randrange(3)
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.6:
            sets.append(("chow", tile(s, rng.randint(1, 7))))
        else:
            sets.append(("pung", tile(s, rng.randint(1, 9))))
    return Regular(sets, tile(s, rng.randint(1, 9)))


def fam_clustered(rng: random.Random) -> Shape:
    """Sets packed into a narrow rank window of one or two suits: many decompositions (111222333
    as pungs or chows, 一色三同顺 against 一色三节高 ...), multi-sided waits, four of a tile."""
    suits = rng.sample(range(3), rng.choice((1, 1, 2)))
    lo = rng.randint(1, 6)
    hi = min(9, lo + rng.randint(2, 4))
    sets: list[Set] = []
    for _ in range(4):
        s = rng.choice(suits)
        if rng.random() < 0.6:
            sets.append(("chow", tile(s, rng.randint(lo, hi - 2))))
        else:
            sets.append(("pung", tile(s, rng.randint(lo, hi))))
    return Regular(sets, tile(rng.choice(suits), rng.randint(lo, hi)))


def fam_half_flush(rng: random.Random) -> Shape:
    s = rng.randrange(3)
    sets: list[Set] = []
    n_honour = rng.randint(0, 2)
    for _ in range(n_honour):
        sets.append(("pung", rng.choice(HONOURS)))
    while len(sets) < 4:
        if rng.random() < 0.6:
            sets.append(("chow", tile(s, rng.randint(1, 7))))
        else:
            sets.append(("pung", tile(s, rng.randint(1, 9))))
    rng.shuffle(sets)
    pair = (
        rng.choice(HONOURS) if n_honour == 0 or rng.random() < 0.5 else tile(s, rng.randint(1, 9))
    )
    return Regular(sets, pair)


def fam_honours(rng: random.Random) -> Shape:
    picks = rng.sample(HONOURS, 5)
    return Regular([("pung", t) for t in picks[:4]], picks[4])


def fam_winds(rng: random.Random) -> Shape:
    variant = rng.choice(["big", "little", "three"])
    winds = list(WINDS)
    rng.shuffle(winds)
    if variant == "big":
        return Regular([("pung", w) for w in winds], rng.choice(ALL_TILES[:27] + DRAGONS))
    if variant == "little":
        sets: list[Set] = [("pung", w) for w in winds[:3]]
        return Regular(_fill(rng, sets), winds[3])
    sets = [("pung", w) for w in winds[:3]]
    return Regular(_fill(rng, sets), rng.choice(ALL_TILES[:27] + DRAGONS))


def fam_dragons(rng: random.Random) -> Shape:
    variant = rng.choice(["big", "little", "two", "one"])
    dragons = list(DRAGONS)
    rng.shuffle(dragons)
    others = ALL_TILES[:27] + WINDS
    if variant == "big":
        return Regular(_fill(rng, [("pung", d) for d in dragons]), rng.choice(others))
    if variant == "little":
        return Regular(_fill(rng, [("pung", d) for d in dragons[:2]]), dragons[2])
    if variant == "two":
        return Regular(_fill(rng, [("pung", d) for d in dragons[:2]]), rng.choice(others))
    return Regular(_fill(rng, [("pung", dragons[0])]), rng.choice(others))


def fam_terminals(rng: random.Random) -> Shape:
    variant = rng.choice(["all_terminals", "terminals_honours", "outside"])
    if variant == "all_terminals":
        picks = rng.sample(TERMINALS, 5)
        return Regular([("pung", t) for t in picks[:4]], picks[4])
    if variant == "terminals_honours":
        picks = rng.sample(ORPHANS, 5)
        return Regular([("pung", t) for t in picks[:4]], picks[4])
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.6:
            sets.append(("chow", tile(rng.randrange(3), rng.choice((1, 7)))))
        else:
            sets.append(("pung", rng.choice(ORPHANS)))
    return Regular(sets, rng.choice(ORPHANS))


def fam_green(rng: random.Random) -> Shape:
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.35:
            sets.append(("chow", tile(2, 2)))  # T234
        else:
            sets.append(("pung", rng.choice(GREEN)))
    return Regular(sets, rng.choice(GREEN))


def fam_reversible(rng: random.Random) -> Shape:
    chows = (tile(1, 1), tile(1, 2), tile(1, 3), tile(2, 4))  # B123 B234 B345 T456
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.5:
            sets.append(("chow", rng.choice(chows)))
        else:
            sets.append(("pung", rng.choice(REVERSIBLE)))
    return Regular(sets, rng.choice(REVERSIBLE))


def fam_rank_range(rng: random.Random) -> Shape:
    """全大 全中 全小 大于五 小于五 (and 全带五-like overlaps)."""
    lo, hi = rng.choice([(7, 9), (4, 6), (1, 3), (6, 9), (1, 4)])
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.6:
            sets.append(("chow", tile(rng.randrange(3), rng.randint(lo, hi - 2))))
        else:
            sets.append(("pung", tile(rng.randrange(3), rng.randint(lo, hi))))
    return Regular(sets, tile(rng.randrange(3), rng.randint(lo, hi)))


def fam_all_fives(rng: random.Random) -> Shape:
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.7:
            sets.append(("chow", tile(rng.randrange(3), rng.randint(3, 5))))
        else:
            sets.append(("pung", tile(rng.randrange(3), 5)))
    return Regular(sets, tile(rng.randrange(3), 5))


def fam_even_pungs(rng: random.Random) -> Shape:
    evens = [tile(s, r) for s in range(3) for r in (2, 4, 6, 8)]
    picks = rng.sample(evens, 5)
    return Regular([("pung", t) for t in picks[:4]], picks[4])


def fam_pung_patterns(rng: random.Random) -> Shape:
    variant = rng.choice(
        ["four_shifted", "three_shifted", "mixed_shifted", "triple", "double", "all"]
    )
    s = rng.randrange(3)
    suits = [0, 1, 2]
    rng.shuffle(suits)
    sets: list[Set]
    if variant == "four_shifted":
        r = rng.randint(1, 6)
        sets = [("pung", tile(s, r + k)) for k in range(4)]
    elif variant == "three_shifted":
        r = rng.randint(1, 7)
        sets = _fill(rng, [("pung", tile(s, r + k)) for k in range(3)], chow_p=0.4)
    elif variant == "mixed_shifted":
        r = rng.randint(1, 7)
        sets = _fill(rng, [("pung", tile(suits[k], r + k)) for k in range(3)], chow_p=0.4)
    elif variant == "triple":
        r = rng.randint(1, 9)
        sets = _fill(rng, [("pung", tile(k, r)) for k in range(3)], chow_p=0.4)
    elif variant == "double":
        r = rng.randint(1, 9)
        sets = _fill(rng, [("pung", tile(k, r)) for k in suits[:2]], chow_p=0.4)
    else:
        sets = _fill(rng, [], chow_p=0.0)
    return Regular(sets, rng.choice(ALL_TILES))


def fam_chow_patterns(rng: random.Random) -> Shape:
    variant = rng.choice(
        [
            "quadruple",
            "pure_triple",
            "pure_double",
            "four_shifted_1",
            "four_shifted_2",
            "pure_shifted",
            "mixed_shifted",
            "mixed_triple",
            "mixed_double",
            "pure_straight",
            "mixed_straight",
            "short_straight",
            "two_terminal",
            "pure_terminal_chows",
            "three_suited_terminal_chows",
        ]
    )
    s = rng.randrange(3)
    suits = [0, 1, 2]
    rng.shuffle(suits)
    pair = rng.choice(ALL_TILES)
    sets: list[Set]
    if variant == "quadruple":
        sets = [("chow", tile(s, rng.randint(1, 7)))] * 4
    elif variant == "pure_triple":
        sets = [("chow", tile(s, rng.randint(1, 7)))] * 3
    elif variant == "pure_double":
        sets = [("chow", tile(s, rng.randint(1, 7)))] * 2
    elif variant == "four_shifted_1":
        r = rng.randint(1, 4)
        sets = [("chow", tile(s, r + k)) for k in range(4)]
    elif variant == "four_shifted_2":
        sets = [("chow", tile(s, 1 + 2 * k)) for k in range(4)]
    elif variant == "pure_shifted":
        step = rng.choice((1, 2))
        r = rng.randint(1, 7 - 2 * step)
        sets = [("chow", tile(s, r + step * k)) for k in range(3)]
    elif variant == "mixed_shifted":
        r = rng.randint(1, 5)
        sets = [("chow", tile(suits[k], r + k)) for k in range(3)]
    elif variant == "mixed_triple":
        r = rng.randint(1, 7)
        sets = [("chow", tile(k, r)) for k in range(3)]
    elif variant == "mixed_double":
        r = rng.randint(1, 7)
        sets = [("chow", tile(k, r)) for k in suits[:2]]
    elif variant == "pure_straight":
        sets = [("chow", tile(s, r)) for r in (1, 4, 7)]
    elif variant == "mixed_straight":
        sets = [("chow", tile(suits[k], 1 + 3 * k)) for k in range(3)]
    elif variant == "short_straight":
        r = rng.randint(1, 4)
        sets = [("chow", tile(s, r)), ("chow", tile(s, r + 3))]
    elif variant == "two_terminal":
        sets = [("chow", tile(s, 1)), ("chow", tile(s, 7))]
    elif variant == "pure_terminal_chows":
        sets = [
            ("chow", tile(s, 1)),
            ("chow", tile(s, 1)),
            ("chow", tile(s, 7)),
            ("chow", tile(s, 7)),
        ]
        pair = tile(s, 5)
    else:
        a, b, c = suits
        sets = [
            ("chow", tile(a, 1)),
            ("chow", tile(a, 7)),
            ("chow", tile(b, 1)),
            ("chow", tile(b, 7)),
        ]
        pair = tile(c, 5)
    if len(sets) < 4 and rng.random() < 0.5:
        pair = rng.choice(SUITED)  # keep 平和 and friends in play
    return Regular(_fill(rng, list(sets), chow_p=0.7), pair)


_KONG_MIXES = [(mk, ck) for n in range(1, 5) for mk in range(n + 1) for ck in [n - mk]]


def fam_kongs(rng: random.Random) -> Shape:
    n_mk, n_ck = rng.choice(_KONG_MIXES)
    n = n_mk + n_ck
    sets: list[Set] = [("pung", t) for t in rng.sample(ALL_TILES, n)]
    sets = _fill(rng, sets)
    declared = None if rng.random() < 0.5 else n
    return Regular(sets, rng.choice(ALL_TILES), declared=declared, kongs=(n_mk, n_ck))


def fam_concealed_pungs(rng: random.Random) -> Shape:
    n = rng.choice((2, 3, 4, 4))
    sets = _fill(rng, [("pung", t) for t in rng.sample(ALL_TILES, n)], chow_p=1.0)
    n_ck = rng.choice((0, 0, 0, 1, 2))
    return Regular(
        sets,
        rng.choice(ALL_TILES),
        declared=n_ck,
        kongs=(0, n_ck),
        self_drawn=rng.random() < 0.5,
    )


def fam_tile_hog(rng: random.Random) -> Shape:
    s = rng.randrange(3)
    r = rng.randint(1, 7)
    if rng.random() < 0.5:
        x = tile(s, r + rng.randint(0, 2))
        sets = _fill(rng, [("pung", x), ("chow", tile(s, r))])
        return Regular(sets, rng.choice(ALL_TILES), kong_p=0.0)
    sets = _fill(rng, [("chow", tile(s, r)), ("chow", tile(s, r))])
    return Regular(sets, tile(s, r + rng.randint(0, 2)), kong_p=0.0)


def fam_melded_hand(rng: random.Random) -> Shape:
    return Regular(
        _fill(rng, []), rng.choice(ALL_TILES), declared=4, exposed_only=True, self_drawn=False
    )


def fam_all_types(rng: random.Random) -> Shape:
    parts: list[Callable[[], Set]] = [
        lambda: _random_suited_set(rng, 0),
        lambda: _random_suited_set(rng, 1),
        lambda: _random_suited_set(rng, 2),
        lambda: ("pung", rng.choice(WINDS)),
        lambda: ("pung", rng.choice(DRAGONS)),
    ]
    pair_kind = rng.randrange(5)
    sets = [make() for i, make in enumerate(parts) if i != pair_kind]
    pair = parts[pair_kind]()[1]
    if pair_kind < 3:
        pair = tile(pair_kind, rng.randint(1, 9))
    rng.shuffle(sets)
    return Regular(sets, pair)


def _random_suited_set(rng: random.Random, s: int) -> Set:
    if rng.random() < 0.6:
        return ("chow", tile(s, rng.randint(1, 7)))
    return ("pung", tile(s, rng.randint(1, 9)))


_PAIR_POOLS: list[tuple[int, ...]] = [
    ALL_TILES,
    HONOURS,
    ORPHANS,
    GREEN,
    REVERSIBLE,
    tuple(t for t in SUITED if _rank(t) >= 6),
    tuple(t for t in SUITED if _rank(t) <= 4),
    tuple(t for t in SUITED if 2 <= _rank(t) <= 8),
]


def fam_seven_pairs(rng: random.Random) -> Shape:
    choice = rng.randrange(len(_PAIR_POOLS) + 2)
    if choice < len(_PAIR_POOLS):
        pool = _PAIR_POOLS[choice]
    elif choice == len(_PAIR_POOLS):
        s = rng.randrange(3)
        pool = tuple(range(s * 9, s * 9 + 9))
    else:
        s = rng.randrange(3)
        pool = tuple(range(s * 9, s * 9 + 9)) + HONOURS
    if len(pool) < 7:
        return fam_seven_pairs(rng)
    pairs = rng.sample(pool, 7)
    if rng.random() < 0.2:
        pairs[6] = pairs[0]  # four of a kind as two pairs: 四归一
    return Special([t for p in pairs for t in (p, p)])


def fam_shifted_pairs(rng: random.Random) -> Shape:
    s = rng.randrange(3)
    r = rng.randint(1, 3)
    return Special([tile(s, r + k) for k in range(7) for _ in range(2)])


def fam_thirteen_orphans(rng: random.Random) -> Shape:
    return Special([*ORPHANS, rng.choice(ORPHANS)])


def _knitted_nine(rng: random.Random) -> list[int]:
    suits = [0, 1, 2]
    rng.shuffle(suits)
    return [tile(suits[k], r) for k in range(3) for r in (1 + k, 4 + k, 7 + k)]


def fam_knitted_tiles(rng: random.Random) -> Shape:
    """全不靠 and 七星不靠 (14 distinct tiles from a knitted sequence plus honours)."""
    nine = _knitted_nine(rng)
    if rng.random() < 0.4:
        chosen = rng.sample(nine, 7) + list(HONOURS)
    else:
        honours = rng.sample(HONOURS, rng.randint(5, 6))
        chosen = rng.sample(nine, 14 - len(honours)) + honours
    return Special(chosen)


def fam_knitted_straight(rng: random.Random) -> Shape:
    return Knitted(_knitted_nine(rng), _random_set(rng), rng.choice(ALL_TILES))


def fam_nine_gates(rng: random.Random) -> Shape:
    s = rng.randrange(3)
    base = [tile(s, 1)] * 3 + [tile(s, r) for r in range(2, 9)] + [tile(s, 9)] * 3
    win = tile(s, rng.randint(1, 9))
    return Special([*base, win], win=win)


FAMILIES: dict[str, tuple[Callable[[random.Random], Shape], float]] = {
    "random": (fam_random, 8.0),
    "open": (fam_open, 4.0),
    "chicken": (fam_chicken, 0.7),
    "concealed": (fam_concealed, 3.0),
    "one_suit": (fam_one_suit, 2.0),
    "clustered": (fam_clustered, 2.0),
    "half_flush": (fam_half_flush, 1.5),
    "honours": (fam_honours, 0.7),
    "winds": (fam_winds, 1.0),
    "dragons": (fam_dragons, 1.0),
    "terminals": (fam_terminals, 1.0),
    "green": (fam_green, 0.5),
    "reversible": (fam_reversible, 0.7),
    "rank_range": (fam_rank_range, 1.5),
    "all_fives": (fam_all_fives, 0.7),
    "even_pungs": (fam_even_pungs, 0.5),
    "pung_patterns": (fam_pung_patterns, 1.5),
    "chow_patterns": (fam_chow_patterns, 3.0),
    "kongs": (fam_kongs, 1.5),
    "concealed_pungs": (fam_concealed_pungs, 1.0),
    "tile_hog": (fam_tile_hog, 0.7),
    "melded_hand": (fam_melded_hand, 1.0),
    "all_types": (fam_all_types, 1.0),
    "seven_pairs": (fam_seven_pairs, 1.5),
    "shifted_pairs": (fam_shifted_pairs, 0.3),
    "thirteen_orphans": (fam_thirteen_orphans, 0.3),
    "knitted_tiles": (fam_knitted_tiles, 0.8),
    "knitted_straight": (fam_knitted_straight, 0.6),
    "nine_gates": (fam_nine_gates, 0.3),
}
"""name -> (shape maker, weight in :func:`generate`)."""


def _one(rng: random.Random, name: str) -> dict[str, Any]:
    make = FAMILIES[name][0]
    for _ in range(1000):
        hand = assemble(rng, make(rng))
        if hand is not None:
            return hand
    raise RuntimeError(f"family {name!r} failed to produce a hand")  # pragma: no cover


def generate_tagged(n: int, seed: int = 0) -> Iterator[tuple[str, dict[str, Any]]]:
    """``n`` (family name, hand) pairs from the weighted mix of all families."""
    rng = random.Random(seed)
    names = list(FAMILIES)
    weights = [FAMILIES[k][1] for k in names]
    for _ in range(n):
        name = rng.choices(names, weights)[0]
        yield name, _one(rng, name)


def generate(n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """``n`` valid winning hands from the weighted mix of all families."""
    for _, hand in generate_tagged(n, seed):
        yield hand


def generate_family(name: str, n: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """``n`` valid winning hands from one family of :data:`FAMILIES`."""
    if name not in FAMILIES:
        raise KeyError(f"no family {name!r}; families: {', '.join(FAMILIES)}")
    rng = random.Random(seed)
    for _ in range(n):
        yield _one(rng, name)


SPECIAL_FAMILIES = (
    "seven_pairs",
    "shifted_pairs",
    "thirteen_orphans",
    "knitted_tiles",
    "knitted_straight",
    "nine_gates",
)
"""The families of the special shapes (七对 连七对 十三幺 全不靠 组合龙 九莲宝灯), rare in the mix."""


def generate_with_specials(n: int, per_family: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` hands of the weighted mix, then ``per_family`` of each special shape's family."""
    hands = list(generate(n, seed))
    for i, family in enumerate(SPECIAL_FAMILIES):
        hands += generate_family(family, per_family, seed + i)
    return hands


# ---------------------------------------------------------------------------------------------
# Independent checks and display


def hand_issues(obj: Mapping[str, Any]) -> list[str]:
    """The generator's own consistency rules, checked on a hand dict; [] when the hand is legal."""
    issues: list[str] = []
    try:
        standing = [TILE_INDEX[t] for t in obj["concealed"]]
        win = TILE_INDEX[obj["win_tile"]]
        melds: Sequence[Mapping[str, Any]] = obj["melds"]
        meld_tiles = [_meld_tiles(m) for m in melds]
    except (KeyError, TypeError) as exc:
        return [f"malformed: {exc!r}"]
    if len(standing) + 3 * len(melds) != 13:
        issues.append("tile count")
    counts = Counter(standing)
    counts[win] += 1
    for tiles in meld_tiles:
        counts.update(tiles)
    if max(counts.values()) > 4:
        issues.append("more than 4 of a tile")
    for meld, tiles in zip(melds, meld_tiles, strict=True):
        kind = meld["type"]
        if kind == "chow":
            ok = len(tiles) == 3 and tiles[0] < 27 and tiles == [tiles[0] + i for i in range(3)]
            ok = ok and _rank(tiles[0]) <= 7 and meld.get("from") == 3
        elif kind == "pung":
            ok = len(tiles) == 3 and len(set(tiles)) == 1 and meld.get("from") in (1, 2, 3)
        elif kind == "kong":
            ok = len(tiles) == 4 and len(set(tiles)) == 1 and meld.get("from") in (1, 2, 3)
        elif kind == "concealed_kong":
            ok = len(tiles) == 4 and len(set(tiles)) == 1 and meld.get("from") is None
        else:
            ok = False
        if not ok:
            issues.append(f"bad meld {meld}")
    self_drawn = bool(obj["self_drawn"])
    if obj["kong"]:
        if self_drawn and not any(m["type"] in ("kong", "concealed_kong") for m in melds):
            issues.append("杠上开花 without a kong")
        if not self_drawn:
            if counts[win] != 1:
                issues.append("抢杠和 while holding the tile")
            if obj["fourth_tile"] or obj["last_tile"]:
                issues.append("抢杠和 with 和绝张 or the last tile")
    if obj["fourth_tile"] and standing.count(win) > 0:
        issues.append("和绝张 with a copy standing in the hand")
    if not 0 <= int(obj["flowers"]) <= 8:
        issues.append("flowers")
    if obj["seat_wind"] not in WIND_LETTERS or obj["round_wind"] not in WIND_LETTERS:
        issues.append("winds")
    return issues


def describe(obj: Mapping[str, Any]) -> str:
    """One readable line: ``[W1W2W3:3](F1F1F1F1) B2B3 +B4 self_drawn kong E/S 2f``."""
    parts: list[str] = []
    for meld in obj["melds"]:
        body = "".join(meld["tiles"])
        if meld["type"] == "concealed_kong":
            parts.append(f"({body})")
        else:
            parts.append(f"[{body}:{meld.get('from')}]")
    parts.append("".join(obj["concealed"]))
    text = "".join(parts) + f" +{obj['win_tile']}"
    flags = [k for k in ("self_drawn", "fourth_tile", "kong", "last_tile") if obj.get(k)]
    text += " " + (",".join(flags) if flags else "discard")
    text += f" seat={obj['seat_wind']} round={obj['round_wind']}"
    if obj.get("flowers"):
        text += f" flowers={obj['flowers']}"
    return text
