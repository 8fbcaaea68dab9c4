"""An organiser's audit: the team captain (队长) is set from the players CSV (`captain` column,
yes/true/1), as `Store.add_team(..., leader=NAME)` sets it; bad values, a captain without a team
and two captains of a team are refused with a message (no traceback) and nothing registered."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main
from guobiao.tournament.reports import results_table_html
from guobiao.tournament.store import PlayerRow, StoreError, open_store

T = "club"


class _Cli:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.db = tmp_path / "t.db"
        self.url = f"sqlite:///{self.db}"

    def __call__(self, *args: str) -> Result:
        return CliRunner().invoke(main, ["tournament", *args, "--db", self.url])

    def players(self, *lines: str, header: str = "number,name,team,captain") -> Result:
        path = self.tmp / "p.csv"
        path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
        return self("players", T, str(path))

    def leaders(self) -> dict[str, str | None]:
        """Each team's leader, read with plain SQL."""
        with sqlite3.connect(self.db) as con:
            return dict(con.execute("SELECT name, leader FROM teams ORDER BY name").fetchall())

    def registered(self) -> list[str]:
        with sqlite3.connect(self.db) as con:
            return [n for (n,) in con.execute("SELECT name FROM players ORDER BY number")]


@pytest.fixture
def cli(tmp_path: Path) -> _Cli:
    c = _Cli(tmp_path)
    assert c("create", T, "--sessions", "1").exit_code == 0
    return c


def test_captain_column_sets_the_team_leader(cli: _Cli) -> None:
    result = cli.players(
        "1,Ann,Red,yes",
        "2,Bob,Red,",
        "3,Cat,Blue,no",
        "4,Dan,Blue,1",
        "5,Eve,Gold,TRUE",
        "6,Fay,,",
    )
    assert result.exit_code == 0, result.output
    assert cli.leaders() == {"Blue": "Dan", "Gold": "Eve", "Red": "Ann"}
    # the results table's team ranking marks the captain (队长)
    store = open_store(cli.url)
    try:
        page = results_table_html(store, T)
    finally:
        store.close()
    assert "Ann (队长)" in page and "Dan (队长)" in page and "Bob (队长)" not in page


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (("1,Ann,Red,maybe",), "line 2: captain 'maybe' is not yes/no"),
        (("1,Ann,Red,", "2,Bob,Red,2"), "line 3: captain '2' is not yes/no"),
        (("1,Ann,,yes",), "line 2: a captain (队长) leads a team: give the team"),
        (
            ("1,Ann,Red,yes", "2,Bob,Blue,", "3,Cat,Red,yes"),
            "line 4: team 'Red' has its captain on line 2 already",
        ),
    ],
)
def test_bad_captain_values_are_refused(cli: _Cli, lines: tuple[str, ...], message: str) -> None:
    result = cli.players(*lines)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, KeyError)
    assert cli.registered() == [] and cli.leaders() == {}  # nothing registered, no team made


def test_a_second_captain_for_a_team_already_led_is_refused(cli: _Cli) -> None:
    assert cli.players("1,Ann,Red,yes", "2,Bob,Red,").exit_code == 0
    result = cli.players("3,Cat,Red,yes", "4,Dan,Blue,yes")
    assert result.exit_code == 1
    assert "team 'Red' already has a captain, 'Ann': 'Cat' cannot be one too" in result.output
    assert cli.registered() == ["Ann", "Bob"]  # all or nothing: Dan's Blue not made either
    assert cli.leaders() == {"Red": "Ann"}


def test_captain_aliases_and_substitute_captain(cli: _Cli) -> None:
    # 队长 as the header; a team's substitute (替补) may be its captain too
    result = cli.players(
        "1,Ann,Red,,", "2,Sub,Red,yes,是", header="number,name,team,substitute,队长"
    )
    assert result.exit_code == 0, result.output
    assert cli.leaders() == {"Red": "Sub"}


def test_store_add_players_sets_the_captain(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 's.db'}")
    try:
        store.create_tournament(T, sessions=1)
        store.add_team(T, "Red")
        store.add_players(
            T,
            [
                PlayerRow(1, "Ann", "Red"),
                {"number": 2, "name": "Bob", "team": "Red", "captain": "yes"},
            ],
        )
        with pytest.raises(StoreError, match="player row 1: captain 'maybe' is not yes/no"):
            store.add_players(T, [{"number": 3, "name": "Cat", "team": "Red", "captain": "maybe"}])
        with pytest.raises(StoreError, match="a captain needs a team"):
            store.add_players(T, [PlayerRow(3, "Cat", captain=True)])
        assert store.add_players(T, [PlayerRow(3, "Cat")]) == 1  # the refusal changed nothing
    finally:
        store.close()
    with sqlite3.connect(tmp_path / "s.db") as con:
        assert con.execute("SELECT leader FROM teams").fetchall() == [("Bob",)]
