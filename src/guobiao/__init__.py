"""guobiao: Chinese Official Mahjong (国标麻将, MCR) by the 1998 Chinese Mahjong Competition Rules.

The names here are the library's everyday API; each layer's own modules hold the rest
(docs/architecture.md)::

    from guobiao import WinContext, calculate, parse_hand

    hand = parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5")
    print(calculate(hand, WinContext(hand.win_tile)).total)  # 91

The names load on first use (PEP 562): ``import guobiao`` alone loads nothing, so a program that
needs only a part (``guobiao fan --jsonl`` needs no shanten tables) starts faster and smaller.
Every name comes from the core or the calculator: never a game table, an adapter or a third-party
package.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, for type checkers and readers
    from guobiao.core.context import WinContext, Wind
    from guobiao.core.hand import Hand, format_hand, parse_hand
    from guobiao.core.melds import Meld, MeldKind
    from guobiao.core.shanten import shanten, useful_tiles, waits
    from guobiao.core.tiles import TILES, Suit, Tile, TileParseError
    from guobiao.scoring.calculator import calculate
    from guobiao.scoring.fans import Fan
    from guobiao.scoring.result import MINIMUM_POINTS, CountedFan, FanResult, InvalidHandError

_HOMES = {
    "guobiao.core.context": ("WinContext", "Wind"),
    "guobiao.core.hand": ("Hand", "format_hand", "parse_hand"),
    "guobiao.core.melds": ("Meld", "MeldKind"),
    "guobiao.core.shanten": ("shanten", "useful_tiles", "waits"),
    "guobiao.core.tiles": ("TILES", "Suit", "Tile", "TileParseError"),
    "guobiao.scoring.calculator": ("calculate",),
    "guobiao.scoring.fans": ("Fan",),
    "guobiao.scoring.result": ("MINIMUM_POINTS", "CountedFan", "FanResult", "InvalidHandError"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [  # every name of _HOMES
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


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'guobiao' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # later look-ups find it directly
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
