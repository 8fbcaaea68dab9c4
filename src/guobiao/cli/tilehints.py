"""How to write a tile right, after the parser refused one: the hints of a tile written wrong,
shared by the commands (``fan HAND``, ``--win``, ``--visible``) and by the stream
(``fan --jsonl``, which never loads click, so this module does not either)."""

from __future__ import annotations

import re

from guobiao.core.tiles import TileParseError

__all__ = ["tile_error", "tile_name_error"]

_TILE_NAMES = "tiles are W1-W9, B1-B9, T1-T9, F1-F4, J1-J3, H1-H8 or 123m 456p 789s 1234567z"
_NAMING = ("unexpected character", "no such tile", "not a tile name")
_NUMERALS = "一二三四五六七八九"
# Traditional characters a newcomer may type, and the simplified ones the names use.
_SIMPLIFIED = {"東": "东", "萬": "万", "發": "发", "風": "风", "條": "条", "餅": "饼", "紅": "红"}
_SEPARATORS = ",;:/|、，；。.-"
_SEPARATOR_HINT = "tiles need no separator: W1W2W3 or W1 W2 W3"
_INSIDE = "white space may stand between tiles, not inside one"
# A tile written in two pieces: a letter, then its digit; digits, then their suit letter; a
# Chinese number, then its suit.
_SPLIT = (
    (re.compile(r"[WBTFJHwbtfjh]\s+\d"), "a tile's letter and digit go together"),
    (re.compile(r"\d[\d\s]*?\s[\d\s]*[mpszf]"), "digits and their suit letter go together"),
    (re.compile(r"[一二三四五六七八九]\s+[万饼条]"), "a Chinese name is written together"),
)


def _split_hint(text: str, at: int) -> str | None:
    """The hint for a tile written in two pieces from ``at`` in ``text`` ("W 1": W1), if it is."""
    for pattern, what in _SPLIT:
        found = pattern.match(text, at)
        if found:
            written = found.group()
            return f"{what}: {''.join(written.split())}, not '{written}' ({_INSIDE})"
    return None


def _hint(text: str, at: int) -> str:
    """How to write the tile at ``at`` in ``text`` right: tiles need no separator, a tile's
    pieces go together, a Chinese number needs its suit, the names are simplified, or the
    notations ('guobiao tiles' lists them all)."""
    split = _split_hint(text, at)
    if split:
        return split
    bad = text[at : at + 1]
    if bad in _SEPARATORS:
        return _SEPARATOR_HINT
    if bad in _NUMERALS:
        return f"a number needs its suit: {bad}万, {bad}饼 or {bad}条"
    if bad in _SIMPLIFIED:
        return f"the Chinese names are simplified: {_SIMPLIFIED[bad]}, not {bad}"
    return f"{_TILE_NAMES} ('guobiao tiles' shows every name)"


def tile_name_error(err: TileParseError) -> str:
    """The parser's message for a single tile name it refused (a JSON hand's tile, ``--win``)
    and how to write it right: the place of the first character that makes it wrong."""
    name = err.text
    stripped = name.strip()
    at = len(name) - len(name.lstrip())
    if _split_hint(name, at) is None:
        for i, ch in enumerate(name):
            if ch in _SEPARATORS or ch in _SIMPLIFIED:
                at = i
                break
    return f"{err}; {_hint(name, at) if stripped else 'give a tile, e.g. W1'}"


def tile_error(err: TileParseError, text: str | None = None) -> str:
    """The parser's message for ``err`` and, for a tile it cannot name, how to write it right
    (:func:`_hint`). ``text`` is what was parsed, if more than ``err.text``: a hand, in which a
    tile written in two pieces ("W 1") is seen."""
    message = str(err)
    if message.startswith("not a tile name"):
        return tile_name_error(err)
    if text is not None and err.position is not None:
        where, at = text, err.position
    else:
        where, at = err.text, 0
    if not message.startswith(_NAMING):
        # a meld, a '+' or a bracket: the message says what to write, unless a tile is in two
        # pieces ("W 1": 'W' must be followed by a digit, though white space is ignored)
        split = _split_hint(where, at)
        return f"{message}; {split}" if split else message
    return f"{message}; {_hint(where, at)}"
