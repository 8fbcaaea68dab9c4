"""Where the command line keeps its data: the per-user data folder (GUOBIAO_HOME, else
platformdirs'), never the current folder unless asked; --db, GUOBIAO_DB and --data choose."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """GUOBIAO_HOME (not created yet); the current folder is an empty ``cwd``."""
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    monkeypatch.setenv("GUOBIAO_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GUOBIAO_DB", raising=False)
    return tmp_path / "home"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def flat(text: str) -> str:
    """Help text without its line wrapping (a long path may be broken anywhere)."""
    return "".join(text.split())


def test_create_writes_under_the_data_folder_and_says_where(home: Path) -> None:
    result = run("tournament", "create", "club", "--sessions", "2")
    assert result.exit_code == 0, result.output
    assert (home / "tournaments.db").is_file()
    assert list(Path.cwd().iterdir()) == []
    assert result.stderr.strip() == f"guobiao: the tournament database is {home / 'tournaments.db'}"
    # the other commands find it there too
    assert run("tournament", "create", "club", "--sessions", "2").exit_code == 1  # exists
    audit = run("tournament", "audit", "club")
    assert audit.exit_code == 0, audit.output
    assert list(Path.cwd().iterdir()) == []


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME is platformdirs' on Linux")
def test_without_guobiao_home_the_folder_is_platformdirs_user_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GUOBIAO_HOME")
    monkeypatch.delenv("GUOBIAO_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    result = run("tournament", "create", "club", "--sessions", "1")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["xdg"]
    assert (tmp_path / "xdg" / "guobiao" / "tournaments.db").is_file()
    assert str(tmp_path / "xdg" / "guobiao" / "tournaments.db") in result.stderr


def test_guobiao_db_and_db_choose_another_database(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUOBIAO_DB", f"sqlite:///{tmp_path / 'env.db'}")
    assert run("tournament", "create", "a", "--sessions", "1").exit_code == 0
    assert (tmp_path / "env.db").is_file()
    # an explicit --db wins over GUOBIAO_DB; a relative SQLite URL is in the current folder
    result = run("tournament", "create", "b", "--sessions", "1", "--db", "sqlite:///club.db")
    assert result.exit_code == 0, result.output
    assert [p.name for p in Path.cwd().iterdir()] == ["club.db"]
    assert f"is {Path.cwd() / 'club.db'}" in result.stderr  # said as an absolute path
    assert not home.exists()  # the data folder is made only when it is used


def test_help_shows_the_folder_and_creates_nothing(home: Path) -> None:
    serve = run("serve", "--help")
    assert serve.exit_code == 0
    assert f"[default:{home / 'web'}]" in flat(serve.output)
    assert f"[default:sqlite:///{home / 'tournaments.db'}]" in flat(serve.output)
    for command in ("create", "standings", "hand"):
        shown = run("tournament", command, "--help")
        assert shown.exit_code == 0
        assert f"[default:sqlite:///{home / 'tournaments.db'}]" in flat(shown.output), command
    assert not home.exists()
    assert list(Path.cwd().iterdir()) == []


def test_a_folder_that_cannot_be_made_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("GUOBIAO_HOME", str(tmp_path / "file" / "guobiao"))
    result = run("tournament", "create", "club", "--sessions", "1")
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()  # one line, no traceback
    assert line.startswith(f"error: cannot create the folder {tmp_path / 'file' / 'guobiao'}: ")


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``uvicorn.run`` replaced: its calls are recorded, no server starts; gc left as it is."""
    uvicorn = pytest.importorskip("uvicorn")
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.setattr(gc, "set_threshold", lambda *a: None)
    return calls


def test_serve_says_where_its_data_is(home: Path, started: list[dict[str, Any]]) -> None:
    result = run("serve", "--port", "8123")
    assert result.exit_code == 0, result.output
    assert started and started[0]["port"] == 8123
    assert result.stderr.splitlines()[0] == (
        f"guobiao: http://127.0.0.1:8123/ (data in {home / 'web'}, "
        f"tournaments in {home / 'tournaments.db'})"
    )
    assert (home / "web" / "rooms.sqlite3").is_file() and (home / "tournaments.db").is_file()
    assert list(Path.cwd().iterdir()) == []


def test_serve_data_and_db_choose_relative_to_the_current_folder(
    home: Path, started: list[dict[str, Any]]
) -> None:
    result = run("serve", "--data", "rooms", "--db", "sqlite:///club.db")
    assert result.exit_code == 0, result.output
    cwd = Path.cwd()
    assert result.stderr.splitlines()[0] == (
        f"guobiao: http://127.0.0.1:8000/ (data in {cwd / 'rooms'}, tournaments in {cwd / 'club.db'})"
    )
    assert (cwd / "rooms" / "rooms.sqlite3").is_file() and (cwd / "club.db").is_file()
    assert not home.exists()
