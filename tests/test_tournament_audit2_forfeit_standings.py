"""An organiser's audit (a club event): a forfeit (弃权, 第十三条二(一)) says so in the history
and the results table, and counts 0 Mahjong points in the EMA file (not 0 less the 500 start);
every registered player is listed by `standings`, those with no ranked session after the ranked
ones, marked. Expected values are worked out by hand in the comments."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from guobiao.tournament import ranking
from guobiao.tournament.ema import EMA_COLUMNS, ema_csv, ema_rows
from guobiao.tournament.queries import read_info
from guobiao.tournament.ranking import individual_ranking, player_histories
from guobiao.tournament.reports import results_table_html
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import PlayerRow, Store, open_store

T = "club"


def _run(url: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["tournament", *args, "--db", url])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def _ema(url: str, tmp_path: Path) -> list[str]:
    """The lines of the EMA results file `guobiao tournament ema --csv` writes."""
    path = tmp_path / "ema.csv"
    _run(url, "ema", T, "--csv", str(path))
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 't.db'}"


def _open(url: str, sessions: int, names: str) -> Store:
    store = open_store(url)
    store.create_tournament(T, sessions=sessions)
    store.add_players(T, [PlayerRow(n, name) for n, name in enumerate(names, 1)])
    seating = tuple(SessionSeating(s, (Table(1, ("A", "B", "C", "D")),)) for s in (1, 2))
    store.save_schedule(T, Schedule(("A", "B", "C", "D"), seating[:sessions], "manual"))
    return store


@pytest.fixture
def forfeit(url: str) -> Iterator[Store]:
    """Two sessions at one table, A B C D; S registered, seated nowhere.

    Session 1 (局分): A 620, B 480, C 510, D 390: standard points A 4, C 2, B 1, D 0.
    Session 2: A forfeits (more than 15 minutes late); S plays A's seat (陪打) and the sheet
    reads S 530, B 500, C 490, D 480. Ranked: B 500, C 490, D 480, A 0 -> B 4, C 2, D 1, A 0.

    Totals: B 1+4 = 5 (match 980); C 2+2 = 4 (1000); A 4+0 = 4 (620); D 0+1 = 1 (870).
    Ranking: B, then C and A on 4 (C's 1000 match points first), then D.
    """
    store = _open(url, 2, "ABCDS")
    store.record_session_totals(T, 1, 1, {"A": 620, "B": 480, "C": 510, "D": 390})
    store.substitute(T, 2, "A", "S", who="referee", forfeit=True, note="20 min late")
    store.record_session_totals(T, 2, 1, {"S": 530, "B": 500, "C": 490, "D": 480})
    yield store
    store.close()


# -- 1: the history and the results say 弃权 ------------------------------------------


def test_the_history_line_of_a_forfeit_is_a_forfeit_not_played(forfeit: Store) -> None:
    lines = player_histories(forfeit.table_results(T))["A"].lines
    assert [(x.session, x.score, x.forfeit, x.played) for x in lines] == [
        (1, 620, False, True),
        (2, 0, True, False),
    ]
    assert [x.forfeit for x in player_histories(forfeit.table_results(T))["B"].lines] == [
        False,
        False,
    ]


def test_history_command_says_forfeit(forfeit: Store, url: str) -> None:
    doc = json.loads(_run(url, "history", T, "A", "--json"))
    assert [
        (s["session"], s["score"], s["standard_points"], s["status"]) for s in doc["sessions"]
    ] == [
        (1, 620, "4", "played"),
        (2, 0, "0", "forfeit"),
    ]
    assert (doc["standard_points"], doc["match_points"]) == ("4", 620)
    rows = [line for line in _run(url, "history", T, "A").splitlines() if "│ 2 " in line]
    assert len(rows) == 1 and "弃权" in rows[0] and "played" not in rows[0]
    # the substitute who played the seat is a substitute, as before
    sub = json.loads(_run(url, "history", T, "S", "--json"))
    assert [(s["score"], s["status"]) for s in sub["sessions"]] == [(530, "substitute")]


class _Cells(HTMLParser):
    """The results table's session cells: (player, session, col) -> (text, attributes)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.player = ""
        self.open: tuple[str, str, str] | None = None
        self.cells: dict[tuple[str, str, str], tuple[str, dict[str, str]]] = {}
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "tr" and "data-player" in values:
            self.player = values["data-player"]
        if tag == "td" and "data-session" in values:
            self.open = (self.player, values["data-session"], values["data-col"])
            self.cells[self.open] = ("", values)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self.open = None

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            text, values = self.cells[self.open]
            self.cells[self.open] = (text + data, values)


def test_results_table_marks_the_forfeit(forfeit: Store) -> None:
    cells = _Cells(results_table_html(forfeit, T)).cells
    text, attrs = cells[("A", "2", "score")]
    assert text == "0 弃权" and attrs.get("data-status") == "forfeit"
    assert cells[("A", "2", "standard")][0] == "0"
    assert cells[("A", "1", "score")] == ("620", {"data-session": "1", "data-col": "score"})
    assert cells[("B", "2", "score")][0] == "500"  # a played session has no mark
    assert "弃权: forfeit, more than 15 minutes late" in results_table_html(forfeit, T)


# -- 2: the EMA file counts a forfeit 0 Mahjong points ---------------------------------


def test_ema_mahjong_points_of_a_forfeit_are_zero(forfeit: Store, url: str, tmp_path: Path) -> None:
    """Mahjong points from 0 (局分 - 500 a played session; the forfeit 0):
    B -20 + 0 = -20; C +10 - 10 = 0; A +120 + 0 = 120 (not 120 - 500); D -110 - 20 = -130.
    Session 2's entries sum to 0 with the substitute's +30 (B 0, C -10, D -20, A 0, S +30),
    session 1's four to 0 (120 - 20 + 10 - 110). Base rank, N = 4: 1000, 667, 333, 0."""
    info = read_info(forfeit, T)
    rows = ema_rows(individual_ranking(forfeit.table_results(T)), info)
    got = [
        (r["place"], r["name"], r["table_points_decimal"], r["mahjong_points_net"]) for r in rows
    ]
    assert got == [(1, "B", "5", -20), (2, "C", "4", 0), (3, "A", "4", 120), (4, "D", "1", -130)]
    assert [(r["sessions_played"], r["sessions_unplayed"]) for r in rows] == [
        (2, 0),
        (2, 0),
        (1, 1),
        (2, 0),
    ]
    assert sum(r["mahjong_points_net"] for r in rows) + 30 == 0  # + S's seat (530 - 500)
    lines = _ema(url, tmp_path)
    assert lines == [
        ",".join(EMA_COLUMNS),
        "1,,B,,,5,-20,1000",
        "2,,C,,,4,0,667",
        "3,,A,,,4,120,333",
        "4,,D,,,1,-130,0",
    ]
    assert "\n".join(lines) + "\n" == ema_csv(rows)


def test_ema_file_leaves_out_a_player_who_only_forfeited(url: str, tmp_path: Path) -> None:
    """One session: A forfeits, S plays A's seat; B 500, C 490, D 480 take 4, 2, 1 and A (局分 0)
    0, ranked 4th in the tournament. A played no hand: not in the EMA file, and the three who
    played are placed 1-3 (base rank, N = 3: 1000, 500, 0)."""
    store = _open(url, 1, "ABCDS")
    try:
        store.substitute(T, 1, "A", "S", who="referee", forfeit=True)
        store.record_session_totals(T, 1, 1, {"S": 530, "B": 500, "C": 490, "D": 480})
        ranking = individual_ranking(store.table_results(T))
        assert [(s.rank, s.name, s.unplayed) for s in ranking] == [
            (1, "B", ()),
            (2, "C", ()),
            (3, "D", ()),
            (4, "A", (1,)),
        ]
    finally:
        store.close()
    assert _ema(url, tmp_path)[1:] == [
        "1,,B,,,4,0,1000",
        "2,,C,,,2,-10,500",
        "3,,D,,,1,-20,0",
    ]
    # the standings still rank A (4th), with no EMA base rank
    path = tmp_path / "s.json"
    _run(url, "standings", T, "--json", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert [(s["rank"], s["name"], s["base_rank"]) for s in doc["standings"]] == [
        (1, "B", 1000),
        (2, "C", 500),
        (3, "D", 0),
        (4, "A", None),
        (None, "S", None),
    ]


# -- 3: every registered player is in the standings ------------------------------------


@pytest.fixture
def absent(url: str) -> Iterator[str]:
    """One session, one table A B C D; D is absent and S plays D's seat (陪打); E registered,
    seated nowhere. Sheet: A 600, B 500, C 450, S 450. The three ranked take 4, 2, 1 (第十二条三
    (二)): A 4 (600), B 2 (500), C 1 (450). D, E (no session) and S (substitute) are not ranked."""
    store = _open(url, 1, "ABCDES")
    try:
        store.substitute(T, 1, "D", "S", who="referee")
        store.record_session_totals(T, 1, 1, {"A": 600, "B": 500, "S": 450, "C": 450})
    finally:
        store.close()
    yield url


def test_not_ranked_says_why(absent: str) -> None:
    store = open_store(absent)
    try:
        results = store.table_results(T)
    finally:
        store.close()
    assert [s.name for s in individual_ranking(results)] == ["A", "B", "C"]
    assert getattr(ranking, "not_ranked", None) is not None, "no not_ranked"
    assert ranking.not_ranked(results, "ABCDES") == {
        "D": "did not play",
        "E": "did not play",
        "S": "substitute",
    }


def test_standings_json_lists_every_registered_player(absent: str, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    _run(absent, "standings", T, "--json", str(path))
    got = json.loads(path.read_text(encoding="utf-8"))["standings"]
    assert [(s["rank"], s["name"], s["status"], s["standard_points"]) for s in got] == [
        (1, "A", "ranked", "4"),
        (2, "B", "ranked", "2"),
        (3, "C", "ranked", "1"),
        (None, "D", "did not play", None),
        (None, "E", "did not play", None),
        (None, "S", "substitute", None),
    ]
    assert [s["number"] for s in got] == [1, 2, 3, 4, 5, 6]
    assert [s["base_rank"] for s in got] == [1000, 500, 0, None, None, None]


def test_standings_csv_lists_every_registered_player(absent: str, tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    _run(absent, "standings", T, "--csv", str(path))
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert [(r["rank"], r["name"], r["status"], r["match_points"]) for r in rows] == [
        ("1", "A", "ranked", "600"),
        ("2", "B", "ranked", "500"),
        ("3", "C", "ranked", "450"),
        ("", "D", "did not play", ""),
        ("", "E", "did not play", ""),
        ("", "S", "substitute", ""),
    ]


def test_standings_terminal_lists_every_registered_player(absent: str) -> None:
    out = _run(absent, "standings", T)
    lines = {name: [x for x in out.splitlines() if f" {name} " in x] for name in "ABCDES"}
    assert all(len(found) == 1 for found in lines.values()), out
    assert "did not play" in lines["D"][0] and "did not play" in lines["E"][0]
    assert "substitute" in lines["S"][0]
    assert all("—" in lines[n][0] for n in "DES")
    order = [next(i for i, x in enumerate(out.splitlines()) if x in lines[n]) for n in "ABCDES"]
    assert order == sorted(order)  # after the ranked players, by registration number


def test_ema_file_lists_only_who_played(absent: str, tmp_path: Path) -> None:
    """A +100, B 0, C -50 (局分 less 500); D, E and S are not ranked and not in the file."""
    assert _ema(absent, tmp_path)[1:] == [
        "1,,A,,,4,100,1000",
        "2,,B,,,2,0,500",
        "3,,C,,,1,-50,0",
    ]
