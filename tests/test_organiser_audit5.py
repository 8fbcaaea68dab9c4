"""The organiser's day, fifth audit (a demanding organiser and referee, end to end: register,
draw, post the seating, enter and correct, export, restart the server): what they would not
accept, each fixed here.

- Registration: a registration number too large for the database ended in a traceback (an
  OverflowError from SQLite; PostgreSQL's integer is 32 bits); a name with a line break, a tab or
  an escape code, or of any length, was registered (a PostgreSQL column holds 200: a traceback
  there); a team spelt two ways ("Red", "red") became two teams, one of a single player; a
  tournament's name was kept with a trailing space and could be registered again in another
  case ("Spring Open", "spring open": nobody could tell which the web list meant), and a name
  with a slash had web pages that answered 404.
- The seating posted in the hall (terminal, HTML, the web page and its JSON) did not name the
  players with a bye (轮空, 第十二条一): they looked for their name at every table.
- The web pages counted a table entered hand by hand as done from its first hand: "1 / 4
  sessions complete", and the projector and the referee page moved on to the next session while
  a table was still playing.
- The standings CSV wrote half points as ``1/2`` and ``11/2``, which a spreadsheet reads as the
  2nd of January and the 2nd of November.
- An old link to a score sheet of a table that does not exist answered JSON, not a page.
- After a restart of ``guobiao serve`` the data version counted from 1 again, below the one every
  open page had seen: those pages showed no new result until as many changes had been made again.

The pages in Chromium: tests/test_organiser_audit5_browser.py.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from click.testing import Result
from fastapi.testclient import TestClient

from guobiao.server.app import create_app
from guobiao.server.tournament import Watcher
from guobiao.tournament.queries import read_info
from guobiao.tournament.reports import seating_html
from guobiao.tournament.store import PlayerRow, StoreError, open_store
from tournament_cli import TournamentCli

T = "Spring Open"
TEAMS = ("Dragons", "Winds", "Bamboo", "Dots")
# 18 players: 4 teams of 4 and two in no team, so two byes (轮空) every session
NAMES = (*(f"{team[:3]}{i + 1}" for team in TEAMS for i in range(4)), "Solo1", "Solo2")


def cli(url: str, *args: str) -> Result:
    return TournamentCli(url)(*args)


def ok(url: str, *args: str) -> str:
    return TournamentCli(url).ok(*args)


def refused(url: str, *args: str) -> str:
    """The command's refusal: a clean ``error:`` line and exit 1 or 2, never a traceback."""
    result = cli(url, *args)
    assert result.exit_code in (1, 2), (args, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.output


def write_players(path: Path, rows: list[str]) -> Path:
    path.write_text("number,name,team\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def event(tmp_path: Path) -> dict[str, Any]:
    """18 players (two byes a session), 3 sessions drawn. Session 1: table 1 entered by its
    totals, table 2 three hands in (still playing), the others not yet."""
    url = f"sqlite:///{tmp_path / 'open.db'}"
    rows = [f"{i + 1},{name},{TEAMS[i // 4] if i < 16 else ''}" for i, name in enumerate(NAMES)]
    ok(url, "create", T, "--sessions", "3")
    ok(url, "players", T, str(write_players(tmp_path / "players.csv", rows)))
    ok(url, "draw", T, "--seed", "3")
    ok(url, "totals", T, "--session", "1", "--table", "1", "620", "480", "510", "390")
    for hand in ("1", "2", "3"):
        ok(url, "hand", T, "--session", "1", "--table", "2", "--hand", hand,
           "--winner", "E", "--from", "S", "--fan", "8")  # fmt: skip
    store = open_store(url)
    try:
        byes = list(store.seatings(T)[0].byes)  # who sits out session 1
    finally:
        store.close()
    return {"url": url, "byes": byes}


@pytest.fixture
def spring(tmp_path: Path) -> dict[str, Any]:
    return event(tmp_path)


# -- registration: bad input is refused with a line, never a traceback --------------------------


def test_a_registration_number_too_large_is_refused_by_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'n.db'}"
    ok(url, "create", T, "--sessions", "2")
    out = refused(url, "players", T, str(write_players(tmp_path / "p.csv", [
        "1,Ann,", "99999999999999999999,Bob,"])))  # fmt: skip
    assert "line 3" in out and "99999999999999999999" in out
    # the store too (the Python API), before the database is asked
    store = open_store(url)
    try:
        with pytest.raises(StoreError, match="not from 1 to"):
            store.add_players(T, [PlayerRow(3_000_000_000, "Cy")])
        assert store.table_results(T) == []
    finally:
        store.close()
    assert "Ann" not in ok(url, "standings", T)  # all rows or none


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ('"Dan\nDanny"', "control character"),
        ("Eve\tX", "control character"),
        ("\x1b[31mRed", "control character"),
        ("L" * 101, "at most 100 characters"),
    ],
)
def test_a_name_that_cannot_be_printed_is_refused(tmp_path: Path, name: str, why: str) -> None:
    url = f"sqlite:///{tmp_path / 'n.db'}"
    ok(url, "create", T, "--sessions", "2")
    out = refused(url, "players", T, str(write_players(tmp_path / "p.csv", [
        "1,Ann,", f"2,{name},"])))  # fmt: skip
    assert why in out and "line" in out
    store = open_store(url)
    try:
        with pytest.raises(StoreError, match=why):
            store.add_players(T, [PlayerRow(5, name.strip('"'))])
        with pytest.raises(StoreError, match=why):
            store.add_team(T, name.strip('"'))
    finally:
        store.close()


def test_a_team_spelt_two_ways_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    ok(url, "create", T, "--sessions", "2")
    out = refused(url, "players", T, str(write_players(tmp_path / "p.csv", [
        "1,Ann,Red", "2,Bob,red", "3,Cy,Red"])))  # fmt: skip
    assert "line 3" in out and "'red'" in out and "'Red'" in out and "case or spacing" in out
    ok(url, "players", T, str(write_players(tmp_path / "q.csv", ["1,Ann,Red", "2,Bob,Red"])))
    # against the team registered earlier, in a later file
    out = refused(url, "players", T, str(write_players(tmp_path / "r.csv", ["3,Cy,RED"])))
    assert "'RED'" in out and "'Red'" in out
    store = open_store(url)
    try:
        assert {team for _, team, _ in read_info(store, T).players.values()} == {"Red"}
    finally:
        store.close()


def test_tournament_names_are_told_apart_and_fit_a_web_address(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    assert "Created tournament 'Spring Open'" in ok(
        url, "create", "Spring Open ", "--sessions", "2"
    )
    ok(url, "standings", "Spring Open")  # kept without the trailing space
    for twin in ("spring open", "Spring  Open", " SPRING OPEN"):
        out = refused(url, "create", twin, "--sessions", "2")
        assert "'Spring Open' already exists" in out and "case or spacing" in out
    for bad, why in (("A/B Cup", "slash"), ("..", "folder"), ("x" * 101, "100 characters")):
        assert why in refused(url, "create", bad, "--sessions", "2")
    # a name typed in another case is answered with the one it means
    assert "did you mean 'Spring Open'?" in refused(url, "standings", "spring open")


# -- the seating names the byes ------------------------------------------------------------------


def test_the_seating_names_the_players_with_a_bye(spring: dict[str, Any], tmp_path: Path) -> None:
    url, byes = spring["url"], spring["byes"]
    assert len(byes) == 2  # 18 players: 18 mod 4
    out = ok(url, "seating", T, "--session", "1", "--html", str(tmp_path / "s.html"))
    line = next(x for x in out.splitlines() if x.startswith("轮空 Bye:"))
    assert all(name in line for name in byes), out
    page = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert 'data-col="byes"' in page
    for name in byes:
        assert f'data-player="{name}"' in page
    store = open_store(url)
    try:
        assert seating_html(store, T, 1) == page
    finally:
        store.close()


# -- the web pages' JSON ------------------------------------------------------------------------


def test_a_table_still_playing_keeps_its_session_current(
    spring: dict[str, Any], tmp_path: Path
) -> None:
    url = spring["url"]
    for table in (3, 4):
        ok(url, "totals", T, "--session", "1", "--table", str(table), "500", "500", "500", "500")
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=url, check_interval=0)
    with TestClient(app) as client:
        summary = client.get(f"/api/t/{T}").json()
        # table 2 has 3 of 16 hands: session 1 is not complete, and still the current one
        assert summary["complete"] == [] and summary["current"] == 1
        seating = client.get(f"/api/t/{T}/seating/1").json()
        states = {t["table"]: (t["state"], t["hands"]) for t in seating["tables"]}
        assert states == {1: ("complete", 0), 2: ("partial", 3), 3: ("complete", 0),
                          4: ("complete", 0)}  # fmt: skip
        assert sorted(b["name"] for b in seating["byes"]) == sorted(spring["byes"])
        assert all(isinstance(b["number"], int) for b in seating["byes"])
        for hand in range(4, 17):
            ok(url, "hand", T, "--session", "1", "--table", "2", "--hand", str(hand))
        summary = client.get(f"/api/t/{T}").json()
        assert summary["complete"] == [1] and summary["current"] == 2


def test_a_sheet_of_no_such_table_is_a_page(spring: dict[str, Any], tmp_path: Path) -> None:
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=spring["url"], check_interval=0)
    with TestClient(app) as client:
        res = client.get(f"/t/{T}/sheet/1/9")
        assert res.status_code == 404
        assert res.headers["content-type"].startswith("text/html")
        assert "session 1 table 9" in res.text and 'href="/t/Spring%20Open"' in res.text
        assert res.headers["x-frame-options"] == "DENY"


def test_a_restarted_server_counts_versions_above_the_last_one(spring: dict[str, Any]) -> None:
    """A page long-polls for a version above the last it saw: the new process must start above
    every version the old one gave, or those pages stay on the old standings."""
    store = open_store(spring["url"])
    try:
        before = Watcher(store, check_interval=0)
        for _ in range(20):
            before.bump()
        time.sleep(0.05)
        after = Watcher(store, check_interval=0)  # the restarted server
        assert after.check() > before.version
    finally:
        store.close()


# -- exports -------------------------------------------------------------------------------------


def test_the_standings_csv_writes_decimals_a_spreadsheet_reads(
    spring: dict[str, Any], tmp_path: Path
) -> None:
    url = spring["url"]
    # a tie for second and third at table 3: (2 + 1) / 2 = 1 1/2 each
    ok(url, "totals", T, "--session", "1", "--table", "3", "600", "470", "470", "460")
    path = tmp_path / "s.csv"
    ok(url, "standings", T, "--csv", str(path))
    rows = list(csv.DictReader(path.open(encoding="utf-8-sig")))
    points = {r["name"]: r["standard_points"] for r in rows if r["status"] == "ranked"}
    assert "1.5" in points.values()
    assert not any("/" in v for v in points.values()), points
    assert all(float(v) >= 0 for v in points.values())
    teams = tmp_path / "t.csv"
    ok(url, "standings", T, "--teams", "--csv", str(teams))
    team_rows = list(csv.DictReader(teams.open(encoding="utf-8-sig")))
    assert not any("/" in r["standard_points"] + r["best_session"] for r in team_rows)
    # JSON keeps the exact fractions
    data = tmp_path / "s.json"
    ok(url, "standings", T, "--json", str(data))
    assert '"3/2"' in data.read_text(encoding="utf-8")


# -- scores beyond any game ----------------------------------------------------------------------


def test_numbers_beyond_any_game_are_refused_not_entered(spring: dict[str, Any]) -> None:
    url = spring["url"]
    # a typo that sums right: it ended in a traceback from the database (SQLite's overflow)
    huge = ("9999999999999999999", "-9999999999999999999", "1000", "1000")
    out = refused(url, "totals", T, "--session", "1", "--table", "3", *huge)
    assert "beyond ±100000" in out
    # a win of 100000 fan points was recorded (a player at -99508)
    out = refused(url, "hand", T, "--session", "1", "--table", "2", "--hand", "4",
                  "--winner", "E", "--from", "S", "--fan", "100000")  # fmt: skip
    assert "no hand scores more than 1000" in out
    out = refused(url, "hand", T, "--session", "1", "--table", "2", "--hand", "4",
                  "--winner", "E", "--from", "S", "--fan", "99999999999999999999")  # fmt: skip
    assert "no hand scores more than 1000" in out
    store = open_store(url)
    try:
        assert store.table_scores(T, 1, 3) is None
        assert [h.number for h in store.hands(T, 1, 2)] == [0, 1, 2]
    finally:
        store.close()


def test_a_late_player_typed_in_another_case_is_named(spring: dict[str, Any]) -> None:
    out = refused(spring["url"], "late", T, "--session", "1", "--player", "bam1", "--minutes", "5")
    assert "no player 'bam1' (did you mean 'Bam1'?)" in out
