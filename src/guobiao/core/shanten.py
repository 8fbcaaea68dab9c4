"""Shanten numbers (上听数), useful tiles (有效牌) and waits (听牌) for every MCR winning shape.

The five shapes of 第八条二 are covered: the regular shape (four sets and a pair), seven pairs (七对),
thirteen orphans (十三幺), honours and knitted tiles (全不靠 / 七星不靠) and the knitted straight
(组合龙 + one set + a pair).

Every function works on *counts*: a sequence of 34 ints, the number of standing (concealed) tiles
of each kind (see :mod:`guobiao.core.tiles` for the indexes), plus ``melds``, the number of declared
melds (a kong counts as one meld). A hand with ``k`` melds stands with ``13 - 3k`` tiles while it
waits (the *13-form*) and ``14 - 3k`` just after drawing (the *14-form*).

Conventions follow the reference calculator (Jeff Wang's ``mahjong-algorithm``, as packaged by
PyMahjongGB): ``-1`` is a complete (winning) 14-form hand, ``0`` is ready (听牌), ``1`` is one tile
from ready, and so on. The regular shanten is the usual formula ``8 - 2*sets - partials - pair``
with at most four sets plus partial sets counted, maximised over all decompositions. Quirks of the
reference that are reproduced on purpose:

* seven pairs count a four of a kind as two pairs (so does the reference fan calculator);
* the knitted straight is "the nine knitted tiles + the regular shanten of the other tiles, as if
  three sets were already declared";
* useful tiles of the regular shape leave out a kind the hand holds four of unless the shape is
  ready; when it is ready, a wait on a fifth copy (e.g. ``1111m`` after three melds waits on
  ``1m``) is reported like the reference does. :func:`waits` therefore lists every kind that
  completes the hand "on paper", even if all four copies are already in the hand.

Speed comes from tables, not search: each suit's 9 counts (7 for honours) are looked up in a
bounded dict that maps the pattern to a record (the summary of its best set/partial-set/pair
combinations, pairs, terminal and knitted counts); the records of the four suits are then
combined through small memoised tables. A record is built from generated tables
(:mod:`guobiao.core._shanten_table`: the summary of every pattern a hand can hold, one byte
each; some 1.4 MB with the dicts that rank a pattern), loaded the first time a shanten is asked
for; nothing is computed at import time, and a new pattern costs a few microseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntFlag
from itertools import product
from typing import TYPE_CHECKING, Any, Final, TypeVar

from guobiao.core.bounded import Bounded
from guobiao.core.melds import melds_text
from guobiao.core.tiles import TILES, Tile

if TYPE_CHECKING:
    from guobiao.core.hand import Hand

__all__ = [
    "DiscardOption",
    "Shape",
    "clear_caches",
    "discard_options",
    "hand_shanten",
    "hand_waits",
    "honors_and_knitted_shanten",
    "knitted_straight_shanten",
    "ready_waits",
    "regular_shanten",
    "seven_pairs_shanten",
    "shanten",
    "thirteen_orphans_shanten",
    "useful_tiles",
    "waits",
]


class Shape(IntFlag):
    """The winning shapes, combinable as flags to restrict :func:`useful_tiles` and :func:`waits`."""

    REGULAR = 1  # 基本和型: 4 sets + 1 pair
    SEVEN_PAIRS = 2  # 七对
    THIRTEEN_ORPHANS = 4  # 十三幺
    HONORS_AND_KNITTED = 8  # 全不靠 (incl. 七星不靠)
    KNITTED_STRAIGHT = 16  # 组合龙 + 1 set + 1 pair
    ALL = 31


# ---------------------------------------------------------------------------------------------
# Per-suit decomposition
#
# A suit pattern decomposes into (sets m, partial sets t, pair p) triples; only the Pareto-best
# ones are kept. Partial sets are capped at 4 - m, which never changes the final formula.
# ---------------------------------------------------------------------------------------------

_Triple = tuple[int, int, int]
_K = TypeVar("_K")
_V = TypeVar("_V")


class _Cache(Bounded[_K, _V]):
    """A :class:`~guobiao.core.bounded.Bounded` table of ``limit`` entries that fills a missing entry from its
    factory."""

    __slots__ = ("factory", "limit")

    def __init__(self, factory: Callable[[_K], _V], limit: int = 1 << 15) -> None:
        super().__init__()
        self.factory = factory
        self.limit = limit

    def __missing__(self, key: _K) -> _V:
        value = self.factory(key)
        self.put(key, value, self.limit)
        return value


# The decomposition below makes the generated tables (scripts/make_shanten_table.py) and answers
# the patterns outside them (a fifth copy, when testing a wait). Every table below is filled
# lazily and bounded (Bounded): a full one drops its oldest entry for each new one, so that a
# server or a long simulation keeps flat memory; dropping loses only time, as every entry is a
# pure function of its key (the summary ids of _VECTOR_IDS, which other tables hold, are never
# dropped: a few hundred exist). The limits are sized so that the
# large tables are full after some ten simulated sessions (about 1.5 MiB each at most, less for
# the others): what a process holds then is what it holds after a thousand. Values that many keys
# share (a suit's Pareto-best triples, knitted arrangements, ranks that grow a suit) are interned
# in tables whose size is bounded by the values that can exist, so an entry costs its key.
_DECOMP_LIMIT = (1 << 15) // 3  # not Final: the tests lower it
_DECOMP_HONOR_LIMIT: Final = (1 << 11) // 3  # honours: fewer patterns (at most _DECOMP_LIMIT)
_DECOMP_SUITED: Final[Bounded[bytes, tuple[_Triple, ...]]] = Bounded()
_DECOMP_HONOR: Final[Bounded[bytes, tuple[_Triple, ...]]] = Bounded()
_PARETO: Final[dict[tuple[_Triple, ...], tuple[_Triple, ...]]] = {}
"""Every distinct decomposition value, interned (at most 252**2 antichains of (sets, partial
sets) for the two pair counts; some hundred occur)."""


def _descending(x: _Triple) -> tuple[int, int, int]:
    return (x[2], -x[0], -x[1])


def _decompose(pattern: bytes, honor: bool) -> tuple[_Triple, ...]:
    """Pareto-best (sets, partial sets, pair) triples of one suit's counts (memoised)."""
    memo = _DECOMP_HONOR if honor else _DECOMP_SUITED
    hit = memo.get(pattern)
    if hit is not None:
        return hit
    size = len(pattern)
    i = 0
    while i < size and pattern[i] == 0:
        i += 1
    if i == size:
        return ((0, 0, 0),)
    found: set[_Triple] = set()

    def take(removed: Sequence[int], dm: int, dt: int, dp: int) -> None:
        rest = bytearray(pattern)
        for j in removed:
            rest[j] -= 1
        for m, t, p in _decompose(bytes(rest), honor):
            m2, p2 = m + dm, p + dp
            if p2 > 1 or m2 > 4:
                continue
            found.add((m2, min(t + dt, 4 - m2), p2))

    c = pattern[i]
    suited = not honor
    take((i,), 0, 0, 0)  # an isolated tile
    if c >= 3:
        take((i, i, i), 1, 0, 0)  # pung
    if suited and i <= 6 and pattern[i + 1] and pattern[i + 2]:
        take((i, i + 1, i + 2), 1, 0, 0)  # chow
    if c >= 2:
        take((i, i), 0, 0, 1)  # the pair (雀头)
        take((i, i), 0, 1, 0)  # a pair as partial pung
    if suited and i <= 7 and pattern[i + 1]:
        take((i, i + 1), 0, 1, 0)  # two-sided or edge partial chow
    if suited and i <= 6 and pattern[i + 2]:
        take((i, i + 2), 0, 1, 0)  # closed partial chow
    # Keep the triples no other one with the same pair dominates (at least as many sets and
    # partial sets): by pair, sets then partial sets descending, a triple survives iff its partial
    # sets exceed every one seen before it (each of those has at least as many sets).
    kept: list[_Triple] = []
    pair = -1
    most = -1
    for x in sorted(found, key=_descending):
        if x[2] != pair:
            pair = x[2]
            most = -1
        if x[1] > most:
            most = x[1]
            kept.append(x)
    kept.sort()
    best = tuple(kept)
    best = _PARETO.setdefault(best, best)
    memo.put(pattern, best, min(_DECOMP_LIMIT, _DECOMP_HONOR_LIMIT) if honor else _DECOMP_LIMIT)
    return best


# ---------------------------------------------------------------------------------------------
# Summaries: a vector v[p * 5 + m] = most partial sets with m sets and p pairs (-1: impossible),
# interned to small ids so that suits combine through id-keyed caches.
# ---------------------------------------------------------------------------------------------

_Vector = tuple[int, ...]
_VECTORS: Final[list[_Vector]] = []
_VECTOR_IDS: Final[dict[_Vector, int]] = {}


def _intern(vector: _Vector) -> int:
    vid = _VECTOR_IDS.get(vector)
    if vid is None:
        if len(_VECTORS) > _MASK:  # never seen: a few hundred vectors exist in practice
            raise RuntimeError("too many shanten summaries; call clear_caches()")
        vid = _VECTOR_IDS[vector] = len(_VECTORS)
        _VECTORS.append(vector)
    return vid


def _summary(triples: Sequence[_Triple]) -> int:
    """Intern the closure of the triples (:func:`_closure`)."""
    return _intern(_closure(triples))


def _closure(triples: Sequence[_Triple]) -> _Vector:
    """The summary vector of the triples: fewer sets than achievable are achievable too."""
    v = [-1] * 10
    for m, t, p in triples:
        for mm in range(m + 1):
            tt = min(t, 4 - mm)
            if tt > v[p * 5 + mm]:
                v[p * 5 + mm] = tt
    for mm in range(5):  # the pair may serve as a partial pung instead
        if v[5 + mm] >= 0:
            tt = min(v[5 + mm] + 1, 4 - mm)
            if tt > v[mm]:
                v[mm] = tt
    return tuple(v)


def _combine(a: _Vector, b: _Vector) -> _Vector:
    out = [-1] * 10
    for p1 in (0, 1):
        for m1 in range(5):
            t1 = a[p1 * 5 + m1]
            if t1 < 0:
                continue
            for p2 in range(2 - p1):
                for m2 in range(5 - m1):
                    t2 = b[p2 * 5 + m2]
                    if t2 < 0:
                        continue
                    m = m1 + m2
                    t = min(t1 + t2, 4 - m)
                    i = (p1 + p2) * 5 + m
                    if t > out[i]:
                        out[i] = t
    return tuple(out)


def _finals(v: _Vector) -> tuple[int, ...]:
    """Regular shanten of a whole hand with this summary, for 0..4 declared melds."""
    out: list[int] = []
    for k in range(5):
        best = 8
        for p in (0, 1):
            for m in range(5 - k):
                t = v[p * 5 + m]
                if t >= 0:
                    s = 8 - 2 * (m + k) - min(t, 4 - m - k) - p
                    if s < best:
                        best = s
        out.append(best)
    return tuple(out)


_SHIFT: Final = 20  # summary ids are < 2**20; two ids pack into one int key
_MASK: Final = (1 << _SHIFT) - 1


def _combined_id(key: int) -> int:
    return _intern(_combine(_VECTORS[key >> _SHIFT], _VECTORS[key & _MASK]))


def _combined_finals(key: int) -> tuple[int, ...]:
    return _finals(_combine(_VECTORS[key >> _SHIFT], _VECTORS[key & _MASK]))


_COMB: Final[_Cache[int, int]] = _Cache(_combined_id, (1 << 13) // 3)
"""``a << _SHIFT | b`` (two summary ids) -> summary id of the two suits together."""
_FIN: Final[_Cache[int, tuple[int, ...]]] = _Cache(_combined_finals, (1 << 13) // 3)
"""``a << _SHIFT | b`` -> regular shanten of the two together, indexed by declared melds."""


# ---------------------------------------------------------------------------------------------
# Suit records, built and validated the first time a pattern is seen
#
# suited: (regular id, packed, knit, knit << 6, knit << 12, most knit); rests apart (_SRESTS)
# honour: (regular id, packed)
#   packed = pairs | terminal-or-honour kinds << 4 | has such a pair << 8 | tiles << 12,
#            so that the four suits' values add up field by field for a valid hand;
#   knit = e0 | e1 << 2 | e2 << 4 with e_j the kinds present among ranks j+1, j+4, j+7;
#   rest_j = regular id of the suit once one of each of those is removed (knitted straight);
#   the three of a suit are looked up only when a knitted straight may be best;
#   most knit = max(e0, e1, e2), so that the three suits' sum bounds the knitted tiles.
# ---------------------------------------------------------------------------------------------

_Record = tuple[int, ...]


_COUNTS_HINT: Final = (
    "counts[k] is how many of tile k the hand holds (counts = [0] * 34, then counts[tile] += 1 "
    "for each tile)"
)


def _check_pattern(key: bytes, size: int) -> None:
    if len(key) != size:
        raise ValueError(f"counts must have 34 entries: {_COUNTS_HINT}")
    if max(key) > 5:
        raise ValueError(
            f"a count of {max(key)}: no tile is held more than four times (five when testing a "
            f"wait): {_COUNTS_HINT}, not a list of tiles"
        )
    if sum(key) > 14:
        raise ValueError(f"{sum(key)} tiles of one suit: a hand holds at most 14 standing tiles")


_HALVES: Final = bytes(c >> 1 for c in range(256))


def _packed(key: bytes, orphans: Sequence[int]) -> int:
    pairs = sum(key.translate(_HALVES))
    kinds = pair = 0
    for r in orphans:
        c = key[r]
        if c:
            kinds += 1
            if c >= 2:
                pair = 1
    return pairs | kinds << 4 | pair << 8 | sum(key) << 12


# ---------------------------------------------------------------------------------------------
# Summary ids of the patterns a hand can hold, from generated tables
#
# Every pattern of 0-4 copies of each rank with at most 14 tiles (405,350 suited, 43,130 honour)
# has its summary in core/_shanten_table.py (scripts/make_shanten_table.py writes it from
# _decompose and _closure above): one byte per pattern, an index into the table's vectors,
# which are interned first, in their order, so that the byte is the summary id itself. The
# tables load the first time a summary is asked for (a process that never computes a shanten,
# such as the fan calculator's, never loads them) and take some 1.4 MB for good, rank dicts
# included. Patterns outside them (a fifth copy, when testing a wait) are decomposed.
# ---------------------------------------------------------------------------------------------


def _ranking(size: int, split: int) -> tuple[dict[bytes, int], dict[bytes, int]]:
    """Number the patterns of ``size`` counts 0-4 with at most 14 tiles: ``head[p[:split]] +
    tail[p[split:]]``, from 0 up with no gap. Tails are ordered by their tiles, then as tuples,
    so the ones a head of ``h`` tiles allows (at most ``14 - h`` tiles) come first; heads go
    in tuple order, each followed by the tails it allows (a head of more than 14 tiles by
    none: a pattern's tiles are checked before it is looked up)."""
    tails = sorted(product(range(5), repeat=size - split), key=lambda t: (sum(t), t))
    tail = {bytes(t): i for i, t in enumerate(tails)}
    allowed = [sum(1 for t in tails if sum(t) <= room) for room in range(15)]
    head: dict[bytes, int] = {}
    rank = 0
    for h in product(range(5), repeat=split):
        head[bytes(h)] = rank
        if sum(h) <= 14:
            rank += allowed[14 - sum(h)]
    return head, tail


_SUITED_SPLIT: Final = 5
_HONOR_SPLIT: Final = 4


class _Ids:
    """The generated tables, once loaded: rankings and the summary id of each ranked pattern."""

    __slots__ = (
        "honor_head",
        "honor_ids",
        "honor_tail",
        "knit_most",
        "suited_head",
        "suited_ids",
        "suited_tail",
    )

    def __init__(self) -> None:
        from guobiao.core import _shanten_table as table

        self.suited_head, self.suited_tail = _ranking(9, _SUITED_SPLIT)
        self.honor_head, self.honor_tail = _ranking(7, _HONOR_SPLIT)
        self.suited_ids: bytes = table.SUITED
        self.honor_ids: bytes = table.HONOR
        self.knit_most: bytes = table.KNIT_MOST


_LOADED: Final[list[_Ids]] = []
"""The tables once loaded (at most one; kept by :func:`clear_caches`)."""


def _ids() -> _Ids:
    """The tables, loaded and their vectors interned first (again after :func:`clear_caches`):
    every summary id is made through :func:`_suited_id` or :func:`_honor_id`, which call this
    before anything is interned, or combines ids made so."""
    if not _LOADED:
        _LOADED.append(_Ids())
    if not _VECTORS:
        from guobiao.core._shanten_table import VECTORS

        for vector in VECTORS:
            _intern(vector)
    return _LOADED[0]


def _suited_id(pattern: bytes) -> int:
    """Summary id of a suit's 9 counts."""
    t = _LOADED[0] if _VECTORS else _ids()
    return _table_id(pattern, _SUITED_SPLIT, t.suited_head, t.suited_tail, t.suited_ids, False)


def _honor_id(pattern: bytes) -> int:
    """Summary id of the 7 honour counts."""
    t = _LOADED[0] if _VECTORS else _ids()
    return _table_id(pattern, _HONOR_SPLIT, t.honor_head, t.honor_tail, t.honor_ids, True)


def _table_id(
    pattern: bytes,
    split: int,
    heads: dict[bytes, int],
    tails: dict[bytes, int],
    ids: bytes,
    honours: bool,
) -> int:
    """A pattern's summary id from the generated table (its rank: the ranks of its head and tail
    counts added), or from its decompositions when the table does not hold it (a fifth copy)."""
    head = heads.get(pattern[:split])
    tail = tails.get(pattern[split:])
    if head is None or tail is None or sum(pattern) > 14:
        return _summary(_decompose(pattern, honours))
    return ids[head + tail]


def _suited_record(key: bytes) -> _Record:
    _check_pattern(key, 9)
    knit = most = 0
    for j in range(3):
        e = (key[j] > 0) + (key[j + 3] > 0) + (key[j + 6] > 0)
        knit |= e << (2 * j)
        if e > most:
            most = e
    return (_suited_id(key), _packed(key, (0, 8)), knit, knit << 6, knit << 12, most)


def _suited_rests(key: bytes) -> tuple[int, int, int]:
    """Summary ids of the suit once one of each kind of 147, of 258 or of 369 it holds is taken
    out (the rest of a knitted straight): only looked up when a knitted straight may be best."""
    rests: list[int] = []
    for j in range(3):
        rest = bytearray(key)
        for r in (j, j + 3, j + 6):
            if rest[r]:
                rest[r] -= 1
        rests.append(_suited_id(bytes(rest)))
    return rests[0], rests[1], rests[2]


def _honor_record(key: bytes) -> _Record:
    _check_pattern(key, 7)
    return (_honor_id(key), _packed(key, range(7)))


_PERMS: Final = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
"""The six knitted straights: the pattern (0: 147, 1: 258, 2: 369) of characters, dots, bamboo."""


_KNIT_COUNTS: Final = tuple((k & 3, k >> 2 & 3, k >> 4 & 3) for k in range(64))
_KNIT_ENTRIES: Final = tuple(tuple((e, i, j, k) for i, j, k in _PERMS) for e in range(10))
"""(knitted count, the three suits' arrangements) of each knitted straight by count 0..9 (the
arrangements index the suits' rests), shared by _KNIT's entries."""


def _knit_table(key: int) -> tuple[int, tuple[tuple[int, int, int, int], ...]]:
    """Knitted kinds of the three suits -> (best count, (count, arrangements) by count, best
    first)."""
    a = _KNIT_COUNTS[key & 63]
    b = _KNIT_COUNTS[key >> 6 & 63]
    c = _KNIT_COUNTS[key >> 12]
    perms = [_KNIT_ENTRIES[a[i] + b[j] + c[k]][n] for n, (i, j, k) in enumerate(_PERMS)]
    perms.sort(reverse=True)
    return perms[0][0], tuple(perms)


_GROWN_PAIRS: Final[dict[tuple[int, int], tuple[int, int]]] = {}
"""The (rank, summary id) pairs of _grown, interned: at most 9 per summary id (the pure build
shares them; compiled, mypyc boxes each pair anew where it is read)."""


def _grown(key: bytes, ids: Callable[[bytes], int]) -> tuple[tuple[int, int], ...]:
    """(rank, summary id after drawing it) for the ranks whose draw changes the suit's summary."""
    own = ids(key)
    out = []
    for r in range(len(key)):
        grown = bytearray(key)
        grown[r] += 1
        nid = ids(bytes(grown))
        if nid != own:
            pair = (r, nid)
            out.append(_GROWN_PAIRS.setdefault(pair, pair))
    return tuple(out)


_SREC: Final[_Cache[bytes, _Record]] = _Cache(_suited_record, (1 << 14) // 3)
_SRESTS: Final[_Cache[bytes, tuple[int, int, int]]] = _Cache(_suited_rests, (1 << 12) // 3)
_HREC: Final[_Cache[bytes, _Record]] = _Cache(_honor_record, (1 << 11) // 3)
_KNIT: Final[_Cache[int, tuple[int, tuple[tuple[int, int, int, int], ...]]]] = _Cache(
    _knit_table, (1 << 12) // 3
)
_SNEXT: Final[_Cache[bytes, tuple[tuple[int, int], ...]]] = _Cache(
    lambda key: _grown(key, _suited_id), (1 << 13) // 3
)
_HNEXT: Final[_Cache[bytes, tuple[tuple[int, int], ...]]] = _Cache(
    lambda key: _grown(key, _honor_id), (1 << 11) // 3
)

_FORMS: Final = ((13, 14), (10, 11), (7, 8), (4, 5), (1, 2))
_ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def clear_caches() -> None:
    """Empty every lazily filled table (to free memory or to time a cold start); the generated
    tables, fixed, stay loaded."""
    _DECOMP_SUITED.clear()
    _DECOMP_HONOR.clear()
    _PARETO.clear()
    _GROWN_PAIRS.clear()
    _VECTOR_IDS.clear()
    _VECTORS.clear()
    for cache in (_COMB, _FIN, _KNIT):
        cache.clear()
    for records in (_SREC, _SRESTS, _HREC, _SNEXT, _HNEXT):
        records.clear()


# ---------------------------------------------------------------------------------------------
# Shanten
# ---------------------------------------------------------------------------------------------


def _records(counts: Sequence[int], melds: int) -> tuple[_Record, _Record, _Record, _Record, int]:
    """The four suit records and the tile total; raise ValueError unless a 13- or 14-form hand."""
    try:
        b = bytes(counts)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"counts must be 34 ints in 0..4: {exc}") from None
    r0, r1, r2, rh = _SREC[b[:9]], _SREC[b[9:18]], _SREC[b[18:27]], _HREC[b[27:]]
    n = (r0[1] + r1[1] + r2[1] + rh[1]) >> 12
    if not (type(melds) is int and 0 <= melds <= 4 and n in _FORMS[melds]):
        _invalid(n, melds)
    return r0, r1, r2, rh, n


def _invalid(n: int, melds: int) -> None:
    if not (type(melds) is int and 0 <= melds <= 4):
        raise ValueError(f"melds must be an int in 0..4, not {melds!r}")
    raise ValueError(
        f"{n} standing tile{'' if n == 1 else 's'} with {melds_text(melds)}: expected "
        f"{13 - 3 * melds} or {14 - 3 * melds}"
    )


def _regular(r0: _Record, r1: _Record, r2: _Record, rh: _Record, melds: int) -> int:
    return _FIN[_COMB[_COMB[r0[0] << 20 | r1[0]] << 20 | r2[0]] << 20 | rh[0]][melds]


def _knitted_straight(
    b: bytes, r0: _Record, r1: _Record, r2: _Record, rh: _Record, melds: int
) -> int:
    best = 99
    h = rh[0]
    q0, q1, q2 = _SRESTS[b[:9]], _SRESTS[b[9:18]], _SRESTS[b[18:27]]
    for e, i0, i1, i2 in _KNIT[r0[2] | r1[3] | r2[4]][1]:
        s = 9 - e + _FIN[_COMB[_COMB[q0[i0] << 20 | q1[i1]] << 20 | q2[i2]] << 20 | h][melds + 3]
        if s < best:
            best = s
    return best


def _honors_and_knitted(r0: _Record, r1: _Record, r2: _Record, rh: _Record) -> int:
    return 13 - _LOADED[0].knit_most[r0[2] | r1[3] | r2[4]] - (rh[1] >> 4 & 15)


def _seven_pairs(r0: _Record, r1: _Record, r2: _Record, rh: _Record) -> int:
    return 6 - ((r0[1] + r1[1] + r2[1] + rh[1]) & 15)


def _thirteen_orphans(r0: _Record, r1: _Record, r2: _Record, rh: _Record) -> int:
    packed = r0[1] + r1[1] + r2[1] + rh[1]
    return 13 - (packed >> 4 & 15) - (1 if packed & 0xF00 else 0)


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of a 13- or 14-form hand: the minimum over every shape allowed with ``melds``.

    Special shapes count only without melds, the knitted straight also with one meld.
    ``-1`` is a complete hand, ``0`` ready, ``n`` that many tiles from ready.
    """
    try:
        b = bytes(counts)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"counts must be 34 ints in 0..4: {exc}") from None
    r0 = _SREC[b[:9]]
    r1 = _SREC[b[9:18]]
    r2 = _SREC[b[18:27]]
    rh = _HREC[b[27:]]
    packed = r0[1] + r1[1] + r2[1] + rh[1]
    if not (type(melds) is int and 0 <= melds <= 4 and packed >> 12 in _FORMS[melds]):
        _invalid(packed >> 12, melds)
    h = rh[0]
    best = _FIN[_COMB[_COMB[r0[0] << 20 | r1[0]] << 20 | r2[0]] << 20 | h][melds]
    if melds > 1 or best < 0:
        return best
    if melds == 0:
        s = 6 - (packed & 15)  # seven pairs
        if s < best:
            best = s
        s = 13 - (packed >> 4 & 15) - (1 if packed & 0xF00 else 0)  # thirteen orphans
        if s < best:
            best = s
    # At most ``bound`` knitted tiles are held: the knitted straight is at least 8 - bound from
    # ready, honours and knitted tiles at least 13 - bound - the honour kinds.
    bound = r0[5] + r1[5] + r2[5]
    if 8 - bound >= best and (melds or 13 - bound - (rh[1] >> 4 & 15) >= best):
        return best
    knit = r0[2] | r1[3] | r2[4]
    most = _LOADED[0].knit_most[knit]  # loaded with the records
    if melds == 0:
        s = 13 - most - (rh[1] >> 4 & 15)  # honours and knitted tiles
        if s < best:
            best = s
    # A knitted straight beats ``best`` only if its nine tiles are nearly all there.
    if 8 - most >= best:
        return best
    q0, q1, q2 = _SRESTS[b[:9]], _SRESTS[b[9:18]], _SRESTS[b[18:27]]
    for e, i0, i1, i2 in _KNIT[knit][1]:
        if 8 - e >= best:
            break
        s = 9 - e + _FIN[_COMB[_COMB[q0[i0] << 20 | q1[i1]] << 20 | q2[i2]] << 20 | h][melds + 3]
        if s < best:
            best = s
    return best


def regular_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of the regular shape (4 sets + a pair) with ``melds`` sets already declared."""
    r0, r1, r2, rh, _ = _records(counts, melds)
    return _regular(r0, r1, r2, rh, melds)


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """Shanten of seven pairs (no melds; a four of a kind counts as two pairs, as the reference)."""
    r0, r1, r2, rh, _ = _records(counts, 0)
    return _seven_pairs(r0, r1, r2, rh)


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    """Shanten of thirteen orphans (no melds): 13 minus the terminal/honour kinds, minus a pair."""
    r0, r1, r2, rh, _ = _records(counts, 0)
    return _thirteen_orphans(r0, r1, r2, rh)


def honors_and_knitted_shanten(counts: Sequence[int]) -> int:
    """Shanten of honours and knitted tiles (全不靠, no melds): 13 minus the fitting kinds."""
    r0, r1, r2, rh, _ = _records(counts, 0)
    return _honors_and_knitted(r0, r1, r2, rh)


def knitted_straight_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of a knitted straight with a set and a pair (at most one declared meld).

    As in the reference: the missing knitted tiles plus the regular shanten of the rest of the
    hand counted as if three sets were declared, minimised over the six knitted straights.
    """
    if melds not in (0, 1):
        raise ValueError(f"a knitted straight allows at most one declared meld, not {melds!r}")
    r0, r1, r2, rh, _ = _records(counts, melds)
    return _knitted_straight(bytes(counts), r0, r1, r2, rh, melds)


# ---------------------------------------------------------------------------------------------
# Useful tiles
# ---------------------------------------------------------------------------------------------


def _regular_useful(b: bytes, melds: int) -> tuple[int, set[int]]:
    """Regular shanten and the kinds that lower it (reference rule for kinds held four times)."""
    keys = (b[:9], b[9:18], b[18:27], b[27:])
    ids = [_SREC[keys[0]][0], _SREC[keys[1]][0], _SREC[keys[2]][0], _HREC[keys[3]][0]]
    s = _FIN[_COMB[_COMB[ids[0] << 20 | ids[1]] << 20 | ids[2]] << 20 | ids[3]][melds]
    useful: set[int] = set()
    if s < 0:
        return s, useful
    for suit in range(4):
        o = [ids[j] for j in range(4) if j != suit]
        others = _COMB[_COMB[o[0] << 20 | o[1]] << 20 | o[2]] << 20
        base = suit * 9
        for r, nid in _HNEXT[keys[3]] if suit == 3 else _SNEXT[keys[suit]]:
            t = base + r
            if _FIN[others | nid][melds] < s and (b[t] != 4 or s <= 0):
                useful.add(t)
    return s, useful


def _knitted_tiles(perm: tuple[int, int, int]) -> tuple[int, ...]:
    return tuple(9 * suit + j + 3 * step for suit, j in enumerate(perm) for step in range(3))


def _honors_and_knitted_useful(b: bytes, s: int) -> set[int]:
    useful: set[int] = {t for t in range(27, 34) if not b[t]}
    honors = 7 - len(useful)
    for perm in _PERMS:
        tiles = _knitted_tiles(perm)
        if 13 - honors - sum(1 for t in tiles if b[t]) == s:
            useful.update(t for t in tiles if not b[t])
    return useful


def _knitted_straight_useful(b: bytes, melds: int, s: int) -> set[int]:
    r0, r1, r2, h = _SREC[b[:9]], _SREC[b[9:18]], _SREC[b[18:27]], _HREC[b[27:]][0]
    q0, q1, q2 = _SRESTS[b[:9]], _SRESTS[b[9:18]], _SRESTS[b[18:27]]
    useful: set[int] = set()
    for e, i0, i1, i2 in _KNIT[r0[2] | r1[3] | r2[4]][1]:
        rest_id = _COMB[_COMB[q0[i0] << 20 | q1[i1]] << 20 | q2[i2]]
        if 9 - e + _FIN[rest_id << 20 | h][melds + 3] != s:
            continue
        rest = bytearray(b)
        for t in _knitted_tiles((i0, i1, i2)):
            if rest[t]:
                rest[t] -= 1
            else:
                useful.add(t)
        useful |= _regular_useful(bytes(rest), melds + 3)[1]
    return useful


_REGULAR, _SEVEN_PAIRS, _THIRTEEN_ORPHANS, _HONORS_AND_KNITTED, _KNITTED_STRAIGHT = 1, 2, 4, 8, 16


def _allowed(melds: int, shapes: Shape) -> int:
    allowed = _REGULAR
    if melds == 0:
        allowed |= _SEVEN_PAIRS | _THIRTEEN_ORPHANS | _HONORS_AND_KNITTED
    if melds <= 1:
        allowed |= _KNITTED_STRAIGHT
    allowed &= int(shapes)
    if not allowed:
        raise ValueError(f"none of the shapes {shapes!r} is possible with {melds_text(melds)}")
    return allowed


def _useful(b: bytes, melds: int, shapes: Shape) -> tuple[int, set[int]]:
    """Shanten over the allowed ``shapes`` and the union of useful kinds of the best shapes."""
    allowed = _allowed(melds, shapes)
    r0, r1, r2, rh = _SREC[b[:9]], _SREC[b[9:18]], _SREC[b[18:27]], _HREC[b[27:]]
    found: list[tuple[int, int]] = []
    if allowed & _REGULAR:
        found.append((_regular(r0, r1, r2, rh, melds), _REGULAR))
    if allowed & _SEVEN_PAIRS:
        found.append((_seven_pairs(r0, r1, r2, rh), _SEVEN_PAIRS))
    if allowed & _THIRTEEN_ORPHANS:
        found.append((_thirteen_orphans(r0, r1, r2, rh), _THIRTEEN_ORPHANS))
    # the knitted shapes only when they may be among the best (``shanten`` explains the bound)
    least = min(s for s, _ in found) if found else 99
    bound = r0[5] + r1[5] + r2[5]
    if allowed & _HONORS_AND_KNITTED and 13 - bound - (rh[1] >> 4 & 15) <= least:
        found.append((_honors_and_knitted(r0, r1, r2, rh), _HONORS_AND_KNITTED))
    if allowed & _KNITTED_STRAIGHT and 8 - bound <= least:
        found.append((_knitted_straight(b, r0, r1, r2, rh, melds), _KNITTED_STRAIGHT))
    best = min(s for s, _ in found)
    useful: set[int] = set()
    for s, shape in found:
        if s != best:
            continue
        if shape == _REGULAR:
            useful |= _regular_useful(b, melds)[1]
        elif shape == _SEVEN_PAIRS:
            useful.update(t for t in range(34) if b[t] & 1)
        elif shape == _THIRTEEN_ORPHANS:
            if any(b[t] >= 2 for t in _ORPHANS):
                useful.update(t for t in _ORPHANS if not b[t])
            else:
                useful.update(_ORPHANS)
        elif shape == _HONORS_AND_KNITTED:
            useful |= _honors_and_knitted_useful(b, s)
        else:
            useful |= _knitted_straight_useful(b, melds, s)
    return best, useful


def _load(counts: Sequence[int], melds: int, form: int) -> bytes:
    """Validated counts as bytes, for a ``form`` (13 or 14) hand."""
    _, _, _, _, n = _records(counts, melds)
    if n != form - 3 * melds:
        raise ValueError(
            f"expected a {form}-form hand ({form - 3 * melds} standing "
            f"tile{'' if form - 3 * melds == 1 else 's'}), got {n}"
        )
    return bytes(counts)


def useful_tiles(counts: Sequence[int], melds: int = 0, *, shapes: Shape = Shape.ALL) -> list[int]:
    """Kinds whose draw lowers the shanten of a 13-form hand, sorted.

    For every best shape (among ``shapes`` and those allowed with ``melds``) the kinds that lower
    its shanten, as the reference tables: a kind the hand holds four of is left out of the regular
    shape's tiles unless that shape is ready (then the fifth copy that would complete it counts).
    """
    return sorted(_useful(_load(counts, melds, 13), melds, shapes)[1])


def waits(counts: Sequence[int], melds: int = 0, *, shapes: Shape = Shape.ALL) -> list[int]:
    """Kinds that complete a ready 13-form hand in any (allowed) shape, sorted; ``[]`` if not ready.

    Like the reference's ``is_waiting`` this includes a kind the hand already holds four of when
    the fifth copy would complete it on paper (``1111m`` with three melds waits on ``1m``); such a
    wait can never be drawn, so callers counting live tiles get zero for it.
    """
    b = _load(counts, melds, 13)
    if shapes == Shape.ALL and shanten(b, melds) != 0:
        return []
    s, useful = _useful(b, melds, shapes)
    return sorted(useful) if s == 0 else []


def ready_waits(counts: bytes, melds: int) -> set[int]:
    """:func:`waits` of a 13-form hand already known to be ready (``shanten`` 0), as a set: for
    the game loop, which has just computed that shanten. ``counts`` as bytes; not checked."""
    return _useful(counts, melds, Shape.ALL)[1]


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard from a 14-form hand: the shanten left, its useful kinds and how many are live.

    ``live`` counts the copies of the useful kinds not yet seen: 4 minus those in the hand before
    the discard (so the discarded tile counts as seen) minus ``visible``, never below zero.
    """

    tile: Tile
    shanten: int
    useful: tuple[Tile, ...]
    live: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (DiscardOption, (self.tile, self.shanten, self.useful, self.live))


def discard_options(
    counts: Sequence[int], melds: int = 0, visible: Sequence[int] | None = None
) -> list[DiscardOption]:
    """Every distinct discard of a 14-form hand, best first (lowest shanten, then most live tiles).

    ``visible`` (34 counts) are tiles seen elsewhere: discards, other players' melds, own melds.
    """
    b = _load(counts, melds, 14)
    seen = [0] * 34 if visible is None else list(visible)
    if len(seen) != 34:
        raise ValueError("visible must have 34 entries")
    options: list[DiscardOption] = []
    rest = bytearray(b)
    for t in range(34):
        if not b[t]:
            continue
        rest[t] -= 1
        s, useful = _useful(bytes(rest), melds, Shape.ALL)
        rest[t] += 1
        kinds = tuple(TILES[u] for u in sorted(useful))
        live = sum(max(0, 4 - b[u] - seen[u]) for u in kinds)
        options.append(DiscardOption(TILES[t], s, kinds, live))
    options.sort(key=lambda o: (o.shanten, -o.live, o.tile))
    return options


# ---------------------------------------------------------------------------------------------
# Hand wrappers
# ---------------------------------------------------------------------------------------------


def _hand_counts(tiles: Sequence[Tile]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def hand_shanten(hand: Hand) -> int:
    """Shanten of a :class:`~guobiao.core.hand.Hand` (its standing tiles, winning tile included)."""
    return shanten(_hand_counts(hand.standing), len(hand.melds))


def hand_waits(hand: Hand) -> list[Tile]:
    """Waits of a :class:`~guobiao.core.hand.Hand` before its winning tile (its concealed tiles)."""
    return [TILES[t] for t in waits(_hand_counts(hand.concealed), len(hand.melds))]
