"""Throughput of ``guobiao.core.shanten.shanten`` against MahjongGB's ``MahjongShanten`` (C++).

Usage::

    python benchmarks/bench_shanten.py [-n N] [--seed S] [--repeat R] [--check N]

Both libraries get the same seeded hands, in two workloads: *uniform* (13-form hands dealt from a
shuffled 136-tile wall, with 0-4 random melds) and *near-ready* (a complete hand minus one tile,
with 0-2 tiles swapped for wall tiles). What is timed, per hand:

* guobiao: building the 34 counts from the list of standing tile indexes, then
  ``shanten(counts, len(melds))``;
* MahjongGB: ``MahjongShanten(pack=..., hand=...)`` on prebuilt tuples of tile names (its native
  input; it parses them in C).

guobiao is timed *cold* (caches emptied, one pass) and *warm* (best of R passes); the reference
is timed as the best of R passes. Timings are printed, never asserted.

``--check N`` runs the differential test of ``tests/test_shanten.py`` on N deals of each of its
generators (every shape's shanten and useful tiles, the 14-form) and prints the mismatches.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:
    from guobiao.core import shanten as gb
except ImportError:  # running from a checkout without an install
    sys.path.insert(0, str(ROOT / "src"))
    from guobiao.core import shanten as gb

NAMES = [
    *(f"{s}{r}" for s in "WBT" for r in range(1, 10)),
    "F1",
    "F2",
    "F3",
    "F4",
    "J1",
    "J2",
    "J3",
]
Deal = tuple[
    list[int], list[tuple[str, int]]
]  # standing tiles, melds ("CHI" lowest / "PENG" / "GANG")


def _take(left: list[int], tiles: Sequence[int]) -> bool:
    need = {t: tiles.count(t) for t in tiles}
    if any(left[t] < n for t, n in need.items()):
        return False
    for t in tiles:
        left[t] -= 1
    return True


def _meld(rng: random.Random, left: list[int]) -> tuple[str, int]:
    while True:
        if rng.random() < 0.5:
            start = 9 * rng.randrange(3) + rng.randrange(7)
            if _take(left, (start, start + 1, start + 2)):
                return ("CHI", start)
        else:
            t = rng.randrange(34)
            if _take(left, (t, t, t)):
                return ("PENG", t)


def _draw(rng: random.Random, left: list[int]) -> int:
    t = rng.choices(range(34), weights=left)[0]
    left[t] -= 1
    return t


def deal_uniform(rng: random.Random) -> Deal:
    left = [4] * 34
    melds = [_meld(rng, left) for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)))]
    return [_draw(rng, left) for _ in range(13 - 3 * len(melds))], melds


def deal_near_ready(rng: random.Random) -> Deal:
    left = [4] * 34
    melds = [_meld(rng, left) for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)))]
    tiles: list[int] = []
    while True:  # the pair
        t = rng.randrange(34)
        if _take(left, (t, t)):
            tiles += [t, t]
            break
    for _ in range(4 - len(melds)):
        while True:
            if rng.random() < 0.55:
                start = 9 * rng.randrange(3) + rng.randrange(7)
                group = [start, start + 1, start + 2]
            else:
                group = [rng.randrange(34)] * 3
            if _take(left, group):
                tiles += group
                break
    rng.shuffle(tiles)
    left[tiles.pop()] += 1
    for _ in range(rng.choice((0, 1, 2))):
        i = rng.randrange(len(tiles))
        left[tiles[i]] += 1
        tiles[i] = _draw(rng, left)
    return tiles, melds


def _pack(meld: tuple[str, int]) -> tuple[str, str, int]:
    kind, t = meld
    return (kind, NAMES[t + 1] if kind == "CHI" else NAMES[t], 1)


def time_guobiao(deals: list[tuple[list[int], int]]) -> float:
    shanten = gb.shanten
    start = time.perf_counter()
    for tiles, melds in deals:
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        shanten(counts, melds)
    return time.perf_counter() - start


def time_reference(deals: list[tuple[tuple[tuple[str, str, int], ...], tuple[str, ...]]]) -> float:
    from MahjongGB import MahjongShanten

    start = time.perf_counter()
    for pack, hand in deals:
        MahjongShanten(pack=pack, hand=hand)
    return time.perf_counter() - start


def bench(name: str, deals: list[Deal], repeat: int) -> None:
    ours = [(tiles, len(melds)) for tiles, melds in deals]
    theirs = [
        (tuple(_pack(m) for m in melds), tuple(NAMES[t] for t in tiles)) for tiles, melds in deals
    ]
    n = len(deals)
    gb.clear_caches()
    cold = n / time_guobiao(ours)
    warm = n / min(time_guobiao(ours) for _ in range(repeat))
    ref = n / min(time_reference(theirs) for _ in range(repeat))
    print(f"{name:>10}: {n} hands")
    print(f"{'':>10}  MahjongGB (C++)   {ref:>11,.0f} shanten/s")
    print(f"{'':>10}  guobiao cold      {cold:>11,.0f} shanten/s   ratio {cold / ref:.2f}")
    print(f"{'':>10}  guobiao warm      {warm:>11,.0f} shanten/s   ratio {warm / ref:.2f}")


def check(count: int, seed: int) -> int:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_shanten import check_against_reference

    start = time.perf_counter()
    done, bad = check_against_reference(count, seed=seed)
    for line in bad[:20]:
        print("MISMATCH", line)
    total = sum(done.values())
    print(f"checked {total} deals ({dict(done)}) in {time.perf_counter() - start:.1f} s")
    print(f"mismatches: {len(bad)}")
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("-n", type=int, default=50_000, help="hands per workload (default 50000)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3, help="warm passes, best kept (default 3)")
    parser.add_argument(
        "--check", type=int, metavar="N", help="differential check on N deals per generator"
    )
    args = parser.parse_args(argv)
    if args.check:
        return check(args.check, args.seed)
    rng = random.Random(args.seed)
    print(f"Python {sys.version.split()[0]}, seed {args.seed}")
    bench("uniform", [deal_uniform(rng) for _ in range(args.n)], args.repeat)
    bench("near-ready", [deal_near_ready(rng) for _ in range(args.n)], args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
