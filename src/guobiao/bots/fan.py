"""The fan bot: plays for hands that reach the 8-point minimum (第五条 起和分)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from guobiao.bots.base import Bot
from guobiao.bots.plans import _meld_key, _Plan, _plans_for, _Position
from guobiao.bots.view import (
    _ADDED_KONG,
    _CHOW,
    _CONCEALED_KONG,
    _DISCARD,
    _KONG,
    _PUNG,
    counts_after_claim,
    counts_after_kong,
    danger,
    hand_counts,
    threats,
    unseen_counts,
)
from guobiao.core.bounded import Bounded
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import shanten, useful_tiles, waits
from guobiao.core.tiles import TILES
from guobiao.scoring.calculator import calculate
from guobiao.table.game import Action, ActionKind, Phase, SeatView
from guobiao.table.rules import COMPETITION, TableRules

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
_READY: Bounded[_ReadyKey, tuple[tuple[int, int, int], ...]] = Bounded()
"""(standing tiles, melds, seat, round wind, fan profile, minimum) of a ready hand -> (wait,
points on a discard, points self-drawn) of each wait, without 和绝张. Shared by every FanBot."""
_FOURTH: Bounded[tuple[_ReadyKey, int], int] = Bounded()
"""A ready hand and a wait -> points on a discard when it is the last copy (和绝张)."""
_READY_LIMIT = (1 << 13) // 3  # not Final: the tests lower it (a third: see core.bounded)
"""Entries _READY keeps (the oldest go first): a ready hand is asked about again within the same
deal, so a few thousand keep every hit, and the memory (about 1 MiB) is the same after ten
sessions as after a thousand."""
_FOURTH_LIMIT = (1 << 9) // 3  # not Final: the tests lower it
"""Entries _FOURTH keeps (asked about some ten times less often than _READY, as soon again)."""


def ready_hand(counts: list[int], melds: tuple[Meld, ...]) -> tuple[Hand, list[int]]:
    """A ready hand of standing ``counts`` and ``melds`` as a :class:`Hand`, and its waits of
    which the hand does not itself hold all four (the only ones it can win on)."""
    hand = Hand(tuple(TILES[t] for t in range(34) for _ in range(counts[t])), melds)
    held = list(counts)
    for meld in melds:
        for t in meld.tiles:
            held[t] += 1
    return hand, [w for w in waits(counts, len(melds)) if held[w] < 4]


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
        counts = hand_counts(view)
        melds = view.melds[view.seat]
        key = (view.seat, int(view.round_wind))
        plans = self._plans.get(key)
        if plans is None:
            plans = self._plans[key] = _plans_for(*key)
        turn = _Turn(view, unseen_counts(view, counts), plans)
        if view.phase is not Phase.ACT:
            return self._respond(turn, counts, melds)
        ranked = self._discards(turn, counts, melds)
        best_worth, best_tile, best_cost = ranked[0]
        for action in view.legal_actions:
            if action.kind in (_CONCEALED_KONG, _ADDED_KONG):
                after = counts_after_kong(counts, action)
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
            hand, live_waits = ready_hand(counts, melds)
            found = []
            for w in live_waits:
                on_discard = self._points(hand, w, turn, False, False)
                # self-drawn scores at least as much (自摸, or 不求人 for 门前清)
                drawn = on_discard
                if on_discard < minimum:
                    drawn = self._points(hand, w, turn, True, False)
                found.append((w, on_discard, drawn))
            scores = tuple(found)
            _READY.put(key, scores, _READY_LIMIT)
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
                    fourth = self._points(hand, w, turn, False, True)
                    _FOURTH.put((key, w), fourth, _FOURTH_LIMIT)
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
                after = counts_after_claim(counts, action, tile)
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
