"""Withdrawals, disqualification and the re-draw; final-round pairing (issue 13, points 3, 5).

`guobiao tournament withdraw` re-draws the sessions not yet played without the player, keeping
the sessions before; the tournament's --withdrawn-results (keep | void) says how their played
sessions rank (docs/rules.md §19). `draw --session S --pairing swiss|strongest` seats a final
session from the standings. Every database case runs on SQLite and PostgreSQL (``db_url``).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from guobiao.tournament.ranking import individual_ranking, player_histories, team_ranking
from guobiao.tournament.seating import (
    SessionSeating,
    Table,
    continue_schedule,
    pair_session,
    schedule,
)
from guobiao.tournament.store import Store, open_store
from tournament_cli import TournamentCli

T = "club"
SHEETS = ((700, 500, 450, 350), (800, 600, 400, 200), (550, 550, 450, 450), (900, 300, 400, 400))


Cli = TournamentCli


@pytest.fixture
def cli(db_url: str) -> Cli:
    return Cli(db_url)


def _players(path: Path, n: int, team_size: int = 0) -> Path:
    lines = ["number,name,team,substitute"]
    for i in range(n):
        team = f"T{i // team_size + 1}" if team_size else ""
        lines.append(f"{i + 1},P{i + 1:02d},{team},")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _teams(n: int, team_size: int) -> dict[str, str]:
    return {f"P{i + 1:02d}": f"T{i // team_size + 1}" for i in range(n)}


def _enter(cli: Cli, store: Store, session: int) -> dict[int, tuple[str, ...]]:
    """Enter every table of a session from SHEETS; returns the tables (E S W N)."""
    seated = {s.number: s for s in store.seatings(T)}[session]
    out = {}
    for table in seated.tables:
        sheet = SHEETS[(session + table.number) % len(SHEETS)]
        cli.ok(
            "totals", T, "--session", str(session), "--table", str(table.number), *map(str, sheet)
        )
        out[table.number] = table.seats
    return out


def _check_session(seated: SessionSeating, field: Sequence[str], teams: dict[str, str]) -> None:
    """Every player of the field once (at a table or on a bye), n mod 4 byes, team-mates apart."""
    at_tables = [p for t in seated.tables for p in t.seats]
    assert sorted(at_tables + list(seated.byes)) == sorted(field)
    assert len(seated.byes) == len(field) % 4
    for table in seated.tables:
        present = [teams[p] for p in table.seats if p in teams]
        assert len(set(present)) == len(present), table


def _members(field: Sequence[str], teams: dict[str, str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for player in field:
        out.setdefault(teams[player], []).append(player)
    return out


def _repeat_meetings(sessions: Sequence[SessionSeating]) -> int:
    """Meetings beyond a pair's first, over the sessions."""
    met = Counter(
        frozenset(pair)
        for s in sessions
        for t in s.tables
        for pair in itertools.combinations(t.seats, 2)
    )
    return sum(m - 1 for m in met.values())


def _places(scores: Sequence[int]) -> list[Fraction]:
    """4/2/1/0 by place among the given scores, ties sharing the places they cover."""
    points = [Fraction(4), Fraction(2), Fraction(1), Fraction(0)]
    out = []
    for score in scores:
        above = sum(s > score for s in scores)
        same = sum(s == score for s in scores)
        out.append(sum(points[above : above + same], Fraction(0)) / same)
    return out


# -- the re-draw -----------------------------------------------------------------------------------


def test_withdrawal_redraws_the_sessions_left_without_the_player(cli: Cli, tmp_path: Path) -> None:
    teams = _teams(16, 4)
    cli.ok("create", T, "--sessions", "4")
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 16, 4)))
    cli.ok("draw", T, "--seed", "5")
    store = cli.store()
    try:
        _enter(cli, store, 1)
        before = store.seatings(T)
        out = cli.ok("withdraw", T, "P03", "--from-session", "2", "--who", "Li", "--note", "ill")
        assert "P03 is withdrawn from session 2 on." in out
        after = store.seatings(T)
        assert after[0] == before[0]  # the session played stands
        field = [p for p in teams if p != "P03"]
        for seated in after[1:]:
            _check_session(seated, field, teams)
            assert len(seated.tables) == 3 and len(seated.byes) == 3
        byes = Counter(p for s in after[1:] for p in s.byes)  # 9 byes over 15 players, in turn
        assert max(byes.values()) == 1
        # the meetings of session 1 count: fewer repeats than the same re-draw blind to them
        blind = continue_schedule(field, [], 3, teams=_members(field, teams)).sessions
        assert _repeat_meetings(after) < _repeat_meetings([after[0], *blind])
        [line] = store.withdrawals(T)
        assert (line.player, line.from_session, line.reason, line.who) == (
            "P03",
            2,
            "withdrawn",
            "Li",
        )
        histories = player_histories(store.table_results(T))
        lines = histories["P03"].lines
        assert [(x.session, x.absent, x.withdrawn) for x in lines] == [
            (1, False, "withdrawn"),
            (2, True, "withdrawn"),
            (3, True, "withdrawn"),
            (4, True, "withdrawn"),
        ]
        assert "withdrawal" in {a.entity for a in store.audit_trail(T)}
    finally:
        store.close()
    again = cli("withdraw", T, "P03", "--from-session", "3", "--who", "Li")
    assert again.exit_code == 1 and "already left the tournament" in again.output
    sub = cli("substitute", T, "--session", "2", "--player", "P01", "--by", "P03", "--who", "Li")
    assert sub.exit_code == 1 and "left the tournament" in sub.output


def test_withdrawal_is_refused_once_a_session_to_redraw_is_under_way(
    cli: Cli, tmp_path: Path
) -> None:
    cli.ok("create", T, "--sessions", "3")
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 8)))
    cli.ok("draw", T, "--seed", "1")
    store = cli.store()
    try:
        _enter(cli, store, 1)
        cli.ok("hand", T, "--session", "2", "--table", "2", "--hand", "1", "--winner", "E",
               "--self-drawn", "--fan", "8")  # fmt: skip
        before = (store.seatings(T), store.withdrawals(T), len(store.audit_trail(T)))
        result = cli("withdraw", T, "P05", "--from-session", "2", "--who", "Li")
        assert result.exit_code == 1
        assert "session 2 is under way (table 2 has hands entered)" in result.output
        assert "withdraw 'P05' from session 3 on" in result.output
        assert (store.seatings(T), store.withdrawals(T), len(store.audit_trail(T))) == before
        # from the next session it goes through: 7 players, one table and 3 byes
        cli.ok("withdraw", T, "P05", "--from-session", "3", "--who", "Li")
        last = store.seatings(T)[2]
        _check_session(last, [f"P{i:02d}" for i in range(1, 9) if i != 5], {})
        assert store.seatings(T)[:2] == before[0][:2]
    finally:
        store.close()


@pytest.mark.parametrize("setting", ["keep", "void"])
def test_keep_and_void_rank_as_documented(cli: Cli, tmp_path: Path, setting: str) -> None:
    """8 players in teams of 2, 3 sessions; P03 leaves after 2. keep: the tables stand as played;
    void: P03's score counts for the table, the other three take 4, 2, 1 among themselves.
    Either way P03 takes no place; their team counts their points only with keep."""
    teams = _teams(8, 2)
    cli.ok("create", T, "--sessions", "3", "--withdrawn-results", setting)
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 8, 2)))
    cli.ok("draw", T, "--seed", "3")
    store = cli.store()
    try:
        tables = [_enter(cli, store, 1), _enter(cli, store, 2)]
        cli.ok("withdraw", T, "P03", "--from-session", "3", "--who", "Li")
        results = store.table_results(T)
    finally:
        store.close()
    totals = dict.fromkeys(teams, Fraction(0))
    match = dict.fromkeys(teams, 0)
    best: dict[str, list[Fraction]] = {p: [] for p in teams}
    for session, seated in enumerate(tables, 1):
        for number, seats in seated.items():
            sheet = SHEETS[(session + number) % len(SHEETS)]
            ranked = [
                (p, s) for p, s in zip(seats, sheet, strict=True) if setting == "keep" or p != "P03"
            ]
            for (player, score), points in zip(
                ranked, _places([s for _, s in ranked]), strict=True
            ):
                totals[player] += points
                match[player] += score
                best[player].append(points)
    field = [p for p in teams if p != "P03"]
    key = {p: (totals[p], match[p], sorted(best[p], reverse=True)) for p in field}
    expected = sorted((1 + sum(key[q] > key[p] for q in field), p, totals[p]) for p in field)
    got = individual_ranking(results)
    assert [(s.rank, s.name, s.standard_points) for s in got] == expected
    [last] = [s for s in individual_ranking(results, withdrawn="last") if s.withdrawn]
    assert (last.name, last.rank, last.withdrawn) == ("P03", 8, "withdrawn")
    assert last.standard_points == (totals["P03"] if setting == "keep" else 0)
    # the team counts P03's points only when kept
    members: dict[str, list[str]] = {}
    for player, team in teams.items():
        members.setdefault(team, []).append(player)
    by_team = {s.name: s.standard_points for s in team_ranking(results, members)}
    assert by_team["T2"] == totals["P03"] + totals["P04"]
    # the command line shows the same ranking, without P03
    out = tmp_path / "s.json"
    cli.ok("standings", T, "--json", str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    ranked = [s for s in doc["standings"] if s["status"] == "ranked"]
    assert [(s["rank"], s["name"], Fraction(s["standard_points"])) for s in ranked] == expected
    # every registered player is listed: P03 after the ranked ones, with no place, saying why
    assert doc["standings"][len(ranked) :] == [
        {
            "rank": None,
            "tied": False,
            "name": "P03",
            "team": "T2",
            "standard_points": str(totals["P03"] if setting == "keep" else 0),
            "match_points": match["P03"] if setting == "keep" else 0,
            "best_session": str(max(best["P03"]) if setting == "keep" else 0),
            "sessions": len(best["P03"]) if setting == "keep" else 0,
            "partial": False,
            "status": "withdrawn",
            "left_from": 3,  # audit 7: the session of the recorded withdrawal
            "number": 3,
            "ema_id": "",
            "country": "",
            "base_rank": None,
        }
    ]
    # the table on the terminal lists P03 apart, with no place, saying why
    shown = [line for line in cli.ok("standings", T).splitlines() if "P03" in line]
    assert len(shown) == 1 and "—" in shown[0] and "withdrawn" in shown[0]


def test_intentional_fake_win_leads_to_disqualification(cli: Cli, tmp_path: Path) -> None:
    """有意诈和 (第十四条六(四) 「应予取消比赛资格」) entered with a hand: `withdraw` without
    --from-session or --reason disqualifies the player from the next session."""
    cli.ok("create", T, "--sessions", "3")
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 12)))
    cli.ok("draw", T, "--seed", "2")
    store = cli.store()
    try:
        east = store.seatings(T)[0].tables[1].seats[0]  # East of table 2 at hand 1
        cli.ok(
            "hand", T, "--session", "1", "--table", "2", "--hand", "1", "--penalty", "E:intentional"
        )
        assert store.pending_disqualifications(T) == [(1, 2, east)]
        bare = cli("withdraw", T, "P01" if east != "P01" else "P02", "--who", "Li")
        assert bare.exit_code == 1 and "no 有意诈和 is entered" in bare.output
        out = cli.ok("withdraw", T, east, "--who", "Li")
        assert f"{east} is disqualified from session 2 on." in out
        [line] = store.withdrawals(T)
        assert (line.from_session, line.reason) == (2, "disqualified")
        assert store.pending_disqualifications(T) == []
        field = [f"P{i:02d}" for i in range(1, 13) if f"P{i:02d}" != east]
        for seated in store.seatings(T)[1:]:
            _check_session(seated, field, {})
        history = player_histories(store.table_results(T))[east]
        assert history.lines[0].disqualified and history.lines[0].withdrawn == "disqualified"
        assert east not in {s.name for s in individual_ranking(store.table_results(T))}
    finally:
        store.close()


# -- final rounds ----------------------------------------------------------------------------------


def test_strongest_together_seats_by_rank_order(cli: Cli, tmp_path: Path) -> None:
    cli.ok("create", T, "--sessions", "3", "--final-pairing", "strongest")
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 12)))
    assert "Session 3 is seated from the standings" in cli.ok("draw", T, "--seed", "4")
    store = cli.store()
    try:
        assert [s.number for s in store.seatings(T)] == [1, 2]
        _enter(cli, store, 1)
        early = cli("draw", T, "--session", "3")
        assert (
            early.exit_code == 1 and "session 2 table(s) 1, 2, 3 are not complete" in early.output
        )
        _enter(cli, store, 2)
        cli.ok("draw", T, "--session", "3")
        order = [s.name for s in individual_ranking(store.table_results(T))]
        final = store.seatings(T)[2]
        assert [set(t.seats) for t in final.tables] == [set(order[i : i + 4]) for i in (0, 4, 8)]
        again = cli("draw", T, "--session", "2", "--pairing", "swiss")
        assert again.exit_code == 1 and "session 2 is under way" in again.output
    finally:
        store.close()


def test_swiss_on_the_command_line_keeps_team_mates_apart(cli: Cli, tmp_path: Path) -> None:
    teams = _teams(16, 2)
    cli.ok("create", T, "--sessions", "2")
    cli.ok("players", T, str(_players(tmp_path / "p.csv", 16, 2)))
    cli.ok("draw", T, "--seed", "8")
    store = cli.store()
    try:
        _enter(cli, store, 1)
        out = cli.ok("draw", T, "--session", "2", "--pairing", "swiss")
        assert "Session 2 seated from the standings (swiss)" in out
        order = [s.name for s in individual_ranking(store.table_results(T))]
        final = store.seatings(T)[1]
        _check_session(final, list(teams), teams)
        assert final.tables[0].seats.count(order[0]) == 1  # the leader at the top table
        assert "Pairs meeting again: 0" in out
    finally:
        store.close()


RANKED = [f"R{i:02d}" for i in range(1, 17)]
# Session one of the players ranked 1-16: {1, 2, 9, 10}, {3, 4, 11, 12}, ... Strongest together
# (1-4, 5-8, ...) repeats two meetings at every table; a rank-ordered seating without any exists:
# {1, 3, 5, 7}, {2, 4, 6, 8}, {9, 11, 13, 15}, {10, 12, 14, 16}.
PLAYED = SessionSeating(
    0,
    tuple(
        Table(i, (RANKED[2 * i], RANKED[2 * i + 1], RANKED[2 * i + 8], RANKED[2 * i + 9]))
        for i in range(4)
    ),
)


def _repeats(seated: SessionSeating, played: Sequence[SessionSeating]) -> int:
    met = {
        frozenset(p) for s in played for t in s.tables for p in itertools.combinations(t.seats, 2)
    }
    return sum(
        frozenset(p) in met for t in seated.tables for p in itertools.combinations(t.seats, 2)
    )


def test_swiss_avoids_a_repeat_where_one_is_avoidable() -> None:
    strongest = pair_session(RANKED, "strongest", played=[PLAYED])
    assert [set(t.seats) for t in strongest.tables] == [
        set(RANKED[i : i + 4]) for i in (0, 4, 8, 12)
    ]
    assert _repeats(strongest, [PLAYED]) == 8
    swiss = pair_session(RANKED, "swiss", played=[PLAYED])
    assert _repeats(swiss, [PLAYED]) == 0
    assert [min(RANKED.index(p) for p in t.seats) for t in swiss.tables] == [0, 1, 8, 9]
    assert swiss.number == 1 and not swiss.byes


def test_swiss_keeps_team_mates_apart_and_byes_go_to_the_lowest_ranked() -> None:
    players = RANKED[:14]
    teams = {f"T{i}": players[2 * i : 2 * i + 2] for i in range(7)}  # 1-2, 3-4, ... together
    strongest = pair_session(players, "strongest", teams=teams)
    assert strongest.byes == ("R13", "R14")
    swiss = pair_session(players, "swiss", teams=teams)
    assert swiss.byes == ("R13", "R14")
    team_of = {p: t for t, members in teams.items() for p in members}
    for table in swiss.tables:
        assert len({team_of[p] for p in table.seats}) == 4
    later = pair_session(players, "swiss", teams=teams, played=[swiss])
    assert set(later.byes) == {"R11", "R12"}  # R13 and R14 have had theirs


def test_continue_schedule_counts_the_meetings_winds_and_byes_played() -> None:
    players = [f"P{i:02d}" for i in range(18)]
    first = schedule(players, 1, seed=3).sessions[0]
    rest = [p for p in players if p != first.tables[0].seats[0]]  # one withdraws: 17 players
    more = continue_schedule(rest, [first], 3, seed=3)
    assert [s.number for s in more.sessions] == [1, 2, 3]
    for seated in more.sessions:
        _check_session(seated, rest, {})
    assert _repeats(more.sessions[0], [first]) == 0
    byes = Counter(p for s in (first, *more.sessions) for p in s.byes if p in rest)
    assert max(byes.values()) == 1  # those who sat out in session one do not sit out again
    winds: dict[str, Counter[int]] = {p: Counter() for p in rest}
    for seated in (first, *more.sessions):
        for table in seated.tables:
            for wind, p in enumerate(table.seats):
                if p in winds:
                    winds[p][wind] += 1
    assert all(max(c.values()) <= 2 for c in winds.values())


# -- settings and schema --------------------------------------------------------------------------


def test_create_refuses_final_settings_that_do_not_fit(cli: Cli) -> None:
    result = cli("create", T, "--sessions", "2", "--final-sessions", "1")
    assert result.exit_code == 2 and "--final-pairing" in result.output
    result = cli(
        "create", T, "--sessions", "2", "--final-pairing", "swiss", "--final-sessions", "2"
    )
    assert result.exit_code == 2 and "the first session is drawn" in result.output
    result = cli("draw", T, "--pairing", "swiss")
    assert result.exit_code == 2 and "--pairing goes with --session" in result.output


def test_migration_0005_goes_down_and_up(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import create_engine, inspect

    from guobiao.tournament.store import alembic_config

    url = f"sqlite:///{tmp_path / 'm.db'}"
    store = open_store(url)
    store.create_tournament(T, sessions=2)
    store.close()
    config = alembic_config(url)
    command.downgrade(config, "0004_player_names")
    engine = create_engine(url)
    assert "withdrawals" not in inspect(engine).get_table_names()
    engine.dispose()
    store = open_store(url)  # upgrades again; the tournament keeps its defaults
    try:
        settings = store.settings(T)
        assert (settings.withdrawn_results, settings.final_pairing, settings.final_sessions) == (
            "keep",
            None,
            0,
        )
    finally:
        store.close()
