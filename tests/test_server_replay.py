"""The replay of finished hands (``GET /api/rooms/{id}/hands[/{n}]``, ``/room/{id}/replay``):
one frame per action with every seat face up, the final frame's result the hand's own, and never
a hand still in play."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from guobiao.server.app import create_app
from guobiao.server.protocol import replay_frames
from guobiao.server.rooms import Limits, Room, RoomError
from guobiao.table.game import Action, Game
from test_server_app import new_room, play_randomly

Message = dict[str, Any]
QUICK = Limits(
    first_discard=60, turn=60, claim=0.05, grace=60, bot_delay=0, between_hands=0, rate=50
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=QUICK)) as c:
        yield c


def tiles_in(frame: Message) -> int:
    """Every tile a frame places: hands, the drawn tile, melds, discards, flowers, the wall."""
    placed = sum(len(h) // 2 for h in frame["hands"]) + (frame["drawn"] is not None)
    placed += sum(len(m["tiles"]) for seat in frame["melds"] for m in seat)
    placed += sum(len(d) // 2 for d in frame["discards"]) + sum(
        len(f) // 2 for f in frame["flowers"]
    )
    return placed + int(frame["wall"])


def play_first_hand(client: TestClient) -> Message:
    """A room whose first hand a person played to its end (between_hands=0: the second hand is
    then dealt at once, and is in play)."""
    made = new_room(client)
    with client.websocket_connect(f"/ws/rooms/{made['id']}?token={made['token']}") as ws:
        play_randomly(ws, random.Random(3))
    room = room_of(client, made["id"])
    deadline = time.monotonic() + 30
    while len(room.games) < 2:  # the room's driver deals the next hand on its own time
        assert time.monotonic() < deadline, "the second hand was not dealt"
        time.sleep(0.01)
    return made


def room_of(client: TestClient, room_id: str) -> Room:
    """The room in play, or a room the server closed (its session over), read from its store."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room: Room | None = hub.lobby.rooms.get(room_id)
    if room is None:
        room = Room.from_dict(hub.store.load(room_id), QUICK, 0.0)
    return room


def test_a_finished_hand_replays_frame_by_frame(client: TestClient) -> None:
    made = play_first_hand(client)
    room = room_of(client, made["id"])
    game = room.games[0]
    assert game.result is not None
    got = client.get(f"/api/rooms/{made['id']}/hands/0")
    assert got.status_code == 200, got.text
    replay = got.json()
    frames = replay["frames"]
    record = game.record()
    assert len(frames) == len(record["actions"]) + 1
    assert frames[0]["action"] is None and frames[0]["seat"] is None
    assert [[f["seat"], f["action"]] for f in frames[1:]] == record["actions"]
    assert frames[-1]["result"] == game.result.summary()
    assert all("result" not in f for f in frames[:-1])
    assert all(tiles_in(f) == 144 for f in frames)  # every tile somewhere, at every step
    assert frames[0]["wall"] > frames[-1]["wall"]
    last = frames[-1]
    assert last["phase"] == "over"
    for seat in range(4):  # face up: each seat's own concealed tiles, melds, flowers
        hand = game.hand_of(seat)
        assert last["hands"][seat] == "".join(str(t) for t in hand.concealed)
        assert len(last["melds"][seat]) == len(hand.melds)
    assert replay["names_by_seat"] == room.names_of_hand(0)
    assert replay["hand_number"] == 0 and replay["hands"] == 16
    # nothing of the wall's order, the dice or the seeds: only the number of tiles left
    text = json.dumps(replay)
    for word in ('"build"', '"dice"', '"seed"', "token"):
        assert word not in text, word
    # each frame is the state after its action: the same as replaying the record that far
    probe = Game.replay(record, actions=False)
    for frame, (seat, text_action) in zip(frames[1:], record["actions"], strict=True):
        probe.act(seat, Action.parse(text_action))
        assert frame["wall"] == probe.wall_remaining
        assert frame["phase"] == probe.phase.value


def test_the_hand_list_and_a_live_hand_refused(client: TestClient) -> None:
    made = play_first_hand(client)
    room = room_of(client, made["id"])
    live = room.games[-1]
    assert len(room.games) == 2 and not live.is_over  # the second hand is in play
    listed = client.get(f"/api/rooms/{made['id']}/hands").json()
    assert listed["tiles"]["W1"]["zh"] == "一万"
    first, second = listed["hands"]
    assert first["over"] and first["deltas"] == list(room.games[0].result.deltas)  # type: ignore[union-attr]
    assert second == {
        "number": 1,
        "round_wind": "E",
        "over": False,
        "names_by_seat": room.names_of_hand(1),
    }
    refused = client.get(f"/api/rooms/{made['id']}/hands/1")
    assert refused.status_code == 409
    assert refused.json()["detail"]["code"] == "hand_live"
    # nothing of the live hand's tiles in the refusal nor in the list
    for text in (refused.text, json.dumps(listed["hands"])):
        for t in live.hand_of(0).concealed:
            assert f'"{t}"' not in text
        assert '"hands"' not in text and '"frames"' not in text and '"wall"' not in text
    with pytest.raises(RoomError) as err:
        room.replay(1)
    assert err.value.code == "hand_live"


def test_a_hand_in_play_from_the_start_is_refused(client: TestClient) -> None:
    made = new_room(client)  # the person is East and has not discarded: hand 0 is live
    url = f"/api/rooms/{made['id']}/hands"
    refused = client.get(url + "/0")
    assert refused.status_code == 409
    assert "frames" not in refused.text
    assert [h["over"] for h in client.get(url).json()["hands"]] == [False]


def test_unknown_rooms_and_hands(client: TestClient) -> None:
    made = new_room(client, start=False)
    assert client.get("/api/rooms/nope/hands").status_code == 404
    assert client.get("/api/rooms/nope/hands/0").status_code == 404
    not_started = client.get(f"/api/rooms/{made['id']}/hands/0")
    assert not_started.status_code == 404 and not_started.json()["detail"]["code"] == "no_hand"
    assert client.get(f"/api/rooms/{made['id']}/hands").json()["hands"] == []
    started = new_room(client)
    for number in ("1", "16"):
        got = client.get(f"/api/rooms/{started['id']}/hands/{number}")
        assert got.status_code == 404, number
    for number in ("x", "-1", str(2**63)):  # not a hand number at all
        assert client.get(f"/api/rooms/{started['id']}/hands/{number}").status_code == 422


def test_a_private_rooms_hands_need_a_token(client: TestClient) -> None:
    made = new_room(client, private=True)
    url = f"/api/rooms/{made['id']}/hands"
    for token in ("", "guess", made["id"]):
        got = client.get(url, params={"token": token})
        assert got.status_code == 403, token
    for token in (made["invite"], made["watch_token"], made["owner_token"], made["token"]):
        assert client.get(url, params={"token": token}).status_code == 200
    assert client.get(url + "/0", params={"token": "guess"}).status_code == 403


def test_finished_rooms_are_listed_for_replay(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"name": "Bots", "practice": True, "seed": 11}).json()
    client.post(
        f"/api/rooms/{made['id']}/start", json={"owner_token": made["owner_token"], "fill": True}
    )
    deadline = time.monotonic() + 120
    while not client.get(f"/api/rooms/{made['id']}").json()["ended"]:
        assert time.monotonic() < deadline, "the bots did not finish their session"
        time.sleep(0.05)
    assert made["id"] not in [r["id"] for r in client.get("/api/rooms").json()]
    finished = client.get("/api/rooms", params={"finished": "true"}).json()
    assert [r["id"] for r in finished] == [made["id"]]
    assert "token" not in json.dumps(finished)
    hands = client.get(f"/api/rooms/{made['id']}/hands").json()["hands"]
    assert len(hands) == 16 and all(h["over"] for h in hands)
    room = room_of(client, made["id"])
    for number in (0, 15):
        frames = client.get(f"/api/rooms/{made['id']}/hands/{number}").json()["frames"]
        result = room.games[number].result
        assert result is not None and frames[-1]["result"] == result.summary()


def test_pages_are_served(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"name": "r"}).json()
    page = client.get(f"/room/{made['id']}/replay")
    assert page.status_code == 200 and "replay.js" in page.text
    assert client.get("/room/abc/replay").status_code == 404  # no such table
    assert client.get("/static/replay.js").status_code == 200


def test_a_resumed_room_replays_the_same(client: TestClient) -> None:
    made = play_first_hand(client)
    room = room_of(client, made["id"])
    again = Room.from_dict(room.to_dict(), QUICK, 0.0)
    assert again.replay(0) == room.replay(0)


def test_replay_frames_refuse_a_hand_not_over() -> None:
    game = Game(seed=5)
    with pytest.raises(ValueError, match="not over"):
        replay_frames(game.record())
