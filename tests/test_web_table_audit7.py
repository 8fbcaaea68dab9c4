"""The table page and the replay, seventh audit, in headless Chromium against a real ``guobiao
serve``: a side seat's four melds and flowers readable on a small phone (14 px tiles in its strip);
the replay's header reads the table's name at 360 px (an ellipsis), in the language switched to; a
lost connection shows on a phone (the header's status is hidden there) and the hand waits for it;
the session's end ranks the places (ties shared), marks yours and prints standard points as the
papers do; the end of a hand or of the session is a dialog that takes the focus and keeps it;
those who ask for less motion get none; the hand's tiles and a claim's buttons are named for a
screen reader in the page's language; the keyboard's focus is seen on a tile; the table's words
read on the felt (WCAG contrast). Each test failed on the pages before this audit (the upright
390x844 case of the side melds guards that nothing got smaller)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from guobiao.server.protocol import tile_table
from guobiao.table.glossary import TERMS
from guobiao.tournament.ranking import format_points
from test_server_e2e import get, open_page, post, shot
from test_server_restart import free_port, server
from test_web_layout import (
    CLAIM,
    CLIPPED,
    FULL_POOLS,
    OUTSIDE,
    SETTLE,
    SIDE_MELDS,
    VIEWPORTS,
    practice_table,
)
from test_web_table_audit5 import EVERY_CLAIM_STATE
from test_web_table_audit6 import HEADER_LINE


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("audit7"), port, between_hands=600, claim=CLAIM):
        yield f"http://127.0.0.1:{port}"


# Both side seats with four melds (a kong among them, a claimed tile in each) and four flowers, as
# late in a hand: what their strips must show.
FOUR_MELDS = """() => {
  const v = state.view;
  for (const pos of [1, 3]) {
    const seat = (state.seat + pos) % 4;
    v.melds[seat] = [
      {kind: "pung", tiles: ["W1", "W1", "W1"], claimed: "W1", offered_by: 3},
      {kind: "chow", tiles: ["B2", "B3", "B4"], claimed: "B3", offered_by: 3},
      {kind: "kong", tiles: ["T5", "T5", "T5", "T5"], claimed: "T5", offered_by: 2},
      {kind: "pung", tiles: ["J1", "J1", "J1"], claimed: "J1", offered_by: 1}];
    v.flowers[seat] = ["H1", "H2", "H5", "H8"];
  }
  renderTable();
}"""
# The side seats' meld and flower tiles: the narrowest, and how many.
SIDE_TILES = """() => {
  const tiles = [...document.querySelectorAll('#pos-1 .melds .tile, #pos-3 .melds .tile')];
  return {least: Math.min(...tiles.map((t) => t.getBoundingClientRect().width)), count: tiles.length};
}"""


@pytest.mark.parametrize("size", ["small-phone", "phone"])
def test_a_side_seats_four_melds_and_flowers_are_readable_on_a_phone(
    browser: Any, base_url: str, size: str
) -> None:
    """At 360x640 a side seat with four melds and four flowers stood them in one column of its
    41 px strip, 14 px wide (a tile's face unreadable). Its melds now stand two abreast where
    that makes them larger: 18 px, every tile within the strip; at 390x844 (20 px in one column)
    nothing gets smaller."""
    page, errors = practice_table(browser, base_url, size)
    page.evaluate(FOUR_MELDS)
    page.evaluate(SETTLE)
    found = page.evaluate(SIDE_TILES)
    bad = [*page.evaluate(SIDE_MELDS), *page.evaluate(OUTSIDE), *page.evaluate(CLIPPED)]
    if found["least"] < 18 or bad:
        shot(page, f"failed-side-melds-{size}.png")
    assert found["count"] == 2 * (13 + 4)
    assert found["least"] >= 18, found
    assert bad == []
    assert errors == []
    page.context.close()


@pytest.fixture(scope="module")
def finished(base_url: str) -> str:
    """A table of four bots with the name the server gives ("Table Ab3x"), a hand of it over."""
    made = post(base_url, "/api/rooms", {"practice": True})
    post(base_url, f"/api/rooms/{made['id']}/start", {"owner_token": made["owner_token"]})
    deadline = time.monotonic() + 60
    while not any(h["over"] for h in get(base_url, f"/api/rooms/{made['id']}/hands")["hands"]):
        assert time.monotonic() < deadline, "no hand over in a minute"
        time.sleep(0.5)
    return str(made["id"])


# The replay's table name: its text, whether it is cut (an ellipsis), and where it leads.
NAME = """() => {
  const n = document.querySelector('#room-name');
  return {text: n.textContent, cut: n.scrollWidth > n.clientWidth + 0.5 || n.clientWidth === 0,
          href: n.getAttribute('href'), title: n.title};
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_replay_header_reads_the_tables_name_on_a_small_phone(
    browser: Any, base_url: str, finished: str, lang: str
) -> None:
    """At 360x640 in English the replay's header showed the table's name as an ellipsis (5 px of
    "Table Df8m" after a "Table" link). The link back to the table now reads the table's name,
    whole on the header's one line, in both languages, a name of wide letters too; switched to
    the other language, it reads in that one (it kept the language it was loaded in)."""
    page, errors = open_page(
        browser,
        f"{base_url}/room/{finished}/replay?hand=1&lang={lang}",
        viewport=VIEWPORTS["small-phone"],
        is_mobile=True,
        has_touch=True,
    )
    page.wait_for_selector("#table:not([hidden]) .seat-box .name")
    page.evaluate(SETTLE)
    shown = page.evaluate(NAME)
    code = get(base_url, f"/api/rooms/{finished}/hands")["room"]["name"].split()[-1]
    assert shown["text"] == ("牌桌 " if lang == "zh" else "Table ") + code, shown
    for name in (shown["text"], shown["text"].replace(code, "WMWM")):  # wide letters
        page.evaluate("n => { document.querySelector('#room-name').textContent = n; }", name)
        page.evaluate(SETTLE)
        found = page.evaluate(NAME)
        line = page.evaluate(HEADER_LINE)
        if found["cut"] or line["bad"]:
            shot(page, f"failed-replay-name-{lang}.png")
        assert not found["cut"], (name, found)
        assert line["bad"] == [], line
    assert found["href"] == f"/room/{finished}"
    # switched, the name reads in the other language (it kept the one it was loaded in)
    page.click("#lang")
    other = ("Table " if lang == "zh" else "牌桌 ") + code
    assert page.evaluate(NAME)["text"] == other
    page.click("#room-name")
    page.wait_for_url(f"**/room/{finished}")
    assert errors == []
    page.context.close()


# Text the player can see that tells of the lost connection: any element drawn within the screen,
# not hidden, whose own text says so.
LOST = """words => {
  const seen = [];
  for (const n of document.querySelectorAll('body *')) {
    if (![...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.includes(words))) continue;
    const r = n.getBoundingClientRect();
    const style = getComputedStyle(n);
    if (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth
        && style.visibility !== 'hidden' && Number(style.opacity) > 0.5)
      seen.push(n.id || n.className || n.tagName);
  }
  return seen;
}"""
# Cut the socket and keep it cut: the page's reconnection waits until the test lets it go on.
CUT = "() => { window.reconnect = connect; connect = () => {}; ws.close(); }"
RESTORE = "() => { connect = window.reconnect; connect(); }"


@pytest.mark.parametrize(
    ("size", "lang", "words"),
    [("small-phone", "en", "reconnecting"), ("phone", "zh", "正在重连")],
)
def test_a_lost_connection_shows_on_a_phone_and_the_hand_waits(
    browser: Any, base_url: str, size: str, lang: str, words: str
) -> None:
    """On a phone held upright the header's connection status is hidden: a lost socket showed
    nothing, and a tap on a tile did nothing, silently. Now a notice over the table says the
    connection is lost and being made again, the hand and the claim buttons are dimmed and take
    no tap; back, the notice goes, the same decision waits (nothing was sent twice or lost) and
    one tap discards once. A blip (a second or less) shows no notice."""
    page, errors = practice_table(browser, base_url, size, lang=lang)
    decision = page.evaluate("state.decision")
    assert page.evaluate(LOST, words) == []
    page.evaluate(CUT)
    page.wait_for_function("() => ws.readyState === WebSocket.CLOSED")
    try:  # the notice comes after a second down (a blip shows none)
        page.wait_for_function(f"() => ({LOST})({words!r}).length > 0", timeout=5_000)
    except PlaywrightTimeout:
        shot(page, f"failed-offline-{size}.png")
        raise AssertionError("no visible notice of the lost connection") from None
    tile = page.locator("#hand button.tile:not([disabled])").last
    tile.click(force=True)  # a tap while the socket is down: nothing happens
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#hand')).pointerEvents") == "none"
    )
    page.evaluate(RESTORE)
    page.wait_for_function("() => ws.readyState === WebSocket.OPEN")
    page.wait_for_function("words => !document.body.innerText.includes(words)", arg=words)
    assert page.evaluate(LOST, words) == []
    assert page.evaluate("state.decision") == decision
    assert page.evaluate("state.must_act")
    before = page.evaluate("state.view.discards[state.seat].length")
    page.locator("#hand button.tile:not([disabled])").last.click()
    page.wait_for_function(
        "n => state.view.discards[state.seat].length === n + 1", arg=before, timeout=20_000
    )
    assert page.evaluate("state.decision") != decision
    # a blip: the socket closed and open again at once (as after joining) shows no notice
    page.evaluate(FLASHES)
    page.evaluate("() => ws.close()")
    page.wait_for_function("() => ws.readyState === WebSocket.OPEN")  # the notice's timer undone
    assert page.evaluate("window.flashed") is False
    assert errors == []
    page.context.close()


# Whether the notice of a lost connection ever shows from now on.
FLASHES = """() => {
  const note = document.querySelector('#offline');
  window.flashed = false;
  new MutationObserver(() => { if (!note.hidden) window.flashed = true; }).observe(note, {attributes: true});
}"""


@pytest.fixture(scope="module")
def session_over(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server and a practice table whose sixteen hands are over, Ann at place A played by a bot
    (her clock ran out twice: 0.05 s turns, never connected): its base URL and the room as made."""
    port = free_port()
    data = tmp_path_factory.mktemp("audit7-session")
    quick = 0.05  # seconds: every turn, claim window and pause between hands
    with server(
        data,
        port,
        turn=quick,
        first_discard=quick,
        claim=quick,
        bot_delay=0,
        between_hands=quick,
        bots_between=quick,
    ):
        base = f"http://127.0.0.1:{port}"
        made = post(base, "/api/rooms", {"player": "Ann", "practice": True, "seed": 5})
        post(base, f"/api/rooms/{made['id']}/start", {"owner_token": made["owner_token"]})
        deadline = time.monotonic() + 120
        while not get(base, f"/api/rooms/{made['id']}/hands")["room"]["ended"]:
            assert time.monotonic() < deadline, "the session did not end in two minutes"
            time.sleep(0.5)
        yield base, made


# The session's standings as drawn: each row's cells, and whether it is marked as yours.
STANDINGS = """() => [...document.querySelectorAll('#overlay-body table tr')].slice(1).map((tr) => ({
  cells: [...tr.cells].map((td) => td.innerText.trim()), bold: getComputedStyle(tr.cells[1]).fontWeight >= 600}))"""
HEAD = "() => [...document.querySelectorAll('#overlay-body table th')].map((th) => th.innerText.trim())"


@pytest.mark.parametrize(("lang", "rank", "you"), [("en", "Rank", "(you)"), ("zh", "名次", "(你)")])
def test_the_sessions_end_ranks_the_places_and_marks_yours(
    browser: Any, session_over: tuple[str, Any], lang: str, rank: str, you: str
) -> None:
    """After the sixteenth hand the session's box listed four names, scores and standard points:
    no rank, and nothing said which row was yours. Each row now starts with its place's rank
    (shared by a tie, 2=) and yours is marked (you) in bold; the ranks follow the server's
    scores."""
    base, made = session_over
    page, errors = open_page(
        browser,
        f"{base}/room/{made['id']}?token={made['token']}&lang={lang}",
        viewport=VIEWPORTS["desktop"],
    )
    page.wait_for_selector("#overlay:not([hidden]) table")
    head = page.evaluate(HEAD)
    rows = page.evaluate(STANDINGS)
    scores = page.evaluate("state.scores")  # by place, as the server sent them
    if not head or head[0] != rank:
        shot(page, f"failed-session-end-{lang}.png")
    assert head[0] == rank, head
    expected = sorted(scores, reverse=True)
    assert [int(r["cells"][2]) for r in rows] == expected, rows
    for row in rows:
        score = int(row["cells"][2])
        place = 1 + sum(s > score for s in scores)
        tie = scores.count(score) > 1
        assert row["cells"][0] == f"{place}{'=' if tie else ''}", rows
    mine = [r for r in rows if r["cells"][1].endswith(you)]
    assert len(mine) == 1, rows
    assert mine[0]["cells"][1].startswith("Ann")
    assert mine[0]["bold"] and not any(r["bold"] for r in rows if r is not mine[0])
    assert int(mine[0]["cells"][2]) == scores[0]  # Ann sat at place A
    assert errors == []
    page.context.close()


# Places B and C tied for second, A and D as the server would send them (exact fractions as text)
TIED = [(500, Fraction(5, 2)), (480, Fraction(3, 2)), (480, Fraction(3, 2)), (436, Fraction(-2, 3))]


def test_tied_places_share_their_rank_and_points_read_as_printed(
    browser: Any, session_over: tuple[str, Any]
) -> None:
    """Two places tied shared nothing on the page (no rank) and their standard points read as
    the server's fraction, 3/2, where the printed papers say 1 1/2. They now share a rank, 2=,
    and the points read as the papers print them (format_points)."""
    base, made = session_over
    page, errors = open_page(
        browser,
        f"{base}/room/{made['id']}?token={made['token']}&lang=en",
        viewport=VIEWPORTS["phone"],
    )
    page.wait_for_selector("#overlay:not([hidden]) table")
    message = {
        "type": "session_end",
        "names": ["Ann", "Bo", "Cy", "Di"],
        "scores": [score for score, _ in TIED],
        "standard_points": [str(points) for _, points in TIED],
    }
    page.evaluate("m => receive(m)", message)
    rows = [r["cells"] for r in page.evaluate(STANDINGS)]
    printed = [format_points(points) for _, points in TIED]
    assert rows == [
        ["1", "Ann (you)", "500", printed[0]],
        ["2=", "Bo", "480", printed[1]],
        ["2=", "Cy", "480", printed[2]],
        ["4", "Di", "436", printed[3]],
    ], rows
    assert printed[1] == "1 1/2" and printed[3] == "-2/3"
    assert errors == []
    page.context.close()


# Where the focus is: inside the box (its tag and text), or not.
FOCUS = """() => {
  const a = document.activeElement;
  return {inside: document.querySelector('#overlay-body').contains(a), text: a ? a.textContent.trim() : null};
}"""
DIALOG = """() => {
  const d = document.querySelector('[role=dialog]');
  const by = d && document.getElementById(d.getAttribute('aria-labelledby'));
  return d ? {modal: d.getAttribute('aria-modal'), name: by ? by.textContent : null} : null;
}"""


def test_the_end_boxes_are_dialogs_that_keep_the_focus(
    browser: Any, session_over: tuple[str, Any]
) -> None:
    """The end of the session and of a hand came up over the table without the focus: Tab went
    to the header's links and the table under the box, and a screen reader was not told of a
    dialog. Each box is now a modal dialog named by its title, its first button focused; Tab and
    Shift+Tab go round its links and buttons; Escape closes it and the focus goes back."""
    base, made = session_over
    page, errors = open_page(
        browser,
        f"{base}/room/{made['id']}?token={made['token']}&lang=en",
        viewport=VIEWPORTS["laptop"],
    )
    page.wait_for_selector("#overlay:not([hidden]) table")
    assert page.evaluate(DIALOG) == {"modal": "true", "name": "Session over"}
    assert page.evaluate(FOCUS)["inside"]
    seen = set()
    for key in ["Tab"] * 4 + ["Shift+Tab"] * 4:
        page.keyboard.press(key)
        found = page.evaluate(FOCUS)
        assert found["inside"], (key, found)
        seen.add(found["text"])
    assert {"Replay the hands", "Lobby", "Close"} <= seen, seen
    page.keyboard.press("Escape")
    assert page.evaluate("document.querySelector('#overlay').hidden")
    # the last hand's box, opened with the keyboard from the header's button
    page.focus("#last-hand")
    page.keyboard.press("Enter")
    page.wait_for_selector("#overlay:not([hidden]) .deltas")
    dialog = page.evaluate(DIALOG)
    assert dialog["modal"] == "true" and dialog["name"].startswith("Hand over"), dialog
    assert page.evaluate(FOCUS) == {"inside": True, "text": "Close"}
    for _ in range(3):
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUS)["inside"]
    page.keyboard.press("Escape")
    assert page.evaluate("document.querySelector('#overlay').hidden")
    assert page.evaluate("document.activeElement.id") == "last-hand"
    assert errors == []
    page.context.close()


# The animations and transitions of the table's moving parts: the tile open to a claim, the clocks.
MOTION = """() => {
  const pool = document.querySelector('#pool-1');
  const t = tile('W5', {cls: 'last claimable'});
  pool.append(t);
  const out = {pulse: getComputedStyle(t, '::after').animationName,
               clock: getComputedStyle(document.querySelector('#clock .fill')).transitionDuration,
               ring: getComputedStyle(document.querySelector('#center .ring .fill')).transitionDuration,
               outline: getComputedStyle(t).outlineStyle};
  t.remove();
  return out;
}"""


def test_no_motion_for_those_who_ask_for_less(browser: Any, base_url: str) -> None:
    """With the system's "reduce motion" set, the tile open to a claim still pulsed and the
    clocks slid. Now nothing moves (the tile keeps its outline); without the setting they do."""
    made = post(base_url, "/api/rooms", {"player": "Ann", "practice": True, "seed": 3})
    post(
        base_url,
        f"/api/rooms/{made['id']}/start",
        {"owner_token": made["owner_token"], "fill": True},
    )
    for motion, still in (("reduce", True), ("no-preference", False)):
        page, errors = open_page(
            browser,
            f"{base_url}/room/{made['id']}?token={made['token']}&lang=en",
            viewport=VIEWPORTS["desktop"],
            reduced_motion=motion,
        )
        page.wait_for_selector("#center .ring .fill", state="attached")
        found = page.evaluate(MOTION)
        if still:
            assert found["pulse"] == "none" and found["clock"] == "0s" and found["ring"] == "0s", (
                found
            )
        else:
            assert found["pulse"] == "pulse" and found["clock"] != "0s", found
        assert found["outline"] == "solid"
        assert errors == []
        page.context.close()


# Every animation running on the page and the properties it changes (CSS animations and
# transitions alike).
ANIMATED = """() => document.getAnimations().map(a => ({
  name: a.animationName || a.transitionProperty,
  on: a.effect.target.id || a.effect.target.className,
  props: [...new Set(a.effect.getKeyframes().flatMap(k => Object.keys(k)))]
    .filter(k => !['offset', 'computedOffset', 'easing', 'composite'].includes(k)),
}))"""


def layouts(cdp: Any) -> float:
    """How many times the page has been laid out (Chromium's count, since ``Performance.enable``
    on this DevTools session)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "LayoutCount"))


def test_the_moving_parts_are_only_composited(browser: Any, base_url: str) -> None:
    """The clocks slid by their width and the tile open to a claim pulsed by the size of its glow:
    an idle table was laid out or painted again every frame (a quarter of a core in Chromium
    here, a phone's battery). They now move by transform and opacity alone, which the compositor
    draws without laying out or painting the page again; they still move."""
    page, errors = practice_table(browser, base_url, "desktop")
    page.evaluate("document.querySelector('#pool-1').append(tile('W5', {cls: 'last claimable'}))")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    before = layouts(cdp)
    time.sleep(2)
    laid_out = layouts(cdp) - before
    # the glow and your clock move: a moment when both run (the clock's 0.2 s transitions are
    # set every 200 ms by a timer, which a loaded machine may leave a few ms apart)
    running = page.wait_for_function(
        f"""() => {{
          const running = ({ANIMATED})();
          const clock = running.some(a => a.on === 'fill');
          return running.some(a => a.name === 'pulse') && clock && running;
        }}"""
    ).json_value()
    for animation in running:
        assert set(animation["props"]) <= {"transform", "opacity"}, animation
    # the countdown's seconds are the only change to lay out: once a second (120 with the width)
    assert laid_out <= 6, laid_out
    assert errors == []
    page.context.close()


# A tile's name as said aloud: in English the suit's word or the honour's name (the index "3m" was
# read as three metres); in 中文 the tile's Chinese name, as the server's tile table gives it.
SUITS = {"W": "Characters", "B": "Dots", "T": "Bamboo"}
HONOURS = {
    "F": ["East Wind", "South Wind", "West Wind", "North Wind"],
    "J": ["Red Dragon", "Green Dragon", "White Dragon"],
    "H": [
        "Spring",
        "Summer",
        "Autumn",
        "Winter",
        "Plum",
        "Orchid",
        "Bamboo flower",
        "Chrysanthemum",
    ],
}
ZH = {name: names["zh"] for name, names in tile_table().items()}


def spoken(tile: str, lang: str) -> str:
    if lang == "zh":
        return ZH[tile]
    number = int(tile[1])
    return f"{number} {SUITS[tile[0]]}" if tile[0] in SUITS else HONOURS[tile[0]][number - 1]


# The accessible name of every button of the hand and of the claims, as the browser computes it.


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_hand_and_the_claims_are_named_for_a_screen_reader(
    browser: Any, base_url: str, lang: str
) -> None:
    """A tile of the hand was a button named by its index, "3m" (read aloud as three metres),
    nothing saying a press discards it; a claim's button was named with its key's letter ("Chow
    1m 2m 3m C"). A tile is now named by what a press does, in the page's language ("Discard 3
    Characters", 打出 三万); a claim by its kind and tiles, its key given apart
    (aria-keyshortcuts)."""
    page, errors = practice_table(browser, base_url, "desktop", lang=lang)
    hand = page.evaluate("state.view.hand")
    for tile in sorted(set(hand)):
        name = f"{term('discard', lang)} {spoken(tile, lang)}"
        assert page.get_by_role("button", name=name, exact=True).count() >= 1, (
            name,
            page.locator("#hand").aria_snapshot(),
        )
    page.evaluate(EVERY_CLAIM_STATE)
    claims = {
        "chow W1W2W3": ["chow", "W1", "W2", "W3"],
        "pung W3": ["pung", "W3", "W3", "W3"],
        "kong W3": ["kong", "W3", "W3", "W3", "W3"],
    }
    words = {"chow": term("chow", lang), "pung": term("pung", lang), "kong": term("kong", lang)}
    for action, (kind, *tiles) in claims.items():
        name = " ".join([words[kind], *(spoken(t, lang) for t in tiles)])
        button = page.get_by_role("button", name=name, exact=True)
        assert button.count() == 1, (name, page.locator("#actions").aria_snapshot())
        assert button.get_attribute("data-action") == action
        assert button.get_attribute("aria-keyshortcuts") in ("C", "G", "K")
    assert errors == []
    page.context.close()


def term(key: str, lang: str) -> str:
    found = TERMS[key]
    return found.zh if lang == "zh" else found.en


# The ring round what the keyboard's focus is on: its width and colour, and the felt's under it.
RING = """() => {
  const s = getComputedStyle(document.activeElement);
  return {tag: document.activeElement.tagName, tile: document.activeElement.dataset.tile || null,
          style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor};
}"""


def test_the_keyboards_focus_is_seen_on_a_tile(browser: Any, base_url: str) -> None:
    """Tabbed to, a tile of the hand showed Chromium's own ring, 1 px and dark against the
    tile's ivory edge and the dark felt: which tile had the focus was hard to tell. It now has a
    3 px amber ring (the table's accent) and stands up, as a selected tile does."""
    page, errors = practice_table(browser, base_url, "desktop")
    page.evaluate("document.activeElement.blur()")
    found = None
    for _ in range(12):
        page.keyboard.press("Tab")
        found = page.evaluate(RING)
        if found["tile"]:
            break
    assert found and found["tile"], found
    assert found["style"] == "solid" and found["width"] >= 3, found
    assert found["color"] == "rgb(242, 193, 78)", found
    lifted = page.evaluate("getComputedStyle(document.activeElement).transform")
    assert lifted not in ("none", ""), lifted
    page.keyboard.press("Enter")  # the focused tile discarded, once
    page.wait_for_function(
        "tile => state.view.discards[state.seat].includes(tile)", arg=found["tile"]
    )
    assert errors == []
    page.context.close()


CONTRAST = """() => {
  const parse = (c) => { const m = c.match(/[\\d.]+/g); const [r, g, b, a = 1] = m.map(Number); return {r, g, b, a}; };
  const lum = ({r, g, b}) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1});
  // the colour behind a node: its own and its ancestors' backgrounds laid over one another
  const behind = (n) => {
    const layers = [];
    for (let e = n; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    return layers.reverse().reduce((base, c) => over(c, base), {r: 255, g: 255, b: 255, a: 1});
  };
  const bad = [];
  for (const n of document.querySelectorAll('body *')) {
    if (!n.getClientRects().length || n.closest('[aria-hidden=true], button:disabled')) continue;
    const text = [...n.childNodes].filter((c) => c.nodeType === 3 && c.textContent.trim()).map((c) => c.textContent.trim()).join(' ');
    const s = getComputedStyle(n);
    if (!text || s.visibility === 'hidden') continue;
    let opacity = 1;
    for (let e = n; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const bg = behind(n), ink = parse(s.color);
    const fg = over({...ink, a: ink.a * opacity}, bg);
    const [a, b] = [lum(fg), lum(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(s.fontSize), large = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5)) bad.push(`${n.id || n.className || n.tagName} "${text.slice(0, 24)}" ${ratio.toFixed(2)}:1 at ${size}px`);
  }
  return bad;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_tables_words_read_on_the_felt(browser: Any, base_url: str, lang: str) -> None:
    """Text on the table below WCAG's 4.5:1: the dealer's mark, white on the light red (3.7:1);
    the wind of the seat whose turn it is, amber on its tinted plate (4.3:1); the keys' legend
    (4.4:1 at 11 px); a claim's Win button, white on the light red (3.7:1), its key letters
    (2.2-3.9:1). Every word now reads at 4.5:1 or more (3:1 where large), at a turn, at a claim
    and on the session's end."""
    page, errors = practice_table(browser, base_url, "desktop", lang=lang)
    page.evaluate(SETTLE)
    assert page.evaluate(CONTRAST) == []
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(EVERY_CLAIM_STATE)
    page.evaluate(SETTLE)
    bad = page.evaluate(CONTRAST)
    if bad:
        shot(page, f"failed-contrast-{lang}.png")
    assert bad == []
    page.evaluate(
        "() => receive({type: 'session_end', names: ['Ann', 'Bo', 'Cy', 'Di'], scores: [512, 540, 512, 436],"
        " standard_points: ['3/2', '4', '3/2', '0']})"
    )
    assert page.evaluate(CONTRAST) == []
    assert errors == []
    page.context.close()
