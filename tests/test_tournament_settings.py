"""Readings as settings (issue 13, point 1): how a table with a 陪打 is ranked, what a forfeit
earns, whether a team's 替补 earns for the team, how a bye scores. Each setting is chosen at
``create``, stored (migration 0006), applied by the ranking and printed on the papers; the
defaults are the readings of earlier versions (docs/rules.md §19). The expected standard points
are worked out here from 第十条二(二), independently of the package. SQLite and PostgreSQL
(``db_url``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction

import pytest
from alembic import command
from click.testing import CliRunner
from sqlalchemy import create_engine, inspect, text

from guobiao.cli import main
from guobiao.table.glossary import TERMS
from guobiao.tournament.ranking import Readings, individual_ranking, player_histories, team_ranking
from guobiao.tournament.reports import (
    highlights_html,
    results_table_html,
    score_sheet_html,
)
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import PlayerRow, Store, StoreError, alembic_config, open_store
from test_reports import Cells

T = "readings"
COLUMNS = ("substitute_table", "forfeit_points", "team_substitute", "bye_points")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    yield s
    s.close()


def _points(scores: Mapping[str, int], size: int = 4) -> dict[str, Fraction]:
    """第十条二(二) in a group of ``size`` places: 1st gets ``size``, place r gets size - r; the
    players take the first places by score, a tie sharing the points of the places it covers."""
    by_place = [Fraction(size)] + [Fraction(size - r) for r in range(2, size + 1)]
    out = {}
    for name, score in scores.items():
        above = sum(s > score for s in scores.values())
        same = sum(s == score for s in scores.values())
        out[name] = sum(by_place[above : above + same], Fraction(0)) / same
    return out


# One session, three tables and a bye:
#   table 1: X, a 陪打 (no team), plays A's seat;
#   table 2: R, team red's 替补, plays E's seat (E absent);
#   table 3: Z plays I's seat, I forfeits (局分 0, 第十三条二(一)); L ends below 0;
#   Y has the bye.
TABLE1 = {"X": 600, "B": 550, "C": 450, "D": 400}
TABLE2 = {"R": 700, "F": 500, "G": 450, "H": 350}
TABLE3 = {"Z": 1100, "J": 600, "K": 400, "L": -100}
TEAMS = {"red": ["A", "E", "R"], "blue": ["B", "F"]}


def _event(store: Store, readings: Readings | None = None) -> None:
    store.create_tournament(T, sessions=1, readings=readings)
    for team in TEAMS:
        store.add_team(T, team)
    team_of = {p: team for team, members in TEAMS.items() for p in members}
    names = "ABCDEFGHIJKLXYZ"
    store.add_players(
        T,
        [PlayerRow(i, n, team_of.get(n)) for i, n in enumerate(names, 1)]
        + [PlayerRow(16, "R", "red", substitute=True)],
    )
    tables = (Table(1, tuple("ABCD")), Table(2, tuple("EFGH")), Table(3, tuple("IJKL")))
    seating = SessionSeating(1, tables, ("X", "Y", "Z"))  # type: ignore[arg-type]
    store.save_schedule(T, Schedule(tuple(names), (seating,), "m"))
    store.substitute(T, 1, "A", "X", who="referee")
    store.substitute(T, 1, "E", "R", who="referee")
    store.substitute(T, 1, "I", "Z", who="referee", forfeit=True)
    for number, scores in enumerate((TABLE1, TABLE2, TABLE3), 1):
        store.record_session_totals(T, 1, number, scores)


def _standard(store: Store) -> dict[str, Fraction]:
    return {
        p: h.standard_points
        for p, h in player_histories(store.table_results(T)).items()
        if h.ranked_lines
    }


def _without(scores: Mapping[str, int], *names: str) -> dict[str, int]:
    return {n: s for n, s in scores.items() if n not in names}


DEFAULT = {
    **_points(_without(TABLE1, "X")),  # the three ranked take 4/2/1
    **_points(_without(TABLE2, "R")),
    **_points({**_without(TABLE3, "Z"), "I": 0}),  # the forfeit ranked by its 0
}


def test_the_defaults_are_the_earlier_readings(store: Store) -> None:
    _event(store)
    assert store.settings(T).readings == Readings("three", "score", "not", "none")
    assert Readings().is_default
    assert _standard(store) == DEFAULT
    assert DEFAULT["I"] == 1 and DEFAULT["L"] == 0  # L's -100 is below the forfeit's 0
    ranked = {s.name for s in individual_ranking(store.table_results(T))}
    assert ranked == set("BCDFGHIJKL")  # X, R, Z substituted; Y had the bye
    teams = {s.name: s.standard_points for s in team_ranking(store.table_results(T), TEAMS)}
    assert teams == {"red": 0, "blue": DEFAULT["B"] + DEFAULT["F"]}


def test_substitute_table_four_ranks_the_stand_in_and_withholds_the_share(store: Store) -> None:
    _event(store, Readings(substitute_table="four"))
    four1 = _points(TABLE1)  # all four by score, X's share (4) given to nobody
    four2 = _points(TABLE2)
    expected = dict(DEFAULT)
    expected |= {n: p for n, p in four1.items() if n != "X"}
    expected |= {n: p for n, p in four2.items() if n != "R"}
    # table 3: the forfeit holds the seat Z plays, so Z is not ranked there either way
    assert _standard(store) == expected
    assert (expected["B"], expected["C"], expected["D"]) == (2, 1, 0)
    assert sum(expected[n] for n in "BCD") == 3  # of the table's 7, the 陪打's 4 is withheld


def test_forfeit_last_takes_the_last_place_outright(store: Store) -> None:
    _event(store, Readings(forfeit="last"))
    expected = dict(DEFAULT) | _points(_without(TABLE3, "Z")) | {"I": Fraction(0)}
    assert _standard(store) == expected
    assert (expected["I"], expected["L"]) == (0, 1)  # L at -100 is above the forfeit now


def test_team_substitute_counts_for_the_team_and_takes_no_place(store: Store) -> None:
    _event(store, Readings(team_substitute="counts"))
    counted = _points(TABLE2)  # R ranked as E would have been
    expected = dict(DEFAULT) | counted
    assert _standard(store) == expected
    results = store.table_results(T)
    assert "R" not in {s.name for s in individual_ranking(results)}
    teams = {s.name: s.standard_points for s in team_ranking(results, TEAMS)}
    assert teams == {"red": counted["R"], "blue": expected["B"] + expected["F"]}
    assert teams["red"] == 4
    # X is a 陪打 of no team: still nothing
    assert "X" not in _standard(store)


def test_bye_average_gives_the_mean_of_the_places(store: Store) -> None:
    _event(store, Readings(bye="average"))
    mean = sum(_points({"a": 4, "b": 3, "c": 2, "d": 1}).values(), Fraction(0)) / 4
    assert mean == Fraction(7, 4)
    assert _standard(store) == DEFAULT | {"Y": mean}
    standing = {s.name: s for s in individual_ranking(store.table_results(T))}
    assert standing["Y"].standard_points == Fraction(7, 4) and standing["Y"].match_points == 0
    # the absent (A, E) and the forfeit's substitute get nothing: only a bye is a bye
    assert not {"A", "E", "X", "Z"} & set(_standard(store))


def test_a_reading_outside_the_choices_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="bye points 'all'"):
        Readings(bye="all")
    _event(store)
    with pytest.raises(StoreError):
        store.create_tournament(T, sessions=1)  # the name is taken: the readings stay as stored
    assert store.settings(T).readings == Readings()


@pytest.mark.parametrize(
    ("readings", "shown"),
    [
        (
            Readings(),
            ("substitute_table_three", "forfeit_score", "team_substitute_not", "bye_none"),
        ),
        (
            Readings("four", "last", "counts", "average"),
            ("substitute_table_four", "forfeit_last", "team_substitute_counts", "bye_average"),
        ),
    ],
)
def test_the_readings_are_on_every_paper(
    store: Store, readings: Readings, shown: tuple[str, ...]
) -> None:
    _event(store, readings)
    papers = (
        score_sheet_html(store, T, 1, 1),
        results_table_html(store, T),
        highlights_html(store, T),
    )
    for page in papers:
        assert page.count('data-col="readings"') == 1
        line = page.split('data-col="readings">', 1)[1].split("</p>", 1)[0]
        for key in ("readings", *shown):
            assert TERMS[key].zh in line and TERMS[key].en in line


def test_the_score_sheet_places_follow_the_readings(store: Store) -> None:
    """The 名次 row agrees with the 标准分 row: under "four" B, C, D are 2, 3, 4 behind X (who
    keeps the 陪打 mark); under "counts" R is 1st at table 2."""
    _event(store, Readings(substitute_table="four", team_substitute="counts"))
    sheet1 = Cells(score_sheet_html(store, T, 1, 1))
    ranks = {n: sheet1.one(player=n, col="rank").text for n in TABLE1}
    assert ranks.pop("X").startswith(TERMS["stand_in"].zh)
    assert ranks == {"B": "2", "C": "3", "D": "4"}
    sheet2 = Cells(score_sheet_html(store, T, 1, 2))
    assert {n: sheet2.one(player=n, col="rank").text for n in TABLE2} == {
        "R": "1",
        "F": "2",
        "G": "3",
        "H": "4",
    }
    assert sheet2.one(player="R", col="standard").text == "4"


def test_create_takes_the_readings(db_url: str) -> None:
    args = ["tournament", "create", T, "--sessions", "2", "--db", db_url]
    options = ["--substitute-table", "four", "--forfeit-points", "last"]
    options += ["--team-substitute", "counts", "--bye-points", "average"]
    result = CliRunner().invoke(main, args + options)
    assert result.exit_code == 0, result.output
    assert TERMS["substitute_table_four"].zh in result.output
    plain = CliRunner().invoke(
        main, ["tournament", "create", "plain", "--sessions", "1", "--db", db_url]
    )
    assert plain.exit_code == 0 and TERMS["readings"].zh not in plain.output
    bad = CliRunner().invoke(main, [*args[:5], "--bye-points", "all", "--db", db_url])
    assert bad.exit_code != 0
    store = open_store(db_url)
    try:
        assert store.settings(T).readings == Readings("four", "last", "counts", "average")
        assert store.settings("plain").readings == Readings()
    finally:
        store.close()


def test_the_migration_upgrades_from_0005_and_downgrades(db_url: str) -> None:
    config = alembic_config(db_url)
    command.upgrade(config, "0005_withdrawals")
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
        command.upgrade(config, "0006_readings")
        with engine.connect() as conn:
            row = conn.execute(text(f"SELECT {', '.join(COLUMNS)} FROM tournaments")).one()
        assert tuple(row) == ("three", "score", "not", "none")  # the earlier readings
        store = open_store(db_url)
        try:
            assert store.settings("old").readings == Readings()
        finally:
            store.close()
        command.downgrade(config, "0005_withdrawals")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("tournaments")}
            assert not columns & set(COLUMNS)
            assert "withdrawn_results" in columns
            assert conn.execute(text("SELECT name FROM tournaments")).scalar() == "old"
    finally:
        engine.dispose()
