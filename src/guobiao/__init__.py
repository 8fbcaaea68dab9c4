"""guobiao: Chinese Official Mahjong (国标麻将, MCR) by the 1998 Chinese Mahjong Competition Rules.

The names here are the library's everyday API; each layer's own modules hold the rest
(docs/architecture.md)::

    from guobiao import WinContext, calculate, parse_hand

    hand = parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5")
    print(calculate(hand, WinContext(hand.win_tile)).total)  # 91

Importing ``guobiao`` loads the core and the calculator only: no game table, no adapter and no
third-party package.
"""

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, format_hand, parse_hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.shanten import shanten, useful_tiles, waits
from guobiao.core.tiles import TILES, Suit, Tile, TileParseError
from guobiao.scoring.calculator import calculate
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import MINIMUM_POINTS, CountedFan, FanResult, InvalidHandError

__all__ = [
    "MINIMUM_POINTS",
    "TILES",
    "CountedFan",
    "Fan",
    "FanResult",
    "Hand",
    "InvalidHandError",
    "Meld",
    "MeldKind",
    "Suit",
    "Tile",
    "TileParseError",
    "WinContext",
    "Wind",
    "calculate",
    "format_hand",
    "parse_hand",
    "shanten",
    "useful_tiles",
    "waits",
]
__version__ = "0.1.0"
