"""The ninth audit of ``guobiao serve`` as a public server (docs/web.md, Limits and security): what
holds a table open, where the client address comes from, and hostile clients again.

- A socket kept open and silent held its table for ever: a room closed only once no socket had
  been open to it for ``idle_close``. One socket to a table not yet started kept it (and its place
  in ``max_rooms``) as long as the socket lived: 50 addresses holding 20 tables each filled the
  server. A table not started now closes ``wait_close`` (20 minutes) after its last place was
  taken, sockets or not; a started table with a person's place closes when no person has made a
  move of their own there for ``quiet_close`` (30 minutes), sockets or not (``resume`` and
  ``ready`` alone do not count: four seats sending them, never moving, held a table ~6 hours);
  the sockets of a closed table are sent the table as it stood and closed (4410). A table of
  bots only plays its 16 hands at the bots' pace (~25 minutes) and ends: watching it is not
  cut. A claim or a pass in a claim window does not count either (it would tell that the seat
  could claim).
- A page left open on a finished table kept its socket (and its share of ``max_sockets``) for
  ever: sockets to a finished table are closed ``linger`` (10 minutes) after its end.
- A room closed (not started) while a seat's socket was open would have been written back to
  the database by that socket's leaving, and resumed at the next start: a room no longer live is
  only written over its own row.
- Behind a proxy that writes ``X-Forwarded-For`` with a port (``198.51.100.7:5123``,
  ``[2001:db8::1]:443``), every client was counted as the proxy: one share of every limit for
  all. The port is read past. IPv6 was already counted by /64 (IPv4-mapped as IPv4), but every
  IPv4 client of an IPv6-only server behind NAT64 (``64:ff9b::a.b.c.d``) shared one /64, and a
  6to4 site (``2002:aabb:ccdd::/48``, one IPv4 address) had 65,536 shares: both count as the
  IPv4 address they carry.
- A name could stack any number of combining marks on one letter (Zalgo text over the lines
  around it), pad itself with marks that draw nothing ("Ann" and 21 variation selectors showed
  as another player's "Ann"), or start with a mark that lands on the text before it. A letter
  carries at most 3 marks, and a mark needs a letter under it.
"""

from __future__ import annotations

import time
import unicodedata
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from guobiao.cli import main
from guobiao.server.app import create_app
from guobiao.server.guards import TrustedProxies
from guobiao.server.rooms import Limits, Lobby, RoomError
from guobiao.table.game import PASS, Action, ActionKind
from test_server_e2e import post
from test_server_fairness import find_deal, people_room
from test_server_hardening import Clock, app_with, at, behind_proxy, create, hub_of, settle
from test_server_restart import free_port, server
from test_web_friends_audit9 import FAST  # the quick table limits, shared

Message = dict[str, Any]

DEFAULT = Limits()
WAIT, QUIET, LINGER = 1200.0, 1800.0, 600.0  # the defaults of wait_close, quiet_close, linger
# clocks that never run out while the test clock stands still
STILL = Limits(first_discard=1e5, turn=1e5, claim=1e5, grace=1e5, bot_delay=0)


def until(ws: WebSocketTestSession, done: Any) -> Message:
    for _ in range(50_000):
        msg: Message = ws.receive_json()
        if done(msg):
            return msg
    raise AssertionError("not seen")


def to_the_close(ws: WebSocketTestSession) -> tuple[list[Message], int]:
    """What the socket is sent until it is closed, and the close code."""
    seen: list[Message] = []
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(1000):
            seen.append(ws.receive_json())
    return seen, int(closed.value.code)


def sweep(client: TestClient, now: float) -> None:
    client.portal.call(hub_of(client).sweep, now)  # type: ignore[union-attr]


# -- 1. what holds a table open ------------------------------------------------------------------


def test_the_defaults() -> None:
    assert (DEFAULT.wait_close, DEFAULT.quiet_close, DEFAULT.linger) == (WAIT, QUIET, LINGER)


def test_a_waiting_table_held_by_a_silent_socket_closes(tmp_path: Path) -> None:
    clock = Clock()
    wait = WAIT
    with behind_proxy(app_with(tmp_path, DEFAULT, clock=clock)) as client:
        hub = hub_of(client)
        made = create(client).json()
        room = made["id"]
        with client.websocket_connect(f"/ws/rooms/{room}?token={made['token']}") as ws:
            until(ws, lambda m: m["type"] == "state")
            clock.now += wait - 1
            sweep(client, clock.now)
            assert room in hub.lobby.rooms
            # a friend takes a place: the table waits as long again from then
            friend = {"name": "Bo", "invite": made["invite"]}
            assert client.post(f"/api/rooms/{room}/join", json=friend).status_code == 200
            clock.now += wait - 1
            sweep(client, clock.now)
            assert room in hub.lobby.rooms
            clock.now += 1
            sweep(client, clock.now)
            assert room not in hub.lobby.rooms
            seen, code = to_the_close(ws)
            assert code == 4410
            assert seen[-1]["type"] == "state" and not seen[-1]["room"]["started"]
        settle(lambda: room not in hub.conns)
        assert client.get(f"/api/rooms/{room}").status_code == 404
        assert hub.store.load(room) is None  # never started: nothing kept, not even by the seat
    with behind_proxy(app_with(tmp_path, DEFAULT, clock=clock)) as again:
        assert room not in hub_of(again).lobby.rooms  # nor resumed


def test_a_started_table_where_no_person_acts_closes_its_sockets_open(tmp_path: Path) -> None:
    clock = Clock()
    quiet = QUIET
    with behind_proxy(app_with(tmp_path, STILL, clock=clock)) as client:
        hub = hub_of(client)
        made = create(client, practice=True).json()
        room = made["id"]
        client.post(f"/api/rooms/{room}/start", json={"owner_token": made["owner_token"]})
        with (
            client.websocket_connect(f"/ws/rooms/{room}?token={made['token']}") as ws,
            client.websocket_connect(f"/ws/rooms/{room}", headers=at("10.0.9.9")) as watcher,
        ):
            turn = until(ws, lambda m: m["type"] == "state" and m["must_act"])
            # an honest slow player: she moves 1,000 s in; the table counts from her move
            clock.now += 1000
            discard = next(a for a in turn["view"]["legal_actions"] if a.startswith("discard"))
            ws.send_json({"type": "action", "action": discard, "decision": turn["decision"]})
            until(ws, lambda m: m["type"] == "state" and m["decision"] > turn["decision"])
            clock.now += quiet - 1
            sweep(client, clock.now)
            assert room in hub.lobby.rooms
            # then nothing from her: the table closes, the seat's and the spectator's sockets too
            clock.now += 1
            sweep(client, clock.now)
            assert room not in hub.lobby.rooms
            for socket in (ws, watcher):
                seen, code = to_the_close(socket)
                assert code == 4410 and seen[-1]["type"] == "state"
        info = client.get(f"/api/rooms/{room}").json()
        assert info["closed"] and info["started"] and not info["ended"]
        assert room not in hub.drivers


def test_resume_and_ready_without_a_move_do_not_hold_a_table() -> None:
    """Ann never moves: twice out of time, a bot plays her; she sends ``resume`` each time (a
    message every minute or so), which slows the table down (~6 hours for four such seats), and
    ``ready`` after every hand."""
    lobby = Lobby(DEFAULT)
    room = lobby.create(practice=True, now=0.0)
    room.join("Ann", 0, now=0.0)
    room.add_bots(now=0.0)
    room.connect(0)
    room.start(0.0)
    resumed = readied = 0
    for now in range(0, int(QUIET), 5):
        room.poll(float(now))
        if room.places[0].auto:
            room.resume(0)
            resumed += 1
        game = room.game
        if game is not None and game.is_over and room.window is None and 0 not in room.ready:
            room.set_ready(0)
            readied += 1
    assert resumed > 10 and readied >= 1 and not room.ended
    assert lobby.sweep(QUIET - 1) == []
    assert lobby.sweep(QUIET) == [room]


def test_an_answer_in_a_claim_window_moves_no_clock_of_the_table() -> None:
    """What a seat answers in a claim window is its secret (that it could claim): the table
    closes at the same time whether or not the claimer answered."""
    seed, _, tile, claimers, _ = find_deal()
    closes: list[bool] = []
    for answer in (True, False):
        limits = replace(STILL, quiet_close=1000.0)
        room = people_room(seed, limits)  # four people, all connected
        lobby = Lobby(limits, {room.id: room})
        room.start(0.0)
        room.act(0, Action(ActionKind.DISCARD, tile), 0.0)  # the dealer's move
        assert room.window is not None
        if answer:
            room.act(room.place_at(claimers[0]), PASS, 999.0)
        closes.append(lobby.sweep(1000.0) == [room])
    assert closes == [True, True]


def test_watching_a_table_of_bots_only_is_not_cut() -> None:
    lobby = Lobby(DEFAULT)
    room = lobby.create(practice=True, now=0.0)
    room.add_bots(now=0.0)
    room.start(0.0)
    room.connect(None)  # a spectator
    room.poll(10.0)
    assert lobby.sweep(QUIET * 2) == []


def test_sockets_to_a_finished_table_are_closed_after_the_linger(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "r.sqlite3", limits=FAST)) as client:
        hub = hub_of(client)
        made = client.post("/api/rooms", json={"player": "Ann", "practice": True}).json()
        room = made["id"]
        with client.websocket_connect(f"/ws/rooms/{room}?token={made['token']}") as ws:
            client.post(f"/api/rooms/{room}/start", json={"owner_token": made["owner_token"]})
            until(ws, lambda m: m["type"] == "session_end")
            settle(lambda: room not in hub.lobby.rooms)
            ended = hub.held(room).hand_over_at
            sweep(client, ended + LINGER - 1)
            ws.send_json({"type": "ping"})
            until(ws, lambda m: m["type"] == "pong")  # the page on the table's end stays a while
            # swept until its sockets close: a sweep while the room's driver is still letting it
            # go passes it by, as the server's next sweep would not (CI once swept just then)

            def closed() -> bool:
                sweep(client, ended + LINGER)
                return all(c.closing for c in hub.conns[room])

            settle(closed, 5.0)  # (never: no hang)
            assert to_the_close(ws)[1] == 4410
        settle(lambda: room not in hub.conns)


# -- 2. the client address -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("forwarded", "key"),
    [
        ("198.51.100.7:5123", "198.51.100.7"),
        ("[2001:db8:1:2::7]:443", "2001:db8:1:2::/64"),
        ("[2001:db8:1:2::7]", "2001:db8:1:2::/64"),
        ("[::ffff:198.51.100.7]:80", "198.51.100.7"),
        ("203.0.113.1, 198.51.100.7:5123", "198.51.100.7"),
        ("198.51.100.7:http", "127.0.0.1"),  # not a port: believe nothing
        ("[2001:db8::7", "127.0.0.1"),
    ],
)
def test_a_forwarded_address_with_a_port_is_the_client(forwarded: str, key: str) -> None:
    assert TrustedProxies(["127.0.0.1"]).key("127.0.0.1", forwarded) == key


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("64:ff9b::198.51.100.7", "198.51.100.7"),  # NAT64: an IPv4 client
        ("64:ff9b::198.51.100.8", "198.51.100.8"),  # ... another, not the same /64
        ("2002:c633:6407::1", "198.51.100.7"),  # 6to4: a site of 65,536 /64s
        ("2002:c633:6407:ffff::9", "198.51.100.7"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
    ],
)
def test_an_ipv6_address_carrying_an_ipv4_one_counts_as_it(address: str, key: str) -> None:
    assert TrustedProxies(["127.0.0.1"]).key(address, None) == key


def test_clients_behind_a_proxy_writing_ports_have_their_own_shares(tmp_path: Path) -> None:
    limits = Limits(address_rooms=1, create_burst=100)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        assert create(client, "198.51.100.7:5123").status_code == 200
        assert create(client, "198.51.100.8:5123").status_code == 200  # another client
        assert create(client, "198.51.100.7:6000").status_code == 429  # the first again


# -- 3. names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Z" + "\u0336\u0334\u0335\u0337",  # four marks on one letter
        "Z\u0336\u0334\u0335\u0337\u0338\u0321\u0322\u0327\u0328\u031b\u0340\u0341\u0358",
        "Ann" + "\ufe0f" * 21,  # looks like "Ann"
        "\u0301abc",  # a mark on nothing
        "Li \u0301Bo",  # a mark on a space
    ],
)
def test_names_stacking_marks_are_refused(name: str) -> None:
    room = Lobby().create(now=0.0)
    with pytest.raises(RoomError) as refused:
        room.join(name)
    assert refused.value.code == "bad_name"


@pytest.mark.parametrize(
    "name",
    [
        "Nguyễn Văn An",
        "Nguye\u0302\u0303n",  # decomposed: composed first
        "हूँ राम",
        "ก้ำ",
        "བསྒྲུབས",
        "שָׁלוֹם",
        "Li ❤\ufe0f",
        "👍🏽",
        "李小龙",
    ],
)
def test_names_of_every_script_are_taken(name: str) -> None:
    room = Lobby().create(now=0.0)
    place, _ = room.join(name)
    assert room.places[place].name == unicodedata.normalize("NFC", name)


# -- 4. what an HTTP request costs the server ----------------------------------------------------


def test_the_lobby_listing_is_written_without_walking_every_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GET /api/rooms`` (50 rooms) went through FastAPI's encoder, which walks every value, and
    each room's info copied the limits with ``asdict``: ~6 ms an answer, so that one address's
    50 a second (600 at once) held most of the event loop; a spectator's ping on another table
    took 11.7 ms (median; p90 39.5, max 224) instead of 0.7 ms, with 1,000 tables open."""
    import fastapi.routing

    from guobiao.server import rooms as rooms_module

    limits = Limits(create_burst=100, address_rooms=100)
    with behind_proxy(app_with(tmp_path, limits)) as client:
        for i in range(60):
            assert create(client, name=f"T{i}").status_code == 200
        assert len(client.get("/api/rooms").json()) == 50
        calls = {"encoder": 0, "asdict": 0}
        serialize = fastapi.routing.serialize_response
        asdict = rooms_module.asdict

        async def counted_serialize(*args: Any, **kwargs: Any) -> Any:
            calls["encoder"] += 1
            return await serialize(*args, **kwargs)

        def counted_asdict(*args: Any, **kwargs: Any) -> Any:
            calls["asdict"] += 1
            return asdict(*args, **kwargs)

        monkeypatch.setattr(fastapi.routing, "serialize_response", counted_serialize)
        monkeypatch.setattr(rooms_module, "asdict", counted_asdict)
        listed = client.get("/api/rooms")
        assert listed.status_code == 200 and listed.headers["X-More-Rooms"] == "10"
        rooms = listed.json()
        assert len(rooms) == 50 and rooms[0]["limits"]["turn"] == limits.turn
        assert client.get("/api/rooms?finished=true").json() == []
        assert calls == {"encoder": 0, "asdict": 0}


# -- 4. the limits on the command line -------------------------------------------------------------


def test_serve_takes_the_closing_limits_from_its_flags(tmp_path: Path) -> None:
    """``guobiao serve --wait-close 1``: a table whose places are taken and that is not started
    is gone a moment later (the defaults, 20 minutes, cannot be waited for by an organiser's
    test either); a zero is refused before the server starts."""
    refused = CliRunner().invoke(main, ["serve", "--quiet-close", "0"])
    assert refused.exit_code == 2 and "--quiet-close" in refused.output
    port = free_port()
    with server(tmp_path, port, wait_close=1):
        base = f"http://127.0.0.1:{port}"
        made = post(base, "/api/rooms", {"player": "Ann", "place": 0})
        deadline = time.monotonic() + 10
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/rooms/{made['id']}", timeout=2).read()
            except urllib.error.HTTPError as gone:
                assert gone.code == 404
                break
            assert time.monotonic() < deadline, "the table was still open after 10 s"
            time.sleep(0.2)
