"""The table page, eleventh audit (the ninth of the table in the browser), in headless Chromium
against a real ``guobiao serve``: what two layout tests caught on some deals only, and what a
player at a large screen, a tablet and a small phone held sideways would not accept. Found and
fixed: at 640x360 one tile width for all four pools fell to 14-17 px in every pool once a side
pool had four rows or more, and a hand with its flowers laid above it took the pond 45 px (every
pool 15 px); at 1920x1080 a claim's buttons stood at the row's left end, 670 px from the table's
middle, and the end of a hand's box was 576 px wide in 16 px text; at 1024x768 the side seats'
melds were 20 px in a strip too narrow for more (24 px upright at 768x1024, the strip half
empty); at 640x360 seven claims took two rows (in English). A side seat's strip is fitted after
the top seat's row and again whenever its height changes (CI saw a flower cut off at 360x640);
its worst case is checked here too. Each test failed on the pages before this audit but the
side strip's worst case and the seven claims in 中文 (they fitted), which guard them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from guobiao.server.rooms import Limits, Room
from guobiao.table.game import Action, ActionKind
from test_server_e2e import open_page, post, shot
from test_server_restart import free_port, server
from test_web_layout import (
    CLAIM,
    CLIPPED,
    FULL_POOLS,
    NAMES,
    OUTSIDE,
    POND_TILES,
    SEED,
    SETTLE,
    SIDE_MELDS,
)
from test_web_table_audit5 import ACTION_ROWS, EVERY_CLAIM_STATE, ONE_CHOW

SIZES = {
    "small-phone": {"width": 360, "height": 640},
    "phone-landscape": {"width": 844, "height": 390},
    "small-phone-landscape-640": {"width": 640, "height": 360},
    "tablet": {"width": 768, "height": 1024},
    "tablet-landscape": {"width": 1024, "height": 768},
    "laptop": {"width": 1366, "height": 768},
    "large": {"width": 1920, "height": 1080},
}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("audit11"), port, between_hands=600, claim=CLAIM):
        yield f"http://127.0.0.1:{port}"


def table_at(browser: Any, base_url: str, size: str, lang: str = "en") -> tuple[Any, list[str]]:
    """Ann's practice table (three bots, SEED) at one of SIZES; a touch screen but the large one."""
    made = post(base_url, "/api/rooms", {"player": "Ann", "practice": True, "seed": SEED})
    post(
        base_url,
        f"/api/rooms/{made['id']}/start",
        {"owner_token": made["owner_token"], "fill": True},
    )
    touch = size != "large" and size != "laptop"
    page, errors = open_page(
        browser,
        f"{base_url}/room/{made['id']}?token={made['token']}&lang={lang}&hints=1",
        viewport=SIZES[size],
        is_mobile=touch,
        has_touch=touch,
    )
    page.wait_for_selector("#hand button.tile:not([disabled])")
    return page, errors


# Each pool by its position (0 ours, 1 right, 2 top, 3 left) with so many discards.
POOLS_BY_POS = """(counts) => {
  const tiles = ["W1", "W9", "B5", "T3", "F1", "J2"];
  const discards = [0, 1, 2, 3].map((seat) => {
    const n = counts[(seat - state.seat + 4) % 4];
    return Array.from({length: n}, (_, i) => tiles[i % 6]);
  });
  state.view = {...state.view, discards};
  renderTable();
}"""
# Each pool's tile width and rows, by position.
POOL_SIZES = """() => [0, 1, 2, 3].map((pos) => {
  const box = document.querySelector(`#pool-${pos}`);
  const t = box.querySelector('.tile');
  return {rows: Number(box.dataset.rows), w: t ? t.getBoundingClientRect().width : null};
})"""


@pytest.mark.parametrize(
    "counts",
    [(18, 24, 18, 24), (18, 30, 18, 30), (18, 36, 18, 30), (12, 30, 24, 24), (18, 24, 24, 24)],
    ids=["sides-4-rows", "sides-5-rows", "sides-6-rows", "top-4-rows", "top-and-sides-4-rows"],
)
def test_the_top_and_bottom_pools_keep_their_size_beside_longer_side_pools(
    browser: Any, base_url: str, counts: tuple[int, int, int, int]
) -> None:
    """At 640x360 one tile width for all four pools had to fit the side pools' rows too: with four,
    five or six rows in them every pool fell to 17, 15 or 14 px (CI: "pool-0/pool-2: 3 rows of
    14.0 px tiles"), and a pool of three rows beside a top pool of four got 16-17. The top and
    bottom pools now have their 18 px first (six tiles across), the side pools what is left (17,
    13, 12 px): every tile whole, 12 px at least."""
    page, errors = table_at(browser, base_url, "small-phone-landscape-640")
    page.evaluate(POOLS_BY_POS, list(counts))
    page.evaluate(SETTLE)
    bad = [*page.evaluate(POND_TILES), *page.evaluate(CLIPPED), *page.evaluate(OUTSIDE)]
    bad += page.evaluate(NAMES)
    sizes = page.evaluate(POOL_SIZES)
    if bad:
        shot(page, f"failed-audit11-pools-{'-'.join(map(str, counts))}.png")
    assert bad == [], sizes
    assert all(s["w"] >= 12 for s in sizes), sizes
    assert errors == []
    page.context.close()


# Our hand with flowers shown (and a chow, or not): its tiles' widths and rows, and the pools'.
FLOWERS_IN_HAND = """(chow) => {
  const v = state.view;
  const melds = v.melds.map((m, s) => s === state.seat && chow
    ? [{kind: "chow", tiles: ["T1", "T2", "T3"], claimed: "T2", offered_by: 3}] : []);
  const flowers = v.flowers.map((f, s) => s === state.seat ? (chow ? ["H1", "H2", "H3", "H4"] : ["H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"]) : []);
  const hand = chow ? v.hand.slice(0, v.hand.length - 3) : v.hand;
  state.view = {...v, melds, flowers, hand};
  renderTable();
}"""
# Our hand's tiles: the narrowest, its rows, and whether its melds and flowers stand beside it
# (their row's height shared with the hand's) rather than above it.
HAND_ROW = """() => {
  const tiles = [...document.querySelectorAll('#hand .tile')].map((t) => t.getBoundingClientRect());
  const melds = document.querySelector('#pos-0 .melds.mine').getBoundingClientRect();
  const top = Math.min(...tiles.map((r) => r.top));
  return {least: Math.min(...tiles.map((r) => r.width)), rows: new Set(tiles.map((r) => Math.round(r.top))).size,
          beside: melds.bottom > top + 1};
}"""


@pytest.mark.parametrize("chow", [False, True], ids=["eight-flowers", "a-chow-and-four-flowers"])
def test_a_hand_and_its_flowers_keep_one_row_on_a_small_phone_held_sideways(
    browser: Any, base_url: str, chow: bool
) -> None:
    """At 640x360 a hand with its flowers (eight of them, or a chow and four) was laid with the
    melds and flowers above it (37 px tiles): 45 px of the pond's height, every pool 15-16 px (CI
    saw 14 at decision 87). Held sideways the hand keeps one row down to 28 px tiles, its melds
    and flowers beside it, and the pools have 21 px."""
    page, errors = table_at(browser, base_url, "small-phone-landscape-640")
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(FLOWERS_IN_HAND, chow)
    page.evaluate(SETTLE)
    found = page.evaluate(HAND_ROW)
    bad = [*page.evaluate(POND_TILES), *page.evaluate(CLIPPED), *page.evaluate(OUTSIDE)]
    if bad or not found["beside"]:
        shot(page, f"failed-audit11-flowers-{chow}.png")
    assert found["rows"] == 1 and found["beside"] and found["least"] >= 28, found
    assert bad == []
    assert errors == []
    page.context.close()


# Seven claims offered at once: each button's box, whether its kind is named on it and for a
# screen reader, and the row's lines.
CLAIM_BUTTONS = """() => [...document.querySelectorAll('#actions button')].map((b) => {
  const r = b.getBoundingClientRect(), name = b.querySelector('.act-name');
  return {action: b.dataset.action, w: r.width, h: r.height, top: r.top, label: b.getAttribute('aria-label'),
          named: Boolean(name && name.getClientRects().length), left: r.left, right: r.right};
})"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_seven_claims_keep_one_row_on_a_small_phone_held_sideways(
    browser: Any, base_url: str, lang: str
) -> None:
    """At 640x360 a discard offering a win, three chows, a pung, a kong and pass laid its buttons
    in two rows (in English), which the pools paid for. They keep one row: where the row is short
    a second chow's name gives way, then every meld's (its tiles say which it is, its aria-label
    names it), each button still a finger's 44 px; the win and pass keep their names."""
    page, errors = table_at(browser, base_url, "small-phone-landscape-640", lang)
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(EVERY_CLAIM_STATE)
    page.evaluate(SETTLE)
    buttons = page.evaluate(CLAIM_BUTTONS)
    bad = [*page.evaluate(OUTSIDE), *page.evaluate(POND_TILES), *page.evaluate(CLIPPED)]
    if bad or page.evaluate(ACTION_ROWS) != 1:
        shot(page, f"failed-audit11-claims-640-{lang}.png")
    assert len(buttons) == 7
    assert page.evaluate(ACTION_ROWS) == 1, buttons
    assert [b for b in buttons if b["w"] < 44 or b["h"] < 44] == []
    assert bad == []
    named = {b["action"]: b["named"] for b in buttons}
    assert named["win"] and named["pass"], named
    kinds = {"chow": ("Chow", "吃"), "pung": ("Pung", "碰"), "kong": ("Kong", "杠")}
    for b in buttons:  # a name hidden on the button is still read out
        kind = b["action"].split()[0]
        if kind in kinds:
            assert b["label"].startswith(kinds[kind][lang == "zh"]), b
    assert errors == []
    page.context.close()


# The claim buttons' span, the hand's and the pond's middles, and the rest of the controls' row.
CLAIM_PLACE = """() => {
  const buttons = [...document.querySelectorAll('#actions button')].map((b) => b.getBoundingClientRect());
  const left = Math.min(...buttons.map((r) => r.left)), right = Math.max(...buttons.map((r) => r.right));
  const mid = (n) => { const r = document.querySelector(n).getBoundingClientRect(); return (r.left + r.right) / 2; };
  const others = [...document.querySelectorAll('.controls-row > :not(#actions)')].filter((n) => n.getClientRects().length)
    .map((n) => { const r = n.getBoundingClientRect(); return {id: n.id, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; });
  const overlaps = others.filter((o) => buttons.some((r) => Math.min(r.right, o.right) - Math.max(r.left, o.left) > 0.5
    && Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top) > 0.5)).map((o) => o.id);
  return {left, right, middle: (left + right) / 2, hand: mid('#hand'), pond: mid('#pond'), overlaps,
          shown: others.map((o) => o.id), rows: new Set(buttons.map((r) => Math.round(r.top))).size};
}"""


@pytest.mark.parametrize(
    ("size", "lang"),
    [("large", "en"), ("large", "zh"), ("laptop", "en"), ("tablet-landscape", "zh")],
)
def test_a_claims_buttons_stand_over_the_middle_of_the_hand(
    browser: Any, base_url: str, size: str, lang: str
) -> None:
    """At 1920x1080 a claim's buttons stood at the left end of the controls' row, 670 px from the
    middle of the table (400 at 1366x768, 310 at 1024x768), far from the hand and the discard
    the eye is on. They stand over the middle now, where the row has room, overlapping nothing,
    the hint summary still beside them. Seven keep to one row, as near the middle as it lets
    them be."""
    page, errors = table_at(browser, base_url, size, lang)
    page.evaluate(ONE_CHOW)
    page.evaluate(SETTLE)
    found = page.evaluate(CLAIM_PLACE)
    if abs(found["middle"] - found["pond"]) > 30 or found["overlaps"]:
        shot(page, f"failed-audit11-claim-place-{size}-{lang}.png")
    assert abs(found["middle"] - found["pond"]) <= 30, found
    assert abs(found["middle"] - found["hand"]) <= 120, found
    assert found["overlaps"] == [] and "hints" in found["shown"], found
    page.evaluate(EVERY_CLAIM_STATE)
    page.evaluate(SETTLE)
    every = page.evaluate(CLAIM_PLACE)
    assert every["overlaps"] == [] and every["rows"] == 1, every
    assert page.evaluate(OUTSIDE) == []
    if size == "large":  # room for all seven about the middle
        assert abs(every["middle"] - every["pond"]) <= 120, every
    assert errors == []
    page.context.close()


def won_hand_end() -> dict[str, Any]:
    """The end of hand 1 of the first practice table (Ann passing every claim and discarding what
    she draws) that a bot wins with five fans or more: the ``hand_end`` message the page gets."""
    for seed in range(300):
        room = Room("probe", seed=seed, limits=Limits(bot_delay=0))
        room.join("Ann", 0)
        room.add_bots()
        room.start(0.0)
        room.connect(0)
        game = room.games[0]
        t = 0.0
        for _ in range(5000):
            room.poll(t)
            if game.is_over and room.window is None:
                break
            seat = room.seat_of(0)
            assert seat is not None
            view = room.view_of(seat)
            legal = view.legal_actions
            if Action(ActionKind.PASS) in legal:
                room.act(0, Action(ActionKind.PASS), t)
            elif legal:
                discards = [a for a in legal if a.kind is ActionKind.DISCARD]
                drawn = [a for a in discards if a.tile == view.drawn]
                room.act(0, (drawn or discards)[-1], t)
            else:
                wake = room.next_wake(t)
                assert wake is not None
                t = max(t, wake)
        message = room.hand_end(game)
        if message["result"]["winner"] not in (None, 0) and len(message["result"]["fans"]) >= 5:
            return message
    raise AssertionError("no bot won with five fans")


# The end of a hand's box: its width, its text's size, the winning hand's tiles, and whether the
# fans stand beside the payments and the scores, every cell within the box, the box on screen.
END_CARD = """() => {
  const card = document.querySelector('#overlay .card').getBoundingClientRect();
  const fans = document.querySelector('#overlay table.fans').getBoundingClientRect();
  const deltas = document.querySelector('#overlay table.deltas').getBoundingClientRect();
  const name = document.querySelector('#overlay table.fans td');
  const hand = [...document.querySelectorAll('#overlay .win-hand .tile')].map((t) => t.getBoundingClientRect().width);
  const cells = [...document.querySelectorAll('#overlay table td, #overlay table th')].filter((td) => {
    const r = td.getBoundingClientRect();
    return r.width && (r.right > card.right + 0.5 || r.left < card.left - 0.5);
  }).map((td) => td.textContent);
  const cont = document.querySelector('#continue').getBoundingClientRect();
  return {width: card.width, font: parseFloat(getComputedStyle(name).fontSize), hand: Math.min(...hand),
          beside: fans.right <= deltas.left, cells, onScreen: card.top >= 0 && card.bottom <= innerHeight,
          cont: cont.bottom <= innerHeight && cont.top >= 0};
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_end_of_a_hand_uses_a_large_screen(browser: Any, base_url: str, lang: str) -> None:
    """At 1920x1080 the end of a hand's box was 576 px wide with 16 px text and 33 px tiles in
    the middle of the felt, as on a laptop. On a large screen it is 1088 px wide, its text 19 px,
    the winning hand's tiles 54 px, the fans beside the payments and the scores so that the box
    keeps to the screen with Continue in sight; every cell within it. A laptop's is as before."""
    message = won_hand_end()
    page, errors = table_at(browser, base_url, "large", lang)
    page.evaluate("m => receive(m)", message)
    page.wait_for_selector("#overlay:not([hidden]) #continue")
    page.evaluate(SETTLE)
    found = page.evaluate(END_CARD)
    if found["width"] < 900 or found["cells"]:
        shot(page, f"failed-audit11-end-large-{lang}.png")
    assert found["width"] >= 900 and found["font"] >= 19 and found["hand"] >= 48, found
    assert found["beside"] and found["onScreen"] and found["cont"], found
    assert found["cells"] == [], found
    # a laptop's box as before: one column, 36rem
    page.set_viewport_size(SIZES["laptop"])
    page.evaluate(SETTLE)
    laptop = page.evaluate(END_CARD)
    assert laptop["width"] <= 600 and not laptop["beside"] and laptop["cells"] == [], laptop
    assert errors == []
    page.context.close()


# Both side seats with melds (a kong among them or not) and flowers; the narrowest of their
# tiles, and any out of its strip.
SIDE_SEATS = """(kong) => {
  const v = state.view;
  const melds = v.melds.map((m, s) => [1, 3].includes((s - state.seat + 4) % 4) ? [
    {kind: "chow", tiles: ["B2", "B3", "B4"], claimed: "B3", offered_by: 3},
    {kind: "pung", tiles: ["W1", "W1", "W1"], claimed: "W1", offered_by: 2},
    kong ? {kind: "kong", tiles: ["T5", "T5", "T5", "T5"], claimed: "T5", offered_by: 1}
      : {kind: "pung", tiles: ["J1", "J1", "J1"], claimed: "J1", offered_by: 1}] : []);
  const flowers = v.flowers.map((f, s) => (s - state.seat + 4) % 4 === 1 ? ["H1", "H2", "H3"] : (s - state.seat + 4) % 4 === 3 ? ["H5", "H6"] : []);
  state.view = {...v, melds, flowers};
  renderTable();
}"""
STRIP_TILES = """() => {
  const out = {least: Infinity, cut: []};
  for (const box of document.querySelectorAll('#pos-1, #pos-3')) {
    const b = box.getBoundingClientRect();
    for (const t of box.querySelectorAll('.melds .tile')) {
      const r = t.getBoundingClientRect();
      out.least = Math.min(out.least, r.width);
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) out.cut.push(t.dataset.tile);
    }
  }
  return out;
}"""


@pytest.mark.parametrize(
    ("size", "kong", "least"),
    [("tablet-landscape", False, 30), ("tablet-landscape", True, 26), ("tablet", True, 30)],
)
def test_the_side_seats_melds_grow_on_a_tablet(
    browser: Any, base_url: str, size: str, kong: bool, least: int
) -> None:
    """At 1024x768 the side seats' melds were 20 px in a 92 px strip, empty felt below them and
    beside the pools; held upright (768x1024) 24 px in a strip three times as high as they
    needed. Sideways the strip is as wide as a kong with its claimed tile turned needs at 26 px,
    and the melds take its width (32 px without a kong, 28 with one); upright they grow to a
    30th of the height (34 px). Every tile within its strip, the pools as large as before."""
    page, errors = table_at(browser, base_url, size)
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(SIDE_SEATS, kong)
    page.evaluate(SETTLE)
    found = page.evaluate(STRIP_TILES)
    pools = page.evaluate(POOL_SIZES)
    if found["cut"] or found["least"] < least:
        shot(page, f"failed-audit11-side-melds-{size}-{kong}.png")
    assert found["cut"] == [] and found["least"] >= least, found
    assert min(p["w"] for p in pools) >= (46 if size == "tablet" else 40), pools
    assert [*page.evaluate(CLIPPED), *page.evaluate(OUTSIDE)] == []
    assert errors == []
    page.context.close()


# The worst a side strip shows: the left seat's four melds (three kongs, one of them concealed)
# and all eight flowers, the right seat's four melds, the top seat's four; our claim of a chow, a
# pung or pass laid in two rows at 360 px.
FULL_STRIPS = """() => {
  const v = state.view;
  const kong = (t, by) => ({kind: "kong", tiles: [t, t, t, t], claimed: t, offered_by: by});
  const shown = {
    3: [kong("W7", 1), kong("B7", 2), {kind: "concealed_kong", tiles: ["T7", "T7", "T7", "T7"], claimed: null, offered_by: null},
        {kind: "pung", tiles: ["J1", "J1", "J1"], claimed: "J1", offered_by: 3}],
    1: [{kind: "chow", tiles: ["B2", "B3", "B4"], claimed: "B3", offered_by: 3}, kong("W9", 3),
        {kind: "pung", tiles: ["F1", "F1", "F1"], claimed: "F1", offered_by: 1}, {kind: "chow", tiles: ["T4", "T5", "T6"], claimed: "T4", offered_by: 3}],
    2: [kong("W5", 1), kong("F2", 3), {kind: "pung", tiles: ["J3", "J3", "J3"], claimed: "J3", offered_by: 2},
        {kind: "chow", tiles: ["B6", "B7", "B8"], claimed: "B8", offered_by: 3}],
  };
  const pos = (s) => (s - state.seat + 4) % 4;
  const melds = v.melds.map((m, s) => shown[pos(s)] || []);
  const flowers = v.flowers.map((f, s) => pos(s) === 3 ? ["H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8"] : []);
  const concealed_kongs = v.concealed_kongs.map((k, s) => pos(s) === 3 ? 1 : 0);
  state = {...state, must_act: true, view: {...v, melds, flowers, concealed_kongs, phase: "respond",
    last_discard: "W3", drawn: null, legal_actions: ["chow W1W2W3", "chow W2W3W4", "pung W3", "pass"]}};
  renderTable();
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_side_strip_shows_four_kongs_and_eight_flowers_on_a_small_phone(
    browser: Any, base_url: str, lang: str
) -> None:
    """A side seat's strip at 360x640 with the most it can hold (four melds, three of them kongs,
    and all eight flowers) beside a claim's two rows of buttons: every tile 16 px or more and
    within its strip, as the page comes to it from a phone held sideways and from a taller one
    (CI saw a flower cut off by its strip at 360x640; the strip is fitted after the top seat's
    row, and again whenever its height changes)."""
    page, errors = table_at(browser, base_url, "small-phone", lang)
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(FULL_STRIPS)
    for before in ({"width": 844, "height": 390}, {"width": 390, "height": 844}, None):
        if before:
            page.set_viewport_size(before)
            page.evaluate(SETTLE)
            page.set_viewport_size(SIZES["small-phone"])
        page.evaluate(SETTLE)
        bad = [*page.evaluate(SIDE_MELDS), *page.evaluate(OUTSIDE), *page.evaluate(CLIPPED)]
        if bad:
            shot(page, f"failed-audit11-strips-{lang}.png")
        assert bad == [], before
    assert page.locator("#pos-3 .tile.flower").count() == 8
    assert errors == []
    page.context.close()
