"""guobiao: Chinese Official Mahjong (国标麻将, MCR) by the 1998 Chinese Mahjong Competition Rules."""

from .context import WinContext, Wind
from .fans import Fan
from .hand import Hand, format_hand, parse_hand
from .melds import Meld, MeldKind
from .tiles import TILES, Suit, Tile, TileParseError

__all__ = [
    "TILES",
    "Fan",
    "Hand",
    "Meld",
    "MeldKind",
    "Suit",
    "Tile",
    "TileParseError",
    "WinContext",
    "Wind",
    "format_hand",
    "parse_hand",
]
__version__ = "0.1.0"
