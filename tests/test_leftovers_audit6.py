"""Leftovers of the sixth audit, each fixed here (the pages in Chromium:
tests/test_leftovers_audit6_browser.py).

- ``GET /api/rooms`` listed every open table: about 1 MB at 1,000 rooms, on every lobby refresh.
  It now lists a page (``limit``, at most ``LOBBY_PAGE``; those waiting for players first) and
  says in ``X-More-Rooms`` how many more there are.
- Counts of one tile said "1 standing tiles" and "[1 tiles]".
- ``guobiao tournament hand --tiles`` without a ``+`` winning tile did not say how many tiles the
  hand had, nor how many it should (``guobiao fan`` does).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from guobiao.core import shanten as sh
from test_organiser_audit5 import T, event, refused

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from guobiao.server.app import create_app
from guobiao.server.rooms import Limits

# -- GET /api/rooms is bounded -----------------------------------------------------------------


def test_the_lobby_list_is_a_page_with_a_count_of_the_rest(tmp_path: Path) -> None:
    limits = Limits(create_burst=200, address_rooms=200)
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=limits)) as client:
        made = [client.post("/api/rooms", json={"player": f"p{i}"}) for i in range(70)]
        assert all(r.status_code == 200 for r in made)
        answer = client.get("/api/rooms")
        listed = answer.json()
        assert len(listed) == 50
        assert answer.headers["X-More-Rooms"] == "20"
        ids = [m.json()["id"] for m in made]
        assert [r["id"] for r in listed] == ids[:50]  # in the order they were made
        small = client.get("/api/rooms", params={"limit": 5})
        assert len(small.json()) == 5 and small.headers["X-More-Rooms"] == "65"
        assert client.get("/api/rooms", params={"limit": 1000}).status_code == 422
        assert client.get("/api/rooms", params={"limit": 0}).status_code == 422


def test_tables_waiting_for_players_come_first(tmp_path: Path) -> None:
    limits = Limits(create_burst=200, address_rooms=200)
    with TestClient(create_app(tmp_path / "rooms.sqlite3", limits=limits)) as client:
        waiting = client.post("/api/rooms", json={"player": "w"}).json()["id"]
        # a table being played by someone connected is listed, after the waiting ones
        playing = client.post("/api/rooms", json={"player": "p"}).json()
        client.post(
            f"/api/rooms/{playing['id']}/start",
            json={"owner_token": playing["owner_token"], "fill": True},
        )
        later = client.post("/api/rooms", json={"player": "l"}).json()["id"]
        with client.websocket_connect(f"/ws/rooms/{playing['id']}?token={playing['token']}"):
            listed = [r["id"] for r in client.get("/api/rooms").json()]
            assert listed == [waiting, later, playing["id"]]
            one = client.get("/api/rooms", params={"limit": 1})
            assert [r["id"] for r in one.json()] == [waiting]
            assert one.headers["X-More-Rooms"] == "2"


# -- one tile ------------------------------------------------------------------------------------


def test_one_standing_tile_is_one_tile() -> None:
    counts = [0] * 34
    counts[0] = 1
    with pytest.raises(ValueError) as err:
        sh.shanten(counts, 0)
    assert str(err.value).startswith("1 standing tile with no meld")
    with pytest.raises(ValueError) as err:
        sh.waits([2] + [0] * 33, 4)  # a 14-form hand asked for its waits
    assert "(1 standing tile)" in str(err.value)


def test_shanten_counts_one_live_tile_as_one() -> None:
    # W1 waits on the last W1 there is: two on the table, one in the hand
    hand = "[W3W4W5] [B1B2B3] [B4B5B6] [T1T1T1] W1"
    result = CliRunner().invoke(main, ["shanten", hand, "--visible", "W1W1"])
    assert result.exit_code == 0, result.output
    assert "[1 tile]" in result.output and "1 tiles" not in result.output


# -- tournament hand --tiles names the hand's size --------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "said"),
    [
        ("W1W1W1W2W3W4W5W6W7W8W9W9W9W5", "the hand has 14 standing tiles and no '+'"),
        (
            "W1W1W1W2W3W4W5W6W7W8W9W9",
            "the hand has 12 standing tiles: with no meld a hand holds 13",
        ),
        ("W1 [W2W3W4]", "the hand has 1 standing tile: with 1 meld a hand holds 10"),
    ],
)
def test_hand_tiles_without_a_winning_tile_name_the_size(
    tmp_path: Path, tiles: str, said: str
) -> None:
    spring = event(tmp_path)
    out = refused(
        spring["url"], "hand", T, "--session", "1", "--table", "3", "--hand", "1",
        "--winner", "E", "--from", "S", "--fan", "8", "--tiles", tiles,
    )  # fmt: skip
    assert said in out, out
    assert "after '+'" in out
