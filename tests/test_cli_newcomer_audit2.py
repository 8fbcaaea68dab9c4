"""The command line as a newcomer meets it in the first hour (audit 2): a tile written the way
people write it elsewhere (commas between tiles, 五 without its suit, 東 for 东, Z1) is refused
with how to write it; an empty log file is called empty; a number too large for the tournament
database is refused in one line, not a traceback; a file name given as --db is told its URL;
option values take any case, as --rules did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main

NINE_GATES = "W1W1W1W2W3W4W5W6W7W8W9W9W9"
HUGE = "99999999999999999999"  # 20 digits: more than SQLite's largest integer, 2**63 - 1


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner(env={"COLUMNS": "80"}).invoke(main, list(args), input=stdin, terminal_width=80)


# -- a tile written wrong: what is wrong and how to write it ---------------------------------


@pytest.mark.parametrize(
    ("hand", "says"),
    [
        # commas between tiles, as in a list: the tiles need no separator
        ("W1,W1,W1,W2,W3,W4,W5,W6,W7,W8,W9,W9,W9 +W5", "tiles need no separator"),
        # 五 alone is a number, not a tile: it needs its suit
        ("一万一万一万二万三万四万五万六万七万八万九万九万九万 +五", "五万, 五饼 or 五条"),
        # the traditional 東: the names are simplified
        ("東風東風東風一万二万三万四万五万六万七万七万 +七万", "东, not 東"),
        # a letter of another notation (Z for honours): the notations are named
        ("Z1Z1Z1W2W3W4W5W6W7W8W9W9W9 +W5", "F1-F4, J1-J3"),
        # a tile that does not exist: F5 (the winds are F1-F4)
        ("F5F5F5W2W3W4W5W6W7W8W9W9W9 +W5", "F1-F4, J1-J3"),
    ],
)
def test_a_tile_written_wrong_says_how_to_write_it(hand: str, says: str) -> None:
    """These said only "unexpected character" or "no such tile" and where."""
    for command in ("fan", "shanten"):
        result = invoke(command, hand)
        assert result.exit_code == 2, result.output
        first = result.stderr.splitlines()[0]
        assert first.startswith("error: ") and says in first, (command, first)
        assert "^" in result.stderr  # the pointer under the place is still there
    answer = json.loads(invoke("fan", hand, "--json").stdout)  # a program is told as well
    assert answer["ok"] is False and says in answer["message"]


def test_the_options_that_take_tiles_say_how_to_write_them() -> None:
    win = invoke("fan", NINE_GATES, "--win", "五")
    assert win.exit_code == 2 and "--win: " in win.stderr and "五万, 五饼 or 五条" in win.stderr
    visible = invoke("shanten", NINE_GATES, "--visible", "W5,W5")
    assert visible.exit_code == 2 and "tiles need no separator" in visible.stderr


def test_a_message_that_already_says_what_to_write_gets_no_tile_list() -> None:
    """A meld that is none, or a flower after '+': the message itself says what is wrong."""
    meld = invoke("fan", "[W1W2W4]W1W1W2W3W4W5W6W7W8W9 +W9")
    assert meld.exit_code == 2
    assert meld.stderr.splitlines()[0].endswith("not a chow, pung or kong at position 0: 'W1W2W4'")
    flower = invoke("fan", NINE_GATES + " +H1")
    assert flower.exit_code == 2
    assert flower.stderr.splitlines()[0].endswith(
        "a flower cannot be the winning tile at position 27: '+H1'"
    )


# -- replay: an empty file ---------------------------------------------------------------------


@pytest.mark.parametrize("content", ["", "\n\n  \n"])
def test_an_empty_log_is_called_empty(tmp_path: Path, content: str) -> None:
    """An empty file was told "the first line must be the session header", as if it had one."""
    path = tmp_path / "session-0001.jsonl"
    path.write_text(content, encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {path}: the file is empty")
    assert "guobiao simulate --log-dir" in result.stderr  # which files replay reads


# -- tournament: a number too large for the database -------------------------------------------


def test_a_number_too_large_is_refused_not_a_traceback(tmp_path: Path) -> None:
    """An extra digit or ten (--sessions 99999999999999999999) ended in SQLite's
    OverflowError traceback."""
    db = ["--db", f"sqlite:///{tmp_path / 't.db'}"]
    create = invoke("tournament", "create", "club", "--sessions", HUGE, *db)
    assert isinstance(create.exception, SystemExit), create.exception
    assert create.exit_code == 2 and "too large" in create.stderr
    assert "Traceback" not in create.output
    missing = invoke("tournament", "standings", "club", *db)  # nothing half created
    assert missing.exit_code == 1 and "no tournament 'club'" in missing.stderr
    assert invoke("tournament", "create", "club", "--sessions", "2", *db).exit_code == 0
    sheet = invoke(
        "tournament", "sheet", "club", "--session", HUGE, "--html", str(tmp_path / "s.html"), *db
    )
    assert isinstance(sheet.exception, SystemExit), sheet.exception
    assert sheet.exit_code == 2 and "too large" in sheet.stderr


# -- option values in any case, as --rules MIL already was -------------------------------------


def test_choices_take_any_case_as_rules_does() -> None:
    """``--rules MIL`` was read, ``--lang ZH`` and ``--tiles Chinese`` refused: one rule for all."""
    zh = invoke("fan", NINE_GATES + " +W5", "--lang", "ZH", "--tiles", "Chinese")
    assert zh.exit_code == 0, zh.output
    assert zh.output.startswith("手牌：一万 一万 一万")  # 中文 words, 中文 tile names
    bot = invoke("botzone-bot", "--bot", "Random", stdin='{"requests":["0 1 0"],"responses":[]}\n')
    assert bot.exit_code == 0 and json.loads(bot.stdout) == {"response": "PASS"}


# -- tournament --db: a file name, a folder that is not there, a folder --------------------------


def test_a_database_file_name_is_told_its_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--db club.db`` said "Could not parse SQLAlchemy URL from given URL string"."""
    monkeypatch.chdir(tmp_path)
    result = invoke("tournament", "create", "club", "--sessions", "1", "--db", "club.db")
    assert result.exit_code == 2
    assert "not a file name" in result.stderr and "--db sqlite:///club.db" in result.stderr
    assert not (tmp_path / "club.db").exists()
    # and that URL is right: it makes the file club.db in the current folder
    made = invoke("tournament", "create", "club", "--sessions", "1", "--db", "sqlite:///club.db")
    assert made.exit_code == 0 and (tmp_path / "club.db").is_file()


def test_a_sqlite_file_that_cannot_be_opened_says_why(tmp_path: Path) -> None:
    """SQLite says only "unable to open database file" (with a link on a second line)."""
    missing = tmp_path / "nodir" / "club.db"
    result = invoke(
        "tournament", "create", "club", "--sessions", "1", "--db", f"sqlite:///{missing}"
    )
    assert result.exit_code == 2
    assert f"there is no folder {missing.parent}" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    folder = invoke(
        "tournament", "create", "club", "--sessions", "1", "--db", f"sqlite:///{tmp_path}"
    )
    assert folder.exit_code == 2 and f"{tmp_path} is a folder" in folder.stderr
