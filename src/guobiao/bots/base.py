"""The shared part of every bot (a name, a seeded generator, the always-win rule) and
:class:`RandomBot`.
"""

from __future__ import annotations

import random

from guobiao.table.game import WIN, Action, SeatView


class Bot:
    """The shared part: a name, a seeded generator, and the always-win rule."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to choose now")
        if WIN in legal:
            return WIN
        return self.decide(view)

    def decide(self, view: SeatView) -> Action:
        """Any action of ``view.legal_actions`` but a win (which :meth:`choose` always takes)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomBot(Bot):
    """A uniformly random legal action; a legal win is always taken."""

    name = "random"

    def decide(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions)
