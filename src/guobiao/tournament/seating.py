"""Seating of a tournament of tables of four: the draw (抽签定位) and the later sessions.

第六条五(二) 依抽签结果就座: session one is a seeded draw. Later sessions are scheduled so players
meet as many different opponents as possible, team-mates never share a table, and the starting
winds are balanced. Player counts not divisible by four: byes or substitute places (第十二条).
The seat rotation between rounds inside a session is ``guobiao.table.session.seating`` (第五条九); a
``Table`` gives its players' seats at any hand through it. Sessions after ones already played:
``continue_schedule`` (the re-draw after a withdrawal, 第十二条二) and ``pair_session`` (final
rounds from the standings: swiss, strongest together). Method and figures: docs/seating.md.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from guobiao.table.session import seating as _session_seating

__all__ = [
    "PAIRINGS",
    "Bound",
    "ByeBound",
    "Pairing",
    "Quality",
    "Schedule",
    "SessionSeating",
    "Table",
    "best_possible",
    "bye_bound",
    "continue_schedule",
    "draw_session_one",
    "pair_session",
    "quality",
    "schedule",
]

WINDS = ("E", "S", "W", "N")
_TEAM_CLASH = 1_000_000  # cost of team-mates at one table: effectively forbidden
_PERMS = tuple(itertools.permutations(range(4)))  # identity first: ties keep the drawn order
Pairing = Literal["swiss", "strongest"]
PAIRINGS: tuple[Pairing, ...] = ("swiss", "strongest")
"""Final-round pairings from the standings (``pair_session``)."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table of one session: ``seats`` are the players at E, S, W, N at the first hand
    (A B C D of ``guobiao.table.session``)."""

    number: int
    seats: tuple[str, str, str, str]

    def seats_at(self, hand_number: int) -> tuple[str, str, str, str]:
        """Players at E, S, W, N in hand ``hand_number`` (0-15): the rotation of 第五条九."""
        a, b, c, d = _session_seating(hand_number)
        return self.seats[a], self.seats[b], self.seats[c], self.seats[d]


@dataclass(frozen=True, slots=True)
class SessionSeating:
    """The tables of one session (局) and the players on a bye (轮空) in it."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Schedule:
    """Seating of every session. ``substitutes`` are the placeholder places added when
    ``fill="substitute"`` (陪打, 第十二条三(二)): the organiser names who takes them."""

    players: tuple[str, ...]
    sessions: tuple[SessionSeating, ...]
    method: str
    substitutes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Quality:
    """Figures of a schedule. ``repeat_meetings`` counts meetings beyond a pair's first;
    ``wind_spread`` is the largest (most - fewest starting seats of one wind) of any player:
    0 or 1 is as even as possible (``Bound.wind_spread``)."""

    repeated_pairs: int
    repeat_meetings: int
    max_meetings: int
    min_opponents: int
    mean_opponents: float
    team_meetings: int
    wind_spread: int
    min_byes: int
    max_byes: int
    min_team_byes: int = 0
    max_team_byes: int = 0


@dataclass(frozen=True, slots=True)
class ByeBound:
    """The most even byes possible (``bye_bound``): each player ``player_min`` or ``player_max``
    byes, and the teams' bye counts (members' byes added up) at best ``team_min`` … ``team_max``
    with the players' byes that even."""

    player_min: int
    player_max: int
    team_min: int
    team_max: int


@dataclass(frozen=True, slots=True)
class Bound:
    """Best possible figures for ``n_players`` over ``sessions`` with the fewest byes:
    at least ``repeat_meetings`` repeat meetings and a pair meeting ``max_meetings`` times,
    at most ``max_min_opponents`` distinct opponents for the worst-off player, and a wind spread
    of ``wind_spread`` (0 when everyone plays a multiple of four sessions, else 1)."""

    repeat_meetings: int
    max_meetings: int
    max_min_opponents: int
    wind_spread: int


# --- the affine geometry AG(k, 4) over GF(4) -------------------------------------------------
# GF(4) = {0, 1, a, a+1} as 0, 1, 2, 3: addition is XOR, a² = a + 1. A point of AG(k, 4) is an int
# of k base-4 digits, so adding two points is XOR of the ints, coordinate by coordinate.

_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _scale(t: int, point: int, k: int) -> int:
    return sum(_GF4_MUL[t][(point >> (2 * i)) & 3] << (2 * i) for i in range(k))


def _directions(k: int) -> list[int]:
    """Points of PG(k-1, 4): non-zero vectors whose leading non-zero digit is 1."""
    out = []
    for v in range(1, 4**k):
        top = max(i for i in range(k) if (v >> (2 * i)) & 3)
        if (v >> (2 * top)) & 3 == 1:
            out.append(v)
    return out


def _parallel_class(direction: int, k: int) -> list[list[int]]:
    """The lines {p + t·d : t in GF(4)} with direction d: a partition of the 4^k points."""
    steps = [_scale(t, direction, k) for t in range(4)]
    seen: set[int] = set()
    lines = []
    for p in range(4**k):
        if p not in seen:
            line = [p ^ s for s in steps]
            seen.update(line)
            lines.append(line)
    return lines


def _power_of_four(n: int) -> int:
    """k with n == 4^k (k >= 2), else 0."""
    k = 0
    while n > 1 and n % 4 == 0:
        n //= 4
        k += 1
    return k if n == 1 and k >= 2 else 0


# --- resolvable transversal designs RTD(4, q) over GF(q) --------------------------------------
# The 4q points are (i, x): a group i in 0..3 and x in GF(q). For m in GF(q) the blocks
# {(i, m·i + b) : i = 0..3}, b in GF(q), are a parallel class (b = x − m·i puts (i, x) in one
# block). Two points of different groups (i, x), (j, y) share a block of class m only when
# m·(i − j) = x − y: exactly one m, since i − j ≠ 0 (0, 1, 2, 3 are distinct elements once q ≥ 4).
# Two points of one group never share a block. So q sessions where nobody meets anyone twice and
# each group of q never meets itself; a class held out of play is q disjoint tables that never
# meet again in the other q − 1.


def _prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with q == p^k, p prime and k >= 1, else None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)  # the smallest factor is prime
    k = 0
    while q % p == 0:
        q //= p
        k += 1
    return (p, k) if q == 1 else None


def _poly_mod(a: list[int], f: list[int], p: int) -> list[int]:
    """a mod f over GF(p); coefficients lowest first, f monic."""
    a = a[:]
    d = len(f) - 1
    for top in range(len(a) - 1, d - 1, -1):
        c = a[top]
        if c:
            for j in range(d + 1):
                a[top - d + j] = (a[top - d + j] - c * f[j]) % p
    return a[:d]


def _irreducible(p: int, k: int) -> list[int]:
    """The first monic irreducible polynomial of degree k over GF(p) (coefficients lowest first),
    counting the lower coefficients as base-p digits: x² + x + 1 for GF(4), x³ + x + 1 for GF(8),
    x² + 1 for GF(9). Irreducible: no monic divisor of degree 1 to k/2."""
    for t in range(p**k):
        f = [(t // p**i) % p for i in range(k)] + [1]
        if all(
            any(_poly_mod(f, [(u // p**i) % p for i in range(d)] + [1], p))
            for d in range(1, k // 2 + 1)
            for u in range(p**d)
        ):
            return f
    raise AssertionError("there is an irreducible polynomial of every degree")  # pragma: no cover


class GaloisField:
    """GF(q), q = p^k: the elements are 0 … q − 1; the base-p digits of an element are the
    coefficients (lowest first) of a polynomial over GF(p) of degree < k, multiplied modulo
    ``modulus`` (``_irreducible``). With k = 1 this is arithmetic modulo p."""

    def __init__(self, q: int) -> None:
        pk = _prime_power(q)
        if pk is None:
            raise ValueError(f"{q} is not a prime power")
        self.q = q
        self.p, self.k = pk
        self.modulus = _irreducible(self.p, self.k)

    def _digits(self, x: int) -> list[int]:
        return [(x // self.p**i) % self.p for i in range(self.k)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p**i for i, d in enumerate(digits))

    def add(self, x: int, y: int) -> int:
        if self.k == 1:
            return (x + y) % self.p
        return self._number(
            [(a + b) % self.p for a, b in zip(self._digits(x), self._digits(y), strict=True)]
        )

    def neg(self, x: int) -> int:
        return self._number([-a % self.p for a in self._digits(x)])

    def mul(self, x: int, y: int) -> int:
        if self.k == 1:
            return x * y % self.p
        a, b = self._digits(x), self._digits(y)
        product = [0] * (2 * self.k - 1)
        for i, u in enumerate(a):
            for j, v in enumerate(b):
                product[i + j] = (product[i + j] + u * v) % self.p
        return self._number(_poly_mod(product, self.modulus, self.p))


def transversal_classes(q: int, count: int | None = None, start: int = 0) -> list[list[list[int]]]:
    """Parallel classes ``start`` … ``start + count − 1`` of RTD(4, q) (all q by default), q a prime
    power >= 4: each a list of q blocks [(0, x0), (1, x1), (2, x2), (3, x3)] as point numbers
    i·q + x. Class m holds the blocks {(i, m·i + b)}; class 0 is {(i, b) : i}."""
    field = GaloisField(q)
    if q < 4:
        raise ValueError("RTD(4, q) needs q >= 4")
    stop = q if count is None else min(q, start + count)
    classes: list[list[list[int]]] = []
    for m in range(start, stop):
        steps = [field.mul(m, i) for i in range(4)]
        classes.append([[i * q + field.add(steps[i], b) for i in range(4)] for b in range(q)])
    return classes


# --- the schedule ------------------------------------------------------------------------------


def _team_index(
    players: Sequence[str], teams: Mapping[str, Iterable[str]] | None
) -> tuple[list[int], list[list[int]]]:
    index = {p: i for i, p in enumerate(players)}
    team_of = [-1] * len(players)
    groups: list[list[int]] = []
    for name, members in (teams or {}).items():
        group = []
        for m in members:
            if m not in index:
                raise ValueError(f"team {name!r}: {m!r} is not a player")
            if team_of[index[m]] != -1:
                raise ValueError(f"{m!r} is in two teams")
            team_of[index[m]] = len(groups)
            group.append(index[m])
        groups.append(group)
    return team_of, groups


def _design_points(
    n: int, k: int, groups: list[list[int]], order: list[int]
) -> tuple[list[int], int] | None:
    """Map players to points of AG(k, 4). With teams, each team fills part of a line of a
    reserved parallel class (direction 1), so team-mates never share a line of any other."""
    if not groups:
        point_of = [0] * n
        for point, player in enumerate(order):
            point_of[player] = point
        return point_of, 0
    lines = _parallel_class(1, k)
    room = [4] * len(lines)
    filled: list[list[int]] = [[] for _ in lines]
    for group in sorted(groups, key=len, reverse=True):
        best = max(range(len(lines)), key=lambda i: room[i])
        if room[best] < len(group):
            return None
        filled[best].extend(group)
        room[best] -= len(group)
    in_team = {p for g in groups for p in g}
    rest = iter(p for p in order if p not in in_team)
    point_of = [0] * n
    for line, members in zip(lines, filled, strict=True):
        members.extend(next(rest) for _ in range(4 - len(members)))
        for point, player in zip(line, members, strict=True):
            point_of[player] = point
    return point_of, 1


@dataclass(frozen=True, slots=True)
class _Design:
    """A design that seats ``capacity`` sessions with no pair meeting twice and team-mates apart;
    ``classes(c)`` gives its first c sessions as tables of player indices."""

    name: str
    capacity: int
    classes: Callable[[int], list[list[list[int]]]]


def _affine_design(n: int, groups: list[list[int]], order: list[int]) -> _Design | None:
    k = _power_of_four(n)
    mapped = _design_points(n, k, groups, order) if k else None
    if mapped is None:
        return None
    point_of, reserved = mapped
    player_at = {pt: p for p, pt in enumerate(point_of)}
    usable = _directions(k)[reserved:]

    def classes(count: int) -> list[list[list[int]]]:
        return [
            [[player_at[pt] for pt in line] for line in _parallel_class(d, k)]
            for d in usable[:count]
        ]

    return _Design(f"affine geometry AG({k}, 4)", len(usable), classes)


def _pack(
    groups: list[list[int]], bins: int, size: int, place: Mapping[int, int]
) -> list[list[int]] | None:
    """Teams into ``bins`` bins of ``size`` places, largest first, each into the emptiest bin
    (ties: the earlier team in the draw first, the first bin); None when one does not fit."""
    filled: list[list[int]] = [[] for _ in range(bins)]
    for group in sorted(
        (g for g in groups if g), key=lambda g: (-len(g), min(place[p] for p in g))
    ):
        best = min(range(bins), key=lambda i: len(filled[i]))
        if len(filled[best]) + len(group) > size:
            return None
        filled[best].extend(group)
    return filled


def _transversal_design(n: int, groups: list[list[int]], order: list[int]) -> _Design | None:
    """RTD(4, q) for n = 4q, q a prime power >= 4. Teams are packed into the design's groups when
    they fit (team-mates then never meet: q sessions), else into the blocks of class 0, which is
    held out of play (q − 1 sessions)."""
    q = n // 4
    if n % 4 or q < 4 or _prime_power(q) is None:
        return None
    place = {p: i for i, p in enumerate(order)}
    held = 0
    bins = _pack(groups, 4, q, place)  # bin i: the points (i, x)
    if bins is None:
        held = 1
        bins = _pack(groups, q, 4, place)  # bin b: the block {(i, b)} of class 0
        if bins is None:
            return None
    in_team = {p for g in groups for p in g}
    rest = iter([p for p in order if p not in in_team])
    size = n // len(bins)
    player_at = [0] * n
    for b, members in enumerate(bins):
        members.extend(next(rest) for _ in range(size - len(members)))
        for j, player in enumerate(members):
            player_at[j * q + b if held else b * q + j] = player

    def classes(count: int) -> list[list[list[int]]]:
        return [
            [[player_at[pt] for pt in block] for block in blocks]
            for blocks in transversal_classes(q, count, start=held)
        ]

    name = f"resolvable transversal design RTD(4, {q}) over GF({q})"
    if groups:
        name += ", teams in a held-out parallel class" if held else ", teams within its groups"
    return _Design(name, q - held, classes)


def _best_design(n: int, groups: list[list[int]], order: list[int]) -> _Design | None:
    """The design with the most sessions for this field and these teams (the affine geometry on
    a tie), or None."""
    found = [
        d
        for d in (_affine_design(n, groups, order), _transversal_design(n, groups, order))
        if d is not None
    ]
    return max(found, key=lambda d: d.capacity) if found else None


def _seat_session(
    active: list[int],
    n_tables: int,
    meet: list[list[int]],
    team_of: list[int],
    rng: random.Random,
) -> list[list[int]]:
    """Greedy deal then swaps between tables minimising Σ earlier meetings of each table's pairs
    (a team clash costs ``_TEAM_CLASH``)."""

    def cost(a: int, b: int) -> int:
        t = team_of[a]
        return meet[a][b] + (_TEAM_CLASH if t != -1 and t == team_of[b] else 0)

    # team members first (largest teams first), so each is dealt to a table without a team-mate
    sizes: dict[int, int] = {}
    for p in active:
        sizes[team_of[p]] = sizes.get(team_of[p], 0) + 1
    order = sorted(active, key=lambda p: -sizes[team_of[p]] if team_of[p] != -1 else 1)
    tables: list[list[int]] = [[] for _ in range(n_tables)]
    for p in order:
        best, best_cost = -1, 0
        for i, table in enumerate(tables):
            if len(table) < 4:
                c = sum(cost(p, x) for x in table)
                if best == -1 or c < best_cost:
                    best, best_cost = i, c
                    if c == 0:
                        break
        tables[best].append(p)
    if n_tables < 2:
        return tables
    where = {p: i for i, table in enumerate(tables) for p in table}
    total = sum(cost(a, b) for t in tables for a, b in itertools.combinations(t, 2))
    budget, patience = 2000 + 60 * len(active), 300 + 10 * len(active)
    last_gain = 0
    for step in range(budget):
        if total == 0 or step - last_gain > patience:
            break
        a = active[rng.randrange(len(active))]
        ta = tables[where[a]]
        out_a = sum(cost(a, x) for x in ta if x != a)
        if out_a == 0:
            continue
        b = active[rng.randrange(len(active))]
        if where[b] == where[a]:
            continue
        tb = tables[where[b]]
        out_b = sum(cost(b, y) for y in tb if y != b)
        in_b = sum(cost(b, x) for x in ta if x != a)
        in_a = sum(cost(a, y) for y in tb if y != b)
        delta = in_a + in_b - out_a - out_b
        if delta <= 0:
            ia, ib = where[a], where[b]
            ta[ta.index(a)] = b
            tb[tb.index(b)] = a
            where[a], where[b] = ib, ia
            total += delta
            if delta < 0:
                last_gain = step
    return tables


def _balance_winds(sessions: list[list[list[int]]], n: int, fixed: int) -> None:
    """Order each table's players over E S W N so each player's starting winds are as even as
    possible: greedily session by session, then along alternating paths. The first ``fixed``
    sessions keep their seats (the draw: 第六条五(二) 依抽签结果就座)."""
    counts = [[0, 0, 0, 0] for _ in range(n)]
    for s, tables in enumerate(sessions):
        for i, table in enumerate(tables):
            if s >= fixed:
                choice, low = _PERMS[0], -1
                for perm in _PERMS:  # identity first: ties keep the order
                    c = sum(counts[table[perm[w]]][w] for w in range(4))
                    if low == -1 or c < low:
                        choice, low = perm, c
                tables[i] = [table[choice[w]] for w in range(4)]
            for w, p in enumerate(tables[i]):
                counts[p][w] += 1
    # What is left: alternating paths. Seen through two winds a and b, each later table is an
    # edge from its a-seated player to its b-seated one; a player with a twice more than b starts
    # a path that ends at a player with fewer a than b, and every table on it swaps its a and b
    # seats: the two ends move toward even, the players between keep their counts, Σ counts²
    # falls, so this ends. With nothing fixed every spread ends at most 1 (de Werra's balanced
    # edge colouring of the bipartite player-table graph); the kept draw can leave a few at 2.
    places: list[list[list[int]]] = [[] for _ in range(n)]
    for tables in sessions[fixed:]:
        for table in tables:
            for p in table:
                places[p].append(table)
    improved = True
    while improved:
        improved = False
        for start in range(n):
            for a, b in itertools.permutations(range(4), 2):
                if counts[start][a] - counts[start][b] >= 2 and _reverse_path(
                    start, a, b, places, counts
                ):
                    improved = True


def _reverse_path(
    start: int, a: int, b: int, places: list[list[list[int]]], counts: list[list[int]]
) -> bool:
    parent: dict[int, tuple[int, list[int]]] = {}
    queue, seen = [start], {start}
    for u in queue:
        for table in places[u]:
            if table[a] != u or table[b] in seen:
                continue
            v = table[b]
            seen.add(v)
            parent[v] = (u, table)
            if counts[v][a] < counts[v][b]:
                counts[start][a] -= 1
                counts[start][b] += 1
                counts[v][a] += 1
                counts[v][b] -= 1
                while v != start:
                    u, t = parent[v]
                    t[a], t[b] = v, u
                    v = u
                return True
            queue.append(v)
    return False


def _team_range(
    floor_: Sequence[int], sizes: Sequence[int], extra: int, low: int
) -> tuple[int, int] | None:
    """The narrowest range lo … hi of team bye counts when team t has ``floor_[t]`` byes plus
    up to ``sizes[t]`` extra ones, at most ``extra`` extra byes in all and at least ``low`` of
    them to teams (the players in no team take the rest); None without teams."""
    if not sizes:
        return None
    best: tuple[int, int, int] | None = None
    top = max(f + s for f, s in zip(floor_, sizes, strict=True))
    for lo in range(min(floor_), top + 1):
        for hi in range(lo, top + 1):
            need = [max(0, lo - f) for f in floor_]
            room = [min(s, hi - f) for f, s in zip(floor_, sizes, strict=True)]
            if any(a > b for a, b in zip(need, room, strict=True)):
                continue
            if sum(need) <= extra and sum(room) >= low:
                if best is None or hi - lo < best[0]:
                    best = (hi - lo, lo, hi)
                break
    return None if best is None else (best[1], best[2])


def bye_bound(n_players: int, sessions: int, team_sizes: Sequence[int] = ()) -> ByeBound:
    """The most even byes for ``n_players`` over ``sessions`` sessions with the fewest byes
    (n mod 4 a session): B = sessions·(n mod 4) byes, each player B // n or one more. Teams of
    ``team_sizes`` (the rest play in no team): the narrowest range of team counts (a team of
    size s has s·(B // n) + e byes, 0 ≤ e ≤ s of its members having the one more, the e's and
    the players in no team sharing the B mod n extra byes), found by trying every range."""
    total = sessions * (n_players % 4)
    base, extra = divmod(total, n_players) if n_players else (0, 0)
    loose = n_players - sum(team_sizes)
    found = _team_range([s * base for s in team_sizes], team_sizes, extra, max(0, extra - loose))
    team_min, team_max = found or (0, 0)
    return ByeBound(base, base + (1 if extra else 0), team_min, team_max)


def _fill_level(had: Sequence[int], total: int) -> tuple[int, int]:
    """Where ``total`` more byes leave players who have had ``had``, each given to a player with
    the fewest so far: everyone below ``level`` is raised to it, and ``extra`` of the players
    then at ``level`` (those who had it or fewer) get one more (``extra`` < their number)."""
    level = min(had, default=0)
    while sum(max(0, level + 1 - h) for h in had) <= total:
        level += 1
    return level, total - sum(max(0, level - h) for h in had)


def _bye_targets(had: Sequence[int], total: int, groups: list[list[int]]) -> list[int]:
    """How many of ``total`` more byes each team of ``groups`` takes, then (last) the players in
    no team together, after the byes ``had`` (one count a player; all 0 before the draw). Every
    bye goes to a player with the fewest so far (``_fill_level``), and the teams' final counts
    (``had`` plus the new byes) end in the narrowest range that allows (``_team_range``, as
    ``bye_bound``). The byes beyond each team's least go first to the players in no team (their
    byes move no team's count), then to the teams in order."""
    level, extra = _fill_level(had, total)
    in_team = {p for g in groups for p in g}
    top = [max(h, level) for h in had]  # each player's count before the extra byes
    floor_ = [sum(top[p] for p in g) for g in groups]
    sizes = [sum(1 for p in g if had[p] <= level) for g in groups]  # who may take one more
    loose = [p for p in range(len(had)) if p not in in_team]
    loose_open = sum(1 for p in loose if had[p] <= level)
    lo, hi = _team_range(floor_, sizes, extra, max(0, extra - loose_open)) or (0, 0)
    extras = [max(0, lo - f) for f in floor_]
    spare = extra - sum(extras)
    to_loose = min(loose_open, spare)
    spare -= to_loose
    for t, (f, s) in enumerate(zip(floor_, sizes, strict=True)):
        more = min(spare, min(s, hi - f) - extras[t])
        extras[t] += more
        spare -= more
    teams = [f + e - sum(had[p] for p in g) for f, e, g in zip(floor_, extras, groups, strict=True)]
    return [*teams, sum(top[p] - had[p] for p in loose) + to_loose]


def _bye_plan(
    turn: list[int],
    team_of: list[int],
    groups: list[list[int]],
    n_byes: int,
    sessions: int,
    had: Sequence[int] = (),
) -> list[list[int]]:
    """Who sits out each of ``sessions`` sessions, ``n_byes`` a session (第十二条一), by
    ``turn``, after the byes ``had`` already (one count a player of ``turn``; none by default).
    Every bye goes to a player with the fewest so far, and nobody has two in one session; the
    teams' final counts end in the narrowest range there is (``_bye_targets``: with players in
    no team, those take the byes that would tip the teams apart, or none); on the way each team
    (and the players in no team, as one) takes its byes at the pace of its final count over all
    the sessions, the one most behind first, so the teams stay even after every session too; and one session's byes come
    from different teams where there is a choice. A team with more members than the n // 4
    tables (a re-draw after a withdrawal) first sits out the members it has too many."""
    n = len(turn)
    total = n_byes * sessions
    if not total:
        return [[] for _ in range(sessions)]
    loose = len(groups)  # the players in no team: one more "team" in the targets
    had_now = list(had) or [0] * n
    target = _bye_targets(had_now, total, groups)
    unit = [team_of[p] if team_of[p] != -1 else loose for p in range(n)]
    place = {p: i for i, p in enumerate(turn)}
    too_many = [len(g) - n // 4 for g in groups]
    taken = [0] * (loose + 1)
    before = [0] * (loose + 1)  # each unit's byes had
    for p in range(n):
        before[unit[p]] += had_now[p]
    final = [b + t for b, t in zip(before, target, strict=True)]
    whole = sum(before) + total  # the byes of every session, the ones had included
    plan: list[list[int]] = []
    for slot in range(total):
        if slot % n_byes == 0:
            plan.append([])
        out = plan[-1]
        teams_out = {unit[p] for p in out if unit[p] != loose}
        # a team larger than the tables sits out its surplus first, its fewest byes first
        over = [t for t, k in enumerate(too_many) if sum(unit[p] == t for p in out) < k]
        pool = [p for p in turn if p not in out and (not over or unit[p] == over[0])]
        least = min(had_now[p] for p in pool)
        fresh = [p for p in pool if had_now[p] == least]
        in_turn = [p for p in fresh if taken[unit[p]] < target[unit[p]]] or fresh

        def key(p: int, slot: int = slot, teams_out: set[int] = teams_out) -> tuple[Any, ...]:
            u = unit[p]  # how far the unit is behind the pace of its final count
            behind = Fraction(final[u] * (whole - total + slot + 1), whole) - before[u] - taken[u]
            return (u in teams_out, -behind, place[p])

        chosen = min(in_turn, key=key)
        out.append(chosen)
        had_now[chosen] += 1
        taken[unit[chosen]] += 1
    return plan


def schedule(
    players: Sequence[str],
    sessions: int,
    *,
    teams: Mapping[str, Iterable[str]] | None = None,
    seed: int = 0,
    fill: Literal["bye", "substitute"] = "bye",
    keep_draw: bool = False,
    substitute_names: Sequence[str] = (),
) -> Schedule:
    """Tables for ``sessions`` sessions. Session one is the draw (第六条五(二)).

    ``teams`` maps a team name to its members (up to 4 players + a substitute): team-mates never
    share a table. With a count not divisible by four, ``fill="bye"`` sits the fewest players out
    each session, in turns (nobody twice before everyone once); ``fill="substitute"`` adds
    placeholder places 替补1… that the organiser fills with 陪打 (第十二条三(二)), or, given
    ``substitute_names`` (as many as places), those substitutes themselves (``teams`` may list
    them: they then never sit with their team). Byes (``_bye_plan``): the teams' counts end in
    the narrowest range ``bye_bound`` allows (the players in no team take the byes that would
    tip the teams apart, or none), stay even after every session where they can, and no team
    has two byes in one session where that can be avoided.
    Session one has the tables of ``draw_session_one``; its seats are re-ordered with the rest so
    every player's wind spread is at most 1, unless ``keep_draw`` (the draw was already made at
    the venue: its seats stand, and a few spreads of 2 can remain when sessions are 4k).
    """
    names = list(players)
    if len(set(names)) != len(names):
        raise ValueError("players must be distinct")
    if sessions < 1:
        raise ValueError("at least one session")
    substitutes: tuple[str, ...] = ()
    if fill == "substitute" and len(names) % 4:
        needed = 4 - len(names) % 4
        if substitute_names and len(substitute_names) != needed:
            raise ValueError(f"{needed} substitute(s) needed, {len(substitute_names)} given")
        substitutes = tuple(substitute_names) or tuple(f"替补{i + 1}" for i in range(needed))
        if set(substitutes) & set(names) or len(set(substitutes)) != needed:
            raise ValueError("a player is named like a substitute place")
        names += substitutes
    elif substitute_names and fill == "substitute":
        raise ValueError("no substitute places: the player count is a multiple of four")
    n = len(names)
    if n < 4:
        raise ValueError("a table needs four players")
    team_of, groups = _team_index(names, teams)
    n_tables = n // 4
    if any(len(g) > n_tables for g in groups):
        raise ValueError("a team has more members than there are tables")
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    n_byes = n % 4
    # the draw's last seats take the first byes, then in turn (第十二条), the teams' counts
    # kept even on the way and at the end (``_bye_plan``)
    bye_plan = _bye_plan(order[::-1], team_of, groups, n_byes, sessions)
    plan: list[list[list[int]]] = []
    design = _best_design(n, groups, order)
    if design is not None:
        plan = design.classes(min(design.capacity, sessions))

    def extend(
        start: int, upto: int, meet: list[list[int]], stream: random.Random
    ) -> list[list[list[int]]]:
        extra: list[list[list[int]]] = []
        for s in range(start, upto):
            out = set(bye_plan[s])
            active = [p for p in order if p not in out]
            tables = _seat_session(active, n_tables, meet, team_of, stream)
            for t in tables:
                for a, b in itertools.combinations(t, 2):
                    meet[a][b] += 1
                    meet[b][a] += 1
            extra.append(tables)
        return extra

    if not plan:
        plan = extend(
            0, 1, _count_meetings(n, []), rng
        )  # the draw: session one whatever the sessions
    for table in plan[0]:
        rng.shuffle(table)  # the drawn seats: no link between seat and place in the deal
    # Beyond a design's classes the search goes on from them; it also starts afresh after the
    # design's first class (session one stays the draw), and the better of the two is kept.
    starts = [plan]
    if design is not None and len(plan) > 1 and sessions > len(plan):
        starts.append(plan[:1])
    # Small events: several seeded tries of the later sessions, keeping the fewest repeats.
    tries = max(1, min(30, 3000 // (n * sessions)))
    best: tuple[int, int, list[list[list[int]]], int] | None = None
    for choice, prefix in enumerate(starts):
        meet = _count_meetings(n, prefix)
        for attempt in range(tries):
            trial_meet = [row[:] for row in meet]
            tag = f"{seed}/{attempt}" + ("/search" if choice else "")
            extra = extend(len(prefix), sessions, trial_meet, random.Random(tag))
            repeats = sum(m - 1 for row in trial_meet for m in row if m > 1) // 2
            worst = max(max(row) for row in trial_meet)
            if best is None or (repeats, worst) < best[:2]:
                best = (repeats, worst, prefix + extra, len(prefix))
    assert best is not None
    plan = best[2]
    method = "heuristic: seeded greedy deal + swaps"
    if design is not None:
        used = best[3]
        method = f"{design.name}: {used} parallel {'class' if used == 1 else 'classes'}"
        if len(plan) > used:
            method += " + heuristic"
    byes = bye_plan
    for tables in plan:
        for t in tables:
            if any(
                team_of[a] != -1 and team_of[a] == team_of[b]
                for a, b in itertools.combinations(t, 2)
            ):
                raise ValueError("could not keep team-mates apart")  # pragma: no cover
    _balance_winds(plan, n, 1 if keep_draw else 0)
    return Schedule(
        players=tuple(names),
        sessions=tuple(
            SessionSeating(
                number=s,
                tables=tuple(
                    Table(i, (names[t[0]], names[t[1]], names[t[2]], names[t[3]]))
                    for i, t in enumerate(tables)
                ),
                byes=tuple(names[p] for p in out),
            )
            for s, (tables, out) in enumerate(zip(plan, byes, strict=True))
        ),
        method=method,
        substitutes=substitutes,
    )


def draw_session_one(
    players: Sequence[str],
    seed: int,
    *,
    teams: Mapping[str, Iterable[str]] | None = None,
    fill: Literal["bye", "substitute"] = "bye",
    sessions: int = 1,
) -> SessionSeating:
    """抽签定位 (第六条五(二)): a seeded random draw of tables and seats. It is the first session
    of ``schedule`` with the same arguments. Its byes (a field not divisible by four) can depend
    on ``sessions``, the sessions they are spread over: with teams and players in no team, the
    byes that keep the teams even over 1 session (the players in no team) are not those over 5
    (team players)."""
    plan = schedule(players, sessions, teams=teams, seed=seed, fill=fill, keep_draw=True)
    return plan.sessions[0]


# --- going on from sessions already played: re-draws and final rounds --------------------------


def _with_history(
    players: Sequence[str],
    played: Sequence[SessionSeating],
    teams: Mapping[str, Iterable[str]] | None,
) -> tuple[list[str], list[int], list[list[int]], list[list[list[int]]], list[int]]:
    """Index the ``players`` first (0 … n − 1), then anyone else seated in ``played`` (withdrawn
    players: they count for nothing). Returns the names, each index's team (−1: none), the teams
    as index lists, the played tables as indices and each player's byes in ``played``. A team
    may outnumber the tables when the byes can take the rest (``_pick_byes``)."""
    names = list(players)
    if len(set(names)) != len(names):
        raise ValueError("players must be distinct")
    if len(names) < 4:
        raise ValueError("a table needs four players")
    team_of, groups = _team_index(names, teams)
    if sum(max(0, len(g) - len(names) // 4) for g in groups) > len(names) % 4:
        raise ValueError("a team has more members than there are tables (and byes)")
    index = {p: i for i, p in enumerate(names)}
    for session in played:
        for table in session.tables:
            for p in table.seats:
                if p not in index:
                    index[p] = len(names)
                    names.append(p)
    team_of += [-1] * (len(names) - len(team_of))
    history = [[[index[p] for p in t.seats] for t in s.tables] for s in played]
    byes = [0] * len(players)
    for session in played:
        for p in session.byes:
            if p in index and index[p] < len(players):
                byes[index[p]] += 1
    return names, team_of, groups, history, byes


def _pick_byes(
    n: int, n_byes: int, groups: list[list[int]], key: Callable[[int], tuple[int, ...]]
) -> list[int]:
    """The ``n_byes`` of players 0 … n − 1 who sit out, lowest ``key`` first; a team with more
    members than the n // 4 tables first sits out the members it has too many."""
    out: list[int] = []
    for group in groups:
        out += sorted(group, key=key)[: max(0, len(group) - n // 4)]
    rest = sorted((p for p in range(n) if p not in out), key=key)
    return out + rest[: n_byes - len(out)]


def _count_meetings(n: int, tables_by_session: Iterable[list[list[int]]]) -> list[list[int]]:
    meet = [[0] * n for _ in range(n)]
    for tables in tables_by_session:
        for t in tables:
            for a, b in itertools.combinations(t, 2):
                meet[a][b] += 1
                meet[b][a] += 1
    return meet


def _check_teams(tables: Iterable[list[int]], team_of: list[int]) -> bool:
    """True when no table holds two players of one team."""
    return not any(
        team_of[a] != -1 and team_of[a] == team_of[b]
        for t in tables
        for a, b in itertools.combinations(t, 2)
    )


def _seating_of(
    number: int, tables: list[list[int]], byes: Iterable[int], names: Sequence[str]
) -> SessionSeating:
    return SessionSeating(
        number=number,
        tables=tuple(
            Table(i, (names[t[0]], names[t[1]], names[t[2]], names[t[3]]))
            for i, t in enumerate(tables)
        ),
        byes=tuple(names[p] for p in byes),
    )


def continue_schedule(
    players: Sequence[str],
    played: Sequence[SessionSeating],
    sessions: int,
    *,
    teams: Mapping[str, Iterable[str]] | None = None,
    seed: int = 0,
) -> Schedule:
    """Tables for ``sessions`` more sessions of ``players`` after the sessions ``played``, which
    stand as they are: the re-draw after a withdrawal (第十二条二 「可重新进行编排」).

    The same search as ``schedule`` (item 3 of docs/seating.md), with the meetings of ``played``
    counted in the repeat minimisation, their starting winds in the wind balance (their seats are
    kept) and their byes in the byes to come (``_bye_plan`` with the byes had): with a count not
    divisible by four every bye goes to a player with the fewest so far (a team with more members
    than tables first sits out the ones too many: 15 players in teams of 4, one of each full
    team), and the teams' counts, the byes had included, end in the narrowest range reachable
    (the players in no team take the byes that would tip the teams apart); each try takes its
    own seeded turn among players with as many byes, so who sits out is searched too. Anyone seated
    in ``played`` who is not in ``players`` (withdrawn) counts for nothing. ``teams`` (of
    ``players`` only): team-mates never share a table. Sessions are numbered on from
    ``len(played)``, tables from 0, as ``schedule`` numbers them.
    """
    if sessions < 1:
        raise ValueError("at least one session")
    names, team_of, groups, history, byes_had = _with_history(players, played, teams)
    n, total = len(players), len(names)
    n_tables, n_byes = n // 4, n % 4
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    base = _count_meetings(total, history)
    tries = max(1, min(30, 3000 // (n * sessions)))
    best: tuple[int, int, list[list[list[int]]], list[list[int]]] | None = None
    for attempt in range(tries):
        meet = [row[:] for row in base]
        stream = random.Random(f"{seed}/continue/{attempt}")
        # the turn of byes among equals: the draw's last seats first, then a new turn each try;
        # the teams' final counts (the byes had included) as even as they can end (_bye_plan)
        turn = order[::-1] if attempt == 0 else stream.sample(order, n)
        outs = _bye_plan(turn, team_of, groups, n_byes, sessions, had=byes_had)
        extra: list[list[list[int]]] = []
        for out in outs:
            active = [p for p in order if p not in out]
            tables = _seat_session(active, n_tables, meet, team_of, stream)
            for t in tables:
                for a, b in itertools.combinations(t, 2):
                    meet[a][b] += 1
                    meet[b][a] += 1
            extra.append(tables)
        repeats = sum(m - 1 for row in meet[:n] for m in row[:n] if m > 1) // 2
        worst = max(max(row[:n]) for row in meet[:n])
        if best is None or (repeats, worst) < best[:2]:
            best = (repeats, worst, extra, outs)
    assert best is not None
    plan, outs = best[2], best[3]
    if not all(_check_teams(tables, team_of) for tables in plan):
        raise ValueError("could not keep team-mates apart")  # pragma: no cover
    _balance_winds(history + plan, total, len(history))
    return Schedule(
        players=tuple(names[:n]),
        sessions=tuple(
            _seating_of(len(played) + s, tables, out, names)
            for s, (tables, out) in enumerate(zip(plan, outs, strict=True))
        ),
        method=f"heuristic after {len(played)} session(s) kept: seeded greedy deal + swaps",
    )


_SWISS_WINDOW = 8  # a table's anchor picks its three opponents among the next 8 in rank order
_SWISS_BUDGET = 2_000  # tables tried in the branch-and-bound search of the swiss pairing
_REPEAT = 10_000  # cost of one earlier meeting at a swiss table, against 1 per place skipped


def _swiss_tables(ranked: list[int], meet: list[list[int]], team_of: list[int]) -> list[list[int]]:
    """Tables of four in rank order that avoid earlier meetings and team-mates: depth first,
    each table the best-ranked player left with three of the next ``_SWISS_WINDOW``, the cheapest
    choice first (team-mates ``_TEAM_CLASH``, each earlier meeting of a pair ``_REPEAT``, each
    place skipped 1), so the first complete seating is the greedy one; branch and bound then looks
    ahead for a cheaper one within ``_SWISS_BUDGET`` tables tried."""
    best: list[list[int]] = []
    best_cost = -1
    tried = 0

    def cost(members: list[int]) -> int:
        c = 0
        for a, b in itertools.combinations(members, 2):
            c += _REPEAT * meet[a][b]
            if team_of[a] != -1 and team_of[a] == team_of[b]:
                c += _TEAM_CLASH * _REPEAT
        return c

    def search(left: list[int], spent: int, tables: list[list[int]]) -> None:
        nonlocal best, best_cost, tried
        if not left:
            if best_cost == -1 or spent < best_cost:
                best, best_cost = [t[:] for t in tables], spent
            return
        anchor, pool = left[0], left[1 : 1 + _SWISS_WINDOW]
        choices = sorted(
            (cost([anchor, *(pool[i] for i in pick)]) + sum(pick) - 3, pick)
            for pick in itertools.combinations(range(len(pool)), 3)
        )
        for c, pick in choices:
            if tried >= _SWISS_BUDGET or (best_cost != -1 and spent + c >= best_cost):
                return
            tried += 1
            chosen = {pool[i] for i in pick}
            tables.append([anchor, *(pool[i] for i in pick)])
            search([p for p in left[1:] if p not in chosen], spent + c, tables)
            tables.pop()

    search(ranked, 0, [])
    return best


def pair_session(
    ranking: Sequence[str],
    kind: Pairing,
    *,
    played: Sequence[SessionSeating] = (),
    teams: Mapping[str, Iterable[str]] | None = None,
) -> SessionSeating:
    """One session seated from the standings, for the final rounds: ``ranking`` is every player
    to seat, best first.

    - ``"strongest"`` (strongest together): tables of four in rank order, 1-4, 5-8, …; nothing
      else is looked at, so team-mates can meet.
    - ``"swiss"``: rank-ordered tables that avoid repeat meetings where they can. Each table is
      the best-ranked player left with three of the next eight, chosen to avoid earlier meetings
      (in ``played``) and team-mates first, then to skip as few places as possible; a bounded
      look-ahead (branch and bound) keeps a cheap table now from forcing a repeat later.
      Team-mates share a table only when no choice in reach avoids it.

    With a count not divisible by four the lowest ranked of those with the fewest byes in
    ``played`` sit out. Each table's players are ordered over E S W N against their starts in
    ``played`` (the fewest earlier starts at those winds; ties keep rank order, the best-ranked at
    East). The session is numbered ``len(played)``, its tables from 0 (table 0 the top table).
    """
    if kind not in PAIRINGS:
        raise ValueError(f"pairing {kind!r} is not one of {', '.join(PAIRINGS)}")
    names, team_of, groups, history, byes_had = _with_history(ranking, played, teams)
    n = len(ranking)
    out = _pick_byes(n, n % 4, groups, lambda p: (byes_had[p], -p))
    active = [p for p in range(n) if p not in out]  # rank order
    if kind == "strongest":
        tables = [active[i : i + 4] for i in range(0, len(active), 4)]
    else:
        meet = _count_meetings(len(names), history)
        tables = _swiss_tables(active, meet, team_of)
    plan = [*history, tables]
    _balance_winds(plan, len(names), len(history))
    return _seating_of(len(played), plan[-1], sorted(out), names)


def quality(sched: Schedule, teams: Mapping[str, Iterable[str]] | None = None) -> Quality:
    """Repeated pairs, distinct opponents, team-mate meetings, wind balance and byes (per
    player, and per team of ``teams``: its members' byes added up)."""
    meetings: dict[frozenset[str], int] = {}
    opponents: dict[str, set[str]] = {p: set() for p in sched.players}
    winds = {p: [0, 0, 0, 0] for p in sched.players}
    bye_count = dict.fromkeys(sched.players, 0)
    for session in sched.sessions:
        for p in session.byes:
            bye_count[p] += 1
        for table in session.tables:
            for w, p in enumerate(table.seats):
                winds[p][w] += 1
            for a, b in itertools.combinations(table.seats, 2):
                pair = frozenset((a, b))
                meetings[pair] = meetings.get(pair, 0) + 1
                opponents[a].add(b)
                opponents[b].add(a)
    team_meetings = 0
    for members in (teams or {}).values():
        for a, b in itertools.combinations(list(members), 2):
            team_meetings += meetings.get(frozenset((a, b)), 0)
    distinct = [len(o) for o in opponents.values()]
    team_byes = [sum(bye_count.get(m, 0) for m in members) for members in (teams or {}).values()]
    return Quality(
        repeated_pairs=sum(1 for m in meetings.values() if m > 1),
        repeat_meetings=sum(m - 1 for m in meetings.values()),
        max_meetings=max(meetings.values(), default=0),
        min_opponents=min(distinct),
        mean_opponents=sum(distinct) / len(distinct),
        team_meetings=team_meetings,
        wind_spread=max(max(c) - min(c) for c in winds.values()),
        min_byes=min(bye_count.values()),
        max_byes=max(bye_count.values()),
        min_team_byes=min(team_byes, default=0),
        max_team_byes=max(team_byes, default=0),
    )


def best_possible(n_players: int, sessions: int, team_size: int = 1) -> Bound:
    """Lower bounds with the fewest byes, spread evenly. A player at ``p`` tables meets 3·p
    opponents among the n − ``team_size`` others outside their team, so at least
    3·p − (n − team_size) of those meetings repeat; each repeat meeting is counted by both its
    players. (With teams the bound is that of every player in a team of ``team_size``.)"""
    n = n_players
    others = n - team_size
    seats = 4 * (n // 4) * sessions
    high = seats % n  # this many play one session more than the others
    low_p, high_p = seats // n, seats // n + 1
    excess = (n - high) * max(0, 3 * low_p - others) + high * max(0, 3 * high_p - others)
    most = -(-3 * (high_p if high else low_p) // others)
    return Bound(
        repeat_meetings=-(-excess // 2),
        max_meetings=most,
        max_min_opponents=min(others, 3 * low_p),
        wind_spread=0 if low_p % 4 == 0 and (not high or high_p % 4 == 0) else 1,
    )
