"""The tournament database: SQLAlchemy 2 models (an adapter; the core never imports it).

Seats are 0-3 (E S W N). A ``SeatAssignment`` is the seat at the session's first hand (A B C D of
``guobiao.table.session``); a ``HandRecord``'s seats and deltas are by seat wind *in that hand* (the
rotation of 第五条九 maps one to the other). The schema is created and upgraded by the Alembic
revisions in ``guobiao/tournament/migrations`` (``store.open_store`` runs them).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "AuditEntry",
    "Base",
    "CheckIn",
    "GameTable",
    "HandRecord",
    "PenaltyRecord",
    "Player",
    "RefereeAccount",
    "SeatAssignment",
    "SessionAbsence",
    "SessionResult",
    "Team",
    "Tournament",
    "TournamentSession",
    "Withdrawal",
]

_NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=_NAMING)


class Tournament(Base):
    """A competition. ``group_size``: the ranking group (第十条二(二)); ``None`` ranks each table
    on its own (4, 2, 1, 0). ``rules_profile``: the fan profile / table rules in use.
    ``withdrawn_results``: how the sessions a withdrawn or disqualified player played count,
    "keep" or "void" (docs/rules.md §19). ``final_pairing`` ("swiss", "strongest" or None) seats
    the last ``final_sessions`` sessions from the standings, one at a time (docs/tournament.md).
    ``substitute_table``, ``forfeit_points``, ``team_substitute``, ``bye_points``: the readings
    of ``guobiao.tournament.ranking.Readings`` (docs/rules.md §19)."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    group_size: Mapped[int | None] = mapped_column(Integer)
    sessions_planned: Mapped[int] = mapped_column(Integer)
    rules_profile: Mapped[str] = mapped_column(String(50), default="mcr1998")
    starting_points: Mapped[int] = mapped_column(Integer, default=500)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    withdrawn_results: Mapped[str] = mapped_column(String(10), default="keep")
    final_pairing: Mapped[str | None] = mapped_column(String(20))
    final_sessions: Mapped[int] = mapped_column(Integer, default=0)
    substitute_table: Mapped[str] = mapped_column(String(10), default="three")
    forfeit_points: Mapped[str] = mapped_column(String(10), default="score")
    team_substitute: Mapped[str] = mapped_column(String(10), default="not")
    bye_points: Mapped[str] = mapped_column(String(10), default="none")
    # how a player checked in absent is handled: "substitute" or "bye" (docs/tournament.md)
    absent_policy: Mapped[str] = mapped_column(String(10), default="substitute")

    players: Mapped[list[Player]] = relationship(back_populates="tournament")
    teams: Mapped[list[Team]] = relationship(back_populates="tournament")
    sessions: Mapped[list[TournamentSession]] = relationship(back_populates="tournament")


class Team(Base):
    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    leader: Mapped[str | None] = mapped_column(String(200))

    tournament: Mapped[Tournament] = relationship(back_populates="teams")
    players: Mapped[list[Player]] = relationship(back_populates="team")


class Player(Base):
    """A registered person. ``name`` is the id used by schedules and rankings (unique in the
    tournament); ``number`` is the registration number. ``substitute``: a 陪打 / 替补 (第十二条三).
    ``first_name`` / ``last_name``: for the EMA results file, when registered."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        UniqueConstraint("tournament_id", "name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"))
    substitute: Mapped[bool] = mapped_column(Boolean, default=False)
    ema_id: Mapped[str | None] = mapped_column(String(20))  # EMA (MERS) player number
    country: Mapped[str | None] = mapped_column(String(60))
    # the name as the EMA results file gives it; None: split from ``name`` (tournament/ema.py)
    first_name: Mapped[str | None] = mapped_column(String(100))
    last_name: Mapped[str | None] = mapped_column(String(100))

    tournament: Mapped[Tournament] = relationship(back_populates="players")
    team: Mapped[Team | None] = relationship(back_populates="players")


class TournamentSession(Base):
    """A session (局) of the tournament, numbered from 1. ``pairing``: how it was seated from the
    standings ("swiss" or "strongest"); None: by the draw."""

    __tablename__ = "sessions"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    pairing: Mapped[str | None] = mapped_column(String(20))

    tournament: Mapped[Tournament] = relationship(back_populates="sessions")
    tables: Mapped[list[GameTable]] = relationship(back_populates="session")


class GameTable(Base):
    """One table of one session, numbered from 1."""

    __tablename__ = "tables"
    __table_args__ = (UniqueConstraint("session_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)

    session: Mapped[TournamentSession] = relationship(back_populates="tables")
    seats: Mapped[list[SeatAssignment]] = relationship(
        back_populates="table", order_by="SeatAssignment.seat"
    )


class SeatAssignment(Base):
    """Who sits where at the session's first hand: seat 0-3 = E S W N. ``replaces``: the player
    drawn to this seat whom this one replaces for the whole session (第十二条三(二) 陪打)."""

    __tablename__ = "seat_assignments"
    __table_args__ = (
        UniqueConstraint("table_id", "seat"),
        UniqueConstraint("table_id", "player_id"),
        CheckConstraint("seat >= 0 AND seat <= 3", name="seat_range"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    replaces_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))

    table: Mapped[GameTable] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(foreign_keys=[player_id])
    replaces: Mapped[Player | None] = relationship(foreign_keys=[replaces_id])


class SessionAbsence(Base):
    """A registered player who does not play a session: ``kind`` "bye" (轮空, 第十二条一),
    "absent" (replaced by a substitute, 第十二条三(二)) or "forfeit" (more than 15 minutes late:
    自动弃权, 局分 0, 第十三条二(一))."""

    __tablename__ = "session_absences"
    __table_args__ = (
        UniqueConstraint("session_id", "player_id"),
        CheckConstraint("kind IN ('bye', 'absent', 'forfeit')", name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    kind: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(Text)

    session: Mapped[TournamentSession] = relationship()
    player: Mapped[Player] = relationship()


class Withdrawal(Base):
    """A player who leaves the tournament for good from session ``from_session`` on (the first
    session they do not play): ``reason`` "withdrawn" (退出) or "disqualified" (取消比赛资格:
    停赛, 第十三条四; 有意诈和, 第十四条六(四)). The sessions from it are re-drawn without them."""

    __tablename__ = "withdrawals"
    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id"),
        CheckConstraint("reason IN ('withdrawn', 'disqualified')", name="reason"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    from_session: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(20))
    who: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    note: Mapped[str | None] = mapped_column(Text)

    player: Mapped[Player] = relationship()


class CheckIn(Base):
    """Check-in before a session (numbered from 1; it may not be seated yet): ``present`` or
    not, marked by ``who`` at ``at``. An absent player is handled as the tournament's
    ``absent_policy`` says when the check-in is applied (``Store.apply_checkin``)."""

    __tablename__ = "checkins"
    __table_args__ = (UniqueConstraint("tournament_id", "session", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    session: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    present: Mapped[bool] = mapped_column(Boolean)
    who: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    player: Mapped[Player] = relationship()


class HandRecord(Base):
    """One hand (盘) of a table, numbered 0-15. Seats are seat winds in this hand. ``winner``
    ``None``: a drawn hand (荒牌); ``discarder`` ``None`` with a winner: self-drawn.
    ``delta_*``: the settlement (``guobiao.table.settlement.settle``) by seat, penalties included."""

    __tablename__ = "hand_records"
    __table_args__ = (
        UniqueConstraint("table_id", "number"),
        CheckConstraint("number >= 0 AND number <= 15", name="hand_number_range"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    winner_seat: Mapped[int | None] = mapped_column(Integer)
    discarder_seat: Mapped[int | None] = mapped_column(Integer)
    fan_points: Mapped[int] = mapped_column(Integer, default=0)
    flowers: Mapped[int] = mapped_column(Integer, default=0)
    fans: Mapped[list[str] | None] = mapped_column(JSON)
    tiles: Mapped[str | None] = mapped_column(Text)
    delta_e: Mapped[int] = mapped_column(Integer)
    delta_s: Mapped[int] = mapped_column(Integer)
    delta_w: Mapped[int] = mapped_column(Integer)
    delta_n: Mapped[int] = mapped_column(Integer)

    table: Mapped[GameTable] = relationship()
    penalties: Mapped[list[PenaltyRecord]] = relationship(
        back_populates="hand", cascade="all, delete-orphan", order_by="PenaltyRecord.id"
    )

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        return self.delta_e, self.delta_s, self.delta_w, self.delta_n


class PenaltyRecord(Base):
    """A penalty (第十三条, 第十四条). With ``hand_id``: settled with that hand, ``seat`` and
    ``payee_seat`` are seat winds in the hand (``guobiao.table.settlement.Penalty``). Without: a
    session-level deduction (lateness, 第十三条二(一)) of ``amount`` from ``player_id``."""

    __tablename__ = "penalties"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hand_records.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    seat: Mapped[int | None] = mapped_column(Integer)
    payee_seat: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    amount: Mapped[int] = mapped_column(Integer)
    note: Mapped[str | None] = mapped_column(Text)

    hand: Mapped[HandRecord | None] = relationship(back_populates="penalties")
    player: Mapped[Player] = relationship()


class SessionResult(Base):
    """A player's 局分 at a table (paper sheets, or the total of the recorded hands). The unique
    constraint makes a second entry of the same table fail, even from another process."""

    __tablename__ = "session_results"
    __table_args__ = (UniqueConstraint("table_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    score: Mapped[int] = mapped_column(Integer)

    player: Mapped[Player] = relationship()


class AuditEntry(Base):
    """A correction: who changed which entity when (UTC), the old and new values as JSON."""

    __tablename__ = "audit_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    who: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    entity: Mapped[str] = mapped_column(String(100))
    entity_id: Mapped[int] = mapped_column(Integer)
    old: Mapped[dict[str, Any]] = mapped_column(JSON)
    new: Mapped[dict[str, Any]] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(Text)


class RefereeAccount(Base):
    """A person the organiser authorised to enter and correct a tournament's results on the web
    pages (``guobiao tournament referee``; ``guobiao.tournament.accounts``). ``password_hash``:
    ``scrypt$n$r$p$salt$hash`` (hex); never the password. ``role``: "referee" (results) or
    "organiser" (results and the session clock). ``active`` False: removed, cannot log in."""

    __tablename__ = "referee_accounts"
    __table_args__ = (
        UniqueConstraint("tournament_id", "username"),
        CheckConstraint("role IN ('referee', 'organiser')", name="role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    username: Mapped[str] = mapped_column(String(100))
    password_hash: Mapped[str] = mapped_column(String(300))
    role: Mapped[str] = mapped_column(String(20), default="referee")
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
