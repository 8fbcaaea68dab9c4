"""Plans: families of hands worth 8 points or nearly, and each plan's shanten (the regular
shanten of any part of a hand, from per-suit tables built here).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Final

from guobiao.core.bounded import Bounded
from guobiao.core.melds import Meld, MeldKind

# Plan shanten: the regular shanten of any part of a hand
#
# A plan keeps some kinds of tile and may fix some sets (花龙's three chows, a dragon pung); its
# shanten is ``8 - 2·sets - partial sets - pair`` over the tiles it keeps, with the fixed sets
# counted as declared and each missing tile of a fixed set counted once. guobiao.core.shanten answers
# for whole 13- and 14-tile hands only, so the per-suit tables are built here for any tile count:
# a suit's counts map to a vector of its best (sets, partial sets, pair), vectors combine through
# a memoised table, and a combined vector maps to the shanten for 0-4 fixed sets.

_Vector = tuple[int, ...]  # v[p * 5 + m]: most partial sets with m sets and p pairs; -1: impossible
_VECTORS: list[_Vector] = []
_VECTOR_IDS: dict[_Vector, int] = {}
_FINALS: list[tuple[int, ...]] = []  # by vector id: the shanten with 0..4 sets fixed
_SPLITS: Bounded[bytes, tuple[tuple[int, int, int], ...]] = Bounded()
_PATTERN_IDS: Bounded[bytes, int] = Bounded()  # a group's counts (9 suited or 7 honours) -> id
_COMBINED: dict[int, int] = {}  # a << 20 | b -> vector id of the two groups together
_DISTINCT_SPLITS: dict[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]] = {}
"""Every distinct value of _SPLITS, interned (some hundred occur), so that an entry costs its key."""
_TABLE_LIMIT = (1 << 12) // 3  # not Final: the tests lower it (a third: see core.bounded)
"""Patterns _SPLITS and _PATTERN_IDS keep (the oldest go first: each entry is a pure function of
its key, so dropping one costs only time), so that memory stays flat over a long run; _COMBINED
and the vectors are bounded by the few hundred vectors that exist, and are kept."""


def _intern(vector: _Vector) -> int:
    vid = _VECTOR_IDS.get(vector)
    if vid is None:
        vid = _VECTOR_IDS[vector] = len(_VECTORS)
        _VECTORS.append(vector)
        finals = []
        for fixed in range(5):
            best = 8
            for p in (0, 1):
                for m in range(5 - fixed):
                    t = vector[p * 5 + m]
                    if t >= 0:
                        best = min(best, 8 - 2 * (m + fixed) - min(t, 4 - m - fixed) - p)
            finals.append(best)
        _FINALS.append(tuple(finals))
    return vid


def _splits(pattern: bytes) -> tuple[tuple[int, int, int], ...]:
    """Pareto-best (sets, partial sets, pair) of one group's counts; 9 counts are suited."""
    hit = _SPLITS.get(pattern)
    if hit is not None:
        return hit
    i = next((j for j, c in enumerate(pattern) if c), -1)
    if i < 0:
        return ((0, 0, 0),)
    found: set[tuple[int, int, int]] = set()

    def take(removed: tuple[int, ...], dm: int, dt: int, dp: int) -> None:
        rest = bytearray(pattern)
        for j in removed:
            rest[j] -= 1
        for m, t, p in _splits(bytes(rest)):
            if m + dm <= 4 and p + dp <= 1:
                found.add((m + dm, min(t + dt, 4 - m - dm), p + dp))

    take((i,), 0, 0, 0)
    if pattern[i] >= 3:
        take((i, i, i), 1, 0, 0)
    if pattern[i] >= 2:
        take((i, i), 0, 0, 1)
        take((i, i), 0, 1, 0)
    if len(pattern) == 9:
        if i <= 6 and pattern[i + 1] and pattern[i + 2]:
            take((i, i + 1, i + 2), 1, 0, 0)
        if i <= 7 and pattern[i + 1]:
            take((i, i + 1), 0, 1, 0)
        if i <= 6 and pattern[i + 2]:
            take((i, i + 2), 0, 1, 0)
    best = tuple(
        x
        for x in found
        if not any(y != x and y[2] == x[2] and y[0] >= x[0] and y[1] >= x[1] for y in found)
    )
    best = _DISTINCT_SPLITS.setdefault(best, best)
    _SPLITS.put(pattern, best, _TABLE_LIMIT)
    return best


def _pattern_id(pattern: bytes) -> int:
    vid = _PATTERN_IDS.get(pattern)
    if vid is None:
        v = [-1] * 10
        for m, t, p in _splits(pattern):
            for mm in range(m + 1):
                v[p * 5 + mm] = max(v[p * 5 + mm], min(t, 4 - mm))
        for mm in range(5):  # the pair may count as a partial pung instead
            if v[5 + mm] >= 0:
                v[mm] = max(v[mm], min(v[5 + mm] + 1, 4 - mm))
        vid = _intern(tuple(v))
        _PATTERN_IDS.put(pattern, vid, _TABLE_LIMIT)
    return vid


def _combine(a: int, b: int) -> int:
    key = a << 20 | b
    vid = _COMBINED.get(key)
    if vid is None:
        va, vb = _VECTORS[a], _VECTORS[b]
        out = [-1] * 10
        for p1 in (0, 1):
            for m1 in range(5):
                t1 = va[p1 * 5 + m1]
                if t1 < 0:
                    continue
                for p2 in range(2 - p1):
                    for m2 in range(5 - m1):
                        t2 = vb[p2 * 5 + m2]
                        if t2 >= 0:
                            i = (p1 + p2) * 5 + m1 + m2
                            out[i] = max(out[i], min(t1 + t2, 4 - m1 - m2))
        vid = _COMBINED[key] = _intern(tuple(out))
    return vid


_GROUP: Final = tuple(min(t // 9, 3) for t in range(34))  # 0-2 the suits, 3 the honours
_GROUP_SLICES: Final = ((0, 9), (9, 18), (18, 27), (27, 34))

_CHOW_SET, _PUNG_SET = 0, 1  # a plan's fixed sets: (kind, tile), a chow named by its lowest tile
_KNITTED: Final = tuple(
    tuple(9 * suit + start + 3 * step for suit, start in enumerate(perm) for step in range(3))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
"""The six knitted straights (组合龙): 147 / 258 / 369 in the three suits."""


class _Position:
    """A hand as plans see it: standing counts, declared melds as (set kind, tile, concealed),
    the pattern id of each group (3 suits, honours) and facts about the melds."""

    __slots__ = (
        "_pungs",
        "counts",
        "exposed",
        "has_chow",
        "ids",
        "meld_groups",
        "melds",
        "unseen",
    )

    def __init__(
        self,
        counts: list[int],
        melds: tuple[tuple[int, int, bool], ...],
        unseen: Sequence[int] | None = None,
    ) -> None:
        self.counts = counts
        self.melds = melds
        self.unseen = unseen  # copies not seen, if known: a plan short of dead tiles is out
        self.exposed = False
        self.has_chow = False
        self.meld_groups = 0  # a bit per group that holds a meld
        for kind, tile, concealed in melds:
            self.exposed |= not concealed
            self.has_chow |= kind == _CHOW_SET
            self.meld_groups |= 1 << _GROUP[tile]
        b = bytes(counts)
        self.ids = (
            _pattern_id(b[0:9]),
            _pattern_id(b[9:18]),
            _pattern_id(b[18:27]),
            _pattern_id(b[27:34]),
        )
        self._pungs: list[tuple[int, int]] | None = None

    def pungs(self, group: int) -> tuple[int, int]:
        """Kinds of ``group`` held three or more times, and held exactly twice."""
        if self._pungs is None:
            counts = self.counts
            self._pungs = [
                (
                    sum(1 for t in range(lo, hi) if counts[t] >= 3),
                    sum(1 for t in range(lo, hi) if counts[t] == 2),
                )
                for lo, hi in _GROUP_SLICES
            ]
        return self._pungs[group]


def _meld_key(meld: Meld) -> tuple[int, int, bool]:
    kind = _CHOW_SET if meld.kind is MeldKind.CHOW else _PUNG_SET
    return (kind, int(meld.tile), meld.kind is MeldKind.CONCEALED_KONG)


PLAN_PENALTY: Final = 0.5
"""Extra cost, in shanten, per fan point a plan's estimate falls short of 8."""


class _Plan:
    """A family of winning hands: its fan points (an estimate when below 8) and its shanten."""

    __slots__ = ("concealed", "name", "penalty", "points")

    def __init__(self, name: str, points: int, *, concealed: bool = False) -> None:
        self.name = name
        self.points = points
        self.concealed = concealed  # 门前清 / 七对 ...: no exposed meld allowed
        self.penalty = PLAN_PENALTY * max(0, 8 - points)

    def cost(self, pos: _Position) -> int | None:
        """The plan's shanten (-1 complete, 0 ready), or None if the melds rule it out."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<plan {self.name} {self.points}>"


class _GroupsPlan(_Plan):
    """Any regular hand (or pungs-only hand) made of some groups: 清一色, 混一色, 碰碰和 ..."""

    __slots__ = ("groups", "mask", "pungs")

    def __init__(
        self,
        name: str,
        points: int,
        groups: tuple[int, ...],
        *,
        pungs: bool = False,
        concealed: bool = False,
    ) -> None:
        super().__init__(name, points, concealed=concealed)
        self.groups = groups
        self.pungs = pungs
        self.mask = sum(1 << g for g in groups)

    def cost(self, pos: _Position) -> int | None:
        if (
            (self.concealed and pos.exposed)
            or pos.meld_groups & ~self.mask
            or (self.pungs and pos.has_chow)
        ):
            return None
        fixed = len(pos.melds)
        groups = self.groups
        if self.pungs:
            sets = fixed
            pairs = 0
            for g in groups:
                n3, n2 = pos.pungs(g)
                sets += n3
                pairs += n2
            sets = min(sets, 4)
            if pairs:
                return 7 - 2 * sets - min(pairs - 1, 4 - sets)
            return 8 - 2 * sets
        ids = pos.ids
        vid = ids[groups[0]]
        for g in groups[1:]:
            vid = _combine(vid, ids[g])
        return _FINALS[vid][fixed]


class _SetsPlan(_Plan):
    """Some fixed sets (花龙's chows, a dragon pung) or a knitted straight, plus any sets and a pair
    from ``groups``. The fixed sets may be declared melds; the other melds fill the free sets."""

    __slots__ = ("fixed", "groups", "knitted", "need", "sets")

    def __init__(
        self,
        name: str,
        points: int,
        sets: tuple[tuple[int, int], ...] = (),
        *,
        groups: tuple[int, ...] = (0, 1, 2, 3),
        knitted: tuple[int, ...] = (),
        concealed: bool = False,
    ) -> None:
        super().__init__(name, points, concealed=concealed)
        self.sets = sets
        self.knitted = knitted  # the nine tiles of a knitted straight: three fixed sets
        self.groups = groups
        self.fixed = len(sets) + (3 if knitted else 0)
        self.need = self._tiles(sets)

    def _tiles(self, sets: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        """The tiles of the knitted straight and of ``sets``."""
        need = list(self.knitted)
        for kind, tile in sets:
            need.extend((tile, tile + 1, tile + 2) if kind == _CHOW_SET else (tile, tile, tile))
        return tuple(need)

    def cost(self, pos: _Position) -> int | None:
        if self.concealed and pos.exposed:
            return None
        need = self.need
        fixed = self.fixed
        if pos.melds:
            open_sets = list(self.sets)
            for kind, tile, _ in pos.melds:
                if (kind, tile) in open_sets:
                    open_sets.remove((kind, tile))
                elif _GROUP[tile] in self.groups:
                    fixed += 1
                else:
                    return None
            if fixed > 4:
                return None
            if len(open_sets) < len(self.sets):
                need = self._tiles(open_sets)
        rest = list(pos.counts)
        short: list[int] = []
        for t in need:
            if rest[t]:
                rest[t] -= 1
            else:
                short.append(t)
        unseen = pos.unseen
        if unseen is not None:
            for t in short:
                if unseen[t] < short.count(t):
                    return None  # not enough copies left to draw or claim
        vid = -1
        for g in self.groups:
            lo, hi = _GROUP_SLICES[g]
            gid = (
                _pattern_id(bytes(rest[lo:hi])) if rest[lo:hi] != pos.counts[lo:hi] else pos.ids[g]
            )
            vid = gid if vid < 0 else _combine(vid, gid)
        return len(short) + _FINALS[vid][fixed]


class _SevenPairsPlan(_Plan):
    def cost(self, pos: _Position) -> int | None:
        if pos.melds:
            return None
        return 6 - min(7, sum(c >> 1 for c in pos.counts))


class _KnittedHonoursPlan(_Plan):
    """全不靠: honours and knitted tiles, all different."""

    def cost(self, pos: _Position) -> int | None:
        if pos.melds:
            return None
        counts = pos.counts
        honours = sum(1 for t in range(27, 34) if counts[t])
        knitted = max(sum(1 for t in tiles if counts[t]) for tiles in _KNITTED)
        return 13 - min(14, honours + knitted)


class _AllTypesPlan(_Plan):
    """五门齐 with a pung in the honour group ``bonus`` (3 winds, 4 dragons) of ``pung_tiles``."""

    __slots__ = ("bonus", "pung_tiles")

    def __init__(self, name: str, points: int, bonus: int, pung_tiles: tuple[int, ...]) -> None:
        super().__init__(name, points)
        self.bonus = bonus
        self.pung_tiles = pung_tiles

    def cost(self, pos: _Position) -> int | None:
        counts = pos.counts
        set_score = [0] * 5
        pair_score = [0] * 5
        declared = [False] * 5
        for _, tile, _ in pos.melds:
            g = _GROUP5[tile]
            if declared[g] or (g == self.bonus and tile not in self.pung_tiles):
                return None
            declared[g] = True
            set_score[g] = 2
            pair_score[g] = -9
        for g in range(5):
            if declared[g]:
                continue
            lo, hi = _GROUP5_SLICES[g]
            tiles = self.pung_tiles if g == self.bonus else range(lo, hi)
            if any(counts[t] >= 2 for t in range(lo, hi)):
                pair_score[g] = 1
            if any(counts[t] >= 3 for t in tiles):
                set_score[g] = 2
            elif any(counts[t] >= 2 for t in tiles):
                set_score[g] = 1
            if g < 3 and set_score[g] < 2:
                for t in range(lo, hi - 1):
                    if counts[t] and counts[t + 1]:
                        if t + 2 < hi and counts[t + 2]:
                            set_score[g] = 2
                            break
                        set_score[g] = 1
                    elif counts[t] and t + 2 < hi and counts[t + 2]:
                        set_score[g] = 1
        total = sum(set_score)
        best = max(total - set_score[g] + pair_score[g] for g in range(5) if g != self.bonus)
        return 8 - best


_GROUP5: Final = tuple(t // 9 if t < 27 else (3 if t < 31 else 4) for t in range(34))
_GROUP5_SLICES: Final = ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34))
_DRAGONS: Final = (31, 32, 33)


def _plans_for(seat_wind: int, round_wind: int) -> tuple[_Plan, ...]:
    """The plans of a seat: fan families that reach 8 points, or nearly (then at a penalty)."""
    own_winds = tuple(sorted({27 + seat_wind, 27 + round_wind}))
    plans: list[_Plan] = [
        _SevenPairsPlan("七对", 24, concealed=True),
        _KnittedHonoursPlan("全不靠", 12, concealed=True),
        _GroupsPlan("碰碰和", 7, (0, 1, 2, 3), pungs=True),
        _AllTypesPlan("五门齐 箭刻", 8, 4, _DRAGONS),
        _AllTypesPlan("五门齐 风刻", 8, 3, own_winds),
        _GroupsPlan("门前清", 4, (0, 1, 2, 3), concealed=True),
        _GroupsPlan("无番", 3, (0, 1, 2, 3)),
    ]
    for suit in range(3):
        plans.append(_GroupsPlan("清一色", 24, (suit,)))
        plans.append(_GroupsPlan("混一色 碰碰和", 12, (suit, 3), pungs=True))
        plans.append(_GroupsPlan("混一色 门前清", 8, (suit, 3), concealed=True))
        plans.append(_GroupsPlan("混一色", 6, (suit, 3)))
        for tile in _DRAGONS + own_winds:
            plans.append(_SetsPlan("混一色 刻", 8, ((_PUNG_SET, tile),), groups=(suit, 3)))
        base = 9 * suit
        plans.append(
            _SetsPlan("清龙", 16, ((_CHOW_SET, base), (_CHOW_SET, base + 3), (_CHOW_SET, base + 6)))
        )
    for tiles in _KNITTED:
        plans.append(_SetsPlan("组合龙", 12, knitted=tiles))
    for suits in permutations(range(3)):  # 123, 456, 789 in three different suits
        chows = tuple((_CHOW_SET, 9 * suit + 3 * i) for i, suit in enumerate(suits))
        plans.append(_SetsPlan("花龙", 8, chows))
    for rank in range(7):
        plans.append(_SetsPlan("三色三同顺", 8, tuple((_CHOW_SET, 9 * s + rank) for s in range(3))))
    return tuple(plans)
