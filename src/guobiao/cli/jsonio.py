"""The JSON form of a hand to score and of its result (``guobiao fan --jsonl``).

In::

    {"concealed": ["W1", ...], "melds": [{"type": "chow"|"pung"|"kong"|"concealed_kong",
     "tiles": [...], "from": 1|2|3|null}], "win_tile": "W5", "self_drawn": false,
     "fourth_tile": false, "kong": false, "last_tile": false, "seat_wind": "E",
     "round_wind": "E", "flowers": 0}

Out: ``{"ok": true, "total": 22, "meets_minimum": true, "fans": [{"zh": .., "en": .., "points": ..,
"count": ..}, ...]}`` or ``{"ok": false, "reason": "not_winning"|"invalid", "message": ".."}``;
in a stream (:func:`evaluate_line`, :func:`answer_line`) the message starts with the line's number
(``line 3: ...``).
A line that is not UTF-8, not JSON, or JSON nested too deep or with too long a number, is
``invalid`` too (:func:`evaluate_line`); ``"reason": "error"`` would be a bug, never bad input.
Adapters only: the core never reads JSON.

A stream (``fan --jsonl``) takes :func:`answer_line`: the usual line, every tile a Botzone name and
every value of its type, is read by one look-up per value (:func:`_quick_hand`) and its answer
written from ready-made pieces (:func:`_answer_text`); any other line goes the full way above,
whose messages say what is wrong. Both give the same text (tests/test_fan_jsonl_fast.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, Final

from guobiao.cli.tilehints import tile_name_error
from guobiao.core.bounded import Bounded
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand
from guobiao.core.melds import Meld, MeldKind
from guobiao.core.tiles import TILES, Tile, TileParseError
from guobiao.scoring.calculator import calculate
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import MINIMUM_POINTS, FanResult, InvalidHandError

__all__ = [
    "answer_line",
    "evaluate",
    "evaluate_line",
    "hand_from_json",
    "invalid_answer",
    "result_to_json",
]

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
        raise JsonInputError(f"{where}: {tile_name_error(err)}") from None


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


def invalid_answer(message: str) -> dict[str, Any]:
    """The answer to a hand refused as malformed or impossible (``fan --jsonl``, ``fan --json``)."""
    return {"ok": False, "reason": "invalid", "message": message}


def evaluate(obj: Any, rules: str = "1998") -> dict[str, Any]:
    """Score one JSON hand; never raises on bad input (returns ``ok: false`` instead)."""
    try:
        hand, context = hand_from_json(obj)
        result = calculate(hand, context, rules)
    except (JsonInputError, InvalidHandError) as err:
        return invalid_answer(str(err))
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
        return _numbered(evaluate(obj, rules), number)
    return invalid_answer(f"line {number}: {message}")


def _numbered(answer: dict[str, Any], number: int) -> dict[str, Any]:
    """``answer`` with a refusal's message starting with its line number (``line 7: ...``), so
    that a refused line is found in the input (blank lines get no answer)."""
    if not answer["ok"]:
        answer["message"] = f"line {number}: {answer['message']}"
    return answer


# -- The stream's fast path ----------------------------------------------------------------------

_PLAYING: Final[dict[str, Tile]] = {str(t): t for t in TILES[:34]}
"""The 34 playing tiles by Botzone name (``W1`` .. ``J3``): the names a stream usually holds."""
_WIND_LETTER: Final[dict[str, Wind]] = {w.letter: w for w in Wind}
_KIND: Final[dict[str, MeldKind]] = {k.value: k for k in MeldKind}
_MELDS: Bounded[tuple[str, tuple[str, ...], Any], Meld] = Bounded()
"""Melds read so far, by (type, tiles as written, from): only valid ones (a few thousand can be
declared), the newest kept (core.bounded)."""

# Hand's fields set through their slots, as Hand.__post_init__ leaves them: a hand read by
# _quick_hand is already sorted, of playing tiles, without flowers. Unpacking every field keeps
# this in step with the class (a new field fails here).
_SET_CONCEALED, _SET_MELDS, _SET_WIN_TILE, _SET_FLOWERS = (
    vars(Hand)[field.name].__set__ for field in fields(Hand)
)
_NO_MELD_LIST: Final[list[Any]] = []  # "melds" left out: none (never changed)


def _quick_meld(raw: Any) -> Meld | None:
    """A meld as :func:`_meld` reads it (a function of its type, tiles and from, so kept by
    them), or None when it is not valid or not of the usual types."""
    try:
        kind = raw["type"]
        tiles = raw["tiles"]
    except (KeyError, TypeError):  # a missing key, or not an object
        return None
    offered = raw.get("from")
    if type(kind) is not str or type(tiles) is not list:
        return None
    if offered is not None and type(offered) is not int:
        return None
    key = (kind, tuple(tiles), offered)
    try:
        return _MELDS[key]
    except KeyError:
        pass
    except TypeError:  # a list among the tiles: no key
        return None
    try:
        meld = _meld(raw, 0)
    except JsonInputError:
        return None
    _MELDS.put(key, meld, (1 << 14) // 3)
    return meld


_CONTEXTS: Bounded[tuple[Any, ...], WinContext] = Bounded()
"""Win contexts read so far, by their values as written, the newest kept (core.bounded), so a
long stream's memory stays flat: a few hundred, since a hand's flags and winds repeat often and a
context is cheap to make again."""


def _quick_hand(obj: Any) -> tuple[Hand, WinContext] | None:
    """:func:`hand_from_json` of the usual input, read by look-ups; None for anything else (an
    unusual notation, a value of another type, an unknown key): :func:`hand_from_json` then
    reads it, and says what is wrong if anything is."""
    if type(obj) is not dict:
        return None
    if len(obj) == len(_KEYS):  # every key there (else one is unknown, and the look-up fails)
        try:
            concealed_raw = obj["concealed"]
            melds_raw = obj["melds"]
            win_raw = obj["win_tile"]
            self_drawn = obj["self_drawn"]
            fourth_tile = obj["fourth_tile"]
            kong = obj["kong"]
            last_tile = obj["last_tile"]
            seat_raw = obj["seat_wind"]
            round_raw = obj["round_wind"]
            flowers = obj["flowers"]
        except KeyError:
            return None
    elif _KEYS.issuperset(obj):  # some left to their defaults
        get = obj.get
        concealed_raw = get("concealed")
        melds_raw = get("melds", _NO_MELD_LIST)
        win_raw = get("win_tile")
        self_drawn = get("self_drawn", False)
        fourth_tile = get("fourth_tile", False)
        kong = get("kong", False)
        last_tile = get("last_tile", False)
        seat_raw = get("seat_wind", "E")
        round_raw = get("round_wind", "E")
        flowers = get("flowers", 0)
    else:
        return None
    # the types first: the context's key then holds only str, int and bool values, each where
    # its own type is expected (1 == True == 1.0 as keys)
    if (
        type(concealed_raw) is not list
        or type(melds_raw) is not list
        or type(win_raw) is not str
        or type(seat_raw) is not str
        or type(round_raw) is not str
        or type(flowers) is not int
        or type(self_drawn) is not bool
        or type(fourth_tile) is not bool
        or type(kong) is not bool
        or type(last_tile) is not bool
    ):
        return None
    playing = _PLAYING
    try:
        concealed = sorted(map(playing.__getitem__, concealed_raw))
    except (KeyError, TypeError):  # another notation, or not a string (a list is no key)
        return None
    key = (win_raw, seat_raw, round_raw, flowers, self_drawn, fourth_tile, kong, last_tile)
    context = _CONTEXTS.get(key)
    if context is None:
        win = playing.get(win_raw)
        seat = _WIND_LETTER.get(seat_raw)
        round_ = _WIND_LETTER.get(round_raw)
        if win is None or seat is None or round_ is None or not 0 <= flowers <= 8:
            return None
        context = WinContext(win, self_drawn, fourth_tile, kong, last_tile, seat, round_, flowers)
        _CONTEXTS.put(key, context, (1 << 10) // 3)
    if melds_raw:
        melds = []
        for raw in melds_raw:
            meld = _quick_meld(raw)
            if meld is None:
                return None
            melds.append(meld)
        melds_tuple = tuple(melds)
    else:
        melds_tuple = ()
    hand: Hand = object.__new__(Hand)
    _SET_CONCEALED(hand, tuple(concealed))
    _SET_MELDS(hand, melds_tuple)
    _SET_WIN_TILE(hand, None)
    _SET_FLOWERS(hand, ())
    return hand, context


_FLOWERS: Final = Fan.FLOWER_TILES
_NOT_WINNING: Final = json.dumps(result_to_json(FanResult((), is_winning=False)))
_FAN_TEXT: dict[int, str] = {}
"""A counted fan's JSON text by ``count << 8 | fan.number`` (an int key: an Enum member hashes
in Python): 81 fans and the few counts a hand reaches."""


def _answer_text(result: FanResult) -> str:
    """``json.dumps(result_to_json(result), ensure_ascii=False)``, from ready-made pieces."""
    if not result.is_winning:
        return _NOT_WINNING
    parts = []
    total = flowers = 0
    texts = _FAN_TEXT
    for counted in result.fans:
        fan = counted.fan
        count = counted.count
        key = count << 8 | fan.number
        text = texts.get(key)
        if text is None:
            text = json.dumps(
                {"zh": fan.zh, "en": fan.en, "points": fan.points, "count": count},
                ensure_ascii=False,
            )
            if len(texts) < 1 << 12:
                texts[key] = text
        parts.append(text)
        points = fan.points * count
        total += points
        if fan is _FLOWERS:
            flowers += points
    meets = "true" if total - flowers >= MINIMUM_POINTS else "false"
    return (
        f'{{"ok": true, "total": {total}, "meets_minimum": {meets}, "fans": [{", ".join(parts)}]}}'
    )


_Scanner = Callable[[str, int], tuple[Any, int]]
_SCAN: Final[_Scanner] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
"""The C scanner behind ``json.loads`` (a default decoder's): one JSON value from a position, its
end; ``json.loads`` is this between JSON white space, which the caller strips."""
_JSON_SPACE: Final = " \t\n\r"


def answer_line(raw: bytes, number: int, rules: str = "1998") -> str:
    """The JSON text of :func:`evaluate_line`'s answer (``json.dumps(..., ensure_ascii=False)``),
    the usual line by the fast path."""
    try:
        text = raw.decode("utf-8").strip(_JSON_SPACE)
        obj, end = _SCAN(text, 0)
    except (ValueError, RecursionError, StopIteration):  # the full way says what is wrong
        return json.dumps(evaluate_line(raw, number, rules), ensure_ascii=False)
    if end != len(text):  # more after the value
        return json.dumps(evaluate_line(raw, number, rules), ensure_ascii=False)
    read = _quick_hand(obj)
    if read is None:
        return json.dumps(_numbered(evaluate(obj, rules), number), ensure_ascii=False)
    try:
        result = calculate(read[0], read[1], rules)
    except InvalidHandError as err:
        return json.dumps(invalid_answer(f"line {number}: {err}"), ensure_ascii=False)
    if not result.is_winning:
        return json.dumps(_numbered(result_to_json(result), number), ensure_ascii=False)
    return _answer_text(result)
