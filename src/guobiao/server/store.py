"""Persistence of rooms: one row of JSON per room in an embedded SQLite file (stdlib ``sqlite3``).

A room is written whole after every change that clients see (its hands as ``Game.record()``), in
one transaction, before the change is sent to anyone: what a client saw survives a crash.
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
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, data TEXT NOT NULL)"
            )

    def save(self, room_id: str, data: dict[str, Any]) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO rooms (id, data) VALUES (?, ?) "
                "ON CONFLICT(id) DO UPDATE SET data = excluded.data",
                (room_id, text),
            )

    def load_all(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT data FROM rooms ORDER BY rowid").fetchall()
        return [json.loads(row[0]) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
