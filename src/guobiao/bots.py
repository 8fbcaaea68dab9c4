"""Bots: agents that play from their seat's view only (:class:`~guobiao.game.SeatView`).

- :class:`RandomBot`: a uniformly random legal action, but it always takes a legal win.
- :class:`EfficiencyBot`: tile efficiency (牌效): the discard that leaves the lowest shanten and the
  most live useful tiles; claims only to lower the shanten (or keep it with more live useful
  tiles); folds to safe tiles when another seat looks ready and its own hand is two or more tiles
  from ready.
- :class:`FanBot`: plays for hands that reach the 8-point minimum (第五条 起和分), which pure
  efficiency does not: it often gets ready with a hand that cannot win. A 13-tile position is
  ranked in three tiers (``_Worth``): ready with waits that score 8 points (the fan calculator
  judges every wait), then one tile from such a hand (every useful draw is tried and the best
  discard's waits judged), then by *plans*. A plan is a family of hands worth 8 points or nearly
  (清一色, 混一色 with a dragon or own-wind pung, 花龙, 清龙, 三色三同顺, 组合龙, 七对, 全不靠,
  五门齐 with a dragon pung, 碰碰和 ...) with its own shanten: tiles outside the plan do not count,
  and its fixed sets count as declared. The plans' worth is a soft minimum of their shanten (plans
  short of 8 points pay a penalty). Discards, claims and kongs maximise that worth.

Every bot is deterministic for its seed (ties are broken by its own ``random.Random(seed)``) and
returns one of ``view.legal_actions``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations
from typing import Final

from .calculator import calculate
from .context import WinContext, Wind
from .game import WIN, Action, ActionKind, Phase, SeatView
from .hand import Hand
from .melds import Meld, MeldKind
from .rules import COMPETITION, TableRules
from .shanten import shanten, useful_tiles, waits
from .tiles import TILES

__all__ = [
    "BOT_KINDS",
    "Bot",
    "EfficiencyBot",
    "FanBot",
    "RandomBot",
    "danger",
    "make_bot",
    "threats",
]

_DISCARD, _CHOW, _PUNG, _KONG = (
    ActionKind.DISCARD,
    ActionKind.CHOW,
    ActionKind.PUNG,
    ActionKind.KONG,
)
_CONCEALED_KONG, _ADDED_KONG = ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG

LATE_WALL: Final = 20
"""With this many tiles or fewer left in the wall, every other seat is treated as ready."""


# ---------------------------------------------------------------------------------------------
# Reading the view
# ---------------------------------------------------------------------------------------------


def _counts(view: SeatView) -> list[int]:
    counts = [0] * 34
    for t in view.hand:
        counts[t] += 1
    return counts


def _visible(view: SeatView) -> list[int]:
    """Copies on the table this seat can see (:meth:`SeatView.visible_counts`)."""
    return view.visible_counts()


def _unseen(view: SeatView, counts: Sequence[int]) -> list[int]:
    """Copies of each kind this seat has not seen: neither in its hand nor on the table.

    Discarding or claiming moves tiles between the hand and the table, so this stays the same
    for every action the seat considers.
    """
    seen = _visible(view)
    return [max(0, 4 - counts[t] - seen[t]) for t in range(34)]


def _after_claim(counts: Sequence[int], action: Action, tile: int) -> list[int]:
    """The standing tiles after claiming ``tile`` with a chow, pung or kong."""
    after = list(counts)
    assert action.tile is not None
    if action.kind is _CHOW:
        for u in range(action.tile, action.tile + 3):
            if u != tile:
                after[u] -= 1
    else:
        after[tile] -= 3 if action.kind is _KONG else 2
    return after


def _after_kong(counts: Sequence[int], action: Action) -> list[int]:
    """The standing tiles after a concealed kong (four tiles) or an added kong (one tile)."""
    assert action.tile is not None
    after = list(counts)
    after[action.tile] -= 4 if action.kind is _CONCEALED_KONG else 1
    return after


# ---------------------------------------------------------------------------------------------
# Defence
# ---------------------------------------------------------------------------------------------


def threats(view: SeatView) -> tuple[int, ...]:
    """Seats that look ready: three or more declared melds (face-down kongs included), or every
    other seat late in the wall."""
    late = view.wall_remaining <= LATE_WALL
    return tuple(
        s
        for s in range(4)
        if s != view.seat and (late or len(view.melds[s]) + view.concealed_kongs[s] >= 3)
    )


def danger(tile: int, view: SeatView, against: Sequence[int], seen: Sequence[int]) -> float:
    """How likely discarding ``tile`` feeds one of ``against`` (0 safe .. 1 per threatening seat).

    MCR has no furiten, so even a seat's own discards (genbutsu) are only fairly safe; honours
    with three copies seen (``seen`` includes this hand) can hardly complete anything; suji
    (a tile three ranks from one the seat discarded) is safe against two-sided waits only.
    """
    total = 0.0
    for seat in against:
        pool = view.discards[seat]
        if tile in pool:
            total += 0.1
        elif tile >= 27:
            total += (1.0, 0.8, 0.5, 0.05, 0.0)[min(seen[tile], 4)]
        else:
            rank = tile % 9
            low = rank < 3 or tile - 3 in pool
            high = rank > 5 or tile + 3 in pool
            base = 0.75 if rank in (0, 8) else 1.0
            total += base * (0.45 if low and high else 0.8 if low or high else 1.0)
    return total


# ---------------------------------------------------------------------------------------------
# The bots
# ---------------------------------------------------------------------------------------------


class Bot:
    """The shared part: a name, a seeded generator, and the always-win rule."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to choose now")
        if WIN in legal:
            return WIN
        return self.decide(view)

    def decide(self, view: SeatView) -> Action:
        """Any action of ``view.legal_actions`` but a win (which :meth:`choose` always takes)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomBot(Bot):
    """A uniformly random legal action; a legal win is always taken."""

    name = "random"

    def decide(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions)


class EfficiencyBot(Bot):
    """Tile efficiency: lowest shanten, then most live useful tiles; defends when others look ready.

    ``defend=False`` never folds (every discard then keeps the lowest shanten).
    """

    name = "efficiency"

    def __init__(self, seed: int | None = None, *, defend: bool = True) -> None:
        super().__init__(seed)
        self.defend = defend

    def decide(self, view: SeatView) -> Action:
        counts = _counts(view)
        melds = len(view.melds[view.seat])
        unseen = _unseen(view, counts)
        if view.phase is not Phase.ACT:
            return self._respond(view, counts, melds, unseen)
        options = self._discards(counts, melds, unseen)
        best_shanten = options[0][0]
        for action in view.legal_actions:  # a kong that keeps the shanten: a free extra draw
            if action.kind in (_CONCEALED_KONG, _ADDED_KONG):
                kong_melds = melds + (action.kind is _CONCEALED_KONG)
                if shanten(_after_kong(counts, action), kong_melds) <= best_shanten:
                    return action
        if self.defend and best_shanten >= 2:
            against = threats(view)
            if against:
                seen = [4 - u for u in unseen]
                safest = min(options, key=lambda o: (danger(o[2], view, against, seen), o))
                return Action(_DISCARD, TILES[safest[2]])
        top = [o for o in options if o[:2] == options[0][:2]]
        return Action(_DISCARD, TILES[self.rng.choice(top)[2]])

    @staticmethod
    def _discards(
        counts: list[int], melds: int, unseen: Sequence[int]
    ) -> list[tuple[int, int, int]]:
        """(shanten, -live useful tiles, tile) of every distinct discard, best first.

        Shanten is computed for every candidate (a few table lookups each); the useful tiles only
        for the candidates that reach the lowest shanten.
        """
        by_shanten: list[tuple[int, int]] = []
        for t in range(34):
            if counts[t]:
                counts[t] -= 1
                by_shanten.append((shanten(counts, melds), t))
                counts[t] += 1
        low = min(s for s, _ in by_shanten)
        options: list[tuple[int, int, int]] = []
        for s, t in by_shanten:
            live = 0
            if s == low:
                counts[t] -= 1
                live = sum(unseen[u] for u in useful_tiles(counts, melds))
                counts[t] += 1
            options.append((s, -live, t))
        options.sort()
        return options

    @staticmethod
    def _standing(counts: list[int], melds: int, unseen: Sequence[int]) -> tuple[int, int]:
        """(shanten, -live useful tiles) of a 13-form hand."""
        return shanten(counts, melds), -sum(unseen[u] for u in useful_tiles(counts, melds))

    def _respond(self, view: SeatView, counts: list[int], melds: int, unseen: list[int]) -> Action:
        """Claim when it lowers the shanten, or keeps it with more live useful tiles."""
        tile = view.last_discard
        legal = view.legal_actions
        best: tuple[tuple[int, int], Action] | None = None
        if tile is not None and len(legal) > 1:
            now = self._standing(counts, melds, unseen)
            for action in legal:
                if action.kind not in (_CHOW, _PUNG, _KONG):
                    continue
                after = _after_claim(counts, action, tile)
                if action.kind is _KONG:  # 13 tiles left, and a replacement to draw
                    score = self._standing(after, melds + 1, unseen)
                else:
                    top = self._discards(after, melds + 1, unseen)[0]
                    score = (top[0], top[1])
                if score < now and (best is None or score < best[0]):
                    best = (score, action)
        if best is not None:
            return best[1]
        return next(a for a in legal if a.kind is ActionKind.PASS)


# ---------------------------------------------------------------------------------------------
# Plan shanten: the regular shanten of any part of a hand
#
# A plan keeps some kinds of tile and may fix some sets (花龙's three chows, a dragon pung); its
# shanten is ``8 - 2·sets - partial sets - pair`` over the tiles it keeps, with the fixed sets
# counted as declared and each missing tile of a fixed set counted once. guobiao.shanten answers
# for whole 13- and 14-tile hands only, so the per-suit tables are built here for any tile count:
# a suit's counts map to a vector of its best (sets, partial sets, pair), vectors combine through
# a memoised table, and a combined vector maps to the shanten for 0-4 fixed sets.
# ---------------------------------------------------------------------------------------------

_Vector = tuple[int, ...]  # v[p * 5 + m]: most partial sets with m sets and p pairs; -1: impossible
_VECTORS: list[_Vector] = []
_VECTOR_IDS: dict[_Vector, int] = {}
_FINALS: list[tuple[int, ...]] = []  # by vector id: the shanten with 0..4 sets fixed
_SPLITS: dict[bytes, tuple[tuple[int, int, int], ...]] = {}
_PATTERN_IDS: dict[bytes, int] = {}  # a group's counts (9 suited or 7 honours) -> vector id
_COMBINED: dict[int, int] = {}  # a << 20 | b -> vector id of the two groups together


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
        _SPLITS[pattern] = ((0, 0, 0),)
        return _SPLITS[pattern]
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
    _SPLITS[pattern] = best
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
        vid = _PATTERN_IDS[pattern] = _intern(tuple(v))
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


# ---------------------------------------------------------------------------------------------
# FanBot
# ---------------------------------------------------------------------------------------------

PLAN_BASE: Final = 0.3
"""A position is worth the sum over plans of PLAN_BASE ** (shanten + penalty): a soft minimum."""
PLAN_KEEP: Final = 2.5
"""Plans further than this behind the best on the 14-tile hand are not scored for its discards."""
READY_SELF_DRAWN: Final = 0.35
"""A live winning tile that reaches 8 points only when self-drawn counts this much of one."""
READY_MIN: Final = 1.0
"""A ready hand is a *winning* ready hand when its live winning tiles count at least this."""
FOLD_COST: Final = 3.0
"""FanBot folds when another seat looks ready and its best plan is this far or further."""
CLAIM_MARGIN: Final = 1.3
"""A claim must make the position worth this many times more (the hand opens: no 门前清)."""

_Worth = tuple[int, float, float]
"""What a 13-tile position is worth, compared as a tuple, in three tiers:

- ``(2, live winning tiles, points)``: ready, and some waits reach 8 points (a wait that reaches
  them only when self-drawn counts READY_SELF_DRAWN of a tile);
- ``(1, expected, 0)``: one tile from ready, and some draws make such a hand: ``expected`` sums,
  over the useful draws, their live copies times the live winning tiles of the best hand each
  gives (the fan calculator decides, so every fan combination counts, not only the plans);
- ``(0, plans, -shanten)``: anything else, by its plans.
"""

_ReadyKey = tuple[bytes, tuple[tuple[MeldKind, int], ...], int, int, str, int]
_READY: dict[_ReadyKey, tuple[tuple[int, int, int], ...]] = {}
"""(standing tiles, melds, seat, round wind, fan profile, minimum) of a ready hand -> (wait,
points on a discard, points self-drawn) of each wait, without 和绝张. Shared by every FanBot."""
_FOURTH: dict[tuple[_ReadyKey, int], int] = {}
"""A ready hand and a wait -> points on a discard when it is the last copy (和绝张)."""


class FanBot(Bot):
    """Plans toward hands worth 8 points; see the module docstring.

    ``rules`` gives the fan profile and minimum the bot plays for (the view does not carry them).
    """

    name = "fan"

    def __init__(
        self, seed: int | None = None, *, rules: TableRules = COMPETITION, defend: bool = True
    ) -> None:
        super().__init__(seed)
        self.rules = rules
        self.defend = defend
        self._plans: dict[tuple[int, int], tuple[_Plan, ...]] = {}

    def decide(self, view: SeatView) -> Action:
        counts = _counts(view)
        melds = view.melds[view.seat]
        key = (view.seat, int(view.round_wind))
        plans = self._plans.get(key)
        if plans is None:
            plans = self._plans[key] = _plans_for(*key)
        turn = _Turn(view, _unseen(view, counts), plans)
        if view.phase is not Phase.ACT:
            return self._respond(turn, counts, melds)
        ranked = self._discards(turn, counts, melds)
        best_worth, best_tile, best_cost = ranked[0]
        for action in view.legal_actions:
            if action.kind in (_CONCEALED_KONG, _ADDED_KONG):
                after = _after_kong(counts, action)
                if self._worth(turn, after, _kong_melds(melds, action)) >= best_worth:
                    return action
        if self.defend and best_worth[0] == 0 and best_cost >= FOLD_COST:
            against = threats(view)
            if against:
                seen = [4 - u for u in turn.unseen]
                order = {tile: i for i, (_, tile, _) in enumerate(ranked)}
                safest = min(order, key=lambda t: (danger(t, view, against, seen), order[t]))
                return Action(_DISCARD, TILES[safest])
        return Action(_DISCARD, TILES[best_tile])

    def _discards(
        self, turn: _Turn, counts: list[int], melds: tuple[Meld, ...]
    ) -> list[tuple[_Worth, int, float]]:
        """(worth, tile, cost of the best plan) of the distinct discards of a 14-form hand, best
        first.

        Tier by tier (see ``_Worth``): if some discards leave a winning ready hand, only those are
        ranked; else if some leave a hand one tile from one, only those; else every discard by its
        plans (and the cost of its best plan, for folding). Only the plans within PLAN_KEEP of the
        best on the 14 tiles are scored: a discard never lowers a plan's shanten.
        """
        m = len(melds)
        general: list[tuple[int, int]] = []
        for t in range(34):
            if counts[t]:
                counts[t] -= 1
                general.append((shanten(counts, m), t))
                counts[t] += 1
        options: list[tuple[_Worth, float, int, float]] = []
        for s, t in general:
            if s == 0:
                counts[t] -= 1
                live, points = self._ready(turn, counts, melds)
                counts[t] += 1
                if live >= READY_MIN:
                    options.append(((2, live, points), self.rng.random(), t, 0.0))
        if not options:
            for s, t in general:
                if s == 1:
                    counts[t] -= 1
                    expected = self._one_away(turn, counts, melds)
                    counts[t] += 1
                    if expected > 0:
                        options.append(((1, expected, 0.0), self.rng.random(), t, 0.0))
        if not options:
            kept = _nearest(turn.plans, _Position(counts, _meld_keys(melds), turn.unseen))
            for s, t in general:
                counts[t] -= 1
                value, cost = _plans_worth(
                    _Position(counts, _meld_keys(melds), turn.unseen), kept, s == 0
                )
                counts[t] += 1
                options.append(((0, value, -s), self.rng.random(), t, cost))
        options.sort(reverse=True)
        return [(worth, t, cost) for worth, _, t, cost in options]

    def _worth(self, turn: _Turn, counts: list[int], melds: tuple[Meld, ...]) -> _Worth:
        """What a 13-form position is worth (see ``_Worth``)."""
        general = shanten(counts, len(melds))
        if general == 0:
            live, points = self._ready(turn, counts, melds)
            if live >= READY_MIN:
                return (2, live, points)
        elif general == 1:
            expected = self._one_away(turn, counts, melds)
            if expected > 0:
                return (1, expected, 0.0)
        pos = _Position(counts, _meld_keys(melds), turn.unseen)
        return (0, _plans_worth(pos, _nearest(turn.plans, pos), general == 0)[0], -general)

    def _one_away(self, turn: _Turn, counts: list[int], melds: tuple[Meld, ...]) -> float:
        """For a hand one tile from ready: the sum over useful draws of their live copies times
        the live winning tiles of the best ready hand the draw allows (0: no route to a win)."""
        m = len(melds)
        unseen = turn.unseen
        total = 0.0
        for x in useful_tiles(counts, m):
            copies = unseen[x]
            if copies <= 0 or counts[x] >= 4:
                continue
            counts[x] += 1
            unseen[x] -= 1
            best = 0.0
            for y in range(34):
                if counts[y] and y != x:
                    counts[y] -= 1
                    if shanten(counts, m) == 0:
                        best = max(best, self._ready(turn, counts, melds)[0])
                    counts[y] += 1
            counts[x] -= 1
            unseen[x] += 1
            total += copies * best
        return total

    def _ready(self, turn: _Turn, counts: list[int], melds: tuple[Meld, ...]) -> tuple[float, int]:
        """Live winning tiles (self-drawn-only wins weighted) and the best points of a ready hand."""
        minimum = self.rules.minimum
        key = (
            bytes(counts),
            tuple((m.kind, int(m.tile)) for m in melds),
            turn.seat,
            turn.round_wind,
            self.rules.fan_profile,
            minimum,
        )
        scores = _READY.get(key)
        if scores is None:
            if len(_READY) > 100_000:
                _READY.clear()
                _FOURTH.clear()
            hand = Hand(tuple(TILES[t] for t in range(34) for _ in range(counts[t])), melds)
            held = list(counts)
            for meld in melds:
                for t in meld.tiles:
                    held[t] += 1
            found = []
            for w in waits(counts, len(melds)):
                if held[w] < 4:
                    on_discard = self._points(hand, w, turn, False, False)
                    # self-drawn scores at least as much (自摸, or 不求人 for 门前清)
                    drawn = on_discard
                    if on_discard < minimum:
                        drawn = self._points(hand, w, turn, True, False)
                    found.append((w, on_discard, drawn))
            scores = _READY[key] = tuple(found)
        live = 0.0
        best = 0
        for w, on_discard, self_drawn in scores:
            copies = turn.unseen[w]
            if copies <= 0:
                continue
            if copies == 1 and counts[w] == 0 and on_discard < minimum:  # 和绝张 may be enough
                fourth = _FOURTH.get((key, w))
                if fourth is None:
                    hand = Hand(tuple(TILES[t] for t in range(34) for _ in range(counts[t])), melds)
                    fourth = _FOURTH[key, w] = self._points(hand, w, turn, False, True)
                on_discard = fourth
            if on_discard >= minimum:
                live += copies
            elif self_drawn >= minimum:
                live += copies * READY_SELF_DRAWN
            best = max(best, on_discard, self_drawn)
        return live, best

    def _points(self, hand: Hand, w: int, turn: _Turn, self_drawn: bool, fourth: bool) -> int:
        context = WinContext(
            TILES[w],
            self_drawn=self_drawn,
            fourth_tile=fourth,
            seat_wind=Wind(turn.seat),
            round_wind=Wind(turn.round_wind),
        )
        result = calculate(hand, context, self.rules.fan_profile)
        return result.points_without_flowers if result.is_winning else 0

    def _respond(self, turn: _Turn, counts: list[int], melds: tuple[Meld, ...]) -> Action:
        view = turn.view
        tile = view.last_discard
        legal = view.legal_actions
        best: tuple[_Worth, Action] | None = None
        if tile is not None and len(legal) > 1:
            now = self._worth(turn, counts, melds)
            offered = (view.current - view.seat) % 4
            for action in legal:
                if action.kind not in (_CHOW, _PUNG, _KONG):
                    continue
                after = _after_claim(counts, action, tile)
                assert action.tile is not None
                if action.kind is _CHOW:
                    meld = Meld(MeldKind.CHOW, action.tile, offered, TILES[tile])
                else:
                    kind = MeldKind.KONG if action.kind is _KONG else MeldKind.PUNG
                    meld = Meld(kind, TILES[tile], offered)
                claimed = (*melds, meld)
                if action.kind is _KONG:
                    worth = self._worth(turn, after, claimed)
                else:
                    worth = self._discards(turn, after, claimed)[0][0]
                if _better_claim(worth, now) and (best is None or worth > best[0]):
                    best = (worth, action)
        if best is not None:
            return best[1]
        return next(a for a in legal if a.kind is ActionKind.PASS)


def _meld_keys(melds: Sequence[Meld]) -> tuple[tuple[int, int, bool], ...]:
    return tuple(_meld_key(m) for m in melds)


def _nearest(plans: Sequence[_Plan], pos: _Position) -> tuple[_Plan, ...]:
    """The plans within PLAN_KEEP of the best one (cost plus penalty) for this position."""
    scored = []
    for plan in plans:
        cost = plan.cost(pos)
        if cost is not None:
            scored.append((cost + plan.penalty, plan))
    floor = min((c for c, _ in scored), default=0.0)
    return tuple(p for c, p in scored if c <= floor + PLAN_KEEP)


def _plans_worth(pos: _Position, plans: Sequence[_Plan], ready: bool) -> tuple[float, float]:
    """Sum of PLAN_BASE ** (cost + penalty) over the plans, and the lowest cost + penalty.

    ``ready``: the hand is ready but no wait reaches 8 points, so no plan is ready either."""
    value = 0.0
    best = 99.0
    for plan in plans:
        cost = plan.cost(pos)
        if cost is not None:
            if ready and cost <= 0:
                cost = 1
            value += PLAN_BASE ** (cost + plan.penalty)
            best = min(best, cost + plan.penalty)
    return value, best


def _better_claim(claim: _Worth, now: _Worth) -> bool:
    if claim[0] != now[0]:
        return claim[0] > now[0]
    if claim[0] == 2:
        return claim[1] > now[1]
    return claim[1] > now[1] * CLAIM_MARGIN


def _kong_melds(melds: tuple[Meld, ...], action: Action) -> tuple[Meld, ...]:
    assert action.tile is not None
    if action.kind is _CONCEALED_KONG:
        return (*melds, Meld(MeldKind.CONCEALED_KONG, action.tile))
    return tuple(
        Meld(MeldKind.KONG, m.tile, m.offered_by)
        if m.kind is MeldKind.PUNG and m.tile == action.tile
        else m
        for m in melds
    )


class _Turn:
    """What one decision reads from the view, computed once."""

    __slots__ = ("plans", "round_wind", "seat", "unseen", "view")

    def __init__(self, view: SeatView, unseen: list[int], plans: tuple[_Plan, ...]) -> None:
        self.view = view
        self.seat = view.seat
        self.round_wind = int(view.round_wind)
        self.unseen = unseen
        self.plans = plans


BOT_KINDS: Final = ("fan", "efficiency", "random")
"""The bots by name, strongest first."""


def make_bot(kind: str, seed: int | None = None, rules: TableRules = COMPETITION) -> Bot:
    """A bot by name (``fan``, ``efficiency``, ``random``), seeded, playing to ``rules``."""
    if kind == "fan":
        return FanBot(seed, rules=rules)
    if kind == "efficiency":
        return EfficiencyBot(seed)
    if kind == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot {kind!r}: choose from {', '.join(BOT_KINDS)}")
