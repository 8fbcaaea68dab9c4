"""The tournament database (issue 4 item 1): schema by migrations, round trips, validation that
refuses and changes nothing, settlement equal to the engine's, the totals sum check, a table
entered twice, the audit trail, crash safety, two writers at once, and rankings fed from it.

Every test that touches a database runs on SQLite (a file in tmp_path) and on PostgreSQL (a fresh
database per test, created on the server named by GUOBIAO_TEST_POSTGRES_URL, which scripts/test
starts: scripts/postgres.sh). Without that variable, under CI the PostgreSQL cases fail; in a plain
local ``pytest`` this module starts its own throwaway server with scripts/postgres.sh.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, make_url, text
from sqlalchemy.orm import Session as OrmSession

from guobiao.table.session import Session
from guobiao.table.settlement import HandOutcome, Penalty, PenaltyKind, settle
from guobiao.tournament.models import Base
from guobiao.tournament.ranking import individual_ranking
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import MIGRATIONS, PlayerRow, Store, StoreError, open_store

T = "club night"
NAMES = ("A", "B", "C", "D", "E", "F", "G", "H")
SCHEDULE = Schedule(
    players=NAMES,
    sessions=(
        SessionSeating(1, (Table(1, ("A", "B", "C", "D")), Table(2, ("E", "F", "G", "H")))),
        SessionSeating(2, (Table(1, ("A", "E", "B", "F")), Table(2, ("C", "G", "D", "H")))),
    ),
    method="manual",
)


def _setup(store: Store) -> None:
    store.create_tournament(T, sessions=2)
    store.add_team(T, "red", leader="A")
    store.add_players(
        T, [PlayerRow(i + 1, name, "red" if name in "AE" else None) for i, name in enumerate(NAMES)]
    )
    store.save_schedule(T, SCHEDULE)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    _setup(s)
    yield s
    s.close()


def _is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def _dump(url: str) -> list[str]:
    """Every row of the database, to show a refused write changed nothing."""
    if _is_sqlite(url):
        with sqlite3.connect(make_url(url).database or "") as conn:
            return list(conn.iterdump())
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = []
            for table in sorted(inspect(conn).get_table_names()):
                for row in conn.execute(text(f'SELECT * FROM "{table}"')):
                    rows.append(f"{table}: {tuple(row)!r}")
            return sorted(rows)
    finally:
        engine.dispose()


def _count_results(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.exec_driver_sql("SELECT count(*) FROM session_results").scalar_one())
    finally:
        engine.dispose()


# -- schema ------------------------------------------------------------------------------------


def test_migrations_create_the_schema_of_the_models(db_url: str) -> None:
    open_store(db_url).close()
    open_store(db_url).close()  # a second open is a no-op upgrade
    engine = create_engine(db_url)
    with engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        assert set(Base.metadata.tables) <= tables
        assert "alembic_version" in tables
        head = ScriptDirectory(str(MIGRATIONS)).get_current_head()  # one head, the newest
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == head
        context = MigrationContext.configure(conn, opts={"render_as_batch": True})
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


def test_sqlite_pragmas(tmp_path: Path) -> None:
    """SQLite only: the PRAGMAs of store._make_engine."""
    store = open_store(f"sqlite:///{tmp_path / 't.db'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.close()


def test_migrations_are_package_data() -> None:
    assert (MIGRATIONS / "env.py").is_file()
    assert (MIGRATIONS / "script.py.mako").is_file()
    assert list((MIGRATIONS / "versions").glob("r0001_*.py"))


def test_core_import_stays_free_of_sqlalchemy() -> None:
    code = "import sys, guobiao.tournament; assert 'sqlalchemy' not in sys.modules, 'leak'"
    subprocess.run([sys.executable, "-c", code], check=True)


# -- registration --------------------------------------------------------------------------------


def test_players_from_csv_rows_all_or_none(store: Store, db_url: str) -> None:
    rows = [
        {"number": "20", "name": "I", "team": "", "substitute": "no"},
        {"number": "21", "name": "J", "team": "red", "substitute": "yes"},
    ]
    assert store.add_players(T, rows) == 2
    before = _dump(db_url)
    with pytest.raises(StoreError, match="number 3 of 'K' is taken by 'C'"):
        store.add_players(T, [{"number": "30", "name": "L"}, {"number": "3", "name": "K"}])
    with pytest.raises(StoreError, match="team 'red' would have 2 players and 2 substitutes"):
        store.add_players(T, [PlayerRow(31, "M", "red", substitute=True)])
    with pytest.raises(StoreError, match="no team 'blue'"):
        store.add_players(T, [PlayerRow(32, "N", "blue")])
    assert _dump(db_url) == before


def test_schedule_refusals(store: Store, db_url: str) -> None:
    store.create_tournament("other", sessions=1)
    store.add_players("other", [PlayerRow(1, "A")])
    before = _dump(db_url)
    with pytest.raises(StoreError, match="session 1 is already seated"):
        store.save_schedule(T, SCHEDULE)
    with pytest.raises(StoreError, match="session 1 table 1: 'B' is not a registered player"):
        store.save_schedule("other", Schedule(NAMES, SCHEDULE.sessions[:1], "manual"))
    with pytest.raises(StoreError, match="session 2 is beyond the 1 planned"):
        store.save_schedule("other", Schedule(NAMES, SCHEDULE.sessions[1:], "manual"))
    with pytest.raises(StoreError, match="no tournament 'nope'"):
        store.save_schedule("nope", SCHEDULE)
    with pytest.raises(StoreError, match="a tournament 'other' already exists"):
        store.create_tournament("other", sessions=3)
    assert _dump(db_url) == before


# -- hands ---------------------------------------------------------------------------------------

HANDS = [
    # (winner, discarder, fan points, flowers, penalties)
    (0, 2, 8, 0, ()),
    (1, None, 12, 2, ()),
    (None, None, 0, 0, ()),
    (3, 0, 24, 1, (Penalty(1, PenaltyKind.VIOLATION, 10),)),
    (2, None, 88, 0, (Penalty(0, PenaltyKind.FALSE_WIN, 10),)),
    (None, None, 0, 0, (Penalty(3, PenaltyKind.VIOLATION, 5, payee=1),)),
]


def test_hands_round_trip_and_settle_as_the_engine(store: Store) -> None:
    engine = Session(("A", "B", "C", "D"))
    for number, (win, dis, fan, flowers, pens) in enumerate(HANDS):
        outcome = HandOutcome(win, dis, fan, flowers, pens)
        deltas = store.record_hand(
            T,
            1,
            1,
            number,
            winner=win,
            discarder=dis,
            fan_points=fan,
            flowers=flowers,
            penalties=pens,
            fans=["碰碰和"] if win is not None else None,
            tiles="W1W1" if number == 0 else None,
        )
        assert deltas == settle(outcome)
        engine.record(settle(outcome), outcome)
    rows = store.hands(T, 1, 1)
    assert [r.number for r in rows] == list(range(len(HANDS)))
    assert rows[0].tiles == "W1W1" and rows[1].fans == ["碰碰和"] and rows[2].fans is None
    assert [(r.winner_seat, r.discarder_seat, r.fan_points, r.flowers) for r in rows] == [
        h[:4] for h in HANDS
    ]
    assert [(p.seat, p.kind, p.amount, p.payee_seat) for p in rows[5].penalties] == [
        (3, "VIOLATION", 5, 1)
    ]
    assert store.table_scores(T, 1, 1) == engine.scores
    assert sum(engine.scores.values()) == 2000 - 10


def test_seat_letters(store: Store) -> None:
    assert store.record_hand(T, 1, 2, 0, winner="S", discarder="e", fan_points=8) == settle(
        HandOutcome(1, 0, 8)
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"winner": 1, "discarder": 1, "fan_points": 8}, "the winner S cannot be the discarder"),
        ({"winner": 0, "fan_points": 7}, "7 fan points is below the 8-point minimum"),
        ({"winner": 5, "fan_points": 8}, "winner 5 is not a seat 0-3"),
        ({"winner": "X", "fan_points": 8}, "winner 'X' is not a seat E S W N"),
        ({"winner": None, "fan_points": 8}, "a drawn hand"),
        ({"winner": 0, "fan_points": 8, "penalties": (Penalty(0, PenaltyKind.FAKE_WIN, 20),)},
         "seat 0 has no right to win"),
        ({"winner": 0, "fan_points": 8, "flowers": 9}, "9 flowers"),
    ],
)  # fmt: skip
def test_bad_hands_are_refused_and_change_nothing(
    store: Store, db_url: str, kwargs: dict[str, object], message: str
) -> None:
    store.record_hand(T, 1, 1, 0, winner=0, discarder=1, fan_points=8)
    before = _dump(db_url)
    with pytest.raises(StoreError, match=message) as info:
        store.record_hand(T, 1, 1, 1, **kwargs)  # type: ignore[arg-type]
    assert "'club night' session 1 table 1 hand 2" in str(info.value)  # hands count 1-16
    assert _dump(db_url) == before


def test_hand_lookups_are_refused(store: Store, db_url: str) -> None:
    store.record_hand(T, 1, 1, 0, winner=0, discarder=1, fan_points=8)
    before = _dump(db_url)
    with pytest.raises(StoreError, match="session 1 table 1 hand 1 is already recorded"):
        store.record_hand(T, 1, 1, 0, winner=2, fan_points=8)
    with pytest.raises(StoreError, match="session 3 has no table 1"):
        store.record_hand(T, 3, 1, 0, winner=2, fan_points=8)
    with pytest.raises(StoreError, match="hand 17: a session has hands 1-16"):
        store.record_hand(T, 1, 1, 16, winner=2, fan_points=8)
    with pytest.raises(StoreError, match="hands are already recorded"):
        store.record_session_totals(T, 1, 1, {"A": 500, "B": 500, "C": 500, "D": 500})
    assert _dump(db_url) == before


def test_false_win_is_recorded_as_a_penalty(store: Store) -> None:
    """第十四条六(一): a claimed win below 8 points is 错和: 10 to each other player."""
    false_win = (Penalty(2, PenaltyKind.FALSE_WIN, 10),)
    assert store.record_hand(T, 1, 1, 0, winner=None, penalties=false_win) == (10, 10, -30, 10)


# -- session totals ------------------------------------------------------------------------------


def test_totals_sum_check_and_entered_twice(store: Store, db_url: str) -> None:
    before = _dump(db_url)
    with pytest.raises(StoreError, match="session 1 table 2: the scores sum to 2001, not 2000"):
        store.record_session_totals(T, 1, 2, {"E": 600, "F": 500, "G": 450, "H": 451})
    with pytest.raises(StoreError, match=r"scores given for \['A'\], who are not seated here"):
        store.record_session_totals(T, 1, 2, {"E": 600, "F": 500, "G": 450, "A": 450})
    with pytest.raises(StoreError, match=r"session 1 table 2: no score for \['H'\]"):
        store.record_session_totals(T, 1, 2, {"E": 600, "F": 950, "G": 450})
    with pytest.raises(StoreError, match="sum to 2000, not 1990"):
        store.record_session_totals(
            T, 1, 2, {"E": 600, "F": 500, "G": 450, "H": 450}, deductions={"F": 10}
        )
    assert _dump(db_url) == before
    scores = {"E": 600, "F": 490, "G": 450, "H": 450}
    store.record_session_totals(T, 1, 2, scores, deductions={"F": 10}, note="late")
    assert store.table_scores(T, 1, 2) == scores
    after = _dump(db_url)
    with pytest.raises(StoreError, match="session 1 table 2: the session totals are already"):
        store.record_session_totals(T, 1, 2, scores, deductions={"F": 10})
    with pytest.raises(StoreError, match="session totals of this table are already entered"):
        store.record_hand(T, 1, 2, 0, winner=0, fan_points=8)
    assert _dump(db_url) == after


def test_deduction_at_a_table_entered_by_hands(store: Store) -> None:
    store.record_hand(T, 1, 1, 0, winner=0, fan_points=8)
    store.deduct(T, 1, 1, "B", 10, note="15 minutes late")
    assert store.table_scores(T, 1, 1) == {"A": 548, "B": 474, "C": 484, "D": 484}


# -- corrections ---------------------------------------------------------------------------------


def test_correction_leaves_an_audit_entry(store: Store, db_url: str) -> None:
    store.record_hand(T, 1, 1, 0, winner=0, discarder=1, fan_points=8)
    before = _dump(db_url)
    with pytest.raises(StoreError, match="hand 4 is not recorded"):
        store.correct_hand(T, 1, 1, 3, who="referee", winner=0, fan_points=8)
    with pytest.raises(StoreError, match="below the 8-point minimum"):
        store.correct_hand(T, 1, 1, 0, who="referee", winner=0, fan_points=6)
    assert _dump(db_url) == before
    deltas = store.correct_hand(
        T, 1, 1, 0, who="referee", winner=0, discarder=2, fan_points=16, note="sheet misread"
    )
    assert deltas == settle(HandOutcome(0, 2, 16))
    (entry,) = store.audit(T)
    assert (
        entry.who == "referee" and entry.entity == "hand_record" and entry.note == "sheet misread"
    )
    assert entry.old["discarder"] == 1 and entry.old["deltas"] == list(settle(HandOutcome(0, 1, 8)))
    assert entry.new["discarder"] == 2 and entry.new["fan_points"] == 16
    at = entry.at if entry.at.tzinfo else entry.at.replace(tzinfo=UTC)  # SQLite drops the zone
    assert abs(datetime.now(UTC) - at) < timedelta(minutes=5)  # stored in UTC
    assert store.table_scores(T, 1, 1) == {"A": 540, "B": 492, "C": 476, "D": 492}


def test_totals_correction_leaves_an_audit_entry(store: Store, db_url: str) -> None:
    with pytest.raises(StoreError, match="no session totals entered: nothing to correct"):
        store.correct_session_totals(T, 1, 2, SCORES, who="referee")
    store.record_session_totals(
        T, 1, 2, {"E": 600, "F": 490, "G": 450, "H": 450}, deductions={"F": 10}
    )
    before = _dump(db_url)
    # without deductions= the table's deductions stay: the 局分 still sum to 1990
    with pytest.raises(StoreError, match=r"sum to 2000, not 1990 .*after its deduction \(F 10\)"):
        store.correct_session_totals(T, 1, 2, SCORES, who="referee")
    # deductions={} drops them: the 局分 then sum to 2000
    with pytest.raises(StoreError, match="sum to 1990, not 2000"):
        store.correct_session_totals(T, 1, 2, {**SCORES, "F": 490}, who="referee", deductions={})
    assert _dump(db_url) == before
    store.correct_session_totals(T, 1, 2, SCORES, who="referee", deductions={}, note="no lateness")
    assert store.table_scores(T, 1, 2) == SCORES
    (entry,) = store.audit(T)
    assert entry.entity == "table" and entry.who == "referee"
    assert entry.old == {
        "scores": {"E": 600, "F": 490, "G": 450, "H": 450},
        "deductions": {"F": 10},
    }
    assert entry.new == {"scores": SCORES, "deductions": {}}


# -- crash safety and concurrency ----------------------------------------------------------------

SCORES = {"E": 600, "F": 500, "G": 450, "H": 450}


def _child_write(url: str, ready: object, sleep: float, out: object, start: object) -> None:
    store = open_store(url)
    if start is not None:
        start.wait(30)  # type: ignore[attr-defined]  # both writers go at once

    def hook(_what: str) -> None:
        ready.set()  # type: ignore[attr-defined]
        time.sleep(sleep)

    store.write_hook = hook
    try:
        store.record_session_totals(T, 1, 2, SCORES, deductions=None)
        out.put("ok")  # type: ignore[attr-defined]
    except StoreError as error:
        out.put(f"refused: {error}")  # type: ignore[attr-defined]


def test_kill_mid_write_leaves_nothing_half_written(store: Store, db_url: str) -> None:
    store.close()
    ctx = multiprocessing.get_context("fork")
    ready, out = ctx.Event(), ctx.Queue()
    child = ctx.Process(target=_child_write, args=(db_url, ready, 60.0, out, None))
    child.start()
    assert ready.wait(30), "the child never reached the middle of its write"
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)
    child.join()
    if _is_sqlite(db_url):
        with sqlite3.connect(make_url(db_url).database or "") as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert _count_results(db_url) == 0
    reopened = open_store(db_url)
    assert reopened.table_scores(T, 1, 2) is None
    # the same write, not killed, is complete: all four rows
    reopened.record_session_totals(T, 1, 2, SCORES)
    assert _count_results(db_url) == 4
    reopened.close()


def test_two_writers_one_wins_cleanly(store: Store, db_url: str) -> None:
    store.close()
    ctx = multiprocessing.get_context("fork")
    out, start = ctx.Queue(), ctx.Barrier(2)
    children = []
    for _ in range(2):
        ready = ctx.Event()
        child = ctx.Process(target=_child_write, args=(db_url, ready, 0.5, out, start))
        children.append(child)
    for child in children:
        child.start()
    results = sorted(out.get(timeout=60) for _ in children)
    for child in children:
        child.join(30)
        assert child.exitcode == 0
    assert results[0] == "ok"
    assert results[1].startswith("refused: ")
    # SQLite's BEGIN IMMEDIATE and PostgreSQL's row lock on the table (SELECT ... FOR UPDATE)
    # both queue the writers: the second sees the first's rows and is refused by name.
    assert "session totals are already entered" in results[1]
    assert _count_results(db_url) == 4
    reopened = open_store(db_url)
    assert reopened.table_scores(T, 1, 2) == SCORES
    reopened.close()


def test_unique_constraint_guards_a_second_entry(store: Store) -> None:
    """Even past the check (PostgreSQL's READ COMMITTED lets two writers both pass it), the
    unique constraint refuses the second table entry, as a StoreError."""
    from guobiao.tournament.models import GameTable, SessionResult

    store.record_session_totals(T, 1, 2, SCORES)
    with OrmSession(store.engine) as db:
        table = db.query(GameTable).filter_by(number=2).first()
        assert table is not None
        player = table.seats[0].player_id
    with pytest.raises(StoreError, match="conflicts with stored data"), store._write("dup") as db:
        db.add(SessionResult(table_id=table.id, player_id=player, score=500))


# -- rankings ------------------------------------------------------------------------------------


def test_table_results_feed_the_ranking(store: Store) -> None:
    sheets = {
        (1, 1): {"A": 620, "B": 480, "C": 480, "D": 420},
        (1, 2): {"E": 700, "F": 500, "G": 450, "H": 350},
        (2, 1): {"A": 300, "E": 650, "B": 540, "F": 510},
        (2, 2): {"C": 560, "G": 520, "D": 480, "H": 440},
    }
    for (session, table), scores in sheets.items():
        store.record_session_totals(T, session, table, scores)
    # independently: a table gives 4, 2, 1, 0; a tie shares the places' points
    points: dict[str, Fraction] = defaultdict(Fraction)
    match: dict[str, int] = defaultdict(int)
    for scores in sheets.values():
        for name, score in scores.items():
            places = [i for i, s in enumerate(sorted(scores.values(), reverse=True)) if s == score]
            points[name] += Fraction(sum((4, 2, 1, 0)[i] for i in places), len(places))
            match[name] += score
    expected = sorted(NAMES, key=lambda n: (-points[n], -match[n]))
    standings = individual_ranking(store.table_results(T))
    assert [s.name for s in standings] == expected
    assert {s.name: s.standard_points for s in standings} == points
    assert points["B"] == Fraction(3, 2) + 2 and expected[0] == "E"
