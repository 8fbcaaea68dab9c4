"""Batch scoring as whole processes: ``guobiao fan --jsonl`` against PyMahjongGB behind the same
JSON-lines layer (``benchmarks/fan_jsonl_reference.py``), on the same file of hands.

    python benchmarks/fan_jsonl.py [-n 50000] [--seed 0] [--rules mil] [--repeat 3]

The hands are the differential generator's (``tests/handgen.py``), all winning, written once to a
JSON-lines file. Each side is a fresh process reading that file on stdin and writing its answers
to a file: start-up, imports, parsing, scoring and writing all count. The sides alternate
(``--repeat`` rounds, reference first); the best wall time of each is kept, with the largest
resident set (max RSS, from ``wait4``) of its runs. The two outputs are checked to agree hand by
hand (the totals; under ``--rules mil``, the reference's profile). The load average is printed
with the figures: on a shared machine only the ratio means much.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import handgen  # noqa: E402

REFERENCE_SCRIPT = Path(__file__).resolve().parent / "fan_jsonl_reference.py"


def ours_command(rules: str) -> list[str]:
    """``guobiao fan --jsonl``: the console script beside this interpreter, or the same entry
    point through ``-c`` when there is none."""
    script = Path(sys.executable).parent / "guobiao"
    prefix = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "import sys; from guobiao.cli import main; sys.exit(main())"]
    )
    return [*prefix, "fan", "--jsonl", "--rules", rules]


def reference_command(rules: str) -> list[str]:
    return [sys.executable, str(REFERENCE_SCRIPT), "--rules", rules]


# A small process that starts the measured one and reports its wall time and max RSS. Linux
# keeps a process's peak RSS across exec, so a process forked straight from this benchmark
# (holding every hand) would report this one's size; forked from the launcher (python -S, a few
# MiB), it reports its own.
LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
print(os.waitstatus_to_exitcode(status), wall, usage.ru_maxrss, file=sys.stderr)
"""


def run(command: list[str], stdin: IO[bytes], stdout: IO[bytes]) -> tuple[float, float]:
    """(wall seconds, max RSS in MiB) of one whole process."""
    stdin.seek(0)
    stdout.seek(0)
    stdout.truncate()
    launched = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, *command],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        check=True,
    )
    code, wall, peak = launched.stderr.decode().split("\n")[-2].split()
    if code != "0":
        raise RuntimeError(f"{' '.join(command)} ended with {code}: {launched.stderr.decode()}")
    return float(wall), int(peak) / 1024  # Linux: KiB


def disagreements(ours: IO[bytes], theirs: IO[bytes]) -> int:
    """Lines whose totals differ (or whose ``ok`` differs)."""
    ours.seek(0)
    theirs.seek(0)
    a = [json.loads(line) for line in ours]
    b = [json.loads(line) for line in theirs]
    if len(a) != len(b):
        return abs(len(a) - len(b)) + min(len(a), len(b))
    return sum(
        1
        for x, y in zip(a, b, strict=True)
        if (x["ok"], x.get("total")) != (y["ok"], y.get("total"))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=50_000, help="hands (50000)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (0)")
    parser.add_argument("--rules", choices=("mil", "1998"), default="mil")
    parser.add_argument("--repeat", type=int, default=3, help="rounds, best kept (3)")
    args = parser.parse_args(argv)
    print(measure(args.n, args.seed, args.rules, args.repeat))
    return 0


def measure(n: int, seed: int, rules: str, repeat: int) -> str:
    """Run the benchmark and return its report (several lines)."""
    with tempfile.TemporaryDirectory(prefix="guobiao-jsonl-") as tmp:
        hands = Path(tmp) / "hands.jsonl"
        with hands.open("w", encoding="utf-8") as out:
            for obj in handgen.generate(n, seed):
                out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        sides = {"reference": reference_command(rules), "guobiao": ours_command(rules)}
        walls: dict[str, list[float]] = {side: [] for side in sides}
        rss: dict[str, float] = dict.fromkeys(sides, 0.0)
        outputs = {side: Path(tmp) / f"{side}.jsonl" for side in sides}
        loads = [os.getloadavg()[0]]
        with hands.open("rb") as stdin:
            for _ in range(repeat):
                for side, command in sides.items():
                    with outputs[side].open("w+b") as stdout:
                        wall, peak = run(command, stdin, stdout)
                    walls[side].append(wall)
                    rss[side] = max(rss[side], peak)
                loads.append(os.getloadavg()[0])
        with outputs["guobiao"].open("rb") as a, outputs["reference"].open("rb") as b:
            differ = disagreements(a, b) if rules == "mil" else None
    rate = {side: n / min(walls[side]) for side in sides}
    lines = [
        f"fan --jsonl, {n} generated hands (seed {seed}), rules {rules}, whole processes, "
        f"best of {repeat} alternating rounds",
        f"  guobiao   {rate['guobiao']:>8.0f} hands/s  max RSS {rss['guobiao']:5.1f} MiB  "
        f"({' '.join(f'{w:.2f}' for w in walls['guobiao'])} s)",
        f"  reference {rate['reference']:>8.0f} hands/s  max RSS {rss['reference']:5.1f} MiB  "
        f"({' '.join(f'{w:.2f}' for w in walls['reference'])} s; PyMahjongGB behind the same "
        "JSON layer)",
        f"  ratio {rate['guobiao'] / rate['reference']:.3f} (target 1.0), "
        f"RSS {rss['guobiao']:.1f} MiB (target < 20)",
        f"  load average (1 min) during the runs: {' '.join(f'{x:.2f}' for x in loads)}",
    ]
    if differ is not None:
        lines.append(f"  totals that differ between the two: {differ}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
