"""The FastAPI application of ``guobiao serve``: the lobby API, one WebSocket per client, the page.

``create_app(db_path, limits=...)`` builds the app; rooms saved in ``db_path`` are resumed where
they stood. Everything runs on the server's one event loop: a room changes only in a handler or
in its driver task (bots, time-outs, the next hand), never in two places at once.

HTTP (JSON):

- ``GET /api/rooms``: public rooms not yet over (``?finished=true``: those over, latest first).
- ``POST /api/rooms`` ``{name, private, bot_kind, player, place, seed}`` → ``{id, owner_token,
  watch_token, invite, place, token}`` (``player``: sit the creator down under that name).
- ``GET /api/rooms/{id}``: the room (no token).
- ``POST /api/rooms/{id}/join`` ``{name, place, invite}`` → ``{place, token}``.
- ``POST /api/rooms/{id}/bots`` ``{owner_token, kind, place}``: seat bots (every empty place, or one).
- ``POST /api/rooms/{id}/start`` ``{owner_token, fill}``: start the 16-hand session.
- ``GET /api/rooms/{id}/hands?token=``: the hands dealt so far (how each finished one ended) and
  the tile names; ``GET /api/rooms/{id}/hands/{n}?token=``: hand ``n``'s replay (0-based; 409
  for a hand still in play). A private room's hands need one of its tokens or the invite.

WebSocket ``/ws/rooms/{id}?token=...``: a seat token plays that place; the watch token, the
invite (private rooms) or no token (public rooms) watches. Messages: docs/web.md.

With a tournament database (``tournament_db``), the tournament pages and their API under ``/t/``
and ``/api/t/`` (``guobiao.server.tournament``): public standings, seating, score sheets, the
projector view and its clock, referee login and score entry (``guobiao.tournament.accounts``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from guobiao.server.protocol import ProtocolError, parse_client_message, tile_table
from guobiao.server.rooms import Limits, Lobby, Notice, Room, RoomError
from guobiao.server.store import RoomStore

__all__ = ["Hub", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"
_log = logging.getLogger("guobiao.server")

_HTTP_STATUS = {
    "no_room": 404,
    "no_hand": 404,
    "forbidden": 403,
    "bad_invite": 403,
    "hand_live": 409,
    "busy": 503,
}


class CreateRoom(BaseModel):
    name: str = ""
    private: bool = False
    bot_kind: str = "efficiency"
    player: str | None = None
    place: int | None = None
    seed: int | None = None


class JoinRoom(BaseModel):
    name: str
    place: int | None = None
    invite: str | None = None


class AddBots(BaseModel):
    owner_token: str
    kind: str | None = None
    place: int | None = None


class StartRoom(BaseModel):
    owner_token: str
    fill: bool = False


class Conn:
    """One client socket: its place (None: a spectator), its outgoing queue, its flood meter."""

    QUEUE = 512

    def __init__(self, ws: WebSocket, place: int | None) -> None:
        self.ws = ws
        self.place = place
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(self.QUEUE)
        self.recent: deque[float] = deque()
        self.warned_at = -1.0

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client that reads nothing loses its oldest messages, not others'
        time (states are whole snapshots, so the newest one is enough)."""
        while self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(message)

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


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


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

    def save(self, room: Room) -> None:
        if room.saved_version != room.version:
            self.store.save(room.id, room.to_dict())
            room.saved_version = room.version

    def publish(self, room: Room, notices: list[Notice]) -> None:
        """Save the room, then send each client its notices and its own fresh state."""
        self.save(room)
        now = self.clock()
        for conn in list(self.conns.get(room.id, ())):
            me = conn.place if conn.place is not None else -1
            for notice in notices:
                if notice.to is None or notice.to == me:
                    conn.send(notice.message)
            conn.send(room.state_for(conn.place, now))

    def wake(self, room: Room) -> None:
        event = self.wakes.get(room.id)
        if event is not None:
            event.set()
        self.ensure_driver(room)

    def ensure_driver(self, room: Room) -> None:
        if room.started and not room.ended and room.id not in self.drivers:
            self.wakes.setdefault(room.id, asyncio.Event())
            self.drivers[room.id] = asyncio.get_running_loop().create_task(self._drive(room))

    async def _drive(self, room: Room) -> None:
        event = self.wakes[room.id]
        try:
            while not room.ended:
                event.clear()
                before = room.version
                notices = room.poll(self.clock(), max_steps=64)
                if notices or room.version != before:
                    self.publish(room, notices)
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

    async def stop(self) -> None:
        tasks = list(self.drivers.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def serve_socket(self, ws: WebSocket, room_id: str, token: str) -> None:
        await ws.accept()
        room = self.lobby.rooms.get(room_id)
        if room is None:
            await ws.send_json(_error("no_room", "no such room"))
            await ws.close(4404)
            return
        place = room.place_of_token(token) if token else None
        if place is None and not room.may_watch(token):
            await ws.send_json(_error("bad_token", "this token opens no seat in this room"))
            await ws.close(4403)
            return
        conn = Conn(ws, place)
        self.conns.setdefault(room.id, set()).add(conn)
        room.connect(place)
        sender = asyncio.get_running_loop().create_task(self._sender(conn))
        conn.send(
            {
                "type": "welcome",
                "room": room.id,
                "you": place,
                "role": "player" if place is not None else "spectator",
                "name": room.places[place].name if place is not None else None,
                "tiles": tile_table(),
            }
        )
        self.publish(room, [])
        self.wake(room)
        try:
            await self._receive(conn, room)
        except WebSocketDisconnect:
            pass
        finally:
            self.conns.get(room.id, set()).discard(conn)
            sender.cancel()
            room.disconnect(place, self.clock())
            self.publish(room, [])
            self.wake(room)

    async def _receive(self, conn: Conn, room: Room) -> None:
        ws = conn.ws
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            now = self.clock()
            verdict = conn.meter(now, room.limits.rate)
            if verdict == "close":
                await ws.close(1008)
                return
            if verdict == "drop":
                if now - conn.warned_at >= 1.0:
                    conn.warned_at = now
                    conn.send(_error("rate_limited", "too many messages: slow down"))
                continue
            text = message.get("text")
            if not isinstance(text, str):
                conn.send(_error("bad_message", "send JSON text frames"))
                continue
            try:
                parsed = parse_client_message(text)
            except ProtocolError as err:
                conn.send(_error(err.code, err.message))
                continue
            if parsed.type == "ping":
                conn.send({"type": "pong"})
                continue
            if conn.place is None:
                conn.send(_error("spectator", "spectators cannot act"))
                continue
            assert parsed.action is not None
            try:
                notices = room.act(conn.place, parsed.action, now)
            except RoomError as err:
                conn.send(_error(err.code, err.message))
                continue
            self.publish(room, notices)
            self.wake(room)

    async def _sender(self, conn: Conn) -> None:
        with contextlib.suppress(Exception):
            while True:
                await conn.ws.send_json(await conn.queue.get())


def _refuse(err: RoomError) -> HTTPException:
    return HTTPException(
        _HTTP_STATUS.get(err.code, 400), {"code": err.code, "message": err.message}
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
) -> FastAPI:
    """The app; rooms saved in ``db_path`` (SQLite, ``":memory:"`` for none) are resumed. With
    ``tournament_db`` (a SQLAlchemy URL, opened and migrated with ``open_store``) it also serves
    the tournament pages (``guobiao.server.tournament``): login cookies are signed with
    ``secret`` (default: ``secret.key`` beside ``db_path``), last ``session_seconds`` by the
    ``wall`` clock; the database is checked for outside changes every ``check_interval`` s."""
    limits = limits or Limits()
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
        for room in lobby.rooms.values():
            hub.ensure_driver(room)
        yield
        await hub.stop()
        if tournaments is not None:
            tournaments.close()

    app = FastAPI(title="guobiao", lifespan=lifespan)
    app.state.hub = hub

    def owned(room_id: str, owner_token: str) -> Room:
        room = lobby.get(room_id)
        if not secrets.compare_digest(owner_token, room.owner_token):
            raise RoomError("forbidden", "only the room's creator may do this")
        return room

    @app.get("/api/rooms")
    async def list_rooms(finished: bool = False) -> list[dict[str, Any]]:
        return lobby.finished() if finished else lobby.public()

    @app.post("/api/rooms")
    async def create_room(body: CreateRoom) -> dict[str, Any]:
        try:
            room = lobby.create(
                name=body.name, private=body.private, bot_kind=body.bot_kind, seed=body.seed
            )
            place, token = (None, None)
            if body.player is not None:
                place, token = room.join(body.player, body.place)
        except RoomError as err:
            raise _refuse(err) from None
        hub.save(room)
        return {
            "id": room.id,
            "owner_token": room.owner_token,
            "watch_token": room.watch_token,
            "invite": room.invite,
            "place": place,
            "token": token,
            "room": room.info(),
        }

    @app.get("/api/rooms/{room_id}")
    async def get_room(room_id: str) -> dict[str, Any]:
        try:
            return lobby.get(room_id).info()
        except RoomError as err:
            raise _refuse(err) from None

    @app.post("/api/rooms/{room_id}/join")
    async def join_room(room_id: str, body: JoinRoom) -> dict[str, Any]:
        try:
            room = lobby.get(room_id)
            if room.private and not secrets.compare_digest(body.invite or "", room.invite or "?"):
                raise RoomError("bad_invite", "a private room needs its invite")
            place, token = room.join(body.name, body.place)
        except RoomError as err:
            raise _refuse(err) from None
        hub.publish(room, [])
        return {"place": place, "token": token, "room": room.info()}

    @app.post("/api/rooms/{room_id}/bots")
    async def add_bots(room_id: str, body: AddBots) -> dict[str, Any]:
        try:
            room = owned(room_id, body.owner_token)
            room.add_bots(body.kind, body.place)
        except RoomError as err:
            raise _refuse(err) from None
        hub.publish(room, [])
        return room.info()

    @app.post("/api/rooms/{room_id}/start")
    async def start_room(room_id: str, body: StartRoom) -> dict[str, Any]:
        try:
            room = owned(room_id, body.owner_token)
            if body.fill and not room.started:
                room.add_bots()
            notices = room.start(hub.clock())
        except RoomError as err:
            raise _refuse(err) from None
        hub.publish(room, notices)
        hub.wake(room)
        return room.info()

    def replayable(room_id: str, token: str) -> Room:
        room = lobby.get(room_id)
        if not room.may_replay(token):
            raise RoomError("forbidden", "a private room's hands need one of its tokens")
        return room

    @app.get("/api/rooms/{room_id}/hands")
    async def room_hands(room_id: str, token: str = "") -> dict[str, Any]:
        try:
            room = replayable(room_id, token)
        except RoomError as err:
            raise _refuse(err) from None
        hands = room.hands_info() if room.started else []
        return {"room": room.info(), "hands": hands, "tiles": tile_table()}

    @app.get("/api/rooms/{room_id}/hands/{number}")
    async def hand_replay(room_id: str, number: int, token: str = "") -> dict[str, Any]:
        try:
            return replayable(room_id, token).replay(number)
        except RoomError as err:
            raise _refuse(err) from None

    @app.websocket("/ws/rooms/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str, token: str = "") -> None:
        await hub.serve_socket(websocket, room_id, token)

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/room/{room_id}", include_in_schema=False)
    async def room_page(room_id: str) -> FileResponse:
        return FileResponse(STATIC / "room.html")

    @app.get("/room/{room_id}/replay", include_in_schema=False)
    async def replay_page(room_id: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

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
        )
        app.include_router(router)
        app.state.tournaments = tournaments
        app.state.watcher = router.watcher  # type: ignore[attr-defined]

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
