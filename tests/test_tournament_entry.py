"""`guobiao tournament hand | late | substitute | audit | penalties | history` and the EMA export:
hands scored from the tiles (checked against the reference calculator), settled as 第十条一 says,
seats that follow the rotation, corrections with an audit trail, lateness and forfeits
(第十三条二(一)), substitutes (第十二条三(二)), and refusals that change nothing."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
from MahjongGB import MahjongFanCalculator

from oracle import _normalize
from test_tournament_cli import Cli

T = "club"
PLAYERS = ["1,Ann,Red,,1001,FR", "2,Bob,Red,,,", "3,Cat,Blue,,1003,DE", "4,Dan,Blue,,,"]
PLAYERS += ["5,Eve,,,,", "6,Fay,,,,", "7,Gus,,,,", "8,Hal,,,,", "9,Sub,,,,"]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(tmp_path / "t.db")
    path = tmp_path / "p.csv"
    path.write_text(
        "\n".join(["number,name,team,substitute,ema_id,country", *PLAYERS]) + "\n",
        encoding="utf-8",
    )
    c.ok("create", T, "--sessions", "2")
    c.ok("players", T, str(path))
    c.ok("draw", T, "--seed", "3")
    return c


def _seats_in_hand(first: tuple[str, ...], hand: int) -> tuple[str, ...]:
    """第五条九 with the four-hand rotation of a round: computed here independently of
    guobiao.tournament.seating. Round r (hands 4r..4r+3): the players' round-start seats are
    permuted (东↔南, 西↔北 after round 1; then ...), and within a round the deal passes on."""
    a, b, c, d = first
    round_start = {0: (a, b, c, d), 1: (b, a, d, c), 2: (c, d, b, a), 3: (d, c, a, b)}[hand // 4]
    k = hand % 4
    return round_start[k:] + round_start[:k]


def test_a_hand_scored_from_the_tiles_is_the_reference_score(cli: Cli) -> None:
    table = cli.seats(1)[1]
    number = 6  # the 6th hand: South round (圈风 南), hand index 5
    seats = _seats_in_hand(table, number - 1)
    winner, discarder = seats[2], seats[0]  # West wins on East's discard
    tiles = "[F2F2F2][F4F4F4]W1W2W3W4W5W6W9 +W9"  # round wind pung; North's... not West's
    reference = MahjongFanCalculator(
        (("PENG", "F2", 1), ("PENG", "F4", 1)),
        ("W1", "W2", "W3", "W4", "W5", "W6", "W9"),
        "W9",
        2,
        False,
        False,
        False,
        False,
        2,  # West
        1,  # South round
        verbose=True,
    )
    fan = sum(p * c for p, c, zh, _ in reference if zh != "花牌")
    assert fan >= 8
    out = cli.ok(
        "hand", T, "--session", "1", "--table", "1", "--hand", str(number),
        "--winner", winner, "--from", discarder, "--tiles", tiles, "--flowers", "2",
    )  # fmt: skip
    paid = 8 + fan + 2
    expected = {seats[0]: -paid, seats[1]: -8, seats[2]: paid + 16, seats[3]: -8}
    assert f"hand {number}: " + ", ".join(
        f"{w} {p} {expected[p]:+d}" for w, p in zip("ESWN", seats, strict=True)
    ) in out.replace("\n", " ")
    assert all(f"{p} {500 + expected[p]}" in out for p in seats)
    names = sorted(_normalize(zh) for _, c, zh, _ in reference if zh != "花牌" for _ in range(c))
    with sqlite3.connect(cli.db) as con:
        fans, stored_tiles = con.execute("SELECT fans, tiles FROM hand_records").fetchone()
    assert sorted(json.loads(fans)) == names
    assert stored_tiles == tiles


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--winner", "E", "--from", "S", "--tiles", "W2W3W4B2B3B4W6W7W8T6T7T8J1 +J1"],
         "fan points is below the 8-point minimum"),
        (["--winner", "E", "--self-drawn", "--fan", "40",
          "--tiles", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"], "--fan 40 but the tiles score"),
        (["--winner", "E", "--from", "S", "--tiles", "W1W2W4W5 +W9"], "--tiles"),
        (["--winner", "E", "--from", "S", "--tiles", "[]W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"],
         "--tiles: an empty meld"),
        (["--winner", "E", "--from", "S", "--tiles", "H1H1W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"],
         "flower H1 appears twice; each flower is a single tile"),
        (["--winner", "E", "--from", "S", "--tiles", "H1H2H3H4H5H6H7H8H1 W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"],
         "flower H1 appears twice"),
        (["--winner", "E", "--from", "S", "--tiles", "W1W1W1W²W3W4W5W6W7W8W9W9W9 +W5"],
         "'W' must be followed by a digit at position 6"),
        (["--winner", "Zed", "--from", "S", "--fan", "8"], "'Zed' is neither a seat"),
        (["--winner", "E", "--fan", "8"], "either --from SEAT"),
        (["--winner", "E", "--from", "E", "--fan", "8"], "cannot be the discarder"),
        (["--from", "E"], "give --winner"),
        (["--penalty", "E:fine:7"], "must be one of"),
        (["--penalty", "E:oops"], "is not one of false, fake"),
        (["--winner", "E", "--from", "S", "--fan", "8", "--correct"], "--correct needs --who"),
    ],
)  # fmt: skip
def test_bad_hands_are_refused_and_change_nothing(cli: Cli, args: list[str], message: str) -> None:
    cli.ok("hand", T, "--session", "1", "--table", "1", "--hand", "1", "--winner", "S",
           "--from", "E", "--fan", "8")  # fmt: skip
    before = cli.snapshot()
    result = cli("hand", T, "--session", "1", "--table", "1", "--hand", "2", *args)
    assert result.exit_code in (1, 2)
    assert message in result.output
    assert "Traceback" not in result.output
    assert cli.snapshot() == before


def test_a_correction_is_audited(cli: Cli) -> None:
    base = ("hand", T, "--session", "1", "--table", "1", "--hand", "3")
    cli.ok(*base, "--penalty", "W:false", "--warning", "N")
    again = cli(*base, "--winner", "N", "--from", "W", "--fan", "8")
    assert again.exit_code == 1 and "already recorded (correct it instead)" in again.output
    seats = _seats_in_hand(cli.seats(1)[1], 2)
    out = cli.ok(*base, "--winner", "N", "--from", "W", "--fan", "8", "--correct",
                 "--who", "referee Li", "--note", "misheard")  # fmt: skip
    assert f"W {seats[2]} -16" in out and f"N {seats[3]} +32" in out
    audit = cli.ok("audit", T)
    assert "session 1, table 1, hand 3: winner none -> N" in audit
    assert "by referee Li" in audit and "(misheard)" in audit and "hand_record" not in audit
    penalties = cli.ok("penalties", T)
    assert "No penalties." in penalties  # the correction replaced the false win and the warning


def test_lateness_and_forfeit(cli: Cli, tmp_path: Path) -> None:
    tables = cli.seats(1)
    first, second = tables[1], tables[2]
    out = cli.ok("late", T, "--session", "1", "--player", first[0], "--minutes", "8")
    assert "10 points deducted" in out
    out = cli.ok("late", T, "--session", "1", "--player", first[1], "--minutes", "14")
    assert "20 points deducted" in out
    refused = cli("late", T, "--session", "1", "--player", second[0], "--minutes", "16")
    assert refused.exit_code == 2 and "forfeit" in refused.output
    bench = next(row.split(",")[1] for row in PLAYERS if row.split(",")[1] not in first + second)
    out = cli.ok("late", T, "--session", "1", "--player", second[0], "--minutes", "16",
                 "--substitute", bench, "--who", "ref")  # fmt: skip
    assert "forfeits session 1" in out
    # the first table now sums to 2000 - 30
    bad = cli("totals", T, "--session", "1", "--table", "1", "500", "500", "500", "500")
    assert bad.exit_code == 1 and "not 1970" in bad.output
    cli.ok("totals", T, "--session", "1", "--table", "1", "600", "400", "500", "470")
    cli.ok("totals", T, "--session", "1", "--table", "2", "400", "500", "600", "500")
    path = tmp_path / "pen.csv"
    listed = cli.ok("penalties", T, "--csv", str(path))
    assert "迟到" in listed and "弃权" in listed  # the sheets' terms, not the codes
    assert "forfeit" not in listed.replace("Forfeit", "")
    rows = list(csv.DictReader(path.open(encoding="utf-8-sig")))
    assert {(r["player"], r["kind"], r["amount"]) for r in rows} == {
        (first[0], "late", "10"),
        (first[1], "late", "20"),
        (second[0], "forfeit", "0"),
    }
    # the forfeit did not play: 局分 0, ranked last here (0 points), and says so (第十三条二(一))
    history = json.loads(cli.ok("history", T, second[0], "--json"))
    assert history["sessions"] == [
        {"session": 1, "table": 2, "seat": None, "score": 0, "standard_points": "0",
         "status": "forfeit"}
    ]  # fmt: skip
    shown = [x for x in cli.ok("history", T, second[0]).splitlines() if "弃权" in x]
    assert len(shown) == 1 and "forfeit" in shown[0] and "played" not in shown[0]
    sub = json.loads(cli.ok("history", T, bench, "--json"))
    assert [s["status"] for s in sub["sessions"]] == ["substitute"]
    assert sub["sessions"][0]["score"] == 400


def test_substitute_command_and_history(cli: Cli) -> None:
    table = cli.seats(1)[1]
    seated = {p for seats in cli.seats(1).values() for p in seats}
    bye = next(row.split(",")[1] for row in PLAYERS if row.split(",")[1] not in seated)
    out = cli.ok("substitute", T, "--session", "1", "--player", table[2], "--by", bye,
                 "--who", "organiser", "--note", "ill")  # fmt: skip
    assert f"{bye} plays for {table[2]}" in out
    assert cli.seats(1)[1][2] == bye
    history = json.loads(cli.ok("history", T, table[2], "--json"))
    assert [s for s in history["sessions"] if s["session"] == 1] == [
        {"session": 1, "table": None, "seat": None, "score": None, "standard_points": None,
         "status": "absent"}
    ]  # fmt: skip
    again = cli("substitute", T, "--session", "1", "--player", table[2], "--by", bye,
                "--who", "organiser")  # fmt: skip
    assert again.exit_code == 1 and "is not seated in session 1" in again.output


def test_totals_correction_and_the_ema_report(cli: Cli, tmp_path: Path) -> None:
    for t, sheet in ((1, ("700", "500", "500", "300")), (2, ("600", "600", "400", "400"))):
        cli.ok("totals", T, "--session", "1", "--table", str(t), *sheet)
    out = cli.ok("totals", T, "--session", "1", "--table", "1", "300", "500", "500", "700",
                 "--correct", "--who", "ref", "--note", "reversed")  # fmt: skip
    assert out.startswith("Corrected")
    assert "reversed" in cli.ok("audit", T)
    path = tmp_path / "ema.csv"
    cli.ok("standings", T, "--ema", str(path))
    rows = list(csv.DictReader(path.open(encoding="utf-8")))  # the EMA results file
    first, second = cli.seats(1)[1], cli.seats(1)[2]
    by_name = {r["Last name"]: r for r in rows}  # a one-word name is a last name
    assert all(r["First name"] == "" for r in rows)
    # table 1 after the correction: N 700 (4), S and W 500 share 2 + 1, E 300 (0)
    assert by_name[first[3]]["Table points"] == "4" and by_name[first[3]]["Place"] == "1"
    assert by_name[first[1]]["Table points"] == "1.5"
    assert by_name[first[1]]["Mahjong points"] == "0"  # 500 less the start
    # table 2: E and S 600 share 4 + 2 = 3 each; W and N share 1 + 0
    assert by_name[second[0]]["Table points"] == "3" and by_name[second[0]]["Place"] == "2"
    assert by_name[second[2]]["Table points"] == "0.5"
    n = len(rows)
    for r in rows:
        place = int(r["Place"])
        assert int(r["Base rank"]) == (1000 * (n - place) * 2 + (n - 1)) // (2 * (n - 1))
    registered = {"Ann": ("1001", "FR"), "Cat": ("1003", "DE"), "Bob": ("", "")}
    for name, (ema_id, country) in registered.items():
        if name in by_name:
            assert (by_name[name]["EMA number"], by_name[name]["Country"]) == (ema_id, country)
    refused = cli("standings", T, "--teams", "--ema", str(path))
    assert refused.exit_code == 2 and "--ema reports the individual ranking" in refused.output


def test_a_fan_list_is_summed_from_the_table(cli: Cli) -> None:
    """碰碰和 (6) and two 箭刻 (2 each): 10 points on a discard, 1 flower."""
    seats = _seats_in_hand(cli.seats(1)[2], 0)
    out = cli.ok("hand", T, "--session", "1", "--table", "2", "--hand", "1", "--winner", "W",
                 "--from", "N", "--fans", "碰碰和, Dragon Pung x2", "--flowers", "1")  # fmt: skip
    assert f"W {seats[2]} +35" in out and f"N {seats[3]} -19" in out and f"E {seats[0]} -8" in out
    with sqlite3.connect(cli.db) as con:
        (fans,) = con.execute("SELECT fans FROM hand_records").fetchone()
    assert json.loads(fans) == ["碰碰和", "箭刻", "箭刻"]
    before = cli.snapshot()
    for args, message in [
        (["--fans", "碰碰和,Nope"], "no fan named 'Nope'"),
        (["--fans", "碰碰和,箭刻×2", "--fan", "9"], "--fan 9 but the --fans add up to 10"),
        (["--fans", "碰碰和,花牌×2"], "give --flowers N"),
        (["--fans", "箭刻"], "2 fan points is below the 8-point minimum"),
    ]:
        result = cli("hand", T, "--session", "1", "--table", "2", "--hand", "2",
                     "--winner", "E", "--self-drawn", *args)  # fmt: skip
        assert result.exit_code in (1, 2) and message in result.output, result.output
    assert cli.snapshot() == before


def test_a_forfeit_may_seat_a_team_mate_with_allow_team_mate(cli: Cli, tmp_path: Path) -> None:
    walk_in = tmp_path / "walk-in.csv"
    walk_in.write_text("number,name,team,substitute\n10,Zed,Red,yes\n", encoding="utf-8")
    cli.ok("players", T, str(walk_in))  # Red's substitute, registered after the draw
    table = next(seats for seats in cli.seats(1).values() if {"Ann", "Bob"} & set(seats))
    mate = next(p for p in table if p in ("Ann", "Bob"))
    late = next(p for p in table if p != mate)
    args = ["late", T, "--session", "1", "--player", late, "--minutes", "20"]
    before = cli.snapshot()
    refused = cli(*args, "--substitute", "Zed", "--who", "ref")
    assert refused.exit_code == 1
    assert repr(mate) in refused.output and "--allow-team-mate" in refused.output
    assert "allow_team_mate" not in refused.output  # the option, not the Python name
    assert cli.snapshot() == before
    out = cli.ok(*args, "--substitute", "Zed", "--who", "ref", "--allow-team-mate")
    assert f"{late} forfeits session 1" in out
    assert f"warning: Zed (Red) sits with team-mate(s) {mate}" in out
    seats = next(s for s in cli.seats(1).values() if mate in s)
    assert "Zed" in seats and late not in seats  # Zed plays the forfeited seat
