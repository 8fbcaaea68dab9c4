"""Issue 13, point 6, a referee's pace, on SQLite and PostgreSQL, through the command line:

- ``hands FILE``: a table's 16 hands from one file (CSV or JSON lines) are stored exactly as the 16
  ``hand`` commands store them; a bad line refuses the whole file, naming the line and the field,
  and nothing is stored;
- ``hands --prompt``: hand by hand, the table's scores after each, a hand redone, saved at the end;
- ``status``: missing, partial and complete tables; ``finish``: a session ended early (第六条四);
- ``standings``: a partial table is marked, not ranked silently as finished.
"""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main
from guobiao.tournament.ranking import Entry, TableResult, individual_ranking
from guobiao.tournament.store import open_store

T = "club"
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "table-hands.csv"


class Cli:
    def __init__(self, url: str) -> None:
        self.url = url

    def __call__(self, *args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(main, ["tournament", *args, "--db", self.url], input=input)

    def ok(self, *args: str, input: str | None = None) -> str:
        result = self(*args, input=input)
        assert result.exit_code == 0, (result.output, result.exception)
        return result.output

    def stored(self, session: int, table: int) -> list[tuple[object, ...]]:
        """A table's stored hands, everything but ids: winds, points, fans, tiles, penalties."""
        store = open_store(self.url)
        try:
            return [
                (
                    h.number,
                    h.winner_seat,
                    h.discarder_seat,
                    h.fan_points,
                    h.flowers,
                    h.fans,
                    h.tiles,
                    h.deltas,
                    [(p.seat, p.payee_seat, p.kind, p.amount) for p in h.penalties],
                )
                for h in store.hands(T, session, table)
            ]
        finally:
            store.close()

    def scores(self, session: int, table: int) -> list[int] | None:
        """A table's 局分 in the order of its first hand's seats (E S W N)."""
        store = open_store(self.url)
        try:
            seats = next(x.players for x in store.table_status(T, session) if x.table == table)
            scores = store.table_scores(T, session, table)
            return None if scores is None else [scores[p] for p in seats]
        finally:
            store.close()

    def audit_count(self) -> int:
        store = open_store(self.url)
        try:
            return len(store.audit_trail(T))
        finally:
            store.close()

    def status(self) -> dict[tuple[int, int], dict[str, object]]:
        doc = json.loads(self.ok("status", T, "--json"))
        return {(s["session"], t["table"]): t for s in doc["sessions"] for t in s["tables"]}


@pytest.fixture
def cli(db_url: str, tmp_path: Path) -> Cli:
    c = Cli(db_url)
    players = tmp_path / "players.csv"
    rows = [f"{n},P{n}" for n in range(1, 13)]
    players.write_text("\n".join(["number,name", *rows]) + "\n", encoding="utf-8")
    c.ok("create", T, "--sessions", "2")
    c.ok("players", T, str(players))
    c.ok("draw", T, "--seed", "3")
    return c


def _example_rows() -> list[dict[str, str]]:
    lines = [x for x in EXAMPLE.read_text(encoding="utf-8").splitlines() if not x.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def _hand_args(row: dict[str, str]) -> list[str]:
    """The `hand` command that enters one line of the example file."""
    args = ["--hand", row["hand"]]
    if row["winner"]:
        args += ["--winner", row["winner"]]
        args += ["--self-drawn"] if row["from"] == "self" else ["--from", row["from"]]
    for column, option in (("fan", "--fan"), ("fans", "--fans"), ("tiles", "--tiles")):
        if row[column]:
            args += [option, row[column]]
    if row["flowers"]:
        args += ["--flowers", row["flowers"]]
    for penalty in row["penalties"].split():
        args += ["--penalty", penalty]
    for seat in row["warnings"].split():
        args += ["--warning", seat]
    if row["note"]:
        args += ["--note", row["note"]]
    return args


def test_a_file_of_16_hands_is_the_16_hand_commands(cli: Cli) -> None:
    rows = _example_rows()
    assert [int(r["hand"]) for r in rows] == list(range(1, 17))
    for row in rows:  # table 1: one `hand` command per line
        cli.ok("hand", T, "--session", "1", "--table", "1", *_hand_args(row), "--who", "li")
    before = cli.audit_count()
    # table 2: the whole file, checked first (nothing stored), then recorded
    shown = cli.ok("hands", T, "--session", "1", "--table", "2", str(EXAMPLE), "--check")
    assert "16 hand(s) would be recorded" in shown and cli.stored(1, 2) == []
    assert cli.audit_count() == before
    out = cli.ok("hands", T, "--session", "1", "--table", "2", str(EXAMPLE), "--who", "li")
    assert "16 hand(s) recorded" in out and "hand(s) 1-16" in out
    # table 3: the same hands as JSON lines on standard input, names for some seats
    seats = cli.status()[(1, 3)]["players"]
    assert isinstance(seats, list)
    jsonl = []
    for row in rows:
        doc: dict[str, object] = {k: v for k, v in row.items() if v}
        doc["hand"] = int(row["hand"])
        for key in ("penalties", "warnings"):
            if row[key]:
                doc[key] = row[key].split()
        if row["hand"] == "1":  # hand 1: the seats are the first hand's, by name
            doc["winner"], doc["from"] = seats[1], seats[0]
        jsonl.append(json.dumps(doc, ensure_ascii=False))
    cli.ok("hands", T, "--session", "1", "--table", "3", "-", input="\n".join(jsonl) + "\n")
    assert len(cli.stored(1, 1)) == 16
    assert cli.stored(1, 2) == cli.stored(1, 1) == cli.stored(1, 3)
    assert cli.scores(1, 2) == cli.scores(1, 1) == cli.scores(1, 3)
    assert sum(cli.scores(1, 1) or []) == 2000  # hand 8's fine is paid to W: the sum stays
    # every hand has its audit entry with its author, as the `hand` command leaves it
    trail = json.loads(cli.ok("audit", T, "--json"))["audit"]
    entered = [(a["table"], a["hand"], a["who"]) for a in trail if a["what"] == "hand_record"]
    for table in (1, 2, 3):
        assert sorted(h for t, h, _ in entered if t == table) == list(range(1, 17))
    assert {who for t, _, who in entered if t in (1, 2)} == {"li"}
    # a table complete with 16 hands takes no more
    again = cli("hands", T, "--session", "1", "--table", "2", str(EXAMPLE))
    assert (
        again.exit_code == 2 and "line 6 (hand 1), hand: hand 1 is already recorded" in again.output
    )


def test_a_bad_line_refuses_the_whole_file(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        "Hand,Winner,From,Fan,Fans,Penalties,Flowers\n"  # the header's case does not matter
        "1,S,E,12,,,\n"
        "2,Zed,E,12,,,\n"  # line 3: no such seat or player
        '3,W,N,,"碰碰和,Nope",,\n'  # line 4: no such fan
        "\n"
        "4,E,self,x,,,\n"  # line 6: not a number
        "5,,,,,W:oops,\n"  # line 7: no such penalty kind
        "1,N,self,8,,,\n"  # line 8: hand 1 twice
        "6,E,,8,,,\n"  # line 9: neither a discarder nor self-drawn
        "7,E,S,8,,,9\n"  # line 10: at most 8 flowers
        "17,E,S,8,,,\n",  # line 11: hands are 1-16
        encoding="utf-8",
    )
    before = cli.audit_count()
    result = cli("hands", T, "--session", "1", "--table", "1", str(path))
    assert result.exit_code == 2 and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    expected = [
        "line 3 (hand 2), winner: 'Zed' is neither a seat",
        "line 4 (hand 3), fans: no fan named 'Nope'",
        "line 6 (hand 4), fan: 'x' is not a whole number",
        "line 7 (hand 5), penalties: penalty 'W:oops': the kind 'oops'",
        "line 8 (hand 1), hand: hand 1 is also on line 2",
        "line 9 (hand 6), from: a win is either from SEAT (on a discard) or self",
        "line 10 (hand 7), flowers: 9 is not 0-8",
        "line 11, hand: 17 is not 1-16",
    ]
    for want in expected:
        assert any(want in line for line in errors), (want, errors)
    assert errors[-1].endswith("nothing recorded (8 error(s))")
    assert cli.stored(1, 1) == [] and cli.audit_count() == before
    # a line the store refuses (below the 8-point minimum) refuses the file too, naming the line
    path.write_text("hand,winner,from,fan\n1,S,E,12\n# a comment\n2,S,E,6\n", encoding="utf-8")
    refused = cli("hands", T, "--session", "1", "--table", "1", str(path))
    assert refused.exit_code == 1
    assert "line 4 (hand 2)" in refused.output and "below the 8-point minimum" in refused.output
    assert cli.stored(1, 1) == [] and cli.audit_count() == before
    # a header the command does not know, and a JSON line that is not an object
    path.write_text("hand,winer\n1,S\n", encoding="utf-8")
    assert (
        "unknown column(s) 'winer'"
        in cli("hands", T, "--session", "1", "--table", "1", str(path)).output
    )
    no_object = cli("hands", T, "--session", "1", "--table", "1", "-", input='{"hand": 1}\n[1]\n')
    assert no_object.exit_code == 2 and "line 2: not a JSON object" in no_object.output
    assert cli.stored(1, 1) == []


def test_the_prompt_enters_hand_by_hand_with_a_redo(cli: Cli) -> None:
    answers = [
        "S", "E", "12", "", "", "",  # hand 1: S wins from E, 12
        "E", "self", "8", "", "", "",  # hand 2: E self-drawn 8 (redone below)
        "", "W:false", "",  # hand 3: drawn, a false win
        "redo 2",
        "N", "W", "碰碰和,箭刻×2", "1", "", "S",  # hand 2 again
        "Zed", "S", "8", "", "", "",  # hand 4: no such player: asked again
        "done",
        "n",  # the session did not end after hand 3
        "y",  # save
    ]  # fmt: skip
    out = cli.ok("hands", T, "--session", "1", "--table", "1", "--prompt", "--who", "li",
                 input="\n".join(answers) + "\n")  # fmt: skip
    assert out.count("table now:") == 4  # hands 1, 2, 3 and 2 again
    assert "error: winner: 'Zed' is neither a seat" in out and "type hand 4 again" in out
    assert "3 hand(s) recorded" in out
    # the same hands by `hand` at another table: the same records
    hand = ("hand", T, "--session", "1", "--table", "2")
    cli.ok(*hand, "--hand", "1", "--winner", "S", "--from", "E", "--fan", "12")
    cli.ok(*hand, "--hand", "2", "--winner", "N", "--from", "W", "--fans", "碰碰和,箭刻×2",
           "--flowers", "1", "--warning", "S")  # fmt: skip
    cli.ok(*hand, "--hand", "3", "--penalty", "W:false")
    assert len(cli.stored(1, 1)) == 3
    assert cli.stored(1, 1) == cli.stored(1, 2) and cli.scores(1, 1) == cli.scores(1, 2)
    # quitting saves nothing; the prompt goes on from the first hand not entered
    quit_out = cli.ok("hands", T, "--session", "1", "--table", "1", "--prompt",
                      input="S\nE\n8\n\n\n\nquit\n")  # fmt: skip
    assert "Hand 4 (East round)" in quit_out and "Nothing saved." in quit_out
    assert len(cli.stored(1, 1)) == 3


def test_status_and_an_early_end(cli: Cli, tmp_path: Path) -> None:
    rows = EXAMPLE.read_text(encoding="utf-8").splitlines()
    header = next(i for i, x in enumerate(rows) if x.startswith("hand,"))
    nine, thirteen = tmp_path / "nine.csv", tmp_path / "thirteen.csv"
    nine.write_text("\n".join(rows[header : header + 10]) + "\n", encoding="utf-8")
    thirteen.write_text("\n".join(rows[header : header + 14]) + "\n", encoding="utf-8")
    cli.ok("hands", T, "--session", "1", "--table", "1", str(EXAMPLE))
    cli.ok("hands", T, "--session", "1", "--table", "2", str(nine))
    cli.ok("totals", T, "--session", "2", "--table", "1", "620", "480", "510", "390")
    cli.ok("hands", T, "--session", "2", "--table", "2", str(thirteen))
    status = cli.status()
    states = {key: value["state"] for key, value in status.items()}
    assert states == {
        (1, 1): "complete",
        (1, 2): "partial",
        (1, 3): "missing",
        (2, 1): "complete",
        (2, 2): "partial",
        (2, 3): "missing",
    }
    assert status[(1, 2)]["hands"] == list(range(1, 10))
    assert status[(1, 2)]["missing_hands"] == list(range(10, 17))
    assert status[(2, 1)]["totals"] is True
    # the time limit (第六条四): the session of table 2 ended after hand 13
    finish = ("finish", T, "--session", "2", "--table", "2")
    out = cli.ok(*finish, "--who", "li", "--note", "time")
    assert "ended after hand 13" in out
    ended = cli.status()[(2, 2)]
    assert ended["state"] == "complete" and ended["missing_hands"] == []
    assert ended["ended"]["hands"] == 13 and ended["ended"]["who"] == "li"  # type: ignore[index]
    late = cli("hand", T, "--session", "2", "--table", "2", "--hand", "14", "--winner", "E",
               "--self-drawn", "--fan", "8")  # fmt: skip
    assert late.exit_code == 1 and "ended after hand 13" in late.output
    assert "session ended after hand 13" in cli.ok("audit", T)
    # no early end with a hand missing, nor twice, nor at a table with totals
    cli.ok("hand", T, "--session", "1", "--table", "3", "--hand", "2", "--winner", "E",
           "--self-drawn", "--fan", "8")  # fmt: skip
    gap = cli("finish", T, "--session", "1", "--table", "3")
    assert gap.exit_code == 1 and "hand(s) 1 are not entered" in gap.output
    assert cli(*finish).exit_code == 1
    assert cli("finish", T, "--session", "2", "--table", "1").exit_code == 1
    # the text view and its summary lines
    text = cli.ok("status", T)
    assert "9 of 16 hands" in text and "hands 10-16" in text and "13 hands, ended early" in text
    assert "Session 1: 1 complete, 2 partial, 0 missing of 3 table(s)." in text
    assert "Session 2: 2 complete, 0 partial, 1 missing of 3 table(s)." in text
    assert f"{T}: 3 of 6 table(s) complete, 2 partial, 1 missing." in text
    only = json.loads(cli.ok("status", T, "--session", "2", "--json"))
    assert [s["session"] for s in only["sessions"]] == [2]
    assert only["summary"]["complete"] == 2
    # reopened, the table is partial again and takes hand 14
    cli.ok(*finish, "--reopen", "--who", "li")
    assert cli.status()[(2, 2)]["state"] == "partial"
    cli.ok(
        "hands",
        T,
        "--session",
        "2",
        "--table",
        "2",
        "-",
        input="hand,winner,from,fan\n14,E,self,8\n",
    )
    assert cli.status()[(2, 2)]["hands"] == list(range(1, 15))
    # --ended with the file: hands 15 and 16 missing, the session ended after 14 → complete
    refused = cli("hands", T, "--session", "2", "--table", "2", "-", "--ended",
                  input="hand,winner\n16,\n")  # fmt: skip
    assert refused.exit_code == 1 and "hand(s) 15 are not entered" in refused.output
    cli.ok("hands", T, "--session", "2", "--table", "2", "-", "--ended", input="hand\n15\n")
    assert cli.status()[(2, 2)]["state"] == "complete"


def test_standings_mark_a_partial_table(cli: Cli, tmp_path: Path) -> None:
    rows = EXAMPLE.read_text(encoding="utf-8").splitlines()
    header = next(i for i, x in enumerate(rows) if x.startswith("hand,"))
    nine = tmp_path / "nine.csv"
    nine.write_text("\n".join(rows[header : header + 10]) + "\n", encoding="utf-8")
    cli.ok("hands", T, "--session", "1", "--table", "1", str(EXAMPLE))
    cli.ok("hands", T, "--session", "1", "--table", "2", str(nine))
    partial_players = set(cli.status()[(1, 2)]["players"])  # type: ignore[arg-type]
    path = tmp_path / "s.json"
    shown = cli.ok("standings", T, "--json", str(path))
    assert "* counts partial results, not final: session 1 table 2: 9 of 16 hands." in shown
    marked = {m.group(1) for m in re.finditer(r"\d+=?\*\s*│\s*(\S+)", shown)}
    assert marked == partial_players
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["partial_tables"] == [{"session": 1, "table": 2, "hands": 9, "of": 16}]
    assert {s["name"] for s in doc["standings"] if s["partial"]} == partial_players
    ranked = [s for s in doc["standings"] if s["status"] == "ranked"]
    assert len(ranked) == 8
    # the players of the tables not entered yet are listed after them, with no place
    rest = doc["standings"][len(ranked) :]
    registered = {f"P{n}" for n in range(1, 13)}  # the fixture's 12, at 3 tables
    assert {s["name"] for s in rest} == registered - {s["name"] for s in ranked}
    assert {(s["rank"], s["status"], s["partial"]) for s in rest} == {(None, "did not play", False)}
    # ended early, the table is final: no mark
    cli.ok("finish", T, "--session", "1", "--table", "2", "--who", "li")
    shown = cli.ok("standings", T, "--json", str(path))
    assert "*" not in shown
    assert not any(s["partial"] for s in json.loads(path.read_text(encoding="utf-8"))["standings"])


def test_a_partial_table_marks_its_whole_ranking_group() -> None:
    """In a ranking group larger than a table, a partial table's scores move the standard
    points of the group's other tables too: they are marked as well; other groups are not."""

    def table(number: int, group: str, names: str, partial: bool = False) -> TableResult:
        scores = (600, 500, 450, 450)
        entries = tuple(Entry(n, s) for n, s in zip(names, scores, strict=True))
        return TableResult(1, number, entries, group, partial=partial)

    results = [
        table(1, "1", "ABCD"),
        table(2, "1", "EFGH", partial=True),
        table(3, "2", "IJKL"),
    ]
    marks = {s.name: s.partial for s in individual_ranking(results)}
    assert {n for n, p in marks.items() if p} == set("ABCDEFGH")
    assert marks["A"] == ((1, 2),) and marks["I"] == ()
    alone = [TableResult(1, 1, tuple(Entry(n, 500) for n in "ABCD"), partial=True)]
    assert all(s.partial == ((1, 1),) for s in individual_ranking(alone))
    assert Fraction(sum(s.standard_points for s in individual_ranking(alone))) == 7


def test_the_docs_describe_the_example_file() -> None:
    doc = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
    header = next(
        x for x in EXAMPLE.read_text(encoding="utf-8").splitlines() if x.startswith("hand,")
    )
    assert header in doc and "docs/examples/table-hands.csv" in doc
    blocks = re.findall(r"```csv\n(.*?)```", doc, flags=re.S)
    assert blocks, "docs/tournament.md shows the example file"
    example = EXAMPLE.read_text(encoding="utf-8").splitlines()
    for line in blocks[0].splitlines():
        assert line in example, line
