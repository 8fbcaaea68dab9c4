"""Substitutes and late registrations (issue 13, items 5-7): the score sheet of a table with a
substitute (陪打, 第十二条三(二)) ranks the three ranked players 1-3 as its 标准分 row and the ranking
give them 4/2/1; a substitute who would sit with a team-mate is refused unless allowed; a player
registered after the draw is refused unless --after-draw, and then warned about. The store parts
run on SQLite and PostgreSQL (``db_url``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main
from guobiao.tournament.ranking import individual_ranking
from guobiao.tournament.reports import score_sheet_html
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import PlayerRow, Store, StoreError, open_store
from test_reports import Cells
from test_store import _dump
from test_tournament_cli import Cli

T = "subs"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    yield s
    s.close()


def _run(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["tournament", *args, "--db", url])


# -- independent of the package: 第十条二(二) at one table ----------------------------------------


def _places(scores: Mapping[str, int]) -> dict[str, str]:
    """1 + the number scoring more; a shared place is marked ``=``."""
    out = {}
    for name, score in scores.items():
        above = sum(s > score for s in scores.values())
        same = sum(s == score for s in scores.values())
        out[name] = f"{above + 1}=" if same > 1 else str(above + 1)
    return out


def _points(scores: Mapping[str, int]) -> dict[str, Fraction]:
    """4, 2, 1, 0 by place; a tie shares the points of the places it covers, equally."""
    by_place = [Fraction(4), Fraction(2), Fraction(1), Fraction(0)]
    out = {}
    for name, score in scores.items():
        above = sum(s > score for s in scores.values())
        same = sum(s == score for s in scores.values())
        out[name] = sum(by_place[above : above + same], Fraction(0)) / same
    return out


def _printed(value: Fraction) -> str:
    """As the sheet prints exact points (non-negative here): ``4``, ``1 1/2``, ``1/3``."""
    whole, rest = divmod(value.numerator, value.denominator)
    if not rest:
        return str(whole)
    fraction = f"{rest}/{value.denominator}"
    return f"{whole} {fraction}" if whole else fraction


def test_sheet_places_and_standard_points_skip_the_substitute(store: Store) -> None:
    """Item 5: X, a 陪打 for A, scores most; the 名次 row ranks B, C, D 1-3 (a tie: 2=, 2=) as the
    标准分 row and the ranking give them 4, 1 1/2, 1 1/2; X is marked 陪打 with no place."""
    store.create_tournament(T, sessions=1)
    store.add_players(T, [PlayerRow(i, n) for i, n in enumerate("ABCDEFGHX", 1)])
    tables = (Table(1, ("A", "B", "C", "D")), Table(2, ("E", "F", "G", "H")))
    store.save_schedule(T, Schedule(tuple("ABCDEFGHX"), (SessionSeating(1, tables, ("X",)),), "m"))
    assert store.substitute(T, 1, "A", "X", who="referee", note="ill") == 1
    # hand 1: East (X, in A's seat) self-draws 8; hand 2: the deal has passed, C is South and
    # self-draws 8. A self-drawn win of f: each other player pays 8 + f (第十条一(二)1).
    hands = (("E", "X"), ("S", "C"))
    scores = dict.fromkeys("XBCD", 500)
    for number, (seat, winner) in enumerate(hands):
        store.record_hand(T, 1, 1, number, winner=seat, fan_points=8)
        for name in scores:
            scores[name] += 3 * 16 if name == winner else -16
    assert scores == {"X": 532, "B": 468, "C": 532, "D": 468}
    ranked = {n: s for n, s in scores.items() if n != "X"}
    places, points = _places(ranked), _points(ranked)
    assert places == {"C": "1", "B": "2=", "D": "2="}
    assert sorted(points.values()) == [Fraction(3, 2), Fraction(3, 2), 4]  # 4 + 2 + 1 shared

    page = Cells(score_sheet_html(store, T, 1, 1))
    assert {n: page.one(player=n, col="score").text for n in scores} == {
        n: str(s) for n, s in scores.items()
    }
    rank_row = {n: page.one(player=n, col="rank").text for n in scores}
    standard_row = {n: page.one(player=n, col="standard").text for n in scores}
    assert rank_row.pop("X").startswith("陪打")
    assert standard_row.pop("X") == "—"
    assert rank_row == places
    assert standard_row == {n: _printed(p) for n, p in points.items()}
    # the ranking agrees: X takes no place and no points
    ranking = individual_ranking(store.table_results(T))
    assert {s.name: s.standard_points for s in ranking if s.name in scores} == points


def test_a_substitute_with_a_team_mate_is_refused_unless_allowed(store: Store, db_url: str) -> None:
    """Item 6: R, red's reserve, may not take B's seat next to A (red) without
    --allow-team-mate; with it, a warning names A. In A's own seat R sits with no team-mate."""
    store.create_tournament(T, sessions=2)
    for team in ("red", "blue"):
        store.add_team(T, team)
    store.add_players(
        T,
        [PlayerRow(i, n, {"A": "red", "E": "red", "B": "blue"}.get(n)) for i, n in
         enumerate("ABCDEFGH", 1)]
        + [PlayerRow(9, "R", "red", substitute=True)],
    )  # fmt: skip
    s1 = (Table(1, ("A", "B", "C", "D")), Table(2, ("E", "F", "G", "H")))
    s2 = (Table(1, ("A", "F", "C", "H")), Table(2, ("E", "B", "G", "D")))
    store.save_schedule(
        T, Schedule(tuple("ABCDEFGH"), (SessionSeating(1, s1), SessionSeating(2, s2)), "m")
    )
    before = _dump(db_url)
    with pytest.raises(StoreError, match="'R' would sit with 'A' of their team 'red'"):
        store.substitute(T, 1, "B", "R", who="referee")
    refused = _run(db_url, "substitute", T, "--session", "1", "--player", "B", "--by", "R",
                   "--who", "referee")  # fmt: skip
    assert refused.exit_code == 1
    assert "would sit with team-mate(s) A" in refused.output
    assert "--allow-team-mate" in refused.output
    assert _dump(db_url) == before  # nothing changed
    allowed = _run(db_url, "substitute", T, "--session", "1", "--player", "B", "--by", "R",
                   "--who", "referee", "--allow-team-mate")  # fmt: skip
    assert allowed.exit_code == 0, allowed.output
    assert "warning: R (red) sits with team-mate(s) A at table 1" in allowed.stderr
    assert "R plays for B" in allowed.stdout
    # session 2: R in A's seat, among F, C, H: no team-mate, no warning
    clean = _run(db_url, "substitute", T, "--session", "2", "--player", "A", "--by", "R",
                 "--who", "referee")  # fmt: skip
    assert clean.exit_code == 0, clean.output
    assert "warning" not in clean.output
    assert store.absences(T) == [(1, "B", "absent", None), (2, "A", "absent", None)]


def test_a_player_registered_after_the_draw_is_refused_unless_told(tmp_path: Path) -> None:
    """Item 7: after the draw, a new player (seated nowhere) is refused with what to do; with
    --after-draw they are registered and warned about; a team's reserve passes either way."""
    cli = Cli(tmp_path / "t.db")
    teams = ("Red", "Blue", "Green", "Gold")
    first = tmp_path / "first.csv"
    first.write_text(
        "number,name,team,substitute\n"
        + "".join(f"{i + 1},P{i + 1},{teams[i // 2]},\n" for i in range(8)),
        encoding="utf-8",
    )
    cli.ok("create", T, "--sessions", "2")
    cli.ok("players", T, str(first))
    cli.ok("draw", T, "--seed", "1")
    late = tmp_path / "late.csv"
    late.write_text("number,name,team,substitute\n9,Zed,,\n", encoding="utf-8")
    before = cli.snapshot()
    refused = cli("players", T, str(late))
    assert refused.exit_code == 1
    assert "already drawn" in refused.output and "Zed would never be seated" in refused.output
    assert "--after-draw" in refused.output and "substitute" in refused.output
    assert cli.snapshot() == before
    reserve = tmp_path / "reserve.csv"
    reserve.write_text("number,name,team,substitute\n10,Res,Red,yes\n", encoding="utf-8")
    result = cli("players", T, str(reserve))  # the draw never seats a reserve anyway
    assert result.exit_code == 0 and "warning" not in result.output
    result = cli("players", T, str(late), "--after-draw")
    assert result.exit_code == 0, result.output
    assert "Added 1 player(s)" in result.stdout
    assert "warning: the seats are already drawn; seated in no session: Zed." in result.stderr
    seated = {p for s in (1, 2) for seats in cli.seats(s).values() for p in seats}
    assert "Zed" not in seated and len(seated) == 8
