"""Issue 13, score entry as an MCR organiser ran it: one test per defect, on SQLite and
PostgreSQL, through the command line as a referee types it.

1. ``totals --correct`` at a table with a lateness deduction reads the totals as the first entry
   does (each 局分 after its deduction) and keeps the lateness.
2. A second ``late`` for the same player and session is refused: never a double deduction;
   ``late --correct --who`` replaces it, audited.
3. Messages count hands 1-16, as typed.
4. The below-8-points refusal names the option to type, ``--penalty S:false``.
8. Implausible totals warn; every entry records its author; ``audit`` reads
   "session 1, table 1, hand 7: winner S -> N, by li, 14:02".
"""

from __future__ import annotations

import csv
import getpass
import json
import re
from pathlib import Path

import pytest

from guobiao.tournament.queries import read_seating
from guobiao.tournament.store import open_store
from tournament_cli import TournamentCli

T = "club"


class Cli(TournamentCli):
    def refused(self, *args: str) -> str:
        """A refusal: exit 1 (a refused action) or 2 (bad input), one line, no traceback."""
        result = self(*args)
        assert result.exit_code in (1, 2), (result.output, result.exception)
        assert "Traceback" not in result.output and result.output.count("\n") == 1
        return result.output

    def table(self, session: int, table: int) -> tuple[str, ...]:
        store = open_store(self.url)
        try:
            return dict(read_seating(store, T, session))[table]
        finally:
            store.close()

    def scores(self, session: int, table: int) -> dict[str, int] | None:
        store = open_store(self.url)
        try:
            return store.table_scores(T, session, table)
        finally:
            store.close()

    def penalties(self, tmp_path: Path) -> list[dict[str, str]]:
        path = tmp_path / "penalties.csv"
        self.ok("penalties", T, "--csv", str(path))
        with path.open(encoding="utf-8-sig") as handle:
            return list(csv.DictReader(handle))


@pytest.fixture
def cli(db_url: str, tmp_path: Path) -> Cli:
    c = Cli(db_url)
    players = tmp_path / "players.csv"
    rows = [f"{n},P{n}" for n in range(1, 9)]
    players.write_text("\n".join(["number,name", *rows]) + "\n", encoding="utf-8")
    c.ok("create", T, "--sessions", "1")
    c.ok("players", T, str(players))
    c.ok("draw", T, "--seed", "3")
    return c


def _totals(*scores: int) -> list[str]:
    return [str(s) for s in scores]


def test_1_totals_correction_keeps_the_lateness(cli: Cli, tmp_path: Path) -> None:
    e, s, w, n = cli.table(1, 1)
    cli.ok("late", T, "--session", "1", "--player", e, "--minutes", "8")  # 10 points
    sheet = ("totals", T, "--session", "1", "--table", "1")
    cli.ok(*sheet, *_totals(490, 600, 500, 400))  # the true 局分: 1990
    # the corrected sheet is read the same way: 局分 after the deduction, summing to 1990
    out = cli.ok(*sheet, *_totals(500, 590, 500, 400), "--correct", "--who", "li")
    assert out.startswith("Corrected")
    assert cli.scores(1, 1) == {e: 500, s: 590, w: 500, n: 400}
    # the scores before the deduction (2000) are refused, saying why, and change nothing
    message = cli.refused(*sheet, *_totals(510, 590, 500, 400), "--correct", "--who", "li")
    assert "sum to 2000, not 1990" in message and f"after its deduction ({e} 10)" in message
    assert cli.scores(1, 1) == {e: 500, s: 590, w: 500, n: 400}
    # the lateness survives the correction
    late = [(r["player"], r["kind"], r["amount"]) for r in cli.penalties(tmp_path)]
    assert late == [(e, "late", "10")]


def test_2_a_second_late_is_refused(cli: Cli, tmp_path: Path) -> None:
    e = cli.table(1, 1)[0]
    late = ("late", T, "--session", "1", "--player", e)
    cli.ok(*late, "--minutes", "8")
    for minutes in ("8", "12"):  # the same entry again, or other minutes
        message = cli.refused(*late, "--minutes", minutes)
        assert "already recorded late (10 points, 8 min)" in message
        assert "lateness counts once a session" in message
    assert [(r["kind"], r["amount"]) for r in cli.penalties(tmp_path)] == [("late", "10")]
    # a different lateness replaces it only explicitly, and the audit trail says so
    assert "--correct needs --who" in cli.refused(*late, "--minutes", "12", "--correct")
    cli.ok(*late, "--minutes", "12", "--correct", "--who", "ref")  # 20 points
    assert [(r["kind"], r["amount"]) for r in cli.penalties(tmp_path)] == [("late", "20")]
    assert f"late {e} -10 (8 min) -> -20 (12 min), by ref" in cli.ok("audit", T)
    cli.ok("totals", T, "--session", "1", "--table", "1", *_totals(480, 500, 500, 500))


def test_3_messages_count_hands_from_1(cli: Cli) -> None:
    hand = ("hand", T, "--session", "1", "--table", "1")
    cli.ok(*hand, "--hand", "6", "--winner", "S", "--from", "E", "--fan", "8")
    message = cli.refused(*hand, "--hand", "6", "--winner", "W", "--from", "E", "--fan", "8")
    assert "hand 6 is already recorded" in message and "hand 5" not in message
    message = cli.refused(
        *hand, "--hand", "7", "--winner", "W", "--from", "E", "--fan", "8",
        "--correct", "--who", "li",
    )  # fmt: skip
    assert "hand 7 is not recorded" in message and "hand 6" not in message
    message = cli.refused(*hand, "--hand", "16", "--winner", "W", "--self-drawn", "--fan", "5")
    assert "hand 16:" in message and "hand 15" not in message


def test_4_below_the_minimum_names_the_option_to_type(cli: Cli) -> None:
    hand = ("hand", T, "--session", "1", "--table", "1", "--hand", "1")
    message = cli.refused(*hand, "--winner", "S", "--from", "E", "--fan", "6")
    assert "6 fan points is below the 8-point minimum" in message
    assert "--penalty S:false" in message
    assert "Penalty(" not in message and "PenaltyKind" not in message
    out = cli.ok(*hand, "--penalty", "S:false")  # what the message says to type
    assert re.search(r"S \S+ -30", out)


def test_8_implausible_totals_warn(cli: Cli) -> None:
    e, s, w, n = cli.table(1, 1)
    result = cli("totals", T, "--session", "1", "--table", "1", *_totals(5600, -3080, -260, -260))
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 4
    assert f"{e} 5600 is implausible" in warnings[0]
    assert all(f"{p} " in warning for p, warning in zip((e, s, w, n), warnings, strict=True))
    assert all("--correct" in warning for warning in warnings)
    # an ordinary sheet, and a bad but possible session, enter silently
    result = cli("totals", T, "--session", "1", "--table", "2", *_totals(1200, 380, 420, 0))
    assert result.exit_code == 0 and "warning" not in result.output


def test_8_every_entry_records_its_author(cli: Cli) -> None:
    cli.ok("hand", T, "--session", "1", "--table", "1", "--hand", "1", "--winner", "S",
           "--from", "E", "--fan", "12", "--who", "li")  # fmt: skip
    cli.ok("late", T, "--session", "1", "--player", cli.table(1, 2)[0], "--minutes", "3")
    cli.ok("totals", T, "--session", "1", "--table", "2", *_totals(490, 500, 500, 500))
    trail = json.loads(cli.ok("audit", T, "--json"))["audit"]
    me = getpass.getuser()
    assert [(a["session"], a["table"], a["hand"], a["who"]) for a in trail] == [
        (1, 1, 1, "li"),
        (1, 2, None, me),
        (1, 2, None, me),
    ]
    assert trail[0]["change"] == "entered S wins from E, fan 12"
    text = cli.ok("audit", T)
    assert re.search(
        r"session 1, table 1, hand 1: entered S wins from E, fan 12, by li, \d\d:\d\d", text
    )
    assert f"session 1, table 2: late {cli.table(1, 2)[0]} -10 (3 min), by {me}" in text
    assert f"session 1, table 2: totals {cli.table(1, 2)[0]} 490, " in text


def test_8_audit_reads_as_session_table_hand(cli: Cli) -> None:
    hand = ("hand", T, "--session", "1", "--table", "1", "--hand", "7")
    cli.ok(*hand, "--winner", "S", "--from", "E", "--fan", "8")
    cli.ok(*hand, "--winner", "N", "--from", "E", "--fan", "8", "--correct", "--who", "li",
           "--note", "misheard")  # fmt: skip
    e, _, _, n = cli.table(1, 2)
    sheet = ("totals", T, "--session", "1", "--table", "2")
    cli.ok(*sheet, *_totals(620, 480, 510, 390))
    cli.ok(*sheet, *_totals(600, 480, 510, 410), "--correct", "--who", "wang")
    text = cli.ok("audit", T)
    assert re.search(
        r"session 1, table 1, hand 7: winner S -> N, by li, \d\d:\d\d \(misheard\)", text
    )
    assert f"session 1, table 2: totals {e} 620 -> 600, {n} 390 -> 410, by wang" in text
    assert "hand_record" not in text and "{" not in text and '"' not in text
    (entry,) = [a for a in json.loads(cli.ok("audit", T, "--json"))["audit"] if a["note"]]
    assert (entry["session"], entry["table"], entry["hand"]) == (1, 1, 7)
    assert entry["change"] == "winner S -> N"
    assert entry["old"]["winner"] == 1 and entry["new"]["winner"] == 3
