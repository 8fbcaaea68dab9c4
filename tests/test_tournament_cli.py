"""`guobiao tournament ...`: a club tournament end to end, and refusals that change nothing."""

from __future__ import annotations

import csv
import json
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main
from guobiao.tournament.ema import decimal_points
from guobiao.tournament.ranking import format_points

T = "club"
TABLES = (
    "tournaments",
    "teams",
    "players",
    "sessions",
    "tables",
    "seat_assignments",
    "hand_records",
    "penalties",
    "session_results",
    "audit_entries",
    "session_absences",
)
# Session totals by table, seat order E S W N; ties give fractions (1 1/2, 1/2, 3 1/2 ...).
SHEETS = (
    (700, 500, 500, 300),
    (800, 600, 400, 200),
    (550, 550, 450, 450),
    (900, -100, 600, 600),
)


def _csv(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(["number,name,team,substitute", *lines]) + "\n", encoding="utf-8")
    return path


def _club(path: Path) -> Path:
    teams = ("Red", "Blue", "Green", "Gold")
    return _csv(path, [f"{i + 1},P{i + 1:02d},{teams[i // 4]}," for i in range(16)])


class Cli:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.url = f"sqlite:///{db}"

    def __call__(self, *args: str) -> Result:
        return CliRunner().invoke(main, ["tournament", *args, "--db", self.url])

    def ok(self, *args: str) -> str:
        result = self(*args)
        assert result.exit_code == 0, (result.output, result.exception)
        return result.output

    def snapshot(self) -> dict[str, list[tuple[object, ...]]]:
        with sqlite3.connect(self.db) as con:
            return {t: sorted(con.execute(f"SELECT * FROM {t}").fetchall()) for t in TABLES}

    def seats(self, session: int) -> dict[int, tuple[str, ...]]:
        """The stored seating, read with plain SQL: table number -> players at E S W N."""
        with sqlite3.connect(self.db) as con:
            rows = con.execute(
                "SELECT t.number, a.seat, p.name FROM seat_assignments a "
                "JOIN tables t ON a.table_id = t.id JOIN sessions s ON t.session_id = s.id "
                "JOIN players p ON a.player_id = p.id WHERE s.number = ? ORDER BY t.number, a.seat",
                (session,),
            ).fetchall()
        out: dict[int, list[str]] = {}
        for table, _seat, name in rows:
            out.setdefault(table, []).append(name)
        return {k: tuple(v) for k, v in out.items()}


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "t.db")


@pytest.fixture
def drawn(cli: Cli, tmp_path: Path) -> Cli:
    cli.ok("create", T, "--sessions", "2")
    assert "Added 16 player(s)" in cli.ok("players", T, str(_club(tmp_path / "p.csv")))
    cli.ok("draw", T, "--seed", "5")
    return cli


def _table_points(scores: list[int]) -> list[Fraction]:
    """4/2/1/0 by place, ties sharing the places they cover (independent of the package)."""
    places = [Fraction(4), Fraction(2), Fraction(1), Fraction(0)]
    out = []
    for score in scores:
        above = sum(s > score for s in scores)
        same = sum(s == score for s in scores)
        out.append(sum(places[above : above + same], Fraction(0)) / same)
    return out


def test_format_points() -> None:
    assert format_points(Fraction(15, 2)) == "7 1/2"
    assert format_points(Fraction(1, 3)) == "1/3"
    assert format_points(Fraction(8)) == "8"
    assert format_points(Fraction(-3, 2)) == "-1 1/2"


def test_club_tournament_end_to_end(drawn: Cli, tmp_path: Path) -> None:
    cli = drawn
    teams = {f"P{i + 1:02d}": ("Red", "Blue", "Green", "Gold")[i // 4] for i in range(16)}
    totals: dict[str, Fraction] = dict.fromkeys(teams, Fraction(0))
    match: dict[str, int] = dict.fromkeys(teams, 0)
    sessions: dict[str, list[Fraction]] = {p: [] for p in teams}
    for session in (1, 2):
        seats = cli.seats(session)
        assert sorted(seats) == [1, 2, 3, 4]
        assert sorted(p for t in seats.values() for p in t) == sorted(teams)
        for players in seats.values():  # team-mates never share a table
            assert len({teams[p] for p in players}) == 4
        shown = cli.ok("seating", T, "--session", str(session))
        for players in seats.values():
            assert all(p in shown for p in players)
        for table, players in seats.items():
            sheet = list(SHEETS[(session + table) % 4])
            cli.ok("totals", T, "--session", str(session), "--table", str(table), *map(str, sheet))
            for player, score, points in zip(players, sheet, _table_points(sheet), strict=True):
                totals[player] += points
                match[player] += score
                sessions[player].append(points)
    # The ranking, computed here: standard points, match points, then the sessions high first.
    key = {p: (totals[p], match[p], sorted(sessions[p], reverse=True)) for p in teams}
    expected = sorted(
        (1 + sum(key[q] > key[p] for q in teams), p, str(totals[p]), match[p]) for p in teams
    )

    out_csv = tmp_path / "s.csv"
    shown = cli.ok("standings", T, "--csv", str(out_csv))
    with out_csv.open(encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    got = [(int(r["rank"]), r["name"], r["standard_points"], int(r["match_points"])) for r in rows]
    # the CSV's standard points are decimals (a spreadsheet reads 11/2 as a date); --json is exact
    assert got == [
        (rank, name, decimal_points(Fraction(points)), m) for rank, name, points, m in expected
    ]
    assert [r["team"] for r in rows] == [teams[r["name"]] for r in rows]
    leader = rows[0]
    assert format_points(totals[leader["name"]]) in shown
    assert any(format_points(v).count(" ") == 1 for v in totals.values())  # a mixed fraction shows
    for value in totals.values():
        assert format_points(value) in shown

    out_json = tmp_path / "s.json"
    cli.ok("standings", T, "--json", str(out_json))
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    assert doc["ranking"] == "individual"
    assert [
        (s["rank"], s["name"], s["standard_points"], s["match_points"]) for s in doc["standings"]
    ] == expected
    count = len(doc["standings"])
    for s in doc["standings"]:
        assert Fraction(s["best_session"]) == max(sessions[s["name"]])
        # the EMA (MERS) fields: registration number and 1000 (N - place) / (N - 1), half up
        assert s["number"] == int(s["name"][1:])
        assert s["base_rank"] == int(
            Fraction(1000 * (count - s["rank"]), count - 1) + Fraction(1, 2)
        )
        tied = sum(e[0] == s["rank"] for e in expected) > 1
        assert s["tied"] == tied

    team_json = tmp_path / "teams.json"
    cli.ok("standings", T, "--teams", "--json", str(team_json))
    team_doc = json.loads(team_json.read_text(encoding="utf-8"))
    team_totals = {
        t: sum((totals[p] for p in teams if teams[p] == t), Fraction(0))
        for t in set(teams.values())
    }
    assert {s["name"]: Fraction(s["standard_points"]) for s in team_doc["standings"]} == team_totals
    assert sum(team_totals.values()) == 2 * 4 * 7  # 7 points per table, 4 tables, 2 sessions


def test_unknown_tournament_changes_nothing(drawn: Cli, tmp_path: Path) -> None:
    before = drawn.snapshot()
    for args in (
        ("players", "nope", str(_csv(tmp_path / "x.csv", ["99,Zed,,"]))),
        ("draw", "nope"),
        ("seating", "nope", "--session", "1"),
        ("totals", "nope", "--session", "1", "--table", "1", "500", "500", "500", "500"),
        ("standings", "nope"),
    ):
        result = drawn(*args)
        assert result.exit_code == 1, args
        assert "no tournament 'nope'" in result.output
        assert "Traceback" not in result.output
    assert drawn.snapshot() == before


def test_bad_csv_row_refuses_the_whole_file(cli: Cli, tmp_path: Path) -> None:
    cli.ok("create", T, "--sessions", "2")
    before = cli.snapshot()
    bad = _csv(tmp_path / "bad.csv", ["1,Ann,Red,", "2,Bob,Red,", "x3,Cid,Blue,", "4,Dan,Blue,"])
    result = cli("players", T, str(bad))
    assert result.exit_code == 2
    assert "line 4" in result.output and "'x3'" in result.output
    twice = _csv(tmp_path / "twice.csv", ["1,Ann,Red,", "2,Bob,Blue,", "3,Ann,Green,"])
    result = cli("players", T, str(twice))
    assert result.exit_code == 1
    assert "line 4" in result.output and "'Ann'" in result.output
    crowded = _csv(tmp_path / "five.csv", [f"{i},X{i},Red," for i in range(1, 6)])
    result = cli("players", T, str(crowded))
    assert result.exit_code == 1
    assert "line 6" in result.output and "'Red'" in result.output
    assert cli.snapshot() == before  # no player and no team was added
    assert "Added 3 player(s)" in cli.ok(
        "players", T, str(_csv(tmp_path / "good.csv", ["1,Ann,Red,", "2,Bob,Red,", "3,Cid,,"]))
    )


def test_totals_refusals_change_nothing(drawn: Cli) -> None:
    cli = drawn
    cli.ok("totals", T, "--session", "1", "--table", "1", "600", "-100", "800", "700")
    before = cli.snapshot()
    result = cli("totals", T, "--session", "1", "--table", "2", "600", "500", "500", "500")
    assert result.exit_code == 1
    assert "sum to 2100, not 2000" in result.output
    result = cli("totals", T, "--session", "1", "--table", "1", "500", "500", "500", "500")
    assert result.exit_code == 1
    assert "already entered: to replace them, add --correct --who NAME" in result.output
    result = cli("totals", T, "--session", "1", "--table", "9", "500", "500", "500", "500")
    assert result.exit_code == 2
    assert "tables 1-4, not 9" in result.output
    result = cli("totals", T, "--session", "3", "--table", "1", "500", "500", "500", "500")
    assert result.exit_code == 1
    assert "not seated" in result.output
    result = cli("totals", T, "--session", "1", "--table", "2", "500", "500", "500")
    assert result.exit_code == 2
    assert cli.snapshot() == before
    table_one = cli.seats(1)[1]
    standings = cli.ok("standings", T)
    assert table_one[2] in standings and "Traceback" not in standings


def test_refusals_of_create_and_draw(drawn: Cli) -> None:
    cli = drawn
    before = cli.snapshot()
    result = cli("create", T, "--sessions", "2")
    assert result.exit_code == 1 and "already exists" in result.output
    result = cli("create", "other", "--sessions", "0")
    assert result.exit_code == 2
    result = cli("create", "other", "--sessions", "2", "--group-size", "6")
    assert result.exit_code == 2 and "multiple of 4" in result.output
    result = cli("draw", T, "--seed", "9")
    assert result.exit_code == 1 and "already seated" in result.output
    assert cli.snapshot() == before


def test_db_from_environment(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    result = CliRunner().invoke(
        main, ["tournament", "create", T, "--sessions", "1"], env={"GUOBIAO_DB": url}
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "env.db").exists()


def test_players_csv_refuses_unknown_columns_and_names_alike(cli: Cli, tmp_path: Path) -> None:
    cli.ok("create", T, "--sessions", "2")
    before = cli.snapshot()
    misspelt = tmp_path / "misspelt.csv"
    misspelt.write_text("number,name,team,substitue\n1,Ann,Red,\n2,Sub,Red,yes\n", "utf-8")
    result = cli("players", T, str(misspelt))
    assert result.exit_code == 2  # a substitute taken for a player, silently, before
    assert "'substitue' (did you mean 'substitute'?)" in result.output
    semicolons = tmp_path / "semicolons.csv"
    semicolons.write_text("number;name;team\n1;Ann;Red\n", "utf-8")
    result = cli("players", T, str(semicolons))
    assert result.exit_code == 2 and "separated by semicolons" in result.output
    alike = _csv(tmp_path / "alike.csv", ["1,Ann Lee,,", "2,Bob,,", "3,ann  lee,,"])
    result = cli("players", T, str(alike))
    assert result.exit_code == 1
    assert "line 4: 'ann  lee' is also on line 2" in result.output
    assert cli.snapshot() == before
    cli.ok("players", T, str(_csv(tmp_path / "one.csv", ["1,Ann Lee,,"])))
    again = _csv(tmp_path / "again.csv", ["2,ANN LEE,,"])
    result = cli("players", T, str(again))
    assert result.exit_code == 1
    assert "'Ann Lee' is already registered ('ANN LEE' differs only in case or spacing)" in (
        result.output
    )
    # the optional columns and their other spellings are still taken
    other = tmp_path / "other.csv"
    other.write_text("Number,Name,Team,Substitute,EMA number,Country\n2,Bob,Red,,1002,FR\n")
    assert "Added 1 player(s)" in cli.ok("players", T, str(other))


def test_a_name_not_registered_is_answered_with_the_likely_one(drawn: Cli) -> None:
    for args in (
        ("checkin", T, "--session", "1", "p01"),  # another case
        ("history", T, "P 01"),  # another spacing
        ("withdraw", T, "P01x", "--who", "ref"),  # a close spelling
    ):
        result = drawn(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "(did you mean 'P01'?)" in result.output, (args, result.output)
    result = drawn("history", T, "Nobody")
    assert result.exit_code == 1 and "no player 'Nobody'" in result.output
    assert "did you mean" not in result.output
