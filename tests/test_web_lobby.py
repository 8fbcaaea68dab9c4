"""The lobby's *My tables*, the table page's copy-link buttons and the help page (/help).

API (in process): ``GET /api/fans`` is the ``Fan`` enum's 81 fans, ``GET /api/settings`` the
server's own table settings, ``GET /api/rooms/{id}`` says when a room is ``closed``; the public
list holds only live public rooms, the finished list at most 20, newest first; the help page has
the security headers and unknown paths still answer 404. In a browser (Playwright, Chromium)
against a real ``guobiao serve`` with unusual time limits: *My tables* rejoins the same seat,
forgets, drops a room that is gone and offers the replay of a finished one; the copy buttons put
the invite and watch links on the clipboard (or select them); /help shows the 81 fans and the
server's limits in English and 中文."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guobiao.scoring.fans import Fan
from guobiao.server.app import create_app, fan_table
from guobiao.server.rooms import Limits
from guobiao.server.store import RoomStore
from guobiao.table.rules import COMPETITION
from test_server_e2e import get, open_page, post
from test_server_hardening import assert_security_headers
from test_server_restart import free_port, server

MCR_POINTS = {1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 88}
# the browser tests' server: limits no default has, so the help page must read them from it
LIMITS = {
    "first_discard": 41,
    "turn": 17,
    "claim": 2.5,
    "grace": 23,
    "between_hands": 37,
    "auto_after": 3,
    "bots_between": 0,
}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def client_for(tmp_path: Path, **options: Any) -> TestClient:
    return TestClient(create_app(tmp_path / "rooms.sqlite3", **options))


# -- the API -----------------------------------------------------------------------------------


def test_fans_are_the_81_of_the_enum(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        fans = client.get("/api/fans").json()
    assert len(fans) == 81
    assert [f["number"] for f in fans] == list(range(1, 82))
    by_number = {fan.number: fan for fan in Fan}
    for f in fans:
        fan = by_number[f["number"]]
        assert (f["points"], f["zh"], f["en"]) == (fan.points, fan.zh, fan.en)
        assert f["points"] in MCR_POINTS
    assert {f["points"] for f in fans} == MCR_POINTS  # every value is used
    assert Fan.MELDED_AND_CONCEALED_KONG.zh not in {f["zh"] for f in fans}  # the mil profile's
    assert len(fan_table("mil")) == 82


def test_settings_are_the_servers_table_settings(tmp_path: Path) -> None:
    rules = {
        "minimum": COMPETITION.minimum,
        "base": COMPETITION.base,
        "starting_points": COMPETITION.starting_points,
        "hands_per_session": COMPETITION.hands_per_session,
        "flowers": COMPETITION.flowers,
        "fan_profile": COMPETITION.fan_profile,
    }
    with client_for(tmp_path) as client:
        settings = client.get("/api/settings").json()
    assert settings == {"limits": asdict(Limits()), "rules": rules}
    assert settings["limits"]["turn"] == 15 and settings["rules"]["minimum"] == 8  # 第七条, 第五条
    slower = Limits(turn=20, claim=5, first_discard=45)
    with client_for(tmp_path / "b", limits=slower) as client:
        settings = client.get("/api/settings").json()
        made = client.post("/api/rooms", json={"player": "me"}).json()
    assert settings["limits"] == asdict(slower) == made["room"]["limits"]


def test_a_room_says_when_it_is_closed(tmp_path: Path) -> None:
    clock = Clock()
    limits = Limits(first_discard=1e6, turn=1e6, claim=1e6, grace=1e6, idle_close=100.0)
    with client_for(tmp_path, limits=limits, clock=clock) as client:
        made = client.post("/api/rooms", json={"player": "me", "practice": True}).json()
        waiting = client.post("/api/rooms", json={"player": "me"}).json()
        url = f"/api/rooms/{made['id']}"
        client.post(url + "/start", json={"owner_token": made["owner_token"]})
        assert client.get(url).json()["closed"] is False
        clock.now += 100.0
        hub = client.app.state.hub  # type: ignore[attr-defined]
        client.portal.call(hub.sweep, clock.now)  # type: ignore[union-attr]
        room = client.get(url).json()
        assert room["closed"] is True and room["started"] and not room["ended"]  # abandoned
        assert client.get(f"/api/rooms/{waiting['id']}").status_code == 404  # expired: gone
        assert client.get("/api/rooms").json() == []
        assert client.get("/api/rooms?finished=true").json() == []  # not over: not listed


def test_the_lobby_lists_live_public_rooms_and_at_most_20_finished(tmp_path: Path) -> None:
    store = RoomStore(tmp_path / "rooms.sqlite3")
    for i in range(25):  # finished public rooms, closed in this order
        store.save(f"old{i}", {"id": f"old{i}"})
        store.close_room(f"old{i}", {"id": f"old{i}", "name": f"Old {i}", "ended": True})
    store.close()
    with client_for(tmp_path) as client:
        public = client.post("/api/rooms", json={"player": "me", "name": "open"}).json()
        private = client.post("/api/rooms", json={"player": "me", "private": True}).json()
        listed = client.get("/api/rooms").json()
        assert [r["id"] for r in listed] == [public["id"]]
        assert all(not r["ended"] for r in listed)
        text = json.dumps(listed)
        for made in (public, private):
            for key in ("owner_token", "watch_token", "invite", "token"):
                assert made[key] not in text
        finished = client.get("/api/rooms?finished=true").json()
        assert [r["id"] for r in finished] == [f"old{i}" for i in range(24, 4, -1)]


def test_help_has_the_security_headers_and_unknown_paths_404(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        for path in ("/help", "/static/help.js", "/static/help.css", "/api/fans", "/api/settings"):
            res = client.get(path)
            assert res.status_code == 200, path
            assert_security_headers(res.headers, path)
        page = client.get("/help").text
        assert '<script src="/static/help.js">' in page and "<script>" not in page
        for path in ("/helpx", "/help/fans", "/static/nope.js"):
            assert client.get(path).status_code == 404, path
        missing = client.get("/api/help/nope")
        assert missing.status_code == 404 and missing.json()["detail"]["code"] == "not_found"


# -- in the browser ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("lobby"), port, None, **LIMITS):
        yield f"http://127.0.0.1:{port}"


def rows_of_mine(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#mine .mine-row')]"
        ".map((r) => [r.dataset.room, r.innerText]))"
    )
    return found


def test_my_tables_rejoin_forget_and_drop_gone_rooms(browser: Any, base_url: str) -> None:
    # a table of four bots to finish meanwhile (no person: no pauses)
    bots = post(base_url, "/api/rooms", {"practice": True, "name": "Bots"})
    post(base_url, f"/api/rooms/{bots['id']}/start", {"owner_token": bots["owner_token"]})

    page, errors = open_page(browser, f"{base_url}/?lang=en")
    assert page.locator("#mine-card").is_hidden()  # nothing held yet
    page.fill("input[name=player]", "Zoe")
    page.click("button[value=quick]")
    page.wait_for_url("**/room/*")
    room_id = page.url.split("/")[-1]
    page.wait_for_selector("#hand button.tile:not([disabled])")
    keys = page.evaluate("id => JSON.parse(localStorage.getItem('guobiao:room:' + id))", room_id)
    assert keys["place"] == 0 and keys["token"]

    page.goto(f"{base_url}/?lang=en")
    page.wait_for_selector(f"#mine .mine-row[data-room='{room_id}']")
    first = page.evaluate("document.querySelector('.lobby-main').firstElementChild.id")
    assert first == "mine-card" and page.locator("#mine-card").is_visible()
    row = page.locator(f"#mine .mine-row[data-room='{room_id}']")
    assert "playing · hand 1/16" in row.inner_text()
    assert "your place: A · Zoe" in row.inner_text()
    tokens = [keys[k] for k in ("token", "owner_token", "invite", "watch_token")]
    hrefs: list[str] = page.evaluate("[...document.querySelectorAll('a')].map((a) => a.href)")
    assert not [h for h in hrefs if any(t in h for t in tokens)]  # no token in any link

    row.locator("a.rejoin").click()
    page.wait_for_url(f"**/room/{room_id}")
    page.wait_for_selector("#hand button.tile:not([disabled])")  # the same seat, its own hand
    assert page.locator("#plate-0 .name").inner_text().startswith("Zoe")
    places = get(base_url, f"/api/rooms/{room_id}")["places"]
    assert [p["kind"] for p in places] == ["human", "bot", "bot", "bot"]
    assert places[0]["name"] == "Zoe" and places[0]["connected"]

    # a room the server no longer has (stored keys, no such id), and the finished bots' table
    deadline = time.monotonic() + 20
    while not get(base_url, f"/api/rooms/{bots['id']}")["ended"]:
        assert time.monotonic() < deadline, "the bots did not finish their session"
        time.sleep(0.1)
    page.goto(f"{base_url}/?lang=en")
    page.evaluate(
        """([bots, owner]) => {
          localStorage.setItem('guobiao:room:NoSuchRoom12', JSON.stringify({token: 'x', at: 1}));
          localStorage.setItem('guobiao:room:' + bots, JSON.stringify({owner_token: owner, at: 2}));
        }""",
        [bots["id"], bots["owner_token"]],
    )
    page.reload()
    page.wait_for_function("() => localStorage.getItem('guobiao:room:NoSuchRoom12') === null")
    page.wait_for_selector(f"#mine .mine-row[data-room='{bots['id']}']")
    mine = rows_of_mine(page)
    assert list(mine) == [room_id, bots["id"]]  # the latest visited first
    done = page.locator(f"#mine .mine-row[data-room='{bots['id']}']")
    assert "finished" in done.inner_text() and done.locator("a.rejoin").count() == 0
    assert done.locator("a.replay-link").get_attribute("href") == f"/room/{bots['id']}/replay"
    # finished: under Finished tables only
    page.wait_for_selector(f"#finished a[href='/room/{bots['id']}/replay']")
    assert page.locator(f"#rooms a[href^='/room/{bots['id']}']").count() == 0

    # forget: gone from the list and from this browser
    page.locator(f"#mine .mine-row[data-room='{room_id}'] button.forget").click()
    assert set(rows_of_mine(page)) == {bots["id"]}
    assert page.evaluate("id => localStorage.getItem('guobiao:room:' + id)", room_id) is None
    done.locator("button.forget").click()
    assert page.locator("#mine-card").is_hidden()
    page.reload()
    page.wait_for_selector("#rooms .room-row, #rooms p")
    assert rows_of_mine(page) == {} and page.locator("#mine-card").is_hidden()

    # in 中文
    page.click("#lang")
    assert page.locator("#help-link").inner_text() == "帮助"
    # the gone room's 404, which the browser logs; nothing else
    assert errors == [
        "Failed to load resource: the server responded with a status of 404 (Not Found)"
    ]


def test_copy_link_buttons(browser: Any, base_url: str) -> None:
    page, errors = open_page(
        browser, f"{base_url}/?lang=en", permissions=["clipboard-read", "clipboard-write"]
    )
    page.fill("input[name=player]", "Host")
    page.check("input[name=private]")
    page.click("button[value=wait]")
    page.wait_for_url("**/room/*")
    room_id = page.url.split("/")[-1]
    page.wait_for_selector("#waiting:not([hidden])")
    assert page.locator("a.help-link").get_attribute("href") == "/help"
    keys = page.evaluate("id => JSON.parse(localStorage.getItem('guobiao:room:' + id))", room_id)

    page.click("#copy-invite")
    page.wait_for_function("() => document.querySelector('#invite-note').textContent === 'Copied'")
    invite = page.evaluate("navigator.clipboard.readText()")
    assert invite == f"{base_url}/room/{room_id}?invite={keys['invite']}"
    assert invite == page.locator("#share-link").input_value()

    page.click("#copy-watch")
    page.wait_for_function("() => document.querySelector('#watch-note').textContent === 'Copied'")
    watch = page.evaluate("navigator.clipboard.readText()")
    assert watch == f"{base_url}/room/{room_id}?watch={keys['watch_token']}"

    # the watch link watches this private table: no seat, no join form, the secret off the URL
    guest, guest_errors = open_page(browser, watch + "&lang=en")
    guest.wait_for_selector("#need-invite:not([hidden])")
    assert guest.locator("#join-form").is_hidden() and guest.locator("#invite-row").is_hidden()
    assert "watch=" not in guest.url
    assert guest.locator("#wait-places").inner_text().count("Host") == 1

    # no clipboard: the link is selected for the user to copy
    page.evaluate(
        "Object.defineProperty(navigator, 'clipboard', "
        "{value: {writeText: () => Promise.reject(new Error('denied'))}})"
    )
    page.evaluate("document.execCommand = () => false")
    page.click("#copy-invite")
    page.wait_for_function("() => document.querySelector('#invite-note').textContent !== ''")
    assert page.locator("#invite-note").inner_text().startswith("Selected")
    selected = page.evaluate(
        "(() => { const i = document.querySelector('#share-link');"
        " return [document.activeElement === i, i.selectionStart, i.selectionEnd]; })()"
    )
    assert selected == [True, 0, len(invite)]
    assert errors == [] and guest_errors == []


def test_help_page_fans_and_limits_in_both_languages(browser: Any, base_url: str) -> None:
    page, errors = open_page(browser, f"{base_url}/?lang=en")
    page.click("#help-link")
    page.wait_for_url("**/help")
    page.wait_for_selector("body[data-ready]")
    fans = [f for f in Fan if f is not Fan.MELDED_AND_CONCEALED_KONG]
    cells = (
        "[...document.querySelectorAll('tr.fan')].map((r) => [...r.cells].map((c) => c.innerText))"
    )
    assert page.evaluate(cells) == [[str(f.number), f.en, f.zh, str(f.points)] for f in fans]
    assert page.locator("#fans-title").inner_text() == "The 81 fans"
    limits = page.locator("#limits-list").inner_text()
    for text in ("first discard: 41 s", "17 s from the previous", "Claims: 2.5 s", "after 23 s"):
        assert text in limits
    assert "After 3 turn time-outs" in limits
    assert "at least 8 fan points" in page.locator("#win-list").inner_text()
    assert "or after 37 s" in page.locator("#play-list").inner_text()
    keys = page.locator("#keys-table").inner_text()
    for key in ("Space", "Enter", "Esc", "W", "C", "G", "K"):
        assert key in keys

    page.fill("#fan-filter", "dragon")
    shown = page.evaluate("[...document.querySelectorAll('tr.fan')].map((r) => r.dataset.number)")
    assert shown == [str(f.number) for f in fans if "dragon" in f.en.lower()]
    page.fill("#fan-filter", "")

    page.click("#lang")
    assert page.evaluate(cells) == [[str(f.number), f.zh, f.en, str(f.points)] for f in fans]
    assert page.locator("#fans-title").inner_text() == "81个番种"
    assert page.locator("h1").inner_text() == "玩法说明"
    limits = page.locator("#limits-list").inner_text()
    for text in ("完成后 41 秒", "起 17 秒", "后 2.5 秒", "断线 23 秒", "连续 3 次"):
        assert text in limits
    assert "至少 8 番" in page.locator("#win-list").inner_text()
    groups = page.evaluate("[...document.querySelectorAll('th.group')].map((g) => g.innerText)")
    assert groups[0] == "88番（7种）" and len(groups) == 12
    assert errors == []


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lobby_on_a_phone_title_on_one_line_and_taps_a_finger_high(
    browser: Any, base_url: str, lang: str
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base_url}/?lang={lang}")
    page.wait_for_selector("#create button[type=submit]")
    assert page.evaluate("LANG") == lang
    title = page.evaluate(
        """() => { const h = document.querySelector('.bar h1'), s = getComputedStyle(h);
                   return [h.getBoundingClientRect().height, parseFloat(s.lineHeight)
                           || parseFloat(s.fontSize) * 1.2, h.innerText]; }"""
    )
    height, line, text = title
    assert height < 1.5 * line, f"{text!r} takes {height / line:.1f} lines"
    small = page.evaluate(
        """() => [...document.querySelectorAll(
                 '.bar a.button, .bar button, #create button, #create select, #create input')]
               .filter((e) => e.offsetParent !== null && e.type !== 'checkbox')
               .map((e) => [e.innerText || e.name || e.tagName, e.getBoundingClientRect().height])
               .filter(([, h]) => h < 44)"""
    )
    assert small == [], small  # each at least 44 px high: a finger's tap
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    context.close()
