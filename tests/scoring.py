"""Shared test helpers: score a hand written in guobiao's notation."""

from __future__ import annotations

from typing import Any

from guobiao import Hand, WinContext, Wind, parse_hand
from guobiao.scoring.calculator import calculate
from guobiao.scoring.result import FanResult

PROFILES = ("1998", "mil")

NINE_GATES_JSON: dict[str, Any] = {
    "concealed": ["W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9", "W9"],
    "melds": [],
    "win_tile": "W5",
    "self_drawn": False,
    "fourth_tile": False,
    "kong": False,
    "last_tile": False,
    "seat_wind": "E",
    "round_wind": "E",
    "flowers": 0,
}
"""九莲宝灯 won on W5 in the JSON input form (``guobiao fan --jsonl``), every key written out:
88 + 双暗刻 2 + 幺九刻 1 = 91."""


def score(
    text: str,
    rules: str = "1998",
    *,
    self_drawn: bool = False,
    fourth: bool = False,
    kong: bool = False,
    last: bool = False,
    seat: Wind = Wind.EAST,
    prevalent: Wind = Wind.EAST,
    flowers: int = 0,
    explain: bool = False,
) -> FanResult:
    """Score a hand written in guobiao's notation ('+' names the winning tile)."""
    hand = parse_hand(text)
    assert hand.win_tile is not None, f"no winning tile in {text!r}"
    context = WinContext(
        win_tile=hand.win_tile,
        self_drawn=self_drawn,
        fourth_tile=fourth,
        kong=kong,
        last_tile=last,
        seat_wind=seat,
        round_wind=prevalent,
        flowers=flowers,
    )
    return calculate(Hand(hand.concealed, hand.melds), context, rules, explain=explain)


def fan_table(result: FanResult) -> dict[str, int]:
    """The counted fans as 中文 name -> count."""
    return {f.fan.zh: f.count for f in result.fans}
