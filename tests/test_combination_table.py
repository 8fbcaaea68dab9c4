"""The generated combination tables (scoring/_combination_table.py) against the functions they
were made from, entry by entry, and the file against what its script writes now."""

from __future__ import annotations

import subprocess
import sys
from itertools import combinations, combinations_with_replacement
from pathlib import Path

from guobiao.scoring import combinations as combos
from guobiao.scoring._combination_table import CHOW_TABLE, PUNG_TABLE

ROOT = Path(__file__).resolve().parents[1]
CHOWS = [c for k in (2, 3, 4) for c in combinations_with_replacement(combos.CHOW_LOWS, k)]
PUNGS = [p for k in (2, 3, 4) for p in combinations(range(34), k)]


def test_ranks_number_every_combination_once() -> None:
    assert (
        sorted(map(combos.chow_rank, CHOWS))
        == list(range(len(CHOWS)))
        == list(range(len(CHOW_TABLE)))
    )
    assert (
        sorted(map(combos.pung_rank, PUNGS))
        == list(range(len(PUNGS)))
        == list(range(len(PUNG_TABLE)))
    )


def test_every_chow_combination_reads_as_worked_out() -> None:
    for chows in CHOWS:
        assert combos.chow_fans(chows) == tuple(f for f, _ in combos.chow_combinations(chows))


def test_every_pung_combination_reads_as_worked_out() -> None:
    for pungs in PUNGS:
        assert combos.pung_fans(pungs) == tuple(f for f, _ in combos.pung_combinations(pungs))


def test_fewer_than_two_sets_combine_into_nothing() -> None:
    assert combos.chow_fans(()) == combos.chow_fans((3,)) == ()
    assert combos.pung_fans(()) == combos.pung_fans((31,)) == ()


def test_the_module_is_what_its_script_writes() -> None:
    script = ROOT / "scripts" / "make_combination_table.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
