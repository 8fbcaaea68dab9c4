"""What the ``guobiao tournament`` commands share: the --db option (default: the database in the
per-user data folder, cli.paths), opening the store (a refusal there is exit code 1), the
output-file options, printing exact standard points. SQLAlchemy is imported only inside the
functions, when a command runs.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from guobiao.cli.paths import DefaultPathOption, default_db_url, prepare_db
from guobiao.cli.util import fail as _fail
from guobiao.tournament.ranking import format_points

if TYPE_CHECKING:
    from guobiao.tournament.store import Store

__all__ = [
    "DB_OPTION",
    "EMA_ENCODING",
    "MAX_GROUP_SIZE",
    "MAX_SESSIONS",
    "SPREADSHEET_ENCODING",
    "WINDS",
    "format_points",
    "open_cli_store",
    "output_option",
    "seating_of",
    "spreadsheet_csv",
]

WINDS = ("E", "S", "W", "N")

MAX_SESSIONS = 100
"""The most sessions ``tournament create --sessions`` takes. An MCR tournament plays a handful
(a club night 2-3, a weekend 5-8, a world championship about 12, each of 16 hands); a year of
weekly league nights is about 50. More is a typo (an extra digit), and every session is a
seating draw and a sheet to print."""

MAX_GROUP_SIZE = 400
"""The largest ranking group ``tournament create --group-size`` takes: 100 tables, the largest
MCR tournaments' whole field (about 300 players at a world championship)."""

SPREADSHEET_ENCODING = "utf-8-sig"
"""The organiser's CSV files (seating, standings, penalties): UTF-8 with a byte-order mark.
Excel on Windows reads a CSV file without one in the system's code page, and Chinese names
come out as mojibake; with it, as UTF-8. Python reads it back with ``utf-8-sig``."""

EMA_ENCODING = "utf-8"
"""The EMA results file: plain UTF-8, as documented for it (docs/tournament.md, *The EMA
results file*): it goes to the EMA's ranking officer, not into our spreadsheet, and a
byte-order mark would be read into the first column's name (``\ufeffPlace``) by a reader that
does not expect one."""


_F = TypeVar("_F", bound=Callable[..., Any])


def _writable(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """An output file's path, checked when the command line is read: a folder that is not
    there is said before the command prints its tables or prints a PDF, not after."""
    if value is None:
        return None
    folder = value.parent
    if not folder.is_dir():
        _fail(f"cannot write {value}: there is no folder {folder}")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        _fail(f"cannot write {value}: {err.strerror or err}")
    return value


def output_option(flag: str, dest: str, what: str) -> Callable[[_F], _F]:
    """A ``--csv FILE``-like option: a file to write (never a directory), default none; its
    folder is checked before the command runs."""
    return click.option(
        flag,
        dest,
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        callback=_writable,
        help=f"Also write {what}.",
    )


def seating_of(store: Store, name: str, session: int) -> list[tuple[int, tuple[str, ...]]]:
    """The tables of ``session`` (``read_seating``), a session the tournament does not have
    refused as such ('club' has sessions 1-5: there is no session 9), not as one to draw first
    (a StoreError: exit code 1 in ``open_cli_store``)."""
    from guobiao.tournament.queries import read_info, read_seating
    from guobiao.tournament.store import StoreError

    planned = read_info(store, name).sessions
    if not 1 <= session <= planned:  # a refusal of the store's, as its other "has sessions 1-N"
        raise StoreError(
            f"{name!r} has sessions 1-{planned}: there is no session {session} (so it is not "
            "seated, and no draw will seat it)"
        )
    return read_seating(store, name, session)


def spreadsheet_csv(path: Path) -> TextIO:
    """``path`` opened for an organiser's CSV file (``SPREADSHEET_ENCODING``, newlines as the
    csv module writes them)."""
    return path.open("w", newline="", encoding=SPREADSHEET_ENCODING)


DB_OPTION = click.option(
    "--db",
    "url",
    cls=DefaultPathOption,
    envvar="GUOBIAO_DB",
    default=default_db_url,  # looked up when a command runs: GUOBIAO_HOME may change it
    help="Database URL (SQLite file or postgresql+psycopg://...); or set GUOBIAO_DB. "
    "The default is in the per-user data folder (GUOBIAO_HOME moves it).",
)


def _why_not_opened(url: str, err: Exception) -> str:
    """Why ``url`` did not open, in one line: a SQLite file's folder that does not exist is
    named (SQLite says only "unable to open database file"), else the first line of ``err``."""
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        parsed = None
    if parsed is not None and parsed.get_backend_name() == "sqlite" and parsed.database:
        file, folder = Path(parsed.database), Path(parsed.database).parent
        if parsed.database.startswith("file:"):
            pass
        elif file.is_dir():
            return f"{file} is a folder: name a file in it, such as sqlite:///{file / 'club.db'}"
        elif not folder.is_dir():
            return f"there is no folder {folder}: create it first (mkdir -p {folder})"
    return (str(err).splitlines() or [type(err).__name__])[0]


@contextmanager
def open_cli_store(url: str) -> Iterator[Store]:
    """Open the store; a StoreError inside is a refusal (exit code 1)."""
    from guobiao.tournament.store import StoreError, open_store

    if "://" not in url:  # a file name, as a newcomer writes it: say its URL
        _fail(
            "--db (or GUOBIAO_DB) takes a database URL, not a file name: for the SQLite "
            f"file {url} write --db sqlite:///{url}"
        )
    prepare_db(url)
    try:
        store = open_store(url)
    except Exception as err:  # a bad URL, a missing directory, a database that is not ours
        _fail(f"cannot open the database {url}: {_why_not_opened(url, err)}")
    try:
        yield store
    except StoreError as err:
        _fail(str(err), 1)
    except OverflowError:  # SQLite holds whole numbers up to 2**63 - 1: an extra digit or ten
        _fail(
            "a number given is too large for the database: sessions, tables and hands count "
            "from 1, scores and fans are a few digits long"
        )
    finally:
        store.close()
