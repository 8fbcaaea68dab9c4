"""The table of suit readings (scoring/_suit_table.py) against what it stands for, entry by entry,
and the calculator's reading of a hand from it against the plain computations from the hand's
counts.

Which patterns the table must hold is taken from the waits module's own list of complete patterns
(built another way: multisets of sets with four bits a rank); each reading is unpacked and compared
with the shapes module's splits, the waits module's lone waits (独听) and the pattern's counts. The
file itself is checked against what its script writes now.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import handgen
from guobiao.cli.jsonio import hand_from_json
from guobiao.core import waits
from guobiao.core.context import WinContext
from guobiao.core.hand import Hand
from guobiao.core.shapes import decompose, suit_splits
from guobiao.core.tiles import TILES
from guobiao.core.waits import is_sole_wait, is_unique_wait_of_winning
from guobiao.scoring import calculator as calc
from guobiao.scoring._suit_table import HONOURS, MULTI, SUITED

ROOT = Path(__file__).resolve().parents[1]


def pattern_of(key: int, size: int) -> tuple[int, ...]:
    return tuple(key >> 5 * r & 31 for r in range(size))


def key_of(pattern: tuple[int, ...]) -> int:
    return sum(count << 5 * r for r, count in enumerate(pattern))


def complete_patterns(chows: bool) -> set[tuple[int, ...]]:
    """The waits module's complete patterns (sets only, or sets and a pair), no rank above 4."""
    size = 9 if chows else 7
    sets_only, with_pair = waits._complete_keys(chows)
    found = set()
    for key in sets_only | with_pair:
        pattern = tuple(key >> 4 * r & 15 for r in range(size))
        if max(pattern) <= 4:
            found.add(pattern)
    return found


def test_the_module_is_what_its_script_writes() -> None:
    script = ROOT / "scripts" / "make_suit_table.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_table_holds_every_pattern_that_splits_and_no_other() -> None:
    assert {pattern_of(k, 9) for k in SUITED} == complete_patterns(True)
    assert {pattern_of(k, 7) for k in HONOURS} == complete_patterns(False)
    assert len(SUITED) == 21743 and len(HONOURS) == 498  # the counts the docs quote


def test_readings_stay_below_2_to_the_60() -> None:
    # Four of them then add up below 2**62: an int a compiled module keeps unboxed.
    assert max(SUITED.values()) < 1 << 60 and max(HONOURS.values()) < 1 << 60


def encoded(split: calc._Split) -> list[int]:
    """One suit's split as shapes encodes sets (kind << 6 | tile); no pair when it holds none."""
    chows, pungs, pair, _ = split
    sets = [calc.CHOW << 6 | c for c in chows] + [calc.PUNG << 6 | p for p in pungs]
    return sorted(sets + ([calc.PAIR << 6 | pair] if pair >= 0 else []))


@pytest.mark.parametrize("honours", [False, True])
def test_every_reading_unpacks_to_the_pattern_s_splits_waits_and_counts(honours: bool) -> None:
    table = HONOURS if honours else SUITED
    size = 7 if honours else 9
    suits = (3,) if honours else (0, 1, 2)
    for key, reading in table.items():
        pattern = pattern_of(key, size)
        sets, pairs = suit_splits(pattern, 27 if honours else 0)
        held = [r for r in range(size) if pattern[r]]
        assert reading >> calc._PAIRS_AT & 7 == pairs
        assert reading >> calc._HELD_AT & 511 == sum(1 << r for r in held)
        sole = reading >> calc._SOLE_AT & 511
        assert sole == sum(1 << r for r in held if is_sole_wait(pattern, r)), pattern
        knit = not honours and any(all(pattern[r + 3 * i] for i in range(3)) for r in range(3))
        assert reading >> calc._KNIT_AT & 3 == knit
        assert (reading >> calc._MULTI_AT & 7 == 1) == (len(sets) > 1)
        for suit in suits:
            base = 9 * suit
            shift = base if suit < 3 else 0  # shapes splits the honours from 27 already
            expected = sorted(tuple(sorted(s + shift for s in split)) for split in sets)
            got = sorted(tuple(encoded(split)) for split in calc._suit_splits(reading, suit))
            assert got == expected, (pattern, suit)
            for split in calc._suit_splits(reading, suit):
                assert split[3] == sum(calc._SET_FACTS[s] for s in encoded(split))


def test_multi_lists_each_split_once() -> None:
    starts = [
        (v >> calc._SETS_AT & 4095, v >> calc._PAIR_AT & 15)
        for table in (SUITED, HONOURS)
        for v in table.values()
        if v >> calc._MULTI_AT & 1
    ]
    covered = sorted(i for start, n in starts for i in range(start, start + n))
    assert covered == list(range(len(MULTI)))


def test_a_pattern_outside_the_table_is_read_as_splitting_no_way() -> None:
    rng = random.Random(14)
    seen = 0
    while seen < 3000:
        suit = rng.randrange(4)
        size = 9 if suit < 3 else 7
        pattern = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4, 5)) for _ in range(size))
        key = key_of(pattern)
        if key in (SUITED if suit < 3 else HONOURS):
            continue
        seen += 1
        if max(pattern) <= 4 and sum(pattern) <= 14:  # a hand's suit: the table's domain
            assert not suit_splits(pattern, 0 if suit < 3 else 27)[0]
        reading = calc._read_suit(key, suit)
        held = [r for r in range(size) if pattern[r]]
        assert reading >> calc._HELD_AT & 511 == sum(1 << r for r in held)
        knit = suit < 3 and any(all(pattern[r + 3 * i] for i in range(3)) for r in range(3))
        assert reading >> calc._KNIT_AT & 3 == knit
        assert reading >> calc._PAIRS_AT & 7 == 2  # never part of a sum of 1
        assert not reading >> calc._MULTI_AT & 7 and not reading & calc._FACTS_MASK


def hands() -> list[tuple[Hand, WinContext]]:
    return [hand_from_json(obj) for obj in handgen.generate_with_specials(3000, 200, 1414)]


def test_a_hand_read_from_the_table_is_the_hand_s() -> None:
    for hand, context in hands():
        ctx = calc._Ctx(hand, context, True)
        standing, total = ctx.standing, ctx.total
        counts = [0] * 34
        for t in (*hand.concealed, context.win_tile):
            counts[t] += 1
        assert standing == counts
        for meld in hand.melds:
            for t in meld.tiles:
                counts[t] += 1
        assert total == counts
        standing = ctx.standing
        assert ctx.kinds == 34 - standing.count(0)
        assert ctx.odd == standing.count(1) + standing.count(3)
        assert ctx.fours == total.count(4)
        knit = all(
            any(all(standing[9 * s + r + 3 * i] for i in range(3)) for r in range(3))
            for s in range(3)
        )
        assert ctx.knit == knit
        bits = 0
        for k in range(34):
            if total[k]:
                bits |= calc._TILE_CLASS[k]
        assert ctx.bits == bits
        # The decompositions are shapes.decompose's, and the unique wait the waits module's.
        fast = sorted(calc._encoded(split) for split in calc._splits(ctx))
        assert fast == sorted(decompose(standing)), hand
        if fast:
            assert calc._unique_wait(ctx) == is_unique_wait_of_winning(standing, ctx.win)


def test_the_lone_wait_beside_a_knitted_straight_is_the_waits_module_s() -> None:
    # 组合龙 147m 258p 369s + 789m + 55m: the rest (789m 55m) won on 5m waits on 5m alone, on 9m
    # with 78m as the set it does not (6m and 9m both complete 78m).
    for rest, win in (("W5W5W7W8W9", 4), ("W5W5W7W8W9", 8)):
        counts = [0] * 34
        for t in Hand.parse(rest).concealed:
            counts[t] += 1
        key = sum(counts[r] << 5 * r for r in range(9))
        assert calc._sole_wait(key, win, False) == is_unique_wait_of_winning(counts, win)
    # Hand-checked: of 123m, 23m waits on 1m and 4m, 13m on 2m alone (坎张), 12m on 3m (边张);
    # of 234m, 34m waits on 2m and 5m.
    assert not calc._sole_wait(key_of((1, 1, 1)), 0, False)
    assert calc._sole_wait(key_of((1, 1, 1)), 1, False)
    assert calc._sole_wait(key_of((1, 1, 1)), 2, False)
    assert not calc._sole_wait(key_of((0, 1, 1, 1)), 1, False)
    # The honours: 东东 南南南 won on 南 was waiting on 东 too (双碰); 东东东 南南 won on 南 was
    # not (a fourth 东 leaves 南 alone).
    assert not calc._sole_wait(key_of((2, 3)), 1, True)
    assert calc._sole_wait(key_of((3, 2)), 1, True)
    assert TILES[27].is_honor
