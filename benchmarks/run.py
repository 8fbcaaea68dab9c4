"""All benchmarks in one run: fan calculations and shanten per second, guobiao and PyMahjongGB
(the C++ reference) on the same generated winning hands, with the ratio guobiao / reference.

    python benchmarks/run.py [-n 5000] [--seed 0] [--repeat 3]

Hands come from ``tests/handgen.py`` (every fan family). guobiao fills its tables (per suit
pattern, per tuple of chows or pungs) lazily and keeps them, as a long simulation would, so each
side first runs once over a warm-up set of ``--warmup`` hands (the "cold" line: a fresh process),
then over ``--repeat`` further sets of ``-n`` hands it has never seen; the best of those is the
"warm" line. No set is timed twice, and no table is keyed by a whole hand.

For the fan calculator both sides get prebuilt inputs (``Hand``/``WinContext`` objects; the
reference's argument tuples). For shanten each hand gives two 13-tile positions (the reference
takes no other form): the hand before its winning tile, and the same with two tiles swapped for
random ones; guobiao's timing includes building the counts array from the tiles, the reference
gets its native tuples of tile names. Timings print; nothing is asserted.

Then ``guobiao fan --jsonl`` as a whole process against PyMahjongGB behind the same JSON layer
(``benchmarks/fan_jsonl.py``, ``--jsonl-hands``, 0 skips it): rates, ratio and the max RSS of
each process. The last rows (``benchmarks/env.py``, ``--env-hands``, 0 skips them) run in a fresh
process of their own, so that its cold start is one: single Botzone-variant hands per second
through the AEC environment (observation and mask every step, random legal actions) and the raw
engine alone, against 157 games/s, the figure issue 6 quotes for the PKU environment (Python +
the C++ calculator) on this machine class. The load average is printed at the start and the end:
on a shared machine only the ratios mean much.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent / "tests"))

from MahjongGB import MahjongFanCalculator, MahjongShanten  # noqa: E402

import handgen  # noqa: E402
import oracle  # noqa: E402
from bench_fan import build  # noqa: E402
from env import build as which_build  # noqa: E402
from fan_jsonl import measure as measure_jsonl  # noqa: E402
from guobiao.core.shanten import shanten  # noqa: E402
from guobiao.core.tiles import TILES  # noqa: E402
from guobiao.scoring.calculator import calculate  # noqa: E402

NAMES = [str(TILES[t]) for t in range(34)]
Position = tuple[list[int], int, tuple[tuple[str, str, int], ...], tuple[str, ...]]


def run_once(calls: list[Callable[[], object]]) -> float:
    start = time.perf_counter()
    for call in calls:
        call()
    return time.perf_counter() - start


def fan_calls(hands: list[dict[str, Any]]) -> tuple[list[Callable[[], object]], ...]:
    built = [build(h) for h in hands]
    ref_args = [oracle.to_reference_args(h) for h in hands]
    ours: list[Callable[[], object]] = [lambda h=h, c=c: calculate(h, c, "mil") for h, c in built]
    theirs: list[Callable[[], object]] = [
        lambda a=a: MahjongFanCalculator(*a, verbose=True) for a in ref_args
    ]
    return ours, theirs


def positions(hands: list[dict[str, Any]], rng: random.Random) -> list[Position]:
    out: list[Position] = []
    for obj in hands:
        hand, _ = build(obj)
        pack = oracle.to_reference_args(obj)[0]
        tiles13 = [int(t) for t in hand.concealed]
        out.append((tiles13, len(hand.melds), pack, tuple(NAMES[t] for t in tiles13)))
        used = hand.counts()
        changed = list(tiles13)
        for i in rng.sample(range(len(changed)), min(2, len(changed))):
            new = rng.choice([t for t in range(34) if used[t] < 4])
            used[new] += 1
            changed[i] = new
        out.append((changed, len(hand.melds), pack, tuple(NAMES[t] for t in changed)))
    return out


def ours_shanten(tiles: list[int], melds: int) -> int:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return shanten(counts, melds)


def shanten_calls(hands: list[dict[str, Any]], seed: int) -> tuple[list[Callable[[], object]], ...]:
    found = positions(hands, random.Random(seed))
    ours: list[Callable[[], object]] = [lambda t=t, m=m: ours_shanten(t, m) for t, m, _, _ in found]
    theirs: list[Callable[[], object]] = [
        lambda p=p, h=h: MahjongShanten(pack=p, hand=h) for _, _, p, h in found
    ]
    return ours, theirs


def _load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=5000, help="hands per set (5000)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed of the first set (0)")
    parser.add_argument("--repeat", type=int, default=3, help="timed sets after the warm-up (3)")
    parser.add_argument(
        "--warmup", type=int, default=20000, help="hands in the warm-up set (20000)"
    )
    parser.add_argument(
        "--jsonl-hands",
        type=int,
        default=50_000,
        help="hands for the fan --jsonl processes (50000; 0 skips)",
    )
    parser.add_argument(
        "--env-hands", type=int, default=1000, help="Botzone hands for the env rows (1000; 0 skips)"
    )
    args = parser.parse_args(argv)
    print(f"load average at the start: {_load()}")

    sets = [list(handgen.generate(args.warmup, args.seed))]
    sets += [list(handgen.generate(args.n, args.seed + i)) for i in range(1, args.repeat + 1)]
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(
        f"generated winning hands: a warm-up set of {args.warmup} (seed {args.seed}), then "
        f"{args.repeat} timed sets of {args.n} (seeds {args.seed + 1}..{args.seed + args.repeat})\n"
    )
    print(f"{'benchmark':<16} {'pass':<6} {'guobiao /s':>11} {'reference /s':>13} {'ratio':>7}")
    benches = (
        ("fan calculation", lambda hands, seed: fan_calls(hands)),
        ("shanten", shanten_calls),
    )
    for name, make in benches:
        ours_rates: list[float] = []
        ref_rates: list[float] = []
        for i, hands in enumerate(sets):
            ours, theirs = make(hands, args.seed + i)
            ref_rates.append(len(theirs) / run_once(theirs))
            ours_rates.append(len(ours) / run_once(ours))
        lines = (
            ("cold", ours_rates[0], ref_rates[0]),
            ("warm", max(ours_rates[1:]), max(ref_rates[1:])),
        )
        for label, mine, theirs_rate in lines:
            print(
                f"{name:<16} {label:<6} {mine:>11.0f} {theirs_rate:>13.0f} {mine / theirs_rate:>7.3f}"
            )
    print(f"build: {which_build()}")  # the calculator and the engine are loaded by now
    if args.jsonl_hands:
        print()
        print(measure_jsonl(args.jsonl_hands, args.seed, "mil", repeat=args.repeat))
    if args.env_hands:
        print()
        env_script = str(ROOT / "env.py")
        command = [sys.executable, env_script, "-n", str(args.env_hands), "--seed", str(args.seed)]
        sys.stdout.flush()
        subprocess.run(command, check=True)  # a fresh process: its cold start is one
    print(f"\nload average at the end: {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
