"""Memory of long runs (issue 14): the peak resident memory (max RSS) of ``guobiao simulate`` at
several session counts and of ``guobiao arena --duplicate`` at several deal counts, each run as a
fresh child process, and the ratio of the largest run's peak to the smallest's. The goal is a
flat curve: a ratio of at most 1.10 (the tables a run fills are bounded and full early, and a
run keeps a compact outcome per session, not its games).

    python benchmarks/memory.py [--sessions 16 64 256] [--deals 16 160] [--seed 1]
                                [--bots fan,efficiency,efficiency,efficiency]
                                [--arena-bots fan,efficiency,efficiency,random]

Each child's peak is read from ``os.wait4`` (its own ``ru_maxrss``, not that of earlier
children). Runs are serial (``--workers 1``): worker processes would each have their own peak.
A duplicate deal is 24 hands (the wall in every seat order), so 16 and 160 deals are the hands
of some 24 and 240 sessions. ``--sessions`` or ``--deals`` with no numbers skips that command.
The defaults take some 5 minutes on a quiet 2-core machine (2.5 for the sessions, 2 for the
deals); ``--sessions 16 64 --deals 16 48`` takes about 1.5 minutes.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence

GOAL = 1.10
"""The largest run's peak over the smallest run's, at most (issue 14)."""

_LAUNCH = "import sys; from guobiao.cli import main; sys.exit(main(prog_name='guobiao'))"


def peak_of(arguments: Sequence[str]) -> tuple[float, float]:
    """(max RSS in MiB, seconds) of ``guobiao ARGUMENTS`` run as a fresh child process."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", _LAUNCH, *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(
            f"guobiao {' '.join(arguments)} failed ({child.returncode}): {errors.decode()[-2000:]}"
        )
    return usage.ru_maxrss / 1024, elapsed  # Linux reports kilobytes


def curve(label: str, unit: str, runs: Sequence[tuple[int, list[str]]]) -> float:
    """Measure each run, print the curve, return the largest run's peak over the smallest's."""
    print(f"{label}:")
    peaks = []
    for size, arguments in runs:
        peak, elapsed = peak_of(arguments)
        peaks.append(peak)
        print(f"  {size:>5} {unit:<9} max RSS {peak:6.1f} MiB  ({elapsed:5.1f} s)", flush=True)
    ratio = peaks[-1] / peaks[0]
    verdict = "flat" if ratio <= GOAL else "GROWS"
    print(f"  ratio {runs[-1][0]}/{runs[0][0]} {unit}: {ratio:.3f} (goal <= {GOAL:.2f}: {verdict})")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="*", default=[16, 64, 256])
    parser.add_argument("--deals", type=int, nargs="*", default=[16, 160])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="fan,efficiency,efficiency,efficiency")
    parser.add_argument("--arena-bots", default="fan,efficiency,efficiency,random")
    args = parser.parse_args()
    sessions = sorted(args.sessions)
    deals = sorted(args.deals)
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; load average {os.getloadavg()[0]:.2f} at the start"
    )
    seed = str(args.seed)
    simulate = [
        (n, ["simulate", "-n", str(n), "--seed", seed, "--bots", args.bots, "--json"])
        for n in sessions
    ]
    arena = [
        (n, ["arena", "--bots", args.arena_bots, "--duplicate", "--deals", str(n), "--seed", seed])
        for n in deals
    ]
    ratios = []
    if simulate:
        ratios.append(curve(f"guobiao simulate --bots {args.bots}", "sessions", simulate))
    if arena:
        ratios.append(curve(f"guobiao arena --duplicate --bots {args.arena_bots}", "deals", arena))
    if not ratios:
        parser.error("nothing to measure: give --sessions or --deals")
    print(
        f"worst ratio {max(ratios):.3f} (goal <= {GOAL:.2f}); load average "
        f"{os.getloadavg()[0]:.2f} at the end"
    )


if __name__ == "__main__":
    main()
