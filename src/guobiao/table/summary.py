"""Statistics over played sessions: win rate, average fan, deal-ins, draws, points per session.

Pure data in, pure data out: ``guobiao simulate`` prints it, tests and benchmarks read it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from guobiao.table.play import SessionPlay

__all__ = ["PlayerStats", "SimulationSummary", "summarize"]


@dataclass(slots=True)
class PlayerStats:
    """One player's totals over all sessions (a player keeps one agent throughout)."""

    player: str
    agent: str
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    dealt_in: int = 0  # discards another player won on
    fan_total: int = 0  # fan points of its wins, flowers included
    score_total: int = 0  # session score minus the starting points, summed
    standard_points: Fraction = field(default_factory=Fraction)
    sessions: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def deal_in_rate(self) -> float:
        return self.dealt_in / self.hands if self.hands else 0.0

    @property
    def average_fan(self) -> float:
        return self.fan_total / self.wins if self.wins else 0.0

    @property
    def points_per_session(self) -> float:
        return self.score_total / self.sessions if self.sessions else 0.0

    @property
    def standard_points_per_session(self) -> float:
        return float(self.standard_points) / self.sessions if self.sessions else 0.0


@dataclass(slots=True)
class SimulationSummary:
    players: list[PlayerStats]
    sessions: int = 0
    hands: int = 0
    draws: int = 0

    @property
    def draw_rate(self) -> float:
        return self.draws / self.hands if self.hands else 0.0


def summarize(plays: Iterable[SessionPlay], starting_points: int = 500) -> SimulationSummary:
    """Totals per player over sessions that share the same four players and agents."""
    stats: dict[str, PlayerStats] = {}
    summary = SimulationSummary([])
    for play in plays:
        session = play.session
        if not stats:
            for player, agent in zip(session.players, play.names, strict=True):
                stats[player] = PlayerStats(player, agent)
            summary.players = list(stats.values())
        summary.sessions += 1
        for record, game in zip(session.history, play.games, strict=True):
            result = game.result
            assert result is not None
            summary.hands += 1
            for player in record.seats:
                stats[player].hands += 1
            if result.winner is None:
                summary.draws += 1
                continue
            winner = stats[record.seats[result.winner]]
            winner.wins += 1
            winner.fan_total += result.fans.total if result.fans is not None else 0
            if result.discarder is None:
                winner.self_drawn += 1
            else:
                stats[record.seats[result.discarder]].dealt_in += 1
        standard = session.standard_points()
        for player, score in session.scores.items():
            entry = stats[player]
            entry.sessions += 1
            entry.score_total += score - starting_points
            entry.standard_points += standard.get(player, Fraction(0))
    return summary
