"""The table rules a competition may vary, in one object (第六条 to 第十条, 第十三、十四条).

Everything the engine, the settlement and the session read about "how this table plays" lives in
:class:`TableRules`: the fan profile, flowers on or off, how the wall is built and drawn, the
session length and the penalty amounts. :data:`COMPETITION` is the 1998 rules as written;
:data:`BOTZONE` is the "Chinese Standard Mahjong" judge of botzone.org (IJCAI competitions),
docs/rules.md §20. :data:`Rules` is another name for :class:`TableRules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from guobiao.scoring.calculator import PROFILES

__all__ = [
    "BOTZONE",
    "COMPETITION",
    "FORFEIT_REASONS",
    "WALL_BUILDS",
    "WRONG_WINS",
    "Rules",
    "TableRules",
]

WALL_BUILDS = ("dice", "botzone")
"""How the wall is built and drawn: ``dice`` is 第六条五 (four walls of stacks, two dice throws
choosing the break, the deal in blocks of four with the dealer's jump); ``botzone`` is the Botzone
judge's wall (136 tiles cut into four segments of 34: seat i is dealt 13 tiles from the end of
segment i and draws, kong replacements included, only from that end; see
:func:`guobiao.table.wall.deal_botzone`)."""

WRONG_WINS = ("penalty", "end_hand")
"""What a declared win that is not legal does (with ``Game(..., false_wins=True)``): ``penalty``
is 第十四条六 (错和 / 诈和 penalties, the seat may not win, play goes on); ``end_hand`` ends the hand
at once, the offender paying ``forfeit_payment`` to each other player (Botzone: -30 / +10)."""

FORFEIT_REASONS = ("wrong win", "illegal action", "time-out", "crash")
"""Why a hand may end by a forfeit (:meth:`guobiao.table.game.Game.forfeit`)."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """How one table plays. Every field has the 1998 competition value as its default.

    - ``fan_profile``: ``"1998"`` (the text), ``"mil"`` (the reference calculator's reading) or
      ``"botzone"`` (``mil`` as the Botzone judge's build reads it, §20), docs/rules.md.
    - ``flowers``: 第三条, 144 tiles with the 8 flowers; False plays 136.
    - ``wall_build``: one of :data:`WALL_BUILDS`; ``"botzone"`` needs ``flowers=False``.
    - ``minimum``: 起和分 (第五条), fan points a win needs, flowers not counted.
    - ``base``: 底分 (第十条一), what each loser pays the winner besides the fan points.
    - ``false_win_penalty``, ``fake_win_penalty``: 错和 / 和错牌 and 诈和, to each other player
      (第十四条六), when ``wrong_win`` is ``"penalty"``.
    - ``starting_points``: 基础比赛分 (第五条).
    - ``hands_per_session``: 4 rounds x 4 hands (第五条); fewer ends a session early.
    - ``wrong_win``: one of :data:`WRONG_WINS`: a wrong win is penalised and play goes on
      (``"penalty"``), or it ends the hand as a forfeit (``"end_hand"``, Botzone).
    - ``forfeit_payment``: what a forfeiting seat (a wrong win under ``"end_hand"``, or
      :meth:`guobiao.table.game.Game.forfeit`: an illegal action, a time-out, a crash) pays each other
      player; it loses three times that (Botzone: 10, so -30 / +10 each).
    - ``lenient_kongs``: the kongs the Botzone judge's code accepts beyond the 1998 reading: an
      added kong of any tile held (``BUGANG X``), not only the one just drawn (第七条七(一)), and
      a kong on a discard with one's own wall segment empty (the hand is then drawn: the konger
      cannot draw its replacement). False keeps the narrower 1998 reading.
    """

    fan_profile: str = "1998"  # "1998", "mil" or "botzone" (docs/rules.md)
    flowers: bool = True  # 第三条: 144 tiles with the 8 flowers; False plays 136
    wall_build: str = "dice"
    minimum: int = 8  # 起和分 (第五条)
    base: int = 8  # 底分 (第十条一)
    false_win_penalty: int = 10  # 错和 / 和错牌, to each other player (第十四条六)
    fake_win_penalty: int = 20  # 诈和, to each other player (第十四条六)
    starting_points: int = 500  # 基础比赛分 (第五条)
    hands_per_session: int = 16  # 4 rounds x 4 hands (第五条); fewer ends a session early
    wrong_win: str = "penalty"  # or "end_hand" (Botzone)
    forfeit_payment: int = 10  # a forfeit: -3x for the offender, +1x to each other player
    lenient_kongs: bool = False  # the Botzone judge's kongs (True in BOTZONE)

    def __post_init__(self) -> None:
        if self.fan_profile not in PROFILES:
            raise ValueError(
                f"fan_profile must be one of {', '.join(PROFILES)}, not {self.fan_profile!r}"
            )
        if self.wall_build not in WALL_BUILDS:
            raise ValueError(
                f"wall_build must be one of {', '.join(WALL_BUILDS)}, not {self.wall_build!r}"
            )
        if self.wall_build == "botzone" and self.flowers:
            raise ValueError("the botzone wall has 136 tiles: it needs flowers=False")
        if self.wrong_win not in WRONG_WINS:
            raise ValueError(
                f"wrong_win must be one of {', '.join(WRONG_WINS)}, not {self.wrong_win!r}"
            )
        for name in (
            "minimum",
            "base",
            "false_win_penalty",
            "fake_win_penalty",
            "starting_points",
            "forfeit_payment",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative")
        if not 1 <= self.hands_per_session <= 16:
            raise ValueError("hands_per_session must be 1-16")

    @property
    def tile_count(self) -> int:
        return 144 if self.flowers else 136


COMPETITION = TableRules()
"""The 1998 competition rules as written."""

BOTZONE = TableRules(
    fan_profile="botzone",
    flowers=False,
    wall_build="botzone",
    minimum=8,
    base=8,
    wrong_win="end_hand",
    forfeit_payment=10,
    lenient_kongs=True,
)
"""The Botzone "Chinese Standard Mahjong" judge (botzone.org, IJCAI competitions), docs/rules.md
§20: 136 tiles, the segmented wall, 8 points to win, settlement with 底分 8, and a wrong win, an
illegal action or a time-out ending the hand at -30 for the offender and +10 for each other seat.
The fans are the judge's build of the reference calculator (the ``botzone`` profile: the ``mil``
reading as that build reads it, docs/rules.md §20)."""

Rules = TableRules
"""Another name for :class:`TableRules`."""
