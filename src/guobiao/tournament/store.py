"""Storage of a tournament: a SQLAlchemy 2 database (an adapter; the core never imports it).

``open_store(url)`` opens (and migrates to the newest schema, with the Alembic revisions packaged
in ``guobiao/tournament/migrations``) a SQLite file by default or any SQLAlchemy URL
(``postgresql+psycopg://...``). Every write that changes standings is one transaction: it is
wholly applied or not at all; a refused write raises ``StoreError`` and changes nothing.

On SQLite: foreign keys ON, WAL journal, ``synchronous=FULL``, and every transaction starts with
``BEGIN IMMEDIATE`` so two writers queue instead of failing half-way; a unique constraint on
(table, player) of the session results is the last guard against a table entered twice.

Seats are 0-3 or ``"E" "S" "W" "N"``. A table's seats are those of the session's first hand; a
hand's winner, discarder and penalty seats are seat winds *in that hand* (第五条九 rotation).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from guobiao.table.session import STARTING_POINTS
from guobiao.table.settlement import HandOutcome, Penalty, settle
from guobiao.tournament.models import (
    AuditEntry,
    GameTable,
    HandRecord,
    PenaltyRecord,
    Player,
    SeatAssignment,
    SessionAbsence,
    SessionResult,
    Team,
    Tournament,
    TournamentSession,
)
from guobiao.tournament.ranking import Entry, TableResult
from guobiao.tournament.seating import Schedule
from guobiao.tournament.seating import Table as SeatingTable

__all__ = [
    "MIGRATIONS",
    "PenaltyLine",
    "PlayerRow",
    "Store",
    "StoreError",
    "alembic_config",
    "open_store",
]

MIGRATIONS = Path(__file__).with_name("migrations")
"""The Alembic script directory, inside the installed package."""

WINDS = ("E", "S", "W", "N")
WARNING = "WARNING"  # the kind of a warning's PenaltyRecord (第十三条一)
MINIMUM_FAN = 8  # 第十条一(一)2 起和分
TEAM_PLAYERS = 4  # 第十二条: a team of 4 players and at most one substitute
TEAM_SUBSTITUTES = 1

Seat = int | str


class StoreError(Exception):
    """A refused write or a failed lookup; the message names the tournament, session, table,
    hand or player. Nothing was changed."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player to register (e.g. a CSV row)."""

    number: int
    name: str
    team: str | None = None
    substitute: bool = False
    ema_id: str | None = None
    country: str | None = None


@dataclass(frozen=True, slots=True)
class PenaltyLine:
    """One entry of the penalty list: a hand's penalty or warning (``hand`` 0-15, ``seat`` the
    seat wind in that hand) or a session-level deduction or forfeit (``hand`` None)."""

    session: int
    table: int
    hand: int | None
    player: str
    kind: str
    amount: int
    payee: str | None
    note: str | None


def alembic_config(url: str | None = None) -> Config:
    """Alembic configuration in code (no alembic.ini), pointing at the packaged migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": 60})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def open_store(url: str = "sqlite:///guobiao.db") -> Store:
    """Open the database at ``url``, upgrading its schema to the newest revision."""
    engine = _make_engine(url)
    config = alembic_config()
    with engine.connect() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        connection.commit()
    return Store(engine)


def _seat(value: Seat | None, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, str):
        if value.upper() in WINDS:
            return WINDS.index(value.upper())
        raise StoreError(f"{what} {value!r} is not a seat E S W N")
    if isinstance(value, bool) or value not in range(4):
        raise StoreError(f"{what} {value!r} is not a seat 0-3")
    return value


def _warned(where: str, warnings: Sequence[Seat]) -> tuple[int, ...]:
    out = []
    for value in warnings:
        seat = _seat(value, f"{where}: warning")
        assert seat is not None
        if seat in out:
            raise StoreError(f"{where}: seat {WINDS[seat]} is warned twice")
        out.append(seat)
    return tuple(out)


def _truthy(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "y", "x", "是")
    return bool(value)


class Store:
    """A tournament database. Tournaments are named by their (unique) name, players by their
    (unique in the tournament) name, sessions and tables by number from 1, hands from 0 to 15."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self.write_hook: Callable[[str], None] | None = None
        """Called inside each write transaction just before it commits (tests use it to kill a
        process or race another one mid-write)."""

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions -------------------------------------------------------------------------

    @contextmanager
    def _write(self, what: str) -> Iterator[OrmSession]:
        try:
            with self._sessions() as db, db.begin():
                yield db
                db.flush()
                if self.write_hook is not None:
                    self.write_hook(what)
        except IntegrityError as error:
            raise StoreError(
                f"{what}: refused, it conflicts with stored data ({error.orig})"
            ) from error
        except OperationalError as error:
            raise StoreError(f"{what}: the database refused the write ({error.orig})") from error

    @contextmanager
    def _read(self) -> Iterator[OrmSession]:
        with self._sessions() as db, db.begin():
            yield db

    # -- lookups ------------------------------------------------------------------------------

    @staticmethod
    def _tournament(db: OrmSession, name: str) -> Tournament:
        found = db.scalar(select(Tournament).where(Tournament.name == name))
        if found is None:
            raise StoreError(f"no tournament {name!r}")
        return found

    @staticmethod
    def _players(db: OrmSession, tournament: Tournament) -> dict[str, Player]:
        rows = db.scalars(select(Player).where(Player.tournament_id == tournament.id))
        return {p.name: p for p in rows}

    @staticmethod
    def _table(
        db: OrmSession, tournament: Tournament, session: int, table: int, *, lock: bool = False
    ) -> GameTable:
        """The table; ``lock``: hold its row until the transaction ends (SELECT ... FOR UPDATE
        on PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises writers), so that a second
        entry of the same table waits, then sees the first and is refused by name."""
        query = (
            select(GameTable)
            .join(TournamentSession)
            .where(
                TournamentSession.tournament_id == tournament.id,
                TournamentSession.number == session,
                GameTable.number == table,
            )
        )
        if lock:
            query = query.with_for_update(of=GameTable)
        found = db.scalar(query)
        if found is None:
            raise StoreError(f"{tournament.name!r}: session {session} has no table {table}")
        if len(found.seats) != 4:
            raise StoreError(
                f"{tournament.name!r}: session {session} table {table} has "
                f"{len(found.seats)} seated players, not 4"
            )
        return found

    @staticmethod
    def _where(tournament: Tournament, session: int, table: int) -> str:
        return f"{tournament.name!r} session {session} table {table}"

    # -- registration -------------------------------------------------------------------------

    def create_tournament(
        self,
        name: str,
        *,
        sessions: int,
        group_size: int | None = None,
        rules_profile: str = "mcr1998",
    ) -> int:
        """A new tournament; ``group_size`` is the ranking group (None or 4: each table; else a
        multiple of 4: consecutive tables of a session form a group)."""
        if not name.strip():
            raise StoreError("a tournament needs a name")
        if sessions < 1:
            raise StoreError(f"tournament {name!r}: at least one session, got {sessions}")
        if group_size is not None and (group_size < 4 or group_size % 4):
            raise StoreError(
                f"tournament {name!r}: a ranking group of {group_size} is not a multiple of 4"
            )
        with self._write(f"create tournament {name!r}") as db:
            if db.scalar(select(Tournament.id).where(Tournament.name == name)) is not None:
                raise StoreError(f"a tournament {name!r} already exists")
            row = Tournament(
                name=name,
                sessions_planned=sessions,
                group_size=group_size,
                rules_profile=rules_profile,
                starting_points=STARTING_POINTS,
            )
            db.add(row)
            db.flush()
            return row.id

    def add_team(self, tournament: str, name: str, *, leader: str | None = None) -> None:
        with self._write(f"{tournament!r}: add team {name!r}") as db:
            t = self._tournament(db, tournament)
            exists = db.scalar(select(Team.id).where(Team.tournament_id == t.id, Team.name == name))
            if exists is not None:
                raise StoreError(f"{tournament!r}: a team {name!r} already exists")
            db.add(Team(tournament_id=t.id, name=name, leader=leader))

    def add_players(self, tournament: str, rows: Iterable[PlayerRow | Mapping[str, object]]) -> int:
        """Register players (``PlayerRow`` or mappings with number, name, team, substitute, as
        read from a CSV); all or none. Returns how many were added."""
        with self._write(f"{tournament!r}: add players") as db:
            t = self._tournament(db, tournament)
            known = self._players(db, t)
            numbers = {p.number: p.name for p in known.values()}
            teams = {
                team.name: team
                for team in db.scalars(select(Team).where(Team.tournament_id == t.id))
            }
            count = 0
            for line, raw in enumerate(rows, 1):
                row = raw if isinstance(raw, PlayerRow) else self._row(raw, line)
                if not row.name.strip():
                    raise StoreError(f"{tournament!r}: player row {line} has no name")
                if row.name in known:
                    raise StoreError(f"{tournament!r}: a player {row.name!r} already exists")
                if row.number in numbers:
                    raise StoreError(
                        f"{tournament!r}: number {row.number} of {row.name!r} is taken by "
                        f"{numbers[row.number]!r}"
                    )
                team = None
                if row.team:
                    team = teams.get(row.team)
                    if team is None:
                        raise StoreError(f"{tournament!r}: {row.name!r}: no team {row.team!r}")
                player = Player(
                    tournament_id=t.id,
                    number=row.number,
                    name=row.name,
                    team=team,
                    substitute=row.substitute,
                    ema_id=row.ema_id or None,
                    country=row.country or None,
                )
                db.add(player)
                known[row.name] = player
                numbers[row.number] = row.name
                count += 1
            for team in teams.values():
                members = [p for p in known.values() if p.team is team]
                regular = sum(not p.substitute for p in members)
                if regular > TEAM_PLAYERS or len(members) - regular > TEAM_SUBSTITUTES:
                    raise StoreError(
                        f"{tournament!r}: team {team.name!r} would have {regular} players and "
                        f"{len(members) - regular} substitutes (at most 4 and 1)"
                    )
            return count

    @staticmethod
    def _row(raw: Mapping[str, object], line: int) -> PlayerRow:
        try:
            number = int(str(raw["number"]))
            name = str(raw["name"])
        except (KeyError, ValueError) as error:
            raise StoreError(f"player row {line}: needs a number and a name ({error})") from error
        team = raw.get("team")
        ema_id, country = raw.get("ema_id"), raw.get("country")
        return PlayerRow(
            number,
            name,
            str(team) if team else None,
            _truthy(raw.get("substitute")),
            str(ema_id) if ema_id else None,
            str(country) if country else None,
        )

    def save_schedule(self, tournament: str, schedule: Schedule) -> None:
        """Store the seating of every session of ``schedule`` (players by name). A session that
        is already seated is refused."""
        with self._write(f"{tournament!r}: save schedule") as db:
            t = self._tournament(db, tournament)
            players = self._players(db, t)
            for seating in schedule.sessions:
                if seating.number > t.sessions_planned:
                    raise StoreError(
                        f"{tournament!r}: session {seating.number} is beyond the "
                        f"{t.sessions_planned} planned"
                    )
                session = db.scalar(
                    select(TournamentSession).where(
                        TournamentSession.tournament_id == t.id,
                        TournamentSession.number == seating.number,
                    )
                )
                if session is None:
                    session = TournamentSession(tournament_id=t.id, number=seating.number)
                    db.add(session)
                elif session.tables:
                    raise StoreError(f"{tournament!r}: session {seating.number} is already seated")
                for table in seating.tables:
                    row = GameTable(session=session, number=table.number)
                    db.add(row)
                    for seat, name in enumerate(table.seats):
                        if name not in players:
                            raise StoreError(
                                f"{tournament!r}: session {seating.number} table {table.number}: "
                                f"{name!r} is not a registered player"
                            )
                        db.add(SeatAssignment(table=row, seat=seat, player=players[name]))
                for name in seating.byes:  # 第十二条一 轮空
                    if name not in players:
                        raise StoreError(
                            f"{tournament!r}: session {seating.number}: the bye {name!r} is not "
                            "a registered player"
                        )
                    db.add(SessionAbsence(session=session, player=players[name], kind="bye"))

    # -- attendance ---------------------------------------------------------------------------

    def substitute(
        self,
        tournament: str,
        session: int,
        player: str,
        by: str,
        *,
        who: str,
        forfeit: bool = False,
        note: str | None = None,
    ) -> int:
        """``by`` takes the seat of ``player`` for the whole of ``session`` (第十二条三(二) 陪打):
        their score counts for the table, they get no standard points and no place. ``player``
        is recorded absent, or with ``forfeit`` as having forfeited (more than 15 minutes late,
        第十三条二(一): 局分 0, ranked in the group with it). ``by`` is any registered player not
        seated in that session (a team's substitute, a bye, a referee's stand-in). Refused once
        the table has results. Returns the table number. Leaves an ``AuditEntry``."""
        if not who.strip():
            raise StoreError("a substitution needs the name of who makes it")
        if player == by:
            raise StoreError(f"{player!r} cannot replace themself")
        with self._write(f"{tournament!r}: substitute") as db:
            t = self._tournament(db, tournament)
            players = self._players(db, t)
            for name in (player, by):
                if name not in players:
                    raise StoreError(f"{tournament!r}: no player {name!r}")
            row_session = db.scalar(
                select(TournamentSession).where(
                    TournamentSession.tournament_id == t.id, TournamentSession.number == session
                )
            )
            if row_session is None or not row_session.tables:
                raise StoreError(f"{tournament!r}: session {session} is not seated")
            seats = {s.player.name: s for table in row_session.tables for s in table.seats}
            if player not in seats:
                raise StoreError(f"{tournament!r}: {player!r} is not seated in session {session}")
            if by in seats:
                raise StoreError(
                    f"{tournament!r}: {by!r} already plays in session {session} "
                    f"(table {seats[by].table.number})"
                )
            seat = seats[player]
            where = self._where(t, session, seat.table.number)
            row_table = self._table(db, t, session, seat.table.number, lock=True)
            for model in (SessionResult, HandRecord):
                if db.scalar(select(model.id).where(model.table_id == row_table.id)):
                    raise StoreError(
                        f"{where}: results are already entered; too late to substitute"
                    )
            absence = db.scalar(
                select(SessionAbsence).where(
                    SessionAbsence.session_id == row_session.id,
                    SessionAbsence.player_id == players[by].id,
                )
            )
            if absence is not None and absence.kind != "bye":
                raise StoreError(f"{tournament!r}: {by!r} is {absence.kind} in session {session}")
            if absence is not None:
                db.delete(absence)
            seat.player = players[by]
            seat.replaces = players[player]
            kind = "forfeit" if forfeit else "absent"
            db.add(
                SessionAbsence(session=row_session, player=players[player], kind=kind, note=note)
            )
            db.flush()
            _audit(
                db,
                t,
                who,
                "seat_assignment",
                seat.id,
                {"session": session, "table": seat.table.number, "player": player},
                {"player": by, "replaces": player, "kind": kind},
                note,
            )
            return seat.table.number

    # -- score entry --------------------------------------------------------------------------

    def _outcome(
        self,
        where: str,
        winner: Seat | None,
        discarder: Seat | None,
        fan_points: int,
        flowers: int,
        penalties: Sequence[Penalty],
    ) -> tuple[HandOutcome, tuple[int, int, int, int]]:
        win = _seat(winner, f"{where}: winner")
        dis = _seat(discarder, f"{where}: discarder")
        if win is not None and win == dis:
            raise StoreError(f"{where}: the winner {WINDS[win]} cannot be the discarder")
        if win is not None and fan_points < MINIMUM_FAN:
            raise StoreError(
                f"{where}: {fan_points} fan points is below the {MINIMUM_FAN}-point minimum: not "
                f"a win. Record it as a false win (第十四条六): no winner and "
                f"Penalty({win}, PenaltyKind.FALSE_WIN, 10)"
            )
        try:
            outcome = HandOutcome(win, dis, fan_points, flowers, tuple(penalties))
            deltas = settle(outcome, minimum=MINIMUM_FAN)
        except ValueError as error:
            raise StoreError(f"{where}: {error}") from error
        return outcome, deltas

    @staticmethod
    def _hand_seats(table: GameTable, hand: int) -> tuple[Player, Player, Player, Player]:
        by_name = {s.player.name: s.player for s in table.seats}
        a, b, c, d = (s.player.name for s in table.seats)
        names = SeatingTable(table.number, (a, b, c, d)).seats_at(hand)
        return by_name[names[0]], by_name[names[1]], by_name[names[2]], by_name[names[3]]

    def _fill_hand(
        self,
        row: HandRecord,
        table: GameTable,
        outcome: HandOutcome,
        deltas: tuple[int, int, int, int],
        fans: Sequence[str] | None,
        tiles: str | None,
        warnings: Sequence[int] = (),
    ) -> None:
        row.winner_seat = outcome.winner
        row.discarder_seat = outcome.discarder
        row.fan_points = outcome.fan_points
        row.flowers = outcome.flowers
        row.fans = list(fans) if fans is not None else None
        row.tiles = tiles
        row.delta_e, row.delta_s, row.delta_w, row.delta_n = deltas
        seated = self._hand_seats(table, row.number)
        row.penalties.clear()
        for p in outcome.penalties:
            row.penalties.append(
                PenaltyRecord(
                    table_id=table.id,
                    player_id=seated[p.seat].id,
                    seat=p.seat,
                    payee_seat=p.payee,
                    kind=p.kind.name,
                    amount=p.amount,
                )
            )
        for seat in warnings:  # 第十三条一 警告: on the sheet, no points
            row.penalties.append(
                PenaltyRecord(
                    table_id=table.id, player_id=seated[seat].id, seat=seat, kind=WARNING, amount=0
                )
            )

    def record_hand(
        self,
        tournament: str,
        session: int,
        table: int,
        hand: int,
        *,
        winner: Seat | None,
        discarder: Seat | None = None,
        fan_points: int = 0,
        flowers: int = 0,
        penalties: Sequence[Penalty] = (),
        fans: Sequence[str] | None = None,
        tiles: str | None = None,
        warnings: Sequence[Seat] = (),
    ) -> tuple[int, int, int, int]:
        """Record hand ``hand`` (0-15) of a table; returns the score changes by seat wind (E S W
        N of that hand), computed by ``guobiao.table.settlement.settle``. ``winner=None``: 荒牌;
        ``discarder=None`` with a winner: self-drawn. ``warnings``: seats warned (第十三条一),
        marked on the score sheet without points."""
        with self._write(f"{tournament!r}: record hand") as db:
            t = self._tournament(db, tournament)
            where = f"{self._where(t, session, table)} hand {hand}"
            row_table = self._table(db, t, session, table, lock=True)
            if hand not in range(16):
                raise StoreError(f"{where}: a session has hands 0-15")
            if db.scalar(select(SessionResult.id).where(SessionResult.table_id == row_table.id)):
                raise StoreError(f"{where}: the session totals of this table are already entered")
            exists = db.scalar(
                select(HandRecord.id).where(
                    HandRecord.table_id == row_table.id, HandRecord.number == hand
                )
            )
            if exists is not None:
                raise StoreError(f"{where} is already recorded (correct it instead)")
            outcome, deltas = self._outcome(
                where, winner, discarder, fan_points, flowers, penalties
            )
            warned = _warned(where, warnings)
            row = HandRecord(table=row_table, number=hand)
            db.add(row)
            self._fill_hand(row, row_table, outcome, deltas, fans, tiles, warned)
            return deltas

    def correct_hand(
        self,
        tournament: str,
        session: int,
        table: int,
        hand: int,
        *,
        who: str,
        winner: Seat | None,
        discarder: Seat | None = None,
        fan_points: int = 0,
        flowers: int = 0,
        penalties: Sequence[Penalty] = (),
        fans: Sequence[str] | None = None,
        tiles: str | None = None,
        warnings: Sequence[Seat] = (),
        note: str | None = None,
    ) -> tuple[int, int, int, int]:
        """Replace a recorded hand, leaving an ``AuditEntry`` (who, when, old → new)."""
        if not who.strip():
            raise StoreError("a correction needs the name of who makes it")
        with self._write(f"{tournament!r}: correct hand") as db:
            t = self._tournament(db, tournament)
            where = f"{self._where(t, session, table)} hand {hand}"
            row_table = self._table(db, t, session, table, lock=True)
            row = db.scalar(
                select(HandRecord).where(
                    HandRecord.table_id == row_table.id, HandRecord.number == hand
                )
            )
            if row is None:
                raise StoreError(f"{where} is not recorded: nothing to correct")
            outcome, deltas = self._outcome(
                where, winner, discarder, fan_points, flowers, penalties
            )
            warned = _warned(where, warnings)
            old = _hand_json(row)
            self._fill_hand(row, row_table, outcome, deltas, fans, tiles, warned)
            db.flush()
            _audit(db, t, who, "hand_record", row.id, old, _hand_json(row), note)
            return deltas

    def deduct(
        self,
        tournament: str,
        session: int,
        table: int,
        player: str,
        points: int,
        *,
        kind: str = "late",
        note: str | None = None,
    ) -> None:
        """A session-level deduction from ``player`` (lateness, 第十三条二(一)): it leaves the
        table. Before the session totals are entered (they must then sum to 4 × 500 less it) or
        with hands entered one by one."""
        if points <= 0:
            raise StoreError(f"a deduction of {points} from {player!r} is not positive")
        with self._write(f"{tournament!r}: deduct") as db:
            t = self._tournament(db, tournament)
            row_table = self._table(db, t, session, table, lock=True)
            seated = {s.player.name: s.player for s in row_table.seats}
            if player not in seated:
                raise StoreError(f"{self._where(t, session, table)}: {player!r} is not seated")
            if db.scalar(select(SessionResult.id).where(SessionResult.table_id == row_table.id)):
                raise StoreError(f"{self._where(t, session, table)}: totals already entered")
            db.add(
                PenaltyRecord(
                    table_id=row_table.id,
                    player_id=seated[player].id,
                    kind=kind,
                    amount=points,
                    note=note,
                )
            )

    @staticmethod
    def _check_totals(
        where: str,
        t: Tournament,
        seated: Mapping[str, Player],
        scores: Mapping[str, int],
        deductions: Mapping[str, int] | None,
        earlier: int = 0,
    ) -> dict[str, int]:
        unknown = sorted(set(scores) - set(seated))
        missing = sorted(set(seated) - set(scores))
        if unknown:
            raise StoreError(f"{where}: scores given for {unknown}, who are not seated here")
        if missing:
            raise StoreError(f"{where}: no score for {missing}")
        taken = dict(deductions or {})
        for name, points in taken.items():
            if name not in seated:
                raise StoreError(f"{where}: a deduction for {name!r}, who is not seated here")
            if points <= 0:
                raise StoreError(f"{where}: a deduction of {points} from {name!r}")
        out = sum(taken.values()) + earlier
        expected = 4 * t.starting_points - out
        total = sum(scores.values())
        if total != expected:
            raise StoreError(
                f"{where}: the scores sum to {total}, not {expected} "
                f"(4 × {t.starting_points} less {out} deducted)"
            )
        return taken

    def record_session_totals(
        self,
        tournament: str,
        session: int,
        table: int,
        scores: Mapping[str, int],
        *,
        deductions: Mapping[str, int] | None = None,
        note: str | None = None,
    ) -> None:
        """Enter a table's 局分 from a paper sheet: the four seated players' scores, which must
        sum to 4 × the starting points less the ``deductions`` (points taken out of the table:
        fines to nobody, lateness), which are recorded with them. A table entered twice, or one
        already entered hand by hand, is refused (use ``correct_session_totals``)."""
        with self._write(f"{tournament!r}: record session totals") as db:
            t = self._tournament(db, tournament)
            where = self._where(t, session, table)
            row_table = self._table(db, t, session, table, lock=True)
            seated = {s.player.name: s.player for s in row_table.seats}
            if db.scalar(select(SessionResult.id).where(SessionResult.table_id == row_table.id)):
                raise StoreError(f"{where}: the session totals are already entered")
            earlier = sum(
                db.scalars(
                    select(PenaltyRecord.amount).where(
                        PenaltyRecord.table_id == row_table.id, PenaltyRecord.hand_id.is_(None)
                    )
                )
            )
            taken = self._check_totals(where, t, seated, scores, deductions, earlier)
            if db.scalar(select(HandRecord.id).where(HandRecord.table_id == row_table.id)):
                raise StoreError(f"{where}: hands are already recorded for this table")
            for name, points in taken.items():
                db.add(
                    PenaltyRecord(
                        table_id=row_table.id,
                        player_id=seated[name].id,
                        kind="deduction",
                        amount=points,
                        note=note,
                    )
                )
            for name, score in scores.items():
                db.add(SessionResult(table_id=row_table.id, player=seated[name], score=score))

    def correct_session_totals(
        self,
        tournament: str,
        session: int,
        table: int,
        scores: Mapping[str, int],
        *,
        who: str,
        deductions: Mapping[str, int] | None = None,
        note: str | None = None,
    ) -> None:
        """Replace a table's entered totals (and deductions), leaving an ``AuditEntry``."""
        if not who.strip():
            raise StoreError("a correction needs the name of who makes it")
        with self._write(f"{tournament!r}: correct session totals") as db:
            t = self._tournament(db, tournament)
            where = self._where(t, session, table)
            row_table = self._table(db, t, session, table, lock=True)
            seated = {s.player.name: s.player for s in row_table.seats}
            taken = self._check_totals(where, t, seated, scores, deductions)
            results = db.scalars(
                select(SessionResult).where(SessionResult.table_id == row_table.id)
            ).all()
            if not results:
                raise StoreError(f"{where}: no session totals entered: nothing to correct")
            loose = db.scalars(
                select(PenaltyRecord).where(
                    PenaltyRecord.table_id == row_table.id, PenaltyRecord.hand_id.is_(None)
                )
            ).all()
            old = {
                "scores": {r.player.name: r.score for r in results},
                "deductions": {p.player.name: p.amount for p in loose},
            }
            for result in results:
                result.score = scores[result.player.name]
            for penalty in loose:
                db.delete(penalty)
            for name, points in taken.items():
                db.add(
                    PenaltyRecord(
                        table_id=row_table.id,
                        player_id=seated[name].id,
                        kind="deduction",
                        amount=points,
                        note=note,
                    )
                )
            _audit(
                db,
                t,
                who,
                "table",
                row_table.id,
                old,
                {"scores": dict(scores), "deductions": taken},
                note,
            )

    # -- reading ------------------------------------------------------------------------------

    def hands(self, tournament: str, session: int, table: int) -> list[HandRecord]:
        with self._read() as db:
            t = self._tournament(db, tournament)
            row_table = self._table(db, t, session, table)
            rows = db.scalars(
                select(HandRecord)
                .where(HandRecord.table_id == row_table.id)
                .order_by(HandRecord.number)
            ).all()
            for row in rows:
                _ = row.penalties  # load before the session closes
            return list(rows)

    def audit(self, tournament: str) -> list[AuditEntry]:
        with self._read() as db:
            t = self._tournament(db, tournament)
            return list(
                db.scalars(
                    select(AuditEntry)
                    .where(AuditEntry.tournament_id == t.id)
                    .order_by(AuditEntry.id)
                )
            )

    def table_scores(self, tournament: str, session: int, table: int) -> dict[str, int] | None:
        """The 局分 of a table's players, or None when nothing is entered."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            return self._scores(db, t, self._table(db, t, session, table))

    def _scores(self, db: OrmSession, t: Tournament, table: GameTable) -> dict[str, int] | None:
        results = db.scalars(select(SessionResult).where(SessionResult.table_id == table.id)).all()
        if results:
            return {r.player.name: r.score for r in results}
        hands = db.scalars(select(HandRecord).where(HandRecord.table_id == table.id)).all()
        if not hands:
            return None
        scores = {s.player.name: t.starting_points for s in table.seats}
        for hand in hands:
            for player, delta in zip(
                self._hand_seats(table, hand.number), hand.deltas, strict=True
            ):
                scores[player.name] += delta
        loose = db.scalars(
            select(PenaltyRecord).where(
                PenaltyRecord.table_id == table.id, PenaltyRecord.hand_id.is_(None)
            )
        )
        for penalty in loose:
            scores[penalty.player.name] -= penalty.amount
        return scores

    def table_results(self, tournament: str) -> list[TableResult]:
        """Every entered table, for ``guobiao.tournament.ranking``. With a ranking group of
        ``g`` players, tables 1..g/4 of a session form group "1", the next g/4 group "2", ..."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            out = []
            sessions = db.scalars(
                select(TournamentSession)
                .where(TournamentSession.tournament_id == t.id)
                .order_by(TournamentSession.number)
            )
            for session in sessions:
                absences = {
                    a.player.name: a
                    for a in db.scalars(
                        select(SessionAbsence).where(SessionAbsence.session_id == session.id)
                    )
                }
                for table in sorted(session.tables, key=lambda x: x.number):
                    scores = self._scores(db, t, table)
                    if scores is None:
                        continue
                    group = None
                    if t.group_size is not None and t.group_size > 4:
                        group = str((table.number - 1) // (t.group_size // 4) + 1)
                    out_of_play = self._disqualified(db, table)
                    entries = [
                        Entry(
                            s.player.name,
                            scores[s.player.name],
                            seat=s.seat,
                            substitute=s.player.substitute or s.replaces is not None,
                            disqualified=s.player.name in out_of_play
                            and not (s.player.substitute or s.replaces is not None),
                        )
                        for s in table.seats
                    ]
                    for s in table.seats:  # 第十三条二(一) 自动弃权: 局分 0, in the group
                        gone = absences.get(s.replaces.name) if s.replaces else None
                        if gone is not None and gone.kind == "forfeit":
                            entries.append(Entry(gone.player.name, 0))
                    out.append(TableResult(session.number, table.number, tuple(entries), group))
                away = tuple(
                    Entry(name, absent=True)
                    for name, a in sorted(absences.items())
                    if a.kind != "forfeit"
                )
                if away:  # byes and the replaced: in their histories only (table 0)
                    out.append(TableResult(session.number, 0, away))
            return out

    @staticmethod
    def _disqualified(db: OrmSession, table: GameTable) -> set[str]:
        """Players disqualified at this table (有意诈和, 第十四条六(四))."""
        rows = db.scalars(
            select(PenaltyRecord).where(
                PenaltyRecord.table_id == table.id,
                PenaltyRecord.kind == "INTENTIONAL_FAKE_WIN",
            )
        )
        return {r.player.name for r in rows}

    def absences(self, tournament: str) -> list[tuple[int, str, str, str | None]]:
        """Byes, absences and forfeits: (session, player, kind, note), by session and player."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            rows = db.scalars(
                select(SessionAbsence)
                .join(TournamentSession)
                .where(TournamentSession.tournament_id == t.id)
            ).all()
            return sorted((a.session.number, a.player.name, a.kind, a.note) for a in rows)

    def penalty_list(self, tournament: str) -> list[PenaltyLine]:
        """Every penalty, warning, deduction and forfeit, by session, table and hand."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            out: list[PenaltyLine] = []
            rows = db.execute(
                select(PenaltyRecord, GameTable, TournamentSession)
                .join(GameTable, PenaltyRecord.table_id == GameTable.id)
                .join(TournamentSession)
                .where(TournamentSession.tournament_id == t.id)
            ).all()
            for penalty, table, session in rows:
                hand = penalty.hand.number if penalty.hand is not None else None
                payee = None
                if penalty.payee_seat is not None and hand is not None:
                    payee = self._hand_seats(table, hand)[penalty.payee_seat].name
                out.append(
                    PenaltyLine(
                        session.number,
                        table.number,
                        hand,
                        penalty.player.name,
                        penalty.kind,
                        penalty.amount,
                        payee,
                        penalty.note,
                    )
                )
            for absence in db.scalars(
                select(SessionAbsence)
                .join(TournamentSession)
                .where(TournamentSession.tournament_id == t.id, SessionAbsence.kind == "forfeit")
            ):
                seat = db.scalar(
                    select(SeatAssignment)
                    .join(GameTable)
                    .where(
                        GameTable.session_id == absence.session_id,
                        SeatAssignment.replaces_id == absence.player_id,
                    )
                )
                table_number = seat.table.number if seat is not None else 0
                out.append(
                    PenaltyLine(
                        absence.session.number,
                        table_number,
                        None,
                        absence.player.name,
                        "forfeit",
                        0,
                        None,
                        absence.note,
                    )
                )
            out.sort(key=lambda x: (x.session, x.table, -1 if x.hand is None else x.hand, x.player))
            return out


def _audit(
    db: OrmSession,
    t: Tournament,
    who: str,
    entity: str,
    entity_id: int,
    old: dict[str, Any],
    new: dict[str, Any],
    note: str | None,
) -> None:
    """Keep a correction in the audit trail: who, when (now, UTC), the old and new values."""
    db.add(
        AuditEntry(
            tournament_id=t.id,
            who=who,
            entity=entity,
            entity_id=entity_id,
            old=old,
            new=new,
            note=note,
        )
    )


def _hand_json(row: HandRecord) -> dict[str, Any]:
    return {
        "number": row.number,
        "winner": row.winner_seat,
        "discarder": row.discarder_seat,
        "fan_points": row.fan_points,
        "flowers": row.flowers,
        "fans": row.fans,
        "tiles": row.tiles,
        "deltas": list(row.deltas),
        "penalties": [
            {"seat": p.seat, "kind": p.kind, "amount": p.amount, "payee": p.payee_seat}
            for p in row.penalties
        ],
    }
