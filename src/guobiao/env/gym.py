"""A Gymnasium single-agent environment: one seat is the agent, guobiao bots play the others.

    from guobiao.env.gym import SingleSeatEnv
    e = SingleSeatEnv(seat=0, opponents="efficiency", seed=7)   # rules=COMPETITION or BOTZONE

An episode is one hand. The agent is asked only when it has a decision (its turn, or a discard it
may claim); the bots (:func:`guobiao.bots.make_bot`: ``random``, ``efficiency`` (the default),
``fan``, ``strong``) answer for the other seats from their own views. The reward is 0 until the hand ends, then the agent's
settlement (``HandResult.deltas[seat]``). An action outside the mask forfeits the hand by default
(``illegal_action="forfeit"``: the agent pays ``rules.forfeit_payment`` to each other seat, as
on Botzone), or raises with ``illegal_action="raise"``. ``seat=None`` draws the agent's seat for
every hand. An action that is no index of the action space (a float, ``235``) always raises.
A hand the bots end before the agent's first decision (a bot winning at once) is
skipped: ``reset`` deals the next. :meth:`SingleSeatEnv.action_masks` gives the mask (the sb3-contrib convention).

``gymnasium.make("guobiao/SingleSeat-v0", ...)`` builds it too once this module is imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from guobiao.bots import Bot, make_bot
from guobiao.env._gym_spaces import (
    RestoresTable,
    action_space,
    checked_action,
    checked_rules,
    checked_seed,
    observation_space,
)
from guobiao.env._table import Table
from guobiao.table.rules import COMPETITION, TableRules

__all__ = ["ENV_ID", "SingleSeatEnv"]

ENV_ID = "guobiao/SingleSeat-v0"


class SingleSeatEnv(RestoresTable, gymnasium.Env[dict[str, Any], np.int64]):
    """One seat against three bots; one hand per episode."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        rules: TableRules = COMPETITION,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "efficiency",
        seed: int | None = None,
        *,
        illegal_action: str = "forfeit",
        render_mode: str | None = None,
    ) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int | np.integer) or seat not in range(4)
        ):
            raise ValueError(f"seat must be 0-3 or None, not {seat!r}")
        kinds = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(kinds) != 3:
            raise ValueError("opponents: one bot kind, or three (for the seats after the agent)")
        for kind in kinds:
            make_bot(kind)  # unknown kinds fail here
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = checked_rules(rules)
        self.fixed_seat = None if seat is None else int(seat)
        self.seat = 0 if seat is None else int(seat)
        self.kinds = kinds
        self.table = Table(rules, illegal_action)
        self.observation_space = observation_space()
        self.action_space = action_space()
        self.bots: dict[int, Bot] = {}
        self.hand_seed: int | None = None
        if seed is not None:
            self.reset(seed=seed)

    def _advance(self) -> None:
        """Let the bots act until the agent must choose or the hand is over."""
        game = self.table.game
        seat = self.seat
        bots = self.bots
        while not game.is_over:
            waiting = game.to_act
            others = [s for s in waiting if s != seat]
            if not others:
                return
            for s in others:
                game.act(s, bots[s].choose(game.view(s)))
                if game.is_over:
                    break
            self.table.version += 1

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if options and "deal" in options:  # other options are ignored
            raise ValueError(
                "SingleSeatEnv.reset plays no given deal (the AEC and Parallel environments "
                "do: reset(options={'deal': ...}))"
            )
        super().reset(seed=checked_seed(seed))
        rng = self.np_random
        while True:  # a hand the bots end before the agent's first decision is skipped
            hand_seed = int(rng.integers(2**62))
            if self.fixed_seat is None:
                self.seat = int(rng.integers(4))
            self.bots = {
                (self.seat + 1 + i) % 4: make_bot(kind, int(rng.integers(2**62)), self.rules)
                for i, kind in enumerate(self.kinds)
            }
            self.hand_seed = self.table.new_hand(hand_seed)
            self._advance()
            if not self.table.game.is_over:
                return self.table.observe(self.seat), {"seat": self.seat}

    def step(
        self, action: int | np.int64
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        table = self.table
        if self.hand_seed is None:
            raise ValueError("reset() before the first step")
        if table.game.is_over:
            raise ValueError("the hand is over: reset() for the next one")
        table.play(self.seat, checked_action(action))
        self._advance()
        game = table.game
        info: dict[str, Any] = {"seat": self.seat}
        reward = 0.0
        if game.is_over:
            reward = float(table.rewards()[self.seat])
            result = game.result
            if result is not None:
                info["result"] = result.summary()
        return table.observe(self.seat), reward, game.is_over, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (what MaskablePPO asks for)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        game = self.table.game
        return (
            f"seat {self.seat}, phase {game.phase.value}, wall {game.wall_remaining}, "
            f"hand {game.hand_of(self.seat)}"
        )


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="guobiao.env.gym:SingleSeatEnv")
