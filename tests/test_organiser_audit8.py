"""The organiser's day, eighth audit: what the seventh left, each fixed here.

- **CSV files and Excel.** The organiser's CSV files (``seating --csv``, ``standings --csv``,
  ``standings --teams --csv``, ``penalties --csv``) were UTF-8 without a byte-order mark: Excel on
  Windows reads such a file in the system's code page, and Chinese names came out as mojibake.
  They now start with a BOM (``utf-8-sig``). The EMA results file stays plain UTF-8: it goes to
  the EMA's ranking officer, and its documented format is UTF-8 (docs/tournament.md).
- **A bye on the standings.** The web standings showed a bye as an empty session cell, like a
  session not entered, and a player who had only had byes as "did not play" (未参赛), as if
  absent. The cell now says 轮空 bye (第十二条一) and the player's status is ``byes only``; the
  results table (比赛成绩统计表) prints 轮空 in the session's 局分 cell where it printed —.
- **The re-draw after a withdrawal** (``continue_schedule``) gave byes one session at a time, the
  players in no team first (their own count was their "team's"), so the teams' bye counts ended
  up to 2 apart where every team could have the same. It now plans the byes of all the sessions
  re-drawn as the first draw does (``_bye_plan``), counting the byes already had.
- **A withdrawn player who never played** showed 0 standard and 0 match points, as if they had
  played and taken nothing. Their totals are now blank (JSON null, terminal —); a withdrawn
  player who played and took 0 keeps 0.

The pages in Chromium: tests/test_organiser_audit8_browser.py.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from guobiao.server.app import create_app
from guobiao.tournament.seating import SessionSeating, Table, continue_schedule, schedule
from test_organiser_audit5 import ok
from test_organiser_audit7 import seatings

T = "春季杯"
TEAMS = ("红队", "蓝队", "玉队", "金队", "珠队")
SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗"
# 5 teams of 4 with Chinese names, then players in no team
TEAM_PLAYERS = tuple(f"{s}明" for s in SURNAMES)
SOLO = ("安娜", "Bob", "Cy")
NAMES = (*TEAM_PLAYERS, *SOLO)  # 23 players: 3 byes (轮空) a session (第十二条一)
BOM = codecs.BOM_UTF8


def event(tmp_path: Path, solo: tuple[str, ...] = SOLO, sessions: int = 5) -> str:
    url = f"sqlite:///{tmp_path / 'cup.db'}"
    names = (*TEAM_PLAYERS, *solo)
    rows = [f"{i + 1},{name},{TEAMS[i // 4] if i < 20 else ''}" for i, name in enumerate(names)]
    path = tmp_path / "players.csv"
    path.write_text("number,name,team\n" + "\n".join(rows) + "\n", encoding="utf-8")
    ok(url, "create", T, "--sessions", str(sessions))
    ok(url, "players", T, str(path))
    ok(url, "draw", T, "--seed", "5")
    return url


def enter_session(url: str, session: int) -> None:
    """Every table of ``session`` by its totals: E 620, S 480, W 510, N 390, so E takes 4
    standard points, W 2, S 1 and N 0 (第十条二(二))."""
    for table in seatings(url, T)[session - 1].tables:
        ok(url, "totals", T, "--session", str(session), "--table", str(table.number),
           "620", "480", "510", "390")  # fmt: skip


def web_standings(tmp_path: Path, url: str) -> dict[str, dict[str, Any]]:
    app = create_app(tmp_path / "rooms.sqlite3", tournament_db=url, check_interval=0)
    with TestClient(app) as client:
        rows = client.get(f"/api/t/{T}/standings").json()["individual"]
    return {r["name"]: r for r in rows}


# -- 1. CSV files with a byte-order mark, for Excel -------------------------------------------


def excel_reads(raw: bytes) -> list[list[str]]:
    """The cells a spreadsheet shows for a CSV file as Excel on a Chinese Windows reads it:
    UTF-8 when the file starts with a BOM, else the ANSI code page (GBK)."""
    text = raw[len(BOM) :].decode("utf-8") if raw.startswith(BOM) else raw.decode("gbk", "replace")
    return list(csv.reader(io.StringIO(text)))


HEADERS = {
    "seating": [
        "session",
        "table",
        "seat",
        "number",
        "name",
        "team",
        "substitute",
        "ranked",
        "plays_for",
    ],
    "standings": ["rank", "tied", "name", "team", "standard_points"],
    "teams": ["rank", "tied", "name", "members", "standard_points"],
    "penalties": ["session", "table", "hand", "player", "kind", "amount", "payee", "note"],
}


def organiser_files(tmp_path: Path) -> dict[str, Path]:
    """The four organiser CSV files of an event with session 1 entered and a lateness (迟到,
    第十三条二(一)) recorded for a player of session 2, so every file has a Chinese name in it."""
    url = event(tmp_path)
    enter_session(url, 1)
    late = seatings(url, T)[1].tables[0].seats[0]
    ok(url, "late", T, "--session", "2", "--player", late, "--minutes", "7", "--who", "Li")
    files = {kind: tmp_path / f"{kind}.csv" for kind in HEADERS}
    ok(url, "seating", T, "--session", "1", "--csv", str(files["seating"]))
    ok(url, "standings", T, "--csv", str(files["standings"]))
    ok(url, "standings", T, "--teams", "--csv", str(files["teams"]))
    ok(url, "penalties", T, "--csv", str(files["penalties"]))
    return files


def test_the_organiser_csv_files_open_in_excel(tmp_path: Path) -> None:
    for kind, path in organiser_files(tmp_path).items():
        raw = path.read_bytes()
        assert raw.startswith(BOM), kind
        with path.open(newline="", encoding="utf-8-sig") as handle:  # Python reads it back
            rows = list(csv.reader(handle))
        expected = HEADERS[kind]
        assert rows[0][: len(expected)] == expected, kind
        with path.open(newline="", encoding="utf-8-sig") as handle:  # keyed by the header
            assert next(csv.DictReader(handle))[expected[0]], kind
        shown = excel_reads(raw)
        assert shown == rows, kind  # the spreadsheet sees the same header and cells
        column = rows[0].index("player" if kind == "penalties" else "name")
        names = {row[column] for row in shown[1:]}
        known = set(TEAMS) if kind == "teams" else set(NAMES)
        assert names and names <= known, (kind, names - known)


def test_the_ema_file_stays_plain_utf8(tmp_path: Path) -> None:
    url = event(tmp_path)
    enter_session(url, 1)
    for args in (("ema", T, "--csv"), ("standings", T, "--ema")):
        path = tmp_path / f"{args[0]}.csv"
        ok(url, *args, str(path))
        raw = path.read_bytes()
        assert raw.startswith(b"Place,EMA number,Last name,First name,Country,"), args
        text = raw.decode("utf-8")  # strict: plain UTF-8 throughout
        assert "\n1,,徐,明," in text  # 徐明: last name 徐, first name 明, split from the name


# -- 2. a bye on the standings ---------------------------------------------------------------


def test_a_bye_is_marked_and_a_player_with_only_byes_says_so(tmp_path: Path) -> None:
    url = event(tmp_path)
    enter_session(url, 1)
    first = seatings(url, T)[0]
    bye, seated = first.byes[0], first.tables[0].seats[0]
    # 23 players over 5 sessions: 15 byes, nobody two, so the bye of session 1 plays session 2
    assert bye not in seatings(url, T)[1].byes
    rows = web_standings(tmp_path, url)
    assert rows[bye]["by_session"]["1"] == {
        "score": None, "standard": None, "forfeit": False, "bye": True,
    }  # fmt: skip
    assert rows[seated]["by_session"]["1"]["bye"] is False
    assert (rows[bye]["rank"], rows[bye]["status"]) == ("—", "byes only")
    # the command line says the same: the terminal, the JSON
    printed = ok(url, "standings", T)
    line = next(x for x in printed.splitlines() if f" {bye} " in x)
    assert "byes only" in line and "did not play" not in line
    path = tmp_path / "s.json"
    ok(url, "standings", T, "--json", str(path))
    listed = {r["name"]: r for r in json.loads(path.read_text(encoding="utf-8"))["standings"]}
    assert listed[bye]["status"] == "byes only"
    # the results table (比赛成绩统计表): 轮空 in the session's 局分 cell
    page = tmp_path / "r.html"
    ok(url, "results", T, "--html", str(page))
    html = page.read_text(encoding="utf-8")
    row = html[html.index(f'data-player="{bye}"') :]
    row = row[: row.index("</tr>")]
    assert '<td data-session="1" data-col="score" data-status="bye">轮空</td>' in row
    # once they play, they are ranked, and session 1 stays a bye
    enter_session(url, 2)
    rows = web_standings(tmp_path, url)
    assert rows[bye]["status"] == "ranked" and rows[bye]["by_session"]["1"]["bye"] is True


def test_an_absence_is_no_bye(tmp_path: Path) -> None:
    """A player replaced for session 1 (缺席, a substitute plays the seat) did not play: no bye."""
    url = event(tmp_path)
    first = seatings(url, T)[0]
    absent, sub = first.tables[0].seats[2], first.byes[0]
    ok(url, "substitute", T, "--session", "1", "--player", absent, "--by", sub, "--who", "Li",
       "--allow-team-mate")  # fmt: skip
    enter_session(url, 1)
    rows = web_standings(tmp_path, url)
    assert rows[absent]["status"] == "did not play"
    assert rows[absent]["by_session"]["1"]["bye"] is False


# -- 3. the re-draw aims at the best final team bye counts ------------------------------------

LETTERS = "ABCDE"
CUP_TEAMS = {t: [f"{t}{i}" for i in range(1, 5)] for t in LETTERS}
IN_TEAMS = [p for members in CUP_TEAMS.values() for p in members]


def team_byes(sessions: list[SessionSeating], before: Counter[str]) -> dict[str, int]:
    had = before + Counter(p for s in sessions for p in s.byes)
    return {t: sum(had[m] for m in members) for t, members in CUP_TEAMS.items()}


def check_redraw(players: list[str], sessions: list[SessionSeating]) -> Counter[str]:
    """Every re-drawn session: the fewest byes (n mod 4), everyone else at a table once,
    team-mates apart. Returns the byes of the re-drawn sessions."""
    for s in sessions:
        assert len(s.byes) == len(players) % 4
        seated = [p for t in s.tables for p in t.seats]
        assert sorted(seated + list(s.byes)) == sorted(players)
        for t in s.tables:
            teams = [p[0] for p in t.seats if p in IN_TEAMS]
            assert len(teams) == len(set(teams)), t
    return Counter(p for s in sessions for p in s.byes)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_redraw_evens_the_teams_byes(seed: int) -> None:
    """24 players (5 teams of 4, W X Y Z in no team), 6 sessions, no byes; W withdraws after
    session 1. By hand: 23 players over 5 sessions, 3 byes a session, 15 byes; 15 ≤ 23, so
    nobody has two; each team can take up to 4 (one a member), and 15 = 5 × 3: every team 3,
    and X, Y, Z none. Before, the players in no team went first (each counted as a "team" of
    their own with no byes), and the teams ended 2, 2, 2, 2, 4 or so."""
    everyone = [*IN_TEAMS, "W", "X", "Y", "Z"]
    first = schedule(everyone, 1, teams=CUP_TEAMS, seed=3).sessions[0]
    players = [p for p in everyone if p != "W"]
    more = list(continue_schedule(players, [first], 5, teams=CUP_TEAMS, seed=seed).sessions)
    byes = check_redraw(players, more)
    assert max(byes.values()) == 1
    assert team_byes(more, Counter()) == dict.fromkeys(LETTERS, 3)
    assert not any(byes[p] for p in "XYZ")
    # on the way too: after every session the teams are at most 1 apart
    for k in range(1, 6):
        counts = team_byes(more[:k], Counter()).values()
        assert max(counts) - min(counts) <= 1, k


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_redraw_counts_the_byes_already_had(seed: int) -> None:
    """23 players (5 teams of 4, X Y Z in no team); session 1 is played with byes A1, B1, C1;
    Z withdraws from session 2. By hand: 22 players over 4 sessions, 2 byes a session, 8 new
    byes, 19 players without one so far, so nobody has two. Teams A, B, C have 1, D and E 0: with
    8 more in all the teams can end 2, 2, 2, 2, 2 (A, B, C one more each, D and E two: 7) and
    the eighth to X or Y; with none to X and Y they must end 2, 2, 2, 2, 3 at best."""
    players = [*IN_TEAMS, "X", "Y"]
    seated = [p for p in [*IN_TEAMS, "X", "Y", "Z"] if p not in ("A1", "B1", "C1")]
    tables = tuple(Table(i, tuple(seated[4 * i : 4 * i + 4])) for i in range(5))  # type: ignore[arg-type]
    played = SessionSeating(0, tables, ("A1", "B1", "C1"))
    more = list(continue_schedule(players, [played], 4, teams=CUP_TEAMS, seed=seed).sessions)
    byes = check_redraw(players, more)
    before = Counter(played.byes)
    assert max((byes + before).values()) == 1  # the fewest byes first: nobody has two
    assert team_byes(more, before) == dict.fromkeys(LETTERS, 2)
    assert byes["X"] + byes["Y"] == 1


def test_withdraw_redraws_with_even_team_byes(tmp_path: Path) -> None:
    """The command: 24 players (the 20 in teams and 4 in no team), 6 sessions, one in no team
    withdraws from session 2; by hand as above, every team ends with 3 byes and the others
    with none."""
    url = event(tmp_path, solo=("安娜", "Bob", "Cy", "Dee"), sessions=6)
    enter_session(url, 1)
    ok(url, "withdraw", T, "Dee", "--from-session", "2", "--who", "Li")
    had = Counter(p for s in seatings(url, T) for p in s.byes)
    assert sum(had.values()) == 15 and max(had.values()) == 1
    by_team = [sum(had[p] for p in TEAM_PLAYERS[4 * t : 4 * t + 4]) for t in range(5)]
    assert by_team == [3] * 5
    assert not any(had[p] for p in ("安娜", "Bob", "Cy"))


# -- 4. a withdrawn player who never played has no totals --------------------------------------


def test_a_withdrawn_player_who_never_played_has_blank_totals(tmp_path: Path) -> None:
    """``never`` withdraws from session 1 before it is played; ``zero`` plays session 1 at North
    (390, the fourth place: 0 standard points) and withdraws from session 2. Both take no
    place; ``never`` has no score at all (blank, null), ``zero`` has 0 standard points and 390
    match points, which the rules give them (第十条二(二))."""
    url = event(tmp_path)
    never = seatings(url, T)[0].tables[0].seats[0]
    ok(url, "withdraw", T, never, "--from-session", "1", "--who", "Li")
    enter_session(url, 1)
    zero = seatings(url, T)[0].tables[0].seats[3]
    ok(url, "withdraw", T, zero, "--from-session", "2", "--who", "Li")
    # the web page's data
    rows = web_standings(tmp_path, url)
    assert (rows[never]["standard"], rows[never]["match"]) == ("", "")
    assert (rows[zero]["standard"], rows[zero]["match"]) == ("0", 390)
    assert rows[never]["status"] == rows[zero]["status"] == "withdrawn"
    # JSON: null; CSV: empty
    path = tmp_path / "s.json"
    ok(url, "standings", T, "--json", str(path))
    listed = {r["name"]: r for r in json.loads(path.read_text(encoding="utf-8"))["standings"]}
    totals = ("standard_points", "match_points", "best_session")
    assert [listed[never][k] for k in totals] == [None, None, None]
    assert [listed[zero][k] for k in totals] == ["0", 390, "0"]
    table = tmp_path / "s.csv"
    ok(url, "standings", T, "--csv", str(table))
    with table.open(newline="", encoding="utf-8-sig") as handle:
        by_name = {r["name"]: r for r in csv.DictReader(handle)}
    assert [by_name[never][k] for k in totals] == ["", "", ""]
    assert [by_name[zero][k] for k in totals] == ["0", "390", "0"]
    # the terminal: — where the totals would be
    printed = ok(url, "standings", T)
    line = next(x for x in printed.splitlines() if f" {never} " in x)
    cells = [c.strip() for c in line.split("│")]
    assert cells[4:7] == ["—", "—", "—"], cells
    line = next(x for x in printed.splitlines() if f" {zero} " in x)
    assert [c.strip() for c in line.split("│")][4:7] == ["0", "390", "0"]
