"""One example winning hand for every fan (第九条), as the help page shows it under the fan.

Each hand shows its fan plainly and is a legal win that the calculator scores with that fan
(tests/test_fan_examples.py); most carry a few small fans beside it, and a small fan's hand may
stay under the 8-point minimum (第五条): it is there to show the fan, not to be played. Hands are
in the notation of :mod:`guobiao.core.hand` (``[...]`` a melded set, ``(...)`` a concealed kong,
``+`` the winning tile, ``1f`` .. ``8f`` flowers). Unless an example says otherwise it is won on a
discard, seat wind and prevalent wind East, no flowers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.core.tiles import Tile, read_tiles
from guobiao.scoring.fans import Fan

__all__ = ["EXAMPLES", "FanExample", "example"]

_MELD = re.compile(r"\[[^\]]*\]|\([^)]*\)")  # a melded set or a concealed kong in a hand's text


@dataclass(frozen=True, slots=True)
class FanExample:
    """A fan's example: the hand's text and the win's circumstances (:class:`WinContext`)."""

    hand: str
    self_drawn: bool = False
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False
    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    rules: str = "1998"  # the profile that counts the fan (明暗杠: mil)

    def parse(self) -> tuple[Hand, WinContext]:
        """The hand (its flowers among them) and the context ``calculate`` takes."""
        hand = parse_hand(self.hand)
        assert hand.win_tile is not None, self.hand
        context = WinContext(
            hand.win_tile,
            self_drawn=self.self_drawn,
            fourth_tile=self.fourth_tile,
            kong=self.kong,
            last_tile=self.last_tile,
            seat_wind=self.seat_wind,
            round_wind=self.round_wind,
            flowers=len(hand.flowers),
        )
        return Hand(hand.concealed, hand.melds, hand.win_tile, hand.flowers), context

    def standing(self) -> tuple[Tile, ...]:
        """The standing tiles in the order written (``Hand`` sorts them): a wait stays beside the
        winning tile that completes it (边张's 12 before +3)."""
        text = _MELD.sub(" ", self.hand.split("+", 1)[0])
        return tuple(t for t, _ in read_tiles(text, 0, "")[0] if not t.is_flower)


_E = FanExample
_SOUTH = Wind.SOUTH

# fmt: off
EXAMPLES: Final[dict[Fan, FanExample]] = {
    # 88
    Fan.BIG_FOUR_WINDS: _E("[111z][222z]333z444z5m +5m"),
    Fan.BIG_THREE_DRAGONS: _E("[555z][666z]777z345m8p +8p"),
    Fan.ALL_GREEN: _E("[234s][666z]234s66s88s +8s"),
    Fan.NINE_GATES: _E("1112345678999m +5m"),
    Fan.FOUR_KONGS: _E("[1111m][2222p](3333s)(4444z)5z +5z"),
    Fan.SEVEN_SHIFTED_PAIRS: _E("2233445566778p +8p"),
    Fan.THIRTEEN_ORPHANS: _E("19m19p19s1234567z +1m"),
    # 64
    Fan.ALL_TERMINALS: _E("[111m][999m]111p999s9p +9p"),
    Fan.LITTLE_FOUR_WINDS: _E("[111z][222z]333z44z35m +4m"),
    Fan.LITTLE_THREE_DRAGONS: _E("[555z][666z]77z345m79p +8p"),
    Fan.ALL_HONORS: _E("[222z][555z]444z666z3z +3z"),
    Fan.FOUR_CONCEALED_PUNGS: _E("222m444m777p999s5p +5p"),
    Fan.PURE_TERMINAL_CHOWS: _E("123123789789m5m +5m"),
    # 48
    Fan.QUADRUPLE_CHOW: _E("[234s][234s]234234s5p +5p"),
    Fan.FOUR_PURE_SHIFTED_PUNGS: _E("[222p][333p][444p]555p7s +7s"),
    # 32
    Fan.FOUR_PURE_SHIFTED_CHOWS: _E("[123m][234m]345456m9p +9p"),
    Fan.THREE_KONGS: _E("[1111m][5555p](7777s)456m9p +9p"),
    Fan.ALL_TERMINALS_AND_HONOURS: _E("[111m][999m]222z999p9s +9s"),
    # 24
    Fan.SEVEN_PAIRS: _E("1155m2277p99s113z +3z"),
    Fan.GREATER_HONOURS_AND_KNITTED_TILES: _E("14m258p36s123456z +7z"),
    Fan.ALL_EVEN_PUNGS: _E("[222m][444p]666s888m2p +2p"),
    Fan.FULL_FLUSH: _E("[123m][345m]678m999m4m +4m"),
    Fan.PURE_TRIPLE_CHOW: _E("[123p]123p123p456s9m +9m"),
    Fan.PURE_SHIFTED_PUNGS: _E("[111s][222s]333s567m9p +9p"),
    Fan.UPPER_TILES: _E("[789m][999p]777s88s89m +7m"),
    Fan.MIDDLE_TILES: _E("[456m][555p]444s66s45m +6m"),
    Fan.LOWER_TILES: _E("[123m][111p]222s33s12m +3m"),
    # 16
    Fan.PURE_STRAIGHT: _E("[123m]456m789m345s2p +2p"),
    Fan.THREE_SUITED_TERMINAL_CHOWS: _E("[123m][789m]123p789p5s +5s"),
    Fan.PURE_SHIFTED_CHOWS: _E("[123m]234m345m789p5s +5s"),
    Fan.ALL_FIVES: _E("[456m][555p]345s567m5s +5s"),
    Fan.TRIPLE_PUNG: _E("[222m][222p]222s567m9p +9p"),
    Fan.THREE_CONCEALED_PUNGS: _E("[234m]111m555p999s7z +7z"),
    # 12
    Fan.LESSER_HONOURS_AND_KNITTED_TILES: _E("14m258p369s12345z +6z"),
    Fan.KNITTED_STRAIGHT: _E("147m258p369s444z2z +2z"),
    Fan.UPPER_FOUR: _E("[678m][999p]777s66s78m +9m"),
    Fan.LOWER_FOUR: _E("[234m][111p]333s44s12m +3m"),
    Fan.BIG_THREE_WINDS: _E("[222z][333z]444z567m9p +9p"),
    # 8
    Fan.MIXED_STRAIGHT: _E("[123m][456p]789s234m9p +9p"),
    Fan.REVERSIBLE_TILES: _E("[123p][888p]456s777z9s +9s"),
    Fan.MIXED_TRIPLE_CHOW: _E("[123m][123p]123s567m9s +9s"),
    Fan.MIXED_SHIFTED_PUNGS: _E("[111m][222p]333s567m9s +9s"),
    Fan.CHICKEN_HAND: _E("[234m][567p]678s11z55s +5s"),
    Fan.LAST_TILE_DRAW: _E("[234m][567p]678s11z55s +5s", self_drawn=True, last_tile=True),
    Fan.LAST_TILE_CLAIM: _E("[234m][567p]678s11z55s +5s", last_tile=True),
    Fan.OUT_WITH_REPLACEMENT_TILE: _E("[234m][6666p]678s11z55s +5s", self_drawn=True, kong=True),
    Fan.ROBBING_THE_KONG: _E("[234m][567p]789s11z35s +4s", kong=True),
    # 6
    Fan.ALL_PUNGS: _E("[222m][555p]888s77p33m +3m"),
    Fan.HALF_FLUSH: _E("[123m][555m]678m11z99m +9m"),
    Fan.MIXED_SHIFTED_CHOWS: _E("[123m][234p]345s789m5p +5p"),
    Fan.ALL_TYPES: _E("[234m][567p]678s11z55z +5z"),
    Fan.MELDED_HAND: _E("[234m][567p][678s][444z]5s +5s"),
    Fan.TWO_CONCEALED_KONGS: _E("(2222m)(5555p)678s11z33s +3s"),
    Fan.TWO_DRAGON_PUNGS: _E("[555z][666z]234m567p9s +9s"),
    # 4
    Fan.OUTSIDE_HAND: _E("[123m][789p]111s789s9m +9m"),
    Fan.FULLY_CONCEALED_HAND: _E("234m567p678s11z55s +5s", self_drawn=True),
    Fan.TWO_MELDED_KONGS: _E("[2222m][5555p]678s11z33s +3s"),
    Fan.LAST_TILE: _E("[234m][567p]789s11z35s +4s", fourth_tile=True),
    # 2
    Fan.DRAGON_PUNG: _E("[555z]234m567p345s9p +9p"),
    Fan.PREVALENT_WIND: _E("[222z]234m567p345s9p +9p", round_wind=_SOUTH),
    Fan.SEAT_WIND: _E("[222z]234m567p345s9p +9p", seat_wind=_SOUTH),
    Fan.CONCEALED_HAND: _E("234m567p678s11z55s +5s"),
    Fan.ALL_CHOWS: _E("[234m]567p678s99p45s +6s"),
    Fan.TILE_HOG: _E("[234m]222234p678s9s +9s"),
    Fan.DOUBLE_PUNG: _E("[222m]222p345s678m9p +9p"),
    Fan.TWO_CONCEALED_PUNGS: _E("[234m]555p777s678m9s +9s"),
    Fan.CONCEALED_KONG: _E("(5555p)[234m]678s11z33s +3s"),
    Fan.ALL_SIMPLES: _E("[234m][567p]678s88p44s +4s"),
    # 1
    Fan.PURE_DOUBLE_CHOW: _E("[234m]234m567p345s9p +9p"),
    Fan.MIXED_DOUBLE_CHOW: _E("[234m]234p567s678m9s +9s"),
    Fan.SHORT_STRAIGHT: _E("[123m]456m678p345s9s +9s"),
    Fan.TWO_TERMINAL_CHOWS: _E("[123m]789m456p567s9p +9p"),
    Fan.PUNG_OF_TERMINALS_OR_HONOURS: _E("[111m]234p567s678m9s +9s"),
    Fan.MELDED_KONG: _E("[5555p][234m]678s11z33s +3s"),
    Fan.ONE_VOIDED_SUIT: _E("[234m]567m456p678p1z +1z"),
    Fan.NO_HONOURS: _E("[234m][567p]678s99m55s +5s"),
    Fan.EDGE_WAIT: _E("[234m]567p678s99s12m +3m"),
    Fan.CLOSED_WAIT: _E("[234m]567p123s99s46m +5m"),
    Fan.SINGLE_WAIT: _E("[234m]678m567p345s1z +1z"),
    Fan.SELF_DRAWN: _E("[234m]567p678s11z55s +5s", self_drawn=True),
    Fan.FLOWER_TILES: _E("[234m][567p]678s11z55s1f5f +5s"),
    # the mil profile's
    Fan.MELDED_AND_CONCEALED_KONG: _E("[2222m](5555p)678s11z33s +3s", rules="mil"),
}
# fmt: on


def example(fan: Fan) -> FanExample:
    """The example hand of ``fan``; KeyError for none (every :class:`Fan` has one)."""
    return EXAMPLES[fan]
