"""Running hands with players: the :class:`Agent` protocol and the loop that asks each seat.

An agent sees only its :class:`~guobiao.table.game.SeatView` and answers with one of its legal actions.
Bots (``guobiao.bots``), people at a terminal, network players and RL policies are all agents.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from guobiao.core.context import Wind
from guobiao.table.game import Action, Game, SeatView
from guobiao.table.rules import COMPETITION, TableRules
from guobiao.table.session import Session

__all__ = ["Agent", "SessionPlay", "play_hand", "play_session"]


class Agent(Protocol):
    """A player: chooses one of ``view.legal_actions``."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


def play_hand(
    agents: Sequence[Agent],
    rules: TableRules = COMPETITION,
    seed: int | None = None,
    *,
    round_wind: Wind = Wind.EAST,
    game: Game | None = None,
) -> Game:
    """Play one hand to its end: ``agents[s]`` plays seat ``s`` (0 East … 3 North).

    Seats that must respond to the same discard are asked in turn order; each sees only its own
    view, so no agent learns another's answer.
    """
    if len(agents) != 4:
        raise ValueError("a table needs 4 agents")
    if game is None:
        if seed is None:
            seed = random.randrange(2**63)
        game = Game(rules, seed, round_wind=round_wind)
    while not game.is_over:
        for seat in game.to_act:
            game.act(seat, agents[seat].choose(game.view(seat)))
            break
    return game


@dataclass(frozen=True, slots=True)
class SessionPlay:
    """A played session: the session (scores, standings, history) and every hand's game."""

    session: Session
    games: tuple[Game, ...]
    names: tuple[str, ...]  # agent names by player, in the session's first seating E S W N


def play_session(
    agents: Sequence[Agent],
    rules: TableRules = COMPETITION,
    seed: int | None = None,
    *,
    players: Sequence[str] | None = None,
    on_hand: Callable[[Session, Game], None] | None = None,
) -> SessionPlay:
    """Play a session (第五条: 4 rounds x 4 hands, or ``rules.hands_per_session``).

    ``agents[i]`` is player i, seated E S W N at the first hand; seats then rotate as
    :func:`guobiao.table.session.seating` says. Each hand's seed comes from ``seed``, so a session is
    reproducible. ``on_hand`` is called after every hand (progress, logging).
    """
    if len(agents) != 4:
        raise ValueError("a session needs 4 agents")
    names = tuple(players) if players is not None else tuple(f"P{i + 1}" for i in range(4))
    by_name = dict(zip(names, agents, strict=True))
    session = Session(names, starting_points=rules.starting_points, hands=rules.hands_per_session)
    rng = random.Random(seed)
    games: list[Game] = []
    while not session.is_over:
        seated = [by_name[name] for name in session.seats]
        game = Game(rules, rng.randrange(2**63), round_wind=session.round_wind)
        play_hand(seated, rules, game=game)
        result = game.result
        assert result is not None
        session.record(result.deltas, result.outcome)
        games.append(game)
        if on_hand is not None:
            on_hand(session, game)
    return SessionPlay(session, tuple(games), tuple(a.name for a in agents))
