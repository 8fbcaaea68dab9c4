"""What every environment shares on top of :class:`~guobiao.env._table.Table`: the Gymnasium
space objects it declares (a ``Dict`` of the ``int16`` vector and the ``int8`` action mask; the
235 discrete actions), the checks of what a caller hands it (an action, a seed, the rules, reset
options), the table made whole again in a pickled or copied environment, and the ``ansi`` text.

Apart from :mod:`guobiao.env._table` so that the table, compiled by mypyc in the compiled build
(hatch_build.py), imports no Gymnasium.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from gymnasium import spaces

from guobiao.env._table import Table
from guobiao.env.observation import OBS_SIZE, observation_bounds
from guobiao.env.spaces import N_ACTIONS
from guobiao.table.game import Game
from guobiao.table.rules import TableRules
from guobiao.table.wall import Deal

__all__ = [
    "RestoresTable",
    "action_space",
    "checked_action",
    "checked_deal",
    "checked_rules",
    "checked_seed",
    "observation_space",
    "table_text",
]


def observation_space() -> spaces.Dict:
    low, high = observation_bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, shape=(OBS_SIZE,), dtype=np.int16),
            "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    return spaces.Discrete(N_ACTIONS)


def checked_action(action: Any) -> int:
    """``action`` as an ``int`` index of the action space: any integer (a numpy one, a 0-d
    integer array) from 0 to 234. Anything else is a caller's bug, never a move: a float, a bool,
    a string or a sequence raises ``TypeError``, an integer outside 0-234 ``ValueError`` (with
    ``illegal_action="forfeit"`` too: only an index of the space can be an illegal move)."""
    if isinstance(action, bool | np.bool_):
        raise TypeError(f"an action is an integer index 0-{N_ACTIONS - 1}, not {action!r}")
    try:
        index = operator.index(action)
    except TypeError:
        raise TypeError(
            f"an action is an integer index 0-{N_ACTIONS - 1} (an int or a numpy integer), "
            f"not {action!r} ({type(action).__name__})"
        ) from None
    if not 0 <= index < N_ACTIONS:
        raise ValueError(
            f"action {index} is outside the action space Discrete({N_ACTIONS}): 0-{N_ACTIONS - 1}"
        )
    return index


def checked_seed(seed: Any) -> int | None:
    """A seed for the hand generator: ``None`` or an integer 0 or more (a numpy one becomes an
    ``int``)."""
    if seed is None:
        return None
    if isinstance(seed, bool | np.bool_):
        raise TypeError(f"seed must be an integer or None, not {seed!r}")
    try:
        value = operator.index(seed)
    except TypeError:
        raise TypeError(
            f"seed must be an integer or None, not {seed!r} ({type(seed).__name__})"
        ) from None
    if value < 0:  # random.Random(-5) is random.Random(5): -5 would deal seed 5's hands
        raise ValueError(f"seed must be 0 or more (as Gymnasium's), not {value}")
    return value


def checked_rules(rules: object) -> TableRules:
    if not isinstance(rules, TableRules):
        raise TypeError(
            "rules must be a TableRules, such as guobiao.table.rules.COMPETITION or BOTZONE, "
            f"not {rules!r}"
        )
    return rules


def checked_deal(options: dict[str, Any] | None) -> Deal | None:
    """The deal of ``reset(options={"deal": ...})`` (other keys are ignored, as PettingZoo's
    API test expects)."""
    if not options:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict, not {options!r}")
    deal = options.get("deal")
    if deal is not None and not isinstance(deal, Deal):
        raise TypeError(
            "options['deal'] must be a guobiao.table.wall.Deal (e.g. from "
            f"guobiao.table.wall.deal_botzone), not {deal!r}"
        )
    return deal


class RestoresTable:
    """An environment whose ``table`` is made whole when it is unpickled or copied.

    A table's masks are numpy arrays over its bytearrays, which a copy separates (the arrays
    would stay as they were at the copy), and its mask builders know the engine's actions by
    their ``id``, which a copy changes: so a new table takes over the game, the generator of
    hand seeds and the state version, and reads everything afresh.
    """

    table: Table

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        old = self.table
        fresh = Table(old.rules, old.illegal_action)
        fresh.game = old.game
        fresh.seeds = old.seeds
        fresh.version = old.version + 1
        self.table = fresh


def table_text(game: Game) -> str:
    """The ``ansi`` rendering: the phase, who acts, the wall and every seat's tiles."""
    lines = [f"phase {game.phase.value}, to act {list(game.to_act)}, wall {game.wall_remaining}"]
    for seat in range(4):
        lines.append(f"player_{seat}: {game.hand_of(seat)}")
    return "\n".join(lines)
