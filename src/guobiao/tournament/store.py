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
Hands are numbered 0-15 in the API and the database; every message counts them 1-16, as the
score sheet and the referee do.

Every entry and every correction leaves an ``AuditEntry`` with its author (``who``): a first
entry has an empty ``old``; ``audit_trail`` reads them back located by session, table and hand.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, delete, event, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import sessionmaker

from guobiao.table.session import STARTING_POINTS
from guobiao.table.settlement import HandOutcome, Penalty, settle
from guobiao.tournament.models import (
    AuditEntry,
    CheckIn,
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
    Withdrawal,
)
from guobiao.tournament.ranking import (
    WITHDRAWAL_REASONS,
    Entry,
    Readings,
    TableResult,
    individual_ranking,
)
from guobiao.tournament.seating import (
    PAIRINGS,
    Schedule,
    SessionSeating,
    continue_schedule,
    pair_session,
)
from guobiao.tournament.seating import Table as SeatingTable

__all__ = [
    "ABSENT_POLICIES",
    "HIGHEST_PLAUSIBLE",
    "LOWEST_PLAUSIBLE",
    "MAX_NAME",
    "MAX_NUMBER",
    "MIGRATIONS",
    "AuditLine",
    "CheckInList",
    "HandEntry",
    "HandError",
    "PenaltyLine",
    "PlayerRow",
    "RecordedHand",
    "Redraw",
    "Store",
    "StoreError",
    "TableEnd",
    "TableStatus",
    "TournamentSettings",
    "WithdrawalLine",
    "alembic_config",
    "alike",
    "folded",
    "implausible_totals",
    "name_problem",
    "no_tournament",
    "open_store",
    "tournament_name_problem",
]

MIGRATIONS = Path(__file__).with_name("migrations")
"""The Alembic script directory, inside the installed package."""

WINDS = ("E", "S", "W", "N")
WARNING = "WARNING"  # the kind of a warning's PenaltyRecord (第十三条一)
MINIMUM_FAN = 8  # 第十条一(一)2 起和分
TEAM_PLAYERS = 4  # 第十二条: a team of 4 players and at most one substitute
TEAM_SUBSTITUTES = 1
ABSENT_POLICIES = ("substitute", "bye")
"""How a player checked in absent is handled (``Tournament.absent_policy``, ``apply_checkin``)."""
WITHDRAWN_RESULTS = ("keep", "void")
"""How a withdrawn or disqualified player's played sessions count (``Tournament.withdrawn_results``):
"keep" (the default) or "void" (docs/rules.md §19)."""
LATE = "late"  # the kind of a lateness deduction (第十三条二(一)): once a session per player
DEDUCTION = "deduction"  # the kind of a deduction entered with a table's session totals
INTENTIONAL = "INTENTIONAL_FAKE_WIN"  # 有意诈和 (第十四条六(四)): 「应予取消比赛资格」
LOWEST_PLAUSIBLE = 0
"""A 局分 below this warns (``implausible_totals``): losing more than the whole 500 start in the
16 hands of a session (第五条, 4 rounds) means paying over 31 points every hand, 8 + 24, as if
dealing into a 24-point hand each time: a typo far more often than a session."""
HIGHEST_PLAUSIBLE = 2000
"""A 局分 above this warns: a gain over 1500 in 16 hands is about a self-drawn 24-point hand
every hand (3 × (8 + 24) = 96, × 16 = 1536). With the sum fixed at 2000, it also means another
player is below ``LOWEST_PLAUSIBLE``."""

Seat = int | str


class StoreError(Exception):
    """A refused write or a failed lookup; the message names the tournament, session, table,
    hand (1-16) or player. Nothing was changed."""


def no_player(tournament: str, name: str, players: Iterable[str]) -> StoreError:
    """The refusal of a name no player has, with the registered name it most likely means (the
    same letters in another case or spacing, or a close spelling)."""
    return StoreError(f"{tournament!r}: no player {name!r}{_meant(name, players)}")


MAX_SCORE = 100_000
"""The largest 局分 (either sign) or deduction a table's totals take, as the web page's: far
beyond any session (a gain of 1500 is already about a self-drawn 24-point hand every hand,
``HIGHEST_PLAUSIBLE``), so only a typo meets it; beyond the database's integer it failed there."""
MAX_FAN = 1000
"""The most fan points a win is entered with: the highest-scoring hands (大四喜 88, 字一色 64,
四杠 88 and 四暗刻 64 together, and a few small fans) reach a little over 300."""
MAX_NAME = 100
"""The longest name of a tournament, a team or a player, in characters: a name is printed on
sheets, cards and a phone's standings (the database column holds 200; PostgreSQL refuses more)."""
MAX_NUMBER = 999_999_999
"""The highest registration number (编号): nine digits, within the database's 32-bit integer
(a larger one failed deep in the database: SQLite's overflow, PostgreSQL's out of range)."""


def folded(name: str) -> str:
    """A name as two names that differ only in case or spacing read alike (``Ann Lee``,
    ``ann  lee``): nobody could tell them apart on a sheet."""
    return " ".join(name.split()).casefold()


def alike(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that reads as ``name`` (:func:`folded`), or None."""
    key = folded(name)
    return next((n for n in names if folded(n) == key), None)


def _meant(name: str, names: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` naming the one of ``names`` that ``name`` most likely means (the
    same letters in another case or spacing, or a close spelling), or nothing."""
    known = list(names)
    same = alike(name, known)
    close = [same] if same is not None else difflib.get_close_matches(name, known, 1, 0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def name_problem(name: str, what: str = "name") -> str | None:
    """Why ``name`` cannot name a tournament, team or player (``what`` says which in the
    message), or None: blank, longer than ``MAX_NAME`` characters, or holding a control
    character (a line break or a tab splits a sheet's line and a CSV row; an escape code
    rewrites the terminal)."""
    if not name.strip():
        return f"a {what} cannot be blank"
    if len(name) > MAX_NAME:
        return f"a {what} has at most {MAX_NAME} characters, not {len(name)}: {name[:30]!r}…"
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Zl", "Zp")), None)
    if bad is not None:
        return (
            f"the {what} {name!r} holds a control character ({bad!r}): a line break, tab "
            "or the like cannot be printed on a sheet"
        )
    return None


def tournament_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a new tournament (``guobiao tournament create``), or None: as
    ``name_problem``, and a tournament's name is the last part of its web pages' addresses
    (``/t/NAME``): a ``/`` would split it (its pages answered 404), and ``.`` or ``..`` would be
    read as a folder. (``Store.create_tournament`` checks only ``name_problem``.)"""
    problem = name_problem(name, "tournament name")
    if problem is not None:
        return problem
    if "/" in name or "\\" in name:
        return (
            f"the tournament name {name!r} holds a slash: it is the last part of the web pages' "
            "address (/t/NAME), which a slash would split; use another sign (-)"
        )
    if name.strip() in (".", ".."):
        return f"the tournament name {name!r} would be read as a folder in the web address"
    return None


def no_tournament(name: str, known: Iterable[str]) -> StoreError:
    """The refusal of a name no tournament has, with the one it most likely means (the same
    letters in another case or spacing, or a close spelling)."""
    return StoreError(f"no tournament {name!r}{_meant(name, known)}")


class HandError(StoreError):
    """A hand refused by ``record_hand`` or ``record_hands``; ``hand``: which (0-15)."""

    def __init__(self, hand: int, message: str) -> None:
        super().__init__(message)
        self.hand = hand


def implausible_totals(scores: Mapping[str, int], starting: int = STARTING_POINTS) -> list[str]:
    """Why a table's 局分 look like a typo, one line per player (empty if they look fine): below
    ``LOWEST_PLAUSIBLE`` or above ``HIGHEST_PLAUSIBLE`` (for a start of 500; scaled with
    ``starting``). Any whole numbers with the right sum are reachable (fan points are any whole
    number from 8, fines multiples of 5), so only the size tells. A warning, never a refusal."""
    low = LOWEST_PLAUSIBLE * starting // STARTING_POINTS
    high = HIGHEST_PLAUSIBLE * starting // STARTING_POINTS
    out = []
    for name, score in scores.items():
        if score < low:
            out.append(
                f"{name} {score} is implausible: losing {starting - score} in a 16-hand session "
                f"is paying {round((starting - score) / 16, 1):g} a hand on average (dealing "
                "into a 24-point hand costs 32)"
            )
        elif score > high:
            out.append(
                f"{name} {score} is implausible: winning {score - starting} in a 16-hand session "
                f"is collecting {round((score - starting) / 16, 1):g} a hand on average (a "
                "self-drawn 24-point hand collects 96)"
            )
    return out


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player to register (e.g. a CSV row)."""

    number: int
    name: str
    team: str | None = None
    substitute: bool = False
    ema_id: str | None = None
    country: str | None = None
    first_name: str | None = None  # for the EMA results file (guobiao.tournament.ema)
    last_name: str | None = None
    captain: bool = False  # the team's captain (队长): ``Team.leader``, as ``add_team(leader=)``


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One entry of the audit trail, located: ``session``, ``table`` and ``hand`` (0-15) where
    they apply (None otherwise); ``at`` in UTC; ``old`` is empty for a first entry. ``entity``
    is what changed: "hand_record", "table" (totals, deductions, lateness) or
    "seat_assignment" (a substitution)."""

    at: datetime
    who: str
    entity: str
    session: int | None
    table: int | None
    hand: int | None
    old: dict[str, Any]
    new: dict[str, Any]
    note: str | None


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


HANDS = 16  # 第五条: a session (局) is 4 rounds of 4 hands
ENDED = "ended"  # the key of a table's end mark in its audit entries (``Store.finish_table``)


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand for ``Store.record_hands``: the arguments of ``Store.record_hand`` (``hand``
    0-15; seats are seat winds of that hand; ``note`` goes to the audit trail)."""

    hand: int
    winner: Seat | None = None
    discarder: Seat | None = None
    fan_points: int = 0
    flowers: int = 0
    penalties: Sequence[Penalty] = ()
    fans: Sequence[str] | None = None
    tiles: str | None = None
    warnings: Sequence[Seat] = ()
    note: str | None = None


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """A hand recorded by ``Store.record_hands``: ``players`` at E S W N in that hand, the score
    changes by seat wind, and the table's 局分 after it (by player)."""

    hand: int
    players: tuple[str, str, str, str]
    deltas: tuple[int, int, int, int]
    scores: dict[str, int]


@dataclass(frozen=True, slots=True)
class TableEnd:
    """A table whose session ended before hand 16, after ``hands`` hands: at the time limit
    (第六条四 「按已取得的分数计算成绩」) or left one short (三缺一, 第十二条三(一)). Marked by
    ``who`` at ``at`` (UTC), ``note`` saying why."""

    hands: int
    who: str
    at: datetime
    note: str | None


@dataclass(frozen=True, slots=True)
class TableStatus:
    """What is entered for one table of a session: the hands (0-15), the session totals, and
    the end mark. ``state``: "missing" (nothing entered), "partial" (hands of part of the
    session), "complete" (totals, all 16 hands, or the hands up to a marked end)."""

    session: int
    table: int
    players: tuple[str, ...]  # at E S W N of the session's first hand
    hands: tuple[int, ...]
    totals: bool
    ended: TableEnd | None = None

    @property
    def state(self) -> str:
        if self.totals or len(self.hands) == HANDS:
            return "complete"
        if self.ended is not None and len(self.hands) == self.ended.hands:
            return "complete"
        return "partial" if self.hands else "missing"

    @property
    def missing_hands(self) -> tuple[int, ...]:
        """The hands (0-15) still to enter; none once the table is complete."""
        if self.state == "complete":
            return ()
        return tuple(h for h in range(HANDS) if h not in self.hands)


class _DryRun(Exception):
    """Not an error: carries a dry run's result out of its rolled-back transaction."""

    def __init__(self, result: list[RecordedHand]) -> None:
        self.result = result


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """A tournament's settings. ``final_pairing`` ("swiss", "strongest" or None) seats the last
    ``final_sessions`` sessions from the standings, one at a time (``Store.pair_session``); the
    draw seats the ``drawn_sessions`` before them. ``readings``: how the ranking reads what the
    rules leave open (``guobiao.tournament.ranking.Readings``, docs/rules.md §19)."""

    sessions: int
    group_size: int | None
    withdrawn_results: str
    final_pairing: str | None
    final_sessions: int
    readings: Readings = field(default_factory=Readings)

    @property
    def drawn_sessions(self) -> int:
        return self.sessions - self.final_sessions


@dataclass(frozen=True, slots=True)
class WithdrawalLine:
    """A player who left the tournament from session ``from_session`` on (the first session
    they do not play): ``reason`` "withdrawn" or "disqualified"; recorded by ``who`` at ``at``
    (UTC)."""

    player: str
    from_session: int
    reason: str
    who: str
    at: datetime
    note: str | None


@dataclass(frozen=True, slots=True)
class CheckInList:
    """A session's check-in (``Store.checkin_list``): players by registration number."""

    session: int
    present: tuple[str, ...]
    absent: tuple[str, ...]
    not_checked_in: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Redraw:
    """What ``Store.withdraw`` did: the withdrawal, and the sessions it seated again without the
    player (numbered from 1, tables from 1) with how; ``unseated``: later sessions not seated yet
    (final rounds, seated from the standings when their turn comes)."""

    withdrawal: WithdrawalLine
    sessions: tuple[SessionSeating, ...]
    method: str
    unseated: tuple[int, ...]


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


def _yes_no(value: object, what: str) -> bool:
    """``_truthy``, refusing a text that is neither yes nor no (a typo is not a no)."""
    if isinstance(value, str) and value.strip().lower() not in (
        ("", "0", "false", "no", "n", "1", "true", "yes", "y", "x", "是")
    ):
        raise StoreError(f"{what} {value!r} is not yes/no")
    return _truthy(value)


class Store:
    """A tournament database. Tournaments are named by their (unique) name, players by their
    (unique in the tournament) name, sessions and tables by number from 1, hands from 0 to 15
    (1 to 16 in messages)."""

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
            raise no_tournament(name, db.scalars(select(Tournament.name)))
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
        withdrawn_results: str = "keep",
        final_pairing: str | None = None,
        final_sessions: int | None = None,
        readings: Readings | None = None,
    ) -> int:
        """A new tournament; ``group_size`` is the ranking group (None or 4: each table; else a
        multiple of 4: consecutive tables of a session form a group). ``withdrawn_results``:
        how a withdrawn or disqualified player's played sessions count, "keep" or "void"
        (docs/rules.md §19). ``final_pairing`` ("swiss" or "strongest"): the last
        ``final_sessions`` sessions (1 if not given) are seated from the standings, one at a
        time (``pair_session``); the draw seats the sessions before them. ``readings``: the
        ranking's readings (``Readings``; the defaults when not given, docs/rules.md §19)."""
        readings = readings or Readings()
        if not name.strip():
            raise StoreError("a tournament needs a name")
        name = name.strip()  # "Club night " would be a second tournament nobody can type
        problem = name_problem(name, "tournament name")
        if problem is not None:
            raise StoreError(problem)
        if sessions < 1:
            raise StoreError(f"tournament {name!r}: at least one session, got {sessions}")
        if group_size is not None and (group_size < 4 or group_size % 4):
            raise StoreError(
                f"tournament {name!r}: a ranking group of {group_size} is not a multiple of 4"
            )
        if withdrawn_results not in WITHDRAWN_RESULTS:
            raise StoreError(
                f"tournament {name!r}: withdrawn results {withdrawn_results!r} is not one of "
                f"{', '.join(WITHDRAWN_RESULTS)}"
            )
        if final_pairing is not None and final_pairing not in PAIRINGS:
            raise StoreError(
                f"tournament {name!r}: final pairing {final_pairing!r} is not one of "
                f"{', '.join(PAIRINGS)}"
            )
        if final_sessions is not None and final_pairing is None:
            raise StoreError(f"tournament {name!r}: final sessions need a final pairing")
        finals = 0 if final_pairing is None else 1 if final_sessions is None else final_sessions
        if final_pairing is not None and not 1 <= finals < sessions:
            raise StoreError(
                f"tournament {name!r}: {finals} final session(s) of {sessions}: at least one, "
                "and the first session is drawn (there are no standings before it)"
            )
        with self._write(f"create tournament {name!r}") as db:
            if db.scalar(select(Tournament.id).where(Tournament.name == name)) is not None:
                raise StoreError(f"a tournament {name!r} already exists")
            same = alike(name, db.scalars(select(Tournament.name)))
            if same is not None:
                raise StoreError(
                    f"a tournament {same!r} already exists ({name!r} differs from it only in "
                    "case or spacing: nobody could tell the two apart)"
                )
            row = Tournament(
                name=name,
                sessions_planned=sessions,
                group_size=group_size,
                rules_profile=rules_profile,
                starting_points=STARTING_POINTS,
                withdrawn_results=withdrawn_results,
                final_pairing=final_pairing,
                final_sessions=finals,
                substitute_table=readings.substitute_table,
                forfeit_points=readings.forfeit,
                team_substitute=readings.team_substitute,
                bye_points=readings.bye,
            )
            db.add(row)
            db.flush()
            return row.id

    def settings(self, tournament: str) -> TournamentSettings:
        with self._read() as db:
            t = self._tournament(db, tournament)
            return TournamentSettings(
                t.sessions_planned,
                t.group_size,
                t.withdrawn_results,
                t.final_pairing,
                t.final_sessions,
                _readings(t),
            )

    def add_team(self, tournament: str, name: str, *, leader: str | None = None) -> None:
        problem = name_problem(name, "team name")
        if problem is not None:
            raise StoreError(f"{tournament!r}: {problem}")
        with self._write(f"{tournament!r}: add team {name!r}") as db:
            t = self._tournament(db, tournament)
            exists = db.scalar(select(Team.id).where(Team.tournament_id == t.id, Team.name == name))
            if exists is not None:
                raise StoreError(f"{tournament!r}: a team {name!r} already exists")
            same = alike(name, db.scalars(select(Team.name).where(Team.tournament_id == t.id)))
            if same is not None:
                raise StoreError(
                    f"{tournament!r}: a team {same!r} already exists ({name!r} differs from "
                    "it only in case or spacing)"
                )
            db.add(Team(tournament_id=t.id, name=name, leader=leader))

    def add_players(self, tournament: str, rows: Iterable[PlayerRow | Mapping[str, object]]) -> int:
        """Register players (``PlayerRow`` or mappings with number, name, team, substitute, as
        read from a CSV); all or none. Returns how many were added. A ``captain`` becomes their
        team's leader (队长, as ``add_team(leader=...)``): refused without a team, or for a
        team that has another captain already (registered, or earlier in ``rows``)."""
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
                problem = name_problem(row.name, "player's name")
                if problem is not None:
                    raise StoreError(f"{tournament!r}: player row {line}: {problem}")
                if not 1 <= row.number <= MAX_NUMBER:
                    raise StoreError(
                        f"{tournament!r}: player row {line}: the number {row.number} of "
                        f"{row.name!r} is not from 1 to {MAX_NUMBER}"
                    )
                for what, value, longest in (
                    ("EMA number", row.ema_id, 20),
                    ("country", row.country, 60),
                    ("first name", row.first_name, MAX_NAME),
                    ("last name", row.last_name, MAX_NAME),
                ):
                    if value and len(value) > longest:
                        raise StoreError(
                            f"{tournament!r}: player row {line}: the {what} of {row.name!r} has "
                            f"at most {longest} characters, not {len(value)}"
                        )
                if row.name in known:
                    raise StoreError(f"{tournament!r}: a player {row.name!r} already exists")
                same = alike(row.name, known)
                if same is not None:
                    raise StoreError(
                        f"{tournament!r}: a player {same!r} already exists ({row.name!r} "
                        "differs only in case or spacing)"
                    )
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
                if row.captain:
                    if team is None:
                        raise StoreError(
                            f"{tournament!r}: {row.name!r} is a captain of no team: a captain "
                            "needs a team"
                        )
                    if team.leader and team.leader != row.name:
                        raise StoreError(
                            f"{tournament!r}: team {team.name!r} already has a captain, "
                            f"{team.leader!r}: {row.name!r} cannot be one too"
                        )
                    team.leader = row.name
                player = Player(
                    tournament_id=t.id,
                    number=row.number,
                    name=row.name,
                    team=team,
                    substitute=row.substitute,
                    ema_id=row.ema_id or None,
                    country=row.country or None,
                    first_name=row.first_name or None,
                    last_name=row.last_name or None,
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
        first, last = raw.get("first_name"), raw.get("last_name")
        return PlayerRow(
            number,
            name,
            str(team) if team else None,
            _truthy(raw.get("substitute")),
            str(ema_id) if ema_id else None,
            str(country) if country else None,
            str(first) if first else None,
            str(last) if last else None,
            _yes_no(raw.get("captain"), f"player row {line}: captain"),
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
        allow_team_mate: bool = False,
    ) -> int:
        """``by`` takes the seat of ``player`` for the whole of ``session`` (第十二条三(二) 陪打):
        their score counts for the table, they get no standard points and no place. ``player``
        is recorded absent, or with ``forfeit`` as having forfeited (more than 15 minutes late,
        第十三条二(一): 局分 0, ranked in the group with it). ``by`` is any registered player not
        seated in that session (a team's substitute, a bye, a referee's stand-in). Refused once
        the table has results, and when ``by`` would sit with a team-mate (the draw keeps
        team-mates apart; a 陪打's score moves theirs) unless ``allow_team_mate``. Returns the
        table number. Leaves an ``AuditEntry``."""
        if not who.strip():
            raise StoreError("a substitution needs the name of who makes it")
        if player == by:
            raise StoreError(f"{player!r} cannot replace themself")
        with self._write(f"{tournament!r}: substitute") as db:
            t = self._tournament(db, tournament)
            players = self._players(db, t)
            for name in (player, by):
                if name not in players:
                    raise no_player(tournament, name, players)
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
            left = db.scalar(
                select(Withdrawal).where(
                    Withdrawal.tournament_id == t.id, Withdrawal.player_id == players[by].id
                )
            )
            if left is not None and session >= left.from_session:
                raise StoreError(
                    f"{tournament!r}: {by!r} left the tournament ({left.reason}) from session "
                    f"{left.from_session}"
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
            team = players[by].team
            mates = sorted(
                s.player.name
                for s in row_table.seats
                if s.player.name != player and team is not None and s.player.team_id == team.id
            )
            if team is not None and mates and not allow_team_mate:
                raise StoreError(
                    f"{where}: {by!r} would sit with {', '.join(map(repr, mates))} of their team "
                    f"{team.name!r}; choose a substitute from another team, or seat them anyway "
                    "(--allow-team-mate)"
                )
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

    # -- withdrawals and re-draws; final rounds -----------------------------------------------

    @staticmethod
    def _session_rows(db: OrmSession, t: Tournament) -> list[TournamentSession]:
        return list(
            db.scalars(
                select(TournamentSession)
                .where(TournamentSession.tournament_id == t.id)
                .order_by(TournamentSession.number)
            )
        )

    @staticmethod
    def _seated(db: OrmSession, session: TournamentSession) -> SessionSeating:
        """A stored session as the seating code reads it: who sat where (a 陪打 in the seat they
        took), the byes; numbered as stored, from 1."""
        tables = []
        for table in sorted(session.tables, key=lambda x: x.number):
            a, b, c, d = (s.player.name for s in sorted(table.seats, key=lambda s: s.seat))
            tables.append(SeatingTable(table.number, (a, b, c, d)))
        byes = db.scalars(
            select(SessionAbsence).where(
                SessionAbsence.session_id == session.id, SessionAbsence.kind == "bye"
            )
        )
        return SessionSeating(
            session.number, tuple(tables), tuple(sorted(b.player.name for b in byes))
        )

    @staticmethod
    def _started(db: OrmSession, session: TournamentSession) -> str | None:
        """What is entered for a seated session, in words (None: nothing): results, hands,
        deductions or a substitution at one of its tables. Only such a session can be seated
        again."""
        entered = Store._results_in(db, session)
        if entered is not None:
            return entered
        for table in session.tables:
            for seat in table.seats:
                if seat.replaces is not None:
                    return (
                        f"table {table.number} has a substitute ({seat.player.name} for "
                        f"{seat.replaces.name})"
                    )
        return None

    @staticmethod
    def _unseat(db: OrmSession, session: TournamentSession) -> None:
        """Drop a session's tables, seats and byes (nothing else is entered: ``_started``)."""
        ids = [table.id for table in session.tables]
        if ids:
            db.execute(delete(SeatAssignment).where(SeatAssignment.table_id.in_(ids)))
            db.execute(delete(GameTable).where(GameTable.id.in_(ids)))
        db.execute(
            delete(SessionAbsence).where(
                SessionAbsence.session_id == session.id, SessionAbsence.kind == "bye"
            )
        )
        db.flush()
        db.expire(session, ["tables"])

    @staticmethod
    def _place(
        db: OrmSession,
        session: TournamentSession,
        seating: SessionSeating,
        players: Mapping[str, Player],
        pairing: str | None,
    ) -> None:
        """Store a seating (tables numbered from 1) into an empty session."""
        for table in seating.tables:
            row = GameTable(session=session, number=table.number)
            db.add(row)
            for seat, name in enumerate(table.seats):
                db.add(SeatAssignment(table=row, seat=seat, player=players[name]))
        for name in seating.byes:
            db.add(SessionAbsence(session=session, player=players[name], kind="bye"))
        session.pairing = pairing

    @staticmethod
    def _field(
        db: OrmSession, t: Tournament, players: Mapping[str, Player]
    ) -> tuple[list[str], dict[str, list[str]]]:
        """The players the seating draws (registered, not a team's substitute, not withdrawn), by
        registration number, and their teams."""
        gone = set(db.scalars(select(Withdrawal.player_id).where(Withdrawal.tournament_id == t.id)))
        field = sorted(
            (p for p in players.values() if not p.substitute and p.id not in gone),
            key=lambda p: p.number,
        )
        teams: dict[str, list[str]] = {}
        for p in field:
            if p.team is not None:
                teams.setdefault(p.team.name, []).append(p.name)
        return [p.name for p in field], teams

    @staticmethod
    def _zero_based(seating: SessionSeating) -> SessionSeating:
        return SessionSeating(
            seating.number - 1,
            tuple(SeatingTable(x.number - 1, x.seats) for x in seating.tables),
            seating.byes,
        )

    @staticmethod
    def _one_based(seating: SessionSeating, number: int) -> SessionSeating:
        return SessionSeating(
            number, tuple(SeatingTable(x.number + 1, x.seats) for x in seating.tables), seating.byes
        )

    def _standings_order(self, db: OrmSession, t: Tournament, field: Sequence[str]) -> list[str]:
        """``field`` in the order of the individual ranking (第十一条; a shared place in name
        order), the players with no ranked session after them by registration number."""
        ranked = [s.name for s in individual_ranking(self._table_results(db, t))]
        inside = set(field)
        first = [name for name in ranked if name in inside]
        seen = set(first)
        return first + [name for name in field if name not in seen]

    def _pair(
        self,
        db: OrmSession,
        t: Tournament,
        row: TournamentSession,
        kind: str,
        players: Mapping[str, Player],
        rows: Sequence[TournamentSession],
    ) -> SessionSeating:
        """Seat ``row`` from the standings (``pair_session``) and store it."""
        field, teams = self._field(db, t, players)
        if len(field) < 4:
            raise StoreError(f"{t.name!r}: {len(field)} player(s) left; a table needs 4")
        played = [self._zero_based(self._seated(db, r)) for r in rows if r.number < row.number]
        order = self._standings_order(db, t, field)
        try:
            seating = pair_session(order, kind, played=played, teams=teams)  # type: ignore[arg-type]
        except ValueError as error:
            raise StoreError(f"{t.name!r}: session {row.number}: {error}") from error
        numbered = self._one_based(seating, row.number)
        self._unseat(db, row)
        self._place(db, row, numbered, players, kind)
        return numbered

    def withdraw(
        self,
        tournament: str,
        player: str,
        from_session: int | None = None,
        *,
        who: str,
        reason: str | None = None,
        note: str | None = None,
        seed: int = 0,
    ) -> Redraw:
        """``player`` leaves the tournament for good: from session ``from_session`` on (the first
        session they do not play) the sessions seated are seated again without them, the
        sessions before stand. ``reason``: "withdrawn" (退出) or "disqualified" (取消比赛资格:
        停赛, 第十三条四; 有意诈和, 第十四条六(四)).

        After a 有意诈和 entered for the player (``--penalty SEAT:intentional``), ``reason``
        defaults to "disqualified" and ``from_session`` to the session after it; otherwise both
        are needed ("withdrawn" by default). Refused when a session to seat again has anything
        entered (totals, hands, a deduction or a substitute). Sessions seated by the draw are
        drawn again with ``continue_schedule`` (the meetings, winds and byes of the earlier ones
        counted; ``seed``), a session seated from the standings is paired again from them. How
        the player's played sessions count is the tournament's ``withdrawn_results``. Audited
        under ``who``."""
        if not who.strip():
            raise StoreError("a withdrawal needs the name of who records it")
        if reason is not None and reason not in WITHDRAWAL_REASONS:
            raise StoreError(f"the reason {reason!r} is not one of {', '.join(WITHDRAWAL_REASONS)}")
        with self._write(f"{tournament!r}: withdraw {player!r}") as db:
            t = self._tournament(db, tournament)
            players = self._players(db, t)
            if player not in players:
                raise no_player(tournament, player, players)
            earlier = db.scalar(
                select(Withdrawal).where(
                    Withdrawal.tournament_id == t.id, Withdrawal.player_id == players[player].id
                )
            )
            if earlier is not None:
                raise StoreError(
                    f"{tournament!r}: {player!r} already left the tournament ({earlier.reason}, "
                    f"from session {earlier.from_session})"
                )
            foul = db.scalar(
                select(func.max(TournamentSession.number))
                .select_from(TournamentSession)
                .join(GameTable, GameTable.session_id == TournamentSession.id)
                .join(PenaltyRecord, PenaltyRecord.table_id == GameTable.id)
                .where(
                    TournamentSession.tournament_id == t.id,
                    PenaltyRecord.player_id == players[player].id,
                    PenaltyRecord.kind == INTENTIONAL,
                )
            )
            if reason is None:
                reason = "disqualified" if foul is not None else "withdrawn"
            if from_session is None:
                if foul is None:
                    raise StoreError(
                        f"{tournament!r}: from which session does {player!r} not play? (no "
                        "有意诈和 is entered for them to go by)"
                    )
                from_session = foul + 1
            last = t.sessions_planned
            if not 1 <= from_session <= last + 1:
                raise StoreError(
                    f"{tournament!r}: session {from_session}: the first session {player!r} does "
                    f"not play is one of 1-{last}, or {last + 1} after the last"
                )
            rows = self._session_rows(db, t)
            later = [r for r in rows if r.number >= from_session and r.tables]
            started = [(r.number, why) for r in later if (why := self._started(db, r))]
            if started:
                number, why = started[-1]
                raise StoreError(
                    f"{tournament!r}: session {number} is under way ({why}): a withdrawal seats "
                    f"the sessions from {from_session} on again, and only sessions with nothing "
                    f"entered can be; withdraw {player!r} from session {number + 1} on (a "
                    f"substitute can take their seat in session {number})"
                )
            row = Withdrawal(
                tournament_id=t.id,
                player=players[player],
                from_session=from_session,
                reason=reason,
                who=who.strip(),
                note=note,
            )
            db.add(row)
            db.flush()
            field, teams = self._field(db, t, players)
            drawn = [r for r in later if r.pairing is None]
            paired = [r for r in later if r.pairing is not None]
            if (drawn or paired) and len(field) < 4:
                raise StoreError(
                    f"{tournament!r}: {len(field)} player(s) would be left; a table needs 4"
                )
            out: list[SessionSeating] = []
            method = "nothing to seat again"
            if drawn:
                played = [
                    self._zero_based(self._seated(db, r)) for r in rows if r.number < from_session
                ]
                played = [s for s in played if s.tables]
                try:
                    plan = continue_schedule(field, played, len(drawn), teams=teams, seed=seed)
                except ValueError as error:
                    raise StoreError(f"{tournament!r}: cannot draw again: {error}") from error
                method = plan.method
                for session, seating in zip(drawn, plan.sessions, strict=True):
                    numbered = self._one_based(seating, session.number)
                    self._unseat(db, session)
                    self._place(db, session, numbered, players, None)
                    out.append(numbered)
            for session in paired:
                assert session.pairing is not None
                out.append(self._pair(db, t, session, session.pairing, players, rows))
                method = f"paired from the standings ({session.pairing})"
            seated = {r.number for r in rows if r.tables}
            unseated = tuple(n for n in range(from_session, last + 1) if n not in seated)
            line = WithdrawalLine(player, from_session, reason, row.who, utc(row.at), note)
            new = {
                "player": player,
                "reason": reason,
                "from_session": from_session,
                "seated_again": [s.number for s in out],
            }
            _audit(db, t, who, "withdrawal", row.id, {}, new, note)
            return Redraw(line, tuple(out), method, unseated)

    def withdrawals(self, tournament: str) -> list[WithdrawalLine]:
        """The players who left the tournament, by the session they left from, then name."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            rows = db.scalars(select(Withdrawal).where(Withdrawal.tournament_id == t.id))
            out = [
                WithdrawalLine(w.player.name, w.from_session, w.reason, w.who, utc(w.at), w.note)
                for w in rows
            ]
            return sorted(out, key=lambda w: (w.from_session, w.player))

    def pending_disqualifications(self, tournament: str) -> list[tuple[int, int, str]]:
        """(session, table, player) of each 有意诈和 (第十四条六(四): 「应予取消比赛资格」) of a
        player who has not left the tournament (``withdraw``)."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            gone = select(Withdrawal.player_id).where(Withdrawal.tournament_id == t.id)
            rows = db.execute(
                select(TournamentSession.number, GameTable.number, Player.name)
                .select_from(TournamentSession)
                .join(GameTable, GameTable.session_id == TournamentSession.id)
                .join(PenaltyRecord, PenaltyRecord.table_id == GameTable.id)
                .join(Player, Player.id == PenaltyRecord.player_id)
                .where(
                    TournamentSession.tournament_id == t.id,
                    PenaltyRecord.kind == INTENTIONAL,
                    PenaltyRecord.player_id.not_in(gone),
                )
            ).all()
            return sorted({(s, n, p) for s, n, p in rows})

    def seatings(self, tournament: str) -> list[SessionSeating]:
        """Every seated session as the seating code reads it (numbered from 1, tables from 1;
        a 陪打 in the seat they took), in order."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            return [self._seated(db, r) for r in self._session_rows(db, t) if r.tables]

    def pair_session(
        self, tournament: str, session: int, kind: str | None = None
    ) -> SessionSeating:
        """Seat ``session`` from the current standings (the final rounds): ``kind`` "swiss" or
        "strongest" (``guobiao.tournament.seating.pair_session``; by default the tournament's
        final pairing, for one of its final sessions). Every earlier session must be seated and
        complete (``TableStatus.state``); ``session`` must have nothing entered, and if it was
        seated (by the draw) it is seated again. Withdrawn players are left out; players with no
        ranked session yet come after the ranked ones. Returns the seating (tables from 1,
        table 1 the top table)."""
        with self._write(f"{tournament!r}: pair session {session}") as db:
            t = self._tournament(db, tournament)
            if not 1 <= session <= t.sessions_planned:
                raise StoreError(
                    f"{tournament!r} has sessions 1-{t.sessions_planned}, not {session}"
                )
            if kind is None:
                if t.final_pairing is None or session <= t.sessions_planned - t.final_sessions:
                    raise StoreError(
                        f"{tournament!r}: session {session} is not a final session with a "
                        f"pairing set at create: give the pairing ({', '.join(PAIRINGS)})"
                    )
                kind = t.final_pairing
            if kind not in PAIRINGS:
                raise StoreError(f"the pairing {kind!r} is not one of {', '.join(PAIRINGS)}")
            rows = self._session_rows(db, t)
            by_number = {r.number: r for r in rows}
            states = self._states(db, t)
            for number in range(1, session):
                earlier = by_number.get(number)
                if earlier is None or not earlier.tables:
                    raise StoreError(
                        f"{tournament!r}: session {number} is not seated yet; session {session} "
                        "is paired from the standings after every earlier session"
                    )
                unfinished = [
                    table.number
                    for table in sorted(earlier.tables, key=lambda x: x.number)
                    if states[table.id].state != "complete"
                ]
                if unfinished:
                    raise StoreError(
                        f"{tournament!r}: session {number} table(s) "
                        f"{', '.join(map(str, unfinished))} are not complete; session {session} "
                        "is paired from the standings once every earlier session is"
                    )
            row = by_number.get(session)
            if row is None:
                row = TournamentSession(tournament_id=t.id, number=session)
                db.add(row)
                db.flush()
            elif row.tables and (why := self._started(db, row)):
                raise StoreError(
                    f"{tournament!r}: session {session} is under way ({why}); it cannot be "
                    "seated again"
                )
            players = self._players(db, t)
            return self._pair(db, t, row, kind, players, rows)

    # -- check-in before a session (issue 13, point 8) ----------------------------------------

    def set_absent_policy(self, tournament: str, policy: str) -> None:
        """How a player checked in absent is handled (``apply_checkin``): "substitute" (a free
        registered substitute plays their seat) or "bye" (the session is drawn again without
        them). Chosen at ``create`` (``--absent``)."""
        if policy not in ABSENT_POLICIES:
            raise StoreError(
                f"the absent policy {policy!r} is not one of {', '.join(ABSENT_POLICIES)}"
            )
        with self._write(f"{tournament!r}: absent policy") as db:
            self._tournament(db, tournament).absent_policy = policy

    def absent_policy(self, tournament: str) -> str:
        """The tournament's absent policy, "substitute" or "bye" (``set_absent_policy``)."""
        with self._read() as db:
            return self._tournament(db, tournament).absent_policy

    @staticmethod
    def _session_row(db: OrmSession, t: Tournament, session: int) -> TournamentSession | None:
        if not 1 <= session <= t.sessions_planned:
            raise StoreError(f"{t.name!r} has sessions 1-{t.sessions_planned}, not {session}")
        return db.scalar(
            select(TournamentSession).where(
                TournamentSession.tournament_id == t.id, TournamentSession.number == session
            )
        )

    @staticmethod
    def _results_in(db: OrmSession, row: TournamentSession | None) -> str | None:
        """Which table of the session has results (totals, hands or a deduction), in words."""
        numbers = {table.id: table.number for table in row.tables} if row is not None else {}
        for model, what in (
            (SessionResult, "totals"),
            (HandRecord, "hands"),
            (PenaltyRecord, "a deduction"),
        ):
            found = db.scalar(
                select(model.table_id).where(model.table_id.in_(list(numbers))).limit(1)
            )
            if found is not None:
                return f"table {numbers[found]} has {what} entered"
        return None

    def check_in(
        self,
        tournament: str,
        session: int,
        present: Sequence[str] = (),
        absent: Sequence[str] = (),
        *,
        who: str,
    ) -> None:
        """Mark ``present`` and ``absent`` players for ``session`` (a mark replaces the player's
        earlier one). Refused once the session has results. Nothing is seated or replaced until
        ``apply_checkin``."""
        if not who.strip():
            raise StoreError("a check-in needs the name of who makes it")
        both = sorted(set(present) & set(absent))
        if both:
            raise StoreError(f"{', '.join(map(repr, both))}: marked both present and absent")
        with self._write(f"{tournament!r}: check-in for session {session}") as db:
            t = self._tournament(db, tournament)
            row = self._session_row(db, t, session)
            if why := self._results_in(db, row):
                raise StoreError(
                    f"{tournament!r}: session {session} has results ({why}): check-in is before "
                    "the session"
                )
            players = self._players(db, t)
            marks = [(name, True) for name in present] + [(name, False) for name in absent]
            for name, _ in marks:
                if name not in players:
                    raise no_player(tournament, name, players)
            for name, here in marks:
                found = db.scalar(
                    select(CheckIn).where(
                        CheckIn.tournament_id == t.id,
                        CheckIn.session == session,
                        CheckIn.player_id == players[name].id,
                    )
                )
                if found is None:
                    db.add(
                        CheckIn(
                            tournament_id=t.id,
                            session=session,
                            player=players[name],
                            present=here,
                            who=who.strip(),
                        )
                    )
                else:
                    found.present, found.who, found.at = here, who.strip(), datetime.now(UTC)

    def clear_checkin(
        self, tournament: str, session: int, players: Sequence[str] | None = None
    ) -> int:
        """Forget the check-in of ``players`` in ``session`` (None: everyone's); returns how many
        marks were dropped. What ``apply_checkin`` did stays done."""
        with self._write(f"{tournament!r}: clear check-in for session {session}") as db:
            t = self._tournament(db, tournament)
            self._session_row(db, t, session)
            query = delete(CheckIn).where(CheckIn.tournament_id == t.id, CheckIn.session == session)
            if players is not None:
                known = self._players(db, t)
                for name in players:
                    if name not in known:
                        raise no_player(tournament, name, known)
                query = query.where(CheckIn.player_id.in_([known[n].id for n in players]))
            result = db.execute(query)
            return int(getattr(result, "rowcount", 0) or 0)

    def checkin_list(self, tournament: str, session: int) -> CheckInList:
        """Who is present, absent and not checked in for ``session``: the players the draw seats
        (not a team's substitute, not withdrawn before it) and anyone marked, by registration
        number."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            self._session_row(db, t, session)
            players = self._players(db, t)
            left = {
                w.player_id: w.from_session
                for w in db.scalars(select(Withdrawal).where(Withdrawal.tournament_id == t.id))
            }
            marks = {
                c.player_id: c.present
                for c in db.scalars(
                    select(CheckIn).where(CheckIn.tournament_id == t.id, CheckIn.session == session)
                )
            }
            listed = sorted(
                (
                    p
                    for p in players.values()
                    if p.id in marks
                    or (not p.substitute and not (p.id in left and left[p.id] <= session))
                ),
                key=lambda p: p.number,
            )
            return CheckInList(
                session,
                tuple(p.name for p in listed if marks.get(p.id) is True),
                tuple(p.name for p in listed if marks.get(p.id) is False),
                tuple(p.name for p in listed if p.id not in marks),
            )

    def apply_checkin(
        self, tournament: str, session: int, *, who: str, seed: int = 0
    ) -> tuple[str, ...]:
        """Handle the players checked in absent for ``session`` as the tournament's absent
        policy says, before the session: "substitute" seats a free registered substitute (a
        team's 替补, ``substitute`` yes; one checked in present first, then by number; never at
        a table with a team-mate) in each absent player's seat (``substitute``: no standard
        points, no place); "bye" draws the session again without them (``continue_schedule``
        for this session alone, the earlier sessions counted; byes when the field does not
        divide by four) and records them absent. Refused once the session has results, when it
        is not seated, or (substitute) when an absent seat has no free substitute; (bye) when a
        substitute already sits in it or it was paired from the standings. Returns what was
        done, one line per seat; an absent player already handled is left as is."""
        if not who.strip():
            raise StoreError("applying a check-in needs the name of who does it")
        with self._read() as db:
            t = self._tournament(db, tournament)
            policy = t.absent_policy
        if policy == "bye":
            return self._checkin_bye(tournament, session, who=who, seed=seed)
        plan = self._checkin_plan(tournament, session)
        lines = []
        for player, by in plan:
            table = self.substitute(
                tournament, session, player, by, who=who, note="absent at check-in"
            )
            seat = next(
                WINDS[i]
                for s in self.seatings(tournament)
                if s.number == session
                for x in s.tables
                if x.number == table
                for i, name in enumerate(x.seats)
                if name == by
            )
            lines.append(
                f"session {session} table {table} {seat}: {by} plays for {player} (absent; "
                "substitute, not ranked)"
            )
        return tuple(lines)

    def _absent_marked(self, db: OrmSession, t: Tournament, session: int) -> list[Player]:
        return sorted(
            (
                c.player
                for c in db.scalars(
                    select(CheckIn).where(
                        CheckIn.tournament_id == t.id,
                        CheckIn.session == session,
                        CheckIn.present.is_(False),
                    )
                )
            ),
            key=lambda p: p.number,
        )

    def _checkin_row(self, db: OrmSession, t: Tournament, session: int) -> TournamentSession:
        row = self._session_row(db, t, session)
        if row is None or not row.tables:
            raise StoreError(
                f"{t.name!r}: session {session} is not seated yet; apply the check-in after "
                "its draw"
            )
        if why := self._results_in(db, row):
            raise StoreError(
                f"{t.name!r}: session {session} has results ({why}): too late to apply the check-in"
            )
        return row

    def _checkin_plan(self, tournament: str, session: int) -> list[tuple[str, str]]:
        """(absent player, substitute) for each absent player seated in ``session``."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            row = self._checkin_row(db, t, session)
            absent = self._absent_marked(db, t, session)
            seats = {s.player_id: s for table in row.tables for s in table.seats}
            marks = {
                c.player_id: c.present
                for c in db.scalars(
                    select(CheckIn).where(CheckIn.tournament_id == t.id, CheckIn.session == session)
                )
            }
            left = {
                w.player_id: w.from_session
                for w in db.scalars(select(Withdrawal).where(Withdrawal.tournament_id == t.id))
            }
            away = set(
                db.scalars(
                    select(SessionAbsence.player_id).where(
                        SessionAbsence.session_id == row.id, SessionAbsence.kind != "bye"
                    )
                )
            )
            free = sorted(
                (
                    p
                    for p in self._players(db, t).values()
                    if p.substitute
                    and p.id not in seats
                    and p.id not in away
                    and marks.get(p.id) is not False
                    and not (p.id in left and left[p.id] <= session)
                ),
                key=lambda p: (marks.get(p.id) is not True, p.number),
            )
            plan: list[tuple[str, str]] = []
            for player in absent:
                seat = seats.get(player.id)
                if seat is None:
                    continue  # not seated (a bye, or already replaced)
                others = {s.player.team_id for s in seat.table.seats if s.player_id != player.id}
                fits = [p for p in free if p.team_id is None or p.team_id not in others]
                if not fits:
                    why = (
                        "each free one would sit with a team-mate"
                        if free
                        else "none is free (registered with substitute yes, not seated, not absent)"
                    )
                    raise StoreError(
                        f"{tournament!r}: session {session} table {seat.table.number}: no "
                        f"substitute for {player.name!r}: {why}. Register one (players CSV, "
                        "substitute yes), or seat a player of your choice with `substitute "
                        "--by` (--allow-team-mate); nothing was changed"
                    )
                free.remove(fits[0])
                plan.append((player.name, fits[0].name))
            return plan

    def _checkin_bye(
        self, tournament: str, session: int, *, who: str, seed: int
    ) -> tuple[str, ...]:
        with self._write(f"{tournament!r}: check-in for session {session}") as db:
            t = self._tournament(db, tournament)
            row = self._checkin_row(db, t, session)
            absent = self._absent_marked(db, t, session)
            seated = {s.player_id for table in row.tables for s in table.seats}
            out = [p for p in absent if p.id in seated]
            if not out:
                return ()
            if row.pairing is not None:
                raise StoreError(
                    f"{tournament!r}: session {session} is seated from the standings "
                    f"({row.pairing}): seat it again with `draw --session {session}` after "
                    "withdrawing the absent, or put a substitute in their seats"
                )
            if why := self._started(db, row):
                raise StoreError(f"{tournament!r}: session {session} cannot be drawn again: {why}")
            players = self._players(db, t)
            gone = {p.name for p in out}
            field, teams = self._field(db, t, players)
            field = [name for name in field if name not in gone]
            teams = {team: [m for m in members if m not in gone] for team, members in teams.items()}
            if len(field) < 4:
                raise StoreError(f"{tournament!r}: {len(field)} player(s) present; a table needs 4")
            rows = self._session_rows(db, t)
            played = [
                self._zero_based(self._seated(db, r))
                for r in rows
                if r.number < session and r.tables
            ]
            try:
                plan = continue_schedule(field, played, 1, teams=teams, seed=seed)
            except ValueError as error:
                raise StoreError(f"{tournament!r}: cannot draw again: {error}") from error
            numbered = self._one_based(plan.sessions[0], session)
            self._unseat(db, row)
            self._place(db, row, numbered, players, None)
            for p in out:
                db.add(
                    SessionAbsence(session=row, player=p, kind="absent", note="absent at check-in")
                )
            db.flush()
            _audit(
                db,
                t,
                who,
                "checkin",
                row.id,
                {"session": session},
                {"session": session, "absent": ", ".join(sorted(gone)), "drawn_again": "yes"},
                None,
            )
            lines = [
                f"session {session} table {table.number} {WINDS[i]}: {name}"
                for table in numbered.tables
                for i, name in enumerate(table.seats)
            ]
            lines += [f"session {session} bye: {name}" for name in numbered.byes]
            lines += [f"session {session} absent: {p.name} (not seated)" for p in out]
            return tuple(lines)

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
        if win is not None and fan_points > MAX_FAN:
            raise StoreError(
                f"{where}: {fan_points} fan points: no hand scores more than {MAX_FAN} (the "
                "highest reach a little over 300); check it for a typo"
            )
        if win is not None and fan_points < MINIMUM_FAN:
            raise StoreError(
                f"{where}: {fan_points} fan points is below the {MINIMUM_FAN}-point minimum: not "
                f"a win; record a false win (错和, 第十四条六) instead: no --winner and "
                f"--penalty {WINDS[win]}:false"
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
        who: str | None = None,
        note: str | None = None,
    ) -> tuple[int, int, int, int]:
        """Record hand ``hand`` (0-15) of a table; returns the score changes by seat wind (E S W
        N of that hand), computed by ``guobiao.table.settlement.settle``. ``winner=None``: 荒牌;
        ``discarder=None`` with a winner: self-drawn. ``warnings``: seats warned (第十三条一),
        marked on the score sheet without points. ``who`` (the author) and ``note`` go to the
        audit trail."""
        entry = HandEntry(
            hand, winner, discarder, fan_points, flowers, penalties, fans, tiles, warnings, note
        )
        with self._write(f"{tournament!r}: record hand") as db:
            t = self._tournament(db, tournament)
            row_table = self._table(db, t, session, table, lock=True)
            return self._add_hand(db, t, session, row_table, entry, who)

    def _add_hand(
        self,
        db: OrmSession,
        t: Tournament,
        session: int,
        row_table: GameTable,
        entry: HandEntry,
        who: str | None,
    ) -> tuple[int, int, int, int]:
        """Record one hand inside the caller's transaction (``record_hand``, ``record_hands``);
        a refusal is a ``HandError``."""
        try:
            return self._insert_hand(db, t, session, row_table, entry, who)
        except HandError:
            raise
        except StoreError as error:
            raise HandError(entry.hand, str(error)) from error

    def _insert_hand(
        self,
        db: OrmSession,
        t: Tournament,
        session: int,
        row_table: GameTable,
        entry: HandEntry,
        who: str | None,
    ) -> tuple[int, int, int, int]:
        hand = entry.hand
        where = f"{self._where(t, session, row_table.number)} hand {hand + 1}"
        if hand not in range(HANDS):
            raise StoreError(f"{where}: a session has hands 1-16")
        if db.scalar(select(SessionResult.id).where(SessionResult.table_id == row_table.id)):
            raise StoreError(f"{where}: the session totals of this table are already entered")
        exists = db.scalar(
            select(HandRecord.id).where(
                HandRecord.table_id == row_table.id, HandRecord.number == hand
            )
        )
        if exists is not None:
            raise StoreError(f"{where} is already recorded (correct it instead)")
        end = self._ends(db, t, row_table.id).get(row_table.id)
        if end is not None and hand >= end.hands:
            raise StoreError(
                f"{where}: the table's session ended after hand {end.hands} (marked by "
                f"{end.who or '?'}); reopen the table first"
            )
        outcome, deltas = self._outcome(
            where, entry.winner, entry.discarder, entry.fan_points, entry.flowers, entry.penalties
        )
        warned = _warned(where, entry.warnings)
        row = HandRecord(table=row_table, number=hand)
        db.add(row)
        self._fill_hand(row, row_table, outcome, deltas, entry.fans, entry.tiles, warned)
        db.flush()
        _audit(db, t, who, "hand_record", row.id, {}, _hand_json(row), entry.note)
        return deltas

    def record_hands(
        self,
        tournament: str,
        session: int,
        table: int,
        entries: Sequence[HandEntry],
        *,
        who: str | None = None,
        finished: bool = False,
        note: str | None = None,
        dry_run: bool = False,
    ) -> list[RecordedHand]:
        """Record several hands of one table in one transaction, all or none, each exactly as
        ``record_hand`` records it (the same checks, settlement and audit entries), in hand
        order. ``finished``: then mark the table's session ended after them (``finish_table``,
        with ``note``). ``dry_run``: check and settle everything, return what would be recorded,
        and roll back. Returns each hand with the table's 局分 after it."""
        if not entries:
            raise StoreError(f"{tournament!r}: session {session} table {table}: no hands given")
        try:
            with self._write(f"{tournament!r}: record hands") as db:
                t = self._tournament(db, tournament)
                row_table = self._table(db, t, session, table, lock=True)
                out = []
                for entry in sorted(entries, key=lambda e: e.hand):
                    deltas = self._add_hand(db, t, session, row_table, entry, who)
                    e, s, w, n = (p.name for p in self._hand_seats(row_table, entry.hand))
                    scores = self._scores(db, t, row_table) or {}
                    out.append(RecordedHand(entry.hand, (e, s, w, n), deltas, scores))
                if finished:
                    self._finish(db, t, session, row_table, who, note)
                if dry_run:
                    raise _DryRun(out)
                return out
        except _DryRun as done:  # the transaction rolled back
            return done.result

    def finish_table(
        self,
        tournament: str,
        session: int,
        table: int,
        *,
        who: str,
        note: str | None = None,
    ) -> int:
        """Mark a table's session ended before hand 16, after the hands entered (1 to 15, with
        no gap): at the time limit (第六条四: 「按已取得的分数计算成绩」) or left one short with no
        substitute (三缺一, 第十二条三(一)). The table is then complete: its scores stand as
        reached, and a later hand is refused until ``reopen_table``. Audited under ``who``
        (``note``: why). Returns the number of hands played."""
        if not who.strip():
            raise StoreError("ending a table early needs the name of who does it")
        with self._write(f"{tournament!r}: finish table") as db:
            t = self._tournament(db, tournament)
            row_table = self._table(db, t, session, table, lock=True)
            return self._finish(db, t, session, row_table, who, note)

    def reopen_table(
        self, tournament: str, session: int, table: int, *, who: str, note: str | None = None
    ) -> None:
        """Withdraw a table's end mark (``finish_table``): hands may be entered again. Audited."""
        if not who.strip():
            raise StoreError("reopening a table needs the name of who does it")
        with self._write(f"{tournament!r}: reopen table") as db:
            t = self._tournament(db, tournament)
            row_table = self._table(db, t, session, table, lock=True)
            end = self._ends(db, t, row_table.id).get(row_table.id)
            if end is None:
                raise StoreError(f"{self._where(t, session, table)} is not marked ended")
            old = {ENDED: {"hands": end.hands}}
            _audit(db, t, who, "table", row_table.id, old, {ENDED: None}, note)

    def _finish(
        self,
        db: OrmSession,
        t: Tournament,
        session: int,
        row_table: GameTable,
        who: str | None,
        note: str | None,
    ) -> int:
        where = self._where(t, session, row_table.number)
        if db.scalar(select(SessionResult.id).where(SessionResult.table_id == row_table.id)):
            raise StoreError(f"{where}: the session totals are entered: the table is complete")
        hands = sorted(
            db.scalars(select(HandRecord.number).where(HandRecord.table_id == row_table.id))
        )
        if not hands:
            raise StoreError(f"{where}: no hands are entered; enter the hands played first")
        if len(hands) == HANDS:
            raise StoreError(f"{where}: all {HANDS} hands are entered: the table is complete")
        gaps = [h + 1 for h in range(hands[-1]) if h not in hands]
        if gaps:
            raise StoreError(
                f"{where}: hand(s) {', '.join(map(str, gaps))} are not entered: a session that "
                f"ends early has played hands 1-{hands[-1] + 1}"
            )
        end = self._ends(db, t, row_table.id).get(row_table.id)
        if end is not None:
            raise StoreError(f"{where} is already marked ended after hand {end.hands}")
        _audit(db, t, who, "table", row_table.id, {}, {ENDED: {"hands": len(hands)}}, note)
        return len(hands)

    @staticmethod
    def _ends(db: OrmSession, t: Tournament, table_id: int | None = None) -> dict[int, TableEnd]:
        """The tables marked ended early (or only ``table_id``), by table id: each table's
        latest end mark in the audit trail (``finish_table``), unless a later one reopened it."""
        out: dict[int, TableEnd] = {}
        query = select(AuditEntry).where(
            AuditEntry.tournament_id == t.id, AuditEntry.entity == "table"
        )
        if table_id is not None:
            query = query.where(AuditEntry.entity_id == table_id)
        rows = db.scalars(query.order_by(AuditEntry.id))
        for row in rows:
            if ENDED not in row.new:
                continue
            mark = row.new[ENDED]
            if not isinstance(mark, dict):
                out.pop(row.entity_id, None)
                continue
            at = row.at if row.at.tzinfo else row.at.replace(tzinfo=UTC)
            out[row.entity_id] = TableEnd(int(mark["hands"]), row.who, at.astimezone(UTC), row.note)
        return out

    def _states(self, db: OrmSession, t: Tournament) -> dict[int, TableStatus]:
        """Every seated table's status, by table id."""
        tables = db.execute(
            select(GameTable, TournamentSession.number)
            .join(TournamentSession)
            .where(TournamentSession.tournament_id == t.id)
        ).all()
        ids = [table.id for table, _ in tables]
        hands: dict[int, list[int]] = {}
        for table_id, number in db.execute(
            select(HandRecord.table_id, HandRecord.number).where(HandRecord.table_id.in_(ids))
        ):
            hands.setdefault(table_id, []).append(number)
        totals = set(
            db.scalars(select(SessionResult.table_id).where(SessionResult.table_id.in_(ids)))
        )
        ends = self._ends(db, t)
        return {
            table.id: TableStatus(
                session,
                table.number,
                tuple(s.player.name for s in sorted(table.seats, key=lambda s: s.seat)),
                tuple(sorted(hands.get(table.id, ()))),
                table.id in totals,
                ends.get(table.id),
            )
            for table, session in tables
        }

    def table_status(self, tournament: str, session: int | None = None) -> list[TableStatus]:
        """What is entered at each table of the seated sessions (or of ``session``), by session
        and table: missing, partial or complete (``TableStatus.state``)."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            out = sorted(self._states(db, t).values(), key=lambda x: (x.session, x.table))
            if session is not None:
                out = [x for x in out if x.session == session]
                if not out:
                    raise StoreError(f"{tournament!r}: session {session} is not seated")
            return out

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
            where = f"{self._where(t, session, table)} hand {hand + 1}"
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
        kind: str = LATE,
        note: str | None = None,
        who: str | None = None,
        correct: bool = False,
    ) -> None:
        """A session-level deduction from ``player`` (lateness, 第十三条二(一)): it leaves the
        table. Before the session totals are entered (they must then sum to 4 × 500 less it) or
        with hands entered one by one. Lateness counts once a session: a second ``late`` for the
        same player is refused whatever its points; ``correct`` (with ``who``) replaces the one
        recorded instead. Every deduction and correction is audited under ``who``."""
        if points <= 0:
            raise StoreError(f"a deduction of {points} from {player!r} is not positive")
        if correct and not (who and who.strip()):
            raise StoreError("a correction needs the name of who makes it")
        with self._write(f"{tournament!r}: deduct") as db:
            t = self._tournament(db, tournament)
            where = self._where(t, session, table)
            row_table = self._table(db, t, session, table, lock=True)
            seated = {s.player.name: s.player for s in row_table.seats}
            if player not in seated:
                raise StoreError(f"{where}: {player!r} is not seated")
            earlier = next(
                (
                    p
                    for p in self._loose(db, row_table.id)
                    if p.player_id == seated[player].id and p.kind == kind
                ),
                None,
            )
            if kind == LATE and earlier is not None and not correct:
                when = f", {earlier.note}" if earlier.note else ""
                raise StoreError(
                    f"{where}: {player!r} is already recorded late ({earlier.amount} points"
                    f"{when}); lateness counts once a session (第十三条二(一)): correct it "
                    "instead"
                )
            if correct and earlier is None:
                raise StoreError(f"{where}: {player!r} has no {kind} deduction to correct")
            if db.scalar(select(SessionResult.id).where(SessionResult.table_id == row_table.id)):
                raise StoreError(
                    f"{where}: totals already entered (correct them, with their deductions)"
                )
            new = {"deduction": {"player": player, "kind": kind, "points": points, "note": note}}
            old: dict[str, Any] = {}
            if correct:
                assert earlier is not None
                old = {
                    "deduction": {
                        "player": player,
                        "kind": kind,
                        "points": earlier.amount,
                        "note": earlier.note,
                    }
                }
                earlier.amount, earlier.note = points, note
            else:
                db.add(
                    PenaltyRecord(
                        table_id=row_table.id,
                        player_id=seated[player].id,
                        kind=kind,
                        amount=points,
                        note=note,
                    )
                )
            _audit(db, t, who, "table", row_table.id, old, new, None)

    @staticmethod
    def _loose(db: OrmSession, table_id: int) -> list[PenaltyRecord]:
        """A table's session-level deductions (lateness, those entered with the totals)."""
        return list(
            db.scalars(
                select(PenaltyRecord)
                .where(PenaltyRecord.table_id == table_id, PenaltyRecord.hand_id.is_(None))
                .order_by(PenaltyRecord.id)
            )
        )

    @staticmethod
    def _by_player(penalties: Iterable[PenaltyRecord]) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in penalties:
            out[p.player.name] = out.get(p.player.name, 0) + p.amount
        return out

    @staticmethod
    def _check_seated(where: str, seated: Mapping[str, Player], scores: Mapping[str, int]) -> None:
        unknown = sorted(set(scores) - set(seated))
        missing = sorted(set(seated) - set(scores))
        if unknown:
            raise StoreError(f"{where}: scores given for {unknown}, who are not seated here")
        if missing:
            raise StoreError(f"{where}: no score for {missing}")
        for name, score in scores.items():
            if abs(score) > MAX_SCORE:  # beyond any session: a typo (the database's int too)
                raise StoreError(
                    f"{where}: {name}'s 局分 {score} is beyond ±{MAX_SCORE}: check it for a typo"
                )

    @staticmethod
    def _check_deductions(
        where: str,
        seated: Mapping[str, Player],
        deductions: Mapping[str, int] | None,
        *,
        zero: bool = False,
    ) -> dict[str, int]:
        """The deductions by player, checked (``zero``: a 0 is allowed, meaning none)."""
        taken: dict[str, int] = {}
        for name, points in (deductions or {}).items():
            if name not in seated:
                raise StoreError(f"{where}: a deduction for {name!r}, who is not seated here")
            if points < 0 or (points == 0 and not zero) or points > MAX_SCORE:
                raise StoreError(f"{where}: a deduction of {points} from {name!r}")
            if points:
                taken[name] = points
        return taken

    @staticmethod
    def _check_sum(
        where: str, t: Tournament, scores: Mapping[str, int], deducted: Mapping[str, int]
    ) -> None:
        """The 局分 entered are each player's after their deductions (the sheet's 局分 row): they
        sum to 4 × the starting points less every session-level deduction of the table."""
        out = sum(deducted.values())
        full = 4 * t.starting_points
        total = sum(scores.values())
        if total != full - out:
            message = (
                f"{where}: the scores sum to {total}, not {full - out} "
                f"(4 × {t.starting_points} less {out} deducted)"
            )
            if out and total == full:
                listed = ", ".join(f"{name} {points}" for name, points in sorted(deducted.items()))
                message += f"; enter each 局分 after its deduction ({listed})"
            raise StoreError(message)

    def record_session_totals(
        self,
        tournament: str,
        session: int,
        table: int,
        scores: Mapping[str, int],
        *,
        deductions: Mapping[str, int] | None = None,
        note: str | None = None,
        who: str | None = None,
    ) -> None:
        """Enter a table's 局分 from a paper sheet: the four seated players' scores, each after its
        deductions, which must sum to 4 × the starting points less the deductions (lateness
        entered before with ``deduct``, and ``deductions``: points taken out of the table, fines
        to nobody, recorded with them). A table entered twice, or one already entered hand by
        hand, is refused (use ``correct_session_totals``). Audited under ``who``."""
        with self._write(f"{tournament!r}: record session totals") as db:
            t = self._tournament(db, tournament)
            where = self._where(t, session, table)
            row_table = self._table(db, t, session, table, lock=True)
            seated = {s.player.name: s.player for s in row_table.seats}
            if db.scalar(select(SessionResult.id).where(SessionResult.table_id == row_table.id)):
                raise StoreError(f"{where}: the session totals are already entered")
            self._check_seated(where, seated, scores)
            taken = self._check_deductions(where, seated, deductions)
            deducted = self._by_player(self._loose(db, row_table.id))
            for name, points in taken.items():
                deducted[name] = deducted.get(name, 0) + points
            self._check_sum(where, t, scores, deducted)
            if db.scalar(select(HandRecord.id).where(HandRecord.table_id == row_table.id)):
                raise StoreError(f"{where}: hands are already recorded for this table")
            for name, points in taken.items():
                db.add(
                    PenaltyRecord(
                        table_id=row_table.id,
                        player_id=seated[name].id,
                        kind=DEDUCTION,
                        amount=points,
                        note=note,
                    )
                )
            for name, score in scores.items():
                db.add(SessionResult(table_id=row_table.id, player=seated[name], score=score))
            new = {"scores": dict(scores), "deductions": deducted}
            _audit(db, t, who, "table", row_table.id, {}, new, note)

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
        """Replace a table's entered totals, leaving an ``AuditEntry``. The scores are read as at
        the first entry: each player's 局分 after their deductions. ``deductions=None`` keeps the
        table's deductions (lateness included) as they are; a mapping gives each player's whole
        session-level deduction (0 or absent: none): a player's total that changes replaces the
        deductions entered with the totals, and lateness too only if lowered below it."""
        if not who.strip():
            raise StoreError("a correction needs the name of who makes it")
        with self._write(f"{tournament!r}: correct session totals") as db:
            t = self._tournament(db, tournament)
            where = self._where(t, session, table)
            row_table = self._table(db, t, session, table, lock=True)
            seated = {s.player.name: s.player for s in row_table.seats}
            results = db.scalars(
                select(SessionResult).where(SessionResult.table_id == row_table.id)
            ).all()
            if not results:
                raise StoreError(f"{where}: no session totals entered: nothing to correct")
            self._check_seated(where, seated, scores)
            loose = self._loose(db, row_table.id)
            before = self._by_player(loose)
            after = (
                before
                if deductions is None
                else self._check_deductions(where, seated, deductions, zero=True)
            )
            self._check_sum(where, t, scores, after)
            for name, player in seated.items():
                want = after.get(name, 0)
                mine = [p for p in loose if p.player_id == player.id]
                if sum(p.amount for p in mine) == want:
                    continue
                drop = [p for p in mine if p.kind == DEDUCTION]
                kept = sum(p.amount for p in mine if p.kind != DEDUCTION)
                if want < kept:  # lowered below the lateness: one deduction replaces all
                    drop, kept = mine, 0
                for penalty in drop:
                    db.delete(penalty)
                if want > kept:
                    db.add(
                        PenaltyRecord(
                            table_id=row_table.id,
                            player_id=player.id,
                            kind=DEDUCTION,
                            amount=want - kept,
                            note=note,
                        )
                    )
            old = {"scores": {r.player.name: r.score for r in results}, "deductions": before}
            for result in results:
                result.score = scores[result.player.name]
            new = {"scores": dict(scores), "deductions": dict(after)}
            _audit(db, t, who, "table", row_table.id, old, new, note)

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
        """The corrections and substitutions (the entries with an old value), oldest first;
        ``audit_trail`` has every entry, first entries included, located."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            rows = db.scalars(
                select(AuditEntry).where(AuditEntry.tournament_id == t.id).order_by(AuditEntry.id)
            )
            return [row for row in rows if row.old]

    def audit_trail(self, tournament: str) -> list[AuditLine]:
        """Every entry and correction, oldest first, with its session, table and hand."""
        with self._read() as db:
            t = self._tournament(db, tournament)
            out = []
            rows = db.scalars(
                select(AuditEntry).where(AuditEntry.tournament_id == t.id).order_by(AuditEntry.id)
            )
            for row in rows:
                table: GameTable | None = None
                hand = None
                if row.entity == "hand_record":
                    record = db.get(HandRecord, row.entity_id)
                    if record is not None:
                        table, hand = record.table, record.number
                elif row.entity == "table":
                    table = db.get(GameTable, row.entity_id)
                elif row.entity == "seat_assignment":
                    seat = db.get(SeatAssignment, row.entity_id)
                    table = seat.table if seat is not None else None
                session = table.session.number if table is not None else row.old.get("session")
                number = table.number if table is not None else row.old.get("table")
                at = row.at if row.at.tzinfo else row.at.replace(tzinfo=UTC)  # SQLite drops it
                out.append(
                    AuditLine(
                        at.astimezone(UTC),
                        row.who,
                        row.entity,
                        session if isinstance(session, int) else None,
                        number if isinstance(number, int) else None,
                        hand,
                        dict(row.old),
                        dict(row.new),
                        row.note,
                    )
                )
            return out

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
        ``g`` players, tables 1..g/4 of a session form group "1", the next g/4 group "2", ...
        A table with hands of part of the session only (``TableStatus.state`` "partial") is
        given as it stands, ``partial``. A player who left the tournament (``withdraw``) has
        ``withdrawn`` on every entry, ``voided`` on the sessions they played when the tournament
        voids them, and an absent entry (table 0) in each session from the one they left."""
        with self._read() as db:
            return self._table_results(db, self._tournament(db, tournament))

    def _table_results(self, db: OrmSession, t: Tournament) -> list[TableResult]:
        out: list[TableResult] = []
        left = {
            w.player.name: w
            for w in db.scalars(select(Withdrawal).where(Withdrawal.tournament_id == t.id))
        }
        void = t.withdrawn_results == "void"
        readings = _readings(t)
        held: set[int] = set()
        states = self._states(db, t)
        sessions = db.scalars(
            select(TournamentSession)
            .where(TournamentSession.tournament_id == t.id)
            .order_by(TournamentSession.number)
        )
        for session in sessions:
            held.add(session.number)
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
                        team_substitute=s.player.substitute
                        and s.player.team_id is not None
                        and s.player.name not in out_of_play,
                    )
                    for s in table.seats
                ]
                for s in table.seats:  # 第十三条二(一) 自动弃权: 局分 0, in the group
                    gone = absences.get(s.replaces.name) if s.replaces else None
                    if gone is not None and gone.kind == "forfeit":
                        entries.append(Entry(gone.player.name, 0, forfeit=True))
                partial = states[table.id].state == "partial"
                entries = [_left(e, left, void) for e in entries]
                out.append(
                    TableResult(
                        session.number,
                        table.number,
                        tuple(entries),
                        group,
                        partial=partial,
                        readings=readings,
                    )
                )
            away = [
                _left(Entry(name, absent=True, bye=a.kind == "bye"), left, void)
                for name, a in sorted(absences.items())
                if a.kind != "forfeit"
            ]
            here = {e.player for r in out if r.session == session.number for e in r.entries}
            here |= {e.player for e in away}
            away += _gone(left, session.number, here)
            if away:  # byes, the replaced, the withdrawn: in their histories only (table 0)
                out.append(TableResult(session.number, 0, tuple(away), readings=readings))
        for number in range(1, t.sessions_planned + 1):  # sessions not seated yet
            if number not in held and (missing := _gone(left, number, set())):
                out.append(TableResult(number, 0, tuple(missing)))
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


def utc(at: datetime) -> datetime:
    """A stored time in UTC (SQLite drops the zone)."""
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC)


def _left(entry: Entry, left: Mapping[str, Withdrawal], void: bool) -> Entry:
    """``entry`` of a player who left the tournament, marked so (``Entry.withdrawn``); a session
    they played is ``voided`` when the tournament voids them (docs/rules.md §19)."""
    gone = left.get(entry.player)
    if gone is None:
        return entry
    return replace(entry, withdrawn=gone.reason, voided=void and entry.ranked_if_kept)


def _readings(t: Tournament) -> Readings:
    """The tournament's readings (``Readings``) as stored."""
    return Readings(t.substitute_table, t.forfeit_points, t.team_substitute, t.bye_points)


def _gone(left: Mapping[str, Withdrawal], session: int, here: set[str]) -> list[Entry]:
    """Absent entries for the players who left before ``session`` and have no entry in it."""
    return [
        Entry(name, absent=True, withdrawn=w.reason)
        for name, w in sorted(left.items())
        if w.from_session <= session and name not in here
    ]


def _audit(
    db: OrmSession,
    t: Tournament,
    who: str | None,
    entity: str,
    entity_id: int,
    old: dict[str, Any],
    new: dict[str, Any],
    note: str | None,
) -> None:
    """Keep an entry or a correction in the audit trail: who (empty when not given), when (now,
    UTC), the old (empty for a first entry) and new values."""
    db.add(
        AuditEntry(
            tournament_id=t.id,
            who=(who or "").strip(),
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
