"""Persistence of rooms: one row of JSON per room in an embedded SQLite file (stdlib ``sqlite3``),
and a few server settings (the tournaments' session clocks) as key-value rows.

A room is written whole after every change that clients see (its hands as ``Game.record()``), in
one transaction, before the change is sent to anyone: what a client saw survives the server
process dying (WAL, ``synchronous=NORMAL``; checkpoints in a background thread).

A room the server is done with (its session over, or abandoned) is *closed*: its row stays, for
the replays of its hands, but a restart does not load it; a public room whose session is over is
listed among the finished ones (:meth:`RoomStore.finished`). An unstarted room that expired is
deleted. Logged-out referee sessions are remembered until they would have expired anyway
(:meth:`RoomStore.revoke`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

__all__ = ["RoomStore"]


class RoomStore:
    """``RoomStore(path)``: the rooms of a server; ``":memory:"`` for tests."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit is in the log before a client hears of the change, so it
            # survives the server process dying (kill -9); only an OS crash or a power cut can
            # lose the last moments. FULL would fsync every action: 2-3 ms of the event loop
            # each, the largest cost under load (docs/web.md, Load test).
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, data TEXT NOT NULL)"
            )
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(rooms)")}
            if "closed" not in columns:  # a database of an earlier version
                # closed: NULL while the room is live, else the order rooms were closed in;
                # listing: a finished public room's lobby entry
                self._db.execute("ALTER TABLE rooms ADD COLUMN closed INTEGER")
                self._db.execute("ALTER TABLE rooms ADD COLUMN listing TEXT")
            if "info" not in columns:  # before closed rooms kept their info (GET /api/rooms/{id})
                self._db.execute("ALTER TABLE rooms ADD COLUMN info TEXT")
            self._db.execute("CREATE INDEX IF NOT EXISTS rooms_closed ON rooms (closed)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS revoked (session TEXT PRIMARY KEY, expires REAL NOT NULL)"
            )
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if str(path) != ":memory:":
            # Checkpoints (copying the log into the database, with an fsync) run in a thread of
            # their own, never inside a save on the event loop: under load they were the long
            # pauses (docs/web.md, Load test).
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint, args=(str(path),), name="rooms-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _checkpoint(self, path: str, every: float = 1.0) -> None:
        db = sqlite3.connect(path, check_same_thread=False)
        try:
            while not self._stop.wait(every):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:  # the database went away (closed, deleted): nothing to keep up
            pass
        finally:
            db.close()

    def save(self, room_id: str, data: dict[str, Any], *, insert: bool = True) -> None:
        """Write a room's row; ``insert=False``: only over a row that is there (a closed room's:
        one deleted is not made again, to be resumed at the next start)."""
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with self._lock, self._db:
            if not insert:
                self._db.execute("UPDATE rooms SET data = ? WHERE id = ?", (text, room_id))
                return
            self._db.execute(
                "INSERT INTO rooms (id, data) VALUES (?, ?) "
                "ON CONFLICT(id) DO UPDATE SET data = excluded.data",
                (room_id, text),
            )

    def load_all(self) -> list[dict[str, Any]]:
        """Every room not closed (to resume at start)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT data FROM rooms WHERE closed IS NULL ORDER BY rowid"
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def load(self, room_id: str) -> dict[str, Any] | None:
        """One room, closed or not (None: no such room)."""
        with self._lock:
            row = self._db.execute("SELECT data FROM rooms WHERE id = ?", (room_id,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def close_room(
        self,
        room_id: str,
        listing: dict[str, Any] | None = None,
        info: dict[str, Any] | None = None,
        keep: int | None = None,
    ) -> None:
        """Close a room: kept for its replays, no longer resumed; ``listing``: its entry among
        the finished rooms (None: not listed); ``info``: what ``GET /api/rooms/{id}`` answers
        for it, read without rebuilding the room. With ``keep``, only the ``keep`` rooms
        closed last stay: older closed rooms are deleted (their replays with them)."""
        text = None if listing is None else json.dumps(listing, ensure_ascii=False)
        about = None if info is None else json.dumps(info, ensure_ascii=False)
        with self._lock, self._db:
            self._db.execute(
                "UPDATE rooms SET closed = (SELECT COALESCE(MAX(closed), 0) + 1 FROM rooms), "
                "listing = ?, info = ? WHERE id = ? AND closed IS NULL",
                (text, about, room_id),
            )
            if keep is not None:  # closed numbers rise: the oldest are the lowest
                self._db.execute(
                    "DELETE FROM rooms WHERE closed <= (SELECT MAX(closed) FROM rooms) - ?",
                    (keep,),
                )

    def update_closed(
        self, room_id: str, listing: dict[str, Any] | None, info: dict[str, Any]
    ) -> None:
        """A closed room's lobby entry and info again (its ``next`` table, after Play again);
        nothing for a room not closed."""
        text = None if listing is None else json.dumps(listing, ensure_ascii=False)
        about = json.dumps(info, ensure_ascii=False)
        with self._lock, self._db:
            self._db.execute(
                "UPDATE rooms SET listing = ?, info = ? WHERE id = ? AND closed IS NOT NULL",
                (text, about, room_id),
            )

    def info(self, room_id: str) -> dict[str, Any] | None:
        """A closed room's info as it was closed (None: live, unknown, or closed before rooms
        kept it)."""
        with self._lock:
            row = self._db.execute(
                "SELECT info FROM rooms WHERE id = ? AND closed IS NOT NULL", (room_id,)
            ).fetchone()
        return None if row is None or row[0] is None else dict(json.loads(row[0]))

    def exists(self, room_id: str) -> bool:
        """Whether the room is in the store (live or closed)."""
        with self._lock:
            row = self._db.execute("SELECT 1 FROM rooms WHERE id = ?", (room_id,)).fetchone()
        return row is not None

    def delete(self, room_id: str) -> None:
        with self._lock, self._db:
            self._db.execute("DELETE FROM rooms WHERE id = ?", (room_id,))

    def finished(self, limit: int = 20) -> list[dict[str, Any]]:
        """The lobby entries of the last ``limit`` finished public rooms, the latest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT listing FROM rooms WHERE listing IS NOT NULL ORDER BY closed DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def revoke(self, session: str, expires: float, now: float) -> None:
        """Remember a logged-out session until ``expires`` (when its cookie stops working
        anyway); sessions past their expiry are forgotten."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM revoked WHERE expires <= ?", (now,))
            self._db.execute(
                "INSERT OR REPLACE INTO revoked (session, expires) VALUES (?, ?)",
                (session, expires),
            )

    def revoked(self, session: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM revoked WHERE session = ?", (session,)).fetchone()
        return row is not None

    def get_value(self, key: str) -> str | None:
        """A server setting (the tournaments' session clocks), or None."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put_value(self, key: str, value: str) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)
        with self._lock:
            self._db.close()
