"""The standing tiles counted two ways (issue 14): compiled, each suit apart; pure, in one int.

Compiled by mypyc (hatch_build.py), an int above 2**62 is a generic object, so the calculator
counts each suit's tiles in an int of its own there (``_COMPILED``) and in one wide int (one add
a tile) in pure Python. Both must read every hand alike, valid or not, and the flag must say which
build runs.
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
from guobiao.core.context import WinContext
from guobiao.core.hand import Hand
from guobiao.core.tiles import TILES
from guobiao.scoring import calculator as calc
from guobiao.scoring import explain
from guobiao.scoring.explain import referee_text
from guobiao.scoring.result import InvalidHandError


def test_the_flag_says_which_build_runs() -> None:
    assert calc._COMPILED is (calc.__file__ or "").endswith((".so", ".pyd"))


def _hands() -> list[tuple[Hand, WinContext]]:
    hands = [hand_from_json(o) for o in handgen.generate_with_specials(1200, 100, 1414)]
    rng = random.Random(1414)
    for _ in range(600):  # no winning shape, or five of a tile (refused)
        pool = rng.choice((range(34), range(9), range(27, 34), (0, 1, 2, 27)))
        tiles = sorted(rng.choice(pool) for _ in range(14))
        concealed = tuple(TILES[t] for t in tiles[:13])
        hands.append((Hand(concealed, (), None), WinContext(TILES[tiles[13]])))
    return hands


def _read(hand: Hand, context: WinContext) -> object:
    try:
        ctx = calc._Ctx(hand, context, True)
    except InvalidHandError as error:
        return str(error)
    return (
        ctx.tiles,
        ctx.totals,
        ctx.readings,
        ctx.split,
        ctx.special,
        ctx.fours,
        ctx.hogs,
        ctx.bits,
        ctx.situation,
    )


def test_each_suit_counted_apart_reads_the_hand_as_one_int(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (compiled, the flag is a C constant and the module never reads the patched one: the per-suit
    # way runs both times, and is checked against the plain counts below)
    hands = _hands()
    monkeypatch.setattr(calc, "_COMPILED", False)
    one_int = [_read(hand, context) for hand, context in hands]
    monkeypatch.setattr(calc, "_COMPILED", True)
    per_suit = [_read(hand, context) for hand, context in hands]
    assert per_suit == one_int
    refused = [r for r in per_suit if isinstance(r, str)]
    assert 0 < len(refused) < len(hands)  # both kinds were read
    assert any("more than four" in r for r in refused)
    # and the counts are the hand's, tile by tile
    for (hand, context), read in zip(hands, per_suit, strict=True):
        if isinstance(read, str):
            continue
        standing = [0] * 34
        for t in (*hand.concealed, context.win_tile):
            standing[t] += 1
        assert calc._Ctx(hand, context, True).standing == standing


def test_the_referee_s_patterns_are_compiled_when_first_read() -> None:
    # Not on import: ``fan --jsonl`` imports explain with the calculator and never reads them.
    code = "import guobiao.scoring.explain as e; print(e._patterns.cache_info().currsize)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0"
    text = "implied by 大四喜 Big Four Winds (不重复原则)"
    assert referee_text(text, "zh") == "已含于大四喜（不重复原则，第十条一(五)1）"
    assert explain._patterns.cache_info().currsize == 1
