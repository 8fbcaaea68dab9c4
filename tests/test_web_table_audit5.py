"""The table page and the replay, fifth audit, in headless Chromium against a real ``guobiao
serve``: the centre's log reads in the language switched to (its lines kept the one they were
written in), the connection status too; the hint summary takes a finger's tap (24 px high) without
making the controls' row any higher; the replay held sideways shows the four seats on one screen
(the bottom one lay below it); at the end of a hand held sideways, pools of four rows have
readable tiles (13 px at 740x360); a phone's centre reads at 12 px (10), a watcher's too, its
names whole; a claim's buttons show their tiles as large as the row has room for (15-18 px on a
phone, with the row half empty). Each test failed on the pages before this audit."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from guobiao.bots import LEVEL_NAMES, LEVEL_OF
from test_server_e2e import get, open_page, post, shot
from test_server_restart import free_port, server
from test_web_layout import (
    CLAIM,
    CLIPPED,
    EVERY_CLAIM,
    FULL_POOLS,
    NAMES,
    OUTSIDE,
    POND_TILES,
    SETTLE,
    VIEWPORTS,
    WON_SEED,
    play_hand,
    practice_table,
)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    # a person's table waits for them between hands; a table of bots plays its hands by itself
    with server(tmp_path_factory.mktemp("audit5"), port, between_hands=600, claim=CLAIM):
        yield f"http://127.0.0.1:{port}"


LEVEL = LEVEL_NAMES[LEVEL_OF["efficiency"]]  # a practice table's bots
CJK = re.compile(r"[\u4e00-\u9fff]")
# English words the log's lines use: none may stay after a switch to 中文
ENGLISH = re.compile(
    r"\b(discards|pungs|chows|kongs|wins|passes|bot|easy|normal|strong|time-out|ran out|plays)\b",
    re.IGNORECASE,
)
LOG_LINES = "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"
# What else a log holds: a turn's time-out and a notice (a bot plays for a person), as the server
# sends them
MORE_LINES = """() => {
  const seat = (state.seat + 1) % 4;
  const place = state.places_by_seat[seat];
  const name = state.room.places[place].name;
  receive({type: "timeout", code: "timeout", seat, name, action: "discard W5",
           params: {seat, name, action: "discard W5"}});
  receive({type: "notice", code: "auto_on", params: {place, name}});
}"""


def test_the_log_reads_in_the_language_switched_to(browser: Any, base_url: str) -> None:
    """The centre's log lines were text in the language they were written in: after a switch to
    中文 they still read *South easy bot B discards 5m*, *time-out*, *ran out of time twice*.
    Now every line (a discard, a time-out, a notice) reads in the language switched to, and back;
    so does the connection status in the header. A notice names the bot as its plate does (*easy
    bot B*; it said *efficiency bot B*)."""
    page, errors = practice_table(browser, base_url, "desktop", lang="en")
    # a discard of ours; the bots play until our next turn (the server's own events)
    turn = page.evaluate("state.decision")
    page.locator("#hand button.tile.drawn, #hand button.tile:not([disabled])").last.click()
    page.wait_for_function(
        "d => state.decision !== d && state.must_act && !state.view.legal_actions.includes('pass')"
        " && state.view.phase === 'act'",
        arg=turn,
        timeout=30_000,
    )
    page.evaluate(MORE_LINES)
    page.evaluate(SETTLE)
    # the last lines the centre has room for (two at least)
    english = page.evaluate(LOG_LINES)
    assert len(english) >= 2, english
    assert [line for line in english if CJK.search(line)] == [], english
    assert page.locator("#status").inner_text() == "connected"
    page.click("#lang")
    page.evaluate(SETTLE)
    chinese = page.evaluate(LOG_LINES)
    wrong = [line for line in chinese if ENGLISH.search(line) or not CJK.search(line)]
    if len(chinese) < 2 or wrong:
        shot(page, "failed-log-language.png")
    assert len(chinese) >= 2, chinese
    assert wrong == [], chinese
    assert page.locator("#status").inner_text() == "已连接"
    page.click("#lang")
    page.evaluate(SETTLE)
    again = page.evaluate(LOG_LINES)
    assert again == english
    assert page.locator("#status").inner_text() == "connected"
    # the notice names the bot as its plate does, in both languages (it said "efficiency bot B",
    # 牌效机器人 B: the bots are named alike everywhere)
    assert english[-1].startswith(f"{LEVEL.en} bot "), english
    assert chinese[-1].startswith(f"{LEVEL.zh}机器人"), chinese
    assert errors == []
    page.context.close()


# Where a finger lands on the hint summary: 20 and 12 px above and below its middle, at its middle
# and near its ends; what takes each tap.
HINT_TAPS = """() => {
  const summary = document.querySelector('#hints summary');
  const r = summary.getBoundingClientRect();
  const y = r.top + r.height / 2;
  const bad = [];
  for (const x of [r.left + 6, r.left + r.width / 2, r.right - 6]) {
    for (const dy of [-20, -12, 0, 12, 20]) {
      const hit = document.elementFromPoint(x, y + dy);
      if (!hit || hit.closest('summary') !== summary)
        bad.push(`(${x.toFixed(0)}, ${(y + dy).toFixed(0)}): ${hit && (hit.id || hit.className || hit.tagName)}`);
    }
  }
  return {bad, height: r.height, top: r.top, bottom: r.bottom, x: r.left + r.width / 2};
}"""
# The controls' row and your hand's box, to see that the tap area takes no room
ROW = """() => {
  const row = document.querySelector('.controls-row').getBoundingClientRect();
  return {height: row.height, bottom: row.bottom, hand: document.querySelector('#pos-0').getBoundingClientRect().top};
}"""
NO_TAP_AREA = """() => {
  const style = document.createElement('style');
  style.id = 'no-tap-area';
  style.textContent = '.play .hints summary::after, .play .hints summary::before { display: none !important; }';
  document.head.append(style);
}"""


@pytest.mark.parametrize("size", ["small-phone", "phone", "phone-landscape"])
def test_the_hint_summary_takes_a_finger(browser: Any, base_url: str, size: str) -> None:
    """The Hints switch's summary line (tap it for the next best discards) took taps 24 px
    high: now 44 (20 px above and below its middle), over the controls' row, which is no higher
    for it; the hand and everything else stay on screen."""
    page, errors = practice_table(browser, base_url, size)
    page.evaluate(SETTLE)
    taps = page.evaluate(HINT_TAPS)
    row = page.evaluate(ROW)
    bad = [*page.evaluate(OUTSIDE), *page.evaluate(CLIPPED), *page.evaluate(NAMES)]
    if taps["bad"] or bad:
        shot(page, f"failed-hint-taps-{size}.png")
    assert taps["bad"] == []
    assert bad == []
    assert taps["height"] <= 30, taps  # small to the eye: the table keeps its height
    assert row["bottom"] <= row["hand"] + 0.5, row
    # the tap area takes no room: the row and the hand where they are without it
    page.evaluate(NO_TAP_AREA)
    page.evaluate(SETTLE)
    assert page.evaluate(ROW) == row
    page.evaluate("document.querySelector('#no-tap-area').remove()")
    page.evaluate(SETTLE)
    # a tap above the line opens the summary, one below it closes it (open, the next best
    # discards stand above it)
    assert not page.evaluate("document.querySelector('#hints').open")
    page.touchscreen.tap(taps["x"], taps["top"] - 8)
    assert page.evaluate("document.querySelector('#hints').open")
    page.touchscreen.tap(taps["x"], taps["bottom"] + 8)
    assert not page.evaluate("document.querySelector('#hints').open")
    assert errors == []
    page.context.close()


def bots_table(base_url: str) -> str:
    """A started practice table of four bots, a hand of it over: its id."""
    made = post(base_url, "/api/rooms", {"practice": True, "name": "x"})
    post(base_url, f"/api/rooms/{made['id']}/start", {"owner_token": made["owner_token"]})
    room = str(made["id"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(h["over"] for h in get(base_url, f"/api/rooms/{room}/hands")["hands"]):
            return room
        time.sleep(0.5)
    raise AssertionError("no hand over in a minute")


@pytest.fixture(scope="module")
def finished(base_url: str) -> str:
    return bots_table(base_url)


# Every seat of the replay: its box within the screen, each of its tiles within the box, its
# smallest tile; and whether the page scrolls.
REPLAY_SEATS = """() => {
  const bad = [], sizes = {};
  for (const seat of [0, 1, 2, 3]) {
    const box = document.querySelector(`#pos-${seat}`);
    const b = box.getBoundingClientRect();
    if (b.top < -0.5 || b.left < -0.5 || b.bottom > innerHeight + 0.5 || b.right > innerWidth + 0.5)
      bad.push(`pos-${seat} off the screen: ${JSON.stringify(b)}`);
    const tiles = [...box.querySelectorAll('.tile')];
    sizes[seat] = Math.min(...tiles.map((t) => t.getBoundingClientRect().width));
    for (const t of tiles) {
      const r = t.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)
        bad.push(`pos-${seat}: ${t.dataset.tile} cut off`);
    }
  }
  for (const id of ['action', 'wall']) {
    const r = document.getElementById(id).getBoundingClientRect();
    if (!r.height || r.bottom > innerHeight + 0.5) bad.push(`#${id} off the screen`);
  }
  const s = document.scrollingElement;
  if (s.scrollHeight > innerHeight + 0.5) bad.push(`the page scrolls: ${s.scrollHeight} > ${innerHeight}`);
  if (s.scrollWidth > innerWidth + 0.5) bad.push(`the page scrolls sideways: ${s.scrollWidth}`);
  return {bad, sizes};
}"""


@pytest.mark.parametrize(
    ("size", "lang"), [("phone-landscape", "en"), ("small-phone-landscape", "zh")]
)
def test_the_replay_shows_every_seat_on_a_phone_held_sideways(
    browser: Any, base_url: str, finished: str, size: str, lang: str
) -> None:
    """Held sideways (844x390, 740x360) the replay's board lay in one tall column: the bottom
    seat (East, your hand at the table) and half the side seats below the screen. Now the four
    seats, the action and the wall are on the screen at every step, with no scrolling, each
    seat's tiles whole and 16 px wide at least."""
    touch = "phone" in size
    page, errors = open_page(
        browser,
        f"{base_url}/room/{finished}/replay?hand=1&lang={lang}",
        viewport=VIEWPORTS[size],
        is_mobile=touch,
        has_touch=touch,
    )
    page.wait_for_selector("#table:not([hidden]) .seat-box .name")
    last = page.evaluate("replay.frames.length - 1")
    for step in (0, last // 2, last - 1):
        page.evaluate("n => go(n)", step)
        page.evaluate(SETTLE)
        found = page.evaluate(REPLAY_SEATS)
        if found["bad"] or min(found["sizes"].values()) < 16:
            shot(page, f"failed-replay-sideways-{size}-{step}.png")
        assert found["bad"] == [], (step, found["bad"])
        assert min(found["sizes"].values()) >= 16, (step, found["sizes"])
    assert errors == []
    page.context.close()


POOL_TILES = """() => Object.fromEntries([0, 1, 2, 3].map((pos) => [`pool-${pos}`,
  Math.min(...[...document.querySelectorAll(`#pool-${pos} .tile`)].map((t) => t.getBoundingClientRect().width))]))"""


@pytest.mark.parametrize("size", ["small-phone-landscape", "phone-landscape"])
def test_four_rows_of_discards_are_readable_at_the_end_of_a_hand_held_sideways(
    browser: Any, base_url: str, size: str
) -> None:
    """At the end of a hand at 740x360 the top and bottom pools, four rows each, had 13 px tiles:
    the controls' row stood empty under them (nothing to do, no clock). It now gives its height to
    the pond: 16 px tiles at least (18 at 740x360), every pool whole, nothing overlapping."""
    page, errors = practice_table(browser, base_url, size, seed=WON_SEED)
    play_hand(page, "won", (size,))
    page.wait_for_selector("#overlay:not([hidden])")
    page.evaluate(FULL_POOLS, 24)  # the pools of a long hand: four rows each
    page.evaluate(SETTLE)
    assert page.evaluate("state.view.phase") == "over"
    widths = page.evaluate(POOL_TILES)
    bad = [*page.evaluate(CLIPPED), *page.evaluate(POND_TILES), *page.evaluate(NAMES)]
    if bad or min(widths.values()) < 16:
        shot(page, f"failed-end-pools-{size}.png")
    assert bad == []
    assert min(widths.values()) >= 16, widths
    # the box aside: the same table, the pools under it as measured
    page.click("#see-table")
    page.evaluate(SETTLE)
    assert page.evaluate(POOL_TILES) == widths
    assert [e for e in errors if "WebSocket" not in e] == []
    page.context.close()


# The font size of every text shown in the centre, the smallest first.
CENTRE_FONTS = """() => {
  const found = [];
  const walk = document.createTreeWalker(document.querySelector('#center'), NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (!range.getClientRects().length) continue;  // not shown
    found.push([parseFloat(getComputedStyle(node.parentElement).fontSize), node.textContent.trim()]);
  }
  return found.sort((a, b) => a[0] - b[0]);
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", ["small-phone", "phone"])
def test_the_centre_reads_at_12_px_on_a_phone(
    browser: Any, base_url: str, size: str, lang: str
) -> None:
    """A phone's centre (the round, the wall, each seat's wind, name and score) was 9.9 px text
    at 360x640 and 390x844: now 12 px at least, as the pools fill (three rows, four) and with a
    claim's buttons taking the height, nothing overlapping, run out of its box or cut."""
    page, errors = practice_table(browser, base_url, size, lang=lang)
    for discards in (18, 24):
        for claim in (False, True):
            page.evaluate(FULL_POOLS, discards)
            if claim:
                page.evaluate(EVERY_CLAIM)
            page.evaluate(SETTLE)
            fonts = page.evaluate(CENTRE_FONTS)
            bad = [*page.evaluate(CLIPPED), *page.evaluate(NAMES), *page.evaluate(OUTSIDE)]
            if bad or fonts[0][0] < 12:
                shot(page, f"failed-centre-{size}-{lang}-{discards}-{claim}.png")
            assert bad == [], (discards, claim)
            assert fonts[0][0] >= 12, (discards, claim, fonts[:3])
            # the wall and the scores always in sight
            shown = " ".join(text for _, text in fonts)
            assert ("牌墙" if lang == "zh" else "Wall") in shown, shown
            assert shown.count("500") == 4, shown
    assert errors == []
    page.context.close()


# A claim of one chow (and pass) offered, drawn as the table draws a state.
ONE_CHOW = """() => {
  state = {...state, must_act: true, view: {...state.view, phase: "respond", last_discard: "W3", drawn: null,
    legal_actions: ["chow W1W2W3", "pass"]}};
  renderTable();
}"""
EVERY_CLAIM_STATE = """() => {
  state = {...state, must_act: true, view: {...state.view, phase: "respond", last_discard: "W3", drawn: null,
    legal_actions: ["win", "chow W1W2W3", "chow W2W3W4", "chow W3W4W5", "pung W3", "kong W3", "pass"]}};
  renderTable();
}"""
CLAIM_TILES = """() => Math.min(...[...document.querySelectorAll('#actions .tile')].map((t) => t.getBoundingClientRect().width))"""
ACTION_ROWS = """() => new Set([...document.querySelectorAll('#actions button')].map((b) => b.offsetTop)).size"""


@pytest.mark.parametrize(
    ("size", "least", "rows"),
    [
        ("small-phone", 24, 3),
        ("phone", 24, 3),
        ("phone-landscape", 20, 1),
        ("small-phone-landscape", 16, 1),
    ],
)
def test_a_claims_tiles_are_as_large_as_the_row_allows(
    browser: Any, base_url: str, size: str, least: int, rows: int
) -> None:
    """A claim's button shows the tiles the meld takes from the hand: on a phone they were 15-18
    px (the size that lets all seven buttons of the fullest claim fit), with one chow and pass
    filling half the row. They are now as large as the row has room for, up to 28 px (a chow and
    pass: 28), the buttons in no more rows and the row no higher; every button on screen."""
    page, errors = practice_table(browser, base_url, size)
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(SETTLE)
    height = page.evaluate("document.querySelector('.controls-row').offsetHeight")
    page.evaluate(ONE_CHOW)
    page.evaluate(SETTLE)
    one = page.evaluate(CLAIM_TILES)
    bad = [*page.evaluate(OUTSIDE), *page.evaluate(CLIPPED), *page.evaluate(POND_TILES)]
    if bad or one < 28:
        shot(page, f"failed-claim-tiles-{size}.png")
    assert bad == []
    assert one >= 28, one
    assert page.evaluate(ACTION_ROWS) == 1
    assert page.evaluate("document.querySelector('.controls-row').offsetHeight") <= height + 0.5
    # the fullest claim: larger than the stylesheet's size where its rows have room
    page.evaluate(EVERY_CLAIM_STATE)
    page.evaluate(SETTLE)
    every = page.evaluate(CLAIM_TILES)
    bad = [*page.evaluate(OUTSIDE), *page.evaluate(CLIPPED), *page.evaluate(POND_TILES)]
    if bad or every < least:
        shot(page, f"failed-claim-tiles-all-{size}.png")
    assert bad == []
    assert every >= least, every
    assert page.evaluate(ACTION_ROWS) <= rows
    assert errors == []
    page.context.close()


def test_a_watchers_centre_keeps_the_names_whole_on_a_small_phone(
    browser: Any, base_url: str
) -> None:
    """The watch view at 360x640 in 中文 at the end of a hand: the side pools, larger once the
    hand is over, left the centre 90-95 px, and the side plates' names were cut (入门机器人D).
    The side pools now leave the centre room for its side plates' short names side by side; its
    text 12 px, nothing cut, nothing running out of its box."""
    made = post(base_url, "/api/rooms", {"practice": True, "name": "x"})
    post(base_url, f"/api/rooms/{made['id']}/start", {"owner_token": made["owner_token"]})
    page, errors = open_page(
        browser,
        f"{base_url}/room/{made['id']}?lang=zh",
        viewport=VIEWPORTS["small-phone"],
        is_mobile=True,
        has_touch=True,
    )
    page.wait_for_function("state && state.view && state.view.phase === 'over'", timeout=60_000)
    page.evaluate("document.querySelector('#overlay').hidden = true")  # the table under the box
    page.evaluate(SETTLE)
    bad = [*page.evaluate(CLIPPED), *page.evaluate(NAMES)]
    fonts = page.evaluate(CENTRE_FONTS)
    if bad or fonts[0][0] < 12:
        shot(page, "failed-watch-centre.png")
    assert bad == []
    assert fonts[0][0] >= 12, fonts[:3]
    assert "观战中" in " ".join(text for _, text in fonts)
    assert [e for e in errors if "WebSocket" not in e] == []
    page.context.close()
