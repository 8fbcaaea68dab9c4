"""What the ``guobiao tournament`` commands share: the --db option, opening the store (a
refusal there is exit code 1), reading a tournament's players and seating, printing exact
standard points. SQLAlchemy is imported only inside the functions, when a command runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .cliutil import fail as _fail
from .tournament.ranking import format_points

if TYPE_CHECKING:
    from .tournament.store import Store

__all__ = [
    "DB_OPTION",
    "DEFAULT_DB",
    "WINDS",
    "TournamentInfo",
    "format_points",
    "open_cli_store",
    "output_option",
    "read_info",
    "read_seating",
]

WINDS = ("E", "S", "W", "N")
DEFAULT_DB = "sqlite:///guobiao.db"


_F = TypeVar("_F", bound=Callable[..., Any])


def output_option(flag: str, dest: str, what: str) -> Callable[[_F], _F]:
    """A ``--csv FILE``-like option: a file to write (never a directory), default none."""
    return click.option(
        flag,
        dest,
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=f"Also write {what}.",
    )


DB_OPTION = click.option(
    "--db",
    "url",
    envvar="GUOBIAO_DB",
    default=DEFAULT_DB,
    show_default=True,
    help="Database URL (SQLite file or postgresql+psycopg://...); or set GUOBIAO_DB.",
)


@contextmanager
def open_cli_store(url: str) -> Iterator[Store]:
    """Open the store; a StoreError inside is a refusal (exit code 1)."""
    from .tournament.store import StoreError, open_store

    try:
        store = open_store(url)
    except Exception as err:  # a bad URL, a missing directory, a database that is not ours
        _fail(f"cannot open the database {url}: {err}")
    try:
        yield store
    except StoreError as err:
        _fail(str(err), 1)
    finally:
        store.close()


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    sessions: int
    rules_profile: str
    players: dict[str, tuple[int, str | None, bool]]  # name -> (number, team, substitute)
    ema: dict[str, tuple[str | None, str | None]]  # name -> (EMA number, country)


def read_info(store: Store, name: str) -> TournamentInfo:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from .tournament.models import Player, Tournament
    from .tournament.store import StoreError

    with Session(store.engine) as db:
        found = db.scalar(select(Tournament).where(Tournament.name == name))
        if found is None:
            raise StoreError(f"no tournament {name!r}")
        rows = db.scalars(
            select(Player).where(Player.tournament_id == found.id).order_by(Player.number)
        )
        listed = list(rows)
        players = {
            p.name: (p.number, p.team.name if p.team else None, p.substitute) for p in listed
        }
        ema = {p.name: (p.ema_id, p.country) for p in listed}
        return TournamentInfo(found.sessions_planned, found.rules_profile, players, ema)


def read_seating(store: Store, name: str, session: int) -> list[tuple[int, tuple[str, ...]]]:
    """The tables of a session: (number, the players at E S W N)."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from .tournament.models import GameTable, Tournament, TournamentSession
    from .tournament.store import StoreError

    with Session(store.engine) as db:
        if db.scalar(select(Tournament.id).where(Tournament.name == name)) is None:
            raise StoreError(f"no tournament {name!r}")
        tables = db.scalars(
            select(GameTable)
            .join(TournamentSession)
            .join(Tournament)
            .where(Tournament.name == name, TournamentSession.number == session)
            .order_by(GameTable.number)
        ).all()
        if not tables:
            raise StoreError(f"{name!r}: session {session} is not seated (run the draw first)")
        return [
            (t.number, tuple(s.player.name for s in sorted(t.seats, key=lambda s: s.seat)))
            for t in tables
        ]
