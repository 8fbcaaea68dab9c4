"""Large differential run: guobiao.cli.jsonio.evaluate against the reference calculator (PyMahjongGB).

    python benchmarks/difftest.py -n 100000 [--seed S] [--rules mil|1998] [--show 20]
    python benchmarks/difftest.py -n 100000 --reference-only      # generator coverage only

Prints a progress line every 10%, then: hands generated, rejected as invalid (by message),
compared, mismatches (the first ``--show`` listed, with the hand in readable form), and per-fan
coverage counts. Under ``1998`` the reference's 明暗杠 is compared as 明杠 + 暗杠. Exit code 1 on
any mismatch (an exception in ``evaluate`` counts as one), 2 when guobiao.cli.jsonio is missing.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
try:
    import guobiao  # noqa: F401
except ImportError:  # not installed in this environment: use the source tree
    sys.path.insert(0, str(ROOT / "src"))

import handgen  # noqa: E402
import oracle  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100_000, help="hands to generate (100000)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (0)")
    parser.add_argument("--rules", choices=("mil", "1998"), default="mil")
    parser.add_argument("--show", type=int, default=20, help="mismatches to list (20)")
    parser.add_argument("--family", choices=sorted(handgen.FAMILIES), help="one family only")
    parser.add_argument(
        "--reference-only", action="store_true", help="run the reference alone (coverage)"
    )
    args = parser.parse_args(argv)

    evaluate = None
    en_names: dict[str, str] | None = None
    if not args.reference_only:
        try:
            from guobiao.cli.jsonio import evaluate
            from guobiao.scoring.fans import Fan
        except ImportError as exc:
            print(
                f"guobiao.cli.jsonio is not available ({exc}); try --reference-only",
                file=sys.stderr,
            )
            return 2
        en_names = {f.zh: f.en for f in Fan}

    if args.family:
        stream = ((args.family, h) for h in handgen.generate_family(args.family, args.n, args.seed))
    else:
        stream = handgen.generate_tagged(args.n, args.seed)

    generated = compared = swaps = 0
    rejected: Counter[str] = Counter()
    ref_refused: Counter[str] = Counter()
    mismatches: list[tuple[str, dict[str, Any], str]] = []
    mismatch_fans: Counter[str] = Counter()
    ours_cov: Counter[str] = Counter()
    ref_cov: Counter[str] = Counter()
    step = max(1, args.n // 10)
    start = time.perf_counter()
    for fam, obj in stream:
        generated += 1
        try:
            ref = oracle.reference_fans(obj)
        except oracle.OracleError as exc:
            ref_refused[exc.message] += 1
            mismatches.append((fam, obj, f"reference refused the generated hand: {exc.message}"))
            ref = None
        if ref is not None:
            ref_cov.update(list(oracle.to_1998(ref) if args.rules == "1998" else ref))
        if evaluate is not None:
            try:
                outcome = oracle.compare(obj, evaluate(obj, args.rules), args.rules, en_names)
            except Exception as exc:
                last = traceback.extract_tb(exc.__traceback__)[-1]
                where = f"{Path(last.filename).name}:{last.lineno}"
                mismatches.append((fam, obj, f"exception {exc!r} at {where}"))
                compared += 1
                continue
            if outcome.status == "invalid":
                rejected[outcome.message] += 1
            else:
                compared += 1
                swaps += outcome.kong_swap
                ours_cov.update(list(outcome.ours or {}))
                if outcome.status == "mismatch":
                    text = f"ours {outcome.ours}\n      ref  {outcome.reference}\n"
                    text += f"      diff {outcome.diff()} {outcome.message}"
                    mismatches.append((fam, obj, text))
                    mismatch_fans.update(outcome.diff().split())
        if generated % step == 0:
            elapsed = time.perf_counter() - start
            print(
                f"  {100 * generated // args.n:3d}%  {generated} hands  {elapsed:.1f} s  "
                f"{generated / elapsed:.0f}/s  mismatches {len(mismatches)}",
                flush=True,
            )

    elapsed = time.perf_counter() - start
    print(f"\nrules {args.rules}, seed {args.seed}, {elapsed:.1f} s")
    print(f"hands generated:      {generated}")
    if ref_refused:
        print(f"reference refused:    {sum(ref_refused.values())}  {dict(ref_refused)}")
    if evaluate is not None:
        print(f"rejected as invalid:  {sum(rejected.values())}")
        for message, count in rejected.most_common():
            print(f"    {count:6d}  {message}")
        print(f"compared:             {compared}")
        if args.rules == "1998":
            print(f"明暗杠 -> 明杠 + 暗杠: {swaps}")
    print(f"mismatches:           {len(mismatches)}")
    for fam, obj, text in mismatches[: args.show]:
        print(f"  [{fam}] {handgen.describe(obj)}\n      {text}")
    if mismatches:
        by_family = Counter(fam for fam, _, _ in mismatches)
        print("mismatches by family: " + "  ".join(f"{k} {v}" for k, v in by_family.most_common()))
    if mismatch_fans:
        print("fans in mismatches (+ only ours, - only reference):")
        print("    " + "  ".join(f"{k} {v}" for k, v in mismatch_fans.most_common(30)))

    print("\ncoverage (hands counting the fan):")
    header = f"  {'fan':<10} {'pts':>3} {'reference':>9}"
    print(header + (f" {'ours':>9}" if evaluate is not None else ""))
    zero = []
    for name, points in oracle.FAN_POINTS.items():
        if args.rules == "1998" and name == "明暗杠":
            continue
        line = f"  {name}{' ' * (10 - 2 * len(name))} {points:>3} {ref_cov[name]:>9}"
        if evaluate is not None:
            line += f" {ours_cov[name]:>9}"
        print(line)
        if not ref_cov[name]:
            zero.append(name)
    if zero:
        print(f"never reached: {' '.join(zero)}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
