"""The tournament pages of ``guobiao serve --db URL``: read-only standings, seating and score
sheets for everyone, live; a projector view with the session clock; referee score entry.

``tournament_router(store, rooms, signer, ...)`` builds the routes (``create_app`` mounts them).
Reading is public. Entering or correcting a table's totals, and the clock, need a login session
of an account of *that* tournament (``guobiao.tournament.accounts``) and the session's CSRF token in
the ``X-CSRF-Token`` header of the JSON POST. Every store call runs in the thread pool (FastAPI
runs plain ``def`` handlers there), never on the event loop the game rooms share.

Live updates: ``GET /api/t/{name}/changes?since=V&wait=S`` answers as soon as the tournament data
version passes ``V`` (or after ``S`` seconds, at most 30): a long poll. The version moves when a
referee saves on this server, when the clock changes, and when a cheap fingerprint of the
database (row counts and highest ids of results, hands, penalties, seats, audit entries) changes,
so results entered with ``guobiao tournament`` from another process show up too (checked at most
every ``check_interval`` seconds).

Bounds (docs/web.md, Limits and security): failed logins are throttled per client address and per
user name (:class:`~guobiao.server.guards.FailureThrottle`, a bounded number of keys), checked
before any work; the password hash runs in the thread pool, at most ``HASHING`` at a time.
Logging out revokes the session (its id, the cookie's nonce, kept in the rooms database until it
would have expired). Only real tournaments get a clock or a cache entry; numbers are
range-checked (422).
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session as OrmSession

from guobiao.server.guards import SECURITY_HEADERS, FailureThrottle, TrustedProxies
from guobiao.server.protocol import not_found_page
from guobiao.server.store import RoomStore
from guobiao.tournament.accounts import Account, Login, SessionSigner, authenticate, find_account
from guobiao.tournament.models import (
    AuditEntry,
    GameTable,
    HandRecord,
    PenaltyRecord,
    SeatAssignment,
    SessionAbsence,
    SessionResult,
    Tournament,
    TournamentSession,
)
from guobiao.tournament.ranking import (
    format_points,
    individual_ranking,
    player_histories,
    team_ranking,
    unplaced,
)
from guobiao.tournament.store import Store, StoreError

__all__ = ["COOKIE", "SessionClock", "Watcher", "tournament_router"]

STATIC = Path(__file__).resolve().parent / "static"
COOKIE = "guobiao_referee"
WINDS = ("E", "S", "W", "N")
WARNING_SECONDS = 15 * 60
"""The clock warns when 15 minutes remain (第六条四: the session ends at the set time)."""
DEFAULT_SESSION_MINUTES = 180
"""A session's time limit by default (RULES.md: 4 rounds or the time limit, 3 hours)."""
_log = logging.getLogger("guobiao.server")

HASHING = 2
"""Password hashes (scrypt, 16 MiB each) computed at once; further logins wait their turn."""
CACHED = 256
"""Public reads kept (per tournament and kind), the least recently used dropped first."""
NUMBER = 100_000
"""The largest session or table number (and score) the API takes: more is refused (422)."""

Number = Annotated[int, Field(ge=1, le=NUMBER)]
PathNumber = Annotated[int, PathParam(ge=1, le=NUMBER)]


POLLS_PER_ADDRESS = 64
"""Long polls one client address may hold open (a venue's phones may share one address)."""
MAX_POLLS = 2000
"""Long polls open in all."""


class Watcher:
    """The tournament data version: bumped on every change this server makes and whenever the
    database fingerprint changes (another process wrote)."""

    def __init__(self, store: Store, check_interval: float = 1.0) -> None:
        self.store = store
        self.check_interval = check_interval
        # from the wall clock in milliseconds, not 1: a page that was open across a restart
        # waits for a version above the one it last saw, and a new count from 1 stayed below it
        # (the page showed nothing new until as many changes had been made again)
        self.version = time.time_ns() // 1_000_000
        self._fingerprint: tuple[Any, ...] | None = None
        self._checked_at = -1e9
        self._lock = threading.Lock()

    def bump(self) -> int:
        with self._lock:
            self.version += 1
            self._checked_at = -1e9  # look again: our write is in the fingerprint now
            return self.version

    def _read_fingerprint(self) -> tuple[Any, ...]:
        out: list[Any] = []
        with OrmSession(self.store.engine) as db:
            for model in (
                SessionResult,
                HandRecord,
                PenaltyRecord,
                SeatAssignment,
                SessionAbsence,
                AuditEntry,
                Tournament,
            ):
                out.extend(db.execute(select(func.count(), func.max(model.id))).one())
            out.append(db.scalar(select(func.sum(SessionResult.score))))
        return tuple(out)

    def peek(self) -> int | None:
        """The version when the last look at the database is fresh, else None (then
        :meth:`check`): no thread, no lock, for the long polls' every wake-up."""
        if time.monotonic() - self._checked_at < self.check_interval:
            return self.version
        return None

    def check(self) -> int:
        """The version, after a fresh look at the database if the last is ``check_interval``
        old (blocking: call it from the thread pool)."""
        with self._lock:
            now = time.monotonic()
            if now - self._checked_at >= self.check_interval:
                self._checked_at = now
                fingerprint = self._read_fingerprint()
                if self._fingerprint is not None and fingerprint != self._fingerprint:
                    self.version += 1
                self._fingerprint = fingerprint
            return self.version


@dataclass
class SessionClock:
    """The projector's session clock: ``duration`` seconds, counting down while running; the
    organiser starts, pauses and resets it. Times are wall-clock seconds (it survives a restart:
    kept in the server's own database)."""

    session: int | None = None
    duration: float = DEFAULT_SESSION_MINUTES * 60.0
    elapsed: float = 0.0  # run time before ``started_at``
    started_at: float | None = None  # None: paused / not started

    def remaining(self, now: float) -> float:
        run = self.elapsed + (now - self.started_at if self.started_at is not None else 0.0)
        return max(0.0, self.duration - run)

    def json(self, now: float) -> dict[str, Any]:
        remaining = self.remaining(now)
        return {
            "session": self.session,
            "duration": self.duration,
            "remaining": remaining,
            "running": self.started_at is not None and remaining > 0,
            "warning": WARNING_SECONDS,
            "warn": remaining <= WARNING_SECONDS,
            "over": remaining <= 0,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "session": self.session,
            "duration": self.duration,
            "elapsed": self.elapsed,
            "started_at": self.started_at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SessionClock:
        return cls(
            data.get("session"),
            float(data.get("duration", DEFAULT_SESSION_MINUTES * 60.0)),
            float(data.get("elapsed", 0.0)),
            data.get("started_at"),
        )


class Credentials(BaseModel):
    username: str = Field(max_length=100)
    password: str = Field(max_length=200)


class Totals(BaseModel):
    session: Number
    table: Number
    # any JSON value here: checked by ``_whole`` into a refusal naming the seat ("1O0",
    # "12a", 12.5, true and "620" as text are no score); pydantic would quietly take "620"
    scores: dict[str, Any] = Field(max_length=4)
    deductions: dict[str, Any] = Field(default={}, max_length=4)
    note: str | None = Field(default=None, max_length=500)
    correct: bool = False
    # the table's ``revision`` as the page showed it (the seating's): when given, a table
    # entered or corrected since by someone else is refused (409 ``changed``), not overwritten
    seen: str | None = Field(default=None, max_length=64)


class ClockCommand(BaseModel):
    action: str = Field(max_length=20)  # start | pause | reset
    session: Number | None = None
    minutes: float | None = Field(default=None, gt=0, le=24 * 60, allow_inf_nan=False)


def _refused(
    status: int, code: str, message: str, params: dict[str, Any] | None = None
) -> HTTPException:
    """A refusal: ``code`` (docs/web.md), ``message`` in English, ``params`` its names and
    numbers for a client that translates the code."""
    return HTTPException(status, {"code": code, "message": message, "params": params or {}})


def _whole(value: Any, field: str, seat: str) -> int:
    """A score (``field`` "scores", -NUMBER..NUMBER) or a deduction ("deductions", 0..NUMBER) of
    ``seat`` as a JSON whole number, else a 422 ``bad_request`` naming the seat and the field in
    its params (the value is not echoed), for the page to mark that field."""
    low = -NUMBER if field == "scores" else 0
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= NUMBER:
        return value
    what = "score" if field == "scores" else "deduction"
    raise _refused(
        422,
        "bad_request",
        f"the {what} of seat {seat} is not a whole number from {low} to {NUMBER}: "
        "check it for a typo",
        {"field": field, "seat": seat, "min": low, "max": NUMBER},
    )


def table_revision(table: dict[str, Any]) -> str:
    """A short fingerprint of what a table holds (the seating's entry of it: who sits where,
    the 局分, how they were entered, the deductions, the hands so far): it changes whenever an
    entry or a correction changes anything the referee page shows."""
    held = [
        table["state"],
        table["hands"],
        table["source"],
        sorted(table["deductions"].items()),
        [(s["wind"], s["name"], s["score"]) for s in table["seats"]],
    ]
    return hashlib.sha256(json.dumps(held, ensure_ascii=False).encode()).hexdigest()[:16]


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers=SECURITY_HEADERS)


def _no_tournament() -> HTMLResponse:
    """The 404 page of an unknown tournament, linking back to the list."""
    page = not_found_page("这个比赛", "This tournament", "/t/", "所有比赛", "All tournaments")
    return HTMLResponse(page, 404, headers=SECURITY_HEADERS)


def _live_report(body: str, tournament: str) -> HTMLResponse:
    """A report page that reloads itself when the tournament data changes."""
    script = (
        f'<script src="/static/live.js" data-tournament="{html.escape(tournament, quote=True)}">'
        "</script>\n"
    )
    return HTMLResponse(body.replace("</body>", script + "</body>", 1), headers=SECURITY_HEADERS)


class _Reader:
    """Public reads, cached per tournament and data version."""

    def __init__(self, store: Store, watcher: Watcher) -> None:
        self.store = store
        self.watcher = watcher
        self._cache: OrderedDict[tuple[str, str], tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def cached(self, key: tuple[str, str], make: Callable[[], Any]) -> Any:
        """``make()``, computed once per data version (a refusal is not kept); at most
        ``CACHED`` entries."""
        version = self.watcher.check()
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and hit[0] == version:
                self._cache.move_to_end(key)
                return hit[1]
        value = make()
        with self._lock:
            self._cache[key] = (version, value)
            self._cache.move_to_end(key)
            while len(self._cache) > CACHED:
                self._cache.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._cache)

    def exists(self, name: str) -> bool:
        """Whether a tournament of this name exists (the cached list)."""
        names: list[dict[str, Any]] = self.cached(("", "list"), self.tournaments)
        return any(t["name"] == name for t in names)

    def tournaments(self) -> list[dict[str, Any]]:
        with OrmSession(self.store.engine) as db:
            rows = db.scalars(select(Tournament).order_by(Tournament.created_at.desc()))
            return [{"name": t.name, "sessions": t.sessions_planned} for t in rows]

    def summary(self, name: str) -> dict[str, Any]:
        with OrmSession(self.store.engine) as db:
            t = db.scalar(select(Tournament).where(Tournament.name == name))
            if t is None:
                raise StoreError(f"no tournament {name!r}")
            head = {
                "name": t.name,
                "sessions": t.sessions_planned,
                "starting_points": t.starting_points,
            }
            has_teams = bool(t.teams)
        # a session is complete when every table is (its totals, all 16 hands, or the hands up
        # to a marked end, ``TableStatus.state``): a table with hands of part of the session is
        # still in play, and the current session (the projector's, the referee's) stays on it
        states = self.store.table_status(name)
        seated = sorted({x.session for x in states})
        done = {n: all(x.state == "complete" for x in states if x.session == n) for n in seated}
        current = next((n for n in seated if not done[n]), seated[-1] if seated else None)
        return {
            **head,
            "seated": seated,
            "complete": [n for n in seated if done[n]],
            "current": current,
            "teams": has_teams,
        }

    def standings(self, name: str) -> dict[str, Any]:
        from guobiao.tournament.queries import read_info

        info = read_info(self.store, name)
        results = self.store.table_results(name)
        team_of = {p: v[1] for p, v in info.players.items()}
        number_of = {p: v[0] for p, v in info.players.items()}
        histories = player_histories(results)
        # who left the tournament and from which session, as recorded (``Store.withdraw``): the
        # page marks 退赛 from that session on, not from the scores it lacks (a bye or an
        # absence before the withdrawal is no withdrawal)
        left = {w.player: w for w in self.store.withdrawals(name)}

        def by_session(player: str) -> dict[str, dict[str, Any]]:
            """The player's sessions in session order (``sessions`` is the ranking's list,
            highest first, 第十一条三): 局分, standard points, a forfeit (弃权, 第十三条二(一)),
            a bye (轮空, 第十二条一)."""
            history = histories.get(player)
            return {
                str(line.session): {
                    "score": line.score,
                    "standard": (
                        None
                        if line.standard_points is None
                        else format_points(line.standard_points)
                    ),
                    "forfeit": line.forfeit,
                    "bye": line.bye,  # 轮空 (第十二条一): sat out by the draw
                }
                for line in (history.lines if history else ())
            }

        individual = [
            {
                "rank": s.label,
                "name": s.name,
                "number": number_of.get(s.name),
                "team": team_of.get(s.name),
                "standard": format_points(s.standard_points),
                "match": s.match_points,
                "best": format_points(s.best_session),
                "sessions": [format_points(p) for p in s.session_points],
                "by_session": by_session(s.name),
                "partial": bool(s.partial),  # counts a table entered only in part
                "status": "ranked",
                "left_from": None,
            }
            for s in individual_ranking(results)
        ]
        # every registered player is listed: after the ranked ones, with no place, those who
        # left the tournament, then those with no ranked session, each with why (``status``)
        after = unplaced(results, info.players)
        for player, why, found in after:
            gone = left.get(player)
            # a withdrawn player who never played (left before any table): blank, not 0 points
            standing = found if found is not None and not found.never_played else None
            individual.append(
                {
                    "rank": "—",
                    "name": player,
                    "number": number_of.get(player),
                    "team": team_of.get(player),
                    "standard": "" if standing is None else format_points(standing.standard_points),
                    "match": "" if standing is None else standing.match_points,
                    "best": "",
                    "sessions": (
                        []
                        if standing is None
                        else [format_points(p) for p in standing.session_points]
                    ),
                    "by_session": by_session(player),
                    "partial": False,
                    "status": gone.reason if gone else why,
                    "left_from": gone.from_session if gone else None,
                }
            )
        members: dict[str, list[str]] = {}
        for player, (_, team, _) in info.players.items():
            if team is not None:
                members.setdefault(team, []).append(player)
        teams = [
            {
                "rank": s.label,
                "name": s.name,
                "members": list(s.members),
                "standard": format_points(s.standard_points),
                "match": s.match_points,
                "partial": bool(s.partial),
            }
            for s in (team_ranking(results, members) if members else [])
        ]
        partial = [
            {"session": x.session, "table": x.table, "hands": len(x.hands), "of": 16}
            for x in self.store.table_status(name)
            if x.state == "partial"
        ]
        return {
            "tournament": name,
            "individual": individual,
            "teams": teams,
            "partial_tables": partial,
        }

    def seating(self, name: str, session: int) -> dict[str, Any]:
        from guobiao.tournament.reports import session_byes, session_seating

        tables = []
        seated = session_seating(self.store, name, session)
        status = {x.table: x for x in self.store.table_status(name, session)}
        for table in seated:
            number = table.table
            names = [seat.name for seat in table.seats]
            scores = self.store.table_scores(name, session, number)
            source, loose = self._entry(name, session, number)
            tables.append(
                {
                    "table": number,
                    "entered": scores is not None,
                    # missing, partial (hands of part of the session) or complete
                    "state": status[number].state,
                    "hands": len(status[number].hands),
                    "source": source if scores is not None else None,
                    "deductions": {
                        WINDS[i]: loose.get(player, 0) for i, player in enumerate(names)
                    },
                    "seats": [
                        {
                            "wind": WINDS[seat.seat],
                            "name": seat.name,
                            "number": seat.number,
                            "team": seat.team,
                            "score": None if scores is None else scores.get(seat.name),
                            # 陪打: plays the seat, no place, no standard points (第十二条三(二))
                            "substitute": seat.substitute,
                            "stand_in": seat.stand_in,
                            "plays_for": seat.plays_for,
                            # the player played for forfeited (弃权, 第十三条二(一)): recorded
                            # with the substitution, so known before the table's scores
                            "forfeit": seat.forfeit,
                        }
                        for seat in table.seats
                    ],
                }
            )
        for entry in tables:  # what the referee saw, sent back with a save (409 if it moved)
            entry["revision"] = table_revision(entry)
        byes = [
            {"name": b.name, "number": b.number, "team": b.team}
            for b in session_byes(self.store, name, session)
        ]  # 轮空 (第十二条一): at no table
        return {"tournament": name, "session": session, "tables": tables, "byes": byes}

    def _entry(self, name: str, session: int, table: int) -> tuple[str, dict[str, int]]:
        """How a table was entered ("totals" or "hands") and its session-level deductions by
        player."""
        return entry_of(self.store, name, session, table)


def entry_of(store: Store, name: str, session: int, table: int) -> tuple[str, dict[str, int]]:
    with OrmSession(store.engine) as db:
        table_id = db.scalar(
            select(GameTable.id)
            .join(TournamentSession)
            .join(Tournament)
            .where(
                Tournament.name == name,
                TournamentSession.number == session,
                GameTable.number == table,
            )
        )
        if table_id is None:
            raise StoreError(f"{name!r}: session {session} has no table {table}")
        totals = db.scalar(select(SessionResult.id).where(SessionResult.table_id == table_id))
        loose: dict[str, int] = {}
        for penalty in db.scalars(
            select(PenaltyRecord).where(
                PenaltyRecord.table_id == table_id, PenaltyRecord.hand_id.is_(None)
            )
        ):
            loose[penalty.player.name] = loose.get(penalty.player.name, 0) + penalty.amount
        return ("totals" if totals is not None else "hands"), loose


def tournament_router(
    store: Store,
    rooms: RoomStore,
    signer: SessionSigner,
    *,
    wall: Callable[[], float] = time.time,
    session_seconds: float = 12 * 3600.0,
    check_interval: float = 1.0,
    max_failures: int = 10,
    name_failures: int = 30,
    failure_window: float = 600.0,
    tracked: int = 10_000,
    proxies: TrustedProxies | None = None,
) -> APIRouter:
    """The tournament routes over ``store``. ``rooms`` keeps the session clocks and revoked
    sessions; ``signer`` signs login cookies, which last ``session_seconds``; ``wall`` is the
    clock of expiries. Logins are refused for ``failure_window`` seconds after ``max_failures``
    failures from one client address, or ``name_failures`` for one user name (from any
    address); each throttle remembers at most ``tracked`` keys. ``proxies``: whose
    ``X-Forwarded-For`` names the client."""
    router = APIRouter()
    watcher = Watcher(store, check_interval)
    reader = _Reader(store, watcher)
    clocks: dict[str, SessionClock] = {}  # real tournaments only
    polls: dict[str, int] = {}  # open long polls by client address (none: no entry)
    clock_lock = threading.Lock()
    entry_lock = threading.Lock()  # a table's check against ``seen`` and its save, at once
    proxies = proxies or TrustedProxies()
    by_address = FailureThrottle(max_failures, failure_window, tracked)
    by_name = FailureThrottle(name_failures, failure_window, tracked)
    hashing = asyncio.Semaphore(HASHING)
    router.watcher = watcher  # type: ignore[attr-defined]
    router.polls = polls  # type: ignore[attr-defined]
    router.reader = reader  # type: ignore[attr-defined]
    router.clocks = clocks  # type: ignore[attr-defined]
    router.throttles = (by_address, by_name)  # type: ignore[attr-defined]

    def read(make: Callable[[], Any]) -> Any:
        try:
            return make()
        except StoreError as err:
            if str(err).startswith("no tournament"):
                raise _refused(404, "no_tournament", str(err)) from None
            raise _refused(400, "refused", str(err), {"detail": str(err)}) from None

    def clock_of(name: str) -> SessionClock:
        """The clock of tournament ``name`` (404 for no such tournament: nothing kept)."""
        clock = clocks.get(name)
        if clock is None:
            if not reader.exists(name):
                raise _refused(
                    404, "no_tournament", f"no tournament {name!r}", {"name": name[:100]}
                )
            saved = rooms.get_value(f"clock:{name}")
            clock = SessionClock.from_dict(json.loads(saved)) if saved else SessionClock()
            clocks[name] = clock
        return clock

    def referee_of(request: Request, name: str, *, csrf: bool) -> tuple[Account, Login]:
        """The logged-in account of tournament ``name``, or 401/403; with ``csrf`` the request's
        ``X-CSRF-Token`` must be this session's token."""
        cookie = request.cookies.get(COOKIE)
        login = signer.check(cookie, wall()) if cookie else None
        if login is None:
            raise _refused(401, "login", "log in as a referee of this tournament")
        if rooms.revoked(login.nonce):
            raise _refused(401, "login", "this session has ended (logged out): log in again")
        account = find_account(store, login.account_id)
        if (
            account is None
            or not account.active
            or account.fingerprint != login.fingerprint
            or account.tournament_id != login.tournament_id
        ):
            raise _refused(401, "login", "this session has ended: log in again")
        if account.tournament != name:
            raise _refused(
                403,
                "forbidden",
                f"{account.username} is no referee of {name!r}",
                {"user": account.username, "name": name[:100]},
            )
        if csrf and not signer.check_csrf(login, request.headers.get("x-csrf-token", "")):
            raise _refused(403, "csrf", "a missing or wrong CSRF token")
        return account, login

    def json_only(request: Request) -> None:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise _refused(415, "json", "send application/json")

    # -- pages ----------------------------------------------------------------------------------

    @router.get("/t", include_in_schema=False)
    @router.get("/t/", include_in_schema=False)
    def index_page() -> FileResponse:
        return _page("tournaments.html")

    def page_of(name: str, page: str) -> FileResponse | HTMLResponse:
        """A tournament's page, or the 404 page for no such tournament."""
        return _page(page) if reader.exists(name) else _no_tournament()

    @router.get("/t/{name}", include_in_schema=False, response_model=None)
    def tournament_page(name: str) -> FileResponse | HTMLResponse:
        return page_of(name, "tournament.html")

    @router.get("/t/{name}/projector", include_in_schema=False, response_model=None)
    def projector_page(name: str) -> FileResponse | HTMLResponse:
        return page_of(name, "projector.html")

    @router.get("/t/{name}/referee", include_in_schema=False, response_model=None)
    def referee_page(name: str) -> FileResponse | HTMLResponse:
        return page_of(name, "referee.html")

    @router.get("/t/{name}/sheet/{session}/{table}", include_in_schema=False)
    def sheet_page(name: str, session: PathNumber, table: PathNumber) -> HTMLResponse:
        from guobiao.tournament.reports import score_sheet_html

        if not reader.exists(name):
            return _no_tournament()
        try:
            body = score_sheet_html(store, name, session, table)
        except StoreError:  # no such session or table (an old link): a page, not JSON
            page = not_found_page(
                f"第{session}局第{table}桌的记分表",
                f"The score sheet of session {session} table {table}",
                f"/t/{quote(name, safe='')}",
                f"{name} 名次",
                "standings",
            )
            return HTMLResponse(page, 404, headers=SECURITY_HEADERS)
        return _live_report(body, name)

    @router.get("/t/{name}/results", include_in_schema=False)
    def results_page(name: str) -> HTMLResponse:
        from guobiao.tournament.reports import results_table_html

        if not reader.exists(name):
            return _no_tournament()
        return _live_report(read(lambda: results_table_html(store, name)), name)

    # -- public reads ---------------------------------------------------------------------------

    @router.get("/api/tournaments")
    def list_tournaments() -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = reader.cached(("", "list"), reader.tournaments)
        return result

    @router.get("/api/t/{name}")
    def summary(name: str) -> dict[str, Any]:
        data = read(lambda: reader.cached((name, "summary"), lambda: reader.summary(name)))
        return {**data, "version": watcher.version, "clock": clock_of(name).json(wall())}

    @router.get("/api/t/{name}/standings")
    def standings(name: str) -> dict[str, Any]:
        data = read(lambda: reader.cached((name, "standings"), lambda: reader.standings(name)))
        return {**data, "version": watcher.version}

    @router.get("/api/t/{name}/seating/{session}")
    def seating(name: str, session: PathNumber) -> dict[str, Any]:
        key = (name, f"seating:{session}")
        data = read(lambda: reader.cached(key, lambda: reader.seating(name, session)))
        return {**data, "version": watcher.version}

    @router.get("/api/t/{name}/clock")
    def get_clock(name: str) -> dict[str, Any]:
        return clock_of(name).json(wall())

    @router.get("/api/t/{name}/changes")
    async def changes(
        name: str,
        request: Request,
        since: Annotated[int, Query(ge=0, le=2**53)] = 0,
        wait: Annotated[float, Query(ge=0, le=60, allow_inf_nan=False)] = 25.0,
    ) -> dict[str, Any]:
        """Long poll: the version once it passes ``since``, or after ``wait`` seconds (at most
        30). Open polls are bounded per client address and in all (429: the pages retry)."""
        clock = await run_in_threadpool(clock_of, name)  # 404 at once for no such tournament
        address = proxies.key(
            request.client.host if request.client else None,
            ",".join(request.headers.getlist("x-forwarded-for")),
        )
        if polls.get(address, 0) >= POLLS_PER_ADDRESS or sum(polls.values()) >= MAX_POLLS:
            raise _refused(
                429,
                "slow_down",
                "too many live pages open from your address: close some",
                {"max": POLLS_PER_ADDRESS},
            )
        polls[address] = polls.get(address, 0) + 1
        try:
            deadline = time.monotonic() + min(wait, 30.0)
            while True:
                version = watcher.peek()
                if version is None:  # the last look is old: look at the database again
                    version = await run_in_threadpool(watcher.check)
                if version > since or time.monotonic() >= deadline:
                    return {"version": version, "clock": clock.json(wall())}
                await asyncio.sleep(min(0.25, max(0.0, deadline - time.monotonic())))
        finally:
            left = polls[address] - 1
            if left:
                polls[address] = left
            else:
                del polls[address]

    # -- referees -------------------------------------------------------------------------------

    @router.post("/api/t/{name}/login")
    async def login(
        name: str, body: Credentials, request: Request, response: Response
    ) -> dict[str, Any]:
        json_only(request)
        address = proxies.key(
            request.client.host if request.client else None,
            ",".join(request.headers.getlist("x-forwarded-for")),
        )
        user = json.dumps([name, body.username])
        now = wall()
        if by_address.blocked(address, now) or by_name.blocked(user, now):
            raise _refused(
                429, "slow_down", "too many failed logins: wait 10 minutes", {"minutes": 10}
            )
        # counted as failures before the work, so that attempts in flight count too
        by_address.fail(address, now)
        by_name.fail(user, now)
        async with hashing:  # scrypt takes 16 MiB and tens of ms: a few at a time, off the loop
            account = await run_in_threadpool(
                authenticate, store, name, body.username, body.password
            )
        if account is None:
            raise _refused(401, "bad_login", "wrong tournament, user name or password")
        by_address.undo(address)
        by_name.forget(user)
        cookie, session = signer.issue(account, now, session_seconds)
        response.set_cookie(
            COOKIE,
            cookie,
            max_age=int(session_seconds),
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )
        _log.info("%s logged in to %r", account.username, name)
        return {
            "username": account.username,
            "role": account.role,
            "csrf": signer.csrf_token(session),
            "expires": session.expires,
        }

    @router.get("/api/t/{name}/me")
    def me(name: str, request: Request) -> dict[str, Any]:
        account, session = referee_of(request, name, csrf=False)
        return {
            "username": account.username,
            "role": account.role,
            "csrf": signer.csrf_token(session),
            "expires": session.expires,
        }

    @router.post("/api/t/{name}/logout")
    def logout(name: str, request: Request, response: Response) -> dict[str, Any]:
        _, session = referee_of(request, name, csrf=True)
        rooms.revoke(session.nonce, session.expires, wall())  # the cookie, even copied, is dead
        response.delete_cookie(COOKIE, path="/")
        return {"ok": True}

    @router.post("/api/t/{name}/results")
    def enter_totals(name: str, body: Totals, request: Request) -> dict[str, Any]:
        json_only(request)
        account, _ = referee_of(request, name, csrf=True)
        if sorted(body.scores) != sorted(WINDS):
            raise _refused(400, "bad_scores", "give the four scores E S W N")
        if not set(body.deductions) <= set(WINDS):
            raise _refused(400, "bad_scores", "deductions are by seat E S W N")
        given = {w: _whole(body.scores[w], "scores", w) for w in WINDS}
        deducted = {
            w: _whole(body.deductions[w], "deductions", w) for w in WINDS if w in body.deductions
        }
        from guobiao.tournament.queries import read_seating

        def unchanged() -> None:
            """Refuse a save made from a view of the table that is no longer true: another
            referee entered or corrected it meanwhile (two phones at one table)."""
            if body.seen is None:
                return
            now = next(
                (
                    t
                    for t in reader.seating(name, body.session)["tables"]
                    if t["table"] == body.table
                ),
                None,
            )
            if now is None or now["revision"] == body.seen:
                return
            raise _refused(
                409,
                "changed",
                f"table {body.table} was entered or corrected meanwhile: check its scores now "
                "and save again to correct them",
                {"table": body.table, "entered": now["entered"], "revision": now["revision"]},
            )

        def save() -> None:
            unchanged()
            seats = dict(read_seating(store, name, body.session))
            names = seats.get(body.table)
            if names is None:
                raise StoreError(f"{name!r}: session {body.session} has no table {body.table}")
            scores = {names[WINDS.index(w)]: v for w, v in given.items()}
            taken = {names[WINDS.index(w)]: v for w, v in deducted.items() if v}
            if not body.correct:  # deductions already recorded (lateness) stay: add the rest
                _, earlier = entry_of(store, name, body.session, body.table)
                for player, points in earlier.items():
                    extra = taken.get(player, 0) - points
                    if extra < 0:
                        raise StoreError(
                            f"{player!r} already has {points} deducted at this table: "
                            "deductions can only be lowered by a correction"
                        )
                    taken[player] = extra
                taken = {p: v for p, v in taken.items() if v}
            if body.correct:
                store.correct_session_totals(
                    name,
                    body.session,
                    body.table,
                    scores,
                    who=account.username,
                    deductions=taken,
                    note=body.note,
                )
            else:
                store.record_session_totals(
                    name,
                    body.session,
                    body.table,
                    scores,
                    deductions=taken,
                    note=body.note,
                    who=account.username,
                )

        with entry_lock:
            read(save)
        _log.info(
            "%s %s %r session %d table %d: %s",
            account.username,
            "corrected" if body.correct else "entered",
            name,
            body.session,
            body.table,
            given,
        )
        return {"ok": True, "version": watcher.bump()}

    @router.post("/api/t/{name}/clock")
    def set_clock(name: str, body: ClockCommand, request: Request) -> dict[str, Any]:
        json_only(request)
        account, _ = referee_of(request, name, csrf=True)
        if account.role != "organiser":
            raise _refused(403, "forbidden", "only an organiser account runs the clock")
        with clock_lock:  # handlers run in a thread pool: one clock change at a time
            return change_clock(name, body)

    def change_clock(name: str, body: ClockCommand) -> dict[str, Any]:
        clock = clock_of(name)
        if body.session is not None:  # checked before anything changes
            planned = reader.summary(name)["sessions"]
            if not 1 <= body.session <= planned:
                raise _refused(
                    400,
                    "bad_action",
                    f"the tournament has sessions 1-{planned}",
                    {"sessions": planned},
                )
        now = wall()
        if body.action == "start":
            if clock.started_at is None and clock.remaining(now) > 0:
                clock.started_at = now
        elif body.action == "pause":
            if clock.started_at is not None:
                clock.elapsed += now - clock.started_at
                clock.started_at = None
        elif body.action == "reset":
            clock.elapsed, clock.started_at = 0.0, None
            if body.minutes is not None:
                clock.duration = body.minutes * 60.0
        else:
            raise _refused(400, "bad_action", "start, pause or reset")
        if body.session is not None:
            clock.session = body.session
        rooms.put_value(f"clock:{name}", json.dumps(clock.to_dict()))
        watcher.bump()
        return clock.json(now)

    return router
