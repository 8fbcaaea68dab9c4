"""The PettingZoo AEC environment: one hand of guobiao, the agents acting one at a time.

    from guobiao.env.aec import env
    e = env(seed=7)            # rules=COMPETITION (default) or rules=BOTZONE

Agents ``player_0`` … ``player_3`` are the seats East (the dealer) … North. ``agent_selection`` is
always the first seat of ``Game.to_act``: the player to discard or declare, or, when a discard
(or an added kong) may be claimed by several seats, each of them in turn order from the
discarder; the engine collects every answer before it resolves the claims, so no one learns
another's answer. Seats with nothing to decide are never asked.

Observations and the action space: :mod:`guobiao.env.observation`, :mod:`guobiao.env.spaces`.
The rewards are the hand's settlement (``HandResult.deltas``), given to every agent on the step
that ends the hand; all agents then terminate (no truncation: a hand always ends).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from guobiao.env._gym_spaces import (
    RestoresTable,
    action_space,
    checked_action,
    checked_deal,
    checked_rules,
    checked_seed,
    observation_space,
    table_text,
)
from guobiao.env._table import AGENTS, Observation, Table
from guobiao.env.spaces import N_ACTIONS
from guobiao.table.rules import COMPETITION, TableRules

__all__ = ["GuobiaoAECEnv", "env", "raw_env"]


class GuobiaoAECEnv(RestoresTable, AECEnv[str, Observation, int]):  # type: ignore[misc]
    """One hand per episode; ``reset(seed=...)`` deals the same hand (and the same hands after it)
    for the same seed. ``illegal_action``: ``"raise"`` (default) or ``"forfeit"`` (the hand ends,
    the seat paying ``rules.forfeit_payment`` to each other). An action that is no index of the
    action space (a float, ``235``) always raises. The environment pickles and copies mid-hand
    (the copy plays on exactly as the original would)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "guobiao_aec_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: TableRules = COMPETITION,
        seed: int | None = None,
        *,
        illegal_action: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = checked_rules(rules)
        self.table = Table(rules, illegal_action)
        self.table.seed(checked_seed(seed))
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._observation_space = observation_space()
        self._action_space = action_space()
        self.observation_spaces = dict.fromkeys(AGENTS, self._observation_space)
        self.action_spaces = dict.fromkeys(AGENTS, self._action_space)
        self._seat = {a: i for i, a in enumerate(AGENTS)}
        self.hand_seed: int | None = None
        # before the first reset() nothing is dealt: step and last say so (the table's
        # placeholder hand would otherwise be played, the same in every environment)
        self.agent_selection = AGENTS[0]
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _start(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        game = self.table.game
        self.agent_selection = AGENTS[game.to_act[0]] if game.to_act else AGENTS[0]
        if game.is_over:  # a hand can end in its deal (1998: flowers exhaust the wall)
            self._finish()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        deal_ = checked_deal(options)
        if seed is not None:
            self.table.seed(checked_seed(seed))
        self.hand_seed = self.table.new_hand(deal_=deal_)
        self._start()

    def observe(self, agent: str) -> Observation:
        return self.table.observe(self._seat[agent])

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (the selected agent's observation, cumulative reward,
        termination, truncation and info), one call shorter."""
        agent = self.agent_selection
        try:
            return (
                self.table.observe(self._seat[agent]) if observe else None,
                self._cumulative_rewards[agent],
                self.terminations[agent],
                self.truncations[agent],
                self.infos[agent],
            )
        except KeyError:  # _was_dead_step removed every agent, or no hand is dealt yet
            raise ValueError(self._not_playing()) from None

    def _not_playing(self) -> str:
        if self.hand_seed is None:
            return "reset() before the first step"
        return "the hand is over and every agent is done: reset() for the next one"

    def action_mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The mask of ``agent`` now (``legal_actions`` as indices)."""
        return self.table.mask(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        try:
            done = self.terminations[agent] or self.truncations[agent]
        except KeyError:  # _was_dead_step removed every agent, or no hand is dealt yet
            raise ValueError(self._not_playing()) from None
        if done:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        if type(action) is not int or not 0 <= action < N_ACTIONS:
            action = checked_action(action)  # a numpy integer; anything else raises
        # every reward is 0 until the hand ends: the acting agent's cumulative reward is 0
        # already, and there is nothing to accumulate before the end
        seat = self.table.play(self._seat[agent], action)
        if seat >= 0:
            self.agent_selection = AGENTS[seat]
        else:  # the hand is over
            self._finish()
            self._accumulate_rewards()

    def _finish(self) -> None:
        deltas = self.table.rewards()
        self.rewards = {a: float(deltas[i]) for i, a in enumerate(AGENTS)}
        self.terminations = dict.fromkeys(AGENTS, True)
        result = self.table.game.result
        summary = result.summary() if result is not None else {}
        self.infos = {a: {"result": summary} for a in AGENTS}
        self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return table_text(self.table.game)

    def close(self) -> None:
        pass


def raw_env(
    rules: TableRules = COMPETITION, seed: int | None = None, **kwargs: Any
) -> GuobiaoAECEnv:
    """The environment without PettingZoo's checking wrappers (the fastest)."""
    return GuobiaoAECEnv(rules, seed, **kwargs)


def env(rules: TableRules = COMPETITION, seed: int | None = None, **kwargs: Any) -> GuobiaoAECEnv:
    """The AEC environment (unwrapped: the mask already guards every action)."""
    return GuobiaoAECEnv(rules, seed, **kwargs)
