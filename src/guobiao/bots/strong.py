"""The strong bot: FanBot's plans, searched for expected points, with defence.

Every decision is scored in *points* (the settlement's units, 第十条一(三)): what the hand after the
decision is expected to win, from the seat's own view only (:class:`~guobiao.table.game.SeatView`):

- a **ready** hand: each wait is scored by the fan calculator (on a discard and self-drawn, a wait
  short of the minimum counts for nothing), weighted by its copies still unseen; per round the
  seat self-draws a wait with probability (copies / unseen tiles) and wins on one of the three
  others' discards at ``DISCARD_RATE`` times that; a win pays 3 × (fan + 8) self-drawn, fan + 24
  on a discard, plus ``AVOIDED`` (the loss it spares: the others' later wins). Over the draws
  the seat has left (its wall segment on Botzone), while no one else has won (a hazard from the
  others' discards and melds), this is a geometric sum;
- a hand **one tile from ready**: an expectimax over the draw: each useful tile (useful_tiles),
  then the best discard of the 14 (each ready hand as above), the wait for the draw and the wait
  for the win summed over the draws left;
- a hand **further away**: FanBot's plans give how far the nearest 8-point hand is; the value is
  a chain of such steps, each at the rate of the hand's live useful tiles, then the win.

A discard's value is then ``(1 - P) × value - P × DEAL_IN_COST``, ``P`` the chance that it feeds
a ready opponent: each other seat is ready with a probability growing with its discards and
melds, and waits on the tile in proportion to :func:`~guobiao.bots.view.danger` (its own
discards, suji, honours seen, terminals). The candidates are FanBot's: near a win (one tile
from a ready 8-point hand, or ready) its ``top`` best discards of the same tier, re-ranked by
expected points; far from one, FanBot's best plans, the near-ties (``NEAR_PLANS``) broken by
live useful tiles (FanBot breaks them at random); and, with ``safe`` above 0 (default 0), once
some seat is likely ready (``THREAT``), that many safest discards. Claims and kongs are FanBot's.

Measured in the duplicate arena (benchmarks/bots.py) it plays about as well as FanBot against
three FanBots (its mean score per hand is within the interval of zero) with fewer deal-ins.
Changes measured against it (200-700 walls each, on the same walls, table engine) and dropped,
none better than it by more than the noise: ranking the discards far from ready by each plan's
chance to complete from its own live tiles (worse by 1.5 to 3.7 points per hand: a chain of
acceptance rates over-rates plans that need many tiles); claim margins from 1.0 to 2.5, or
claims only to a higher tier; leaving a poor ready hand for a wide one-away shape; weighting a
wait by how readily the others discard it (honours, terminals, kinds they discarded: +0.2 ± 0.4
over 400 walls, -0.1 in the arena); other hazards and deal-in costs.

Measured on 2026-12-02 by paired runs (the same 200 walls of the arena's duplicate, seed 11; the
difference of the two bots' per-wall means, so that the walls' luck cancels): searching the two
safest discards too once a seat seemed ready (``safe=2``, the earlier default) cost 0.70 ± 0.75
points a hand against three FanBots and 1.16 ± 1.09 against three efficiency bots, for the same
deal-in rate against FanBots (17.2% with them, 17.1% without): the risk term on every candidate
already keeps the deal-ins down, and the safest discards only slow the hand. So ``safe`` is 0. No
defence at all (the risk term off too) plays level with FanBot against FanBots (+0.15 ± 1.23 over
FanBot's own mean on those walls) and deals in as often (19.3% against 18.9%); half the risk
(``WAIT_SHARE`` 0.04) gains +0.78 ± 0.68 against efficiency bots and loses 0.28 ± 0.44 against
FanBots. Changing the mean by less than 0.3: ``AVOIDED`` 3 or 10, ``HAZARD_READY`` 0.1 or 0.3,
``DISCARD_RATE`` 0.3 or 0.8, ``DEAL_IN_COST`` 6 or 15, ``top`` 8; worse against FanBots: ``top`` 1
(-1.02 ± 1.13) and ``NEAR_PLANS`` 0.8 (-1.16 ± 1.13); and treating a seat whose exposed melds leave
no plan of 8 points open as seldom ready: no change (those bots' melds nearly always leave one
open). FanBot's own constants, changed for the strong bot alone (against FanBots): ``PLAN_BASE``
0.2 / 0.45: -1.29 ± 0.93 / -1.05 ± 1.29; ``PLAN_KEEP`` 1.5 / 3.5: -1.13 ± 1.25 / -1.15 ± 0.85;
``PLAN_PENALTY`` 0.3 / 0.8: +0.18 ± 0.53 / -0.30 ± 0.60; ``CLAIM_MARGIN`` 1.1 / 1.6: -0.57 ± 0.84 /
-0.48 ± 0.71; ``READY_SELF_DRAWN`` 0.2 / 0.6: -0.30 ± 0.63 / +0.28 ± 0.49. Chows and pungs decided
by the search's expected points (passing against the best discard after each claim): -2.13 ± 1.31,
winning 21% of hands instead of 25%; the same as a veto on FanBot's claims: -1.07 ± 1.08. Of the
hands a FanBot seat does not win against three FanBots, it ends 39% ready and 44% one tile from
ready: the hands are a race, which these refinements of the same plans do not shorten.
Two ways of playing on FanBot's own rules, measured on the same 200 walls (2026-12-02, seed 11):
FanBot folds when a seat shows three declared melds, so passing on the claim that would make the
strong bot's third meld (to keep the others discarding freely) loses 0.69 ± 0.51 a hand, and
still 0.18 ± 0.21 when only the claims that leave the hand short of ready are passed; and
charging a discard for the chance that an opponent claims it (a pung from any seat, a chow
from the next, from the unseen copies) loses 0.78 ± 1.23 at 0.5 points a claim and 1.31 ± 1.40
at 2, with more deal-ins (18.8% against 17.1%).

**Rollouts** (off by default: ``StrongBot(rollouts=32)``). When the analytic choice leaves the hand
one to ``reach`` tiles from ready, it and FanBot's ``width`` best discards (and, with ``safe``, the
safest) are compared by determinized Monte Carlo rollouts (:mod:`guobiao.bots.rollout`): the tiles
the seat has not seen are dealt at random into the others' hands and the wall, the same walls for
every candidate (common random numbers); the hand is played on by a greedy policy toward the
candidate's best plans (the fan calculator deciding its wins) against the others' hazard, until the
seat is ready (then the analytic value of that ready hand counts) or the wall is empty. A candidate
replaces the analytic choice if it gains ``margin`` points more.

Measured (``python benchmarks/bots.py --pairs strong:fan --seed 1 --workers 1``, 40 deals unless
said; all with ``safe=2``, the default then; mean per hand ± 95%; the analytic bot: +0.14 ± 4.11 on
these 40 deals, +0.34 ± 1.61 on 150, deal-in 18% and 16%, p99 10-20 ms): rollouts to the end of the
hand, 16 walls, the others' wins and the deal-ins drawn at random: -4.54 ± 3.87; weighed instead:
-4.13 ± 3.03; stopping once ready, reach 3: +2.12 ± 4.41 and -1.28 ± 4.17 (16 walls, two versions
of the policy), -2.46 ± 3.23 and -1.76 ± 3.49 (32 walls, p99 0.6 s); stopping after one or two of
the seat's discards for the analytic value: -1.49 ± 4.20, -1.02 ± 4.16; margin 3 (``MARGIN``, 32
walls, reach 3): +0.89 ± 3.73, and +0.52 ± 1.45 over 150 deals (deal-in 16.5%, p99 521 ms); against
three efficiency bots (``--pairs strong:efficiency``, 40 deals) +9.10 ± 4.40 where the analytic bot
makes +7.84 ± 4.56. None is better than the analytic bot beyond the noise. Without a margin, where
the rollouts overrule the analytic choice they mostly keep fewer live useful tiles (of 64 differing
decisions over six hands, 38 keep fewer, 4 more) and the win rate falls (20-22% against 24-25%):
with 16-32 walls a candidate's rollouts are noisier than the candidates' differences, and the cheap
policy (no claims, the others' random discards) is not the bot that will play the hand. So the
analytic search stays the default; the rollouts stay, tested, for a search with more walls or a
better policy.

The search is bounded by a count of evaluations (``budget``) and of rollouts, not by a clock, so
a decision is the same for a seed on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from guobiao.bots.fan import FanBot, _kong_melds, _meld_keys, _nearest, _Turn, ready_hand
from guobiao.bots.plans import _Plan, _plans_for, _Position
from guobiao.bots.rollout import Memo, Seat, rollout, sample
from guobiao.bots.view import (
    _ADDED_KONG,
    _CONCEALED_KONG,
    _DISCARD,
    counts_after_kong,
    danger,
    hand_counts,
    unseen_counts,
)
from guobiao.core.bounded import Bounded
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import shanten, useful_tiles
from guobiao.core.tiles import TILES
from guobiao.scoring.calculator import calculate
from guobiao.table.game import Action, Phase, SeatView
from guobiao.table.rules import COMPETITION, TableRules

DISCARD_RATE: Final = 0.5
"""Per round, each other seat discards a given unseen copy at this fraction of the draw rate."""
AVOIDED: Final = 6.0
"""Points a win is worth beyond its payment: the others' later wins it prevents."""
HAZARD_READY: Final = 0.18
"""Per round, a ready opponent wins with this probability."""
DEAL_IN_COST: Final = 10.0
"""Points a deal-in costs beyond losing the hand's own chances (the winner's fan, less what the
seat would lose anyway to that win later)."""
WAIT_SHARE: Final = 0.08
"""A ready seat waits on a tile with this probability times its danger (0..1)."""
NEAR_PLANS: Final = 0.95
"""Far from ready, discards whose plans are worth this much of the best are ranked by their live
useful tiles (FanBot breaks such ties at random)."""
THREAT: Final = 0.4
"""Safe discards are searched once some seat is ready with this probability."""
FAR_WIN: Final = 42.0
"""The mean payment of a win, for hands two or more tiles from ready."""
FAR_WIN_RATE: Final = 0.2
"""Per round, the chance a ready hand of a far plan wins."""
FAR_STEP_DECAY: Final = 0.75
"""Each step nearer to ready has this fraction of the live useful tiles of the one before."""


ROLLOUTS: Final = 0
"""Rollouts per candidate discard (0, the default: the analytic search only; 32 was measured)."""
WIDTH: Final = 3
"""FanBot's best discards compared by rollouts."""
REACH: Final = 3
"""Rollouts decide when the analytic choice leaves the hand from NEAR to this many tiles from
ready (a ready hand's analytic value is exact enough: there the rollouts only add noise)."""
NEAR: Final = 1
"""See REACH."""
HORIZON: Final = 0
"""A rollout stops after this many of the seat's discards (0: once ready) for the analytic value."""
MARGIN: Final = 3.0
"""Points by which another discard must beat the analytic choice over the rollouts."""
OTHER_FAN: Final = 12
"""The fan of another seat's win in a rollout."""
OPEN_TURNS: Final = 8
"""An exposed meld counts as this many more turns toward another seat being ready."""
TARGETS: Final = 1.0
"""A rollout aims at the plans within this of the best plan's cost (and penalty) ..."""
MAX_TARGETS: Final = 3
"""... at most this many, the best first."""


def _targets(plans: Sequence[_Plan], pos: _Position) -> tuple[_Plan, ...]:
    """The plans a rollout aims at from ``pos``: the best and those within TARGETS of it."""
    scored = []
    for plan in _nearest(plans, pos):
        cost = plan.cost(pos)
        if cost is not None:
            scored.append((cost + plan.penalty, plan))
    scored.sort(key=lambda x: x[0])
    floor = scored[0][0] if scored else 0.0
    return tuple(p for c, p in scored[:MAX_TARGETS] if c <= floor + TARGETS)


class StrongBot(FanBot):
    """Expected points over FanBot's candidates, with defence; see the module docstring.

    ``top``: FanBot's best discards searched; ``safe``: the safest discards added once a seat
    seems ready (default 0: measured weaker, see the module docstring); ``budget``:
    hands evaluated per decision before the search falls back to FanBot's ranking. The rollouts
    (:mod:`guobiao.bots.rollout`): ``rollouts`` per candidate (0: none), over the analytic choice,
    FanBot's ``width`` best and the safest, when the analytic choice is ``near`` to ``reach``
    tiles from ready; each stops once ready (or after ``horizon`` discards) for the analytic
    value; another discard replaces the analytic choice if it gains ``margin`` points more.
    """

    name = "strong"

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: TableRules = COMPETITION,
        top: int = 4,
        safe: int = 0,
        budget: int = 3000,
        rollouts: int = ROLLOUTS,
        width: int = WIDTH,
        reach: int = REACH,
        margin: float = MARGIN,
        near: int = NEAR,
        horizon: int = HORIZON,
    ) -> None:
        super().__init__(seed, rules=rules, defend=False)
        self.top = top
        self.safe = safe
        self.budget = budget
        self.rollouts = rollouts
        self.width = width
        self.reach = reach
        self.margin = margin
        self.near = near
        self.horizon = horizon

    # -- decisions -------------------------------------------------------------------------------
    def decide(self, view: SeatView) -> Action:
        counts = hand_counts(view)
        melds = view.melds[view.seat]
        key = (view.seat, int(view.round_wind))
        plans = self._plans.get(key)
        if plans is None:
            plans = self._plans[key] = _plans_for(*key)
        turn = _Turn(view, unseen_counts(view, counts), plans)
        if view.phase is not Phase.ACT:  # claims: FanBot's (the plans' worth with its margin)
            return self._respond(turn, counts, melds)
        search = _Search(self, view, turn.unseen)
        ranked = self._discards(turn, counts, melds)
        best_worth = ranked[0][0]
        for action in view.legal_actions:  # FanBot's kongs: a free draw that keeps the worth
            if action.kind in (_CONCEALED_KONG, _ADDED_KONG):
                after = counts_after_kong(counts, action)
                if self._worth(turn, after, _kong_melds(melds, action)) >= best_worth:
                    return action
        tile = self._best_discard(search, ranked, counts, melds)
        if self.rollouts > 0 and len(ranked) > 1:
            tile = self._rollout_discard(view, turn, search, ranked, counts, melds, tile)
        return Action(_DISCARD, TILES[tile])

    def _rollout_discard(
        self,
        view: SeatView,
        turn: _Turn,
        search: _Search,
        ranked: Sequence[tuple[tuple[int, float, float], int, float]],
        counts: list[int],
        melds: tuple[Meld, ...],
        analytic: int,
    ) -> int:
        """The discard of most points over rollouts among the ``analytic`` choice, FanBot's
        ``width`` best and the safest; the analytic choice unless another beats it by ``margin``
        points, or when the hand is more than ``reach`` tiles from ready."""
        m = len(melds)
        order = [t for _, t, _ in ranked]
        counts[analytic] -= 1
        far = shanten(counts, m)
        counts[analytic] += 1
        if far > self.reach or far < self.near:
            return analytic
        candidates = [analytic] + [t for t in order[: self.width] if t != analytic]
        if search.threatened:
            by_risk = sorted(order, key=lambda t: (search.risk[t], order.index(t)))
            candidates += [t for t in by_risk[: self.safe] if t not in candidates]
        base = self.rng.getrandbits(32)
        dets = [sample(view, turn.unseen, random.Random(base + i)) for i in range(self.rollouts)]
        turns = []
        for s in range(4):
            exposed = len(view.melds[s]) + view.concealed_kongs[s]
            turns.append(len(view.discards[s]) + exposed + OPEN_TURNS * exposed)
        keys = _meld_keys(melds)
        risk = tuple(search.risk)
        held = list(counts)
        leaves: dict[tuple[bytes, int], float] = {}

        def leaf(hand: list[int], draws: int) -> float:  # the analytic value of a 13-form hand
            key = (bytes(hand), draws)
            value = leaves.get(key)
            if value is None:  # the tiles drawn since are seen now
                live = [
                    max(0, u - max(0, h - b))
                    for u, h, b in zip(turn.unseen, hand, held, strict=True)
                ]
                value = leaves[key] = search.value_over(hand, melds, draws, live)
            return value

        best = (-math.inf, analytic)
        memos: dict[tuple[_Plan, ...], Memo] = {}
        for rank, t in enumerate(candidates):
            counts[t] -= 1
            player = Seat(
                view.seat,
                int(view.round_wind),
                self.rules.fan_profile,
                self.rules.minimum,
                _targets(turn.plans, _Position(counts, keys, turn.unseen)),
                risk,
                OTHER_FAN,
            )
            total = 0.0
            memo = memos.setdefault(player.plans, Memo())  # the policy's choices, by targets
            for i, det in enumerate(dets):
                rng = random.Random(base + i + 7919)
                points = rollout(
                    det, player, counts, melds, turns, turn.unseen, rng, memo, leaf, self.horizon
                )
                total += points[view.seat]
            counts[t] += 1
            p = search.risk[t]
            score = (1 - p) * total / len(dets) - p * (OTHER_FAN + 8) - 1e-6 * rank
            if rank == 0:
                score += self.margin
            if score > best[0]:
                best = (score, t)
        return best[1]

    def _best_discard(
        self,
        search: _Search,
        ranked: Sequence[tuple[tuple[int, float, float], int, float]],
        counts: list[int],
        melds: tuple[Meld, ...],
    ) -> int:
        """The discard of highest expected points among FanBot's top and the safest ones."""
        order = [t for _, t, _ in ranked]
        cost = {t: c for _, t, c in ranked}
        tier = ranked[0][0][0]
        if tier > 0 and self.top > 1:  # near a win: the expected points rank FanBot's top
            candidates = [t for w, t, _ in ranked[: self.top] if w[0] == tier]
        else:  # far: among the discards FanBot's plans rate nearly best, the most live tiles
            top = ranked[0][0]
            near = [t for w, t, _ in ranked if w[2] == top[2] and w[1] >= top[1] * NEAR_PLANS]
            candidates = [
                max(near, key=lambda t: (search.acceptance(counts, melds, t), -order.index(t)))
            ]
        if search.threatened:
            by_risk = sorted(order, key=lambda t: (search.risk[t], order.index(t)))
            candidates += [t for t in by_risk[: self.safe] if t not in candidates]
        best = (-math.inf, order[0])
        for rank, t in enumerate(candidates):
            counts[t] -= 1
            value = search.value(counts, melds, cost[t])
            counts[t] += 1
            if value is None:  # over budget: FanBot's choice
                return order[0]
            p = search.risk[t]
            score = (1 - p) * value - p * DEAL_IN_COST - 1e-6 * rank
            if score > best[0]:
                best = (score, t)
        return best[1]


_ReadyKey = tuple[bytes, tuple[tuple[MeldKind, int], ...], int, int, str, int]
_SCORES: Bounded[_ReadyKey, tuple[tuple[int, int, int], ...]] = Bounded()
"""A ready hand -> (wait, points on a discard, points self-drawn) of each wait (0: short of the
minimum). Shared by every StrongBot; a pure function of its key."""
_SCORES_LIMIT: Final = (1 << 13) // 3
"""_SCORES keeps this many entries, the newest (core.bounded): a ready hand recurs within one
deal, so the hits stay and the memory stays flat however many hands are played."""


class _Search:
    """One decision's evaluations: the view's unseen tiles, draws left, hazard and risks."""

    __slots__ = (
        "bot",
        "draws",
        "hazard",
        "minimum",
        "risk",
        "seat",
        "spent",
        "threatened",
        "total",
        "unseen",
        "values",
        "wind",
    )

    def __init__(self, bot: StrongBot, view: SeatView, unseen: list[int]) -> None:
        self.bot = bot
        self.seat = view.seat
        self.wind = int(view.round_wind)
        self.minimum = bot.rules.minimum
        self.unseen = unseen
        self.total = max(1, sum(unseen))
        if view.segment_remaining is not None:
            self.draws = view.segment_remaining[view.seat]
        else:
            self.draws = (view.wall_remaining + 3) // 4
        self.spent = 0
        self.values: dict[tuple[bytes, tuple[tuple[MeldKind, int], ...], float], float] = {}
        seen = [4 - u for u in unseen]
        ready = []
        for other in range(4):
            if other == view.seat:
                continue
            exposed = len(view.melds[other]) + view.concealed_kongs[other]
            turns = len(view.discards[other]) + exposed
            ready.append((other, 1 - math.exp(-(0.03 * turns + 0.25 * exposed))))
        self.hazard = min(0.6, HAZARD_READY * sum(p for _, p in ready))
        self.risk = [0.0] * 34
        for other, p in ready:
            for t in range(34):
                self.risk[t] += p * min(0.9, WAIT_SHARE * danger(t, view, (other,), seen))
        self.threatened = max(p for _, p in ready) >= THREAT

    def acceptance(self, counts: list[int], melds: tuple[Meld, ...], discard: int) -> int:
        """Live copies of the tiles that would lower the shanten after ``discard``."""
        counts[discard] -= 1
        live = sum(self.unseen[x] for x in useful_tiles(counts, len(melds)))
        counts[discard] += 1
        return live

    # -- values ----------------------------------------------------------------------------------
    def value(self, counts: list[int], melds: tuple[Meld, ...], far_cost: float) -> float | None:
        """Expected points of a 13-form hand over the draws left (None: over budget)."""
        key = (bytes(counts), tuple((m.kind, int(m.tile)) for m in melds), far_cost)
        hit = self.values.get(key)
        if hit is not None:
            return hit
        if self.spent > self.bot.budget:
            return None
        self.spent += 1
        value = self._evaluate(counts, melds, far_cost)
        self.values[key] = value
        return value

    def _evaluate(self, counts: list[int], melds: tuple[Meld, ...], far_cost: float) -> float:
        """:meth:`value` without the memo and the budget."""
        s = shanten(counts, len(melds))
        if s == 0:
            g, e = self._ready_rates(counts, melds)
            return _geometric(g, e, self.draws)
        if s == 1:
            value = self._one_away(counts, melds)
            if value > 0:
                return value
            return self._far(counts, melds, max(far_cost, 2.0))
        return self._far(counts, melds, max(far_cost, float(s)))

    def value_over(
        self, counts: list[int], melds: tuple[Meld, ...], draws: int, unseen: list[int]
    ) -> float:
        """Expected points of a 13-form hand over ``draws`` draws with ``unseen`` copies left,
        however many were evaluated (for the leaves of rollouts: bounded by their count)."""
        saved = self.draws, self.unseen, self.total
        self.draws = max(1, draws)
        self.unseen = unseen
        self.total = max(1, sum(unseen))
        try:
            return self._evaluate(counts, melds, 0.0)
        finally:
            self.draws, self.unseen, self.total = saved

    def _ready_rates(self, counts: list[int], melds: tuple[Meld, ...]) -> tuple[float, float]:
        """Points won per round (g) and the chance per round that the hand ends (e)."""
        total = self.total
        g = 0.0
        win = 0.0
        for w, on_discard, self_drawn in self._scores(counts, melds):
            c = self.unseen[w]
            if c <= 0:
                continue
            p = c / total
            if self_drawn:
                win += p
                g += p * (3 * (self_drawn + 8) + AVOIDED)
            if on_discard:
                q = 3 * DISCARD_RATE * p
                win += q
                g += q * (on_discard + 24 + AVOIDED)
        return g, win + self.hazard

    def _one_away(self, counts: list[int], melds: tuple[Meld, ...]) -> float:
        """Expectimax over one useful draw and the best discard, then the ready hand's value."""
        m = len(melds)
        total = self.total
        draws = self.draws
        hazard = self.hazard
        terms: list[tuple[float, float, float]] = []
        for x in useful_tiles(counts, m):
            c = self.unseen[x]
            if c <= 0 or counts[x] >= 4:
                continue
            counts[x] += 1
            best = (0.0, 0.0, 1.0)
            for y in range(34):
                if counts[y] and y != x:
                    counts[y] -= 1
                    self.spent += 1
                    if shanten(counts, m) == 0:
                        g, e = self._ready_rates(counts, melds)
                        if g > 0 and _geometric(g, e, max(1, draws - 2)) > _geometric(
                            best[1], best[2], max(1, draws - 2)
                        ):
                            best = (c / total, g, e)
                    counts[y] += 1
            counts[x] -= 1
            if best[1] > 0:
                terms.append(best)
        if not terms:
            return 0.0
        stay = max(0.0, 1 - sum(p for p, _, _ in terms) - hazard)
        value = 0.0
        weight = 1.0
        for k in range(draws):  # improve on draw k, then win within the draws after it
            left = draws - k - 1
            value += weight * sum(p * _geometric(g, e, left) for p, g, e in terms)
            weight *= stay
        return value

    def _far(self, counts: list[int], melds: tuple[Meld, ...], cost: float) -> float:
        """A chain of ``cost`` steps at the hand's useful-tile rate, then the win."""
        m = len(melds)
        rate = sum(self.unseen[x] for x in useful_tiles(counts, m)) / self.total
        steps = max(1, math.ceil(cost))
        # probability of being `j` steps from ready, round by round
        state = [0.0] * (steps + 1)
        state[steps] = 1.0
        value = 0.0
        survive = 1 - self.hazard
        for _ in range(self.draws):
            value += state[0] * FAR_WIN_RATE * (FAR_WIN + AVOIDED)
            nxt = [0.0] * (steps + 1)
            nxt[0] = state[0] * (1 - FAR_WIN_RATE)
            for j in range(1, steps + 1):
                r = min(0.9, rate * FAR_STEP_DECAY ** (steps - j))
                nxt[j - 1] += state[j] * r
                nxt[j] += state[j] * (1 - r)
            state = [x * survive for x in nxt]
        return value

    def _scores(
        self, counts: list[int], melds: tuple[Meld, ...]
    ) -> tuple[tuple[int, int, int], ...]:
        bot = self.bot
        key = (
            bytes(counts),
            tuple((m.kind, int(m.tile)) for m in melds),
            self.seat,
            self.wind,
            bot.rules.fan_profile,
            self.minimum,
        )
        scores = _SCORES.get(key)
        if scores is not None:
            return scores
        hand, live_waits = ready_hand(counts, melds)
        found = []
        for w in live_waits:
            on_discard = self._points(hand, w, False)
            self_drawn = self._points(hand, w, True)  # 自摸 or 不求人 may reach the minimum
            found.append((w, on_discard, max(self_drawn, on_discard)))
        scores = tuple(found)
        _SCORES.put(key, scores, _SCORES_LIMIT)
        return scores

    def _points(self, hand: Hand, w: int, self_drawn: bool) -> int:
        context = WinContext(
            TILES[w],
            self_drawn=self_drawn,
            seat_wind=Wind(self.seat),
            round_wind=Wind(self.wind),
        )
        result = calculate(hand, context, self.bot.rules.fan_profile)
        points = result.points_without_flowers if result.is_winning else 0
        return points if points >= self.minimum else 0


def _geometric(g: float, e: float, rounds: int) -> float:
    """Points won over ``rounds`` rounds at ``g`` a round, the hand ending at ``e`` a round."""
    if g <= 0 or rounds <= 0:
        return 0.0
    if e <= 1e-9:
        return g * rounds
    q = max(0.0, 1 - e)
    return g * (1 - q**rounds) / e
