"""Attendance in the store (第十二条, 第十三条二(一)): byes from the draw, whole-session
substitutes (陪打: counted for the table, not ranked), absences and forfeits (局分 0, ranked),
warnings on the sheet, a lateness deduction before the totals, the penalty list, and an upgrade of
a database written by the first schema. Every test runs on SQLite and PostgreSQL (the ``db_url``
fixture of tests/conftest.py, with the tournament of tests/test_store.py)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from guobiao.table.settlement import Penalty, PenaltyKind
from guobiao.tournament.ranking import individual_ranking, player_histories
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import PlayerRow, Store, StoreError, alembic_config, open_store
from test_store import SCORES, T, _dump, _setup


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    _setup(s)
    yield s
    s.close()


def test_byes_of_the_draw_are_stored(store: Store) -> None:
    store.create_tournament("odd", sessions=1)
    store.add_players("odd", [PlayerRow(i, n) for i, n in enumerate("ABCDE", 1)])
    store.save_schedule(
        "odd",
        Schedule("ABCDE", (SessionSeating(1, (Table(1, ("A", "B", "C", "D")),), ("E",)),), "m"),
    )
    assert store.absences("odd") == [(1, "E", "bye", None)]
    store.record_session_totals("odd", 1, 1, {"A": 600, "B": 500, "C": 500, "D": 400})
    history = player_histories(store.table_results("odd"))["E"]
    assert [(line.absent, line.score, line.standard_points) for line in history.lines] == [
        (True, None, None)
    ]
    assert [s.name for s in individual_ranking(store.table_results("odd"))] == list("ABCD")


def test_a_substitute_counts_for_the_table_but_is_not_ranked(store: Store, db_url: str) -> None:
    store.add_players(T, [PlayerRow(9, "S", "red", substitute=True)])
    # S, red's reserve, sits with A, also red: allowed here (tests/test_tournament_substitutes.py)
    assert store.substitute(T, 1, "B", "S", who="referee", note="ill", allow_team_mate=True) == 1
    assert store.absences(T) == [(1, "B", "absent", "ill")]
    # the substitute now sits in B's seat: scores are entered for S
    with pytest.raises(StoreError, match=r"scores given for \['B'\], who are not seated here"):
        store.record_session_totals(T, 1, 1, {"A": 400, "B": 700, "C": 500, "D": 400})
    store.record_session_totals(T, 1, 1, {"A": 400, "S": 700, "C": 500, "D": 400})
    results = {(r.session, r.table): r for r in store.table_results(T)}
    entries = {e.player: e for e in results[(1, 1)].entries}
    assert entries["S"].substitute and entries["S"].seat == 1
    assert results[(1, 0)].entries[0].player == "B" and results[(1, 0)].entries[0].absent
    ranking = {s.name: s.standard_points for s in individual_ranking(store.table_results(T))}
    # docs/rules.md §19: the substitute takes no place; the three ranked players share the
    # table's 4, 2, 1, 0 among themselves: C first, A and D tied for 2nd-3rd: (2 + 1) / 2.
    assert ranking == {"C": 4, "A": Fraction(3, 2), "D": Fraction(3, 2)}
    entry = store.audit(T)[-1]
    assert (entry.who, entry.entity, entry.new) == (
        "referee",
        "seat_assignment",
        {"player": "S", "replaces": "B", "kind": "absent"},
    )
    before = _dump(db_url)
    with pytest.raises(StoreError, match="results are already entered; too late"):
        store.substitute(T, 1, "A", "B", who="referee")  # B, replaced, sits out session 1
    assert _dump(db_url) == before


def test_a_forfeit_scores_zero_and_is_ranked(store: Store) -> None:
    """第十三条二(一): more than 15 minutes late: 自动弃权, 局分 0; the substitute plays the seat."""
    store.add_players(T, [PlayerRow(9, "S", "red", substitute=True)])
    store.substitute(
        T, 1, "D", "S", who="referee", forfeit=True, note="20 minutes late", allow_team_mate=True
    )
    store.record_session_totals(T, 1, 1, {"A": 620, "B": 480, "C": 480, "S": 420})
    table = next(r for r in store.table_results(T) if (r.session, r.table) == (1, 1))
    assert {(e.player, e.score, e.ranked) for e in table.entries} == {
        ("A", 620, True),
        ("B", 480, True),
        ("C", 480, True),
        ("S", 420, False),
        ("D", 0, True),
    }
    points = {s.name: s.standard_points for s in individual_ranking(store.table_results(T))}
    assert points == {"A": 4, "B": Fraction(3, 2), "C": Fraction(3, 2), "D": 0}
    lines = [x for x in store.penalty_list(T) if x.kind == "forfeit"]
    assert [(x.session, x.table, x.player, x.note) for x in lines] == [
        (1, 1, "D", "20 minutes late")
    ]


@pytest.mark.parametrize(
    ("player", "by", "message"),
    [
        ("A", "A", "cannot replace themself"),
        ("A", "Z", "no player 'Z'"),
        ("A", "E", "'E' already plays in session 1 \\(table 2\\)"),
    ],
)
def test_bad_substitutions_change_nothing(
    store: Store, db_url: str, player: str, by: str, message: str
) -> None:
    before = _dump(db_url)
    with pytest.raises(StoreError, match=message):
        store.substitute(T, 1, player, by, who="referee")
    with pytest.raises(StoreError, match="needs the name of who"):
        store.substitute(T, 1, "A", "E", who=" ")
    assert _dump(db_url) == before


def test_warnings_are_kept_with_the_hand(store: Store) -> None:
    store.record_hand(T, 1, 1, 0, winner=0, discarder=1, fan_points=8, warnings=("S", 3))
    assert [(p.seat, p.kind, p.amount) for p in store.hands(T, 1, 1)[0].penalties] == [
        (1, "WARNING", 0),
        (3, "WARNING", 0),
    ]
    assert store.table_scores(T, 1, 1) == {"A": 532, "B": 484, "C": 492, "D": 492}  # no points
    with pytest.raises(StoreError, match="seat S is warned twice"):
        store.record_hand(T, 1, 1, 1, winner=None, warnings=(1, "S"))


def test_a_lateness_deduction_before_the_totals(store: Store, db_url: str) -> None:
    """第十三条二(一): 10 minutes late, 10 points deducted; the sheet then sums to 1990."""
    store.deduct(T, 1, 2, "F", 10, kind="late", note="8 minutes")
    before = _dump(db_url)
    with pytest.raises(StoreError, match="sum to 2000, not 1990 \\(4 × 500 less 10 deducted\\)"):
        store.record_session_totals(T, 1, 2, SCORES)
    assert _dump(db_url) == before
    store.record_session_totals(T, 1, 2, {**SCORES, "F": SCORES["F"] - 10})
    assert store.table_scores(T, 1, 2) == {**SCORES, "F": SCORES["F"] - 10}


def test_the_penalty_list(store: Store) -> None:
    store.record_hand(
        T,
        1,
        1,
        4,  # second round: the seats have rotated (第五条九)
        winner=None,
        penalties=(
            Penalty(0, PenaltyKind.FALSE_WIN, 10),
            Penalty(2, PenaltyKind.VIOLATION, 5, payee=3),
        ),
        warnings=(1,),
    )
    store.deduct(T, 1, 1, "C", 20, kind="late")
    got = [(x.hand, x.player, x.kind, x.amount, x.payee) for x in store.penalty_list(T)]
    # hand 4 (the 5th): B sits East, A South, D West, C North
    assert got == [
        (None, "C", "late", 20, None),
        (4, "A", "WARNING", 0, None),
        (4, "B", "FALSE_WIN", 10, None),
        (4, "D", "VIOLATION", 5, "C"),
    ]


def test_a_first_schema_database_upgrades_with_its_data(db_url: str) -> None:
    config = alembic_config(db_url)
    command.upgrade(config, "0001")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO tournaments (id, name, group_size, sessions_planned, rules_profile,"
                " starting_points, created_at) VALUES (1, 'old', NULL, 1, 'mcr1998', 500,"
                " '2026-11-01 10:00:00')"
            )
        )
        for i, name in enumerate("ABCD", 1):
            conn.execute(
                text(
                    "INSERT INTO players (tournament_id, number, name, substitute)"
                    " VALUES (1, :n, :name, false)"
                ),
                {"n": i, "name": name},
            )
    engine.dispose()
    store = open_store(db_url)
    try:
        store.save_schedule(
            "old", Schedule("ABCD", (SessionSeating(1, (Table(1, ("A", "B", "C", "D")),)),), "m")
        )
        store.record_session_totals("old", 1, 1, {"A": 600, "B": 500, "C": 500, "D": 400})
        assert [s.name for s in individual_ranking(store.table_results("old"))] == list("ABCD")
    finally:
        store.close()
