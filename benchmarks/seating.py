"""Seating of team events: the designs against the search alone (issue 13, point 4).

Usage::

    python benchmarks/seating.py [--seed S] [--players 20,28,...]

For each field of 4q players in q teams of 4 (consecutive names), ``schedule`` is run as the
``draw`` command runs it (a design when one applies, the search beyond it) and again with the
designs switched off (the search alone, as before the designs). Printed as a Markdown table:
repeat meetings of each, the bound of ``best_possible`` (team size 4), the most meetings of a
pair, team-mate meetings and the wall-clock time of each run. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import re
import time
from typing import Any
from unittest.mock import patch

from guobiao.tournament import seating
from guobiao.tournament.seating import best_possible, quality, schedule

PLAYERS = (20, 28, 36, 44, 52, 64, 100)


def search_only() -> Any:
    """``schedule`` without its designs: the seeded search from session one."""
    return patch.object(seating, "_best_design", return_value=None)


def short(method: str) -> str:
    """'RTD(4, 5): 4 classes + search' from the schedule's method."""
    if method.startswith("heuristic"):
        return "search"
    design = re.search(r"RTD\(4, \d+\)|AG\(\d+, 4\)", method)
    classes = re.search(r"(\d+) parallel class", method)
    assert design and classes
    out = f"{design.group()}: {classes.group(1)} classes"
    return out + (" + search" if method.endswith("+ heuristic") else "")


def sessions_for(n: int) -> list[int]:
    """The design's sessions (q − 1 with teams of 4; AG(3, 4) for 64), one more, and 7 (a common
    length for an event)."""
    q = n // 4
    capacity = 20 if n == 64 else q - 1
    return sorted({capacity, capacity + 1, 7})


def row(n: int, sessions: int, teams: bool, seed: int) -> str:
    players = [f"P{i:03d}" for i in range(n)]
    groups = {f"T{t:02d}": players[4 * t : 4 * t + 4] for t in range(n // 4)} if teams else {}
    start = time.perf_counter()
    plan = schedule(players, sessions, teams=groups, seed=seed)
    took = time.perf_counter() - start
    got = quality(plan, groups)
    with search_only():
        start = time.perf_counter()
        alone = quality(schedule(players, sessions, teams=groups, seed=seed), groups)
        took_alone = time.perf_counter() - start
    bound = best_possible(n, sessions, 4 if teams else 1)
    return (
        f"| {n} | {sessions} | {f'{n // 4}×4' if teams else '—'} | {short(plan.method)} "
        f"| {got.repeat_meetings} | {alone.repeat_meetings} | {bound.repeat_meetings} "
        f"| {got.max_meetings} / {alone.max_meetings} | {got.team_meetings} "
        f"| {took:.2f} s | {took_alone:.2f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Seating of team events: designs vs search.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default=",".join(map(str, PLAYERS)))
    args = parser.parse_args()
    print(
        "| players | sessions | teams | method | repeat meetings | search alone | bound "
        "| max meetings: design / search | team-mate meetings | time | search time |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in map(int, args.players.split(",")):
        for sessions in sessions_for(n):
            print(row(n, sessions, True, args.seed), flush=True)
        print(row(n, n // 4 if n != 64 else 21, False, args.seed), flush=True)


if __name__ == "__main__":
    main()
