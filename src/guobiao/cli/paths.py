"""Where the command line keeps its data: a per-user folder (platformdirs' user data folder, or
GUOBIAO_HOME) holding the tournament database and the web rooms. Nothing here creates a folder
at import or for --help; a command that writes there calls ``ensure_data_dir`` first."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click
import platformdirs

from guobiao.cli.util import fail as _fail

__all__ = [
    "HOME_ENV",
    "DefaultPathOption",
    "data_dir",
    "default_db_url",
    "default_rooms_dir",
    "describe_db",
    "ensure_data_dir",
    "prepare_db",
]

HOME_ENV = "GUOBIAO_HOME"
DB_FILE = "tournaments.db"


def data_dir() -> Path:
    """The data folder (absolute): GUOBIAO_HOME if set, else the per-user data folder."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(os.path.abspath(Path(home).expanduser()))
    return platformdirs.user_data_path("guobiao", appauthor=False)


def _sqlite_url(path: Path) -> str:
    # SQLAlchemy unquotes the database part and stops it at "?"
    text = path.as_posix().replace("%", "%25").replace("?", "%3F")
    return f"sqlite:///{text}"


def default_db_url() -> str:
    """The tournament database when neither --db nor GUOBIAO_DB names one."""
    return _sqlite_url(data_dir() / DB_FILE)


def default_rooms_dir() -> Path:
    """The folder of ``guobiao serve``'s rooms database when --data names none."""
    return data_dir() / "web"


def ensure_data_dir(path: Path | None = None) -> Path:
    """Create ``path`` (default: the data folder) and its parents; a failure is a one-line error."""
    path = data_dir() if path is None else path
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        _fail(f"cannot create the folder {path}: {err.strerror or err}")
    return path


def prepare_db(url: str) -> None:
    """Before opening ``url``: the default database's folder is created; any other URL is the
    user's, used as given (a relative SQLite file is relative to the current folder)."""
    if url == default_db_url():
        ensure_data_dir()


def describe_db(url: str) -> str:
    """``url`` for people: a SQLite file as its absolute path, any other URL without password."""
    try:
        from sqlalchemy import make_url
        from sqlalchemy.exc import ArgumentError
    except ImportError:
        return url
    try:
        parsed = make_url(url)
    except ArgumentError:
        return url
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:" and not database.startswith("file:"):
            return os.path.abspath(database)
        return url
    return parsed.render_as_string(hide_password=True)


class DefaultPathOption(click.Option):
    """An option whose default is a function (called only when the option is not given), shown
    in --help as its value on this machine rather than click's "(dynamic)"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("show_default", True)
        super().__init__(*args, **kwargs)

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        default = self.default
        if not callable(default):
            return super().get_help_record(ctx)
        self.default = str(default())  # shown as a plain value, then the function again
        try:
            return super().get_help_record(ctx)
        finally:
            self.default = default
