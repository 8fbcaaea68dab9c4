"""Seating of a tournament (issue 4, item 2): the draw, the schedule, its quality."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from guobiao.table.session import seating as session_seating
from guobiao.tournament import best_possible, draw_session_one, quality, schedule
from guobiao.tournament.seating import Schedule


def names(n: int) -> list[str]:
    return [f"P{i:03d}" for i in range(n)]


def teams_of_four(players: list[str]) -> dict[str, list[str]]:
    return {f"T{t}": players[4 * t : 4 * t + 4] for t in range(len(players) // 4)}


def pair_meetings(sched: Schedule) -> Counter[frozenset[str]]:
    return Counter(
        frozenset(pair)
        for s in sched.sessions
        for t in s.tables
        for pair in itertools.combinations(t.seats, 2)
    )


def check_everyone_once(sched: Schedule) -> None:
    for s in sched.sessions:
        seated = [p for t in s.tables for p in t.seats] + list(s.byes)
        assert sorted(seated) == sorted(sched.players)
        assert len(s.byes) == len(sched.players) % 4


def test_reproducible_by_seed() -> None:
    players = names(20)
    assert schedule(players, 6, seed=7) == schedule(players, 6, seed=7)
    assert schedule(players, 6, seed=7) != schedule(players, 6, seed=8)
    assert draw_session_one(players, 3) == draw_session_one(players, 3)
    assert draw_session_one(players, 3) != draw_session_one(players, 4)


def test_draw_is_session_one_of_the_schedule() -> None:
    players = names(24)
    assert schedule(players, 5, seed=11, keep_draw=True).sessions[0] == draw_session_one(
        players, 11
    )
    sixteen = names(16)
    assert schedule(sixteen, 5, seed=2, keep_draw=True).sessions[0] == draw_session_one(sixteen, 2)


@pytest.mark.parametrize("n", [4, 5, 7, 8, 13, 16, 22, 64])
def test_everyone_seated_once_per_session(n: int) -> None:
    check_everyone_once(schedule(names(n), 6, seed=n))


def test_affine_plane_16_over_5_is_perfect_and_wind_balanced() -> None:
    sched = schedule(names(16), 5, seed=5)
    assert sched.method.startswith("affine geometry AG(2, 4)")
    meetings = pair_meetings(sched)
    assert len(meetings) == 16 * 15 // 2
    assert set(meetings.values()) == {1}
    for player in sched.players:
        winds = Counter(
            t.seats.index(player) for s in sched.sessions for t in s.tables if player in t.seats
        )
        assert sum(winds.values()) == 5
        assert max(winds[w] for w in range(4)) - min(winds[w] for w in range(4)) <= 1


def test_ag3_64_players_never_repeat() -> None:
    sched = schedule(names(64), 21, seed=1)
    assert set(pair_meetings(sched).values()) == {1}  # 21 classes: every pair exactly once


@pytest.mark.parametrize(("n", "sessions"), [(16, 4), (16, 7), (20, 6), (64, 8), (32, 6), (26, 5)])
def test_team_mates_never_meet(n: int, sessions: int) -> None:
    players = names(n)
    teams = teams_of_four(players)
    if n == 26:  # a team of 4 + substitute, and players outside any team
        teams = {"A": players[:5], "B": players[5:9]}
    sched = schedule(players, sessions, teams=teams, seed=3)
    check_everyone_once(sched)
    meetings = pair_meetings(sched)
    for members in teams.values():
        for a, b in itertools.combinations(members, 2):
            assert meetings[frozenset((a, b))] == 0
    assert quality(sched, teams).team_meetings == 0


def test_team_larger_than_tables_is_refused() -> None:
    players = names(8)
    with pytest.raises(ValueError):
        schedule(players, 2, teams={"A": players[:3]})


# Small cases: the bound counts only the repeats forced by 3·p meetings among n − 1 opponents.
# It is met exactly where the plane or the counting leaves no choice (8/4, 8/6, 16/6, 16/8, 20/8).
# Elsewhere it may be unreachable (no resolvable packing is known to exist) and the session-by-
# session search is not exact, so the tolerance is a few repeat meetings: under 5% of the
# 6 · tables · sessions meetings. Measured with seed 1: 12/5 26 (bound 24), 20/5 0, 24/6 5 (bound 0).
@pytest.mark.parametrize(
    ("n", "sessions", "slack"),
    [(8, 4, 0), (8, 6, 0), (12, 5, 6), (16, 6, 0), (16, 8, 0), (20, 5, 6), (20, 8, 0), (24, 6, 8)],
)
def test_repeats_at_or_near_the_bound(n: int, sessions: int, slack: int) -> None:
    q = quality(schedule(names(n), sessions, seed=1))
    assert best_possible(n, sessions).repeat_meetings <= q.repeat_meetings
    assert q.repeat_meetings <= best_possible(n, sessions).repeat_meetings + slack


def test_byes_spread_evenly() -> None:
    players = names(23)  # 3 byes a session
    sched = schedule(players, 8, seed=4)
    seen: list[str] = []
    for s in sched.sessions:
        seen.extend(s.byes)
    assert len(seen[:23]) == len(set(seen[:23]))  # nobody twice before everyone once
    q = quality(sched)
    assert (q.min_byes, q.max_byes) == (1, 2)


def test_substitute_places() -> None:
    sched = schedule(names(14), 3, seed=1, fill="substitute")
    assert sched.substitutes == ("替补1", "替补2")
    assert all(not s.byes and len(s.tables) == 4 for s in sched.sessions)
    check_everyone_once(sched)


def test_seats_at_uses_the_session_rotation() -> None:
    table = draw_session_one(names(4), 0).tables[0]
    for hand in range(16):
        assert table.seats_at(hand) == tuple(table.seats[i] for i in session_seating(hand))


def test_quality_computed_independently() -> None:
    players = names(9)  # one bye a session
    teams = {"X": players[:2]}
    sched = schedule(players, 4, teams=teams, seed=9)
    meet: dict[tuple[str, str], int] = {}
    opp: dict[str, set[str]] = {p: set() for p in players}
    wind: dict[str, list[int]] = {p: [0] * 4 for p in players}
    byes = dict.fromkeys(players, 0)
    for s in sched.sessions:
        for p in s.byes:
            byes[p] += 1
        for t in s.tables:
            for i, a in enumerate(t.seats):
                wind[a][i] += 1
                for b in t.seats:
                    if a < b:
                        meet[a, b] = meet.get((a, b), 0) + 1
                    if a != b:
                        opp[a].add(b)
    q = quality(sched, teams)
    assert q.repeated_pairs == len([m for m in meet.values() if m >= 2])
    assert q.repeat_meetings == sum(meet.values()) - len(meet)
    assert q.max_meetings == max(meet.values())
    assert q.min_opponents == min(len(o) for o in opp.values())
    assert q.mean_opponents == pytest.approx(sum(len(o) for o in opp.values()) / 9)
    assert q.team_meetings == meet.get(("P000", "P001"), 0) == 0
    assert q.wind_spread == max(max(w) - min(w) for w in wind.values())
    assert (q.min_byes, q.max_byes) == (min(byes.values()), max(byes.values()))


def test_best_possible() -> None:
    assert best_possible(16, 5).repeat_meetings == 0
    assert best_possible(16, 6).repeat_meetings == 24  # 18 meetings among 15: 3 each, /2 · 16
    assert best_possible(8, 4).repeat_meetings == 20
    assert best_possible(16, 5, team_size=4).repeat_meetings == 24
    assert best_possible(400, 8).max_min_opponents == 24


def test_large_event_runs() -> None:
    players = names(400)
    sched = schedule(players, 8, teams=teams_of_four(players), seed=1)
    check_everyone_once(sched)
    assert quality(sched).max_meetings == 1


def test_draw_seats_kept_or_rebalanced() -> None:
    players = names(20)
    draw = draw_session_one(players, 1)
    kept = schedule(players, 4, seed=1, keep_draw=True)
    assert kept.sessions[0] == draw
    free = schedule(players, 4, seed=1)
    assert {frozenset(t.seats) for t in free.sessions[0].tables} == {
        frozenset(t.seats) for t in draw.tables
    }
    # de Werra: with no seat fixed every player gets each wind exactly once in 4 sessions
    assert quality(free).wind_spread == best_possible(20, 4).wind_spread == 0
    assert quality(kept).wind_spread <= 2


@pytest.mark.parametrize(("n", "sessions"), [(9, 5), (23, 7), (64, 8), (400, 6)])
def test_winds_balanced(n: int, sessions: int) -> None:
    sched = schedule(names(n), sessions, seed=2)
    assert quality(sched).wind_spread <= 1
