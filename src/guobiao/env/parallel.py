"""The PettingZoo Parallel environment: one hand of guobiao, claims decided simultaneously.

    from guobiao.env.parallel import parallel_env
    e = parallel_env(seed=7)    # rules=COMPETITION (default) or rules=BOTZONE

Each step, the seats of ``Game.to_act`` act together: the one player to discard or declare, or
every seat that may claim the discard (or rob an added kong), all at once; the engine resolves the
claims (win > pung/kong > chow, the first winner from the discarder). The other agents' actions
are ignored (their mask is all zeros; any action may be sent). Every step returns every live
agent's observation, reward, termination, truncation and info. The rewards are the settlement
(``HandResult.deltas``) on the step that ends the hand, 0 before; then all agents terminate.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from guobiao.env import _gym_spaces as shared
from guobiao.env._table import AGENTS, Observation, Table
from guobiao.env.spaces import N_ACTIONS
from guobiao.table.rules import COMPETITION, TableRules

__all__ = ["GuobiaoParallelEnv", "parallel_env"]


class GuobiaoParallelEnv(shared.RestoresTable, ParallelEnv[str, Observation, int]):  # type: ignore[misc]
    """One hand per episode; ``reset(seed=...)`` deals the same hand for the same seed.
    ``illegal_action``: ``"raise"`` (default) or ``"forfeit"`` for an acting seat whose action is
    outside its mask (a missing action of an acting seat, or one that is no index of the action
    space, always raises). The environment pickles and copies mid-hand."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "guobiao_parallel_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        rules: TableRules = COMPETITION,
        seed: int | None = None,
        *,
        illegal_action: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = shared.checked_rules(rules)
        self.table = Table(rules, illegal_action)
        self.table.seed(shared.checked_seed(seed))
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.hand_seed: int | None = None
        self.render_mode = render_mode
        self._observation_space = shared.observation_space()
        self._action_space = shared.action_space()

    @functools.cache  # noqa: B019 - the space object must be the same every call
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _observations(self) -> dict[str, Observation]:
        observe = self.table.observe
        return {a: observe(i) for i, a in enumerate(AGENTS)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        deal_ = shared.checked_deal(options)
        if seed is not None:
            self.table.seed(shared.checked_seed(seed))
        self.hand_seed = self.table.new_hand(deal_=deal_)
        self.agents = list(AGENTS)
        return self._observations(), {a: {} for a in AGENTS}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        table = self.table
        game = table.game
        if not self.agents or game.is_over:
            raise ValueError(
                "the hand is over: reset() for the next one"
                if self.hand_seed is not None
                else "reset() before the first step"
            )
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict of agent -> action, not {actions!r}")
        acting = game.to_act
        chosen: list[int] = []
        for seat in acting:  # every acting seat's action checked before any is played
            agent = AGENTS[seat]
            if agent not in actions:
                raise ValueError(f"{agent} must act now (seats to act: {list(acting)})")
            action = actions[agent]
            if type(action) is not int or not 0 <= action < N_ACTIONS:
                action = shared.checked_action(action)  # a numpy integer; anything else raises
            chosen.append(action)
        for seat, action in zip(acting, chosen, strict=True):
            if game.is_over:  # an illegal action forfeited the hand
                break
            table.play(seat, action)
        observations = self._observations()
        over = game.is_over
        deltas = table.rewards()
        rewards = {a: float(deltas[i]) for i, a in enumerate(AGENTS)}
        terminations: dict[str, bool] = dict.fromkeys(AGENTS, over)
        truncations = dict.fromkeys(AGENTS, False)
        if over:
            result = game.result
            summary = result.summary() if result is not None else {}
            infos: dict[str, dict[str, Any]] = {a: {"result": summary} for a in AGENTS}
            self.agents = []
        else:
            infos = {a: {} for a in AGENTS}
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the phase, who acts, the wall and every seat's tiles."""
        if self.render_mode != "ansi":
            return None
        return shared.table_text(self.table.game)

    def close(self) -> None:
        pass


def parallel_env(
    rules: TableRules = COMPETITION, seed: int | None = None, **kwargs: Any
) -> GuobiaoParallelEnv:
    return GuobiaoParallelEnv(rules, seed, **kwargs)
