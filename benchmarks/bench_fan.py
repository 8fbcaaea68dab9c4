"""Fan-calculation throughput: guobiao against the reference calculator (PyMahjongGB), same hands.

    python benchmarks/bench_fan.py [-n 5000] [--seed 0] [--rules mil] [--repeat 3]

The hands are the differential generator's (``tests/handgen.py``), all winning. Inputs are built
before timing: ``Hand``/``WinContext`` objects for ``guobiao.scoring.calculator.calculate``, dicts for
``guobiao.cli.jsonio.evaluate`` (the JSON path, which also parses and validates), argument tuples for
``MahjongGB.MahjongFanCalculator``. Each side runs ``--repeat`` times over all hands; the best
pass is reported. Sides that do not exist yet are reported as missing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
try:
    import guobiao  # noqa: F401
except ImportError:  # not installed in this environment: use the source tree
    sys.path.insert(0, str(ROOT / "src"))

from MahjongGB import MahjongFanCalculator  # noqa: E402

import handgen  # noqa: E402
import oracle  # noqa: E402


def build(obj: Mapping[str, Any]) -> tuple[Any, Any]:
    """(Hand, WinContext) for a hand dict in the jsonio input format."""
    from guobiao.core.context import WinContext, Wind
    from guobiao.core.hand import Hand
    from guobiao.core.melds import Meld, MeldKind
    from guobiao.core.tiles import TILES

    def tile(name: str) -> Any:
        # not Tile.parse: handgen's own table keeps the benchmark independent of the parser
        return TILES[handgen.TILE_INDEX[name]]

    melds = []
    for meld in obj["melds"]:
        lowest = min(tile(t) for t in meld["tiles"])
        melds.append(Meld(MeldKind(meld["type"]), lowest, meld.get("from")))
    hand = Hand(
        concealed=tuple(tile(t) for t in obj["concealed"]),
        melds=tuple(melds),
        win_tile=None,
    )
    context = WinContext(
        win_tile=tile(obj["win_tile"]),
        self_drawn=obj["self_drawn"],
        fourth_tile=obj["fourth_tile"],
        kong=obj["kong"],
        last_tile=obj["last_tile"],
        seat_wind=Wind.parse(obj["seat_wind"]),
        round_wind=Wind.parse(obj["round_wind"]),
        flowers=obj["flowers"],
    )
    return hand, context


def _time(calls: list[Callable[[], object]], repeat: int) -> float:
    """Best wall time over ``repeat`` passes of all calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for call in calls:
            call()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=5000, help="hands (5000)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (0)")
    parser.add_argument("--rules", choices=("mil", "1998"), default="mil")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes, best kept (3)")
    args = parser.parse_args(argv)

    hands = list(handgen.generate(args.n, args.seed))
    print(f"{len(hands)} generated winning hands, seed {args.seed}, rules {args.rules}")

    rates: dict[str, float] = {}
    ref_args = [oracle.to_reference_args(h) for h in hands]
    ref_calls: list[Callable[[], object]] = [
        lambda a=a: MahjongFanCalculator(*a, verbose=True) for a in ref_args
    ]
    rates["reference (PyMahjongGB)"] = len(hands) / _time(ref_calls, args.repeat)

    try:
        from guobiao.scoring.calculator import calculate
    except ImportError as exc:
        print(f"guobiao.scoring.calculator.calculate: not available ({exc})")
        calculate = None
    if calculate is not None:
        built = [build(h) for h in hands]
        rules = args.rules
        calc_calls: list[Callable[[], object]] = [
            lambda h=h, c=c: calculate(h, c, rules=rules) for h, c in built
        ]
        rates["guobiao calculate"] = len(hands) / _time(calc_calls, args.repeat)

    try:
        from guobiao.cli.jsonio import evaluate
    except ImportError as exc:
        print(f"guobiao.cli.jsonio.evaluate: not available ({exc})")
        evaluate = None
    if evaluate is not None:
        rules = args.rules
        json_calls: list[Callable[[], object]] = [lambda h=h: evaluate(h, rules) for h in hands]
        rates["guobiao evaluate (JSON)"] = len(hands) / _time(json_calls, args.repeat)

    ref_rate = rates["reference (PyMahjongGB)"]
    print(f"{'side':<26} {'hands/s':>10} {'µs/hand':>9} {'vs reference':>13}")
    for side, rate in rates.items():
        print(f"{side:<26} {rate:>10.0f} {1e6 / rate:>9.1f} {rate / ref_rate:>12.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
