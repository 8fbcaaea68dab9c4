"""Reading the fields of a log or a hand record: every value type-checked, a wrong one a
:class:`LogError` naming the field.

A log is data from anywhere: each field is read through :func:`expect` (a value of one JSON
type), :func:`required` / :func:`optional` (a key of an object), :func:`integer` / :func:`seat` (an
integer in a range; never a float, ``NaN`` or ``Infinity``), :func:`array` (a list of one type)
or :func:`table_rules`. The message says which field and what it holds instead: ``line 2:
game: actions[3][0] must be a seat 0-3, not Infinity``. :func:`show` renders a value for a message,
short however large or deep it is.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar, cast

from guobiao.table.rules import TableRules

__all__ = [
    "MAX_INT",
    "LogError",
    "array",
    "clip",
    "expect",
    "integer",
    "optional",
    "required",
    "seat",
    "show",
    "table_rules",
]

T = TypeVar("T")
D = TypeVar("D")

MAX_INT = 10**9
"""The largest integer a log's rules, scores or deltas may hold (sums of them stay printable)."""


class LogError(ValueError):
    """A log that cannot be read: bad JSON, a wrong version, a missing line, a field of the
    wrong type."""


_SHORT = reprlib.Repr()
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlong = 60
_SHORT.maxlevel = 3
_SHORT.maxlist = _SHORT.maxdict = 6

_NAMES: dict[type, str] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
}


def show(value: object) -> str:
    """``value`` for a message: its repr, shortened (long strings, large or deep containers)."""
    return _SHORT.repr(value)


def clip(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _what_it_is(value: object) -> str:
    """A JSON value as a message names it: ``null``, ``true``, ``Infinity``, ``'abc'``, ``an array``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, (dict, list)):
        return _NAMES[type(value)]
    if isinstance(value, (int, float, str)):
        return show(value)
    return f"a {type(value).__name__}"


def _is(value: object, kind: type) -> bool:
    # JSON true/false are bools, and a bool is an int in Python: never take one for the other
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def expect(value: object, kind: type[T], what: str) -> T:
    """``value`` if it is a ``kind`` (dict, list, str, int, bool), else LogError naming ``what``."""
    if _is(value, kind):
        return cast(T, value)
    raise LogError(f"{what} must be {_NAMES.get(kind, kind.__name__)}, not {_what_it_is(value)}")


def required(obj: Mapping[str, Any], key: str, kind: type[T], prefix: str = "") -> T:
    """``obj[key]``, a ``kind``; LogError if it is missing or of another type. ``prefix`` names
    ``obj`` in the message (``"line 2: "``, ``"initdata."``)."""
    if key not in obj:
        raise LogError(f"{prefix}{key} is missing")
    return expect(obj[key], kind, prefix + key)


def optional(obj: Mapping[str, Any], key: str, kind: type[T], prefix: str, default: D) -> T | D:
    """:func:`required`, or ``default`` if the key is missing or null."""
    value = obj.get(key)
    if value is None:
        return default
    return expect(value, kind, prefix + key)


def integer(value: object, what: str, low: int = -MAX_INT, high: int = MAX_INT) -> int:
    """An integer ``low``-``high`` (a float, even 3.0, is not one)."""
    number = expect(value, int, what)
    if not low <= number <= high:
        raise LogError(f"{what} must be {low}-{high}, not {show(number)}")
    return number


def seat(value: object, what: str) -> int:
    """A seat: 0 East to 3 North."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    raise LogError(f"{what} must be a seat 0-3, not {_what_it_is(value)}")


def array(value: object, kind: type[T], what: str) -> list[T]:
    """A list whose every item is a ``kind``."""
    items = expect(value, list, what)
    for index, item in enumerate(items):
        expect(item, kind, f"{what}[{index}]")
    return items


_RULE_TYPES = {
    f.name: {"str": str, "bool": bool, "int": int}[str(f.type)] for f in fields(TableRules)
}


def table_rules(value: object, what: str) -> TableRules:
    """A ``rules`` object: known rule names only, each of its type (a missing one has its
    default), and rules :class:`TableRules` accepts."""
    given = expect(value, dict, what)
    for key, item in given.items():
        kind = _RULE_TYPES.get(key)
        if kind is None:
            raise LogError(f"{what}: unknown rule {show(key)}")
        if kind is int:
            integer(item, f"{what}.{key}", 0, MAX_INT)
        else:
            expect(item, kind, f"{what}.{key}")
    try:
        return TableRules(**given)
    except ValueError as err:
        raise LogError(f"{what}: {err}") from None
