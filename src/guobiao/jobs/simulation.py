"""Bot-against-bot sessions for ``guobiao simulate``, as independent seeded jobs that run
serially, in local processes or on Ray (``guobiao.jobs.workers``) with identical results (an
adapter: it plays guobiao's bots)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from guobiao.bots import make_bot
from guobiao.jobs.workers import run_jobs
from guobiao.table.play import SessionPlay, play_session
from guobiao.table.rules import TableRules

__all__ = ["SessionJob", "play_job", "session_jobs", "simulate_sessions"]


@dataclass(frozen=True, slots=True)
class SessionJob:
    """One session to play: its number, its seed, the four bots (by kind) and the rules."""

    number: int
    seed: int
    bots: tuple[str, str, str, str]
    rules: TableRules


def play_job(job: SessionJob) -> SessionPlay:
    """Play one session; the bots are seeded from the session's seed (seat i: seed + i)."""
    agents = [make_bot(kind, job.seed + i, job.rules) for i, kind in enumerate(job.bots)]
    return play_session(agents, job.rules, job.seed)


def session_jobs(
    count: int, bots: Sequence[str], rules: TableRules, seed: int | None
) -> list[SessionJob]:
    """The jobs of a run: session seeds drawn in order from ``random.Random(seed)``."""
    if len(bots) != 4:
        raise ValueError(f"four bots, not {len(bots)}")
    kinds = (bots[0], bots[1], bots[2], bots[3])
    master = random.Random(seed)
    return [SessionJob(n, master.randrange(2**63), kinds, rules) for n in range(1, count + 1)]


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
    """Play ``count`` sessions; the same seed gives the same sessions however they are run."""
    jobs = session_jobs(count, bots, rules, seed)
    return run_jobs(play_job, jobs, workers=workers, ray_address=ray_address, on_done=on_done)
