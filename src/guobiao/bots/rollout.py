"""Determinized Monte Carlo rollouts: the rest of a hand played out on sampled hidden tiles.

A seat sees its own hand and the table (:class:`~guobiao.table.game.SeatView`), not the others'
concealed tiles nor the wall. A **determinization** (:func:`sample`) deals the tiles it has not
seen (:func:`~guobiao.bots.view.unseen_counts`) at random into what it cannot see: each other
seat's face-down kongs and standing tiles (13 - 3 × its melds) and the wall still to be drawn
(Botzone: each seat's segment, ``segment_remaining``; else one wall of ``wall_remaining``).

A **rollout** (:func:`rollout`) then plays the hand on from the seat's discard, cheaply:

- the seat draws from its wall and wins when the draw completes a hand of at least the minimum
  (the fan calculator decides, 第十条一(一)2), or when another seat's discard does; otherwise it
  discards by a greedy policy: the least cost toward its target plans (FanBot's, from
  :mod:`guobiao.bots.plans`), then the lowest shanten, then the least connected tile; once ready
  with a wait worth the minimum, it keeps the ready hand with the most live waits of that worth;
- another seat draws; it wins at a hazard growing with its turns and melds (a self-draw at
  ``SELF_DRAWN_SHARE``, else off a third seat's discard); otherwise it discards a tile of its
  sampled hand at random;
- each discard of the seat feeds another seat at ``risk[tile]`` (the caller's defence model);
- the hand is drawn when the seat due to draw has no tile left (荒牌, 第五条三十; Botzone: its segment).

Points are the settlement's (第十条一(三)): self-drawn, each other seat pays fan + 8; on a discard the
discarder pays fan + 8 and the two others 8 (the other seats' fan: ``other_fan``). The others'
wins and the seat's deal-ins are weighed, not drawn: the rollout returns the expected points over
them on its wall, so that only the wall and the others' discards vary. Everything is
a pure function of the view, the seat's choices and the generator: a decision compares its
candidates on the same determinizations and the same random numbers (common random numbers).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from guobiao.bots.plans import _meld_key, _Plan, _Position
from guobiao.core.bounded import Bounded
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import shanten, waits
from guobiao.core.tiles import TILES
from guobiao.scoring.calculator import calculate
from guobiao.table.game import SeatView
from guobiao.table.settlement import win_deltas

SELF_DRAWN_SHARE: Final = 0.35
"""Of the other seats' wins, this share is self-drawn (the rest are on a discard)."""
READY_HAZARD: Final = 0.18
"""Per turn, another seat that is surely ready wins with this probability."""
MIN_WEIGHT: Final = 1e-3
"""A rollout stops when the chance that no other seat has won falls below this."""
READY_GROWTH: Final = 0.03
"""Another seat is ready with probability 1 - exp(-READY_GROWTH × its turns)."""


@dataclass(frozen=True, slots=True)
class Determinization:
    """The hidden tiles of one sampled table, as 34-count tuples and tile sequences.

    ``hands[s]``: seat ``s``'s standing tiles (the seat's own: its real ones); ``kongs[s]``: the
    kinds of its face-down kongs (the seat's own: none, they are in its melds); ``walls``: four
    segments, seat ``s`` drawing ``walls[s]`` in order (Botzone), or one wall every seat draws
    from in turn.
    """

    hands: tuple[tuple[int, ...], ...]
    kongs: tuple[tuple[int, ...], ...]
    walls: tuple[tuple[int, ...], ...]


def standing_size(view: SeatView, seat: int) -> int:
    """Tiles another seat stands with between turns: 13 less three per meld and face-down kong."""
    return 13 - 3 * (len(view.melds[seat]) + view.concealed_kongs[seat])


def sample(view: SeatView, unseen: Sequence[int], rng: random.Random) -> Determinization:
    """Deal the ``unseen`` tiles (34 counts: neither in the seat's hand nor on its table) into
    the others' kongs and hands and the wall, uniformly at random."""
    pool = [t for t in range(34) for _ in range(unseen[t])]
    rng.shuffle(pool)
    own = [0] * 34
    for tile in view.hand:
        own[tile] += 1
    kongs: list[tuple[int, ...]] = []
    for s in range(4):  # the face-down kongs first: four copies of a kind must still be there
        kinds: list[int] = []
        for _ in range(view.concealed_kongs[s] if s != view.seat else 0):
            held = [0] * 34
            for t in pool:
                held[t] += 1
            fours = [t for t in range(34) if held[t] >= 4]
            if not fours:
                break  # cannot happen for a consistent view
            kind = fours[rng.randrange(len(fours))]
            for _ in range(4):
                pool.remove(kind)
            kinds.append(kind)
        kongs.append(tuple(kinds))
    hands: list[tuple[int, ...]] = []
    for s in range(4):
        if s == view.seat:
            hands.append(tuple(own))
            continue
        counts = [0] * 34
        for _ in range(min(len(pool), standing_size(view, s))):
            counts[pool.pop()] += 1
        hands.append(tuple(counts))
    if view.segment_remaining is not None:
        walls = []
        for s in range(4):
            n = min(len(pool), view.segment_remaining[s])
            walls.append(tuple(pool[len(pool) - n :]))
            del pool[len(pool) - n :]
        return Determinization(tuple(hands), tuple(kongs), tuple(walls))
    return Determinization(tuple(hands), tuple(kongs), (tuple(pool[: view.wall_remaining]),))


# -- the seat's wins ---------------------------------------------------------------------------

_Key = tuple[bytes, tuple[tuple[MeldKind, int], ...], int, int, str]
_WAITS: Bounded[_Key, tuple[tuple[int, int, int], ...]] = Bounded()
"""A ready hand -> (wait, points on a discard, points self-drawn) of each wait; shared, a pure
function of its key (standing tiles, melds, seat, round wind, fan profile)."""
_WAITS_LIMIT: Final = (1 << 13) // 3


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays the rollout and how: the seat, its winds and fan rules, its target plans, and the
    caller's model of the others (``risk``: per kind, the chance a discard of it is won by
    another seat; ``other_fan``: the fan of their wins; ``hazard``: per turn, the chance a ready
    one wins)."""

    seat: int
    round_wind: int
    fan_profile: str
    minimum: int
    plans: tuple[_Plan, ...]
    risk: tuple[float, ...]
    other_fan: int = 12
    hazard: float = READY_HAZARD


def wait_points(
    counts: Sequence[int], melds: tuple[Meld, ...], player: Seat
) -> tuple[tuple[int, int, int], ...]:
    """(wait, points on a discard, points self-drawn) of each wait of a ready 13-form hand; 0
    where a win falls short of the minimum (第十条一(一)2)."""
    key = (
        bytes(counts),
        tuple((m.kind, int(m.tile)) for m in melds),
        player.seat,
        player.round_wind,
        player.fan_profile,
    )
    hit = _WAITS.get(key)
    if hit is not None:
        return hit
    hand = Hand(tuple(TILES[t] for t in range(34) for _ in range(counts[t])), melds)
    held = list(counts)
    for meld in melds:
        for t in meld.tiles:
            held[t] += 1
    found = []
    for w in waits(counts, len(melds)):
        if held[w] >= 4:
            continue
        points = []
        for self_drawn in (False, True):
            context = WinContext(
                TILES[w],
                self_drawn=self_drawn,
                seat_wind=Wind(player.seat),
                round_wind=Wind(player.round_wind),
            )
            result = calculate(hand, context, player.fan_profile)
            p = result.points_without_flowers if result.is_winning else 0
            points.append(p if p >= player.minimum else 0)
        found.append((w, points[0], max(points)))
    scores = tuple(found)
    _WAITS.put(key, scores, _WAITS_LIMIT)
    return scores


# -- the rollout -------------------------------------------------------------------------------


def _connection(counts: Sequence[int], t: int) -> int:
    """How much a tile works with the others: copies of itself and (suited) of its neighbours."""
    c = 3 * (counts[t] - 1)
    if t < 27:
        rank = t % 9
        for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= rank + d <= 8:
                c += w * counts[t + d]
    return c


class Memo:
    """What a rollout policy has worked out, for the rollouts of one seat, melds and plans: its
    choice for each 14-form hand, and the plans' cost of each 13-form hand."""

    __slots__ = ("choices", "costs")

    def __init__(self) -> None:
        self.choices: dict[bytes, tuple[int, tuple[tuple[int, int, int], ...]]] = {}
        self.costs: dict[bytes, float] = {}


def _choose(
    counts: list[int],
    melds: tuple[Meld, ...],
    meld_keys: tuple[tuple[int, int, bool], ...],
    player: Seat,
    live: Sequence[int],
    memo: Memo,
) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The policy's discard from a 14-form hand, and the waits worth the minimum it leaves.

    A discard leaving a ready hand with waits worth the minimum: the one with most live such
    waits. Else, among the discards of least shanten or one more, the least cost toward the
    target plans, then the least shanten, then the least connected tile."""
    m = len(melds)
    best_ready: tuple[int, int] | None = None  # (live waits, tile)
    ready_scores: dict[int, tuple[tuple[int, int, int], ...]] = {}
    options: list[tuple[int, int]] = []
    for t in range(34):
        if not counts[t]:
            continue
        counts[t] -= 1
        s = shanten(counts, m)
        if s == 0:
            scores = tuple(x for x in wait_points(counts, melds, player) if x[2])
            if scores:
                ready_scores[t] = scores
                n = sum(live[w] for w, _, _ in scores)
                if best_ready is None or n > best_ready[0]:
                    best_ready = (n, t)
        counts[t] += 1
        options.append((s, t))
    if best_ready is not None:
        return best_ready[1], ready_scores[best_ready[1]]
    floor = min(s for s, _ in options) + 1
    best_key: tuple[float, int, int, int] | None = None
    costs = memo.costs
    for s, t in options:
        if s > floor:
            continue
        counts[t] -= 1
        b = bytes(counts)
        cost = costs.get(b)
        if cost is None:
            pos = _Position(counts, meld_keys)
            cost = math.inf
            for plan in player.plans:
                c = plan.cost(pos)
                if c is not None and c + plan.penalty < cost:
                    cost = c + plan.penalty
            costs[b] = cost
        counts[t] += 1
        key = (cost, s, _connection(counts, t), t)
        if best_key is None or key < best_key:
            best_key = key
    assert best_key is not None
    return best_key[3], ()


def rollout(
    det: Determinization,
    player: Seat,
    counts: Sequence[int],
    melds: tuple[Meld, ...],
    turns: Sequence[float],
    live: Sequence[int],
    rng: random.Random,
    memo: Memo | None = None,
    leaf: Callable[[list[int], int], float] | None = None,
    horizon: int = 0,
) -> tuple[float, float, float, float]:
    """Expected points of each seat when the hand is played on from the seat's discard (its
    standing ``counts``, a 13-form hand).

    The wall is the determinization's; the other seats' wins and the seat's deal-ins are not
    drawn at random but weighed: each turn they end the hand with their probability, paying their
    expected settlement, and the hand goes on with the rest of the weight (a lower-variance
    estimate of the same expectation). ``turns[s]``: how far seat s is into the hand, in turns
    (it is ready with probability 1 - exp(-READY_GROWTH × turns), one more each turn); ``live``:
    the seat's unseen copies of each kind (its policy counts waits); ``memo``: what the policy
    worked out, shared by rollouts of the same seat, melds and plans. ``leaf``: if given, the
    rollout stops once the seat's discard leaves a hand ready on a wait worth the minimum, and
    counts ``leaf(standing counts, the seat's draws left)`` as what the seat gains from there
    (the three others losing it alike): a model's expectation instead of one wall's outcome;
    with a ``horizon``, it stops so after that many of the seat's discards, ready or not.
    """
    seat = player.seat
    own = list(counts)
    meld_keys = tuple(_meld_key(m) for m in melds)
    hands = [[t for t in range(34) for _ in range(det.hands[s][t])] for s in range(4)]
    walls = [list(w) for w in det.walls]
    shared = len(walls) == 1
    position = [0] * len(walls)
    grown = list(turns)
    if memo is None:
        memo = Memo()
    choices = memo.choices
    scores: tuple[tuple[int, int, int], ...] = ()
    if shanten(own, len(melds)) == 0:
        scores = tuple(x for x in wait_points(own, melds, player) if x[2])
    minimum = player.minimum
    fan = player.other_fan
    points = [0.0, 0.0, 0.0, 0.0]
    weight = 1.0  # the chance no other seat has won yet
    played = 0  # the seat's discards
    s = (seat + 1) % 4
    while weight > MIN_WEIGHT:
        q = 0 if shared else s
        if position[q] >= len(walls[q]):
            break  # 荒牌: no tile to draw
        tile = walls[q][position[q]]
        position[q] += 1
        if s == seat:
            won = next((x for x in scores if x[0] == tile), None)
            if won is not None:
                _pay(points, weight, seat, won[2], None)
                break
            own[tile] += 1
            key = bytes(own)
            choice = choices.get(key)
            if choice is None:
                choice = choices[key] = _choose(own, melds, meld_keys, player, live, memo)
            discard, scores = choice
            own[discard] -= 1
            played += 1
            if leaf is not None and (scores or played == horizon):
                left = len(walls[q]) - position[q]
                value = weight * leaf(own, left if not shared else left // 4)
                for other in range(4):
                    points[other] += value if other == seat else -value / 3
                break
            risk = player.risk[discard]
            if risk > 0:  # fed to one of the others, alike
                for other in range(4):
                    if other != seat:
                        _pay(points, weight * risk / 3, other, fan, seat)
                weight *= 1 - risk
        else:
            grown[s] += 1
            hazard = player.hazard * (1 - math.exp(-READY_GROWTH * grown[s]))
            _pay(points, weight * hazard * SELF_DRAWN_SHARE, s, fan, None)
            third = [x for x in range(4) if x not in (s, seat)]
            for discarder in third:  # the seat's own deal-ins are its risk, above
                _pay(points, weight * hazard * (1 - SELF_DRAWN_SHARE) / 2, s, fan, discarder)
            weight *= 1 - hazard
            hand = hands[s]
            hand.append(tile)
            i = rng.randrange(len(hand))
            hand[i], hand[-1] = hand[-1], hand[i]
            out = hand.pop()
            won = next((x for x in scores if x[0] == out), None)
            if won is not None and won[1] >= minimum:
                _pay(points, weight, seat, won[1], s)
                break
        s = (s + 1) % 4
    return (points[0], points[1], points[2], points[3])


def _pay(points: list[float], weight: float, winner: int, fan: int, discarder: int | None) -> None:
    """Add ``weight`` times a win's settlement (第十条一(三): ``win_deltas``)."""
    for s, delta in enumerate(win_deltas(winner, discarder, fan)):
        points[s] += weight * delta
