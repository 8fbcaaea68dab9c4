"""The fan names the Botzone judge prints (docs/rules.md §20).

The judge of botzone.org's "Chinese Standard Mahjong" compiles an older build of the reference
calculator and prints each counted fan as ``{"cnt", "name", "value"}``, named by that build's
``fan_name`` table and listed in its table order (fan number 1 to 82; 明暗杠 is 82). The names are
the 1998 table's (:attr:`Fan.zh`) but for one: the judge prints 嵌张 for 坎张 (the same fan,
第九条 78, under its modern name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final

from guobiao.scoring.fans import Fan
from guobiao.scoring.result import CountedFan

__all__ = ["JUDGE_NAMES", "judge_fans", "judge_name"]

JUDGE_NAMES: Final[Mapping[Fan, str]] = MappingProxyType({Fan.CLOSED_WAIT: "嵌张"})
"""The fans whose judge name is not :attr:`Fan.zh`."""


def judge_name(fan: Fan) -> str:
    """The name the Botzone judge prints for ``fan``."""
    return JUDGE_NAMES.get(fan, fan.zh)


def judge_fans(fans: Iterable[CountedFan]) -> list[dict[str, object]]:
    """The judge's ``display.fan`` list: one ``{"cnt", "name", "value"}`` per counted fan (its
    JSON library writes keys sorted), in the judge's table order (by fan number)."""
    return [
        {"cnt": f.count, "name": judge_name(f.fan), "value": f.fan.points}
        for f in sorted(fans, key=lambda f: f.fan.number)
    ]
