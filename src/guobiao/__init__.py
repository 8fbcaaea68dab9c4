"""guobiao: Chinese Official Mahjong (国标麻将, MCR) by the 1998 Chinese Mahjong Competition Rules.

The names here are the library's everyday API; each layer's own modules hold the rest
(docs/architecture.md). Score a hand: write it in the hand grammar (the standing tiles, ``[...]``
an exposed meld, ``(...)`` a concealed kong, ``+`` the winning tile; ``guobiao fan --help``), then
give the context of the win::

    >>> from guobiao import WinContext, Wind, calculate, parse_hand
    >>> hand = parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5")
    >>> assert hand.win_tile is not None  # the tile after '+' (None without one)
    >>> result = calculate(hand, WinContext(hand.win_tile, self_drawn=False, seat_wind=Wind.EAST))
    >>> [(f.fan.zh, f.points, f.count) for f in result.fans]  # f.fan.en: 'Nine Gates', ...
    [('九莲宝灯', 88, 1), ('双暗刻', 2, 1), ('幺九刻', 1, 1)]
    >>> result.total, result.meets_minimum  # 8 points without flowers make a valid win
    (91, True)

Tiles are ``Tile`` (an int 0-41, named ``W1``..``W9`` 万, ``B1``..``B9`` 饼, ``T1``..``T9`` 条,
``F1``..``F4`` 东南西北, ``J1``..``J3`` 中发白, ``H1``..``H8`` flowers; or compact ``5m``, or
Chinese ``五万``)::

    >>> from guobiao import TILES, Tile
    >>> tile = Tile.parse("5m")
    >>> str(tile), tile.chinese, int(tile), TILES[4] == tile
    ('W5', '五万', 4, True)

Text goes both ways: ``str`` writes what ``parse`` reads, and ``repr`` is the expression that
makes the object again::

    >>> from guobiao import Hand, Meld
    >>> hand = Hand.parse("[一万二万三万][东风东风东风:2]四饼五饼六饼七条八条一饼一饼 +九条")
    >>> hand
    Hand.parse('[W1W2W3][F1F1F1:2]B1B1B4B5B6T7T8 +T9')
    >>> str(hand.melds[1]), Meld.parse("[111z:2]") == hand.melds[1]
    ('[F1F1F1:2]', True)

Bad input raises a ``ValueError``: ``TileParseError`` (with the ``position`` in the text) for
text that is no hand, ``InvalidHandError`` from ``calculate`` for tiles no real hand holds; a
hand of real tiles that makes no winning shape gives a result with ``is_winning`` False::

    >>> from guobiao import InvalidHandError, TileParseError
    >>> try:
    ...     parse_hand("W1W2X3 +W4")
    ... except TileParseError as err:
    ...     print(err, "/", err.position)
    unexpected character at position 4: 'X' / 4
    >>> try:
    ...     calculate(parse_hand("W1W1W1W1W1W2W3W4W5W6W7W8W9 +W9"), WinContext(Tile.parse("W9")))
    ... except InvalidHandError as err:
    ...     print(err)
    more than four of W1 (5)

A tile's or a wind's name where the object belongs raises a ``TypeError`` that says how to
write it (a wind given as ``"S"`` would otherwise score as no wind at all)::

    >>> try:
    ...     WinContext(Tile.parse("W5"), seat_wind="S")
    ... except TypeError as err:
    ...     print(err)
    WinContext's seat_wind takes a Wind, such as Wind.parse('S'), not 'S'

Shanten and waits read counts of the 34 playing tiles (a tile is its index)::

    >>> from guobiao import shanten, waits
    >>> counts = [0] * 34
    >>> for tile in parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9W9").concealed:
    ...     counts[tile] += 1
    >>> shanten(counts), [str(TILES[k]) for k in waits(counts)]
    (0, ['W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8', 'W9'])

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
