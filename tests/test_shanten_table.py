"""The generated shanten tables (core/_shanten_table.py) against the decomposition they were made
from, and the shanten module reading them against the same module decomposing every pattern;
the file against what its script writes now; the tables loaded only when a shanten is asked."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from itertools import permutations, product
from pathlib import Path

import pytest

import guobiao.core.shanten as module
from guobiao.core._shanten_table import HONOR, KNIT_MOST, SUITED, VECTORS
from guobiao.core.shanten import (
    clear_caches,
    waits,
)
from positions import shanten_answers

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def _patterns(size: int) -> list[bytes]:
    return [bytes(p) for p in product(range(5), repeat=size) if sum(p) <= 14]


@pytest.mark.parametrize(("size", "split", "table"), [(9, 5, SUITED), (7, 4, HONOR)])
def test_ranks_number_every_pattern_once(size: int, split: int, table: bytes) -> None:
    head, tail = module._ranking(size, split)
    ranks = sorted(head[p[:split]] + tail[p[split:]] for p in _patterns(size))
    assert ranks == list(range(len(table)))
    # 405,350 suited patterns: 0-4 copies of nine ranks with at most 14 tiles
    assert len(table) == (405_350 if size == 9 else 43_130)


@pytest.mark.parametrize(("size", "split", "table"), [(9, 5, SUITED), (7, 4, HONOR)])
def test_entries_are_the_decomposition(size: int, split: int, table: bytes) -> None:
    """Every pattern of up to 6 tiles and 3000 random others read as worked out."""
    head, tail = module._ranking(size, split)
    patterns = _patterns(size)
    rng = random.Random(size)
    sample = [p for p in patterns if sum(p) <= 6] + rng.sample(patterns, 3000)
    honor = size == 7
    for p in sample:
        vector = VECTORS[table[head[p[:split]] + tail[p[split:]]]]
        assert vector == module._closure(module._decompose(p, honor)), p


def test_knit_most_counts_the_best_knitted_straight() -> None:
    """The most tiles of one of the six knitted straights held, counted here from each suit's
    kinds present among 147, 258 and 369 (two bits each)."""
    for key in range(1 << 18):
        suits = [[key >> (6 * s + 2 * j) & 3 for j in range(3)] for s in range(3)]
        best = max(suits[0][a] + suits[1][b] + suits[2][c] for a, b, c in permutations(range(3)))
        assert KNIT_MOST[key] == best


def _hands(seed: int, count: int) -> list[tuple[list[int], int]]:
    """14-form hands, half of them crowded into one suit and the honours (fours included)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        melds = rng.choice((0, 0, 1, 2, 3, 4))
        kinds = list(range(34)) if i % 2 else [*range(9), *range(27, 34)]
        counts = [0] * 34
        while sum(counts) < 14 - 3 * melds:
            t = rng.choice(kinds)
            if counts[t] < 4:
                counts[t] += 1
        out.append((counts, melds))
    return out


def test_the_tables_answer_as_the_decomposition(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shanten, useful tiles, waits and discards read from the tables equal those of the same
    module with no table (every pattern decomposed, as the fallback for a fifth copy does)."""
    hands = _hands(11, 400)
    clear_caches()
    tabled = shanten_answers(hands)
    loaded = module._ids()
    for name in ("suited_head", "honor_head"):
        monkeypatch.setattr(loaded, name, {})  # no pattern found: each one decomposed
    clear_caches()
    assert shanten_answers(hands) == tabled
    assert module._DECOMP_SUITED and module._DECOMP_HONOR  # the fallback did run
    monkeypatch.undo()
    clear_caches()


def test_a_fifth_copy_is_decomposed() -> None:
    """1111m after three melds waits on 1m: the grown pattern 11111m is outside the tables."""
    clear_caches()
    counts = [0] * 34
    counts[0] = 4
    assert waits(counts, 3) == [0]  # the module's docstring: 111 + 11, on paper
    assert bytes([5, 0, 0, 0, 0, 0, 0, 0, 0]) in module._DECOMP_SUITED


def test_the_tables_load_on_the_first_shanten_only() -> None:
    code = (
        "import sys\n"
        "from guobiao.core.hand import parse_hand\n"
        "from guobiao.core.context import WinContext\n"
        "from guobiao.scoring.calculator import calculate\n"
        "import guobiao.core.shanten as sh\n"
        "hand = parse_hand('W1W1W1W2W3W4W5W6W7W8W9W9W9')\n"
        "calculate(hand, WinContext(hand.concealed[4]))\n"
        "print('guobiao.core._shanten_table' in sys.modules)\n"
        "sh.shanten([1] * 13 + [0] * 21)\n"
        "print('guobiao.core._shanten_table' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True
    )
    assert done.stdout.split() == ["False", "True"]


def test_the_module_is_what_its_script_writes() -> None:
    script = ROOT / "scripts" / "make_shanten_table.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
