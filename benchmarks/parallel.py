"""Speed-up of ``guobiao simulate`` spread over workers: the same seeded sessions played serially,
in N local processes and on a one-machine Ray, each timed in this run; prints sessions/s and the
ratio to the serial run (the reference), and checks the three give identical sessions. Ray is
started once before the timings (its start-up, a few seconds, is printed apart).

    python benchmarks/parallel.py [-n 24] [--workers 2] [--bots efficiency] [--no-ray]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from guobiao.jobs.simulation import play_job, session_jobs
from guobiao.jobs.workers import run_jobs
from guobiao.table.rules import COMPETITION


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--sessions", type=int, default=24)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--bots", default="efficiency")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-ray", action="store_true", help="Skip the Ray measurement.")
    args = parser.parse_args()
    jobs = session_jobs(args.sessions, [args.bots] * 4, COMPETITION, args.seed)
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; {args.sessions} sessions of 16 hands, {args.bots} bots"
    )

    runs: list[tuple[str, dict[str, object]]] = [("serial", {})]
    runs.append((f"{args.workers} processes", {"workers": args.workers}))
    if not args.no_ray:
        runs.append(
            (f"Ray local, {args.workers} CPUs", {"workers": args.workers, "ray_address": "local"})
        )
    if not args.no_ray:  # start Ray once, outside the timing: its start-up is a fixed cost
        import ray

        start = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
        print(f"Ray start-up (not timed below): {time.perf_counter() - start:.1f} s")
    baseline = None
    reference = None
    for label, options in runs:
        start = time.perf_counter()
        plays = run_jobs(play_job, jobs, **options)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - start
        scores = [p.session.scores for p in plays]
        if reference is None:
            reference = scores
        assert scores == reference, f"{label}: the sessions differ from the serial run"
        rate = args.sessions / elapsed
        baseline = baseline or rate
        print(
            f"{label:>24}: {rate:6.2f} sessions/s  ({elapsed:5.1f} s)  speed-up {rate / baseline:.2f}x"
        )


if __name__ == "__main__":
    main()
