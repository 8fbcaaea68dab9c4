"""The package's everyday names (``from guobiao import ...``) load on first use, each the object
its own module defines, and ``import guobiao`` alone loads no module of the package."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

import guobiao

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

HOMES = {  # written out here, not read from the package: a name that moves must be noticed
    "WinContext": "guobiao.core.context",
    "Wind": "guobiao.core.context",
    "Hand": "guobiao.core.hand",
    "format_hand": "guobiao.core.hand",
    "parse_hand": "guobiao.core.hand",
    "Meld": "guobiao.core.melds",
    "MeldKind": "guobiao.core.melds",
    "shanten": "guobiao.core.shanten",
    "useful_tiles": "guobiao.core.shanten",
    "waits": "guobiao.core.shanten",
    "TILES": "guobiao.core.tiles",
    "Suit": "guobiao.core.tiles",
    "Tile": "guobiao.core.tiles",
    "TileParseError": "guobiao.core.tiles",
    "calculate": "guobiao.scoring.calculator",
    "Fan": "guobiao.scoring.fans",
    "MINIMUM_POINTS": "guobiao.scoring.result",
    "CountedFan": "guobiao.scoring.result",
    "FanResult": "guobiao.scoring.result",
    "InvalidHandError": "guobiao.scoring.result",
}


def test_all_lists_every_public_name() -> None:
    assert sorted(guobiao.__all__) == sorted(HOMES)
    assert set(HOMES) <= set(dir(guobiao))


@pytest.mark.parametrize(("name", "home"), sorted(HOMES.items()))
def test_each_name_is_its_modules_object(name: str, home: str) -> None:
    assert getattr(guobiao, name) is getattr(importlib.import_module(home), name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'calculator'"):
        guobiao.calculator  # noqa: B018
    assert not hasattr(guobiao, "Game")  # the game table is not part of the everyday API


def test_import_guobiao_loads_no_module_until_a_name_is_used() -> None:
    code = (
        "import sys, guobiao; before = sorted(m for m in sys.modules if m.startswith('guobiao.'));"
        " from guobiao import calculate, parse_hand, WinContext;"
        " hand = parse_hand('W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5');"
        " print(before, calculate(hand, WinContext(hand.win_tile)).total,"
        " 'guobiao.core.shanten' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
        check=True,
    )
    # 九莲宝灯 88 + 双暗刻 2 (W1W1W1 W9W9W9) + 幺九刻 1, the README's example
    assert done.stdout.split() == ["[]", "91", "False"]
