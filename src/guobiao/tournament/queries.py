"""Reads of a tournament that the commands and the web pages share: its players and settings
(:func:`read_info`) and a session's seating (:func:`read_seating`). SQLAlchemy is imported only
inside the functions, so that importing this module stays cheap."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from guobiao.tournament.store import Store

__all__ = ["TournamentInfo", "read_info", "read_seating"]


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    sessions: int
    rules_profile: str
    players: dict[str, tuple[int, str | None, bool]]  # name -> (number, team, substitute)
    ema: dict[str, tuple[str | None, str | None]]  # name -> (EMA number, country)
    # name -> (first name, last name) as registered (None: not given), for the EMA results file
    full_names: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    starting_points: int = 500  # each session's 局分 starts here (第十条二(一))


def read_info(store: Store, name: str) -> TournamentInfo:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from guobiao.tournament.models import Player, Tournament
    from guobiao.tournament.store import no_tournament

    with Session(store.engine) as db:
        found = db.scalar(select(Tournament).where(Tournament.name == name))
        if found is None:
            raise no_tournament(name, db.scalars(select(Tournament.name)))
        rows = db.scalars(
            select(Player).where(Player.tournament_id == found.id).order_by(Player.number)
        )
        listed = list(rows)
        players = {
            p.name: (p.number, p.team.name if p.team else None, p.substitute) for p in listed
        }
        ema = {p.name: (p.ema_id, p.country) for p in listed}
        full_names = {p.name: (p.first_name, p.last_name) for p in listed}
        return TournamentInfo(
            found.sessions_planned,
            found.rules_profile,
            players,
            ema,
            full_names,
            found.starting_points,
        )


def read_seating(store: Store, name: str, session: int) -> list[tuple[int, tuple[str, ...]]]:
    """The tables of a session: (number, the players at E S W N)."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from guobiao.tournament.models import GameTable, Tournament, TournamentSession
    from guobiao.tournament.store import StoreError, no_tournament

    with Session(store.engine) as db:
        if db.scalar(select(Tournament.id).where(Tournament.name == name)) is None:
            raise no_tournament(name, db.scalars(select(Tournament.name)))
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
