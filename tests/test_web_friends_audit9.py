"""Playing with friends, ninth audit (what the browser audit of 5c1e660 left to the server): a
bot playing for a person who left is told to everyone (``places[i].bot_playing``, and the tag on
their plate); the creator's place is known (``owner_place``) and marked in the waiting room; a
private table opened with no link at all is refused with its own code (``private_room``); and
Play again at a friends' table is the server's (``POST /api/rooms/{id}/again``): once per finished
table, the old table names the new one, and its players, and only they, are sent its invite,
which their pages offer ("The table plays again: join"). Each test failed before this audit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from guobiao.server.app import create_app
from guobiao.server.rooms import Limits, Room
from test_server_e2e import get, open_page, post
from test_server_restart import free_port, server
from test_web_layout import VIEWPORTS

Message = dict[str, Any]

QUICK = 0.005
FAST = Limits(
    first_discard=QUICK,
    turn=QUICK,
    claim=QUICK,
    grace=QUICK,
    bot_delay=0,
    between_hands=QUICK,
    bots_between=QUICK,
    rate=50,
)
PUBLIC_PLACE = {"name", "kind", "bot_kind", "connected", "auto", "bot_playing"}


def until(ws: WebSocketTestSession, done: Any, limit: int = 20_000) -> Message:
    for _ in range(limit):
        msg: Message = ws.receive_json()
        if done(msg):
            return msg
    raise AssertionError("not seen")


def closes(ws: WebSocketTestSession) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(100):
            ws.receive_json()
    return int(closed.value.code)


# -- 1. a bot playing for a person who left ------------------------------------------------------


def people_room(limits: Limits) -> Room:
    """Ann (A) and Bo (B), both connected, two bots; started at 0."""
    room = Room("r1", limits=limits)
    room.join("Ann", 0)
    room.join("Bo", 1)
    room.add_bots()
    room.connect(0)
    room.connect(1)
    room.start(0.0)
    return room


def test_the_room_says_when_a_bot_plays_for_a_person() -> None:
    """``places[i].connected`` alone said nothing of the bot playing for a person who left (after
    the grace) or ran out of time twice: ``bot_playing`` says it, as public as the bot's moves;
    the version moves when it changes (every client is sent it); nothing else is added."""
    room = people_room(Limits(grace=30, turn=600, first_discard=600, bot_delay=0))
    room.poll(0.0)
    places = room.info()["places"]
    assert all(set(p) == PUBLIC_PLACE for p in places)
    assert [p["bot_playing"] for p in places] == [False] * 4  # a bot's own place: not "for"
    room.disconnect(1, 5.0)
    room.poll(34.0)
    assert room.info()["places"][1]["bot_playing"] is False  # within the grace
    assert room.info()["places"][1]["connected"] is False
    before = room.version
    room.poll(35.0)
    assert room.info()["places"][1]["bot_playing"] is True
    assert room.version > before
    room.connect(1)
    assert room.info()["places"][1]["bot_playing"] is False
    room.places[0].auto = True  # two time-outs: auto-play
    room.poll(36.0)
    assert room.info()["places"][0]["bot_playing"] is True
    room.resume(0)
    assert room.info()["places"][0]["bot_playing"] is False


def test_the_table_is_told_when_the_grace_runs_out(tmp_path: Path) -> None:
    """The grace of a person who left ran out while the table waited for someone else: nothing
    was sent (no move on the table), so no page could show that a bot now played for them.
    The server wakes at the grace's end and sends everyone the change."""
    slow = Limits(first_discard=60, turn=60, claim=0.1, grace=0.5, bot_delay=0, rate=50)
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=slow)) as client:
        made = client.post("/api/rooms", json={"player": "Ann"}).json()
        room, owner = made["id"], made["owner_token"]
        bo = client.post(
            f"/api/rooms/{room}/join", json={"name": "Bo", "place": 1, "invite": made["invite"]}
        ).json()
        with client.websocket_connect(f"/ws/rooms/{room}?token={made['token']}") as ann:
            with client.websocket_connect(f"/ws/rooms/{room}?token={bo['token']}"):
                client.post(f"/api/rooms/{room}/start", json={"owner_token": owner, "fill": True})
                # Ann deals (East at the first hand): the table waits for her, 60 s
                until(ann, lambda m: m["type"] == "state" and m["must_act"])
            gone = until(
                ann, lambda m: m["type"] == "state" and not m["room"]["places"][1]["connected"]
            )
            assert gone["room"]["places"][1]["bot_playing"] is False
            time.sleep(1.5)  # the grace (0.5 s) runs out meanwhile
            ann.send_json({"type": "ping"})
            seen: list[Message] = []
            until(ann, lambda m: seen.append(m) or m["type"] == "pong")
            told = [m for m in seen if m["type"] == "state"]
            assert told, [m["type"] for m in seen]  # sent before Ann asked anything
            assert told[-1]["room"]["places"][1]["bot_playing"] is True
            assert told[-1]["must_act"]  # still Ann's turn: nothing else moved
            assert told[-1]["room"]["places"][0]["bot_playing"] is False


# -- 2. the creator's place ----------------------------------------------------------------------


def test_the_room_names_its_creators_place(tmp_path: Path) -> None:
    """Nobody could tell which place was the creator's (who starts the session): the room's info
    now says (``owner_place``), None for a table made without a place; kept across a restart."""
    db = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(db, limits=FAST)) as client:
        seated = client.post("/api/rooms", json={"player": "Ann", "place": 2}).json()
        assert seated["room"]["owner_place"] == 2
        assert client.get(f"/api/rooms/{seated['id']}").json()["owner_place"] == 2
        bare = client.post("/api/rooms", json={"name": "Open"}).json()
        assert client.get(f"/api/rooms/{bare['id']}").json()["owner_place"] is None
        client.post(
            f"/api/rooms/{seated['id']}/join",
            json={"name": "Bo", "invite": seated["invite"]},
        )
        listed = {r["id"]: r for r in client.get("/api/rooms").json()}
        assert listed[seated["id"]]["owner_place"] == 2  # a friend joining changes nothing
    with TestClient(create_app(db, limits=FAST)) as client:  # restarted
        assert client.get(f"/api/rooms/{seated['id']}").json()["owner_place"] == 2


# -- 3. a private table opened with no link ------------------------------------------------------


def test_a_private_table_opened_with_no_link_has_its_own_code(tmp_path: Path) -> None:
    """A private table opened with no token got ``bad_token`` ("this link opens no place"), the
    page guessing from its own keys what was meant: it is now ``private_room``. A wrong token
    is still ``bad_token``, and a public table with a wrong token too."""
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=FAST)) as client:
        private = client.post("/api/rooms", json={"player": "Ann", "private": True}).json()
        public = client.post("/api/rooms", json={"player": "Bo"}).json()
        for room, token, code in [
            (private["id"], "", "private_room"),
            (private["id"], "guess", "bad_token"),
            (public["id"], "guess", "bad_token"),
        ]:
            with client.websocket_connect(f"/ws/rooms/{room}?token={token}") as ws:
                refused = ws.receive_json()
                assert (refused["type"], refused["code"]) == ("error", code)
                assert "private" in refused["message"] or code != "private_room"
                assert closes(ws) == 4403


# -- 4. play again -------------------------------------------------------------------------------


def finish(client: TestClient, body: Message, friend: bool = True) -> tuple[Message, Message]:
    """A table as ``body`` makes it (Ann the creator at A), a random bot at B, Bo at C when
    ``friend``, and its session played to the end: the creation's answer and Bo's join."""
    made: Message = client.post("/api/rooms", json={"player": "Ann", **body}).json()
    room, owner = made["id"], made["owner_token"]
    bo: Message = {}
    if not body.get("practice"):
        client.post(
            f"/api/rooms/{room}/bots", json={"owner_token": owner, "kind": "random", "place": 1}
        )
    if friend:
        bo = client.post(
            f"/api/rooms/{room}/join", json={"name": "Bo", "place": 2, "invite": made["invite"]}
        ).json()
    return made, bo


def play_out(client: TestClient, made: Message, ws: WebSocketTestSession) -> None:
    client.post(
        f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"], "fill": True}
    )
    until(ws, lambda m: m["type"] == "session_end")


def test_play_again_at_a_private_table_of_friends(tmp_path: Path) -> None:
    """After Play again at a friends' table its friends had to be sent a new invite link by
    hand: the server had no Play again. ``POST /api/rooms/{id}/again`` (the owner's token, the
    session over) makes the new table with the old one's settings; the old table's players'
    sockets are sent ``next`` (the new table and its invite: Bo takes his place with it), a
    private table's spectator nothing of it, its public info no id; once per table; and after a
    restart of the server Bo's link still finds the new table."""
    friends_db = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(friends_db, limits=FAST)) as client:
        made, bo = finish(client, {"name": "Friday", "private": True})
        room, owner = made["id"], made["owner_token"]
        again = f"/api/rooms/{room}/again"
        refused = client.post(again, json={"owner_token": owner})
        assert (refused.status_code, refused.json()["detail"]["code"]) == (409, "not_over")
        with (
            client.websocket_connect(f"/ws/rooms/{room}?token={bo['token']}") as friend,
            client.websocket_connect(f"/ws/rooms/{room}?token={made['watch_token']}") as watcher,
        ):
            play_out(client, made, friend)
            until(watcher, lambda m: m["type"] == "session_end")
            wrong = client.post(again, json={"owner_token": bo["token"]})
            assert (wrong.status_code, wrong.json()["detail"]["code"]) == (403, "forbidden")
            answer = client.post(again, json={"owner_token": owner})
            assert answer.status_code == 200, answer.text
            new = answer.json()
            assert new["place"] == 0 and new["token"] and new["owner_token"] != owner
            told = until(friend, lambda m: m["type"] == "state" and "next" in m)
            assert told["next"] == {"room": new["id"], "invite": new["invite"]}
            assert told["room"]["next"] is None  # a private table's info: no id for anyone
            watcher.send_json({"type": "ping"})
            seen: list[Message] = []
            until(watcher, lambda m: seen.append(m) or m["type"] == "pong")
            assert any(m["type"] == "state" for m in seen)  # told of the change, not of the table
            assert new["invite"] not in str(seen) and new["id"] not in str(seen)
        info = client.get(f"/api/rooms/{new['id']}").json()
        assert (info["name"], info["private"], info["practice"], info["started"]) == (
            "Friday",
            True,
            False,
            False,
        )
        assert info["owner_place"] == 0
        assert [(p["kind"], p["name"] or None) for p in info["places"]] == [
            ("human", "Ann"),
            ("bot", "random bot B"),
            ("empty", None),
            ("bot", "efficiency bot D"),
        ]
        assert client.get(f"/api/rooms/{room}").json()["next"] is None
        # once per finished table
        twice = client.post(again, json={"owner_token": owner})
        assert twice.status_code == 409
        assert twice.json()["detail"]["code"] == "again_done"
        # Bo takes his place at the new table with the invite his socket was sent
        joined = client.post(
            f"/api/rooms/{new['id']}/join",
            json={"name": "Bo", "place": 2, "invite": told["next"]["invite"]},
        )
        assert joined.status_code == 200
        # Bo's link opened later on the closed table: its next table too; the watch link: not
        with client.websocket_connect(f"/ws/rooms/{room}?token={bo['token']}") as late:
            state = until(late, lambda m: m["type"] == "state")
            assert state["next"] == {"room": new["id"], "invite": new["invite"]}
            assert closes(late) == 4410
        with client.websocket_connect(f"/ws/rooms/{room}?token={made['watch_token']}") as late:
            state = until(late, lambda m: m["type"] == "state")
            assert "next" not in state
    with (
        TestClient(create_app(friends_db, limits=FAST)) as client,  # restarted
        client.websocket_connect(f"/ws/rooms/{room}?token={bo['token']}") as late,
    ):
        state = until(late, lambda m: m["type"] == "state")
        assert state["next"] == {"room": new["id"], "invite": new["invite"]}


def test_play_again_at_a_public_table_and_a_practice_table(tmp_path: Path) -> None:
    """A public table's info names its next table (a spectator may watch it; only the players
    are sent its invite); a practice table plays again started, the creator at her place."""
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=FAST)) as client:
        made, bo = finish(client, {"name": "Open"})
        room = made["id"]
        with (
            client.websocket_connect(f"/ws/rooms/{room}?token={bo['token']}") as friend,
            client.websocket_connect(f"/ws/rooms/{room}") as watcher,
        ):
            play_out(client, made, friend)
            until(watcher, lambda m: m["type"] == "session_end")
            answer = client.post(
                f"/api/rooms/{room}/again", json={"owner_token": made["owner_token"]}
            )
            assert answer.status_code == 200, answer.text
            new = answer.json()
            told = until(friend, lambda m: m["type"] == "state" and "next" in m)
            assert told["next"]["invite"] == new["invite"]
            seen = until(watcher, lambda m: m["type"] == "state" and m["room"]["next"])
            assert seen["room"]["next"] == new["id"] and "next" not in seen
            assert new["invite"] not in str(seen)
        assert client.get(f"/api/rooms/{room}").json()["next"] == new["id"]
        practice, _ = finish(client, {"practice": True, "bot_kind": "random"}, friend=False)
        with client.websocket_connect(
            f"/ws/rooms/{practice['id']}?token={practice['token']}"
        ) as ann:
            play_out(client, practice, ann)
            again = client.post(
                f"/api/rooms/{practice['id']}/again",
                json={"owner_token": practice["owner_token"]},
            ).json()
        info = client.get(f"/api/rooms/{again['id']}").json()
        assert info["practice"] and info["started"] and info["owner_place"] == 0
        assert [p["kind"] for p in info["places"]] == ["human", "bot", "bot", "bot"]
        assert {p["bot_kind"] for p in info["places"][1:]} == {"random"}


# -- the pages -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grace_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server where a person who never came is played by a bot after 1 s."""
    port = free_port()
    with server(tmp_path_factory.mktemp("audit9"), port, grace=1, claim=0.3):
        yield f"http://127.0.0.1:{port}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pages_mark_the_creator_and_a_bot_playing_for_a_friend(
    browser: Any, grace_server: str, lang: str
) -> None:
    """The waiting room tags the creator's place; once the session runs and Bo (who never came)
    is played by a bot, his plate says so ("bot playing" / 机器人代打), not only "offline"."""
    base = grace_server
    made = post(base, "/api/rooms", {"player": "Ann", "place": 0})
    post(base, f"/api/rooms/{made['id']}/join", {"name": "Bo", "invite": made["invite"]})
    page, errors = open_page(
        browser,
        f"{base}/room/{made['id']}?token={made['token']}&lang={lang}",
        viewport=VIEWPORTS["desktop"],
    )
    page.wait_for_selector("#waiting:not([hidden])")
    host = "开桌人" if lang == "zh" else "creator"
    tags = page.evaluate(
        "() => [...document.querySelectorAll('#wait-places li')].map((li) => li.querySelector('.host-mark') ? li.querySelector('.host-mark').textContent : null)"
    )
    assert tags == [host, None, None, None]
    post(base, f"/api/rooms/{made['id']}/start", {"owner_token": made["owner_token"], "fill": True})
    page.wait_for_selector("#table:not([hidden])")
    words = "机器人代打" if lang == "zh" else "bot playing"
    page.wait_for_function(
        "words => [...document.querySelectorAll('#center .plate .tag.bot-playing')].some((t) => t.textContent === words)",
        arg=words,
    )
    plate = page.evaluate(
        "() => [...document.querySelectorAll('#center .plate')].filter((p) => p.querySelector('.tag.bot-playing')).map((p) => p.querySelector('.name').title)"
    )
    assert plate == ["Bo"]
    assert get(base, f"/api/rooms/{made['id']}")["places"][1]["bot_playing"] is True
    assert errors == []
    page.context.close()


def test_a_private_table_opened_with_no_link_says_why(browser: Any, grace_server: str) -> None:
    """The page's refusal is the server's own ``private_room`` (it guessed from its keys)."""
    made = post(grace_server, "/api/rooms", {"player": "Ann", "private": True})
    page, _refused = open_page(browser, f"{grace_server}/room/{made['id']}?lang=zh")
    page.wait_for_selector("#offline:not([hidden])")
    assert page.evaluate("refusal.code") == "private_room"
    assert "邀请链接" in page.locator("#offline").inner_text()
    page.context.close()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server where a session takes seconds: the claim window, open after every discard while
    a person's page is connected, is the shortest ``guobiao serve`` takes (0.01 s)."""
    port = free_port()
    quick = 0.02
    with server(
        tmp_path_factory.mktemp("audit9-quick"),
        port,
        turn=quick,
        first_discard=quick,
        claim=0.01,
        grace=quick,
        bot_delay=0,
        between_hands=quick,
        bots_between=quick,
    ):
        yield f"http://127.0.0.1:{port}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_friends_page_offers_the_table_that_plays_again(
    browser: Any, quick_server: str, lang: str
) -> None:
    """At a private table's end the creator presses Play again: the friend's page (still on the
    old table) says "The table plays again: join", linking to the new table with its invite,
    which seats him there; the watch link's page says nothing of it."""
    base = quick_server
    made = post(base, "/api/rooms", {"name": "Friday", "private": True, "player": "Ann"})
    owner = made["owner_token"]
    bo = post(base, f"/api/rooms/{made['id']}/join", {"name": "Bo", "invite": made["invite"]})
    host, host_errors = open_page(
        browser, f"{base}/room/{made['id']}?token={made['token']}&lang={lang}"
    )
    host.evaluate(
        "([id, keys]) => saveRoomKeys(id, keys)",
        [made["id"], {"owner_token": owner, "invite": made["invite"]}],
    )
    friend, errors = open_page(browser, f"{base}/room/{made['id']}?token={bo['token']}&lang={lang}")
    watcher, watch_errors = open_page(
        browser, f"{base}/room/{made['id']}?watch={made['watch_token']}&lang={lang}"
    )
    for page in (host, friend, watcher):
        page.wait_for_selector("#waiting:not([hidden])")
    post(base, f"/api/rooms/{made['id']}/start", {"owner_token": owner, "fill": True})
    deadline = time.monotonic() + 240
    while not get(base, f"/api/rooms/{made['id']}")["ended"]:
        assert time.monotonic() < deadline, "the session did not end in four minutes"
        time.sleep(0.1)
    host.wait_for_selector("#overlay:not([hidden]) #play-again")
    host.click("#play-again")
    host.wait_for_url(lambda url: made["id"] not in url)
    friend.wait_for_selector("#next-table:not([hidden])")
    text = friend.locator("#next-table").inner_text()
    assert ("本桌再来一局" if lang == "zh" else "The table plays again") in text, text
    assert ("入座" if lang == "zh" else "join") in text
    href = friend.get_attribute("#next-link", "href")
    assert href is not None and "?invite=" in href
    again = href.split("/room/")[1].split("?")[0]
    assert again != made["id"]
    assert get(base, f"/api/rooms/{again}")["name"] == "Friday"
    assert watcher.locator("#next-table").is_hidden()
    assert watcher.evaluate("state.next === undefined && state.room.next === null")
    friend.click("#next-link")
    friend.wait_for_url(f"**/room/{again}")
    friend.wait_for_selector("#join-form:not([hidden])")
    friend.fill("#join-name", "Bo")
    friend.click("#join-btn")
    friend.wait_for_function("() => state && state.you === 1")
    assert errors == [] and watch_errors == [] and host_errors == []
    for page in (host, friend, watcher):
        page.context.close()
