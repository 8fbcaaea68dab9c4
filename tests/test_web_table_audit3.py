"""The table page, third audit, in headless Chromium against a real ``guobiao serve``: the side
pools of a phone held upright (360x640) as large as the top and bottom ones; the hands laid open
at the end of a hand readable on a phone held sideways, and the table under the end-of-hand box
reachable without a keyboard (*See the table*); the centre's text at least 14 px on a desktop,
its log's lines whole; the plates in 中文 in the order English reads them (wind, level and bot,
score); the bots named alike on their plates, in the log, the clock's words and the end-of-hand
box; the top seat's melds readable held sideways; the end-of-hand buttons take a finger. Each
test failed on the table before this audit, but at the sizes where the old table already did
what it checks (kept as guards: 390x844's side pools, 1920x1080's centre and log, the English
plates)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from guobiao.bots import BOT_NAMES, LEVEL_NAMES, LEVEL_OF
from test_server_e2e import shot
from test_server_restart import free_port, server
from test_web_layout import (
    CLAIM,
    CLIPPED,
    FULL_POOLS,
    NAMES,
    OUTSIDE,
    POND_TILES,
    SETTLE,
    SIDE_MELDS,
    VIEWPORTS,
    WON_SEED,
    play_hand,
    practice_table,
)

BOT = "efficiency"  # the practice table's bots
LEVEL = LEVEL_NAMES[LEVEL_OF[BOT]]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("audit3"), port, between_hands=600, claim=CLAIM):
        yield f"http://127.0.0.1:{port}"


# The smallest tile of each pool, by id.
POOL_TILES = """() => Object.fromEntries([0, 1, 2, 3].map((pos) => [`pool-${pos}`,
  Math.min(...[...document.querySelectorAll(`#pool-${pos} .tile`)].map((t) => t.getBoundingClientRect().width))]))"""


@pytest.mark.parametrize("size", ["small-phone", "phone"])
def test_the_side_pools_are_readable_on_a_phone_held_upright(
    browser: Any, base_url: str, size: str
) -> None:
    """At 360x640 the side pools, beside the centre in the pond's middle row, had 14 px tiles
    against the top and bottom pools' 22: the pond's rows are now shared so that every pool has
    18 px tiles at least in three rows (the centre keeps the rest), nothing cut or overlapping."""
    page, errors = practice_table(browser, base_url, size)
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(SETTLE)
    widths = page.evaluate(POOL_TILES)
    bad = [*page.evaluate(CLIPPED), *page.evaluate(OUTSIDE), *page.evaluate(NAMES)]
    bad += page.evaluate(SIDE_MELDS)
    if bad or min(widths.values()) < 18:
        shot(page, f"failed-side-pools-{size}.png")
    assert bad == []
    assert min(widths.values()) >= 18, widths
    # four rows (24 discards each): smaller, still whole and alike
    page.evaluate(FULL_POOLS, 24)
    page.evaluate(SETTLE)
    widths = page.evaluate(POOL_TILES)
    assert [*page.evaluate(CLIPPED), *page.evaluate(OUTSIDE)] == []
    assert min(widths.values()) >= 15, widths
    assert errors == []
    page.context.close()


# Every tile of the other seats' hands laid open: its width, and whether it lies inside its strip.
OPEN_TILES = """() => [1, 2, 3].flatMap((pos) => {
  const box = document.querySelector(`#pos-${pos}`);
  const b = box.getBoundingClientRect();
  return [...box.querySelectorAll('.revealed .tile, .melds .tile')].map((t) => {
    const r = t.getBoundingClientRect();
    const inside = r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
    return {pos, tile: t.dataset.tile, width: Math.min(r.width, r.height), inside};
  });
})"""


@pytest.mark.parametrize("size", ["phone-landscape", "small-phone-landscape"])
def test_the_hands_laid_open_are_readable_on_a_phone_held_sideways(
    browser: Any, base_url: str, size: str
) -> None:
    """At the end of a hand (won by a bot off a discard) on a phone held sideways the other
    seats' hands, laid open, were 12-16 px tiles (a column of 14 across the side strips, a row
    13 px high on top): now 18 px at least, each whole within its strip. *See the table* puts the
    end-of-hand box aside (a phone has no Escape key; it covered them); *Last hand* brings it
    back, Continue and all."""
    page, errors = practice_table(browser, base_url, size, seed=WON_SEED)
    play_hand(page, "won", (size,))
    page.wait_for_selector("#overlay:not([hidden])")
    assert page.locator("#pos-1 .revealed .tile").count() > 0
    page.evaluate(SETTLE)
    tiles = page.evaluate(OPEN_TILES)  # under the box: the same layout
    small = [t for t in tiles if t["width"] < 18]
    cut = [t for t in tiles if not t["inside"]]
    bad = [*page.evaluate(CLIPPED), *page.evaluate(OUTSIDE)]
    if small or cut or bad:
        shot(page, f"failed-open-hands-{size}.png")
    assert {t["pos"] for t in tiles} == {1, 2, 3}
    assert small == [] and cut == [] and bad == []
    # its buttons take a finger
    for button in page.locator(".overlay-buttons > *").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 43.5, (button.inner_text(), box)
    # the box aside, and back
    page.click("#see-table")
    assert page.locator("#overlay").is_hidden()
    assert page.locator("#pos-1 .revealed .tile").first.is_visible()
    page.click("#last-hand")
    assert page.locator("#overlay #continue").is_enabled()
    assert [e for e in errors if "WebSocket" not in e] == []
    page.context.close()


# The font size of the centre's round, wall and plates (wind, name, score), and each log line's
# box and whether it is cut.
CENTRE_TEXT = """() => {
  const size = (node) => parseFloat(getComputedStyle(node).fontSize);
  const sizes = {};
  for (const sel of ['.mid .round', '.mid .wall', '.plate .wind', '.plate .name', '.plate .score']) {
    const shown = [...document.querySelectorAll(`#center ${sel}`)].filter((n) => n.getClientRects().length);
    sizes[sel] = shown.length ? Math.min(...shown.map(size)) : 0;
  }
  const mid = document.querySelector('#center .mid').getBoundingClientRect();
  const lines = [...document.querySelectorAll('#log li')].map((li) => {
    const r = li.getBoundingClientRect();
    return {text: li.textContent, cut: li.scrollWidth > li.clientWidth + 1 || r.bottom > mid.bottom + 1 || r.top < mid.top - 1};
  });
  return {sizes, lines};
}"""


@pytest.mark.parametrize("size", ["desktop", "laptop", "large"])
def test_the_centre_reads_at_14_px_on_a_desktop(browser: Any, base_url: str, size: str) -> None:
    """The round, the wall and the plates were 11.5 px at 1280x720: now 14 px at least on a
    desktop, with room for them in the pond as the pools fill (three rows, then four), nothing
    overlapping or cut."""
    page, errors = practice_table(browser, base_url, size)
    for discards in (18, 24):
        page.evaluate(FULL_POOLS, discards)
        page.evaluate(SETTLE)
        found = page.evaluate(CENTRE_TEXT)
        bad = [*page.evaluate(CLIPPED), *page.evaluate(NAMES), *page.evaluate(OUTSIDE)]
        if bad:
            shot(page, f"failed-centre-{size}-{discards}.png")
        assert bad == [], discards
        assert min(found["sizes"].values()) >= 14, found["sizes"]
    assert errors == []
    page.context.close()


LONG_LINES = [
    "North Maximilian-Alexander: time-out → discard 5s",
    "South easy bot B chow 1m2m3m",
    "West easy bot C pung 9p",
]


@pytest.mark.parametrize("size", ["desktop", "laptop", "large"])
def test_the_log_lines_are_whole_on_a_desktop(browser: Any, base_url: str, size: str) -> None:
    """The centre's log lines were one line each, cut with "…" where they were long (a time-out
    of a long name): they wrap, whole; where the centre has no room, the oldest give way, the
    newest never."""
    page, errors = practice_table(browser, base_url, size)
    for line in LONG_LINES:
        page.evaluate("line => addLog(line)", line)
    for discards in (18, 24):
        page.evaluate(FULL_POOLS, discards)
        page.evaluate(SETTLE)
        shown = page.evaluate(CENTRE_TEXT)["lines"]
        bad = [*page.evaluate(CLIPPED), *page.evaluate(NAMES)]
        if bad:
            shot(page, f"failed-log-{size}-{discards}.png")
        assert bad == [], discards
        assert [line for line in shown if line["cut"]] == [], shown
        # the newest lines stay: the last one always, two while the pools have three rows
        assert [line["text"] for line in shown] == LONG_LINES[-len(shown) :], shown
        assert len(shown) >= (2 if discards == 18 else 1), shown
    assert errors == []
    page.context.close()


# Each plate's parts in sight, left to right (the wide plates: yours and the top seat's).
PLATE_ORDER = """(id) => [...document.querySelectorAll(`#${id} > .wind, #${id} > .name, #${id} > .score`)]
  .filter((n) => n.getClientRects().length)
  .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
  .map((n) => n.className)"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_plates_read_alike_in_both_languages(browser: Any, base_url: str, lang: str) -> None:
    """A wide plate reads wind, name, score in both languages, a bot's name level first as in
    English (*West easy bot C 500*, 西 入门机器人C 500: 中文 read 西 机器人C 入门 500, the level
    run into the score), broken between the level and the bot where a plate is narrow."""
    page, errors = practice_table(browser, base_url, "desktop", lang=lang)
    page.evaluate(SETTLE)
    place = page.evaluate("'ABCD'[state.places_by_seat[(state.seat + 2) % 4]]")
    name = page.locator("#plate-2 .name").inner_text()
    want = f"{LEVEL.zh}机器人{place}" if lang == "zh" else f"{LEVEL.en} bot {place}"
    assert name == want
    assert page.evaluate(PLATE_ORDER, "plate-2") == ["wind", "name", "score"]
    assert page.evaluate(PLATE_ORDER, "plate-0") == ["wind", "name", "score"]
    # the whole name, with the bot's kind, in the title
    kind = BOT_NAMES[BOT].zh if lang == "zh" else BOT_NAMES[BOT].en
    assert kind in page.locator("#plate-2 .name").get_attribute("title")
    # a narrow plate (a phone's) breaks a 中文 name between the level and the bot (入门 / 机器人C),
    # never inside either: each of its words on one line
    if lang == "zh":
        page.set_viewport_size(VIEWPORTS["phone"])
        page.evaluate(SETTLE)
        split = page.evaluate(WORD_LINES, "#plate-1 .name")
        assert split and all(lines == 1 for lines in split), split
    assert errors == []
    page.context.close()


# How many lines each text of a name takes (a word broken across two lines: 2).
WORD_LINES = """(sel) => {
  const node = document.querySelector(sel);
  if (!node || !node.getClientRects().length) return [];
  return [...node.childNodes].filter((c) => c.nodeType === 3 && c.textContent.trim()).map((c) => {
    const r = document.createRange();
    r.selectNodeContents(c);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  });
}"""


# Every line the log is given, and the clock's words while a bot's turn runs.
WATCH_LOG = """() => {
  window.lines = [];
  const log = addLog;
  addLog = (text) => { if (text) window.lines.push(text); log(text); };
}"""
BOT_TURN = """() => {
  const seat = (state.seat + 1) % 4;
  state = {...state, must_act: false, view: {...state.view, phase: "act", current: seat}};
  timers = {turn: {seat, left: 9}, claim: null, next_hand: null};
  timersAt = Date.now();
  tick();
  return document.querySelector('#countdown').textContent;
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_bots_are_named_alike_everywhere(browser: Any, base_url: str, lang: str) -> None:
    """The plates name a bot by its level and place (*easy bot B*, 入门机器人B); the log, the
    clock's words on a bot's turn and the end-of-hand box named it by its kind (*efficiency bot
    B*, 牌效机器人 B): now by the plates' name."""
    page, errors = practice_table(browser, base_url, "desktop", lang=lang, seed=WON_SEED)
    page.evaluate(WATCH_LOG)
    play_hand(page, "won", ("desktop",))
    if lang == "zh":
        kind, level = f"{BOT_NAMES[BOT].zh}机器人", f"{LEVEL.zh}机器人"
    else:
        kind, level = f"{BOT_NAMES[BOT].en} bot", f"{LEVEL.en} bot"
    lines: list[str] = page.evaluate("() => window.lines")
    bots = [line for line in lines if "Ann" not in line]
    assert bots, lines
    assert [line for line in lines if kind in line] == []
    assert all(level in line for line in bots), bots
    box = page.locator("#overlay-body").inner_text()
    assert kind not in box and level in box, box
    page.keyboard.press("Escape")
    countdown = page.evaluate(BOT_TURN)
    assert level in countdown and kind not in countdown, countdown
    assert [e for e in errors if "WebSocket" not in e] == []
    page.context.close()


# The top seat with two melds (a pung and a chow) and every pool in three rows.
TOP_MELDS = """() => {
  const top = (state.seat + 2) % 4;
  const melds = state.view.melds.map((m, s) => s !== top ? m : [
    {kind: "pung", tiles: ["B5", "B5", "B5"], offered_by: 1, claimed: "B5"},
    {kind: "chow", tiles: ["T3", "T4", "T5"], offered_by: 3, claimed: "T4"}]);
  state.view = {...state.view, melds};
  renderTable();
}"""


@pytest.mark.parametrize("size", ["phone-landscape", "small-phone-landscape"])
def test_the_top_seats_melds_are_readable_on_a_phone_held_sideways(
    browser: Any, base_url: str, size: str
) -> None:
    """The top seat's row, held sideways, is as low as its backs need (13 px tiles at 844x390,
    12 at 740x360, its melds too); with melds to read its tiles are larger (15 px, 14), the row
    no higher for them (less padding): the pools keep their size."""
    page, errors = practice_table(browser, base_url, size)
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(TOP_MELDS)
    page.evaluate(SETTLE)
    widths = page.evaluate(
        "() => [...document.querySelectorAll('#pos-2 .melds .meld .tile')]"
        ".map((t) => Math.min(t.getBoundingClientRect().width, t.getBoundingClientRect().height))"
    )
    assert len(widths) == 6
    assert min(widths) >= 14, widths
    bad = [*page.evaluate(POND_TILES), *page.evaluate(CLIPPED), *page.evaluate(OUTSIDE)]
    bad += page.evaluate(NAMES)
    if bad:
        shot(page, f"failed-top-melds-{size}.png")
    assert bad == []
    assert errors == []
    page.context.close()
