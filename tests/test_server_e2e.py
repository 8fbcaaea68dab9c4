"""The pages in a real browser (Playwright driving Debian's Chromium, headless) against a real
``guobiao serve``: the lobby, a hand against three bots played by clicking and won (a seed chosen
by playing it in-process first) whose fan breakdown must equal the server's result, the replay
viewer on that hand and on a finished session from the lobby, the language and hint toggles, a
phone-sized screen. Chromium is Debian's (scripts/chromium.sh installs it for the test run);
without it these tests fail under CI and are skipped in a plain local ``pytest``.
``GUOBIAO_SCREENSHOTS=docs`` also saves docs/screenshot-replay.png."""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guobiao.server.rooms import Limits, Room, default_action
from guobiao.table.game import Action, ActionKind, Game
from guobiao.table.session import STARTING_POINTS
from test_server_restart import free_port, server

CHROMIUM = os.environ.get("GUOBIAO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):  # under CI a missing browser is a failure, never a skip
        raise RuntimeError(f"no Chromium at {CHROMIUM}: scripts/chromium.sh installs it")
    pytest.skip("no Chromium (scripts/chromium.sh installs it)", allow_module_level=True)

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
WIN = Action(ActionKind.WIN)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("web"), port, between_hands=600, claim=1.5):
        yield f"http://127.0.0.1:{port}"


def open_page(browser: Any, url: str, **context: Any) -> tuple[Any, list[str]]:
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(15_000)
    page.goto(url)
    return page, errors


def shot(page: Any, name: str, **options: Any) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), **options)


def quick_table(browser: Any, base_url: str, **context: Any) -> tuple[Any, list[str]]:
    page, errors = open_page(browser, f"{base_url}/?lang=en", **context)
    page.fill("input[name=player]", "Zoe")
    page.click("button[value=quick]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#hand button.tile:not([disabled])")
    return page, errors


def simulate_first_hand(seed: int) -> Game:
    """Hand 1 of a room seeded ``seed`` (Zoe at place A, three efficiency bots), Zoe playing by
    the test's policy: what the server will play when the page is clicked that way."""
    room = Room("probe", seed=seed, limits=Limits(bot_delay=0))
    room.join("Zoe", 0)
    room.add_bots()
    room.start(0.0)
    game = room.games[0]
    room.connect(0)  # Zoe at the table: every discard opens the claim window (第七条六)
    t = 0.0
    for _ in range(5000):
        room.poll(t)
        if game.is_over and room.window is None:
            return game
        seat = room.seat_of(0)
        assert seat is not None
        legal = room.view_of(seat).legal_actions
        if legal:
            room.act(0, WIN if WIN in legal else zoes_policy(game, seat), t)
        else:
            wake = room.next_wake(t)
            assert wake is not None
            t = max(t, wake)
    raise AssertionError("the simulated hand did not end")


def zoes_policy(game: Any, seat: int) -> Action:
    """Pass on a claim, else discard the drawn tile, with none (after a claim) the last tile of
    the sorted hand: what :func:`click_by_policy` clicks (the server's own time-out picks that
    tile by lot, which a page cannot follow)."""
    choice = default_action(game, seat)
    if choice.kind is ActionKind.DISCARD and game.view(seat).drawn is None:
        discards = [a for a in game.legal_actions(seat) if a.kind is ActionKind.DISCARD]
        return discards[-1]
    return choice


def winning_seed() -> tuple[int, dict[str, Any]]:
    """The room seed (of the first 80) whose first hand, played by the policy, is won in the
    fewest actions (a hand with a fan breakdown to check), and that hand's result."""
    games = {seed: simulate_first_hand(seed) for seed in range(80)}
    won = [s for s, g in games.items() if g.result is not None and g.result.winner is not None]
    assert won, "no seed gives a win"
    seed = min(won, key=lambda s: len(games[s].history))
    result = games[seed].result
    assert result is not None
    return seed, result.summary()


def get(base_url: str, path: str) -> Any:
    with urllib.request.urlopen(base_url + path, timeout=10) as response:
        return json.loads(response.read())


def post(base_url: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        base_url + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def bots_session(base: str, seed: int = 5) -> tuple[dict[str, Any], list[Any]]:
    """A practice table of four bots named "Bots only", played to its session's end: the table
    as made (its id and tokens) and its hands."""
    made: dict[str, Any] = post(
        base, "/api/rooms", {"name": "Bots only", "practice": True, "seed": seed}
    )
    post(
        base,
        f"/api/rooms/{made['id']}/start",
        {"owner_token": made["owner_token"], "fill": True},
    )
    deadline = time.monotonic() + 120
    while not get(base, f"/api/rooms/{made['id']}")["ended"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return made, get(base, f"/api/rooms/{made['id']}/hands")["hands"]


def rows(page: Any, selector: str) -> list[list[str]]:
    """The cells' text of each table row matched by ``selector``."""
    found: list[list[str]] = page.evaluate(
        "sel => [...document.querySelectorAll(sel)]"
        ".map(tr => [...tr.cells].map(td => td.innerText.trim()))",
        selector,
    )
    return found


def breakdown(result: dict[str, Any], zh: bool = False) -> list[list[str]]:
    """The fan table a page must show for ``result``: each fan's 中文, English, points (× count),
    then the total."""
    fans = [[f["zh"], f["en"]] if zh else [f["en"], f["zh"]] for f in result["fans"]]
    points = [
        f"{f['points']}" + (f" × {f['count']}" if f["count"] > 1 else "") for f in result["fans"]
    ]
    total = ["合计", "", f"{result['total']} 番"] if zh else ["Total", "", f"{result['total']} pts"]
    return [[*names, p] for names, p in zip(fans, points, strict=True)] + [total]


def settlement(
    result: dict[str, Any], names: list[str], before: list[int] | None = None
) -> list[list[str]]:
    """The score changes' rows; with each seat's score ``before`` the hand (the table page), a
    header and each seat's score after it (局分: before + change)."""
    winds = ["East", "South", "West", "North"]
    head = [["", "±", "Match points"]] if before is not None else []
    return head + [
        [f"{winds[s]} {names[s]}", f"+{d}" if d > 0 else str(d)]
        + ([str(before[s] + d)] if before is not None else [])
        for s, d in enumerate(result["deltas"])
    ]


def click_by_policy(page: Any) -> None:
    """Play Zoe's seat by clicking until the hand ends: win when offered, else pass on a claim,
    else discard the drawn tile (with none, the hand's last tile): :func:`zoes_policy`. Each
    decision is answered once, on the state the server sent for it."""
    over = "!document.querySelector('#overlay').hidden"
    for _ in range(500):
        # one snapshot, taken when the seat must act (two reads could straddle a new state)
        now = page.wait_for_function(
            f"() => ({over}) ? {{over: true}} : state && state.must_act && {{"
            "decision: state.decision, legal: state.view.legal_actions,"
            " drawn: state.view.drawn, hand: state.view.hand}"
        ).json_value()
        if now.get("over"):
            return
        legal: list[str] = now["legal"]
        drawn: str | None = now["drawn"]
        if "win" in legal:
            target = page.locator("#actions .act-win")
        elif "pass" in legal:
            target = page.locator("#actions .act-pass")
        elif drawn is not None and f"discard {drawn}" in legal:
            target = page.locator("#hand button.tile.drawn")
        else:  # after a claim: the last tile of the sorted hand
            tile = [a for a in legal if a.startswith("discard ")][-1].split()[1]
            shown = list(now["hand"])
            target = page.locator("#hand button.tile").nth(len(shown) - 1 - shown[::-1].index(tile))
        target.click()
        page.wait_for_function(
            f"d => {over} || !state.must_act || state.decision !== d", arg=now["decision"]
        )
    raise AssertionError("the hand did not end")


@pytest.fixture(scope="module")
def won_hand(browser: Any, base_url: str) -> dict[str, Any]:
    """A room whose first hand Zoe played by clicking, with a seed that makes it a win."""
    seed, expected = winning_seed()
    made = post(base_url, "/api/rooms", {"player": "Zoe", "practice": True, "seed": seed})
    post(
        base_url,
        f"/api/rooms/{made['id']}/start",
        {"owner_token": made["owner_token"], "fill": True},
    )
    page, errors = open_page(browser, f"{base_url}/room/{made['id']}?token={made['token']}&lang=en")
    page.wait_for_selector("#hand button.tile:not([disabled])")
    click_by_policy(page)
    replay = get(base_url, f"/api/rooms/{made['id']}/hands/0")
    return {
        "page": page,
        "errors": errors,
        "room": made["id"],
        "expected": expected,
        "replay": replay,
    }


def test_play_a_hand_by_clicking_and_check_the_fan_breakdown(won_hand: dict[str, Any]) -> None:
    page = won_hand["page"]
    result = won_hand["replay"]["frames"][-1]["result"]  # the server's own result of the hand
    assert result == won_hand["expected"], "the server played the hand the policy foresaw"
    assert result["winner"] is not None and result["fans"]
    overlay = page.locator("#overlay:not([hidden])")
    assert overlay.count() == 1
    assert "Hand over (Hand 1)" in overlay.inner_text()
    assert rows(page, "#overlay table.fans tr") == breakdown(result)
    # the names as the table shows them (a bot by its level and place, as its plate: nameOf)
    names = page.evaluate("() => [0, 1, 2, 3].map(nameOf)")
    # the first hand: every seat had the starting points (第十条二(一)) before it
    start = [STARTING_POINTS] * 4
    assert rows(page, "#overlay table.deltas tr") == settlement(result, names, start)
    winner = page.locator("#overlay .winner").inner_text()
    winds = ["East", "South", "West", "North"]
    # both seats by wind and name: who won, and who dealt in (点炮) or that it was self-drawn
    assert f"{winds[result['winner']]} {names[result['winner']]} wins" in winner
    if result["discarder"] is not None:
        assert f"discarded by {winds[result['discarder']]} {names[result['discarder']]}" in winner
    else:
        assert "self-drawn" in winner
    assert page.locator("#overlay .win-hand .tile.win-tile").count() == 1
    assert won_hand["errors"] == []


def test_the_replay_viewer_steps_through_a_finished_hand(
    browser: Any, base_url: str, won_hand: dict[str, Any]
) -> None:
    table = won_hand["page"]
    link = table.locator("#replay-hand")  # the link on the hand's end
    if link.get_attribute("target") == "_blank":  # opened beside the table
        with table.context.expect_page() as opened:
            link.click()
        opened.value.wait_for_url("**/replay?hand=1")
        opened.value.close()
    else:
        link.click()
        table.wait_for_url("**/replay?hand=1")
    frames = won_hand["replay"]["frames"]
    last = len(frames) - 1
    page, errors = open_page(
        browser,
        f"{base_url}/room/{won_hand['room']}/replay?hand=1&lang=en",
        viewport={"width": 1100, "height": 900},
    )
    page.wait_for_selector("#table:not([hidden])")
    # a bot by its level and place, as the table names it (levelName of the name the hand keeps)
    stored = won_hand["replay"]["names_by_seat"]
    names = page.evaluate("(names) => names.map((n) => levelName(n))", stored)
    assert names[0] == stored[0] and all(" bot " in n for n in names[1:])
    assert page.locator("#step").inner_text() == f"0 / {last}"
    assert page.locator("#action").inner_text() == "The deal"
    assert page.locator("#hand-select option").count() == 1  # the hand in play is not offered

    def shows(n: int) -> None:
        frame = frames[n]
        assert page.locator("#step").inner_text() == f"{n} / {last}"
        assert page.locator("#wall").inner_text() == f"Wall {frame['wall']}"
        for seat in range(4):
            box = f"#pos-{seat}"
            hand = [
                *(frame["hands"][seat][i : i + 2] for i in range(0, len(frame["hands"][seat]), 2))
            ]
            if frame["drawn"] is not None and frame["current"] == seat:
                hand.append(frame["drawn"])
            assert (
                page.eval_on_selector_all(
                    f"{box} .hand-up .tile", "ts => ts.map(t => t.dataset.tile)"
                )
                == hand
            )  # every hand face up
            pool = frame["discards"][seat]
            assert page.locator(f"{box} .discards .tile").count() == len(pool) // 2
            melds = sum(len(m["tiles"]) for m in frame["melds"][seat])
            assert page.locator(f"{box} .melds .tile").count() == melds
        if frame["action"] is not None:
            assert (
                page.locator("#action")
                .inner_text()
                .startswith(
                    ["East", "South", "West", "North"][frame["seat"]] + " " + names[frame["seat"]]
                )
            )
        assert page.locator("#result").is_visible() == (n == last)

    shows(0)
    for n in (1, 2, 3):
        page.click("#next")
        shows(n)
    page.click("#prev")
    shows(2)
    page.click("#play")  # play: it moves on by itself; pause: it stops
    page.wait_for_function("() => document.querySelector('#step').innerText.startsWith('4 ')")
    page.click("#play")
    stopped = page.locator("#step").inner_text()
    page.wait_for_timeout(1000)
    assert page.locator("#step").inner_text() == stopped
    page.click("#last")  # the end of the hand: its fan breakdown and settlement
    shows(last)
    result = frames[-1]["result"]
    assert rows(page, "#result table.fans tr") == breakdown(result)
    assert rows(page, "#result table.deltas tr") == settlement(result, names)
    assert page.locator("#result .win-hand .tile.win-tile").count() == 1
    # 6 discards a row (第七条四): the pool's grid has six columns
    columns = page.evaluate(
        "getComputedStyle(document.querySelector('#pos-0 .discards')).gridTemplateColumns"
    )
    assert len(columns.split()) == 6
    shot(page, "screenshot-replay.png", full_page=True)
    page.click("#lang")
    assert rows(page, "#result table.fans tr") == breakdown(result, zh=True)
    page.click("#lang")
    page.click("#first")
    shows(0)
    page.keyboard.press("End")
    assert page.locator("#step").inner_text() == f"{last} / {last}"
    assert errors == []


def test_a_finished_session_from_the_lobby_on_a_phone(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    port = free_port()
    with server(tmp_path_factory.mktemp("done"), port, between_hands=0):
        base = f"http://127.0.0.1:{port}"
        made, hands = bots_session(base)
        won = [h for h in hands if h["winner"] is not None]
        assert len(hands) == 16 and won
        pick = won[-1]["number"]
        page, errors = open_page(
            browser, f"{base}/?lang=en", viewport={"width": 390, "height": 844}, is_mobile=True
        )
        table, table_errors = open_page(browser, f"{base}/room/{made['id']}?lang=en")
        table.wait_for_selector("#overlay:not([hidden]) #replay-link")  # the session's end
        assert "Session over" in table.locator("#overlay").inner_text()
        assert table.get_attribute("#replay-link", "href") == f"/room/{made['id']}/replay"
        assert table_errors == []
        page.click("#finished .replay-link")  # the lobby's finished tables
        page.wait_for_url(f"**/room/{made['id']}/replay*")
        page.wait_for_selector("#table:not([hidden])")
        assert page.locator("#hand-select option").count() == 16
        page.select_option("#hand-select", str(pick))  # jump to a hand
        replay = get(base, f"/api/rooms/{made['id']}/hands/{pick}")
        last = len(replay["frames"]) - 1
        page.wait_for_function(f"() => document.querySelector('#step').innerText === '0 / {last}'")
        page.click("#last")
        result = replay["frames"][-1]["result"]
        assert rows(page, "#result table.fans tr") == breakdown(result)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scroll"
        assert errors == []


def test_language_hints_and_labels(browser: Any, base_url: str) -> None:
    page, errors = quick_table(browser, base_url)
    assert page.locator("a.home").inner_text() == "Lobby"
    page.click("#lang")
    assert page.locator("a.home").inner_text() == "大厅"
    page.wait_for_function(
        "() => document.querySelector('#countdown').innerText.includes('轮到你')"
    )
    assert page.locator("#hints").is_hidden()
    page.check("#hints-on")
    assert "向听" in page.locator("#hints").inner_text()
    page.click("#lang")
    assert "Shanten" in page.locator("#hints").inner_text()
    assert errors == []


def test_a_phone_sized_screen(browser: Any, base_url: str) -> None:
    page, errors = quick_table(
        browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing scrolls sideways"
    box = page.locator("#hand").bounding_box()
    first = page.locator("#hand .tile").first.bounding_box()
    last = page.locator("#hand .tile").last.bounding_box()
    assert box is not None and first is not None and last is not None
    assert last["x"] + last["width"] <= 390
    assert abs(first["y"] - last["y"]) < first["height"] * 2.5  # two rows at most
    assert errors == []


def test_private_room_invite_and_waiting_room(browser: Any, base_url: str) -> None:
    page, errors = open_page(browser, f"{base_url}/?lang=en")
    page.fill("input[name=player]", "Host")
    page.check("input[name=private]")
    page.click("button[value=wait]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#waiting:not([hidden])")
    link = page.locator("#share-link").input_value()
    assert "?invite=" in link
    guest, guest_errors = open_page(browser, link)
    guest.wait_for_selector("#join-form:not([hidden])")
    guest.fill("#join-name", "Guest")
    guest.click("#join-btn")
    page.wait_for_function(
        "() => document.querySelector('#wait-places').innerText.includes('Guest')"
    )
    page.click("#start")  # the host fills the other places with bots and starts
    guest.wait_for_selector("#table:not([hidden])")
    page.wait_for_selector("#table:not([hidden])")
    assert guest.locator("#plate-0 .name").inner_text().startswith("Guest")
    assert errors == [] and guest_errors == []
