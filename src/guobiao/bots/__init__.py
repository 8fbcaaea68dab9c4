"""Bots: agents that play from their seat's view only (:class:`~guobiao.table.game.SeatView`).

- :class:`RandomBot`: a uniformly random legal action, but it always takes a legal win.
- :class:`EfficiencyBot`: tile efficiency (牌效): the discard that leaves the lowest shanten and the
  most live useful tiles; claims only to lower the shanten (or keep it with more live useful
  tiles); folds to safe tiles when another seat looks ready and its own hand is two or more tiles
  from ready.
- :class:`FanBot`: plays for hands that reach the 8-point minimum (第五条 起和分), which pure
  efficiency does not: it often gets ready with a hand that cannot win. A 13-tile position is
  ranked in three tiers (``_Worth``): ready with waits that score 8 points (the fan calculator
  judges every wait), then one tile from such a hand (every useful draw is tried and the best
  discard's waits judged), then by *plans*. A plan is a family of hands worth 8 points or nearly
  (清一色, 混一色 with a dragon or own-wind pung, 花龙, 清龙, 三色三同顺, 组合龙, 七对, 全不靠,
  五门齐 with a dragon pung, 碰碰和 ...) with its own shanten: tiles outside the plan do not count,
  and its fixed sets count as declared. The plans' worth is a soft minimum of their shanten (plans
  short of 8 points pay a penalty). Discards, claims and kongs maximise that worth.
- :class:`StrongBot`: FanBot's candidates weighed in expected points (the fan calculator on
  every wait, an expectimax over the next useful draw, the others' chance of winning first) and
  against the chance of dealing in (who looks ready, how dangerous each tile is); claims and
  kongs as FanBot (see :mod:`guobiao.bots.strong`).

Every bot is deterministic for its seed (ties are broken by its own ``random.Random(seed)``) and
returns one of ``view.legal_actions``.
"""

from __future__ import annotations

from typing import Final

from guobiao.bots.base import Bot, RandomBot
from guobiao.bots.efficiency import EfficiencyBot
from guobiao.bots.fan import FanBot
from guobiao.bots.strong import StrongBot
from guobiao.bots.view import danger, threats
from guobiao.table.glossary import Term
from guobiao.table.rules import COMPETITION, TableRules

__all__ = [
    "BOT_KINDS",
    "BOT_LEVELS",
    "BOT_NAMES",
    "LEVEL_NAMES",
    "LEVEL_OF",
    "Bot",
    "EfficiencyBot",
    "FanBot",
    "RandomBot",
    "StrongBot",
    "danger",
    "make_bot",
    "threats",
]


BOT_KINDS: Final = ("strong", "fan", "efficiency", "random")
"""The bots by name, strongest first."""

BOT_NAMES: Final[dict[str, Term]] = {
    "strong": Term("高手", "strong"),
    "fan": Term("番种", "fan"),
    "efficiency": Term("牌效", "efficiency"),
    "random": Term("随机", "random"),
}
"""Each kind as the pages name it: 牌效机器人 B, efficiency bot B (``glossary.BOT_NAME``)."""


BOT_LEVELS: Final[dict[str, str]] = {"easy": "efficiency", "normal": "fan", "strong": "strong"}
"""The levels offered to players (``guobiao play --bots easy``, the web table's list) and the
bot each stands for; ``random`` is easy too."""

LEVEL_OF: Final[dict[str, str]] = {
    "strong": "strong",
    "fan": "normal",
    "efficiency": "easy",
    "random": "easy",
}
"""Each kind's level."""

LEVEL_NAMES: Final[dict[str, Term]] = {
    "easy": Term("入门", "easy"),
    "normal": Term("普通", "normal"),
    "strong": Term("高手", "strong"),
}
"""Each level as the pages name it."""


def make_bot(kind: str, seed: int | None = None, rules: TableRules = COMPETITION) -> Bot:
    """A bot by name (``strong``, ``fan``, ``efficiency``, ``random``), seeded, playing to ``rules``."""
    if kind == "strong":
        return StrongBot(seed, rules=rules)
    if kind == "fan":
        return FanBot(seed, rules=rules)
    if kind == "efficiency":
        return EfficiencyBot(seed)
    if kind == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot {kind!r}: choose from {', '.join(BOT_KINDS)}")
