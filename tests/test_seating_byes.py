"""Byes and substitutes from the command line (issue 13, point 2; 第十二条 轮空, 三(二) 陪打).

Byes: nobody has a second bye before everyone had one (per-player counts differ by at most 1
after every session), the teams' counts (their members' byes added up) lie in the narrowest range
that allows (``bye_bound``, checked by hand below: at most 1 apart for these shapes), and a team
never has two byes in one session while there are more teams than byes. ``draw
--fill-with-substitutes`` seats registered substitutes in the free places instead: no byes, and
the standings give them no standard points. The CLI part runs on SQLite."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from guobiao.tournament.seating import (
    ByeBound,
    Schedule,
    bye_bound,
    continue_schedule,
    quality,
    schedule,
)
from test_tournament_cli import Cli

T = "byes"


def _field(n: int, sizes: list[int]) -> tuple[list[str], dict[str, list[str]]]:
    """``n`` players, the first ones in teams of ``sizes``, the rest in no team."""
    names = [f"P{i:02d}" for i in range(n)]
    teams: dict[str, list[str]] = {}
    k = 0
    for t, size in enumerate(sizes):
        teams[f"T{t}"] = names[k : k + size]
        k += size
    return names, teams


SHAPES = [
    (38, [4] * 8 + [3] * 2),  # 10 teams of 4, two players short
    (30, [3] * 10),
    (21, []),
    (18, [4, 4, 4, 2]),  # two players in no team
]


def _check_prefixes(sched: Schedule, teams: dict[str, list[str]]) -> None:
    """After every session: player counts at most 1 apart; team counts at most 1 apart while
    the byes so far do not exceed (number of teams) × (smallest team) — then every team can have
    had its k-th bye before any its (k+1)-th — and no team twice in one session."""
    had = dict.fromkeys(sched.players, 0)
    team_of = {p: t for t, members in teams.items() for p in members}
    smallest = min((len(m) for m in teams.values()), default=0)
    given = 0
    for session in sched.sessions:
        for p in session.byes:
            had[p] += 1
        given += len(session.byes)
        assert max(had.values()) - min(had.values()) <= 1
        in_session = [team_of[p] for p in session.byes if p in team_of]
        if len(teams) >= len(session.byes):
            assert len(in_session) == len(set(in_session)), session
        if teams and given <= len(teams) * smallest:
            counts = [sum(had[m] for m in members) for members in teams.values()]
            assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize(("n", "sizes"), SHAPES)
@pytest.mark.parametrize("sessions", [4, 6, 9])
def test_byes_are_spread_over_players_and_teams(n: int, sizes: list[int], sessions: int) -> None:
    names, teams = _field(n, sizes)
    sched = schedule(names, sessions, teams=teams, seed=sessions)
    assert all(len(s.byes) == n % 4 for s in sched.sessions)
    _check_prefixes(sched, teams)
    q = quality(sched, teams)
    bound = bye_bound(n, sessions, sizes)
    assert (q.min_byes, q.max_byes) == (bound.player_min, bound.player_max)
    assert q.max_byes - q.min_byes <= 1
    if teams:  # as narrow as the bound, which is 1 while every team can take its turn
        assert q.max_team_byes - q.min_team_byes <= bound.team_max - bound.team_min
        if sessions * (n % 4) <= len(sizes) * min(sizes):
            assert bound.team_max - bound.team_min <= 1
        assert q.team_meetings == 0


def test_a_long_event_goes_round_the_turn_evenly() -> None:
    """13 players in teams of 3 (one in none) over 30 sessions: 30 byes, everyone 2 or 3."""
    names, teams = _field(13, [3, 3, 3, 3])
    sched = schedule(names, 30, teams=teams, seed=3)
    _check_prefixes(sched, teams)
    q = quality(sched, teams)
    assert (q.min_byes, q.max_byes) == (2, 3)
    assert q.max_team_byes - q.min_team_byes <= 1


def test_bye_bound_by_hand() -> None:
    # 38 over 9 sessions: 18 byes, nobody two; 10 teams take 18: 1 or 2 each
    assert bye_bound(38, 9, [4] * 8 + [3] * 2) == ByeBound(0, 1, 1, 2)
    assert bye_bound(38, 5, [4] * 8 + [3] * 2) == ByeBound(0, 1, 1, 1)  # 10 byes, 10 teams
    assert bye_bound(21, 9) == ByeBound(0, 1, 0, 0)
    # 14 players, 4 teams of 3 and 2 in none, 5 sessions: 10 byes; the teams take 8, 2 each
    assert bye_bound(14, 5, [3, 3, 3, 3]) == ByeBound(0, 1, 2, 2)
    # 15 = 4 + 4 + 4 + 3 over 5 sessions: everyone one bye, so the teams 4, 4, 4 and 3
    assert bye_bound(15, 5, [4, 4, 4, 3]) == ByeBound(1, 1, 3, 4)
    # 18 = 4 + 4 + 4 + 2 and 2 in no team over 9 sessions: one bye each, so 4, 4, 4 and 2
    assert bye_bound(18, 9, [4, 4, 4, 2]) == ByeBound(1, 1, 2, 4)
    assert bye_bound(16, 7, [4] * 4) == ByeBound(0, 0, 0, 0)  # no byes


def test_a_re_draw_keeps_the_byes_even() -> None:
    """``continue_schedule`` counts the byes already had: the fewest first, then the team with
    the fewest."""
    names, teams = _field(30, [3] * 10)
    first = schedule(names, 3, teams=teams, seed=1)
    more = continue_schedule(names, first.sessions, 5, teams=teams, seed=1)
    whole = Schedule(first.players, first.sessions + more.sessions, more.method)
    _check_prefixes(whole, teams)
    q = quality(whole, teams)
    assert q.max_byes - q.min_byes <= 1 and q.max_team_byes - q.min_team_byes <= 1


def test_substitute_names_take_the_places() -> None:
    names, teams = _field(14, [3, 3, 3, 3])
    sched = schedule(
        names,
        4,
        teams={**teams, "T0": [*teams["T0"], "R"]},
        seed=2,
        fill="substitute",
        substitute_names=("R", "X"),
    )
    assert sched.substitutes == ("R", "X")
    for session in sched.sessions:
        assert not session.byes
        seated = [p for t in session.tables for p in t.seats]
        assert sorted(seated) == sorted([*names, "R", "X"])
        for t in session.tables:  # a team's substitute never sits with its team
            assert not ("R" in t.seats and set(t.seats) & set(teams["T0"]))
    with pytest.raises(ValueError, match="2 substitute"):
        schedule(names, 2, fill="substitute", substitute_names=("R",))
    with pytest.raises(ValueError, match="multiple of four"):
        schedule(names[:12], 2, fill="substitute", substitute_names=("R",))


# -- the command line (SQLite) ------------------------------------------------------------------


def _players(path: Path, regular: int, teams: int, size: int, subs: list[str]) -> Path:
    """``regular`` players, the first teams × size of them in teams, then the ``subs`` as
    "name:team" (a substitute belongs to a team)."""
    lines = ["number,name,team,substitute"]
    for i in range(regular):
        team = f"Team{i // size}" if i < teams * size else ""
        lines.append(f"{i + 1},P{i + 1:02d},{team},")
    for j, sub in enumerate(subs):
        name, _, team = sub.partition(":")
        lines.append(f"{regular + j + 1},{name},{team},yes")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _rows(cli: Cli, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(cli.db) as con:
        return con.execute(sql).fetchall()


def test_draw_spreads_byes_and_prints_them(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "t.db")
    cli.ok("create", T, "--sessions", "6")
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 30, 10, 3, [])))
    out = cli.ok("draw", T, "--seed", "4")
    assert "Byes per player" in out and "Byes per team" in out
    byes = _rows(
        cli,
        "SELECT s.number, p.name, tm.name FROM session_absences a "
        "JOIN sessions s ON a.session_id = s.id JOIN players p ON a.player_id = p.id "
        "JOIN teams tm ON p.team_id = tm.id WHERE a.kind = 'bye'",
    )
    assert len(byes) == 12  # 6 sessions × 2
    players = [p for _, p, _ in byes]
    assert len(set(players)) == 12  # nobody twice
    per_team: dict[object, int] = {}
    for _, _, team in byes:
        per_team[team] = per_team.get(team, 0) + 1
    assert len(per_team) == 10 and set(per_team.values()) == {1, 2}  # 12 byes over 10 teams
    for s in range(1, 7):  # never two of one team in a session
        teams = [team for n, _, team in byes if n == s]
        assert len(teams) == len(set(teams)) == 2


def test_draw_fills_places_with_substitutes(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "t.db")
    cli.ok("create", T, "--sessions", "2")
    cli.ok(
        "players", T, str(_players(tmp_path / "p.csv", 14, 3, 3, ["R:Team0", "X:Team1", "Y:Team2"]))
    )
    before = cli.snapshot()
    few = cli("draw", T, "--fill-with-substitutes", "--substitute", "X")
    assert few.exit_code == 2 and "2 place(s) to fill, 1 named" in few.output
    wrong = cli("draw", T, "--fill-with-substitutes", "--substitute", "X", "--substitute", "P01")
    assert wrong.exit_code == 1 and "'P01' is not a registered substitute" in wrong.output
    alone = cli("draw", T, "--substitute", "X")
    assert alone.exit_code == 2
    assert cli.snapshot() == before
    out = cli.ok("draw", T, "--seed", "3", "--fill-with-substitutes")
    assert "R, X" in out  # the first two substitutes by registration number
    assert _rows(cli, "SELECT COUNT(*) FROM session_absences") == [(0,)]
    team_of = {f"P{i:02d}": f"Team{(i - 1) // 3}" for i in range(1, 10)}
    team_of |= {"R": "Team0", "X": "Team1"}
    regular = sorted(f"P{i:02d}" for i in range(1, 15))
    expected = dict.fromkeys(regular, 0)
    for session in (1, 2):
        seats = cli.seats(session)
        assert len(seats) == 4
        seated = sorted(p for t in seats.values() for p in t)
        assert seated == sorted([*regular, "R", "X"])
        for players in seats.values():  # a team's substitute never sits with the team
            teams = [team_of[p] for p in players if p in team_of]
            assert len(teams) == len(set(teams))
        for table, players in seats.items():  # E 800 > S 600 > W 400 > N 200
            cli.ok("totals", T, "--session", str(session), "--table", str(table),
                   "800", "600", "400", "200")  # fmt: skip
            # the ranked players take 4, 2, 1 (0) in their order, a 陪打 takes no place
            ranked = [p for p in players if p in expected]
            for p, got in zip(ranked, (4, 2, 1, 0), strict=False):
                expected[p] += got
    cli.ok("standings", T, "--json", str(tmp_path / "s.json"))
    doc = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    points = {r["name"]: r["standard_points"] for r in doc["standings"] if r["status"] == "ranked"}
    assert "R" not in points and "X" not in points and "Y" not in points  # 陪打: not ranked
    status = {r["name"]: r["status"] for r in doc["standings"]}  # every one listed, and why
    assert (status["R"], status["X"], status["Y"]) == ("substitute", "substitute", "did not play")
    assert {p: Fraction(v) for p, v in points.items()} == expected


def test_draw_with_named_substitutes(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "t.db")
    cli.ok("create", T, "--sessions", "2")
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 15, 3, 3, ["X:Team0", "Y:Team1"])))
    out = cli.ok("draw", T, "--fill-with-substitutes", "--substitute", "Y")
    assert "Y" in out
    seated = {p for s in (1, 2) for t in cli.seats(s).values() for p in t}
    assert "Y" in seated and "X" not in seated
    cli.ok("create", "full", "--sessions", "2")
    cli.ok("players", "full", str(_players(tmp_path / "f.csv", 15, 3, 4, ["X:Team0"])))
    refused = cli("draw", "full", "--fill-with-substitutes")  # Team0 + X: 5 for 4 tables
    assert refused.exit_code == 1 and "more members than there are tables" in refused.output
    assert "X" in refused.output
    assert _rows(cli, "SELECT COUNT(*) FROM session_absences") == [(0,)]
