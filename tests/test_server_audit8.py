"""The eighth audit of ``guobiao serve`` as a public server (docs/web.md, Limits and security):
what the seventh left, Play again, private tables, the referee's ``revision``, the HTTP rate
limiter, the kept replays, ``bot_playing`` and ``owner_place``, and every socket message again.

- A seat repeating an answer for an earlier decision (``stale``) was sent the table's state with
  its hints (~0.5 ms of the event loop, compressed) for every one, 20 a second a socket: one
  address's 27 seat sockets took 1.35 s of the server's CPU in 5 s (ping-only sockets 0.18 s)
  and held another table's pings up to 760 ms. The state now goes once per decision; a ``ready``
  sent again changes nothing and is sent nothing (it was sent a state each time).
- Two Play agains at once for a finished table read from the database each rebuilt their own
  object of the table, and each made a new table: "once per finished table" did not hold. A
  socket still open on a finished table that had left the cache of closed tables kept its own
  object too, whose save on closing wrote the table's ``next`` back to nothing: after a restart
  the friends' links lost the new table and the creator could play again a second time. Every
  request and socket now shares one object per table.
- A closed public table's info (``GET /api/rooms/{id}`` once it left memory, after a restart)
  and its lobby entry never named its ``next`` table: they were written when it closed.
- During the claim window after a last discard nobody may claim, the engine has already ended
  the hand (a draw): ``GET /api/rooms/{id}/hands`` said ``over`` with the result, and the hand's
  replay (every hand face up) was served, while the table still stood for 3 s, as it stands when
  someone may win on that tile. Anyone could learn, before the window's end, that nobody could:
  the hand is now over for the API when the window is.
- Each spectator socket had the table's state computed for it at every move (and each tab of a
  place): 20 watchers made a move cost 20 states. Each receiver's state is now computed once.
- The bots that could claim a discard decided at the window's end, before the table moved on:
  the state after the window came a bot's thinking later (a fan bot: 1.3 ms median, up to
  ~100 ms) exactly when a bot could claim. They decide as soon as the window is shown.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from guobiao.server.app import create_app
from guobiao.server.rooms import Limits, Room, RoomError
from test_server_hardening import Clock
from test_web_friends_audit9 import FAST, QUICK  # the quick table limits, shared

Message = dict[str, Any]

SLOW = Limits(first_discard=60, turn=60, claim=60, grace=60, bot_delay=0, between_hands=60)


def until(ws: WebSocketTestSession, done: Any, seen: list[Message] | None = None) -> Message:
    for _ in range(50_000):
        msg: Message = ws.receive_json()
        if seen is not None:
            seen.append(msg)
        if done(msg):
            return msg
    raise AssertionError("not seen")


def after_ping(ws: WebSocketTestSession) -> list[Message]:
    """Everything the socket is sent up to the answer to a ping (sent now)."""
    ws.send_json({"type": "ping"})
    seen: list[Message] = []
    until(ws, lambda m: m["type"] == "pong", seen)
    return seen[:-1]


def kinds(messages: list[Message]) -> list[str]:
    return [m["type"] if m["type"] != "error" else m["code"] for m in messages]


# -- 1. what a socket's own messages cost the server --------------------------------------------


def test_a_stale_answer_repeated_is_sent_the_table_once_per_decision(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "r.sqlite3", limits=SLOW, clock=Clock())) as client:
        made = client.post("/api/rooms", json={"player": "Ann", "practice": True}).json()
        client.post(f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]})
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            # Ann deals: the table waits for her first discard (60 s of a clock that stands)
            turn = until(ws, lambda m: m["type"] == "state" and m["must_act"])
            stale = {"type": "action", "action": "pass", "decision": turn["decision"] - 1}
            for _ in range(12):
                ws.send_json(stale)
            answers = after_ping(ws)
            assert kinds(answers) == ["stale", "state"] + ["stale"] * 11
            assert answers[1]["decision"] == turn["decision"]  # the table as it is, once
            # the decision moves on: a stale answer to it is sent the table again, once
            discard = turn["view"]["legal_actions"][0]
            ws.send_json({"type": "action", "action": discard, "decision": turn["decision"]})
            window = until(ws, lambda m: m["type"] == "state" and m["decision"] > turn["decision"])
            for _ in range(3):
                ws.send_json(stale)
            assert kinds(after_ping(ws)) == ["stale", "state", "stale", "stale"]
            assert window["view"]["phase"] == "respond"


def test_a_ready_sent_again_is_sent_nothing(tmp_path: Path) -> None:
    # the hand plays itself out (Ann times out twice: a bot plays her), then the table waits
    # up to 60 s between hands
    limits = Limits(
        first_discard=QUICK,
        turn=QUICK,
        claim=QUICK,
        grace=60,
        bot_delay=0,
        between_hands=60,
        bots_between=60,
        rate=50,
    )
    with TestClient(create_app(tmp_path / "r.sqlite3", limits=limits)) as client:
        made = client.post("/api/rooms", json={"player": "Ann", "practice": True}).json()
        with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
            # connected first: a hand with no one connected plays out at once, and its end was
            # missed when it came before the socket (then the next one came 60 s later)
            client.post(f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]})
            until(ws, lambda m: m["type"] == "hand_end")
            ws.send_json({"type": "ready"})
            told = [m for m in after_ping(ws) if m["type"] == "state"]
            assert told and told[-1]["ready"] == [0]
            for _ in range(8):
                ws.send_json({"type": "ready"})
            assert after_ping(ws) == []


# -- 2. Play again: one table object, one new table ---------------------------------------------


def finished_practice(client: TestClient) -> Message:
    """A practice table played to its end by bots (Ann never came), no socket open to it: it
    has left memory, its row closed in the database."""
    made: Message = client.post("/api/rooms", json={"player": "Ann", "practice": True}).json()
    client.post(f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"]})
    hub = client.app.state.hub  # type: ignore[attr-defined]
    for _ in range(2000):
        if made["id"] not in hub.lobby.rooms:
            break
        threading.Event().wait(0.01)
    info = client.get(f"/api/rooms/{made['id']}").json()
    assert info["ended"] and info["closed"], info
    assert made["id"] not in hub.closed
    return made


def test_two_play_agains_at_once_make_one_table(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "r.sqlite3", limits=FAST)) as client:
        made = finished_practice(client)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        load = hub.store.load
        both = threading.Barrier(2, timeout=10)

        def slow_load(room_id: str) -> Any:  # both requests read the table before either goes on
            both.wait()
            return load(room_id)

        hub.store.load = slow_load
        answers: list[Any] = []

        def again() -> None:
            answers.append(
                client.post(
                    f"/api/rooms/{made['id']}/again", json={"owner_token": made["owner_token"]}
                )
            )

        threads = [threading.Thread(target=again) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        hub.store.load = load
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 409], [a.text for a in answers]
        new = next(a.json() for a in answers if a.status_code == 200)
        refused = next(a.json() for a in answers if a.status_code == 409)
        assert refused["detail"]["code"] == "again_done"
        assert refused["detail"]["params"]["room"] == new["id"]
        assert client.get(f"/api/rooms/{made['id']}").json()["next"] == new["id"]


def test_play_again_holds_when_the_table_left_the_cache_of_closed_tables(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    with TestClient(create_app(db, limits=FAST)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        made = client.post("/api/rooms", json={"player": "Ann", "name": "Friday"}).json()
        room, owner = made["id"], made["owner_token"]
        bo = client.post(
            f"/api/rooms/{room}/join", json={"name": "Bo", "place": 2, "invite": made["invite"]}
        ).json()
        with client.websocket_connect(f"/ws/rooms/{room}?token={bo['token']}") as friend:
            client.post(f"/api/rooms/{room}/start", json={"owner_token": owner, "fill": True})
            until(friend, lambda m: m["type"] == "session_end")
            # Bo's page stays on the table's end while 16 other finished tables are read
            hub.closed.clear()
            answer = client.post(f"/api/rooms/{room}/again", json={"owner_token": owner})
            assert answer.status_code == 200, answer.text
            new = answer.json()
            told = until(friend, lambda m: m["type"] == "state" and "next" in m)
            assert told["next"] == {"room": new["id"], "invite": new["invite"]}
        # Bo's page closed: the table is saved as it is, its next table named
        for _ in range(1000):
            if room not in hub.conns:
                break
            threading.Event().wait(0.01)
        assert hub.store.load(room)["next"] == new["id"]
    with TestClient(create_app(db, limits=FAST)) as client:  # restarted
        twice = client.post(f"/api/rooms/{room}/again", json={"owner_token": owner})
        assert (twice.status_code, twice.json()["detail"]["code"]) == (409, "again_done")
        with client.websocket_connect(f"/ws/rooms/{room}?token={bo['token']}") as late:
            state = until(late, lambda m: m["type"] == "state")
            assert state["next"] == {"room": new["id"], "invite": new["invite"]}


def test_a_closed_public_table_names_its_next_table_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite3"
    with TestClient(create_app(db, limits=FAST)) as client:
        made = finished_practice(client)
        room = made["id"]
        listed = client.get(f"/api/rooms/{room}/hands").json()  # kept: the room closed
        assert listed["room"]["next"] is None
        new = client.post(
            f"/api/rooms/{room}/again", json={"owner_token": made["owner_token"]}
        ).json()
        assert client.get(f"/api/rooms/{room}/hands").json()["room"]["next"] == new["id"]
    with TestClient(create_app(db, limits=FAST)) as client:  # restarted: nothing in memory
        assert client.get(f"/api/rooms/{room}").json()["next"] == new["id"]
        finished = {r["id"]: r for r in client.get("/api/rooms?finished=true").json()}
        assert finished[room]["next"] == new["id"]


# -- 3. the hands' API during the last claim window ---------------------------------------------


def test_a_hand_ended_in_a_claim_window_is_not_over_for_the_api_until_the_window_is() -> None:
    """Ann (A) is connected and on auto-play (a bot plays her; the window lasts its 1 s), bots
    at B-D: at every hand that ends at a last discard nobody may claim, the hands' list and the
    replay say nothing of it until the window's end, as when someone may win on that tile."""
    limits = Limits(claim=1.0, bot_delay=0, between_hands=0, bots_between=0, grace=60)
    room = Room("r8", limits=limits, seed=3)
    room.join("Ann", 0)
    room.add_bots("random")
    room.connect(0)
    room.places[0].auto = True
    room.start(0.0)
    now, seen = 0.0, 0
    while not room.ended and now < 100_000:
        now += 0.5
        room.poll(now, max_steps=1)
        game = room.game
        assert game is not None
        number = len(room.games) - 1
        if room.window is not None and game.is_over:
            seen += 1
            hand = room.hands_info()[number]
            assert hand["over"] is False and "winner" not in hand and "deltas" not in hand
            with pytest.raises(RoomError) as refused:
                room.replay(number)
            assert refused.value.code == "hand_live"
            while room.window is not None:  # the window's end: now it is over for everyone
                now += 0.5
                room.poll(now, max_steps=1)
            assert room.hands_info()[number]["over"] is True
            assert room.replay(number)["hand_number"] == number
    assert room.ended
    assert seen >= 1  # the seed's session has such a hand


def test_a_tables_spectators_cost_one_state_between_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every spectator socket had its own state computed (the spectator's view and the table's
    JSON, ~0.5 ms) at every move: 20 watchers of a table made each of its moves cost 20 states
    on the event loop. The spectators share one, and a place's tabs one."""
    built: list[int | None] = []
    state_for = Room.state_for

    def counted(room: Room, place: int | None, now: float) -> dict[str, Any]:
        built.append(place)
        return state_for(room, place, now)

    monkeypatch.setattr(Room, "state_for", counted)
    with TestClient(create_app(tmp_path / "r.sqlite3", limits=SLOW, clock=Clock())) as client:
        made = client.post("/api/rooms", json={"player": "Ann", "practice": True}).json()
        room = made["id"]
        client.post(f"/api/rooms/{room}/start", json={"owner_token": made["owner_token"]})
        seat = f"/ws/rooms/{room}?token={made['token']}"
        with (
            client.websocket_connect(seat) as ann,
            client.websocket_connect(seat) as tab,
        ):
            turn = until(ann, lambda m: m["type"] == "state" and m["must_act"])
            with contextlib.ExitStack() as stack:
                watchers = [
                    stack.enter_context(client.websocket_connect(f"/ws/rooms/{room}"))
                    for _ in range(6)
                ]
                for ws in [*watchers, tab]:
                    after_ping(ws)
                del built[:]
                discard = turn["view"]["legal_actions"][0]
                ann.send_json({"type": "action", "action": discard, "decision": turn["decision"]})
                moved = until(
                    ann, lambda m: m["type"] == "state" and m["decision"] > turn["decision"]
                )
                assert moved["view"]["phase"] == "respond"
                for ws in [*watchers, tab]:
                    state = until(ws, lambda m: m["type"] == "state")
                    assert state["decision"] == moved["decision"]
                assert sorted(built, key=str) == [0, None]


# -- 4. the end of a claim window waits for no bot -----------------------------------------------


def test_bots_decide_their_claims_before_the_window_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots that could claim a discard decided at the window's end, on the event loop,
    before the table moved on: a fan bot's claim takes a millisecond or more (up to 100 ms), so
    the state after the window came that much later whenever a bot could claim, and timing it
    told everyone so. They now decide as soon as the window is shown (the server polls the room
    at once: ``next_wake``), and its end calls no bot."""
    closing = False
    choices: list[bool] = []
    close_window = Room._close_window

    def watched_close(room: Room, now: float) -> Any:
        nonlocal closing
        closing = True
        try:
            return close_window(room, now)
        finally:
            closing = False

    monkeypatch.setattr(Room, "_close_window", watched_close)
    limits = Limits(claim=1.0, bot_delay=0, between_hands=0, bots_between=0, grace=60)
    room = Room("r8", limits=limits, seed=5)
    room.join("Ann", 0)
    room.add_bots("fan")
    for place in range(4):  # Ann's too: a bot plays her on auto-play
        bot = room._bot(place)
        choose = bot.choose

        def counted(view: Any, choose: Any = choose) -> Any:
            choices.append(closing)
            return choose(view)

        monkeypatch.setattr(bot, "choose", counted)
    room.connect(0)
    room.places[0].auto = True
    room.start(0.0)
    now, windows = 0.0, []
    while not room.ended and now < 100_000:
        now += 0.5
        room.poll(now, max_steps=1)
        window, game = room.window, room.game
        assert game is not None
        if (
            window is not None
            and game.phase.value == "respond"
            and all(w is not window for w in windows)
        ):
            windows.append(window)  # a discard some bot may claim
            assert room.next_wake(now) == now  # polled at once, not at the window's end
            before = len(choices)
            room.poll(now, max_steps=1)
            assert len(choices) - before == len(game.to_act)  # each claimer decided
    assert room.ended and len(windows) >= 10
    assert choices and not any(choices)  # no bot decided while a window closed
