"""How well and how fast the bots play: the duplicate table of one bot against three of another.

    python benchmarks/bots.py [--deals 100] [--seed 1] [--pairs strong:fan fan:efficiency ...]
                              [--all-pairs] [--workers 2] [--orders seats|arena]

Each pair ``A:B`` is bot A against three B bots on the Botzone variant, judged by the local
arena (:func:`guobiao.botzone.arena.play_match`: the judge's requests, the bot-side tracker, the
segmented wall), on the arena's deals (``arena_jobs(deals, seed=...)``: the same walls and
prevailing winds as ``guobiao arena --duplicate --deals N --seed S``).

The duplicate format plays every wall in all 24 seat orders. With three identical B bots this is
4 distinct games, A in each seat, each played 6 times (every order of the three B around it) *if*
the B bots play alike wherever they came from in the line-up. The arena seeds bot ``b`` of the
line-up with ``deal seed + b`` wherever it sits, and every guobiao bot breaks ties with its seeded
generator, so there the 6 orders differ by tie-breaks (fan and efficiency draw from their
generator on every discard). ``--orders seats`` (the default) seeds each B bot by its *seat*
instead (``deal seed + seat``; A gets ``deal seed``, as in the arena): the 6 orders of the others
around A are then the same game, played move for move alike, so each wall's 4 distinct games are
played once and weighted 6 - exactly the 24-order duplicate of that seeding, at a sixth of the
cost. ``--orders arena`` plays the arena's own 24 orders and seeding (``play_job``).

Printed per pair, for bot A: hands (deals × 24), mean score per hand with its 95% interval over
deals (1.96 standard errors of the per-deal means, the arena's ``ci95``), win and self-drawn
rate, deal-in rate (its discards won by another), the deal-in rate of one B seat, and A's time per
decision (a decision: one ``choose`` with some choice; p50, p99, max, mean, in ms). Then, for two
bots measured against the same B (``strong:fan`` and ``fan:fan``), the mean per-deal difference of
their scores with its interval: paired over the same walls, the direct answer to "does A do better
than C against them". Nothing is asserted; ``--out`` also writes the table as Markdown.
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from guobiao.bots import BOT_KINDS, Bot
from guobiao.botzone.arena import (
    ArenaJob,
    GuobiaoPlayer,
    arena_jobs,
    deal_of,
    parse_bot_spec,
    play_job,
    play_match,
)
from guobiao.jobs.workers import run_jobs
from guobiao.table.game import Action, SeatView

DEFAULT_PAIRS = ("strong:fan", "strong:efficiency", "fan:efficiency", "fan:fan")


class _TimedBot:
    """A bot whose decisions are timed (seconds, appended to ``times``)."""

    def __init__(self, bot: Bot, times: list[float], errors: list[str]) -> None:
        self.bot = bot
        self.times = times
        self.errors = errors

    def choose(self, view: SeatView) -> Action:
        start = time.perf_counter()
        try:
            return self.bot.choose(view)
        except Exception as err:  # the tracker would hide it (it plays safe): count it
            self.errors.append(repr(err))
            raise
        finally:
            self.times.append(time.perf_counter() - start)


class _TimedPlayer(GuobiaoPlayer):
    def __init__(self, kind: str, seed: int, times: list[float], errors: list[str]) -> None:
        super().__init__(kind, seed)
        self.times = times
        self.errors = errors

    def start(self, seat: int) -> None:
        super().start(seat)
        self._bot = _TimedBot(self._bot, self.times, self.errors)  # type: ignore[assignment]


@dataclass
class DealOutcome:
    """One wall: its hands as (hero seat, deltas, winner, discarder, weight), the hero's times."""

    hands: list[tuple[int, tuple[int, ...], int | None, int | None, int]] = field(
        default_factory=list
    )
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def play_seats(job: ArenaJob) -> DealOutcome:
    """The 4 distinct games of a wall (A in each seat, B seeded by seat), each of weight 6."""
    wall, quan = deal_of(job.seed)
    hero, other = job.bots[0].label, job.bots[1].label
    out = DealOutcome()
    for seat in range(4):
        players: list[GuobiaoPlayer] = [GuobiaoPlayer(other, job.seed + s) for s in range(4)]
        players[seat] = _TimedPlayer(hero, job.seed, out.times, out.errors)
        result = play_match(wall, players, quan=quan, srand=job.seed).result
        out.hands.append((seat, result.deltas, result.winner, result.discarder, 6))
    return out


def play_arena(job: ArenaJob) -> DealOutcome:
    """The arena's own 24 seat orders and seeding (``play_job``); no decision times."""
    out = DealOutcome()
    for hand in play_job(job):
        seat = hand.order.index(0)
        out.hands.append((seat, hand.deltas, hand.winner, hand.discarder, 1))
    return out


@dataclass
class Row:
    pair: str
    deals: int
    hands: int
    mean: float
    ci95: float
    win: float
    self_drawn: float
    deal_in: float
    other_deal_in: float
    times: list[float]
    errors: int
    seconds: float
    per_deal: list[float] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        if not self.times:
            return math.nan
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def measure(pair: str, deals: int, seed: int, orders: str, workers: int) -> Row:
    hero, _, other = pair.partition(":")
    specs = [parse_bot_spec(hero)] + [parse_bot_spec(other)] * 3
    jobs = arena_jobs(deals, specs, seed=seed, duplicate="all")
    start = time.perf_counter()
    function = play_seats if orders == "seats" else play_arena
    outcomes = run_jobs(function, jobs, workers=workers)
    seconds = time.perf_counter() - start
    per_deal: list[float] = []
    hands = wins = tsumo = deal_ins = other_deal_ins = 0
    total = 0.0
    times: list[float] = []
    errors = 0
    for outcome in outcomes:
        score = weight_sum = 0
        for seat, deltas, winner, discarder, weight in outcome.hands:
            score += weight * deltas[seat]
            weight_sum += weight
            wins += weight * (winner == seat)
            tsumo += weight * (winner == seat and discarder is None)
            deal_ins += weight * (discarder == seat)
            other_deal_ins += weight * (discarder is not None and discarder != seat)
        hands += weight_sum
        total += score
        per_deal.append(score / weight_sum)
        times.extend(outcome.times)
        errors += len(outcome.errors)
    ci = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if deals > 1 else math.nan
    return Row(
        pair,
        deals,
        hands,
        total / hands,
        ci,
        wins / hands,
        tsumo / hands,
        deal_ins / hands,
        other_deal_ins / hands / 3,
        times,
        errors,
        seconds,
        per_deal,
    )


HEADER = (
    "| A vs 3 B | deals | hands | mean/hand | ±95% | win | self-drawn | deal-in | B deal-in "
    "| p50 ms | p99 ms | max ms | mean ms |"
)


def markdown(row: Row) -> str:
    hero, _, other = row.pair.partition(":")
    ms = [1000 * row.percentile(0.5), 1000 * row.percentile(0.99)]
    top = 1000 * max(row.times) if row.times else math.nan
    mean = 1000 * statistics.fmean(row.times) if row.times else math.nan
    return (
        f"| {hero} vs 3 {other} | {row.deals} | {row.hands} | {row.mean:+.2f} | ±{row.ci95:.2f} "
        f"| {row.win:.1%} | {row.self_drawn:.1%} | {row.deal_in:.1%} | {row.other_deal_in:.1%} "
        f"| {ms[0]:.1f} | {ms[1]:.1f} | {top:.1f} | {mean:.1f} |"
    )


def paired(rows: list[Row]) -> list[str]:
    """Bot A against bot C, both against three B on the same walls (same seed and deals): the mean
    of the per-deal differences of their scores, with its 95% interval. Sharing the walls, the
    difference is measured more closely than the two rows' intervals suggest."""
    lines = []
    for a in rows:
        hero, _, other = a.pair.partition(":")
        for c in rows:
            rival, _, against = c.pair.partition(":")
            if against != other or BOT_KINDS.index(rival) <= BOT_KINDS.index(hero):
                continue
            diffs = [x - y for x, y in zip(a.per_deal, c.per_deal, strict=True)]
            ci = (
                1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
                if len(diffs) > 1
                else math.nan
            )
            lines.append(
                f"{hero} - {rival}, each against three {other}: "
                f"{statistics.fmean(diffs):+.2f} ± {ci:.2f} per hand (paired over {len(diffs)} deals)"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="walls per pair (at least 2)")
    parser.add_argument("--seed", type=int, default=1, help="the arena's --seed")
    parser.add_argument(
        "--pairs",
        nargs="+",
        default=list(DEFAULT_PAIRS),
        help="pairs A:B (A against three B) among " + ", ".join(BOT_KINDS),
    )
    parser.add_argument("--all-pairs", action="store_true", help="every A:B of the four bots")
    parser.add_argument("--orders", choices=("seats", "arena"), default="seats")
    parser.add_argument("--workers", type=int, default=1, help="processes (deals in parallel)")
    parser.add_argument("--out", type=Path, default=None, help="also write the table (Markdown)")
    args = parser.parse_args()
    if args.deals < 2:
        parser.error("--deals must be at least 2 (an interval over deals needs two)")
    pairs = [f"{a}:{b}" for a in BOT_KINDS for b in BOT_KINDS] if args.all_pairs else args.pairs
    for pair in pairs:
        hero, _, other = pair.partition(":")
        if hero not in BOT_KINDS or other not in BOT_KINDS:
            parser.error(f"unknown pair {pair!r}: use A:B among {', '.join(BOT_KINDS)}")
    print(f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print(
        f"{args.deals} deals per pair, seed {args.seed}, orders {args.orders}, "
        f"{args.workers} worker(s)"
    )
    lines = [HEADER, "|" + "---|" * 13]
    print("\n".join(lines), flush=True)
    rows: list[Row] = []
    for pair in pairs:
        row = measure(pair, args.deals, args.seed, args.orders, args.workers)
        rows.append(row)
        lines.append(markdown(row))
        note = f"  ({row.seconds:.0f} s" + (f", {row.errors} bot errors" if row.errors else "")
        print(lines[-1] + note + ")", flush=True)
    print(
        "mean/hand: A's mean score per hand (±95%: half the interval, over deals); win, "
        "self-drawn, deal-in: per hand, A's; B deal-in: one B seat's; times: A's decisions."
    )
    differences = paired(rows)
    if differences:
        print("\n".join(differences))
        lines += ["", *(f"- {line}" for line in differences)]
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
