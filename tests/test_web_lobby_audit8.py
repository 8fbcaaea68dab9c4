"""The way into a game and back out, eighth audit, in headless Chromium against a real ``guobiao
serve``: the creator's Start seats the bots chosen beside it (it seated the table's own kind,
whatever the list said, and the list did not start at the lobby's choice); the waiting room names
the table (its header hides the name on a phone), says who of the people is here and what the
page waits for (a friend seated saw four places and nothing else), and a private table opened
without a link says why it cannot be opened; a person who leaves the table or comes back is told
to everyone; a table the server closed (abandoned) says so on a phone, its clocks stopped; the
creator can play again at the session's end; ←/→ keep the keyboard's focus on the hand; the help
page teaches getting in and out of a table, seats and winds hand by hand (as the server seats a
session) and what each fan asks of a hand. Each test failed on the pages before this audit; the
seat rotation on the table (already right) is guarded in the session test."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from guobiao.bots import BOT_NAMES, LEVEL_NAMES
from guobiao.scoring.fans import Fan
from guobiao.table.glossary import TABLE_NAME, TERMS, WINDS
from guobiao.table.session import seating
from test_server_e2e import get, open_page, post, shot
from test_server_restart import free_port, server
from test_web_layout import CLAIM, VIEWPORTS, practice_table

PHONE = {"viewport": VIEWPORTS["phone"], "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("audit8"), port, between_hands=600, claim=CLAIM):
        yield f"http://127.0.0.1:{port}"


def create_waiting(page: Any, name: str, kind: str = "efficiency", private: bool = True) -> str:
    """Create a table to share from the lobby (``kind``: the lobby's Bots); its id."""
    page.fill("input[name=player]", name)
    page.select_option("select[name=bot_kind]", kind)
    if private:
        page.check("input[name=private]")
    page.click("button[value=wait]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#owner:not([hidden])")
    return str(page.url.rstrip("/").split("/")[-1])


def test_start_seats_the_bots_chosen_beside_it(browser: Any, base_url: str) -> None:
    """The creator chose "easy · random" bots in the lobby; the waiting room's list beside Start
    said "easy · efficiency", and Start seated the table's own kind whatever the list said (chose
    "normal · fan", pressed Start: three efficiency bots). The list now starts at the lobby's
    choice, and Start seats the kind it shows; the line under Start says what it will do."""
    page, errors = open_page(browser, f"{base_url}/?lang=en", viewport=VIEWPORTS["desktop"])
    room = create_waiting(page, "Hana", kind="random")
    assert page.input_value("#bot-kind") == "random"
    page.select_option("#bot-kind", "fan")
    fan = f"{LEVEL_NAMES['normal'].en} · {BOT_NAMES['fan'].en}"
    note = page.locator("#start-note").inner_text()
    assert "3 empty places" in note and fan in note, note
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    places = get(base_url, f"/api/rooms/{room}")["places"]
    assert [(p["kind"], p["bot_kind"]) for p in places] == [("human", None)] + [("bot", "fan")] * 3
    assert errors == []
    page.context.close()


# Each place of the waiting room as drawn: its text, and its tag's class (here / offline).
PLACES = """() => [...document.querySelectorAll('#wait-places li')].map((li) => {
  const tag = li.querySelector('.tag');
  return {text: li.innerText, tag: tag ? tag.className.replace('tag', '').trim() : null};
})"""


def presence(base_url: str, room: str) -> list[str | None]:
    """What the waiting room must tag each place with: the server's word (connected or not) for
    a person, nothing for a bot or an empty place."""
    places = get(base_url, f"/api/rooms/{room}")["places"]
    return [
        ("here" if p["connected"] else "offline") if p["kind"] == "human" else None for p in places
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_waiting_room_says_who_is_here_and_what_it_waits_for(
    browser: Any, base_url: str, lang: str
) -> None:
    """A friend who took a place (390x844) saw the four places and nothing else: not the table's
    name (the header hides it on a phone), not what they were waiting for, not whether the
    others were there; the creator could not tell a friend who had closed the tab from one
    still there; a page opened with the invite link once every place was taken said nothing; a
    private table opened without any link said "This link opens no place at this table". Now:
    the table's name heads the card, each person is tagged here / offline as the server says,
    a friend reads that the creator starts the session, the creator reads who is away and what
    Start will seat, a full table says that one watches, a private one what link it needs."""
    host, errors = open_page(browser, f"{base_url}/?lang={lang}", **PHONE)
    room = create_waiting(host, "Hana")
    link = host.input_value("#share-link")
    guest, guest_errors = open_page(browser, f"{link}&lang={lang}", **PHONE)
    guest.wait_for_selector("#join-form:not([hidden])")
    guest.fill("#join-name", "Bo")
    guest.click("#join-btn")
    guest.wait_for_function("() => state && state.you === 1")
    table = TABLE_NAME.zh if lang == "zh" else TABLE_NAME.en
    assert guest.locator("#wait-name").inner_text() == table.format(id=room[:4])
    waits = "等待开桌人开始本局" if lang == "zh" else "Waiting for the table's creator to start"
    assert waits in guest.locator("#wait-note").inner_text()
    expected = presence(base_url, room)
    assert expected == ["here", "here", None, None]
    guest.wait_for_function(
        "n => document.querySelectorAll('#wait-places .tag').length === n", arg=2
    )
    assert [p["tag"] for p in guest.evaluate(PLACES)] == expected
    # Bo closes the tab: the creator sees it, and what Start will do meanwhile
    guest.context.close()
    host.wait_for_function("() => document.querySelector('#wait-places .tag.offline') !== null")
    assert [p["tag"] for p in host.evaluate(PLACES)] == presence(base_url, room)
    assert presence(base_url, room)[1] == "offline"
    note = host.locator("#start-note").inner_text()
    assert "Bo" in note and "600" in note, note  # LONG's grace: 600 s
    assert not host.locator("#wait-note").is_visible()  # the creator waits for nobody
    shot(host, f"audit8-waiting-host-{lang}.png")
    # every place taken: the invite link watches, and says so
    host.click("#add-bots")
    host.wait_for_function("() => state.room.places.every((p) => p.kind !== 'empty')")
    late, late_errors = open_page(browser, f"{link}&lang={lang}", **PHONE)
    late.wait_for_selector("#waiting:not([hidden])")
    late.wait_for_function("() => document.querySelector('#wait-note').textContent !== ''")
    full = "座位已满" if lang == "zh" else "Every place is taken"
    assert full in late.locator("#wait-note").inner_text()
    assert late.locator("#join-form").is_hidden()
    shot(late, f"audit8-waiting-full-{lang}.png")
    # no link at all: the private table says which link it needs
    stranger, _refused = open_page(browser, f"{base_url}/room/{room}?lang={lang}", **PHONE)
    stranger.wait_for_selector("#offline:not([hidden])")
    words = "邀请链接" if lang == "zh" else "invite link"
    assert words in stranger.locator("#offline").inner_text()
    assert errors == [] and guest_errors == [] and late_errors == []
    for page in (host, late, stranger):
        page.context.close()


# Every line the table's log was given (it keeps three), as written.
LOG_LINES = """() => {
  window.logged = [];
  const add = window.addLog;
  window.addLog = function (text, msg) { if (text) window.logged.push(text); return add(text, msg); };
}"""


def test_a_player_who_leaves_and_comes_back_is_told_to_everyone(
    browser: Any, base_url: str
) -> None:
    """A friend's tab closed mid-hand: the others saw a small "offline" on a plate at most, no
    word that a bot would play for them, nor of their return. The log now tells everyone (at the
    table and watching) "Bo left the table: a bot plays for them after 600 s, until they come
    back" and "Bo is back"."""
    host, errors = open_page(browser, f"{base_url}/?lang=en", viewport=VIEWPORTS["desktop"])
    room = create_waiting(host, "Hana", private=False)
    link = host.input_value("#share-link")
    friend = browser.new_context(**PHONE)
    guest = friend.new_page()
    guest.goto(f"{link}&lang=en")
    guest.wait_for_selector("#join-form:not([hidden])")
    guest.fill("#join-name", "Bo")
    guest.click("#join-btn")
    guest.wait_for_function("() => state && state.you === 1")
    watcher, watch_errors = open_page(browser, f"{base_url}/room/{room}?lang=en")
    watcher.wait_for_selector("#waiting:not([hidden])")
    host.click("#start")
    for page in (host, watcher):
        page.wait_for_selector("#table:not([hidden])")
        page.evaluate(LOG_LINES)
    guest.wait_for_selector("#table:not([hidden])")
    guest.close()  # the tab, not the browser: its link stays for coming back
    left = "Bo left the table: a bot plays for them after 600 s, until they come back."
    for page in (host, watcher):
        page.wait_for_function("line => window.logged.includes(line)", arg=left)
    assert get(base_url, f"/api/rooms/{room}")["places"][1]["connected"] is False
    back = friend.new_page()
    back.goto(f"{base_url}/room/{room}?lang=en")
    back.wait_for_selector("#table:not([hidden])")
    for page in (host, watcher):
        page.wait_for_function("line => window.logged.includes(line)", arg="Bo is back.")
    assert back.evaluate("state.you") == 1  # back at the place, from this browser's link
    assert errors == [] and watch_errors == []
    for page in (host, watcher, back):
        page.context.close()


@pytest.fixture(scope="module")
def closed_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server that closes a table nobody is at after 1 s, and a practice table Ann never came
    to, closed (abandoned) in the middle of its first hand: the base URL and the room as made."""
    port = free_port()
    with server(tmp_path_factory.mktemp("audit8-closed"), port, idle_close=1):
        base = f"http://127.0.0.1:{port}"
        made = post(base, "/api/rooms", {"player": "Ann", "practice": True, "seed": 3})
        post(base, f"/api/rooms/{made['id']}/start", {"owner_token": made["owner_token"]})
        deadline = time.monotonic() + 30
        while not get(base, f"/api/rooms/{made['id']}").get("closed"):
            assert time.monotonic() < deadline, "the table was not closed in 30 s"
            time.sleep(0.2)
        yield base, made


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_closed_table_says_so_on_a_phone(
    browser: Any, closed_room: tuple[str, Any], lang: str
) -> None:
    """A table the server had closed (nobody at it for a while) opened on a phone as if in play:
    Ann's turn, her clock running down, her tiles to tap (to no effect), and nothing said that
    it was closed (the header's status, hidden on a phone, alone did). Now a notice says so,
    with links to its replays and the lobby; no clock runs and nothing is to play."""
    base, made = closed_room
    page, errors = open_page(
        browser, f"{base}/room/{made['id']}?token={made['token']}&lang={lang}", **PHONE
    )
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_selector("#offline:not([hidden])")
    note = page.locator("#offline")
    assert ("本桌已关闭" if lang == "zh" else "This table is closed") in note.inner_text()
    links = page.evaluate(
        "() => [...document.querySelectorAll('#offline a')].map((a) => a.getAttribute('href'))"
    )
    assert links == [f"/room/{made['id']}/replay", "/"]
    page.wait_for_function("() => !document.querySelector('#clock').classList.contains('on')")
    assert page.evaluate("() => document.querySelector('#countdown').textContent") == ""
    assert page.evaluate("() => state.must_act") is False
    assert page.locator("#hand button.tile:not([disabled])").count() == 0
    assert note.bounding_box()["width"] <= 390
    shot(page, f"audit8-closed-{lang}.png")
    assert errors == []
    page.context.close()


# The table's round, and each plate's seat wind, name and dealer's mark, at each render.
SNAPSHOTS = """() => {
  window.snaps = [];
  const draw = window.renderCenter;
  window.renderCenter = function (...args) {
    draw.apply(this, args);
    snaps.push({hand: state.hand_number, round: document.querySelector('#center .round').textContent,
      plates: [0, 1, 2, 3].map((pos) => {
        const plate = document.querySelector('#plate-' + pos);
        return {wind: plate.querySelector('.wind-word').textContent, name: plate.querySelector('.name').title,
                dealer: plate.querySelector('.dealer') !== null};
      })});
  };
}"""


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server where a session takes seconds: every turn, claim window and pause short. With a
    person's page connected the claim window opens after every discard (a thousand or so a
    session): it is the shortest ``guobiao serve`` takes (0.01 s)."""
    port = free_port()
    quick = 0.05
    with server(
        tmp_path_factory.mktemp("audit8-quick"),
        port,
        turn=quick,
        first_discard=quick,
        claim=0.01,
        bot_delay=0,
        between_hands=quick,
        bots_between=quick,
    ):
        yield f"http://127.0.0.1:{port}"


def wait_until_over(base: str, room: str) -> None:
    deadline = time.monotonic() + 240
    while not get(base, f"/api/rooms/{room}")["ended"]:
        assert time.monotonic() < deadline, "the session did not end in four minutes"
        time.sleep(0.1)


def test_play_again_after_a_practice_session_and_seats_hand_by_hand(
    browser: Any, quick_server: str
) -> None:
    """After the sixteenth hand the session's box offered Close, a replay link and the lobby: a
    new game meant the lobby's form again. Its creator now has Play again: a new practice table
    with the same bots, started, Ann at her place. While the session plays, each hand's round,
    seat winds and dealer on the table are those the server's seating gives (guarded: right
    already)."""
    base = quick_server
    made = post(
        base, "/api/rooms", {"player": "Ann", "practice": True, "bot_kind": "random", "seed": 5}
    )
    page, errors = open_page(
        browser,
        f"{base}/room/{made['id']}?token={made['token']}&lang=en",
        viewport=VIEWPORTS["desktop"],
    )
    page.wait_for_selector("#waiting:not([hidden])")
    page.evaluate(SNAPSHOTS)
    # the creator's keys, as the lobby keeps them (the link opened holds the seat's alone)
    page.evaluate(
        "([id, owner]) => saveRoomKeys(id, {owner_token: owner})", [made["id"], made["owner_token"]]
    )
    post(base, f"/api/rooms/{made['id']}/start", {"owner_token": made["owner_token"]})
    wait_until_over(base, made["id"])
    page.wait_for_selector("#overlay:not([hidden]) #play-again")
    names = [p["name"] for p in get(base, f"/api/rooms/{made['id']}")["places"]]
    winds = [TERMS[w].en for w in WINDS]
    seen: dict[int, set[str]] = {}
    for snap in page.evaluate("snaps"):
        n = snap["hand"]
        seats = seating(n)  # the places (A-D) at E S W N in hand n, as the server seats them
        assert snap["round"].startswith(f"{winds[n // 4]} round"), snap
        assert f"Hand {n + 1}/16" in snap["round"], snap
        for plate in snap["plates"]:
            seat = seats.index(names.index(plate["name"]))
            assert plate["wind"] == winds[seat], (n, snap)
            assert plate["dealer"] == (seat == 0), (n, snap)
        seen.setdefault(n, set()).add(snap["plates"][0]["wind"])
    assert sorted(seen) == list(range(16))
    assert all(len(w) == 1 for w in seen.values())  # Ann's wind never changes within a hand
    page.click("#play-again")
    page.wait_for_url(re.compile(r".*/room/(?!" + re.escape(made["id"]) + r")[\w-]+$"))
    again = page.url.rstrip("/").split("/")[-1]
    info = get(base, f"/api/rooms/{again}")
    assert info["practice"] and info["started"] and not info["private"]
    assert info["bot_kind"] == "random"
    assert [
        (p["kind"], p["name"] if p["kind"] == "human" else p["bot_kind"]) for p in info["places"]
    ] == [
        ("human", "Ann"),
        ("bot", "random"),
        ("bot", "random"),
        ("bot", "random"),
    ]
    page.wait_for_function("() => state && state.you === 0 && state.room.started")
    assert errors == []
    page.context.close()


def test_play_again_at_a_table_with_friends(browser: Any, quick_server: str) -> None:
    """A table with a friend and bots of two kinds: Play again makes a new table with its name,
    private, its creator at her place and each bot of the same kind at its place; the friend's
    place is open for the new invite link, which the creator's waiting room shows."""
    base = quick_server
    made = post(base, "/api/rooms", {"name": "Friday", "private": True, "player": "Ann"})
    owner = made["owner_token"]
    post(
        base, f"/api/rooms/{made['id']}/bots", {"owner_token": owner, "kind": "random", "place": 1}
    )
    post(
        base, f"/api/rooms/{made['id']}/join", {"name": "Bo", "place": 2, "invite": made["invite"]}
    )
    post(base, f"/api/rooms/{made['id']}/bots", {"owner_token": owner, "kind": "fan", "place": 3})
    post(base, f"/api/rooms/{made['id']}/start", {"owner_token": owner})
    wait_until_over(base, made["id"])
    page, errors = open_page(
        browser,
        f"{base}/room/{made['id']}?token={made['token']}&lang=zh",
        viewport=VIEWPORTS["desktop"],
    )
    # the creator's own keys, as the lobby keeps them
    page.evaluate(
        "([id, keys]) => saveRoomKeys(id, keys)",
        [made["id"], {"owner_token": owner, "invite": made["invite"]}],
    )
    page.reload()
    page.wait_for_selector("#overlay:not([hidden]) #play-again")
    assert page.locator("#play-again").inner_text() == "再来一局"
    page.click("#play-again")
    page.wait_for_url(re.compile(r".*/room/(?!" + re.escape(made["id"]) + r")[\w-]+$"))
    again = page.url.rstrip("/").split("/")[-1]
    info = get(base, f"/api/rooms/{again}")
    assert info["name"] == "Friday" and info["private"] and not info["practice"]
    assert not info["started"]
    assert [
        (p["kind"], p["name"] if p["kind"] == "human" else p["bot_kind"]) for p in info["places"]
    ] == [
        ("human", "Ann"),
        ("bot", "random"),
        ("empty", None),
        ("bot", "fan"),
    ]
    page.wait_for_selector("#invite-row:not([hidden])")
    assert f"/room/{again}?invite=" in page.input_value("#share-link")
    assert errors == []
    page.context.close()


# Where the keyboard's focus is: the index of the hand's tile it is on (-1: not on the hand).
FOCUSED = "() => [...document.querySelectorAll('#hand > *')].indexOf(document.activeElement)"


def test_arrow_keys_keep_the_keyboards_focus_on_the_hand(browser: Any, base_url: str) -> None:
    """Tabbed to a tile of the hand, ← or → redrew the hand and the focus fell to the page (the
    next Tab started again from the header). The focus now moves with the selection: → from
    the focused tile to its right neighbour, ← back; Enter discards it."""
    page, errors = practice_table(browser, base_url, "desktop")
    page.evaluate("document.activeElement.blur()")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) >= 0:
            break
    start = page.evaluate(FOCUSED)
    assert start >= 0
    count = page.evaluate("document.querySelectorAll('#hand > *').length")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED) == (start + 1) % count
    assert page.evaluate("selected") == (start + 1) % count
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUSED) == (start - 1) % count
    tile = page.evaluate("document.activeElement.dataset.tile")
    page.keyboard.press("Enter")
    page.wait_for_function("tile => state.view.discards[state.seat].includes(tile)", arg=tile)
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("lang", "size"), [("en", "phone"), ("zh", "desktop")])
def test_the_help_page_teaches_tables_seats_and_every_fan(
    browser: Any, base_url: str, lang: str, size: str
) -> None:
    """Read as a newcomer: the help page said nothing of how to play with friends (the invite
    link, who starts, coming back), said "the seats moving after each hand" of a session, and
    gave the 81 fans by name alone. It now has a part on tables, a part on seats and winds
    (the dealer's mark, the round, and which place sits where in each of the 16 hands, as the
    server's seating has it) and, under each fan's name, what it asks of a hand."""
    phone = size == "phone"
    page, errors = open_page(
        browser, f"{base_url}/help?lang={lang}", viewport=VIEWPORTS[size], is_mobile=phone
    )
    page.wait_for_selector("body[data-ready]")
    tables = page.locator("#tables-list").inner_text()
    for words in (
        ("邀请链接", "开桌人", "我的牌桌", "再来一局")
        if lang == "zh"
        else ("invite link", "creator starts", "My tables", "Play again")
    ):
        assert words in tables, (words, tables)
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#seat-table tbody tr')].map((r) => [...r.cells].map((c) => c.innerText.trim()))"
    )
    winds = [TERMS[w].zh if lang == "zh" else TERMS[w].en for w in WINDS]
    assert rows == [
        [str(n + 1), winds[n // 4], *("ABCD"[p] for p in seating(n))] for n in range(16)
    ]
    # every fan (the server's own list) with a line of what it asks of a hand, in the language
    fans = [f for f in Fan if f is not Fan.MELDED_AND_CONCEALED_KONG]
    defs = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('tr.fan-def')].map((r) => [r.dataset.number, r.innerText.trim()]))"
    )
    assert sorted(map(int, defs)) == [f.number for f in fans]
    assert all(len(text) >= 3 for text in defs.values()), defs
    # a few against the rules' digest (第九条): what they ask of a hand
    if lang == "en":
        assert "round's wind" in defs["60"] and "seat wind" in defs["61"]
        assert "bamboo" in defs["3"] and "Green Dragon" in defs["3"]
    else:
        assert "圈风" in defs["60"] and "门风" in defs["61"] and "发财" in defs["3"]
    assert len(set(defs.values())) == len(defs)  # no line stands for two fans
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
    table = page.evaluate(
        "() => document.querySelector('#seat-table').getBoundingClientRect().right"
    )
    assert table <= VIEWPORTS[size]["width"]
    shot(page, f"audit8-help-{lang}-{size}.png", full_page=True)
    assert errors == []
    page.context.close()
