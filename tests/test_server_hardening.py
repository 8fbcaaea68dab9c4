"""``guobiao serve`` as a public server: every client may be hostile and everything a stranger can
make is bounded (docs/web.md, Limits and security). Each test names the finding it covers:
server seeds, room creation and expiry, sockets per room and address, invites, login throttles,
logout, unknown tournaments, numeric ranges, security headers."""

from __future__ import annotations

import contextlib
import gc
import json
import random
import re
import threading
import time
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("fastapi")

from click.testing import CliRunner
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from guobiao.cli import main
from guobiao.server import app as app_module
from guobiao.server import tournament as tournament_module
from guobiao.server.app import create_app
from guobiao.server.guards import FailureThrottle, RateLimiter, TrustedProxies
from guobiao.server.rooms import Limits, Room
from guobiao.server.tournament import COOKIE
from guobiao.tournament.accounts import Account, authenticate

PROXY = "127.0.0.1"
SLOW = Limits(first_discard=60, turn=60, claim=60, grace=60, bot_delay=0, between_hands=0)
SECRET = b"s" * 32
BIG = 2**63

Message = dict[str, Any]


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def behind_proxy(app: Any) -> TestClient:
    """A client whose requests come from the trusted proxy: ``X-Forwarded-For`` names the
    client address (``at(address)``)."""
    return TestClient(app, client=(PROXY, 40000))


def at(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def app_with(tmp_path: Path, limits: Limits = SLOW, **options: Any) -> Any:
    return create_app(tmp_path / "rooms.sqlite3", limits=limits, trusted_proxies=[PROXY], **options)


def hub_of(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def create(client: TestClient, address: str = "10.0.0.1", **body: Any) -> Any:
    return client.post("/api/rooms", json={"player": "me", **body}, headers=at(address))


def settle(done: Any, seconds: float = 10.0) -> None:
    """Wait for the server to catch up (a closed socket is let go on its own time)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the server did not catch up"
        time.sleep(0.01)


def refused_socket(client: TestClient, url: str, headers: dict[str, str]) -> tuple[Message, int]:
    """The error message and the close code of a socket the server refuses."""
    with client.websocket_connect(url, headers=headers) as ws:
        error: Message = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return error, closed.value.code


# -- 1. seeds are the server's -----------------------------------------------------------------


def test_a_client_seed_is_refused_except_for_a_practice_table(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path)) as client:
        chosen = create(client, seed=7)
        assert chosen.status_code == 400
        assert "practice" in chosen.json()["detail"]["message"]
        assert create(client, seed=7, private=True).status_code == 400
        assert hub_of(client).lobby.rooms == {}  # nothing made

        practice = create(client, seed=7, practice=True)
        assert practice.status_code == 200
        made = practice.json()
        room = hub_of(client).lobby.rooms[made["id"]]
        assert room.seed == 7 and made["place"] == 0
        assert [p["kind"] for p in made["room"]["places"]] == ["human", "bot", "bot", "bot"]
        listed = {r["id"]: r for r in client.get("/api/rooms").json()}
        assert listed[made["id"]]["practice"] is True
        assert client.get(f"/api/rooms/{made['id']}").json()["practice"] is True
        with client.websocket_connect(f"/ws/rooms/{made['id']}") as ws:
            assert ws.receive_json()["type"] == "welcome"
            assert ws.receive_json()["room"]["practice"] is True
        # a practice table has no empty place to take
        join = client.post(
            f"/api/rooms/{made['id']}/join", json={"name": "Bob", "invite": made["invite"]}
        )
        assert join.status_code == 400 and join.json()["detail"]["code"] == "full"

        shared = create(client).json()
        assert shared["room"]["practice"] is False


def test_server_seeds_do_not_follow_the_random_module(tmp_path: Path) -> None:
    """Seeds come from ``secrets``: seeding ``random`` alike before two rooms changes nothing."""
    with behind_proxy(app_with(tmp_path)) as client:
        seeds = []
        for _ in range(2):
            random.seed(1234)
            made = create(client).json()
            seeds.append(hub_of(client).lobby.rooms[made["id"]].seed)
    assert seeds[0] != seeds[1]


# -- 2. creating rooms: per address, expiry, memory ---------------------------------------------


def test_room_creation_is_limited_per_client_address(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(create_burst=3, create_every=60.0)
    with behind_proxy(app_with(tmp_path, limits, clock=clock)) as client:
        assert [create(client, "10.0.0.1").status_code for _ in range(4)] == [200, 200, 200, 429]
        assert "wait" in create(client, "10.0.0.1").json()["detail"]["message"]
        assert create(client, "10.0.0.2").status_code == 200  # another client is not held up
        clock.now += 60.0
        assert create(client, "10.0.0.1").status_code == 200  # one more a minute
        assert create(client, "10.0.0.1").status_code == 429
        # a client's own X-Forwarded-For is not believed when it is not a proxy
    with TestClient(app_with(tmp_path / "direct", limits), client=("10.9.9.9", 1)) as direct:
        codes = [create(direct, f"10.1.0.{i}").status_code for i in range(4)]
        assert codes == [200, 200, 200, 429]


def test_the_rate_limiter_remembers_a_bounded_number_of_addresses() -> None:
    limiter = RateLimiter(burst=2, every=10.0, max_keys=100)
    for i in range(5000):
        assert limiter.allow(f"10.0.{i // 256}.{i % 256}", 0.0)
    assert len(limiter) == 100
    assert limiter.allow("a", 0.0) and limiter.allow("a", 0.0)
    assert not limiter.allow("a", 1.0)
    assert limiter.allow("a", 10.0) and not limiter.allow("a", 10.0)


def test_unstarted_rooms_expire_so_the_cap_cannot_be_exhausted(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(max_rooms=3, idle_close=100.0, create_burst=100)
    app = app_with(tmp_path, limits, clock=clock)
    with behind_proxy(app) as client:
        first = [create(client, f"10.0.0.{i}").json()["id"] for i in range(3)]
        busy = create(client, "10.0.0.9")
        assert busy.status_code == 503
        clock.now += 99.0
        assert create(client, "10.0.0.9").status_code == 503  # not idle for long enough yet
        clock.now += 1.0
        fresh = create(client, "10.0.0.9")
        assert fresh.status_code == 200  # the idle ones made room
        hub = hub_of(client)
        assert list(hub.lobby.rooms) == [fresh.json()["id"]]
        for room_id in first:
            assert hub.store.load(room_id) is None  # never started: nothing kept
            assert client.get(f"/api/rooms/{room_id}").status_code == 404
    # nor do they come back after a restart
    with behind_proxy(app_with(tmp_path, limits, clock=clock)) as again:
        assert list(hub_of(again).lobby.rooms) == [fresh.json()["id"]]


def test_a_room_someone_is_connected_to_does_not_expire(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(idle_close=100.0)
    with behind_proxy(app_with(tmp_path, limits, clock=clock)) as client:
        made = create(client).json()
        hub = hub_of(client)
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            ws.receive_json()
            clock.now += 1000.0
            client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
            assert made["id"] in hub.lobby.rooms
        settle(lambda: hub.lobby.rooms[made["id"]].sockets == 0)
        clock.now += 99.0  # idle from the moment the socket closed
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert made["id"] in hub.lobby.rooms
        clock.now += 1.0
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert made["id"] not in hub.lobby.rooms


def test_memory_does_not_grow_with_the_rooms_ever_made(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(idle_close=100.0, create_burst=1000)
    with behind_proxy(app_with(tmp_path, limits, clock=clock)) as client:
        hub = hub_of(client)
        for i in range(40):
            made = create(client, f"10.0.1.{i}").json()
            url = f"/ws/rooms/{made['id']}?token={made['token']}"
            with client.websocket_connect(url, headers=at(f"10.0.1.{i}")) as ws:
                ws.receive_json()
        assert len(hub.lobby.rooms) == 40
        settle(lambda: hub.addresses == {})
        clock.now += 100.0
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert hub.lobby.rooms == {}
        assert hub.conns == {} and hub.addresses == {} and hub.wakes == {} and hub.drivers == {}


def test_the_sweeper_frees_reference_cycles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closed sockets and retired rooms leave reference cycles that the rare full passes `serve`
    sets would keep (the soak test's memory grew with every closed socket): ``collect_cycles``
    frees them, and the sweeper runs it every ``COLLECT_EVERY`` seconds."""

    class Node:
        other: Node

    first, second = Node(), Node()
    first.other, second.other = second, first
    gone = weakref.ref(first)
    del first, second
    gc.disable()
    try:
        assert gone() is not None  # only a cycle pass frees it
        app_module.collect_cycles()
        assert gone() is None
    finally:
        gc.enable()
    passes: list[float] = []
    monkeypatch.setattr(app_module, "COLLECT_EVERY", 0.0)
    monkeypatch.setattr(app_module, "collect_cycles", lambda: passes.append(1.0) or 0.0)
    with behind_proxy(app_with(tmp_path, Limits(idle_close=0.2))):  # a sweep every 0.05 s
        settle(lambda: len(passes) >= 2)


def test_an_abandoned_room_is_closed_and_its_finished_hands_stay(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(first_discard=1e6, turn=1e6, claim=1e6, grace=1e6, idle_close=100.0)
    with behind_proxy(app_with(tmp_path, limits, clock=clock)) as client:
        made = create(client, practice=True).json()
        started = client.post(
            f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]}
        )
        assert started.status_code == 200
        hub = hub_of(client)
        assert made["id"] in hub.drivers
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            assert ws.receive_json()["type"] == "welcome"  # played a while, then left
        settle(lambda: hub.lobby.rooms[made["id"]].sockets == 0)
        clock.now += 100.0
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert made["id"] not in hub.lobby.rooms and made["id"] not in hub.drivers
        assert hub.store.load_all() == []  # a restart does not resume it
        room = client.get(f"/api/rooms/{made['id']}")
        assert room.status_code == 200 and room.json()["started"]
        assert client.get(f"/api/rooms/{made['id']}/hands/0").status_code == 409  # in play
        # its socket shows how it stood, then closes: it is over; the player's own link shows
        # their own seat (their hand), anyone else's the spectators' view
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            welcome = ws.receive_json()
            assert welcome["role"] == "player" and welcome["you"] == made["place"]
            state = ws.receive_json()
            assert state["type"] == "state" and state["you"] == made["place"]
            assert state["view"]["hand"]  # the seat's own tiles
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4410
        with client.websocket_connect(f"/ws/rooms/{made['id']}") as ws:
            assert ws.receive_json()["role"] == "spectator"
            state = ws.receive_json()
            assert state["type"] == "state" and state["you"] is None
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4410


def test_a_finished_room_leaves_memory_and_its_replays_stay(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path)) as client:
        made = create(client, player=None, practice=True, seed=11).json()
        client.post(f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]})
        hub = hub_of(client)
        with client.websocket_connect(f"/ws/rooms/{made['id']}") as watcher:  # someone looked in
            assert watcher.receive_json()["type"] == "welcome"
        deadline = time.monotonic() + 120
        while made["id"] in hub.lobby.rooms:
            assert time.monotonic() < deadline, "the bots did not finish their session"
            time.sleep(0.05)
        assert made["id"] not in hub.drivers and made["id"] not in hub.wakes
        assert client.get(f"/api/rooms/{made['id']}").json()["ended"]
        finished = client.get("/api/rooms", params={"finished": "true"}).json()
        assert [r["id"] for r in finished] == [made["id"]]
        frames = client.get(f"/api/rooms/{made['id']}/hands/15").json()["frames"]
        assert frames[-1]["result"] is not None
        assert len(hub.closed) == 1  # read once, kept in a small cache
    with behind_proxy(app_with(tmp_path)) as again:
        assert hub_of(again).lobby.rooms == {}  # not resumed: it is over
        assert again.get(f"/api/rooms/{made['id']}/hands/15").json()["frames"] == frames
        assert [r["id"] for r in again.get("/api/rooms?finished=true").json()] == [made["id"]]


# -- 3. sockets per room and per address --------------------------------------------------------


def test_spectators_per_room_are_capped(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path, Limits(spectators=2))) as client:
        made = create(client).json()
        url = f"/ws/rooms/{made['id']}"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            assert one.receive_json()["role"] == two.receive_json()["role"] == "spectator"
            error, code = refused_socket(client, url, at("10.0.0.3"))
            assert code == 4429 and error["code"] == "too_many"
            assert "spectators" in error["message"]
            # the players' places are not taken by spectators
            with client.websocket_connect(f"{url}?token={made['token']}") as player:
                assert player.receive_json()["role"] == "player"
        hub = hub_of(client)
        settle(lambda: made["id"] not in hub.conns)
        with client.websocket_connect(url) as three:  # room again once they left
            assert three.receive_json()["role"] == "spectator"


def test_sockets_per_place_are_capped(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path, Limits(seat_sockets=1))) as client:
        made = create(client).json()
        url = f"/ws/rooms/{made['id']}?token={made['token']}"
        with client.websocket_connect(url) as ws:
            assert ws.receive_json()["role"] == "player"
            error, code = refused_socket(client, url, {})
            assert code == 4429 and "seat" in error["message"]


def test_sockets_per_client_address_are_capped(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path, Limits(address_sockets=3))) as client:
        rooms = [create(client, f"10.0.0.{i}").json()["id"] for i in range(2)]
        a = at("10.0.0.7")
        with (
            client.websocket_connect(f"/ws/rooms/{rooms[0]}", headers=a),
            client.websocket_connect(f"/ws/rooms/{rooms[0]}", headers=a),
            client.websocket_connect(f"/ws/rooms/{rooms[1]}", headers=a),
        ):
            assert hub_of(client).addresses == {"10.0.0.7": 3}
            error, code = refused_socket(client, f"/ws/rooms/{rooms[1]}", a)
            assert code == 4429 and "address" in error["message"]
            with client.websocket_connect(f"/ws/rooms/{rooms[1]}", headers=at("10.0.0.8")) as b:
                assert b.receive_json()["type"] == "welcome"
        settle(lambda: hub_of(client).addresses == {})


# -- 4. a place is taken with the invite ---------------------------------------------------------


def test_an_empty_place_is_taken_only_with_the_invite(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path)) as client:
        made = create(client).json()  # a public room, listed in the lobby
        assert made["invite"]
        listed = json.dumps(client.get("/api/rooms").json())
        assert made["id"] in listed and made["invite"] not in listed
        url = f"/api/rooms/{made['id']}/join"
        for body in (
            {"name": "Eve"},
            {"name": "Eve", "invite": "guess"},
            {"name": "Eve", "invite": made["watch_token"]},
        ):
            refused = client.post(url, json=body)
            assert refused.status_code == 403 and refused.json()["detail"]["code"] == "bad_invite"
        state = client.get(f"/api/rooms/{made['id']}").json()
        assert [p["kind"] for p in state["places"]] == ["human", "empty", "empty", "empty"]
        joined = client.post(url, json={"name": "Bob", "invite": made["invite"]})
        assert joined.status_code == 200 and joined.json()["place"] == 1


def test_tokens_of_any_text_are_refused_never_a_500(tmp_path: Path) -> None:
    app = app_with(tmp_path)
    with TestClient(app, client=(PROXY, 1), raise_server_exceptions=False) as client:
        made = create(client, private=True).json()
        url = f"/api/rooms/{made['id']}"
        for token in ("é", "令牌", "\x00"):
            join = client.post(f"{url}/join", json={"name": "Eve", "invite": token})
            assert join.status_code == 403, token
            start = client.post(f"{url}/start", json={"owner_token": token, "fill": True})
            assert start.status_code == 403, token
            assert client.get(f"{url}/hands", params={"token": token}).status_code == 403
            socket = f"/ws/rooms/{made['id']}?token={quote(token)}"
            error, code = refused_socket(client, socket, {})
            assert code == 4403 and error["code"] == "bad_token"


def test_the_pages_take_a_place_with_the_invite() -> None:
    static = Path(__file__).resolve().parents[1] / "src" / "guobiao" / "server" / "static"
    lobby = (static / "lobby.js").read_text(encoding="utf-8")
    assert "/join" not in lobby  # the lobby lists tables to watch: a place needs the invite
    assert 'practice: mode === "quick"' in lobby  # "play against 3 bots" makes a practice table


# -- 5. referee logins ------------------------------------------------------------------------------


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def club(tmp_path: Path) -> dict[str, str]:
    url = f"sqlite:///{tmp_path / 'guobiao.db'}"
    csv = tmp_path / "players.csv"
    csv.write_text(
        "number,name\n" + "".join(f"{i + 1},P{i + 1}\n" for i in range(4)), encoding="utf-8"
    )
    cli("tournament", "create", "club", "--sessions", "1", "--db", url)
    cli("tournament", "players", "club", str(csv), "--db", url)
    cli("tournament", "draw", "club", "--seed", "3", "--db", url)
    out = cli("tournament", "referee", "club", "--add", "li", "--db", url)
    found = re.search(r"password (\S+)", out)
    assert found
    return {"url": url, "li": found.group(1)}


@pytest.fixture
def referee_app(tmp_path: Path, club: dict[str, str]) -> Iterator[TestClient]:
    app = app_with(tmp_path, tournament_db=club["url"], secret=SECRET, check_interval=0)
    with behind_proxy(app) as client:
        yield client


def log_in(client: TestClient, user: str, password: str, address: str = "10.0.0.1") -> Any:
    return client.post(
        "/api/t/club/login", json={"username": user, "password": password}, headers=at(address)
    )


def test_failed_logins_are_throttled_per_address_and_name_before_any_work(
    referee_app: TestClient, club: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def counting(store: Any, tournament: str, username: str, password: str) -> Account | None:
        calls.append(username)
        return authenticate(store, tournament, username, password)

    monkeypatch.setattr(tournament_module, "authenticate", counting)
    client = referee_app
    # one address trying ever new names: the address is throttled, whatever the name
    for i in range(10):
        assert log_in(client, f"name{i}", "guess", "10.0.0.1").status_code == 401
    assert len(calls) == 10
    for name in ("li", "another"):
        assert log_in(client, name, club["li"], "10.0.0.1").status_code == 429
    assert len(calls) == 10  # refused before any hashing
    assert log_in(client, "li", club["li"], "10.0.0.2").status_code == 200  # others may
    # one name tried from many addresses: the name is throttled (30 failures)
    for i in range(30):
        assert log_in(client, "li", "guess", f"10.1.0.{i // 5}").status_code == 401
    assert log_in(client, "li", club["li"], "10.2.0.1").status_code == 429
    assert len(calls) == 11 + 30
    by_address, by_name = client.app.state.tournament_router.throttles  # type: ignore[attr-defined]
    assert len(by_address) == 7 and len(by_name) == 11  # one entry per key, not per attempt


def test_the_failure_throttle_is_bounded_whatever_is_tried() -> None:
    throttle = FailureThrottle(limit=3, window=600.0, max_keys=50)
    for i in range(10_000):
        throttle.fail(f"name{i}", float(i))
    assert len(throttle) == 50
    for _ in range(3):
        throttle.fail("li", 0.0)
    assert throttle.blocked("li", 599.0) and not throttle.blocked("li", 600.0)
    throttle.fail("bob", 0.0)
    throttle.fail("bob", 0.0)
    throttle.undo("bob")
    throttle.fail("bob", 0.0)
    assert not throttle.blocked("bob", 1.0)


def test_password_hashing_runs_a_few_at_a_time_off_the_event_loop(
    referee_app: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    running = 0
    most = 0
    lock = threading.Lock()
    release = threading.Event()

    def slow(store: Any, tournament: str, username: str, password: str) -> Account | None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(10)
        with lock:
            running -= 1
        return None

    monkeypatch.setattr(tournament_module, "authenticate", slow)
    client = referee_app
    codes: list[int] = []
    threads = [
        threading.Thread(
            target=lambda i=i: codes.append(log_in(client, f"u{i}", "x", f"10.3.0.{i}").status_code)
        )
        for i in range(6)
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    # meanwhile the server answers others at once: the event loop and the thread pool are free
    started = time.monotonic()
    assert client.get("/api/rooms").status_code == 200
    assert client.get("/api/t/club").status_code == 200
    assert time.monotonic() - started < 2.0
    assert most <= tournament_module.HASHING
    release.set()
    for thread in threads:
        thread.join(20)
    assert codes == [401] * 6 and most == tournament_module.HASHING


def test_trusted_proxies_decide_the_client_address() -> None:
    none = TrustedProxies()
    assert none.client("203.0.113.5", "1.2.3.4") == "203.0.113.5"
    proxies = TrustedProxies(["127.0.0.1", "10.0.0.0/8"])
    assert proxies.client("127.0.0.1", "198.51.100.7") == "198.51.100.7"
    # the client's own entries (left) are not believed: the right-most untrusted one is
    assert proxies.client("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3") == "198.51.100.7"
    assert proxies.client("127.0.0.1", "not an address") == "127.0.0.1"
    assert proxies.client("127.0.0.1", None) == "127.0.0.1"
    assert proxies.client("203.0.113.5", "198.51.100.7") == "203.0.113.5"
    with pytest.raises(ValueError):
        TrustedProxies(["proxy.example"])


def test_serve_has_a_trusted_proxy_option() -> None:
    runner = CliRunner()
    helped = runner.invoke(main, ["serve", "--help"])
    assert "--trusted-proxy ADDR" in helped.output and "X-Forwarded-For" in helped.output
    bad = runner.invoke(main, ["serve", "--trusted-proxy", "proxy.example"])
    assert bad.exit_code == 2 and "no IP address or network" in bad.output


# -- 6. logging out ends the session --------------------------------------------------------------


def test_a_cookie_copied_before_logging_out_is_refused(
    tmp_path: Path, club: dict[str, str], referee_app: TestClient
) -> None:
    client = referee_app
    res = log_in(client, "li", club["li"])
    assert res.status_code == 200
    csrf = res.json()["csrf"]
    copied = client.cookies[COOKIE]
    assert client.get("/api/t/club/me").status_code == 200
    out = client.post("/api/t/club/logout", json={}, headers={"X-CSRF-Token": csrf})
    assert out.status_code == 200
    client.cookies.set(COOKIE, copied)
    refused = client.get("/api/t/club/me")
    assert refused.status_code == 401 and "logged out" in refused.json()["detail"]["message"]
    body = {"session": 1, "table": 1, "scores": {"E": 500, "S": 500, "W": 500, "N": 500}}
    entry = client.post("/api/t/club/results", json=body, headers={"X-CSRF-Token": csrf})
    assert entry.status_code == 401
    # a new login works; the old cookie stays dead after a restart too
    assert log_in(client, "li", club["li"]).status_code == 200
    app = app_with(tmp_path, tournament_db=club["url"], secret=SECRET, check_interval=0)
    with behind_proxy(app) as again:
        again.cookies.set(COOKIE, copied)
        assert again.get("/api/t/club/me").status_code == 401


# -- 7. unknown tournaments are not remembered ---------------------------------------------------


def test_unknown_tournament_names_leave_nothing_behind(referee_app: TestClient) -> None:
    client = referee_app
    router = client.app.state.tournament_router  # type: ignore[attr-defined]
    for i in range(200):
        assert client.get(f"/api/t/nobody{i}/clock").status_code == 404
        assert client.get(f"/api/t/nobody{i}/changes?wait=0").status_code == 404
        assert client.get(f"/api/t/nobody{i}").status_code == 404
    assert router.clocks == {}
    assert client.get("/api/t/club/clock").status_code == 200
    assert list(router.clocks) == ["club"]
    reader = router.reader
    for i in range(1000):
        reader.cached(("club", f"key{i}"), lambda: "x" * 100)
    assert len(reader) == tournament_module.CACHED


# -- 8. numbers out of range are refused, never a 500 ----------------------------------------------


def test_numbers_out_of_range_are_refused(tmp_path: Path, club: dict[str, str]) -> None:
    app = app_with(tmp_path, tournament_db=club["url"], secret=SECRET, check_interval=0)
    with TestClient(app, client=(PROXY, 1), raise_server_exceptions=False) as client:
        made = create(client, practice=True).json()
        for path in (
            f"/api/t/club/seating/{BIG}",
            "/api/t/club/seating/-1",
            "/api/t/club/seating/0",
            f"/t/club/sheet/{BIG}/1",
            f"/t/club/sheet/1/{BIG}",
            "/t/club/sheet/1/-5",
            f"/api/t/club/changes?since={BIG}&wait=0",
            "/api/t/club/changes?since=-1&wait=0",
            "/api/t/club/changes?wait=nan",
            f"/api/rooms/{made['id']}/hands/{BIG}",
            f"/api/rooms/{made['id']}/hands/-1",
        ):
            assert client.get(path).status_code == 422, path
        bodies: list[dict[str, Any]] = [
            {"place": BIG},
            {"place": -1},
            {"practice": True, "seed": BIG},
            {"practice": True, "seed": -1},
        ]
        for body in bodies:
            assert create(client, **body).status_code == 422, body
        join = client.post(f"/api/rooms/{made['id']}/join", json={"name": "x", "place": BIG})
        assert join.status_code == 422
        csrf = log_in(client, "li", club["li"]).json()["csrf"]
        good: dict[str, Any] = {
            "session": 1,
            "table": 1,
            "scores": {"E": 500, "S": 500, "W": 500, "N": 500},
        }
        bad_bodies: list[dict[str, Any]] = [
            {**good, "session": BIG},
            {**good, "table": BIG},
            {**good, "session": -1},
            {**good, "scores": {**good["scores"], "E": BIG}},
            {**good, "scores": {**good["scores"], "E": -BIG}},
            {**good, "deductions": {"E": BIG}},
            {**good, "deductions": {"E": -10}},
        ]
        for body in bad_bodies:
            res = client.post("/api/t/club/results", json=body, headers={"X-CSRF-Token": csrf})
            assert res.status_code in (400, 422), body
        res = client.post(
            "/api/t/club/clock",
            json={"action": "start", "session": BIG},
            headers={"X-CSRF-Token": csrf},
        )
        assert res.status_code == 422


# -- 9. security headers on every page ---------------------------------------------------------------


def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path)) as client:
        for path in (
            "/",
            "/room/abc",
            "/room/abc/replay",
            "/static/app.css",
            "/api/rooms",
            "/api/rooms/nope",
        ):
            assert_security_headers(client.get(path).headers, path)


def assert_security_headers(headers: Mapping[str, str], path: str) -> None:
    """CSP (scripts from this server only, no frames), X-Frame-Options and their companions."""
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
    assert "script-src" not in csp and "'unsafe-inline'" not in csp.split("style-src")[0]
    assert headers["x-frame-options"] == "DENY", path
    assert headers["x-content-type-options"] == "nosniff", path
    assert headers["referrer-policy"] == "same-origin", path


def test_the_pages_have_no_inline_script() -> None:
    static = Path(__file__).resolve().parents[1] / "src" / "guobiao" / "server" / "static"
    for page in static.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<script[^>]*>", text):
            assert re.search(r'src="/static/[\w-]+\.js"', tag), (page.name, tag)
        assert not re.search(r"\son\w+\s*=", text), page.name
        assert "javascript:" not in text, page.name


def test_room_type_keeps_the_new_fields_through_a_restart() -> None:
    room = Room("r", practice=True, limits=SLOW, seed=3)
    again = Room.from_dict(room.to_dict(), SLOW, 5.0)
    assert again.practice and again.invite == room.invite and again.idle_for(5.0) == 0.0
    old = {**room.to_dict(), "invite": None}
    del old["practice"]
    legacy = Room.from_dict(old, SLOW, 0.0)
    assert legacy.invite and not legacy.practice


# -- 10. request bodies: bounded, and a refusal is ours, never a 500 ---------------------------------


def test_a_request_body_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    limit = app_module.MAX_BODY
    with TestClient(app_with(tmp_path), raise_server_exceptions=False) as client:
        padded = json.dumps({"name": "x", "pad": "y" * limit}).encode()
        said = client.post(
            "/api/rooms", content=padded, headers={"content-type": "application/json"}
        )
        assert said.status_code == 413
        assert said.json()["detail"]["code"] == "too_large"
        assert_security_headers(said.headers, "413")

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(limit // 1000 + 2):
                yield b" " * 1000

        streamed = client.post(
            "/api/rooms", content=chunks(), headers={"content-type": "application/json"}
        )
        assert streamed.status_code == 413 and streamed.json()["detail"]["code"] == "too_large"
        bogus = client.post(
            "/api/rooms",
            content=b"{}",
            headers={"content-type": "application/json", "content-length": "-1"},
        )
        assert bogus.status_code == 413  # not a length: refused before anything is read
        # a body of the usual size is served as before
        assert client.post("/api/rooms", json={"name": "fine", "player": "me"}).status_code == 200


def test_values_json_cannot_echo_are_a_coded_refusal_not_a_500(
    tmp_path: Path, club: dict[str, str]
) -> None:
    app = app_with(tmp_path, tournament_db=club["url"], secret=SECRET, check_interval=0)
    with TestClient(app, raise_server_exceptions=False) as client:
        made = client.post("/api/rooms", json={"player": "me"}).json()
        for path, body in (
            ("/api/rooms", b'{"seed": 1e400, "practice": true}'),
            ("/api/rooms", b'{"name": NaN}'),
            (f"/api/rooms/{made['id']}/join", b'{"name": Infinity}'),
            (f"/api/rooms/{made['id']}/start", b'{"owner_token": -Infinity}'),
            ("/api/t/club/login", b'{"username": NaN, "password": "x"}'),
        ):
            res = client.post(path, content=body, headers={"content-type": "application/json"})
            assert res.status_code == 422, (path, body, res.text)
            detail = res.json()["detail"]
            assert detail["code"] == "bad_request" and detail["message"], (path, body)
        # what was sent is not repeated back: a long name is named, not echoed
        long_name = "N" * 5000
        res = client.post("/api/rooms", json={"name": long_name, "player": "me"})
        assert res.status_code == 422
        assert "at most 200 characters" in res.json()["detail"]["message"]
        assert long_name[:300] not in res.text


def test_no_generated_api_pages_are_served(tmp_path: Path) -> None:
    with TestClient(app_with(tmp_path)) as client:
        for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
            assert client.get(path).status_code == 404, path


def test_serve_reads_x_forwarded_for_only_from_its_trusted_proxies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn would replace the client's address by X-Forwarded-For from 127.0.0.1 on its own
    (an ssh tunnel or stunnel there would let anyone name any address): serve turns that off,
    and only ``--trusted-proxy`` decides (TrustedProxies)."""
    import uvicorn

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(options))
    monkeypatch.setenv("GUOBIAO_HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(main, ["serve", "--data", str(tmp_path / "data"), "--port", "8999"])
    assert result.exit_code == 0, result.output
    assert ran["proxy_headers"] is False and ran["port"] == 8999


# -- 11. what one address may hold, and what a spectator costs the players ---------------------------


def test_one_address_holds_a_bounded_number_of_tables(tmp_path: Path) -> None:
    limits = Limits(address_rooms=2, create_burst=100)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        assert create(client, "10.0.0.1").status_code == 200
        assert create(client, "10.0.0.1").status_code == 200
        third = create(client, "10.0.0.1")
        assert third.status_code == 429
        assert third.json()["detail"]["code"] == "slow_down"
        assert third.json()["detail"]["params"] == {"max": 2}
        assert create(client, "10.0.0.2").status_code == 200  # another address: its own share
        # IPv6 addresses count by /64: a subscriber's 2**64 addresses are one share
        assert create(client, "2001:db8:1:2::1").status_code == 200
        assert create(client, "2001:db8:1:2:ffff::9").status_code == 200
        assert create(client, "2001:db8:1:2:abcd::1").status_code == 429
        assert create(client, "2001:db8:1:3::1").status_code == 200


def test_ipv6_addresses_are_counted_by_their_64_network() -> None:
    from guobiao.server.guards import client_key

    assert (
        client_key("2001:db8:1:2:3:4:5:6") == client_key("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    )
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:198.51.100.7") == "198.51.100.7"  # IPv4 mapped: the IPv4 one
    assert client_key("198.51.100.7") == "198.51.100.7"
    assert client_key("testclient") == "testclient"
    proxies = TrustedProxies(["127.0.0.1"])
    assert proxies.key("127.0.0.1", "2001:db8::5") == "2001:db8::/64"


def test_a_table_no_one_ever_opened_closes_soon(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(idle_close=1000.0, unclaimed_close=50.0)
    with behind_proxy(app_with(tmp_path, limits, clock=clock)) as client:
        hub = hub_of(client)
        left = create(client).json()
        played = create(client, practice=True).json()
        with client.websocket_connect(f"/ws/rooms/{played['id']}?token={played['token']}") as ws:
            ws.receive_json()
        settle(lambda: hub.lobby.rooms[played["id"]].sockets == 0)
        clock.now += 50.0
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert left["id"] not in hub.lobby.rooms  # made and never opened: closed
        assert played["id"] in hub.lobby.rooms  # opened once: idle_close applies
        clock.now += 950.0
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert played["id"] not in hub.lobby.rooms


def test_sockets_are_opened_at_a_bounded_rate_per_address(tmp_path: Path) -> None:
    limits = Limits(socket_burst=3, socket_every=100.0, spectators=50)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        made = create(client).json()
        url = f"/ws/rooms/{made['id']}"
        for _ in range(3):
            with client.websocket_connect(url, headers=at("10.0.0.7")) as ws:
                assert ws.receive_json()["type"] == "welcome"
        error, code = refused_socket(client, url, at("10.0.0.7"))
        assert code == 4429 and error["code"] == "too_many"
        assert error["params"]["cap"] == "rate"
        with client.websocket_connect(url, headers=at("10.0.0.8")) as ws:  # another address
            assert ws.receive_json()["type"] == "welcome"


def test_spectators_coming_and_going_send_the_players_nothing(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path)) as client:
        made = create(client).json()
        url = f"/ws/rooms/{made['id']}"
        with client.websocket_connect(f"{url}?token={made['token']}") as seat:
            assert seat.receive_json()["type"] == "welcome"
            assert seat.receive_json()["type"] == "state"
            for i in range(5):
                with client.websocket_connect(url, headers=at(f"10.0.1.{i}")) as watcher:
                    assert watcher.receive_json()["type"] == "welcome"
                    state = watcher.receive_json()
                    assert state["type"] == "state"  # the spectator is told the table
            settle(lambda: hub_of(client).lobby.rooms[made["id"]].sockets == 1)
            seat.send_json({"type": "no such message"})
            received = []
            while True:
                message = seat.receive_json()
                received.append(message["type"])
                if message["type"] == "error":
                    break
            assert received == ["error"]  # nothing came from the spectators' sockets


def test_an_answer_to_an_earlier_decision_is_refused_not_applied(tmp_path: Path) -> None:
    with behind_proxy(app_with(tmp_path)) as client:
        made = create(client, practice=True).json()
        start = client.post(
            f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]}
        )
        assert start.status_code == 200
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            state: Message = {}
            while not (state.get("type") == "state" and state.get("must_act")):
                state = ws.receive_json()
            legal = state["view"]["legal_actions"]
            decision = state["decision"]
            ws.send_json({"type": "action", "action": legal[0], "decision": decision - 1})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "stale", error
            assert error["params"] == {"decision": decision}
            now = ws.receive_json()  # the table as it stands, to answer that
            assert now["type"] == "state" and now["decision"] == decision and now["must_act"]
            # the same answer, for the decision shown: taken
            ws.send_json({"type": "action", "action": legal[0], "decision": decision})
            while True:
                message = ws.receive_json()
                assert message["type"] != "error", message
                if message["type"] == "state" and message["decision"] != decision:
                    break


def test_long_polls_are_bounded_per_address_and_let_go(
    referee_app: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament_module, "POLLS_PER_ADDRESS", 1)
    client = referee_app
    version = client.get("/api/t/club/changes?wait=0", headers=at("10.0.0.1")).json()["version"]
    first: dict[str, Any] = {}

    def hold() -> None:  # waits its 2 s: nothing changes
        first["res"] = client.get(
            f"/api/t/club/changes?since={version}&wait=2", headers=at("10.0.0.1")
        )

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        settle(lambda: _polls_open(client) == 1)
        second = client.get(f"/api/t/club/changes?since={version}&wait=1", headers=at("10.0.0.1"))
        assert second.status_code == 429 and second.json()["detail"]["code"] == "slow_down"
        other = client.get("/api/t/club/changes?wait=0", headers=at("10.0.0.2"))
        assert other.status_code == 200
    finally:
        holder.join()
    assert first["res"].status_code == 200 and first["res"].json()["version"] == version
    assert _polls_open(client) == 0  # let go when answered
    assert client.get("/api/t/club/changes?wait=0", headers=at("10.0.0.1")).status_code == 200


def _polls_open(client: TestClient) -> int:
    router = client.app.state.tournament_router  # type: ignore[attr-defined]
    return sum(router.polls.values())  # type: ignore[no-any-return]


# -- 12. what the database keeps, and what reading it costs ----------------------------------------


def test_a_table_bots_play_with_no_one_ever_watching_closes_soon(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(bot_delay=1e6, idle_close=1000.0, unclaimed_close=50.0)
    with behind_proxy(app_with(tmp_path, limits, clock=clock)) as client:
        made = client.post(
            "/api/rooms", json={"practice": True}, headers=at("10.0.0.1")
        ).json()  # no player: four bots
        started = client.post(
            f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]}
        )
        assert started.status_code == 200
        hub = hub_of(client)
        clock.now += 49.0
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert made["id"] in hub.lobby.rooms
        clock.now += 1.0
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        assert made["id"] not in hub.lobby.rooms and made["id"] not in hub.drivers
        assert hub.store.load_all() == []  # closed: kept for its replays, never resumed
        assert client.get(f"/api/rooms/{made['id']}").json()["closed"]


def test_only_the_latest_closed_tables_are_kept(tmp_path: Path) -> None:
    from guobiao.server.store import RoomStore

    store = RoomStore(tmp_path / "rooms.sqlite3")
    try:
        for i in range(6):
            store.save(f"r{i}", {"id": f"r{i}"})
            store.close_room(f"r{i}", info={"id": f"r{i}", "closed": True}, keep=3)
        store.save("live", {"id": "live"})  # a live room is never pruned
        store.close_room("r6", keep=3)  # (not saved: nothing to close)
        assert [store.exists(f"r{i}") for i in range(6)] == [False] * 3 + [True] * 3
        assert store.info("r5") == {"id": "r5", "closed": True}
        assert store.info("live") is None and store.exists("live")
        assert store.load_all() == [{"id": "live"}]
    finally:
        store.close()


def _closed_rooms(client: TestClient, count: int, **body: Any) -> list[dict[str, Any]]:
    """``count`` practice rooms started, opened once, then closed by the server (as made)."""
    hub = hub_of(client)
    made_rooms = []
    for i in range(count):
        made = create(client, f"10.0.4.{i}", practice=True, **body).json()
        client.post(f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]})
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            assert ws.receive_json()["type"] == "welcome"
        room = hub.lobby.rooms[made["id"]]
        settle(lambda room=room: room.sockets == 0)
        client.portal.call(hub.retire, room)  # type: ignore[union-attr]
        made_rooms.append(made)
    hub.closed.clear()
    return made_rooms


@contextlib.contextmanager
def counting_rebuilds() -> Iterator[list[str]]:
    """The ids of the closed rooms rebuilt from the store (``Room.from_dict``) meanwhile."""
    rebuilt: list[str] = []
    real = Room.from_dict

    def counting(data: dict[str, Any], *args: Any) -> Room:
        rebuilt.append(str(data["id"]))
        return real(data, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(app_module.Room, "from_dict", staticmethod(counting))
        yield rebuilt


def test_a_closed_table_is_read_without_rebuilding_it_and_rebuilds_are_bounded(
    tmp_path: Path,
) -> None:
    limits = Limits(bot_delay=0, between_hands=0, rebuild_burst=2, rebuild_every=1e6)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        hub = hub_of(client)
        closed = [made["id"] for made in _closed_rooms(client, 3)]
        with counting_rebuilds() as rebuilt:
            for room_id in closed:  # the info, the pages: from the row, nothing replayed
                info = client.get(f"/api/rooms/{room_id}", headers=at("10.0.3.1"))
                assert info.status_code == 200 and info.json()["closed"], info.text
                assert info.json()["id"] == room_id
                assert client.get(f"/room/{room_id}/replay").status_code == 200
            assert rebuilt == []
            # replays rebuild the room: two at once from one address, then slow_down
            for room_id in closed[:2]:
                hands = client.get(f"/api/rooms/{room_id}/hands", headers=at("10.0.3.1"))
                assert hands.status_code == 200
            third = client.get(f"/api/rooms/{closed[2]}/hands", headers=at("10.0.3.1"))
            assert third.status_code == 429 and third.json()["detail"]["code"] == "slow_down"
            assert rebuilt == closed[:2]
            # a replay asked again is answered as it was, without rebuilding or counting
            hub.closed.clear()
            again = client.get(f"/api/rooms/{closed[0]}/hands", headers=at("10.0.3.1"))
            assert again.status_code == 200 and rebuilt == closed[:2]


def test_sockets_to_closed_tables_rebuild_them_at_a_bounded_rate(tmp_path: Path) -> None:
    limits = Limits(bot_delay=0, between_hands=0, rebuild_burst=2, rebuild_every=1e6)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        closed = [made["id"] for made in _closed_rooms(client, 3)]
        with counting_rebuilds() as rebuilt:
            for room_id in closed[:2]:  # a spectator's look at how it ended, then closed
                with client.websocket_connect(f"/ws/rooms/{room_id}", headers=at("10.0.5.1")) as ws:
                    assert ws.receive_json()["type"] == "welcome"
            error, code = refused_socket(client, f"/ws/rooms/{closed[2]}", at("10.0.5.1"))
            assert (error["code"], code) == ("slow_down", 4429)
            assert rebuilt == closed[:2]
            # another address has its own allowance; a room rebuilt lately is read again free
            with client.websocket_connect(f"/ws/rooms/{closed[0]}", headers=at("10.0.5.1")) as ws:
                assert ws.receive_json()["type"] == "welcome"
            with client.websocket_connect(f"/ws/rooms/{closed[2]}", headers=at("10.0.6.1")) as ws:
                assert ws.receive_json()["type"] == "welcome"
            assert rebuilt == closed


def test_sockets_to_closed_tables_are_opened_at_a_bounded_rate(tmp_path: Path) -> None:
    limits = Limits(bot_delay=0, between_hands=0, socket_burst=3, socket_every=1e6)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        room_id = _closed_rooms(client, 1)[0]["id"]
        for _ in range(2):  # the third opening of this address was the room's own, above
            with client.websocket_connect(f"/ws/rooms/{room_id}", headers=at("10.0.7.1")) as ws:
                assert ws.receive_json()["type"] == "welcome"
        with client.websocket_connect(f"/ws/rooms/{room_id}", headers=at("10.0.7.1")) as ws:
            assert ws.receive_json()["type"] == "welcome"
        error, code = refused_socket(client, f"/ws/rooms/{room_id}", at("10.0.7.1"))
        assert (error["code"], error["params"]["cap"], code) == ("too_many", "rate", 4429)


def test_a_private_closed_tables_replays_are_kept_for_its_tokens_only(tmp_path: Path) -> None:
    limits = Limits(bot_delay=0, between_hands=1e6)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        hub = hub_of(client)
        made = create(client, player=None, practice=True, private=True).json()
        room_id = made["id"]
        client.post(f"/api/rooms/{room_id}/start", json={"owner_token": made["owner_token"]})
        room = hub.lobby.rooms[room_id]
        settle(lambda: bool(room.games) and room.games[0].result is not None)
        client.portal.call(hub.retire, room)  # type: ignore[union-attr]
        hub.closed.clear()
        url = f"/api/rooms/{room_id}/hands"
        first = client.get(f"{url}/0?token={made['watch_token']}", headers=at("10.0.8.1"))
        hands = client.get(f"{url}?token={made['owner_token']}", headers=at("10.0.8.1"))
        assert first.status_code == 200 and hands.status_code == 200, (first.text, hands.text)
        built: list[int] = []
        real = Room.replay

        def counting(room: Room, number: int) -> dict[str, Any]:
            built.append(number)
            return real(room, number)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(app_module.Room, "replay", counting)
            for token in (made["watch_token"], made["owner_token"], made["invite"]):
                again = client.get(f"{url}/0?token={token}", headers=at("10.0.8.1"))
                assert again.status_code == 200 and again.json() == first.json()
            assert built == []  # kept: nothing replayed again
            # without a token of the room, or with a wrong one, kept answers are not given
            for token in ("", "x" * 43):
                refused = client.get(f"{url}/0?token={token}", headers=at("10.0.8.2"))
                assert refused.status_code == 403, refused.text
                assert refused.json()["detail"]["code"] == "forbidden"
                listing = client.get(f"{url}?token={token}", headers=at("10.0.8.2"))
                assert listing.status_code == 403
