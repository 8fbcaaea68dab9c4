"""A full simulated tournament end to end (issue 4 item 7): 64 players in 16 teams of 4 over 8
sessions, seated by ``schedule`` with team-mates kept apart, every table's session played by the
game engine with efficiency bots (full 16-hand sessions), entered in the store (SQLite and
PostgreSQL, the ``db_url`` fixture of conftest.py) hand by hand for the even tables (each hand's
settlement must equal the engine's, and the table's totals the engine's session scores) and as
session totals for the odd ones, and the individual and team
standings read back through ``store.table_results`` + ``ranking`` checked against an independent
computation from the raw session scores.

The games are played once per test run (``_played``) and entered in each database: the engine
does not depend on the database. ``pytest -s`` prints the top of the final standings.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction

from guobiao.bots import make_bot
from guobiao.table.game import HandResult
from guobiao.table.play import play_session
from guobiao.table.rules import COMPETITION
from guobiao.tournament.ranking import Standing, individual_ranking, team_ranking
from guobiao.tournament.seating import Schedule, best_possible, quality, schedule
from guobiao.tournament.store import PlayerRow, open_store

NAME = "simulated open"
SEED = 2024
SESSIONS = 8
PLAYERS = tuple(f"P{i:02d}" for i in range(1, 65))
TEAMS = {f"T{t + 1:02d}": PLAYERS[4 * t : 4 * t + 4] for t in range(16)}
TABLE_POINTS = (4, 2, 1, 0)  # 第十条二: a table is a group of 4

Scores = dict[tuple[int, int], dict[str, int]]  # (session, table) -> player -> 局分
Key = tuple[Fraction, int, tuple[Fraction, ...]]


@functools.cache
def _seating() -> Schedule:
    return schedule(PLAYERS, SESSIONS, teams=TEAMS, seed=SEED)


@functools.cache
def _played() -> dict[tuple[int, int], tuple[dict[str, int], tuple[HandResult, ...]]]:
    """Every table's session played by the engine: (session, table) -> (局分 by player, the
    result of each hand)."""
    out = {}
    for seating in _seating().sessions:
        for table in seating.tables:
            seed = SEED * 10_000 + seating.number * 100 + table.number
            agents = [make_bot("efficiency", seed * 4 + i, COMPETITION) for i in range(4)]
            play = play_session(agents, COMPETITION, seed, players=table.seats)
            results = tuple(g.result for g in play.games if g.result is not None)
            assert len(results) == len(play.games)
            out[(seating.number, table.number)] = (dict(play.session.scores), results)
    return out


def _raw_scores() -> Scores:
    return {where: scores for where, (scores, _) in _played().items()}


# --- the independent computation ------------------------------------------------------------


def _table_standard_points(scores: Mapping[str, int]) -> dict[str, Fraction]:
    """4/2/1/0 by 局分; tied players share the places they cover, exactly."""
    out: dict[str, Fraction] = {}
    for player, score in scores.items():
        above = sum(1 for s in scores.values() if s > score)
        level = sum(1 for s in scores.values() if s == score)
        out[player] = Fraction(sum(TABLE_POINTS[above : above + level]), level)
    return out


def _ordered(rows: Mapping[str, Key]) -> list[tuple[int, str, Key]]:
    """(rank, name, key), best first: the rank is 1 + the number of strictly better keys."""
    out = []
    for name, key in rows.items():
        rank = 1 + sum(1 for other in rows.values() if other > key)  # tuples: 第十一条 in order
        out.append((rank, name, key))
    return sorted(out, key=lambda row: (row[0], row[1]))


def _expected(scores: Scores) -> tuple[list[tuple[int, str, Key]], list[tuple[int, str, Key]]]:
    by_player: dict[str, list[tuple[int, Fraction, int]]] = defaultdict(list)
    for (session, _table), table_scores in scores.items():
        for player, points in _table_standard_points(table_scores).items():
            by_player[player].append((session, points, table_scores[player]))
    individual: dict[str, Key] = {}
    for player, lines in by_player.items():
        total = sum((points for _, points, _ in lines), Fraction(0))
        match = sum(score for _, _, score in lines)
        individual[player] = (total, match, tuple(sorted((p for _, p, _ in lines), reverse=True)))
    teams: dict[str, Key] = {}
    for team, members in TEAMS.items():
        per_session: dict[int, Fraction] = defaultdict(Fraction)
        match = 0
        for member in members:
            for session, points, score in by_player[member]:
                per_session[session] += points
                match += score
        teams[team] = (
            sum(per_session.values(), Fraction(0)),
            match,
            tuple(sorted(per_session.values(), reverse=True)),
        )
    return _ordered(individual), _ordered(teams)


def _as_rows(standings: Sequence[Standing]) -> list[tuple[int, str, Key]]:
    return [
        (s.rank, s.name, (s.standard_points, s.match_points, s.session_points)) for s in standings
    ]


def _show(title: str, standings: Sequence[Standing], top: int) -> None:
    print(f"\n{title} (seed {SEED}), top {top}:")
    print(f"{'rank':>5}  {'name':<4}  {'std':>6}  {'match':>6}  session standard points")
    for s in standings[:top]:
        sessions = " ".join(str(p) for p in s.session_points)
        print(
            f"{s.label:>5}  {s.name:<4}  {s.standard_points!s:>6}  {s.match_points:>6}  {sessions}"
        )


# --- the tests -------------------------------------------------------------------------------


def test_seating_quality_64_players_8_sessions_16_teams() -> None:
    sched = _seating()
    figures = quality(sched, TEAMS)
    bound = best_possible(len(PLAYERS), SESSIONS, team_size=4)
    print(f"\nseating 64 x 8, 16 teams of 4 (seed {SEED}): {figures}\nbest possible: {bound}")
    assert len(sched.sessions) == SESSIONS
    for seating in sched.sessions:
        assert not seating.byes
        seated = [p for table in seating.tables for p in table.seats]
        assert sorted(seated) == sorted(PLAYERS)
    assert figures.team_meetings == 0
    assert figures.repeat_meetings == bound.repeat_meetings
    assert figures.max_meetings == bound.max_meetings
    assert figures.min_opponents == bound.max_min_opponents
    assert figures.wind_spread == bound.wind_spread
    for members in TEAMS.values():
        for a, b in itertools.combinations(members, 2):
            assert not any(
                a in table.seats and b in table.seats
                for seating in sched.sessions
                for table in seating.tables
            )


def test_simulated_tournament_end_to_end(db_url: str) -> None:
    raw = _raw_scores()
    assert len(raw) == SESSIONS * 16
    assert all(sum(s.values()) == 4 * COMPETITION.starting_points for s in raw.values())
    # With this seed some tables end in a tie, so shared standard points are exercised.
    assert any(len(set(s.values())) < 4 for s in raw.values())

    store = open_store(db_url)
    try:
        store.create_tournament(NAME, sessions=SESSIONS)
        for team, members in TEAMS.items():
            store.add_team(NAME, team, leader=members[0])
        store.add_players(
            NAME,
            [
                PlayerRow(PLAYERS.index(p) + 1, p, team)
                for team, members in TEAMS.items()
                for p in members
            ],
        )
        store.save_schedule(NAME, _seating())
        by_hand = 0
        for (session, table), (scores, hands) in _played().items():
            if table % 2:
                store.record_session_totals(NAME, session, table, scores)
                continue
            for number, hand in enumerate(hands):
                o = hand.outcome
                deltas = store.record_hand(
                    NAME,
                    session,
                    table,
                    number,
                    winner=o.winner,
                    discarder=o.discarder,
                    fan_points=o.fan_points,
                    flowers=o.flowers,
                    penalties=o.penalties,
                    fans=[f.fan.zh for f in hand.fans.fans] if hand.fans is not None else None,
                )
                assert deltas == hand.deltas  # the store settles each hand as the engine did
                by_hand += 1
            assert store.table_scores(NAME, session, table) == scores
        assert by_hand == SESSIONS * 8 * 16
        results = store.table_results(NAME)
    finally:
        store.close()

    # The store gives back exactly what was played, seats included.
    seats = {(s.number, t.number): t.seats for s in _seating().sessions for t in s.tables}
    assert {(r.session, r.table): {e.player: e.score for e in r.entries} for r in results} == raw
    for r in results:
        by_seat = {e.seat: e.player for e in r.entries}
        assert tuple(by_seat[i] for i in range(4)) == seats[(r.session, r.table)]

    individual = individual_ranking(results)
    teams = team_ranking(results, TEAMS)
    expected_individual, expected_teams = _expected(raw)
    assert _as_rows(individual) == expected_individual
    assert _as_rows(teams) == expected_teams
    assert sum(s.standard_points for s in individual) == SESSIONS * 16 * sum(TABLE_POINTS)
    assert all(len(s.session_points) == SESSIONS for s in individual)

    _show("individual standings", individual, 10)
    _show("team standings", teams, 5)
