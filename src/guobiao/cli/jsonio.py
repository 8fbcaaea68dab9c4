"""The JSON form of a hand to score and of its result (``guobiao fan --jsonl``).

In::

    {"concealed": ["W1", ...], "melds": [{"type": "chow"|"pung"|"kong"|"concealed_kong",
     "tiles": [...], "from": 1|2|3|null}], "win_tile": "W5", "self_drawn": false,
     "fourth_tile": false, "kong": false, "last_tile": false, "seat_wind": "E",
     "round_wind": "E", "flowers": 0}

Out: ``{"ok": true, "total": 22, "meets_minimum": true, "fans": [{"zh": .., "en": .., "points": ..,
"count": ..}, ...]}`` or ``{"ok": false, "reason": "not_winning"|"invalid", "message": ".."}``.
A line that is not UTF-8, not JSON, or JSON nested too deep or with too long a number, is
``invalid`` too (:func:`evaluate_line`); ``"reason": "error"`` would be a bug, never bad input.
Adapters only: the core never reads JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.tiles import Tile, TileParseError
from guobiao.scoring.calculator import calculate
from guobiao.scoring.result import FanResult, InvalidHandError

__all__ = ["evaluate", "evaluate_line", "hand_from_json", "result_to_json"]

_KEYS = {
    "concealed",
    "melds",
    "win_tile",
    "self_drawn",
    "fourth_tile",
    "kong",
    "last_tile",
    "seat_wind",
    "round_wind",
    "flowers",
}


class JsonInputError(ValueError):
    """A JSON hand that does not follow the format."""


def _show(value: Any) -> str:
    """A short description of a JSON value for a message (never the whole of a big value)."""
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return "a very large number"
    text = (
        json.dumps(value, ensure_ascii=True)
        if value is None or isinstance(value, bool)
        else repr(value)
    )
    return text if len(text) <= 40 else text[:37] + "..."


def _tile(value: Any, where: str) -> Tile:
    if not isinstance(value, str):
        raise JsonInputError(f"{where}: a tile name string is expected, not {_show(value)}")
    try:
        return Tile.parse(value)
    except TileParseError as err:
        raise JsonInputError(f"{where}: {err}") from None


def _flag(obj: Mapping[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise JsonInputError(f"{key}: true or false expected, not {_show(value)}")
    return value


def _wind(obj: Mapping[str, Any], key: str) -> Wind:
    value = obj.get(key, "E")
    if not isinstance(value, str):
        raise JsonInputError(f"{key}: one of E, S, W, N expected, not {_show(value)}")
    try:
        return Wind.parse(value)
    except ValueError as err:
        raise JsonInputError(f"{key}: {err}") from None


def _meld(raw: Any, index: int) -> Meld:
    where = f"melds[{index}]"
    if not isinstance(raw, Mapping):
        raise JsonInputError(f"{where}: an object expected")
    kind_raw = raw.get("type")
    try:
        kind = MeldKind(kind_raw) if isinstance(kind_raw, str) else None
    except ValueError:
        kind = None
    if kind is None:
        raise JsonInputError(
            f"{where}.type: one of chow, pung, kong, concealed_kong expected, not {_show(kind_raw)}"
        )
    tiles_raw = raw.get("tiles")
    if not isinstance(tiles_raw, list):
        raise JsonInputError(f"{where}.tiles: a list of tiles expected")
    tiles = sorted(_tile(t, f"{where}.tiles") for t in tiles_raw)
    if len(tiles) != kind.size:
        raise JsonInputError(f"{where}: a {kind.value} has {kind.size} tiles, not {len(tiles)}")
    offered = raw.get("from")
    if offered is not None and (type(offered) is not int or offered not in (1, 2, 3)):
        raise JsonInputError(f"{where}.from: 1, 2, 3 or null expected, not {_show(offered)}")
    if kind is MeldKind.CONCEALED_KONG:
        offered = None
    try:
        meld = Meld(kind, tiles[0], offered)
    except ValueError as err:
        raise JsonInputError(f"{where}: {err}") from None
    if tuple(tiles) != meld.tiles:
        raise JsonInputError(f"{where}: {' '.join(map(str, tiles))} is not a {kind.value}")
    return meld


def hand_from_json(obj: Mapping[str, Any]) -> tuple[Hand, WinContext]:
    """Read the JSON input form; raises :class:`JsonInputError` on anything malformed."""
    if not isinstance(obj, Mapping):
        raise JsonInputError("a JSON object expected")
    unknown = set(obj) - _KEYS
    if unknown:
        raise JsonInputError(f"unknown key(s): {', '.join(sorted(map(repr, unknown)))}")
    concealed_raw = obj.get("concealed")
    if not isinstance(concealed_raw, list):
        raise JsonInputError("concealed: a list of tiles expected")
    concealed = [_tile(t, "concealed") for t in concealed_raw]
    if any(t.is_flower for t in concealed):
        raise JsonInputError("concealed: flowers are counted by 'flowers', not held")
    melds_raw = obj.get("melds", [])
    if not isinstance(melds_raw, list):
        raise JsonInputError("melds: a list expected")
    melds = [_meld(m, i) for i, m in enumerate(melds_raw)]
    if "win_tile" not in obj:
        raise JsonInputError("win_tile: missing")
    win = _tile(obj["win_tile"], "win_tile")
    if win.is_flower:
        raise JsonInputError("win_tile: a flower cannot be the winning tile")
    flowers = obj.get("flowers", 0)
    if not isinstance(flowers, int) or isinstance(flowers, bool) or not 0 <= flowers <= 8:
        raise JsonInputError(f"flowers: a whole number 0-8 expected, not {_show(flowers)}")
    context = WinContext(
        win_tile=win,
        self_drawn=_flag(obj, "self_drawn"),
        fourth_tile=_flag(obj, "fourth_tile"),
        kong=_flag(obj, "kong"),
        last_tile=_flag(obj, "last_tile"),
        seat_wind=_wind(obj, "seat_wind"),
        round_wind=_wind(obj, "round_wind"),
        flowers=flowers,
    )
    return Hand(tuple(concealed), tuple(melds)), context


def result_to_json(result: FanResult) -> dict[str, Any]:
    if not result.is_winning:
        return {"ok": False, "reason": "not_winning", "message": "the tiles make no winning shape"}
    return {
        "ok": True,
        "total": result.total,
        "meets_minimum": result.meets_minimum,
        "fans": [
            {"zh": f.fan.zh, "en": f.fan.en, "points": f.points, "count": f.count}
            for f in result.fans
        ],
    }


def evaluate(obj: Any, rules: str = "1998") -> dict[str, Any]:
    """Score one JSON hand; never raises on bad input (returns ``ok: false`` instead)."""
    try:
        hand, context = hand_from_json(obj)
        result = calculate(hand, context, rules)
    except (JsonInputError, InvalidHandError) as err:
        return {"ok": False, "reason": "invalid", "message": str(err)}
    return result_to_json(result)


def evaluate_line(raw: bytes, number: int, rules: str = "1998") -> dict[str, Any]:
    """Score one line of a JSON-lines stream (``number`` counts from 1); bad bytes, bad JSON
    (too deep, a number too long) and a bad hand each give ``ok: false``, never an exception."""
    try:
        obj = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as err:
        message = f"not UTF-8: byte {err.start + 1} is {raw[err.start : err.start + 1]!r}"
    except json.JSONDecodeError as err:
        message = f"not JSON: {err.msg} at column {err.colno}"
    except RecursionError:
        message = "not JSON this program reads: nested too deep"
    except ValueError as err:  # e.g. an integer of more than 4300 digits
        message = f"not JSON this program reads: {err}"
    else:
        return evaluate(obj, rules)
    return {"ok": False, "reason": "invalid", "message": f"line {number}: {message}"}
