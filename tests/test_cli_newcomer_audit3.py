"""The command line as a newcomer meets it (audit 3): every help page fits 80 columns, 中文
counted two columns a character, and its examples parse as written; a tile written wrong in a
JSON line gets the same hint as on the command line; "W 1" is told to be written W1; absurd
tournament sizes and a negative fan total are refused saying why."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from unicodedata import east_asian_width

import click
import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main

NINE_GATES = "W1W1W1W2W3W4W5W6W7W8W9W9W9"


def invoke(*args: str, stdin: str | None = None, width: int | None = 80) -> Result:
    runner = CliRunner(env={"COLUMNS": "80"})
    return runner.invoke(main, list(args), input=stdin, terminal_width=width)


def columns(line: str) -> int:
    """The columns ``line`` takes in a terminal: a wide (CJK) character two."""
    return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in line)


def commands(group: click.Group = main, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command's path under ``guobiao``, groups included (the group itself first)."""
    yield path
    ctx = click.Context(group, info_name="guobiao")
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        elif command is not None:
            yield (*path, name)


ALL = sorted(commands())


# -- help: 80 columns by display width -----------------------------------------------------------


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "guobiao")
@pytest.mark.parametrize("width", [80, None], ids=["forced-80", "COLUMNS=80"])
def test_every_help_fits_80_columns(path: tuple[str, ...], width: int | None) -> None:
    """click wrapped help by characters: a line with 中文 ran to 82-103 columns, and examples
    to 107."""
    result = invoke(*path, "--help", width=width)
    assert result.exit_code == 0, result.output
    wide = [(columns(line), line) for line in result.output.splitlines() if columns(line) > 80]
    assert not wide, wide


def test_the_command_list_cuts_short_help_by_columns() -> None:
    """The list of commands cut a 中文 short help by characters, past the edge."""
    lines = invoke("tournament", "--help").output.splitlines()
    results = next(line for line in lines if line.lstrip().startswith("results "))
    assert results.endswith("...") and 76 <= columns(results) <= 80, results


def _examples(text: str) -> Iterator[str]:
    """The command lines of a help page's examples: from 'guobiao ' on, '\\' lines joined,
    each of '&&' a command, a comment after '#' or two spaces left out."""
    joined = re.sub(r"\s*\\\n\s*", " ", text)
    for line in joined.splitlines():
        line = re.split(r"\s{2,}", line.strip())[0]
        if line.startswith("guobiao "):
            yield from (part.strip() for part in line.split("&&") if part.strip())


REWRAPPED = [
    ("arena",),
    ("simulate",),
    ("replay",),
    ("serve",),
    ("tournament",),
    ("tournament", "create"),
    ("tournament", "hand"),
    ("tournament", "late"),
    ("tournament", "seating"),
    ("tournament", "substitute"),
    ("tournament", "totals"),
    ("tournament", "withdraw"),
    ("tournament", "referee"),
]


@pytest.mark.parametrize("path", REWRAPPED, ids=" ".join)
def test_rewrapped_examples_parse_as_written(path: tuple[str, ...]) -> None:
    """The examples rewrapped to fit 80 columns still parse: every option known, every value
    of its type (the commands are not run)."""
    help_text = invoke(*path, "--help").output
    found = list(_examples(help_text.split("Options:")[0]))
    assert found, help_text
    for example in found:
        argv = shlex.split(example, comments=True)[1:]
        command: click.Command = main
        ctx = click.Context(main, info_name="guobiao")
        while isinstance(command, click.Group):
            sub = command.get_command(ctx, argv[0])
            assert sub is not None, example
            command, name, argv = sub, argv[0], argv[1:]
        try:
            command.make_context(name, list(argv), parent=ctx)
        except click.UsageError as err:
            pytest.fail(f"{example}: {err.format_message()}")


# -- fan --jsonl: the hints of the command line ----------------------------------------------------


def _line(**tiles: object) -> str:
    hand: dict[str, object] = {
        "concealed": [NINE_GATES[i : i + 2] for i in range(0, 26, 2)],
        "win_tile": "W5",
    }
    hand.update(tiles)
    return json.dumps(hand, ensure_ascii=False)


@pytest.mark.parametrize(
    ("field", "tile", "says"),
    [
        ("win_tile", "W5,", "tiles need no separator"),
        ("win_tile", "五", "五万, 五饼 or 五条"),
        ("win_tile", "東风", "东, not 東"),
        ("win_tile", "Z1", "F1-F4, J1-J3"),
        ("win_tile", "W 5", "W5, not 'W 5'"),
        (
            "concealed",
            ["W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9", "Z1"],
            "F1-F4, J1-J3",
        ),
    ],
)
def test_a_json_line_with_a_tile_written_wrong_says_how_to_write_it(
    field: str, tile: object, says: str
) -> None:
    """fan --jsonl said only "not a tile name: 'W5,'"."""
    result = invoke("fan", "--jsonl", stdin=_line(**{field: tile}) + "\n")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["ok"] is False and answer["reason"] == "invalid"
    assert answer["message"].startswith(f"line 1: {field}: not a tile name")
    assert says in answer["message"], answer["message"]


# -- "W 1": a tile's letter and digit go together --------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        ("W 1W1W1W2W3W4W5W6W7W8W9W9W9 +W5", "a tile's letter and digit go together: W1, not 'W 1'"),
        (NINE_GATES + " +W 5", "W5, not 'W 5'"),
        ("1 11m2345678999m +5m", "digits and their suit letter go together: 111m"),
        ("一 万一万一万二万三万四万五万六万七万八万九万九万九万 +五万", "一万, not '一 万'"),
    ],
)
def test_a_tile_in_two_pieces_is_told_to_go_together(hand: str, says: str) -> None:
    """'W 1' was told "'W' must be followed by a digit", though the help says white space is
    ignored (between tiles, as the help now says: not inside one)."""
    result = invoke("fan", hand)
    assert result.exit_code == 2, result.output
    first = result.stderr.splitlines()[0]
    assert says in first and "not inside one" in first, first
    assert "white space between tiles ignored" in invoke("fan", "--help").output
    win = invoke("fan", NINE_GATES, "--win", "W 5")
    assert win.exit_code == 2 and "--win: " in win.stderr and "W5, not 'W 5'" in win.stderr


# -- tournament: absurd sizes, a negative fan total --------------------------------------------------


def test_absurd_tournament_sizes_are_refused(tmp_path: Path) -> None:
    """--sessions 100000 and --group-size 4000000 were accepted."""
    db = ["--db", f"sqlite:///{tmp_path / 't.db'}"]
    sessions = invoke("tournament", "create", "club", "--sessions", "100000", *db)
    assert sessions.exit_code == 2 and "at most 100" in sessions.stderr, sessions.output
    group = invoke(
        "tournament", "create", "club", "--sessions", "5", "--group-size", "4000000", *db
    )
    assert group.exit_code == 2 and "at most 400" in group.stderr, group.output
    assert invoke("tournament", "create", "club", "--sessions", "100", *db).exit_code == 0
    assert "1-100" in invoke("tournament", "create", "--help").output  # the bound is told


@pytest.fixture
def seated(tmp_path: Path) -> list[str]:
    """A seated tournament 'club' (8 players, 2 sessions): its --db option."""
    db = ["--db", f"sqlite:///{tmp_path / 't.db'}"]
    players = tmp_path / "players.csv"
    players.write_text("number,name\n" + "".join(f"{i},P{i}\n" for i in range(1, 9)), "utf-8")
    assert invoke("tournament", "create", "club", "--sessions", "2", *db).exit_code == 0
    assert invoke("tournament", "players", "club", str(players), *db).exit_code == 0
    assert invoke("tournament", "draw", "club", "--seed", "1", *db).exit_code == 0
    return db


HAND = ("tournament", "hand", "club", "--session", "1", "--table", "1", "--hand", "1")


@pytest.mark.parametrize("fan", ["-3", "0"])
def test_a_negative_fan_total_is_not_called_below_the_minimum(seated: list[str], fan: str) -> None:
    """--fan -3 was "below the 8-point minimum", as if -3 were a score a hand could have."""
    result = invoke(*HAND, "--winner", "E", "--from", "S", "--fan", fan, *seated)
    assert result.exit_code == 2, result.output
    assert "a fan total is a positive number of points" in result.stderr
    assert "minimum: not a win" not in result.stderr
    low = invoke(*HAND, "--winner", "E", "--from", "S", "--fan", "5", *seated)
    assert low.exit_code == 1 and "below the 8-point minimum" in low.stderr  # a separate rule


def test_a_negative_fan_in_a_hands_file_says_the_same(seated: list[str], tmp_path: Path) -> None:
    sheet = tmp_path / "t1.csv"
    sheet.write_text("hand,winner,from,fan\n1,E,S,-3\n", "utf-8")
    result = invoke(
        "tournament", "hands", "club", "--session", "1", "--table", "1", str(sheet), *seated
    )
    assert result.exit_code != 0
    assert "a fan total is a positive number of points" in result.stderr, result.output


def test_a_session_the_tournament_does_not_have_is_not_one_to_draw(seated: list[str]) -> None:
    """hand --session 99 said "session 99 is not seated (run the draw first)"."""
    for session in ("99", "-1"):
        result = invoke(
            "tournament", "hand", "club", "--session", session, "--table", "1", "--hand", "1",
            "--winner", "E", "--from", "S", "--fan", "8", *seated,
        )  # fmt: skip
        assert result.exit_code == 1, result.output
        assert f"'club' has sessions 1-2: there is no session {session}" in result.stderr
        assert "run the draw" not in result.stderr


# -- other refusals a newcomer met ---------------------------------------------------------------


def test_an_output_file_in_a_missing_folder_is_refused_before_the_work(seated: list[str]) -> None:
    """seating --html /no/such/folder/x.html printed every table, then said it could not
    write the page (for --pdf, after printing it in Chromium)."""
    result = invoke(
        "tournament", "seating", "club", "--session", "1", "--html", "/no/such/x.html", *seated
    )
    assert result.exit_code == 2
    assert "cannot write /no/such/x.html: there is no folder /no/such" in result.stderr
    assert "P1" not in result.stdout  # no table printed first


def test_totals_short_of_four_scores_says_what_the_four_are(seated: list[str]) -> None:
    """Two scores were told "Argument 'scores' takes 4 values", a name the help never shows."""
    result = invoke(
        "tournament", "totals", "club", "--session", "1", "--table", "1", "620", "480", *seated
    )
    assert result.exit_code == 2
    assert "four totals E S W N" in result.stderr and "'scores'" not in result.stderr


def test_serve_tells_a_database_file_name_its_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """serve --db club.db said "Could not parse SQLAlchemy URL from given URL string", where
    the tournament commands say which URL to write."""
    monkeypatch.chdir(tmp_path)
    result = invoke("serve", "--db", "club.db", "--data", str(tmp_path / "web"))
    assert result.exit_code == 2
    assert "not a file name" in result.stderr and "--db sqlite:///club.db" in result.stderr
