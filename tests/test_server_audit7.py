"""The seventh audit of ``guobiao serve`` as a public server (docs/web.md, Limits and security).

- HTTP requests had no limit: one address could ask for pages, the lobby list, replays and static
  files as fast as it could send them. Each address now has a token bucket of
  ``Limits.http_burst`` (600) requests, refilled at one per ``http_every`` (0.02 s, 50 a second):
  over it, 429 ``slow_down`` with ``Retry-After``. A lobby polling, a page loading its files, a
  club behind one address: never refused.
- Kept replays were the answers' dicts, 256 of them: a replay's JSON is 20-100 kB, its tree of
  Python objects about six times that, so up to ~80 MB. They are now kept as the JSON bytes they
  are sent as, at most ``Limits.replay_bytes`` (8 MiB) and 256 of them.
- A body the framework's JSON reader refuses (nested 10,000 deep, a 5,000-digit number) and a
  method a path does not take were answered ``{"detail": "There was an error parsing the body"}``:
  not the documented shape of a refusal. They now carry a ``code`` (``bad_json``, ``not_allowed``).
"""

from __future__ import annotations

import gc
import re
import sys
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from guobiao.server.app import STATIC, create_app
from guobiao.server.guards import RateLimiter
from guobiao.server.rooms import Limits, Room
from guobiao.server.store import RoomStore
from test_server_hardening import SECRET, Clock, assert_security_headers, at, behind_proxy

# -- HTTP requests per address -----------------------------------------------------------------


def test_http_requests_are_limited_per_address_with_retry_after(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(http_burst=5, http_every=10.0)
    app = create_app(
        tmp_path / "r.sqlite3", limits=limits, clock=clock, trusted_proxies=["127.0.0.1"]
    )
    with behind_proxy(app) as client:
        # pages, the lobby list, the API, static files: every request takes a token
        for path in ("/", "/api/rooms", "/help", "/static/app.css", "/api/fans"):
            assert client.get(path, headers=at("10.0.0.1")).status_code == 200, path
        refused = client.get("/api/rooms", headers=at("10.0.0.1"))
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "10"
        detail = refused.json()["detail"]
        assert detail["code"] == "slow_down" and detail["params"] == {"retry_after": 10}
        assert_security_headers(refused.headers, "/api/rooms")
        # a POST too, before its body is read
        made = client.post("/api/rooms", json={"player": "me"}, headers=at("10.0.0.1"))
        assert made.status_code == 429
        # another address is not affected
        assert client.get("/api/rooms", headers=at("10.0.0.2")).status_code == 200
        # a token comes back every 10 s: half-way there, the wait is 5 s
        clock.now += 5.0
        assert client.get("/", headers=at("10.0.0.1")).headers["Retry-After"] == "5"
        clock.now += 5.0
        assert client.get("/", headers=at("10.0.0.1")).status_code == 200
        assert client.get("/", headers=at("10.0.0.1")).status_code == 429


def test_the_default_allows_a_burst_of_600_then_50_a_second(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(tmp_path / "r.sqlite3", clock=clock)
    with TestClient(app) as client:
        answers = [client.get("/api/settings").status_code for _ in range(601)]
        assert answers == [200] * 600 + [429]
        clock.now += 1.0  # 50 more
        answers = [client.get("/api/settings").status_code for _ in range(51)]
        assert answers == [200] * 50 + [429]


def page_files(page: str) -> list[str]:
    """The files a page loads: its own scripts and styles, and every tile picture."""
    html = (STATIC / page).read_text(encoding="utf-8")
    own = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    tiles = [f"/static/tiles/{p.name}" for p in sorted((STATIC / "tiles").glob("*.svg"))]
    return own + tiles


def test_ten_page_loads_at_once_from_one_address_are_all_answered(tmp_path: Path) -> None:
    """A table page with every file it loads, ten times at once (ten people behind one
    address, or one reloading): none refused."""
    files = page_files("room.html")
    assert len(files) > 40
    with TestClient(create_app(tmp_path / "r.sqlite3", clock=Clock())) as client:
        made = client.post("/api/rooms", json={"player": "me"}).json()
        asked = [f"/room/{made['id']}", *files, "/api/settings", f"/api/rooms/{made['id']}"]
        statuses = {client.get(path).status_code for _ in range(10) for path in asked}
        assert statuses == {200}, statuses


def test_a_club_of_lobbies_behind_one_address_is_never_refused() -> None:
    """20 lobby tabs behind one address for 10 minutes, as static/lobby.js polls: the open
    tables every 5 s, each of 20 remembered tables every 10 s, the finished ones every 30 s
    (45 requests a second in all), the first load of each tab at once."""
    limits = Limits()
    bucket = RateLimiter(limits.http_burst, limits.http_every)
    refused = 0
    for _ in range(20 * 25):  # each tab at once: the page, its files, its first lists
        refused += not bucket.allow("club", 0.0)
    for tick in range(1, 10 * 60 * 10 + 1):  # tenths of a second
        now = tick / 10
        for tab in range(20):
            at_tab = now + tab / 20  # the tabs were opened at different moments
            if tick % 50 == 0:
                refused += not bucket.allow("club", at_tab)
            if tick % 100 == 0:
                refused += sum(not bucket.allow("club", at_tab) for _ in range(20))
            if tick % 300 == 0:
                refused += not bucket.allow("club", at_tab)
    assert refused == 0


# -- replays kept, bounded in bytes ------------------------------------------------------------


def finished_room(seed: int = 5) -> Room:
    """A practice table of four bots played to the end of its 16 hands (no clock: time moves
    by hand)."""
    limits = Limits(bot_delay=0, between_hands=0, bots_between=0, claim=0.001)
    room = Room("audit7-room", limits=limits, seed=seed, practice=True)
    room.add_bots()
    room.start(0.0)
    now = 0.0
    while not room.ended:
        now += 1.0
        room.poll(now)
    return room


@pytest.fixture(scope="module")
def saved_room(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return finished_room().to_dict()


def server_with(tmp_path: Path, saved: dict[str, Any], limits: Limits) -> TestClient:
    """A server whose database holds the finished room (closed when the server starts)."""
    store = RoomStore(tmp_path / "rooms.sqlite3")
    store.save(saved["id"], saved)
    store.close()
    app = create_app(tmp_path / "rooms.sqlite3", limits=limits, secret=SECRET)
    return TestClient(app)


def deep_size(root: object) -> int:
    """Bytes of ``root`` and of everything it holds (each object once; no type or function)."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | ModuleType | FunctionType):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def replays(client: TestClient, room_id: str) -> list[bytes]:
    bodies = []
    for number in range(16):
        answer = client.get(f"/api/rooms/{room_id}/hands/{number}")
        assert answer.status_code == 200, answer.text
        bodies.append(answer.content)
    return bodies


def test_kept_replays_are_their_json_not_a_tree_of_objects(
    tmp_path: Path, saved_room: dict[str, Any]
) -> None:
    with server_with(tmp_path, saved_room, Limits()) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        bodies = replays(client, saved_room["id"])
        sent = sum(len(b) for b in bodies)
        assert len(hub.replays) == 16
        # the 16 replays (about 0.9 MB of JSON) take little more than their JSON: they took
        # about six times as much as dicts
        assert deep_size(hub.replays) < 1.1 * sent + 65_536, (deep_size(hub.replays), sent)


def test_kept_replays_are_bounded_in_bytes_and_rebuilt_when_dropped(
    tmp_path: Path, saved_room: dict[str, Any]
) -> None:
    limits = Limits(replay_bytes=300_000)
    with server_with(tmp_path, saved_room, limits) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        bodies = replays(client, saved_room["id"])
        assert sum(len(b) for b in bodies) > 3 * limits.replay_bytes
        assert 0 < len(hub.replays) < 16
        assert hub.replays.nbytes <= limits.replay_bytes
        assert deep_size(hub.replays) < limits.replay_bytes + 65_536
        # the first hand's was dropped: asked again, it is built again, the same
        assert hub.replays.get((saved_room["id"], 0)) is None
        again = client.get(f"/api/rooms/{saved_room['id']}/hands/0")
        assert again.status_code == 200 and again.content == bodies[0]


# -- refusals the framework writes ---------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    ["[" * 10_000, '{"practice": true, "seed": ' + "9" * 5_000 + "}"],
    ids=["nested", "long-number"],
)
def test_a_body_json_cannot_read_is_a_coded_refusal(tmp_path: Path, body: str) -> None:
    with TestClient(create_app(tmp_path / "r.sqlite3")) as client:
        answer = client.post(
            "/api/rooms", content=body, headers={"Content-Type": "application/json"}
        )
        assert answer.status_code == 400
        detail = answer.json()["detail"]
        assert detail["code"] == "bad_json" and detail["params"] == {}
        assert "nested too deep" in detail["message"]


def test_a_method_a_path_does_not_take_is_a_coded_refusal(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "r.sqlite3")) as client:
        answer = client.delete("/api/rooms")
        assert answer.status_code == 405
        assert answer.json()["detail"]["code"] == "not_allowed"
