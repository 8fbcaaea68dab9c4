"""The FastAPI application of ``guobiao serve``: the lobby API, one WebSocket per client, the page.

``create_app(db_path, limits=...)`` builds the app; rooms saved in ``db_path`` are resumed where
they stood. Everything runs on the server's one event loop: a room changes only in a handler or
in its driver task (bots, time-outs, the next hand), never in two places at once.

HTTP (JSON):

- ``GET /api/rooms``: public rooms not yet over (``?finished=true``: those over, latest first).
- ``POST /api/rooms`` ``{name, private, practice, bot_kind, player, place, seed}`` → ``{id,
  owner_token, watch_token, invite, place, token}`` (``player``: sit the creator down under that
  name; ``practice``: every other place a bot, and only then may ``seed`` be chosen). Each client
  address may create ``Limits.create_burst`` rooms at once, then one every ``create_every`` s.
- ``GET /api/rooms/{id}``: the room (no token); ``closed``: no longer live (over, or abandoned).
- ``GET /api/fans``: the fans a table scores (the 81 of 第九条); ``GET /api/settings``: this
  server's table settings (``limits``: the time limits, ``rules``: minimum, base, ...), for /help.
- ``POST /api/rooms/{id}/join`` ``{name, place, invite}`` → ``{place, token}``: an empty place is
  taken with the room's invite only (the creator's link).
- ``POST /api/rooms/{id}/bots`` ``{owner_token, kind, place}``: seat bots (every empty place, or one).
- ``POST /api/rooms/{id}/start`` ``{owner_token, fill}``: start the 16-hand session.
- ``GET /api/rooms/{id}/hands?token=``: the hands dealt so far (how each finished one ended) and
  the tile names; ``GET /api/rooms/{id}/hands/{n}?token=``: hand ``n``'s replay (0-based; 409
  for a hand still in play). A private room's hands need one of its tokens or the invite.

WebSocket ``/ws/rooms/{id}?token=...``: a seat token plays that place; the watch token, the
invite (private rooms) or no token (public rooms) watches. Messages: docs/web.md. Sockets are
capped per room (``Limits.spectators``, ``seat_sockets`` per place), per client address
(``address_sockets``; opened at ``socket_burst`` at once, then one per ``socket_every``, a wrong
token's too) and in all (``max_sockets``): over a cap the socket is closed with code 4429 and the
reason. What waits for a socket that reads nothing is bounded (``Conn.QUEUE`` messages,
``Conn.QUEUE_CHARS`` characters).

Rooms leave memory when their session is over, when no socket has been open to them for
``Limits.idle_close``, when not started ``wait_close`` after their last place was taken, or when
no person has moved for ``quiet_close`` (``Lobby.sweep``, every 30 s at most; their sockets are
sent the table and closed, 4410; a finished table's ``linger`` after its end); their hands stay
in the database, and the read-only endpoints (the room, its hands, their replays) and a socket to
it (how it ended) load a closed room from there, each client address rebuilding
``Limits.rebuild_burst`` at once, then one every ``rebuild_every`` s; answers about a closed room
are kept (a private room's with its tokens), and so is a finished hand's replay in a live room;
replays are built (each replays its hand) at the same rate per address; what is kept is the JSON
sent, at most ``Limits.replay_bytes``.
Every HTTP request takes a token of its address's bucket (``Limits.http_burst`` at once, then one
per ``http_every`` s; else 429 with ``Retry-After``). The client address is the socket peer, or
``X-Forwarded-For`` from a ``trusted_proxies`` address.
Every HTTP response carries ``SECURITY_HEADERS`` (CSP, no framing, nosniff, referrer policy).

With a tournament database (``tournament_db``), the tournament pages and their API under ``/t/``
and ``/api/t/`` (``guobiao.server.tournament``): public standings, seating, score sheets, the
projector view and its clock, referee login and score entry (``guobiao.tournament.accounts``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import math
import os
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from guobiao.scoring.examples import fan_summary
from guobiao.scoring.fans import Fan
from guobiao.server.breakdown import example_json
from guobiao.server.guards import SECURITY_HEADERS, KeptAnswers, RateLimiter, TrustedProxies
from guobiao.server.protocol import (
    ProtocolError,
    glossary_script,
    not_found_page,
    parse_client_message,
    tile_table,
)
from guobiao.server.rooms import LOBBY_PAGE, Limits, Lobby, Notice, Room, RoomError, same
from guobiao.server.store import RoomStore
from guobiao.table.glossary import TABLE_NAME
from guobiao.table.rules import COMPETITION

__all__ = ["Hub", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"
_log = logging.getLogger("guobiao.server")

_HTTP_STATUS = {
    "no_room": 404,
    "no_hand": 404,
    "forbidden": 403,
    "bad_invite": 403,
    "hand_live": 409,
    "not_over": 409,
    "again_done": 409,
    "slow_down": 429,
    "busy": 503,
}
CLOSED_CACHE = 16
"""Closed rooms kept in memory after being read (their replays), the least recently used
dropped first (about 0.4 MB each)."""
REPLAY_CACHE = 256
"""Answers about closed rooms (their hands) and finished hands' replays kept, with a private
room's tokens, the least recently used dropped first: at most this many, and at most
``Limits.replay_bytes`` bytes of JSON (a replay is 20-100 kB)."""

Place = Annotated[int | None, Field(ge=0, le=3)]
Text = Annotated[str, Field(max_length=200)]


class CreateRoom(BaseModel):
    name: Text = ""
    private: bool = False
    practice: bool = False
    bot_kind: Text = "efficiency"
    player: Text | None = None
    place: Place = None
    seed: Annotated[int | None, Field(ge=0, lt=2**63)] = None


class JoinRoom(BaseModel):
    name: Text
    place: Place = None
    invite: Text | None = None


class AddBots(BaseModel):
    owner_token: Text
    kind: Text | None = None
    place: Place = None


class StartRoom(BaseModel):
    owner_token: Text
    fill: bool = False


class PlayAgain(BaseModel):
    owner_token: Text


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (a header the response
    sets itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS.items():
                    headers.setdefault(key, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RequestRate:
    """ASGI middleware: every HTTP request takes a token of its client address's bucket
    (``Limits.http_burst`` at once, then one per ``http_every`` s); without one it is answered
    429 ``slow_down`` with ``Retry-After`` (whole seconds), before any work."""

    def __init__(
        self,
        app: ASGIApp,
        limiter: RateLimiter,
        address_of: Callable[[HTTPConnection], str],
        clock: Callable[[], float],
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.address_of = address_of
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wait = self.limiter.take(self.address_of(HTTPConnection(scope)), self.clock())
        if wait <= 0.0:
            await self.app(scope, receive, send)
            return
        seconds = max(1, math.ceil(wait))
        detail = {
            "code": "slow_down",
            "message": f"too many requests from your address: wait {seconds} s",
            "params": {"retry_after": seconds},
        }
        response = JSONResponse({"detail": detail}, 429, headers={"Retry-After": str(seconds)})
        await response(scope, receive, send)


MAX_BODY = 16_384
"""Bytes of an HTTP request body, at most: every body the pages send is a few hundred."""


def _body_too_large() -> HTTPException:
    return HTTPException(
        413,
        {
            "code": "too_large",
            "message": f"a request body is at most {MAX_BODY} bytes",
            "params": {"limit": MAX_BODY},
        },
    )


class BodyLimit:
    """ASGI middleware: a request body over :data:`MAX_BODY` bytes is refused (413) before it is
    read whole: at once by its ``Content-Length``, or as soon as a streamed body passes it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope["headers"]:
            if key == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                response = JSONResponse({"detail": _body_too_large().detail}, 413)
                await response(scope, receive, send)
                return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    # an HTTPException: FastAPI passes it on as it is, to the handler below
                    raise _body_too_large()
            return message

        await self.app(scope, limited, send)


def _validation_detail(exc: RequestValidationError) -> dict[str, Any]:
    """A refused request's fields and what is wrong with each, in our error shape: without the
    input itself (it may be long, or a float JSON cannot write back, such as 1e400)."""
    problems = []
    for error in exc.errors()[:5]:
        where = ".".join(str(part)[:40] for part in error.get("loc", ()) if part != "body")
        problems.append(f"{where or 'body'}: {str(error.get('msg', 'invalid'))[:120]}")
    return {"code": "bad_request", "message": "; ".join(problems), "params": {}}


def frame_text(message: dict[str, Any]) -> str:
    """A message as the text frame it goes out as: JSON as Starlette's ``send_json`` writes it,
    but in ASCII (``\\ud800``) when it holds a character UTF-8 cannot carry (a lone surrogate
    a client sent as ``"\\ud800"``, echoed in an error): a text frame is UTF-8, and such a
    frame would fail in the socket's sender and silence the socket for good."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(message, separators=(",", ":"))
    return text


class Conn:
    """One client socket: its place (None: a spectator), its outgoing queue (the frames' text),
    its flood meter."""

    QUEUE = 512
    """Messages queued for a socket that reads nothing, at most ..."""
    QUEUE_CHARS = 262_144
    """... and characters (a state is a few kB): what a slow socket may hold of the server's
    memory, whatever it does."""

    def __init__(self, ws: WebSocket, place: int | None, room: Room | None = None) -> None:
        self.ws = ws
        self.place = place
        self.room = room  # the room object this socket plays at (one object per room id)
        # the decision a ``stale`` refusal last sent this socket the table's state for: a state
        # (its hints computed, ~0.5 ms) once per decision, not once per message sent
        self.stale_sent = -1
        self.pending: deque[str] = deque()
        self.pending_chars = 0
        self.wakeup = asyncio.Event()
        self.recent: deque[float] = deque()
        self.warned_at = -1.0
        self.closing: tuple[int, str] | None = None  # (code, reason): closed once sent all

    def shut(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` once what is queued is sent; its messages are no
        longer read (a closed table's)."""
        if self.closing is None:
            self.closing = (code, reason)
            self.wakeup.set()

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message (written now, as its frame's text; or that text, :func:`frame_text`);
        a client that reads nothing loses its oldest messages past :attr:`QUEUE` messages or
        :attr:`QUEUE_CHARS` characters, not others' time nor the server's memory (states are
        whole snapshots, so the newest one is enough; the newest message always stays)."""
        if self.closing is not None:
            return
        text = message if isinstance(message, str) else frame_text(message)
        pending = self.pending
        pending.append(text)
        self.pending_chars += len(text)
        while len(pending) > 1 and (
            len(pending) > self.QUEUE or self.pending_chars > self.QUEUE_CHARS
        ):
            self.pending_chars -= len(pending.popleft())
        self.wakeup.set()

    async def next_frame(self) -> str | None:
        """The oldest queued frame's text, once there is one (None: nothing left, and the
        socket is to close)."""
        while not self.pending:
            if self.closing is not None:
                return None
            self.wakeup.clear()
            await self.wakeup.wait()
        text = self.pending.popleft()
        self.pending_chars -= len(text)
        return text

    def meter(self, now: float, rate: int) -> str:
        """``ok``, ``drop`` (over ``rate`` messages in the last second) or ``close`` (5x)."""
        recent = self.recent
        recent.append(now)
        while recent and now - recent[0] > 1.0:
            recent.popleft()
        if len(recent) > 5 * rate:
            return "close"
        if len(recent) > rate:
            return "drop"
        return "ok"


def _error(code: str, message: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """An ``error`` message: a stable ``code`` (docs/web.md lists them) and its ``params`` for a
    client to say it in 中文 or English; ``message`` in English."""
    return {"type": "error", "code": code, "message": message, "params": params or {}}


def _no_entry(room: Room, token: str) -> dict[str, Any]:
    """Why a socket's token opens nothing: ``private_room`` when none was given (a private
    table is opened with its invite or watch link), else ``bad_token``."""
    if not token and room.private:
        return _error(
            "private_room",
            "this table is private: open it with the invite link or the watch link its creator "
            "shares",
        )
    return _error("bad_token", "this token opens no seat in this room")


def _welcome(room: Room, place: int | None) -> dict[str, Any]:
    return {
        "type": "welcome",
        "room": room.id,
        "you": place,
        "role": "player" if place is not None else "spectator",
        "name": room.places[place].name if place is not None else None,
        "tiles": tile_table(),
    }


COLLECT_EVERY = 30.0
"""Seconds between two full passes of the cycle collector (``collect_cycles``)."""


def collect_cycles() -> float:
    """A full pass of the cycle collector; the seconds it took. Closed sockets and retired rooms
    leave reference cycles (the WebSocket stack's hold each connection's compressor, a few
    hundred kB of C memory) that the rare full passes ``guobiao serve`` sets
    (``gc.set_threshold``) would keep for hours: the sweeper frees them every
    :data:`COLLECT_EVERY` seconds (docs/web.md, Soak test). What was loaded at start is frozen
    (``gc.freeze``), so a pass walks only the live rooms and sockets."""
    began = time.perf_counter()
    gc.collect()
    took = time.perf_counter() - began
    if took > 0.05:
        _log.info("a full pass of the cycle collector took %.0f ms", 1000 * took)
    return took


class Hub:
    """The live side of the rooms: sockets, one driver task per started room, persistence."""

    def __init__(
        self, lobby: Lobby, store: RoomStore, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.lobby = lobby
        self.store = store
        self.clock = clock
        self.conns: dict[str, set[Conn]] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        limits = lobby.limits
        self.creations = RateLimiter(
            limits.create_burst, limits.create_every, limits.tracked_addresses
        )
        self.addresses: dict[str, int] = {}  # open sockets by client address (none: no entry)
        self.open_sockets = 0  # sockets to live rooms, all addresses together
        self.openings = RateLimiter(  # new sockets by client address
            limits.socket_burst, limits.socket_every, limits.tracked_addresses
        )
        self.rebuilds = RateLimiter(  # closed rooms rebuilt (their hands replayed) by address
            limits.rebuild_burst, limits.rebuild_every, limits.tracked_addresses
        )
        self.replays_built = RateLimiter(  # hands' replays built (not kept yet) by address
            limits.rebuild_burst, limits.rebuild_every, limits.tracked_addresses
        )
        # a finished hand's replay (a closed room's hands) never changes: kept as answered,
        # bounded in entries and in bytes
        self.replays: KeptAnswers[tuple[str, int], tuple[str, ...] | None] = KeptAnswers(
            REPLAY_CACHE, limits.replay_bytes
        )
        self.closed: OrderedDict[str, Room] = OrderedDict()  # closed rooms read lately
        self.sweeper: asyncio.Task[None] | None = None

    def live(self, room: Room) -> bool:
        return self.lobby.rooms.get(room.id) is room

    def save(self, room: Room) -> None:
        """Write the room if it changed; a room no longer live only over its own row (a closed
        room's ``next``), never written back once deleted (unstarted, or pruned)."""
        if room.saved_version != room.version:
            self.store.save(room.id, room.to_dict(), insert=self.live(room))
            room.saved_version = room.version

    def publish(self, room: Room, notices: list[Notice], only: int | None = None) -> None:
        """Save the room, then send each client its notices and its own fresh state (``only``:
        to that place's sockets alone, for a change nobody else may learn of, as a claim
        noted during a claim window)."""
        self.save(room)
        now = self.clock()
        # each receiver's state is computed and written once, whatever the number of its sockets:
        # 20 spectators (or a place's 3 tabs) cost one state, not one each
        states: dict[int | None, str] = {}
        texts = [frame_text(notice.message) for notice in notices]
        for conn in list(self.conns.get(room.id, ())):
            if only is not None and conn.place != only:
                continue
            me = conn.place if conn.place is not None else -1
            for notice, text in zip(notices, texts, strict=True):
                if notice.to is None or notice.to == me:
                    conn.send(text)
            state = states.get(conn.place)
            if state is None:
                state = states[conn.place] = frame_text(room.state_for(conn.place, now))
            conn.send(state)

    def wake(self, room: Room) -> None:
        event = self.wakes.get(room.id)
        if event is not None:
            event.set()
        self.ensure_driver(room)

    def ensure_driver(self, room: Room) -> None:
        if room.started and not room.ended and room.id not in self.drivers and self.live(room):
            self.wakes.setdefault(room.id, asyncio.Event())
            self.drivers[room.id] = asyncio.get_running_loop().create_task(self._drive(room))

    def retire(self, room: Room) -> None:
        """Let a room go (its session over, or :meth:`Lobby.sweep` took it): its driver stops;
        a room never started is deleted, any other saved and closed (its hands stay for the
        replays). Nothing of it stays in memory once its last socket closes."""
        self.lobby.rooms.pop(room.id, None)
        task = self.drivers.pop(room.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self.wakes.pop(room.id, None)
        if not room.ended:
            # closed by the sweep with sockets still open (waiting, or no one acting): each is
            # sent the table as it stands, then closed (4410), as a socket to a closed table is
            self.shut(room, 4410, "this table is closed")
        if not room.started:
            self.store.delete(room.id)
            return
        self.save(room)
        self.store.close_room(
            room.id,
            room.info() if room.ended and not room.private else None,
            info={**room.info(), "closed": True},
            keep=self.lobby.limits.kept_rooms,
        )
        if room.ended and room.id in self.conns:
            # its players' pages are still open on it: the same room answers them (and a
            # Play again, POST /api/rooms/{id}/again, reaches their sockets)
            self.keep_closed(room)

    def closed_info(self, room: Room) -> None:
        """A closed room changed (Play again named its next table): its row's info and lobby
        entry say so, and its kept hands' list (with the room's info) is dropped."""
        self.store.update_closed(
            room.id,
            room.info() if room.ended and not room.private else None,
            {**room.info(), "closed": True},
        )
        self.replays.forget((room.id, -1))

    def shut(self, room: Room, code: int, reason: str) -> None:
        """Send every socket of ``room`` its state, then close it with ``code``."""
        now = self.clock()
        states: dict[int | None, str] = {}
        for conn in self.conns.get(room.id, ()):
            if conn.closing is not None:
                continue
            state = states.get(conn.place)
            if state is None:
                state = states[conn.place] = frame_text(room.state_for(conn.place, now))
            conn.send(state)
            conn.shut(code, reason)

    def sweep(self, now: float) -> None:
        """Close the rooms :meth:`Lobby.sweep` takes, and the sockets to a finished table
        ``Limits.linger`` after its end."""
        for room in self.lobby.sweep(now):
            self.retire(room)
        linger = self.lobby.limits.linger
        for conns in list(self.conns.values()):
            over = next((c.room for c in conns if c.room), None)
            if over is None or self.live(over) or not over.ended:
                continue
            if now - over.hand_over_at >= linger:
                for conn in conns:
                    conn.shut(4410, "the session is over")

    async def _sweep_every(self, seconds: float) -> None:
        collected = time.monotonic()
        while True:
            await asyncio.sleep(seconds)
            try:
                self.sweep(self.clock())
            except Exception:  # keep sweeping: a bad room must not stop the rest
                _log.exception("sweeping the rooms")
            if time.monotonic() - collected >= COLLECT_EVERY:
                collected = time.monotonic()
                collect_cycles()

    def start(self) -> None:
        """On the server's start: close what is over, drive the rest, sweep now and then."""
        self.sweep(self.clock())
        for room in list(self.lobby.rooms.values()):
            self.ensure_driver(room)
        limits = self.lobby.limits
        soonest = min(
            limits.idle_close,
            limits.unclaimed_close,
            limits.wait_close,
            limits.quiet_close,
            limits.linger,
        )
        every = min(30.0, max(0.05, soonest / 4))
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep_every(every))

    async def find(self, room_id: str, address: str | None = None) -> Room | None:
        """A live room, or a closed one read from the store (for its replays: read only).
        Rebuilding a closed room replays its hands: with ``address``, that client may have
        ``rebuild_burst`` rebuilt at once, then one per ``rebuild_every`` s (else ``slow_down``)."""
        room = self.held(room_id)
        if room is not None:
            return room
        if address is not None and not self.rebuilds.allow(address, self.clock()):
            raise RoomError(
                "slow_down", "too many finished tables read from your address: wait a moment"
            )
        data = await run_in_threadpool(self.store.load, room_id)
        if data is None:
            return None
        try:
            room = await run_in_threadpool(Room.from_dict, data, self.lobby.limits, self.clock())
        except (KeyError, TypeError, ValueError) as err:
            _log.error("room %s cannot be read: %s", room_id, err)
            return None
        # another request may have read it meanwhile (the awaits above): one object per room,
        # or each would take its own Play again and save over the other's
        held = self.held(room_id)
        if held is not None:
            return held
        self.keep_closed(room)
        return room

    def held(self, room_id: str) -> Room | None:
        """The room's object in memory: live, closed and read lately, or closed with sockets
        still open to it (their pages on its end; evicted from :attr:`closed` meanwhile)."""
        room = self.lobby.rooms.get(room_id) or self.closed.get(room_id)
        if room is None:
            room = next((c.room for c in self.conns.get(room_id, ()) if c.room), None)
            if room is None or not room.started:  # (one never started is deleted)
                return None
            self.keep_closed(room)
        if room.id in self.closed:
            self.closed.move_to_end(room.id)
        return room

    def keep_closed(self, room: Room) -> None:
        if room.id in self.lobby.rooms:
            return
        self.closed[room.id] = room
        self.closed.move_to_end(room.id)
        while len(self.closed) > CLOSED_CACHE:
            self.closed.popitem(last=False)

    def too_fast(self, address: str) -> dict[str, Any] | None:
        """A ``too_many`` error if ``address`` opens sockets faster than its token bucket
        allows (each socket takes a token, whatever becomes of it), else None."""
        if self.openings.allow(address, self.clock()):
            return None
        return _error(
            "too_many",
            "connections opened too fast from your address: wait a moment",
            {"cap": "rate", "max": self.lobby.limits.socket_burst},
        )

    def refusal(self, room: Room, place: int | None, address: str) -> dict[str, Any] | None:
        """Why a new socket is refused (a cap reached): a ``too_many`` error, or None."""
        limits = room.limits
        too_fast = self.too_fast(address)
        if too_fast is not None:
            return too_fast
        if self.open_sockets >= limits.max_sockets:
            return _error(
                "too_many",
                f"the server has as many connections as it takes ({limits.max_sockets})",
                {"cap": "server", "max": limits.max_sockets},
            )
        if self.addresses.get(address, 0) >= limits.address_sockets:
            return _error(
                "too_many",
                f"too many connections from your address (at most {limits.address_sockets})",
                {"cap": "address", "max": limits.address_sockets},
            )
        if place is None:
            watching = sum(1 for c in self.conns.get(room.id, ()) if c.place is None)
            if watching >= limits.spectators:
                return _error(
                    "too_many",
                    f"this table has as many spectators as it takes ({limits.spectators})",
                    {"cap": "spectators", "max": limits.spectators},
                )
        elif room.places[place].connections >= limits.seat_sockets:
            return _error(
                "too_many",
                f"this seat is open in {limits.seat_sockets} places already: close one",
                {"cap": "seat", "max": limits.seat_sockets},
            )
        return None

    async def _drive(self, room: Room) -> None:
        event = self.wakes[room.id]
        try:
            while not room.ended:
                event.clear()
                before = room.version
                notices = room.poll(self.clock(), max_steps=64)
                if notices or room.version != before:
                    self.publish(room, notices)
                if room.ended:
                    break
                wake = room.next_wake(self.clock())
                timeout = None if wake is None else max(0.0, wake - self.clock())
                if timeout == 0.0:
                    await asyncio.sleep(0)  # let clients and other rooms in between
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout)
        except Exception:  # a bug must not take the server down: log it; the room stays saved
            _log.exception("room %s stopped", room.id)
        finally:
            self.drivers.pop(room.id, None)
            if room.ended:  # over: the lobby and memory let it go, the database keeps it
                self.retire(room)

    async def stop(self) -> None:
        tasks = list(self.drivers.values())
        if self.sweeper is not None:
            tasks.append(self.sweeper)
            self.sweeper = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def serve_socket(self, ws: WebSocket, room_id: str, token: str, address: str) -> None:
        room = self.lobby.rooms.get(room_id)
        if room is None:
            await ws.accept()
            too_fast = self.too_fast(address)
            if too_fast is not None:
                await ws.send_json(too_fast)
                await ws.close(4429, too_fast["message"])
                return
            try:  # a closed room read from the store is rebuilt: bounded by address, as replays
                closed = await self.find(room_id, address)
            except RoomError as err:
                await ws.send_json(_error(err.code, err.message))
                await ws.close(4429, err.message)
                return
            if closed is None:
                await ws.send_json(_error("no_room", "no such room"))
                await ws.close(4404)
            elif closed.may_watch(token) or closed.may_replay(token):
                # a closed room: how it stood (a finished session's end), then the socket closes;
                # a player's own link shows their own seat, as it was
                place = closed.place_of_token(token) if token else None
                await ws.send_json(_welcome(closed, place))
                await ws.send_json(closed.state_for(place, self.clock()))
                await ws.close(4410, "this table is closed")
            else:
                await ws.send_json(_no_entry(closed, token))
                await ws.close(4403)
            return
        place = room.place_of_token(token) if token else None
        refused: dict[str, Any] | None = None
        if place is None and not room.may_watch(token):
            # a wrong token costs a socket too: guessing tokens is no faster than opening them
            refused = self.too_fast(address) or _no_entry(room, token)
        else:
            refused = self.refusal(room, place, address)
        if refused is not None:
            await ws.accept()
            await ws.send_json(refused)
            if refused["code"] == "too_many":
                await ws.close(4429, refused["message"][:120])
            else:
                await ws.close(4403)
            return
        # counted before the first await: the caps see every socket, however many arrive at once
        conn = Conn(ws, place, room)
        conn.send(_welcome(room, place))
        self.conns.setdefault(room.id, set()).add(conn)
        self.addresses[address] = self.addresses.get(address, 0) + 1
        self.open_sockets += 1
        room.connect(place)
        sender: asyncio.Task[None] | None = None
        try:
            await ws.accept()
            sender = asyncio.get_running_loop().create_task(self._sender(conn))
            if place is None:
                # a spectator changes nothing the others see: the new socket alone is told
                conn.send(room.state_for(None, self.clock()))
            else:  # a seat is connected now: everyone sees it
                self.publish(room, [])
                self.wake(room)
            await self._receive(conn, room)
        except WebSocketDisconnect:
            pass
        finally:
            conns = self.conns.get(room.id, set())
            conns.discard(conn)
            if not conns:
                self.conns.pop(room.id, None)
            self.open_sockets -= 1
            left = self.addresses.get(address, 1) - 1
            if left > 0:
                self.addresses[address] = left
            else:
                self.addresses.pop(address, None)
            if sender is not None:
                sender.cancel()
            room.disconnect(place, self.clock())
            if place is not None:
                self.publish(room, [])
                self.wake(room)

    async def _receive(self, conn: Conn, room: Room) -> None:
        ws = conn.ws
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if conn.closing is not None:  # the table closed: the socket is closing
                continue
            now = self.clock()
            verdict = conn.meter(now, room.limits.rate)
            if verdict == "close":
                await ws.close(1008)
                return
            if verdict == "drop":
                if now - conn.warned_at >= 1.0:
                    conn.warned_at = now
                    conn.send(
                        _error(
                            "rate_limited",
                            "too many messages: slow down",
                            {"rate": room.limits.rate},
                        )
                    )
                continue
            text = message.get("text")
            if not isinstance(text, str):
                conn.send(_error("bad_message", "send JSON text frames"))
                continue
            try:
                parsed = parse_client_message(text)
            except ProtocolError as err:
                conn.send(_error(err.code, err.message, err.params))
                continue
            if parsed.type == "ping":
                conn.send({"type": "pong"})
                continue
            if conn.place is None:
                conn.send(_error("spectator", "spectators cannot act"))
                continue
            before = room.version
            try:
                if parsed.type == "ready":
                    room.set_ready(conn.place)
                    notices: list[Notice] = []
                elif parsed.type == "resume":
                    notices = room.resume(conn.place)
                else:
                    assert parsed.action is not None
                    if parsed.decision is not None and parsed.decision != room.decision:
                        # sent for a decision the table has left (a slow connection): applying
                        # it to the one now would answer what the player never saw
                        raise RoomError(
                            "stale",
                            "this answers an earlier decision: the table has moved on",
                            {"decision": room.decision},
                        )
                    notices = room.act(conn.place, parsed.action, now)
            except RoomError as err:
                conn.send(_error(err.code, err.message, err.params))
                if err.code == "stale" and conn.stale_sent != room.decision:
                    # what the table shows now, to answer that instead: once per decision (a
                    # socket repeating stale answers must not make the server compute a state
                    # with its hints for each, 20 a second)
                    conn.stale_sent = room.decision
                    conn.send(room.state_for(conn.place, now))
                continue
            if room.version == before:
                if parsed.type == "action":  # noted only (a claim in a window): this place alone
                    self.publish(room, notices, only=conn.place)
                # else a ``ready`` sent again: nothing changed, nothing to send
                continue
            self.publish(room, notices)
            self.wake(room)

    async def _sender(self, conn: Conn) -> None:
        with contextlib.suppress(Exception):
            while True:
                text = await conn.next_frame()
                if text is None:
                    assert conn.closing is not None
                    await conn.ws.close(*conn.closing)
                    return
                await conn.ws.send_text(text)


def _coded(status: int, detail: Any) -> Any:
    """A refusal's detail with a ``code``, as ours are: the framework's own (a body it cannot
    parse: JSON nested too deep or a number too long, 400; a method a path does not take, 405)
    come as text."""
    if isinstance(detail, dict):
        return detail
    if status == 400:  # the only 400 the framework writes: a body json.loads refused
        message = "the body is not JSON this server reads (nested too deep, or a number too long)"
        return {"code": "bad_json", "message": message, "params": {}}
    code = "not_allowed" if status == 405 else "refused"
    return {"code": code, "message": str(detail)[:200], "params": {}}


def _refuse(err: RoomError) -> HTTPException:
    return HTTPException(
        _HTTP_STATUS.get(err.code, 400),
        {"code": err.code, "message": err.message, "params": err.params},
    )


def fan_table(profile: str = COMPETITION.fan_profile) -> list[dict[str, Any]]:
    """The fans of a table's profile, in table order: the 81 of 第九条 (``mil`` adds 明暗杠), each
    with what it asks of a hand (``en_def``, ``zh_def``: :func:`guobiao.scoring.examples.fan_summary`)
    and its example hand (``example``: :func:`guobiao.server.breakdown.example_json`)."""
    return [
        {**fan_summary(f), "example": example_json(f)}
        for f in Fan
        if profile in ("mil", "botzone") or f is not Fan.MELDED_AND_CONCEALED_KONG
    ]


def room_not_found() -> HTMLResponse:
    """The 404 page of an unknown table (instead of a table page reconnecting for ever)."""
    return HTMLResponse(
        not_found_page("这张牌桌", "This table", "/", "回到大厅", "Back to the lobby"), 404
    )


def _secret(db_path: str | Path) -> bytes:
    """The key that signs login cookies: ``secret.key`` beside the rooms database (created with
    mode 0600 on first use, so sessions survive a restart); a fresh one for ``":memory:"``."""
    if str(db_path) == ":memory:":
        return secrets.token_bytes(32)
    path = Path(db_path).with_name("secret.key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


def create_app(
    db_path: str | Path = "guobiao-web.sqlite3",
    *,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.monotonic,
    tournament_db: str | None = None,
    secret: bytes | None = None,
    wall: Callable[[], float] = time.time,
    session_seconds: float = 12 * 3600.0,
    check_interval: float = 1.0,
    trusted_proxies: Iterable[str] = (),
) -> FastAPI:
    """The app; rooms saved in ``db_path`` (SQLite, ``":memory:"`` for none) are resumed. With
    ``tournament_db`` (a SQLAlchemy URL, opened and migrated with ``open_store``) it also serves
    the tournament pages (``guobiao.server.tournament``): login cookies are signed with
    ``secret`` (default: ``secret.key`` beside ``db_path``), last ``session_seconds`` by the
    ``wall`` clock; the database is checked for outside changes every ``check_interval`` s.
    ``trusted_proxies``: addresses or networks whose ``X-Forwarded-For`` names the client."""
    limits = limits or Limits()
    proxies = TrustedProxies(trusted_proxies)
    store = RoomStore(db_path)
    tournaments = None
    if tournament_db is not None:
        from guobiao.tournament.store import open_store

        tournaments = open_store(tournament_db)
    lobby = Lobby(limits)
    now = clock()
    for data in store.load_all():
        try:
            room = Room.from_dict(data, limits, now)
        except (KeyError, TypeError, ValueError) as err:
            _log.error("room %s cannot be resumed: %s", data.get("id"), err)
            continue
        lobby.rooms[room.id] = room
    hub = Hub(lobby, store, clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start()
        yield
        await hub.stop()
        if tournaments is not None:
            tournaments.close()

    # No generated API pages (/docs would load scripts from a CDN): docs/web.md is the reference.
    app = FastAPI(
        title="guobiao", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )

    def address_of(conn: HTTPConnection) -> str:
        forwarded = ",".join(conn.headers.getlist("x-forwarded-for"))
        return proxies.key(conn.client.host if conn.client else None, forwarded)

    app.add_middleware(BodyLimit)
    # every HTTP request, by client address (outside the body limit: refused before any work;
    # inside the security headers: a refusal carries them too)
    requests = RateLimiter(limits.http_burst, limits.http_every, limits.tracked_addresses)
    app.add_middleware(RequestRate, limiter=requests, address_of=address_of, clock=clock)
    app.add_middleware(SecurityHeaders)
    app.state.hub = hub

    def owned(room_id: str, owner_token: str) -> Room:
        room = lobby.get(room_id)
        if not same(owner_token, room.owner_token):
            raise RoomError("forbidden", "only the room's creator may do this")
        return room

    async def found(room_id: str, address: str | None = None) -> Room:
        room = await hub.find(room_id, address)
        if room is None:
            raise RoomError("no_room", "no such room")
        return room

    async def exists(room_id: str) -> bool:
        """A live room, or a closed one in the store (nothing rebuilt)."""
        if room_id in lobby.rooms or room_id in hub.closed:
            return True
        return await run_in_threadpool(store.exists, room_id)

    @app.get("/api/rooms")
    async def list_rooms(
        finished: bool = False,
        limit: int = Query(LOBBY_PAGE, ge=1, le=LOBBY_PAGE),
    ) -> JSONResponse:
        """The lobby's open tables, at most ``limit`` (those waiting for players first), the
        number not listed in ``X-More-Rooms``; ``finished``: the latest 20 over. Written as
        JSON at once: FastAPI's encoder walked every value of the 50 rooms (~6 ms an answer,
        50 a second from one address took most of the event loop)."""
        if finished:
            return JSONResponse(store.finished())
        rooms, more = lobby.listing(limit)
        return JSONResponse(rooms, headers={"X-More-Rooms": str(more)})

    def make_room(
        body: CreateRoom, address: str, bots: Iterable[tuple[int, str]] = ()
    ) -> tuple[Room, int | None, str | None]:
        """A new room as ``body`` asks (the creator seated under ``player``, a practice table's
        bots), ``bots`` (place, kind) seated too: the room, the creator's place and token. The
        address's creation rate and room cap apply; nothing is left of a room refused."""
        if body.seed is not None and not body.practice:
            raise RoomError(
                "seed",
                "a table's seed is chosen by the server; a seed may be given only for a "
                "practice table (practice: true, every other place a bot)",
            )
        now = hub.clock()
        if not hub.creations.allow(address, now):
            raise RoomError("slow_down", "too many new tables from your address: wait")
        if lobby.full():
            hub.sweep(now)  # rooms idle for long give their places up
        room = lobby.create(
            name=body.name,
            private=body.private,
            bot_kind=body.bot_kind,
            seed=body.seed,
            practice=body.practice,
            now=now,
            creator=address,
        )
        place, token = (None, None)
        try:
            if body.player is not None:
                place, token = room.join(body.player, body.place, now=now)
                room.owner_place = place
            for at, kind in bots:
                room.add_bots(kind, at, now=now)
            if body.practice:
                room.add_bots(now=now)
        except RoomError:
            del lobby.rooms[room.id]
            raise
        return room, place, token

    def made(room: Room, place: int | None, token: str | None) -> dict[str, Any]:
        return {
            "id": room.id,
            "owner_token": room.owner_token,
            "watch_token": room.watch_token,
            "invite": room.invite,
            "place": place,
            "token": token,
            "room": room.info(),
        }

    @app.post("/api/rooms")
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        try:
            room, place, token = make_room(body, address_of(request))
        except RoomError as err:
            raise _refuse(err) from None
        hub.save(room)
        return made(room, place, token)

    @app.post("/api/rooms/{room_id}/again")
    async def play_again(room_id: str, body: PlayAgain, request: Request) -> dict[str, Any]:
        """The session over, its creator plays again: a new table with this one's settings
        (name, private or not, practice or not, bots' kind), the creator at their place, each
        bot at its place (a practice table started at once); once per finished table. The old
        table's ``next`` names it, and its players' sockets are sent its invite."""
        address = address_of(request)
        try:
            old = await found(room_id, address)
            if not same(body.owner_token, old.owner_token):
                raise RoomError("forbidden", "only the room's creator may do this")
            if not old.ended:
                raise RoomError("not_over", "the session is not over: play it to its end first")
            if old.next is not None:
                raise RoomError("again_done", "this table plays again already", {"room": old.next})
            owner = old.owner_place
            default = TABLE_NAME.en.format(id=old.id[:4])  # a name the server made: made afresh
            again = CreateRoom(
                name="" if old.name == default else old.name,
                private=old.private,
                practice=old.practice,
                bot_kind=old.bot_kind,
                player=old.places[owner].name if owner is not None else None,
                place=owner,
            )
            bots = (
                []
                if old.practice
                else [(i, p.bot_kind) for i, p in enumerate(old.places) if p.kind == "bot"]
            )
            room, place, token = make_room(again, address, bots)
            if old.practice:
                notices = room.start(hub.clock())
        except RoomError as err:
            raise _refuse(err) from None
        old.next = room.id
        old.next_invite = room.invite
        old.version += 1
        if old.practice:
            hub.publish(room, notices)
            hub.wake(room)
        else:
            hub.save(room)
        hub.publish(old, [])  # saved, and its players told (spectators: the public id alone)
        if old.id not in lobby.rooms:  # closed: what GET /api/rooms/{id} answers names it too
            hub.closed_info(old)
        return made(room, place, token)

    @app.get("/api/rooms/{room_id}")
    async def get_room(room_id: str, request: Request) -> dict[str, Any]:
        live = lobby.rooms.get(room_id)
        if live is not None:
            return {**live.info(), "closed": False}
        recent = hub.held(room_id)  # closed, in memory: as it is now (its next table)
        if recent is not None:
            return {**recent.info(), "closed": True}
        kept = await run_in_threadpool(store.info, room_id)  # as it was closed: no rebuilding
        if kept is not None:
            return kept
        try:  # closed before rooms kept their info
            room = await found(room_id, address_of(request))
        except RoomError as err:
            raise _refuse(err) from None
        return {**room.info(), "closed": room.id not in lobby.rooms}

    fans_answer = fan_table()  # the same for every request: built once (81 example hands)

    @app.get("/api/fans")
    async def fans() -> list[dict[str, Any]]:
        return fans_answer

    @app.get("/api/settings")
    async def settings() -> dict[str, Any]:
        rules = COMPETITION  # every room plays it (rooms.py)
        return {
            "limits": asdict(lobby.limits),
            "rules": {
                "minimum": rules.minimum,
                "base": rules.base,
                "starting_points": rules.starting_points,
                "hands_per_session": rules.hands_per_session,
                "flowers": rules.flowers,
                "fan_profile": rules.fan_profile,
            },
        }

    @app.post("/api/rooms/{room_id}/join")
    async def join_room(room_id: str, body: JoinRoom) -> dict[str, Any]:
        try:
            room = lobby.get(room_id)
            if not room.check_invite(body.invite):
                raise RoomError(
                    "bad_invite", "a place is taken with the table's invite link: ask its creator"
                )
            place, token = room.join(body.name, body.place, now=hub.clock())
        except RoomError as err:
            raise _refuse(err) from None
        hub.publish(room, [])
        return {"place": place, "token": token, "room": room.info()}

    @app.post("/api/rooms/{room_id}/bots")
    async def add_bots(room_id: str, body: AddBots) -> dict[str, Any]:
        try:
            room = owned(room_id, body.owner_token)
            room.add_bots(body.kind, body.place, now=hub.clock())
        except RoomError as err:
            raise _refuse(err) from None
        hub.publish(room, [])
        return room.info()

    @app.post("/api/rooms/{room_id}/start")
    async def start_room(room_id: str, body: StartRoom) -> dict[str, Any]:
        try:
            room = owned(room_id, body.owner_token)
            if body.fill and not room.started:
                room.add_bots(now=hub.clock())
            notices = room.start(hub.clock())
        except RoomError as err:
            raise _refuse(err) from None
        hub.publish(room, notices)
        hub.wake(room)
        return room.info()

    async def replayable(room_id: str, token: str, request: Request) -> Room:
        room = await found(room_id, address_of(request))
        if not room.may_replay(token):
            raise RoomError("forbidden", "a private room's hands need one of its tokens")
        return room

    def kept_answer(room_id: str, key: int, token: str) -> Response | None:
        """A closed room's answer kept by :func:`answered`: a public room's for anyone, a private
        room's for a token that may replay it (else None: the room decides, and refuses)."""
        kept = hub.replays.get((room_id, key))
        if kept is None:
            return None
        body, tokens = kept
        if tokens is not None and not (token and any(same(token, t) for t in tokens)):
            return None
        return Response(body, media_type="application/json")

    def answered(room: Room, key: int, answer: Callable[[], dict[str, Any]]) -> Response:
        """``answer()`` as JSON, kept once it never changes again (a finished hand's replay,
        ``key`` >= 0, even in a live room; anything once the room is closed) as the bytes sent,
        with the tokens that may read it when the room is private (they never change once it
        started): the latest ``REPLAY_CACHE`` answers, ``Limits.replay_bytes`` bytes at most."""
        body = bytes(JSONResponse(answer()).body)
        if key >= 0 or room.id not in lobby.rooms:
            hub.replays.put((room.id, key), body, room.replay_tokens() if room.private else None)
        return Response(body, media_type="application/json")

    @app.get("/api/rooms/{room_id}/hands")
    async def room_hands(room_id: str, request: Request, token: str = "") -> Response:
        kept = kept_answer(room_id, -1, token)
        if kept is not None:
            return kept
        try:
            room = await replayable(room_id, token, request)
        except RoomError as err:
            raise _refuse(err) from None
        return answered(
            room,
            -1,
            lambda: {
                "room": room.info(),
                "hands": room.hands_info() if room.started else [],
                "tiles": tile_table(),
            },
        )

    @app.get("/api/rooms/{room_id}/hands/{number}")
    async def hand_replay(
        room_id: str,
        number: Annotated[int, PathParam(ge=0, le=1000)],
        request: Request,
        token: str = "",
    ) -> Response:
        kept = kept_answer(room_id, number, token)
        if kept is not None:
            return kept
        try:
            room = await replayable(room_id, token, request)
            # a replay is built by replaying the hand (a few ms on the event loop): each
            # address may have ``rebuild_burst`` built at once, then one per ``rebuild_every``
            if not hub.replays_built.allow(address_of(request), hub.clock()):
                raise RoomError("slow_down", "too many replays asked from your address: wait")
            return answered(room, number, lambda: room.replay(number))
        except RoomError as err:
            raise _refuse(err) from None

    @app.websocket("/ws/rooms/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str, token: str = "") -> None:
        await hub.serve_socket(websocket, room_id, token, address_of(websocket))

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    glossary = glossary_script()

    @app.get("/static/glossary.js", include_in_schema=False)  # before the static files' mount
    async def glossary_page() -> Response:
        """The game's terms in 中文 and English for every page (loaded before common.js)."""
        return Response(glossary, media_type="text/javascript; charset=utf-8")

    @app.get("/help", include_in_schema=False)
    async def help_page() -> FileResponse:
        return FileResponse(STATIC / "help.html")

    @app.get("/room/{room_id}", include_in_schema=False, response_model=None)
    async def room_page(room_id: str) -> FileResponse | HTMLResponse:
        if not await exists(room_id):
            return room_not_found()
        return FileResponse(STATIC / "room.html")

    @app.get("/room/{room_id}/replay", include_in_schema=False, response_model=None)
    async def replay_page(room_id: str) -> FileResponse | HTMLResponse:
        if not await exists(room_id):
            return room_not_found()
        return FileResponse(STATIC / "replay.html")

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_detail(exc)}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def not_found(request: Request, exc: StarletteHTTPException) -> Any:
        """Unknown paths: JSON with a ``code`` under ``/api/``, else the bilingual 404 page;
        every other refusal in the shape of ours (``code``, ``message``, ``params``)."""
        if isinstance(exc.detail, dict) or exc.status_code != 404:
            detail = _coded(exc.status_code, exc.detail)
            return JSONResponse({"detail": detail}, exc.status_code, headers=exc.headers)
        if request.url.path.startswith("/api/"):
            detail = {"code": "not_found", "message": "no such resource", "params": {}}
            return JSONResponse({"detail": detail}, 404)
        return HTMLResponse(
            not_found_page("这个页面", "This page", "/", "回到大厅", "Back to the lobby"), 404
        )

    if tournaments is not None:
        from guobiao.server.tournament import tournament_router
        from guobiao.tournament.accounts import SessionSigner

        router = tournament_router(
            tournaments,
            store,
            SessionSigner(secret if secret is not None else _secret(db_path)),
            wall=wall,
            session_seconds=session_seconds,
            check_interval=check_interval,
            proxies=proxies,
        )
        app.include_router(router)
        app.state.tournaments = tournaments
        app.state.watcher = router.watcher  # type: ignore[attr-defined]
        app.state.tournament_router = router

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
