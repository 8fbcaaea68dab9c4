"""guobiao.server.app over HTTP and WebSockets (FastAPI's TestClient): a hand against three bots,
hostile clients, what views contain, time-outs, reconnection, private rooms."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from guobiao.server.app import create_app
from guobiao.server.rooms import Limits

SLOW = Limits(first_discard=60, turn=60, claim=0.1, grace=60, bot_delay=0, between_hands=0, rate=50)

Message = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=SLOW)) as c:
        yield c


def make_client(tmp_path: Path, limits: Limits) -> TestClient:
    return TestClient(create_app(tmp_path / "rooms.sqlite3", limits=limits))


def new_room(client: TestClient, *, start: bool = True, **body: Any) -> Message:
    """A room with "me" at place A; started: a practice table (three bots, seed 7)."""
    table = {"practice": True, "seed": 7} if start else {}
    made: Message = client.post("/api/rooms", json={"player": "me", **table, **body}).json()
    if start:
        started = client.post(
            f"/api/rooms/{made['id']}/start",
            json={"owner_token": made["owner_token"], "fill": True},
        )
        assert started.status_code == 200, started.text
    return made


def receive_until(
    ws: WebSocketTestSession, done: Callable[[Message], bool], limit: int = 5000
) -> tuple[Message, list[Message]]:
    seen: list[Message] = []
    for _ in range(limit):
        msg: Message = ws.receive_json()
        seen.append(msg)
        if done(msg):
            return msg, seen
    raise AssertionError(f"not seen in {limit} messages: {[m['type'] for m in seen[-20:]]}")


def my_turn(msg: Message) -> bool:
    return msg["type"] == "state" and msg["must_act"]


def assert_private(state: Message) -> None:
    """Nothing in a state message names another seat's concealed tiles or the wall."""
    text = json.dumps(state)
    for word in ('"wall"', '"walls"', '"build"', '"dice"', '"deal"', '"actions"', "token"):
        assert word not in text, word
    view = state["view"]
    if view is None:
        return
    if state.get("seat") is None:
        assert view["hand"] == [] and view["drawn"] is None and view["legal_actions"] == []
    for seat, melds in enumerate(view["melds"]):
        if seat != view["seat"] and view["phase"] != "over":
            assert all(m["kind"] != "concealed_kong" for m in melds)


def play_randomly(
    ws: WebSocketTestSession, rng: random.Random, check: Callable[[Message], None] | None = None
) -> list[Message]:
    """Play random legal actions from the views received until the hand ends. An answer to a
    claim that reaches the table after its window closed (short in these tests: a loaded machine
    can be slower) is refused as not legal now; the table has passed for us, as it does for a
    player whose answer comes too late (第七条六)."""
    answered: set[tuple[int, int]] = set()
    seen: list[Message] = []
    claims: list[str] = []  # the answers sent to claim windows (their legal actions had "pass")
    for _ in range(20000):
        msg: Message = ws.receive_json()
        seen.append(msg)
        if msg["type"] == "error" and claims:
            late = msg["params"].get("action")
            if msg["code"] == "illegal_action" and late in claims:
                claims.remove(late)  # refused as not legal now, whatever came in between
                continue
            if msg["code"] == "not_your_turn":  # the window closed, nothing else to do
                claims.pop()  # each late answer excuses one refusal
                continue
        assert msg["type"] != "error", msg
        if msg["type"] == "hand_end":
            return seen
        if msg["type"] != "state":
            continue
        assert_private(msg)
        key = (msg["hand_number"], msg["decision"])
        if msg["must_act"] and key not in answered:
            if check is not None:
                check(msg)  # the table waits for this answer: the state is the live one
            answered.add(key)
            legal = msg["view"]["legal_actions"]
            action = "win" if "win" in legal else rng.choice(legal)
            if "pass" in legal:
                claims.append(action)
            ws.send_json({"type": "action", "action": action})
    raise AssertionError("the hand did not end")


# -- the lobby --------------------------------------------------------------------------------


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    room = new_room(client, start=False)["id"]
    for path in ("/", f"/room/{room}", "/static/room.js", "/static/app.css", "/static/common.js"):
        got = client.get(path)
        assert got.status_code == 200, path
    assert client.get("/room/whatever").status_code == 404  # tests/test_server_fairness.py
    assert "<html" in client.get("/").text


def test_rooms_api(client: TestClient) -> None:
    made = new_room(client, start=False, name="Friday")
    assert made["place"] == 0 and made["token"] and made["invite"]
    listed = client.get("/api/rooms").json()
    assert [r["id"] for r in listed] == [made["id"]]
    assert "token" not in json.dumps(listed) and made["invite"] not in json.dumps(listed)
    invite = made["invite"]
    joined = client.post(
        f"/api/rooms/{made['id']}/join", json={"name": "Bob", "place": 2, "invite": invite}
    ).json()
    assert joined["place"] == 2
    taken = client.post(
        f"/api/rooms/{made['id']}/join", json={"name": "Cy", "place": 2, "invite": invite}
    )
    assert taken.status_code == 400 and taken.json()["detail"]["code"] == "taken"
    url = f"/api/rooms/{made['id']}"
    forged = client.post(url + "/start", json={"owner_token": joined["token"]})
    assert forged.status_code == 403
    not_full = client.post(url + "/start", json={"owner_token": made["owner_token"]})
    assert not_full.status_code == 400 and not_full.json()["detail"]["code"] == "not_full"
    bots = client.post(url + "/bots", json={"owner_token": made["owner_token"], "kind": "random"})
    assert [p["kind"] for p in bots.json()["places"]] == ["human", "bot", "human", "bot"]
    assert client.post(url + "/start", json={"owner_token": made["owner_token"]}).status_code == 200
    assert client.get(url).json()["started"]
    assert client.get("/api/rooms/nope").status_code == 404
    bad_bot = client.post("/api/rooms", json={"bot_kind": "alphago"})
    assert bad_bot.status_code == 400


def test_private_rooms_need_the_invite(client: TestClient) -> None:
    made = new_room(client, start=False, private=True)
    assert made["invite"]
    assert client.get("/api/rooms").json() == []
    url = f"/api/rooms/{made['id']}/join"
    assert client.post(url, json={"name": "Bob"}).status_code == 403
    assert client.post(url, json={"name": "Bob", "invite": "guess"}).status_code == 403
    assert client.post(url, json={"name": "Bob", "invite": made["invite"]}).status_code == 200
    with client.websocket_connect(f"/ws/rooms/{made['id']}") as ws:
        assert ws.receive_json()["code"] == "private_room"  # no link at all (audit 9)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['invite']}") as ws:
        assert ws.receive_json()["role"] == "spectator"


# -- playing over the socket ------------------------------------------------------------------


def test_a_full_hand_against_three_bots(client: TestClient) -> None:
    made = new_room(client, bot_kind="efficiency")
    with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["you"] == 0
        assert welcome["tiles"]["W1"]["zh"] == "一万"
        seen = play_randomly(ws, random.Random(5))
    end = seen[-1]
    result = end["result"]
    assert sum(result["deltas"]) == 0
    assert sum(end["scores"]) == 2000
    if result["winner"] is not None:
        assert result["fans"] and all(f["zh"] and f["en"] for f in result["fans"])
        assert result["total"] == sum(f["points"] * f["count"] for f in result["fans"])
    events = [m for m in seen if m["type"] == "event"]
    assert events and all(set(m) == {"type", "seat", "action"} for m in events)


def test_views_show_only_the_own_hand_and_spectators_see_no_concealed_tile(
    client: TestClient,
) -> None:
    made = new_room(client)
    app_rooms = client.app.state.hub.lobby.rooms  # type: ignore[attr-defined]
    room = app_rooms[made["id"]]

    checked = []

    def own_hand_only(state: Message) -> None:
        seat, view = state["seat"], state["view"]
        melds = len(view["melds"][seat])
        assert len(view["hand"]) in (13 - 3 * melds, 14 - 3 * melds)
        if view["phase"] != "act":
            return  # other seats may still be answering the same discard
        concealed = sorted(room.game.hand_of(seat).concealed)
        assert view["hand"] == [str(t) for t in concealed]
        checked.append(state)

    with (
        client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws,
        client.websocket_connect(f"/ws/rooms/{made['id']}") as watcher,
    ):
        assert watcher.receive_json()["role"] == "spectator"
        play_randomly(ws, random.Random(8), own_hand_only)
        assert checked
        # the spectator got the same hand, never a concealed tile
        _, states = receive_until(watcher, lambda m: m["type"] == "hand_end")
        for state in states:
            if state["type"] == "state":
                assert_private(state)
                assert state["view"] is None or state["view"]["hand"] == []
        watcher.send_json({"type": "action", "action": "pass"})
        reply, _ = receive_until(watcher, lambda m: m["type"] == "error")
        assert reply["code"] == "spectator"


def test_hostile_clients_change_nothing(client: TestClient) -> None:
    made = new_room(client)
    room = client.app.state.hub.lobby.rooms[made["id"]]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/rooms/{made['id']}?token=forged") as ws:
        assert ws.receive_json() == {
            "type": "error",
            "code": "bad_token",
            "message": "this token opens no seat in this room",
            "params": {},
        }
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with client.websocket_connect("/ws/rooms/nosuchroom") as ws:
        assert ws.receive_json()["code"] == "no_room"
    with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
        state, _ = receive_until(ws, my_turn)
        before = len(room.game.history)
        legal = state["view"]["legal_actions"]
        held = set(state["view"]["hand"])
        absent = next(f"discard {t}" for t in ("W1", "B5", "T9", "F1", "J3") if t not in held)
        attempts = [
            ("{not json", "bad_json"),
            ('"a string"', "bad_message"),
            ('{"type": "action", "action": "discard"}', "bad_action"),
            ('{"type": "action", "action": "rob the wall"}', "bad_action"),
            ('{"type": "action", "action": {"kind": "win"}}', "bad_message"),
            (json.dumps({"type": "action", "action": absent}), "illegal_action"),
            (json.dumps({"type": "action", "action": "pung F1"}), "illegal_action"),
            (json.dumps({"type": "action", "action": "pass"}), "illegal_action"),
            (json.dumps({"type": "cheat", "seat": 2}), "bad_message"),
            ("x" * 5000, "too_long"),
        ]
        for text, code in attempts:
            ws.send_text(text)
            reply, _ = receive_until(ws, lambda m: m["type"] == "error")
            assert reply["code"] == code, text
        ws.send_bytes(b"\x00\x01")
        reply, _ = receive_until(ws, lambda m: m["type"] == "error")
        assert reply["code"] == "bad_message"
        assert len(room.game.history) == before  # nothing changed
        ws.send_json({"type": "action", "action": legal[-1]})
        receive_until(ws, lambda m: m["type"] == "event")
        assert len(room.game.history) > before  # a legal action still plays


def test_out_of_turn_actions_are_refused(tmp_path: Path) -> None:
    limits = Limits(first_discard=60, turn=60, claim=60, grace=60, bot_delay=5, between_hands=0)
    with make_client(tmp_path, limits) as client:
        made = client.post("/api/rooms", json={"player": "me"}).json()
        joined = client.post(
            f"/api/rooms/{made['id']}/join", json={"name": "you", "invite": made["invite"]}
        ).json()
        client.post(
            f"/api/rooms/{made['id']}/start",
            json={"owner_token": made["owner_token"], "fill": True},
        )
        room = client.app.state.hub.lobby.rooms[made["id"]]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={joined['token']}") as ws:
            state, _ = receive_until(ws, lambda m: m["type"] == "state")
            assert state["seat"] == 1 and not state["must_act"]  # East (place A) deals
            assert state["view"]["hand"] and state["view"]["legal_actions"] == []
            ws.send_json({"type": "action", "action": f"discard {state['view']['hand'][0]}"})
            reply, _ = receive_until(ws, lambda m: m["type"] == "error")
            assert reply["code"] == "not_your_turn"
            assert room.game.history == []


def test_a_flood_is_cut_off_without_hurting_other_clients(tmp_path: Path) -> None:
    limits = Limits(first_discard=60, turn=60, claim=60, grace=60, bot_delay=0, rate=10)
    with make_client(tmp_path, limits) as client:
        made = new_room(client)
        url = f"/ws/rooms/{made['id']}"
        with client.websocket_connect(url) as calm, client.websocket_connect(url) as flood:
            for _ in range(60):
                flood.send_json({"type": "ping"})
            _, got = receive_until(flood, lambda m: m["type"] == "error")
            assert got[-1]["code"] == "rate_limited"
            pongs = sum(1 for m in got if m["type"] == "pong")
            assert pongs <= 10
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(200):
                    flood.receive_json()
            assert closed.value.code == 1008
            calm.send_json({"type": "ping"})
            receive_until(calm, lambda m: m["type"] == "pong")


# -- time and connections ---------------------------------------------------------------------


def test_time_outs_play_the_default_and_tell_everyone(tmp_path: Path) -> None:
    limits = Limits(first_discard=0.3, turn=0.2, claim=0.1, grace=60, bot_delay=0, rate=50)
    with make_client(tmp_path, limits) as client:
        made = new_room(client)
        url = f"/ws/rooms/{made['id']}"
        with (
            client.websocket_connect(f"{url}?token={made['token']}") as ws,
            client.websocket_connect(url) as watcher,
        ):
            state, _ = receive_until(ws, my_turn)
            drawn = state["view"]["drawn"]
            assert drawn is not None and 0 < state["deadline"] <= 0.3
            timeout, _ = receive_until(ws, lambda m: m["type"] == "timeout")
            action = f"discard {drawn}"
            assert timeout == {
                "type": "timeout",
                "code": "timeout",
                "params": {"seat": 0, "name": "me", "action": action},
                "seat": 0,
                "name": "me",
                "action": action,
            }
            # every later time-out is the default too (pass on a claim, the drawn tile on a turn)
            second, _ = receive_until(ws, lambda m: m["type"] == "timeout")
            assert second["seat"] == 0
            assert second["action"] == "pass" or second["action"].startswith("discard ")
            # the spectator hears of turn time-outs, never of claim time-outs
            _, told = receive_until(watcher, lambda m: m["type"] == "timeout")
            assert told[-1]["action"] == f"discard {drawn}"
            ws.close()
            _, rest = receive_until(watcher, lambda m: m["type"] == "hand_end")
            assert all(m["action"] != "pass" for m in rest if m["type"] == "timeout")


def test_reconnecting_gets_the_same_seat_and_view(client: TestClient) -> None:
    made = new_room(client)
    url = f"/ws/rooms/{made['id']}?token={made['token']}"
    with client.websocket_connect(url) as ws:
        first, _ = receive_until(ws, my_turn)
        ws.send_json({"type": "action", "action": first["view"]["legal_actions"][-1]})
        state, _ = receive_until(ws, my_turn)
    room = client.app.state.hub.lobby.rooms[made["id"]]  # type: ignore[attr-defined]
    assert room.places[0].connections == 0
    with client.websocket_connect(url) as ws:
        welcome = ws.receive_json()
        assert welcome["you"] == 0 and welcome["role"] == "player"
        again, _ = receive_until(ws, lambda m: m["type"] == "state")
        assert again["seat"] == state["seat"]
        assert again["view"] == state["view"]
        assert room.places[0].connections == 1


def test_a_disconnected_player_is_replaced_by_a_bot_and_may_come_back(tmp_path: Path) -> None:
    limits = Limits(first_discard=60, turn=60, claim=60, grace=0.2, bot_delay=0, between_hands=60)
    with make_client(tmp_path, limits) as client:
        made = new_room(client)
        room = client.app.state.hub.lobby.rooms[made["id"]]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/rooms/{made['id']}") as watcher:
            # the person never connects: after the grace period a bot plays for them, no time-out
            _, seen = receive_until(watcher, lambda m: m["type"] == "hand_end")
            assert not [m for m in seen if m["type"] == "timeout"]
            assert any(m["type"] == "event" and m["seat"] == 0 for m in seen)
        assert room.game.is_over
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            assert ws.receive_json()["you"] == 0
            state, _ = receive_until(ws, lambda m: m["type"] == "state")
            assert state["room"]["places"][0]["connected"]
            assert not room.bot_plays(0, 10**9)
