"""Bot-against-bot sessions for ``guobiao simulate``, as independent seeded jobs that run
serially, in local processes or on Ray (``guobiao.jobs.workers``) with identical results (an
adapter: it plays guobiao's bots).

A played session (:class:`~guobiao.table.play.SessionPlay`) holds every hand's game, some
hundreds of kilobytes; a long run keeps none of them. :func:`outcome_job` plays a session and
returns only what the run keeps of it, a :class:`SessionOutcome` (its statistics and, when asked,
its replay log), and :func:`simulate_summary` folds the outcomes into one
:class:`~guobiao.table.summary.SimulationSummary` in the order of the sessions, handing each log
to a callback as it comes: the memory of a run does not grow with its sessions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from guobiao.bots import make_bot
from guobiao.jobs.workers import iter_jobs, run_jobs
from guobiao.table.play import SessionPlay, play_session
from guobiao.table.replay import session_lines
from guobiao.table.rules import TableRules
from guobiao.table.summary import PlayerStats, SimulationSummary, summarize

__all__ = [
    "SessionJob",
    "SessionOutcome",
    "add_summary",
    "iter_session_jobs",
    "outcome_job",
    "play_job",
    "session_jobs",
    "simulate_sessions",
    "simulate_summary",
]


@dataclass(frozen=True, slots=True)
class SessionJob:
    """One session to play: its number, its seed, the four bots (by kind) and the rules;
    ``log``: :func:`outcome_job` also returns the session's replay log."""

    number: int
    seed: int
    bots: tuple[str, str, str, str]
    rules: TableRules
    log: bool = False


@dataclass(frozen=True, slots=True)
class SessionOutcome:
    """What a run keeps of one session: its statistics (a summary of this session alone) and,
    if the job asked for it, its replay log as lines (:func:`guobiao.table.replay.session_lines`).
    """

    number: int
    seed: int
    summary: SimulationSummary
    log: tuple[Mapping[str, Any], ...] | None = None


def play_job(job: SessionJob) -> SessionPlay:
    """Play one session; the bots are seeded from the session's seed (seat i: seed + i)."""
    agents = [make_bot(kind, job.seed + i, job.rules) for i, kind in enumerate(job.bots)]
    return play_session(agents, job.rules, job.seed)


def outcome_job(job: SessionJob) -> SessionOutcome:
    """Play one session (:func:`play_job`) and keep only its outcome."""
    play = play_job(job)
    log = tuple(session_lines(play, job.rules, job.seed)) if job.log else None
    return SessionOutcome(job.number, job.seed, summarize([play], job.rules.starting_points), log)


def add_summary(total: SimulationSummary, part: SimulationSummary) -> None:
    """Add ``part``'s totals to ``total`` (in place): summing the summaries of sessions gives
    the summary of all of them, as every statistic is a sum. The players are those of the
    first summary added; a later one must have the same players, agents included."""
    if not total.players:
        total.players = [PlayerStats(p.player, p.agent) for p in part.players]
    by_player = {p.player: p for p in total.players}
    if [(p.player, p.agent) for p in part.players] != [(p.player, p.agent) for p in total.players]:
        raise ValueError("the summaries are of different players or agents")
    for stats in part.players:
        into = by_player[stats.player]
        for f in fields(PlayerStats):
            if f.name not in ("player", "agent"):
                setattr(into, f.name, getattr(into, f.name) + getattr(stats, f.name))
    for f in fields(SimulationSummary):
        if f.name != "players":
            setattr(total, f.name, getattr(total, f.name) + getattr(part, f.name))


def session_jobs(
    count: int, bots: Sequence[str], rules: TableRules, seed: int | None, *, log: bool = False
) -> list[SessionJob]:
    """The jobs of a run: session seeds drawn in order from ``random.Random(seed)``
    (:func:`iter_session_jobs` as a list)."""
    return list(iter_session_jobs(count, bots, rules, seed, log=log))


def iter_session_jobs(
    count: int, bots: Sequence[str], rules: TableRules, seed: int | None, *, log: bool = False
) -> Iterator[SessionJob]:
    """The jobs of :func:`session_jobs`, made one at a time as they are asked for: a run of
    any length starts at once and holds no list of its jobs (``guobiao simulate``)."""
    if len(bots) != 4:
        raise ValueError(f"four bots, not {len(bots)}")
    kinds = (bots[0], bots[1], bots[2], bots[3])
    return _session_jobs(count, kinds, rules, seed, log)


def _session_jobs(
    count: int,
    kinds: tuple[str, str, str, str],
    rules: TableRules,
    seed: int | None,
    log: bool,
) -> Iterator[SessionJob]:
    master = random.Random(seed)
    for n in range(1, count + 1):
        yield SessionJob(n, master.randrange(2**63), kinds, rules, log)


def simulate_sessions(
    count: int,
    bots: Sequence[str],
    rules: TableRules,
    seed: int | None,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[SessionPlay]:
    """Play ``count`` sessions; the same seed gives the same sessions however they are run.
    Every game is kept: for many sessions, :func:`simulate_summary`."""
    jobs = session_jobs(count, bots, rules, seed)
    return run_jobs(play_job, jobs, workers=workers, ray_address=ray_address, on_done=on_done)


def simulate_summary(
    jobs: Iterable[SessionJob],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_outcome: Callable[[SessionOutcome], None] | None = None,
) -> SimulationSummary:
    """Play the jobs and return the summary of all their sessions (``summarize`` of their
    plays, without keeping them). ``on_outcome`` sees each session's outcome in the order of
    the jobs (progress, writing its log) before it is dropped. The jobs may be a generator
    (:func:`iter_session_jobs`): they are read as they are handed out."""
    total = SimulationSummary([])
    for outcome in iter_jobs(outcome_job, jobs, workers=workers, ray_address=ray_address):
        add_summary(total, outcome.summary)
        if on_outcome is not None:
            on_outcome(outcome)
    return total
