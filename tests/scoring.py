"""Shared test helpers: score a hand written in guobiao's notation."""

from __future__ import annotations

from guobiao import Hand, WinContext, Wind, parse_hand
from guobiao.scoring.calculator import calculate
from guobiao.scoring.result import FanResult

PROFILES = ("1998", "mil")


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
