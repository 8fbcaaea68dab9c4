"""The organisers' papers of issue 13, point 7: `guobiao tournament cards` (a seat card per player),
`highlights` (the best hands and the fan counts) and the EMA results file (`ema`, `standings
--ema`), each checked against the stored tournament read another way (the Store API,
``queries.read_seating``, plain SQL); the players CSV's first and last names; the migration
that adds them, from a database made at the revision before."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from alembic import command
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, inspect, text

from guobiao.cli import main
from guobiao.scoring.fans import Fan
from guobiao.tournament.ema import split_name
from guobiao.tournament.queries import read_seating
from guobiao.tournament.ranking import individual_ranking, player_histories
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import Store, alembic_config, open_store
from test_reports import _pages, _text, chromium  # noqa: F401 (a fixture)

T = "club"
WINDS = "ESWN"

PLAYERS_CSV = """\
Number,Name,Team,EMA number,Nationality,First name,Last name
1,Jan van der Berg,Red,04290001,nl,,
2,,Blue,,fr,Ann,Lee
3,王小明,,,CN,,
4,MÜLLER Hans,,05010002,de,,
5,"Li, Wei",,,,,
6,欧阳娜娜,,,,,
7,Bob,Red,,,,
8,Maria de la Cruz,,,es,,
9,Eve Stone,,,,,
"""
"""Nine players; 2 is registered by first and last name only (its name is "Ann Lee")."""

NAMES = ("Jan van der Berg", "Ann Lee", "王小明", "MÜLLER Hans", "Li, Wei", "欧阳娜娜", "Bob",
         "Maria de la Cruz", "Eve Stone")  # fmt: skip
J, A, W, M, L, OY, B, C, E = NAMES
SPLIT = {  # the default split of a name registered whole: (first, last)
    J: ("Jan", "van der Berg"),
    W: ("小明", "王"),
    M: ("Hans", "MÜLLER"),
    L: ("Wei", "Li"),
    OY: ("娜娜", "欧阳"),
    B: ("", "Bob"),
    C: ("Maria", "de la Cruz"),
    E: ("Eve", "Stone"),
}


def _cli(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["tournament", *args, "--db", url])


def _ok(url: str, *args: str) -> str:
    result = _cli(url, *args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def _club(url: str, tmp_path: Path) -> Store:
    """3 sessions planned, 2 drawn (2 tables and a bye each), the 3rd not; session 1: table 1
    hand by hand (wins with fans, one by its points alone, a drawn hand), table 2 by its totals;
    session 2: Bob (the bye) plays for 王小明 at table 2, table 1 hand by hand, table 2 totals."""
    csv_path = tmp_path / "players.csv"
    csv_path.write_text(PLAYERS_CSV, encoding="utf-8")
    _ok(url, "create", T, "--sessions", "3")
    assert "Added 9 player(s)" in _ok(url, "players", T, str(csv_path))
    store = open_store(url)
    try:
        schedule = Schedule(
            NAMES,
            (
                SessionSeating(1, (Table(1, (J, A, W, M)), Table(2, (L, OY, B, C))), (E,)),
                SessionSeating(2, (Table(1, (E, J, L, A)), Table(2, (OY, W, C, M))), (B,)),
            ),
            "manual",
        )
        store.save_schedule(T, schedule)
        store.record_hand(T, 1, 1, 0, winner="E", fan_points=24, flowers=1, fans=["清一色"])
        store.record_hand(T, 1, 1, 1, winner="S", discarder="W", fan_points=10,
                          fans=["碰碰和", "箭刻", "箭刻"])  # fmt: skip
        store.record_hand(T, 1, 1, 2, winner=None)
        store.record_hand(T, 1, 1, 5, winner="N", discarder="E", fan_points=8)
        store.record_hand(T, 1, 1, 9, winner="W", fan_points=24, fans=["清一色"])
        store.record_session_totals(T, 1, 2, {L: 700, OY: 500, B: 500, C: 300})
        assert store.substitute(T, 2, W, B, who="organiser") == 2
        store.record_hand(T, 2, 1, 0, winner="S", discarder="N", fan_points=12,
                          fans=["碰碰和", "箭刻", "和绝张"])  # fmt: skip
        store.record_hand(T, 2, 1, 12, winner="E", discarder="S", fan_points=10,
                          fans=["箭刻", "箭刻", "五门齐"])  # fmt: skip
        store.record_session_totals(T, 2, 2, {OY: 400, B: 600, C: 480, M: 520})
    except BaseException:
        store.close()
        raise
    return store


@pytest.fixture
def club(db_url: str, tmp_path: Path) -> Iterator[tuple[str, Store]]:
    """``_club`` on SQLite and on PostgreSQL."""
    store = _club(db_url, tmp_path)
    try:
        yield db_url, store
    finally:
        store.close()


# -- seat cards ---------------------------------------------------------------------------------


class _Cards(HTMLParser):
    """Each card's player and its session rows: (status, table text, seat letter)."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, dict[int, list[str | None]]] = {}
        self.order: list[str] = []
        self.pages = 0
        self._row: list[str | None] | None = None
        self._col: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section":
            self.pages += 1
        if tag == "div" and a.get("class") == "card":
            name = a["data-player"] or ""
            self.order.append(name)
            self.cards[name] = {}
        if tag == "tr" and a.get("data-session"):
            self._row = [a["data-status"], None, None]
            self.cards[self.order[-1]][int(a["data-session"] or 0)] = self._row
        if tag == "td" and self._row is not None:
            self._col = a.get("data-col")
            if self._col == "seat":
                self._row[2] = a["data-seat"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self._row = None
        if tag == "td":
            self._col = None

    def handle_data(self, data: str) -> None:
        if self._row is not None and self._col == "table" and data.strip():
            self._row[1] = data.strip()


def _read_cards(html: str) -> _Cards:
    parser = _Cards()
    parser.feed(html)
    return parser


def test_cards_list_every_players_tables_and_winds(club: tuple[str, Store]) -> None:
    url, store = club
    page = _read_cards(_ok(url, "cards", T))
    assert page.order == list(NAMES)  # by registration number
    assert page.pages == 1  # 3 sessions: 2 × 5 cards on a page
    absences = {(s, p): kind for s, p, kind, _ in store.absences(T)}
    for session in (1, 2):
        seated = {
            name: (table, WINDS[seat])
            for table, names in read_seating(store, T, session)
            for seat, name in enumerate(names)
        }
        for name in NAMES:
            status, table, seat = page.cards[name][session]
            if name in seated:
                assert (table, seat) == (str(seated[name][0]), seated[name][1]), (name, session)
                assert status == ("plays_for" if (session, B) == (2, name) else "seated")
            else:
                kind = absences[(session, name)]
                assert status == kind  # "bye" or "absent"
                if kind == "absent":  # the seat Bob plays for them
                    assert (table, seat) == (str(seated[B][0]), seated[B][1])
                else:
                    assert (table, seat) == (None, None)
    assert all(page.cards[name][3] == ["not_drawn", None, None] for name in NAMES)
    html = _ok(url, "cards", T, "--sort", "name")
    assert _read_cards(html).order == sorted(NAMES, key=str.casefold)
    assert "Not drawn yet" in html and "未排座" in html and "Plays for" in html
    assert 'data-col="team">Red<' in html and "Seats change each round" in html


def test_cards_of_many_sessions_take_more_pages(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    _ok(url, "create", "big", "--sessions", "12")
    path = tmp_path / "p.csv"
    names = tuple(f"P{i}" for i in range(1, 17))
    path.write_text("number,name\n" + "".join(f"{i},P{i}\n" for i in range(1, 17)), "utf-8")
    _ok(url, "players", "big", str(path))
    tables = tuple(Table(t + 1, tuple(names[4 * t : 4 * t + 4])) for t in range(4))  # type: ignore[arg-type]
    store = open_store(url)
    try:
        sessions = tuple(SessionSeating(s, tables) for s in range(1, 13))
        store.save_schedule("big", Schedule(names, sessions, "manual"))
    finally:
        store.close()
    page = _read_cards(_ok(url, "cards", "big"))
    assert len(page.cards) == 16 and page.pages == 3  # 12 sessions: 3 cards down, 6 a page
    assert all(len(card) == 12 for card in page.cards.values())
    assert page.cards["P7"][12] == ["seated", "2", "W"]


def test_cards_and_highlights_pdf(chromium: str, tmp_path: Path) -> None:  # noqa: F811
    url = f"sqlite:///{tmp_path / 'p.db'}"  # the same pages from either database: once
    _club(url, tmp_path).close()
    out = tmp_path / "cards.pdf"
    result = _cli(url, "cards", T, "--pdf", str(out))
    assert result.exit_code == 0, result.output
    words = _text(out)
    assert _pages(out) == 1
    for name in (J, "Ann Lee", M, C, E):
        assert name in words
    assert "Not drawn yet" in words and "Seat card" in words
    out = tmp_path / "highlights.pdf"
    result = _cli(url, "highlights", T, "--pdf", str(out))
    assert result.exit_code == 0, result.output
    words = " ".join(_text(out).split())
    assert "Best hands" in words and "Fan counts" in words and "Dragon Pung" in words
    assert "session totals only" in words and _pages(out) == 1


# -- best hands and fan counts ------------------------------------------------------------------


def _stored_wins(store: Store) -> tuple[list[tuple[str, int, int, int, int, int, list[str]]],
                                        list[tuple[int, int]]]:  # fmt: skip
    """Every stored win (winner, session, table, hand 1-16, fan points, flowers, fans), read
    through the Store API, and the tables with totals and no hands."""
    wins = []
    totals = []
    for session in (1, 2):
        for number, names in read_seating(store, T, session):
            hands = store.hands(T, session, number)
            if not hands and store.table_scores(T, session, number) is not None:
                totals.append((session, number))
            table = Table(number, (names[0], names[1], names[2], names[3]))
            for hand in hands:
                if hand.winner_seat is not None:
                    winner = table.seats_at(hand.number)[hand.winner_seat]
                    wins.append((winner, session, number, hand.number + 1, hand.fan_points,
                                 hand.flowers, list(hand.fans or [])))  # fmt: skip
    return wins, totals


def test_highlights_count_the_stored_hands(club: tuple[str, Store]) -> None:
    url, store = club
    doc = json.loads(_ok(url, "highlights", T, "--json", "--top", "3"))
    wins, totals = _stored_wins(store)
    assert doc["wins"] == len(wins) == 6 and doc["hands_recorded"] == 7
    assert [(t["session"], t["table"]) for t in doc["tables_totals_only"]] == totals
    assert totals == [(1, 2), (2, 2)]
    assert doc["wins_without_fans"] == sum(not w[6] for w in wins) == 1
    times: Counter[str] = Counter()
    hands: Counter[str] = Counter()
    players: dict[str, set[str]] = {}
    for winner, *_, fans in wins:
        times.update(fans)
        hands.update(set(fans))
        for fan in fans:
            players.setdefault(fan, set()).add(winner)
    got = {f["fan"]: f for f in doc["fan_counts"]}
    assert set(got) == set(times)
    for fan, entry in got.items():
        assert (entry["times"], entry["hands"], entry["players"]) == (
            times[fan], hands[fan], len(players[fan])
        )  # fmt: skip
        assert (entry["en"], entry["points"]) == (Fan.by_name(fan).en, Fan.by_name(fan).points)
    assert got["箭刻"]["times"] == 2 + 1 + 2 and got["箭刻"]["hands"] == 3
    counts = [(f["hands"], f["times"]) for f in doc["fan_counts"]]
    assert counts == sorted(counts, reverse=True)  # most frequent first
    # the best 3: 24 (+1 flower), 24, then 12; the next (10) is not tied with 12
    ordered = sorted(wins, key=lambda w: (-w[4], -w[5], w[1], w[2], w[3]))
    best = [(h["player"], h["session"], h["table"], h["hand"], h["fan_points"], h["flowers"],
             h["fans"]) for h in doc["best_hands"]]  # fmt: skip
    assert best == ordered[:3]
    assert [b[4] for b in best] == [24, 24, 12]
    tied = json.loads(_ok(url, "highlights", T, "--json", "--top", "1"))
    assert [h["fan_points"] for h in tied["best_hands"]] == [24]  # 24 + 1 flower beats 24
    everything = json.loads(_ok(url, "highlights", T, "--json", "--top", "100"))
    assert len(everything["best_hands"]) == len(wins)


def test_highlights_say_what_they_leave_out(club: tuple[str, Store], tmp_path: Path) -> None:
    url, _ = club
    shown = _ok(url, "highlights", T)
    assert "2 table(s) were entered as session totals only and have no hands" in shown
    assert "session 1 table 2, session 2 table 2" in shown
    assert "entered by their fan points alone" in shown and "清一色" in shown
    out = tmp_path / "h.html"
    _ok(url, "highlights", T, "--html", str(out))
    html = out.read_text(encoding="utf-8")
    assert "只录局分" in html and "session totals only" in html
    assert html.count('<tr data-fan="') == 5 and 'data-fan="和绝张"' in html
    assert html.count("<tr data-player=") == 6  # --top 10 lists every win
    both = _cli(url, "highlights", T, "--json", "--html", str(out))
    assert both.exit_code == 2 and "not both" in both.output


def test_highlights_of_a_tournament_without_hands(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'e.db'}"
    _ok(url, "create", "empty", "--sessions", "1")
    doc = json.loads(_ok(url, "highlights", "empty", "--json"))
    assert doc["best_hands"] == [] and doc["fan_counts"] == [] and doc["hands_recorded"] == 0
    assert "No hand has been entered hand by hand yet" in _ok(url, "highlights", "empty")


# -- the EMA results file -----------------------------------------------------------------------


def test_ema_file_rows_against_the_standings(club: tuple[str, Store], tmp_path: Path) -> None:
    url, store = club
    out = tmp_path / "ema.csv"
    result = _cli(url, "ema", T, "--csv", str(out))
    assert result.exit_code == 0, result.output
    assert "name(s) split into last, first name" in result.output  # stderr, mixed in
    raw = out.read_text(encoding="utf-8")
    again = tmp_path / "standings-ema.csv"
    _ok(url, "standings", T, "--ema", str(again))
    assert again.read_text(encoding="utf-8") == raw  # one file, two ways
    assert _ok(url, "ema", T).startswith(raw)  # standard output (then the stderr note)
    rows = list(csv.reader(io.StringIO(raw)))
    assert rows[0] == ["Place", "EMA number", "Last name", "First name", "Country",
                       "Table points", "Mahjong points", "Base rank"]  # fmt: skip
    results = store.table_results(T)
    ranking = individual_ranking(results)
    histories = player_histories(results)
    assert len(rows) - 1 == len(ranking) == 9  # Bob played a session of his own
    registered = {
        J: ("04290001", "NL"),
        A: ("", "FR"),
        W: ("", "CN"),
        M: ("05010002", "DE"),
        C: ("", "ES"),
    }
    for standing, row in zip(ranking, rows[1:], strict=True):
        place, ema_id, last, first, country, table_points, mahjong, base = row
        assert int(place) == standing.rank
        assert (first, last) == SPLIT.get(standing.name, ("Ann", "Lee"))
        assert (ema_id, country) == registered.get(standing.name, ("", ""))
        assert Fraction(table_points) == standing.standard_points  # all exact decimals here
        lines = histories[standing.name].ranked_lines
        assert int(mahjong) == sum((line.score or 0) - 500 for line in lines)
        n = len(ranking)
        assert int(base) == (2000 * (n - standing.rank) + (n - 1)) // (2 * (n - 1))
    assert any("." in r[5] for r in rows[1:])  # a shared place at a table: a half point


def test_names_are_split_as_documented() -> None:
    for name, parts in SPLIT.items():
        assert split_name(name) == parts
    assert split_name("DE LA CRUZ Maria") == ("Maria", "DE LA CRUZ")
    assert split_name("  Jean-Pierre   DUPONT ") == ("Jean-Pierre", "DUPONT")
    assert split_name("Li, ") == ("", "Li")


def test_players_csv_names_and_refusals(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    _ok(url, "create", T, "--sessions", "1")
    path = tmp_path / "p.csv"
    path.write_text("number,ema,ema_id,name\n1,1,2,A\n", encoding="utf-8")
    twice = _cli(url, "players", T, str(path))
    assert twice.exit_code == 2 and "two columns for ema_id" in twice.output
    path.write_text("number,team\n1,x\n", encoding="utf-8")
    nameless = _cli(url, "players", T, str(path))
    assert nameless.exit_code == 2 and "first_name,last_name may stand for name" in nameless.output
    path.write_text("number,surname,given name\n1,,\n", encoding="utf-8")
    blank = _cli(url, "players", T, str(path))
    assert blank.exit_code == 2 and "line 2: no name" in blank.output
    path.write_text("number,Surname,Given name\n1,Zhang,San\n2,Smith,\n", encoding="utf-8")
    _ok(url, "players", T, str(path))
    engine = create_engine(url)
    with engine.connect() as conn:
        got = conn.execute(
            text("SELECT number, name, first_name, last_name FROM players ORDER BY number")
        ).all()
    engine.dispose()
    assert [tuple(r) for r in got] == [
        (1, "San Zhang", "San", "Zhang"),
        (2, "Smith", None, "Smith"),
    ]


# -- the migration --------------------------------------------------------------------------------


def test_the_names_migration_upgrades_a_database_at_the_previous_head(db_url: str) -> None:
    config = alembic_config(db_url)
    command.upgrade(config, "0003")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        assert "first_name" not in {c["name"] for c in inspect(conn).get_columns("players")}
        conn.execute(
            text(
                "INSERT INTO tournaments (id, name, group_size, sessions_planned, rules_profile,"
                " starting_points, created_at) VALUES (1, 'old', NULL, 1, 'mcr1998', 500,"
                " '2026-11-01 10:00:00')"
            )
        )
        for i, name in enumerate(("Jan van der Berg", "B", "C", "D"), 1):
            conn.execute(
                text(
                    "INSERT INTO players (tournament_id, number, name, substitute, ema_id)"
                    " VALUES (1, :n, :name, false, :ema)"
                ),
                {"n": i, "name": name, "ema": f"0429000{i}"},
            )
    engine.dispose()
    store = open_store(db_url)  # upgrades to the head
    try:
        store.save_schedule(
            "old",
            Schedule(
                (J, "B", "C", "D"), (SessionSeating(1, (Table(1, (J, "B", "C", "D")),)),), "m"
            ),
        )
        store.record_session_totals("old", 1, 1, {J: 600, "B": 500, "C": 500, "D": 400})
    finally:
        store.close()
    engine = create_engine(db_url)
    with engine.connect() as conn:
        columns = {c["name"] for c in inspect(conn).get_columns("players")}
        assert {"first_name", "last_name"} <= columns
        kept = conn.execute(text("SELECT name, ema_id, first_name FROM players ORDER BY number"))
        assert tuple(kept.first() or ()) == (J, "04290001", None)
    engine.dispose()
    rows = list(csv.reader(io.StringIO(_ok(db_url, "ema", "old"))))
    assert rows[1][:4] == ["1", "04290001", "van der Berg", "Jan"]
    command.downgrade(config, "0003")  # and down again: the columns go, the players stay
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert "first_name" not in {c["name"] for c in inspect(conn).get_columns("players")}
        assert conn.execute(text("SELECT count(*) FROM players")).scalar_one() == 4
    engine.dispose()
