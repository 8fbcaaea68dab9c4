"""Check-in before a session (issue 13, point 8): presence stored per session and listed; an
absent player handled as the tournament's ``--absent`` setting says when the check-in is
applied: ``substitute`` (a free registered substitute, never a team-mate of the table, plays the
seat and takes no standard points) or ``bye`` (the session drawn again without them, the earlier
sessions unchanged). Refused once the session has results. SQLite and PostgreSQL (``db_url``,
tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from click.testing import CliRunner
from sqlalchemy import create_engine, inspect, text

from guobiao.cli import main
from guobiao.tournament.ranking import individual_ranking
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import PlayerRow, Store, StoreError, alembic_config, open_store

T = "checkin"
FIELD = "ABCDEFGH"
# red: A E and their substitute R; blue: B F and their substitute Q. R comes first by number
# but would sit with A at B's table; Q (B's own team) is the one who fits.
TEAMS = {"A": "red", "E": "red", "R": "red", "B": "blue", "F": "blue", "Q": "blue"}
SESSION1 = SessionSeating(1, (Table(1, ("A", "B", "C", "D")), Table(2, ("E", "F", "G", "H"))))
SESSION2 = SessionSeating(2, (Table(1, ("A", "F", "C", "H")), Table(2, ("E", "B", "G", "D"))))


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    yield s
    s.close()


def _event(store: Store, policy: str = "substitute") -> None:
    store.create_tournament(T, sessions=2)
    store.set_absent_policy(T, policy)
    store.add_team(T, "red")
    store.add_team(T, "blue")
    rows = [PlayerRow(n, p, TEAMS.get(p)) for n, p in enumerate(FIELD, 1)]
    rows += [PlayerRow(9, "R", "red", substitute=True), PlayerRow(10, "Q", "blue", True)]
    store.add_players(T, rows)
    store.save_schedule(T, Schedule(tuple(FIELD), (SESSION1, SESSION2), "manual"))


def test_presence_is_stored_and_listed(store: Store) -> None:
    _event(store)
    assert store.absent_policy(T) == "substitute"
    store.check_in(T, 1, ["A", "B", "C"], ["D"], who="li")
    listed = store.checkin_list(T, 1)
    assert (listed.present, listed.absent) == (("A", "B", "C"), ("D",))
    assert listed.not_checked_in == ("E", "F", "G", "H")  # a team's substitute is not expected
    store.check_in(T, 1, ["D", "Q"], who="li")  # a mark replaces the earlier one
    listed = store.checkin_list(T, 1)
    assert (listed.present, listed.absent) == (("A", "B", "C", "D", "Q"), ())
    assert store.checkin_list(T, 2).not_checked_in == tuple(FIELD)  # per session
    assert store.clear_checkin(T, 1, ["A"]) == 1
    assert store.checkin_list(T, 1).not_checked_in[0] == "A"
    with pytest.raises(StoreError, match="both present and absent"):
        store.check_in(T, 1, ["A"], ["A"], who="li")
    with pytest.raises(StoreError, match="no player 'Zed'"):
        store.check_in(T, 1, ["Zed"], who="li")
    with pytest.raises(StoreError, match="sessions 1-2"):
        store.check_in(T, 3, ["A"], who="li")


def test_substitute_plays_the_absent_seat_and_takes_no_standard_points(store: Store) -> None:
    _event(store)
    store.check_in(T, 1, ["A", "C", "D", "R", "Q"], ["B"], who="li")
    lines = store.apply_checkin(T, 1, who="li")
    assert lines == ("session 1 table 1 S: Q plays for B (absent; substitute, not ranked)",)
    assert store.seatings(T)[0].tables[0].seats == ("A", "Q", "C", "D")  # not R: A's team-mate
    assert store.apply_checkin(T, 1, who="li") == ()  # done once
    store.record_session_totals(T, 1, 1, {"A": 400, "Q": 700, "C": 500, "D": 400}, who="li")
    store.record_session_totals(T, 1, 2, {"E": 500, "F": 500, "G": 500, "H": 500}, who="li")
    standings = {s.name: s for s in individual_ranking(store.table_results(T))}
    assert "Q" not in standings and "B" not in standings
    assert standings["C"].standard_points == 4  # the three ranked: 4, then 2 and 1 shared
    assert standings["A"].standard_points == standings["D"].standard_points == 1.5
    assert (1, "B", "absent", "absent at check-in") in store.absences(T)


def test_no_free_substitute_is_explained(store: Store) -> None:
    _event(store)
    store.check_in(T, 1, [], ["B", "Q"], who="li")  # Q is absent too; R would sit with A
    with pytest.raises(StoreError, match="no substitute for 'B': each free one would sit with"):
        store.apply_checkin(T, 1, who="li")
    assert store.seatings(T)[0] == SESSION1  # nothing changed


def test_bye_draws_the_session_again_without_the_absent(store: Store) -> None:
    _event(store, "bye")
    store.record_session_totals(T, 1, 1, {"A": 600, "B": 500, "C": 500, "D": 400}, who="li")
    store.check_in(T, 2, ["A", "B"], ["E"], who="li")
    lines = store.apply_checkin(T, 2, who="li")
    first, second = store.seatings(T)
    assert first == SESSION1  # the session before stands
    assert len(second.tables) == 1 and len(second.byes) == 3
    seated = {p for x in second.tables for p in x.seats}
    assert "E" not in seated and "E" not in second.byes
    assert seated | set(second.byes) == set(FIELD) - {"E"}
    assert len(lines) == 4 + 3 + 1 and lines[-1] == "session 2 absent: E (not seated)"
    assert (2, "E", "absent", "absent at check-in") in store.absences(T)
    assert store.apply_checkin(T, 2, who="li") == ()


def test_refused_once_the_session_has_results(store: Store) -> None:
    _event(store)
    store.check_in(T, 1, [], ["B"], who="li")
    store.record_session_totals(T, 1, 1, {"A": 600, "B": 500, "C": 500, "D": 400}, who="li")
    with pytest.raises(StoreError, match=r"session 1 has results .*too late"):
        store.apply_checkin(T, 1, who="li")
    with pytest.raises(StoreError, match="session 1 has results"):
        store.check_in(T, 1, ["A"], who="li")
    with pytest.raises(StoreError, match="not seated yet"):
        other = "unseated"
        store.create_tournament(other, sessions=1)
        store.apply_checkin(other, 1, who="li")


def test_the_command_line(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 't.db'}"  # the command line once is enough
    runner = CliRunner()
    made = runner.invoke(
        main, ["tournament", "create", T, "--sessions", "2", "--absent", "bye", "--db", db_url]
    )
    assert made.exit_code == 0, made.output
    store = open_store(db_url)
    try:
        assert store.absent_policy(T) == "bye"
        store.add_players(T, [PlayerRow(n, p) for n, p in enumerate(FIELD, 1)])
        store.save_schedule(T, Schedule(tuple(FIELD), (SESSION1, SESSION2), "manual"))
    finally:
        store.close()
    base = ["tournament", "checkin", T, "--session", "2", "--db", db_url]
    marked = runner.invoke(main, [*base, "A", "B", "--absent", "H", "--who", "li", "--list"])
    assert marked.exit_code == 0, marked.output
    assert "present (2): A, B" in marked.output and "absent (1): H" in marked.output
    assert "not checked in (5): C, D, E, F, G" in marked.output
    done = runner.invoke(main, [*base, "--apply"])
    assert done.exit_code == 0, done.output
    assert "(bye)" in done.output and "session 2 absent: H (not seated)" in done.output
    assert done.output.count("session 2 table 1 ") == 4
    bad = runner.invoke(main, [*base, "--absent", "A", "--clear"])
    assert bad.exit_code != 0


def test_the_migration_upgrades_from_0006_and_downgrades(db_url: str) -> None:
    config = alembic_config(db_url)
    command.upgrade(config, "0006_readings")
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO tournaments (id, name, group_size, sessions_planned, rules_profile,"
                    " starting_points, created_at) VALUES (1, 'old', NULL, 1, 'mcr1998', 500,"
                    " '2026-11-01 10:00:00')"
                )
            )
        command.upgrade(config, "0007_checkins")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT absent_policy FROM tournaments")).scalar() == (
                "substitute"
            )
            assert "checkins" in inspect(conn).get_table_names()
        command.downgrade(config, "0006_readings")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("tournaments")}
            assert "absent_policy" not in columns and "bye_points" in columns
            assert "checkins" not in inspect(conn).get_table_names()
            assert conn.execute(text("SELECT name FROM tournaments")).scalar() == "old"
    finally:
        engine.dispose()
