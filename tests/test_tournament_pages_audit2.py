"""The organiser's second audit of the papers and pages (a 20-player, 5-team club event):
`seating --html / --csv`, the 陪打 marked wherever a table's seats are listed (the seating, its
JSON for the web pages), the server's coded refusal of a score that is not a whole number, the
score sheet of a session that ended early (第六条四), and the phone viewport of the pages. The
pages in Chromium: tests/test_tournament_pages_audit2_browser.py."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from click.testing import CliRunner, Result
from fastapi.testclient import TestClient

from guobiao.cli import main
from guobiao.server.app import create_app
from guobiao.tournament import reports
from guobiao.tournament.queries import read_seating
from guobiao.tournament.store import open_store

T = "club"
TEAMS = ("红队", "Blue Dragons", "金", "Jade", "White Tigers")
NAMES = tuple(f"{'Player' if i % 2 else '选手'}{i + 1}" for i in range(20))
TEAM_OF = {name: TEAMS[i % 5] for i, name in enumerate(NAMES)}
SUB = "Sam Sub"  # Jade's substitute
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def cli(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["tournament", *args, "--db", url])


def ok(url: str, *args: str) -> str:
    result = cli(url, *args)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def club(tmp_path: Path, *create: str) -> dict[str, Any]:
    """20 players in 5 teams of 4 and Jade's substitute, 3 sessions drawn (5 tables each, no
    byes). Session 1: the substitute plays for the S player of a table with no Jade player
    (陪打); table 1 played 5 hands and was ended at the time limit (`finish`); table 2 entered
    by its totals; table 3 has 3 hands, not ended (partial)."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    rows = ["number,name,team,substitute"]
    rows += [f"{i + 1},{name},{TEAM_OF[name]},no" for i, name in enumerate(NAMES)]
    rows.append(f"21,{SUB},Jade,yes")
    players = tmp_path / "players.csv"
    players.write_text("\n".join(rows) + "\n", encoding="utf-8")
    ok(url, "create", T, "--sessions", "3", *create)
    ok(url, "players", T, str(players))
    ok(url, "draw", T, "--seed", "1")
    store = open_store(url)
    try:
        tables = read_seating(store, T, 1)
    finally:
        store.close()
    table, seats = next((n, s) for n, s in tables if all(TEAM_OF[p] != "Jade" for p in s))
    ok(url, "substitute", T, "--session", "1", "--player", seats[1], "--by", SUB, "--who", "ref")
    for hand in range(1, 6):
        ok(url, "hand", T, "--session", "1", "--table", "1", "--hand", str(hand),
           "--winner", "E", "--from", "S", "--fan", "8")  # fmt: skip
    ok(url, "finish", T, "--session", "1", "--table", "1", "--who", "ref", "--note", "time")
    ok(url, "totals", T, "--session", "1", "--table", "2", "620", "480", "510", "390")
    for hand in range(1, 4):
        ok(url, "hand", T, "--session", "1", "--table", "3", "--hand", str(hand))
    return {"url": url, "table": table, "replaced": seats[1], "seats": dict(tables)}


@pytest.fixture
def event(tmp_path: Path) -> dict[str, Any]:
    return club(tmp_path)


# -- 1. seating --html / --csv ------------------------------------------------------------------


def test_seating_writes_a_csv_for_a_spreadsheet(event: dict[str, Any], tmp_path: Path) -> None:
    url = event["url"]
    out = tmp_path / "seating.csv"
    result = cli(url, "seating", T, "--session", "1", "--csv", str(out))
    assert result.exit_code == 0, result.output
    assert f"Wrote the seating of session 1 to {out}" in result.output
    with out.open(newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == [
        "session", "table", "seat", "number", "name", "team", "substitute", "ranked", "plays_for"
    ]  # fmt: skip
    assert len(rows) == 20  # five tables of four
    # the seats as the store has them, E S W N at each table, the substitute in the absent seat
    expected = {
        (n, w): (SUB if (n, i) == (event["table"], 1) else p)
        for n, seats in event["seats"].items()
        for i, (w, p) in enumerate(zip("ESWN", seats, strict=True))
    }
    got = {(int(r["table"]), r["seat"]): r["name"] for r in rows}
    assert got == expected
    assert {r["session"] for r in rows} == {"1"}
    sub = next(r for r in rows if r["name"] == SUB)
    assert (sub["number"], sub["team"]) == ("21", "Jade")
    assert (sub["substitute"], sub["ranked"], sub["plays_for"]) == ("yes", "no", event["replaced"])
    others = [r for r in rows if r["name"] != SUB]
    assert {(r["substitute"], r["ranked"], r["plays_for"]) for r in others} == {("no", "yes", "")}
    assert all(r["team"] == TEAM_OF[r["name"]] for r in others)
    assert all(r["number"] == str(NAMES.index(r["name"]) + 1) for r in others)


def test_seating_writes_an_html_page_to_print_and_post(
    event: dict[str, Any], tmp_path: Path
) -> None:
    url = event["url"]
    page = tmp_path / "seating.html"
    result = cli(url, "seating", T, "--session", "1", "--html", str(page))
    assert result.exit_code == 0, result.output
    assert f"Wrote the seating of session 1 to {page}" in result.output
    html = page.read_text(encoding="utf-8")
    assert "@page { size: A4;" in html and VIEWPORT in html and "<script" not in html
    for number, seats in event["seats"].items():
        row = re.search(rf'<tr data-table="{number}">(.*?)</tr>', html, re.S)
        assert row, number
        cells = re.findall(r'<td class="name" data-player="([^"]+)" data-seat="(\w)"', row[1])
        names = [SUB if (number, i) == (event["table"], 1) else p for i, p in enumerate(seats)]
        assert cells == list(zip(names, "ESWN", strict=True))
    sub = re.search(rf'data-player="{SUB}"[^>]*data-kind="([\w-]+)">(.*?)</td>', html)
    assert sub and sub[1] == "stand-in"
    assert "陪打 substitute" in sub[2] and f"代打 {event['replaced']}" in sub[2]
    assert html.count('data-kind="stand-in"') == 1
    # the same page from Python
    store = open_store(url)
    try:
        assert reports.seating_html(store, T, 1) == html
    finally:
        store.close()


def test_seating_output_options_are_checked(event: dict[str, Any], tmp_path: Path) -> None:
    url = event["url"]
    both = cli(url, "seating", T, "--session", "1", "--html", "a.html", "--pdf", "a.pdf")
    assert both.exit_code == 2 and "give --html or --pdf, not both" in both.output
    far = cli(url, "seating", T, "--session", "9", "--csv", str(tmp_path / "x.csv"))
    assert far.exit_code == 2 and "has sessions 1-3, not 9" in far.output
    assert not (tmp_path / "x.csv").exists()
    folder = cli(url, "seating", T, "--session", "1", "--csv", str(tmp_path / "no" / "x.csv"))
    assert folder.exit_code == 2 and "cannot write" in folder.output
    for bad in (both, far, folder):
        assert "Traceback" not in bad.output and not isinstance(bad.exception, TypeError)


# -- 2. the 陪打 marked where a table's seats are listed ----------------------------------------


def test_the_terminal_seating_marks_the_stand_in(event: dict[str, Any]) -> None:
    out = ok(event["url"], "seating", T, "--session", "1")
    assert "陪打 substitute" in out and f"代打 {event['replaced']}" in out
    assert out.count("陪打 substitute") == 1
    assert "no place and no standard points (第十二条三(二))" in out


def test_the_seating_json_marks_the_stand_in(event: dict[str, Any], tmp_path: Path) -> None:
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=event["url"], check_interval=0)
    with TestClient(app) as client:
        data = client.get(f"/api/t/{T}/seating/1").json()
    seats = [s for t in data["tables"] for s in t["seats"]]
    marked = [s for s in seats if s["substitute"]]
    assert [(s["name"], s["stand_in"], s["plays_for"]) for s in marked] == [
        (SUB, True, event["replaced"])
    ]
    table = next(t for t in data["tables"] if t["table"] == event["table"])
    assert table["seats"][1]["wind"] == "S" and table["seats"][1]["name"] == SUB
    assert all(s["stand_in"] is False and s["plays_for"] is None for s in seats if s not in marked)


def _sheet_names(url: str, table: int) -> dict[str, str]:
    store = open_store(url)
    try:
        html = reports.score_sheet_html(store, T, 1, table)
    finally:
        store.close()
    cells = re.findall(r'<th data-player="([^"]+)" data-col="name">(.*?)</th>', html)
    return {name: re.sub(r"<[^>]+>", "", cell) for name, cell in cells}


def test_the_score_sheet_header_marks_the_stand_in(event: dict[str, Any]) -> None:
    names = _sheet_names(event["url"], event["table"])
    assert names[SUB] == f"{SUB} (替补 sub · 陪打, 代 {event['replaced']})"
    assert all("陪打" not in cell for name, cell in names.items() if name != SUB)


def test_a_team_substitute_who_counts_for_the_team_is_not_a_stand_in(tmp_path: Path) -> None:
    event = club(tmp_path, "--team-substitute", "counts")
    store = open_store(event["url"])
    try:
        seats = [s for t in reports.session_seating(store, T, 1) for s in t.seats if s.substitute]
    finally:
        store.close()
    assert [(s.name, s.stand_in, s.plays_for) for s in seats] == [(SUB, False, event["replaced"])]
    out = ok(event["url"], "seating", T, "--session", "1")
    assert "替补 team sub" in out and "陪打" not in out
    assert (
        _sheet_names(event["url"], event["table"])[SUB]
        == f"{SUB} (替补 sub, 代 {event['replaced']})"
    )


# -- 3. the server refuses a score that is not a whole number -----------------------------------


def test_a_score_that_is_not_a_whole_number_is_a_coded_refusal(
    event: dict[str, Any], tmp_path: Path
) -> None:
    url = event["url"]
    password = re.search(r"password (\S+)", ok(url, "referee", T, "--add", "li"))
    assert password
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=url, check_interval=0)
    good = {"E": 620, "S": 480, "W": 510, "N": 390}
    with TestClient(app) as client:
        res = client.post(f"/api/t/{T}/login", json={"username": "li", "password": password[1]})
        csrf = {"X-CSRF-Token": res.json()["csrf"]}
        for seat, value in (("E", "1O0"), ("S", "12a"), ("W", "510"), ("N", 12.5), ("E", True),
                            ("S", None), ("W", [510]), ("N", 10**9)):  # fmt: skip
            body = {"session": 1, "table": 4, "scores": {**good, seat: value}}
            res = client.post(f"/api/t/{T}/results", json=body, headers=csrf)
            assert res.status_code == 422, (seat, value, res.text)
            detail = res.json()["detail"]
            assert detail["code"] == "bad_request", (seat, value)
            assert detail["params"]["seat"] == seat and detail["params"]["field"] == "scores"
            assert f"score of seat {seat} is not a whole number" in detail["message"]
            if isinstance(value, str):
                assert value not in res.text  # named, not echoed
        body = {"session": 1, "table": 4, "scores": good, "deductions": {"W": "1O"}}
        res = client.post(f"/api/t/{T}/results", json=body, headers=csrf)
        assert res.status_code == 422
        detail = res.json()["detail"]
        assert detail["code"] == "bad_request" and detail["params"]["field"] == "deductions"
        assert "deduction of seat W" in detail["message"]
        body = {"session": 1, "table": 4, "scores": good, "deductions": {"W": -10}}
        assert client.post(f"/api/t/{T}/results", json=body, headers=csrf).status_code == 422
        store = open_store(url)
        try:
            assert store.table_scores(T, 1, 4) is None  # nothing was entered
        finally:
            store.close()
        # whole numbers are taken as before
        res = client.post(
            f"/api/t/{T}/results", json={"session": 1, "table": 4, "scores": good}, headers=csrf
        )
        assert res.status_code == 200, res.text
    store = open_store(url)
    try:
        scores = store.table_scores(T, 1, 4)
        assert scores is not None and sorted(scores.values()) == [390, 480, 510, 620]
    finally:
        store.close()


# -- 4. the sheet of a session ended early ------------------------------------------------------


def _ended(html: str) -> re.Match[str] | None:
    return re.search(r'<p class="ended" data-col="ended" data-hands="(\d+)">(.*?)</p>', html, re.S)


def test_the_sheet_of_a_session_ended_early_says_so(event: dict[str, Any], tmp_path: Path) -> None:
    store = open_store(event["url"])
    try:
        sheet = reports.score_sheet_html(store, T, 1, 1)
        others = [reports.score_sheet_html(store, T, 1, n) for n in (2, 3, 4)]
    finally:
        store.close()
    found = _ended(sheet)
    assert found and found[1] == "5"
    assert "共打 <b>5</b> 盘（应打 16 盘）" in found[2] and "（time）" in found[2]
    assert "Session ended early: 5 of 16 hands played" in found[2] and "第六条四" in found[2]
    for hand in range(1, 17):
        row = re.search(rf'<tr class="hand[^"]*" data-hand="{hand}"[^>]*>', sheet)
        assert row, hand
        assert ('data-played="no"' in row[0]) == (hand > 5), hand
    assert sheet.count("未打 <span") == 11
    # totals, a partial table (not ended) and nothing entered: no such line
    assert all(_ended(page) is None for page in others)
    # the web page of the sheet says the same
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=event["url"], check_interval=0)
    with TestClient(app) as client:
        web = client.get(f"/t/{T}/sheet/1/1").text
    found = _ended(web)
    assert found and found[1] == "5" and web.count('data-played="no"') == 11
    # reopened (`finish --reopen`): the mark goes, hands 6-16 are to fill in again
    ok(event["url"], "finish", T, "--session", "1", "--table", "1", "--reopen", "--who", "ref")
    store = open_store(event["url"])
    try:
        sheet = reports.score_sheet_html(store, T, 1, 1)
    finally:
        store.close()
    assert _ended(sheet) is None and 'data-played="no"' not in sheet


# -- 5. the phone viewport ----------------------------------------------------------------------


def test_the_pages_have_a_phone_viewport(event: dict[str, Any], tmp_path: Path) -> None:
    store = open_store(event["url"])
    try:
        pages = [reports.score_sheet_html(store, T, 1, 1), reports.results_table_html(store, T)]
    finally:
        store.close()
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=event["url"], check_interval=0)
    with TestClient(app) as client:
        pages += [client.get(f"/t/{T}/sheet/1/2").text, client.get(f"/t/{T}/results").text]
    for page in pages:
        head = page.split("</head>")[0]
        assert VIEWPORT in head
        # wide tables scroll in their own box on a screen, not the page
        assert re.search(r'<div class="scroll"><table class="(sheet|results)">', page)
