"""The table page's layout in a real browser (Playwright, Debian's Chromium): at desktop, laptop,
large, phone-portrait, phone-landscape and small-phone sizes (upright and sideways) a seeded
practice hand is played to its end (the first action offered, else the drawn tile, else the
hand's last tile), and at every decision your whole hand and every action button must be on
screen with no page scroll, every seat's name whole on its plate, and held sideways the top and
bottom pools' tiles readable; so must every claim a discard can offer at once. The header's
controls take a finger's tap on a phone. Also: the end-of-hand box stays until *Continue*, comes
back with *Last hand*, and opens the replay in a new tab; the keys (D the drawn tile) work after
the header's switches are clicked. ``GUOBIAO_SCREENSHOTS=docs`` saves
docs/screenshot-table.png (the README's: mid-hand, our turn), -table-desktop.png,
-table-phone.png, -claim.png, -claim-phone.png and -hand-end.png, and docs/screenshots/{table,claim,hand-end,table-end,claims-all}-{viewport}.jpg."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from test_server_e2e import SHOTS, open_page, post, shot
from test_server_restart import free_port, server

VIEWPORTS = {
    "desktop": {"width": 1280, "height": 720},
    "laptop": {"width": 1366, "height": 768},
    "large": {"width": 1920, "height": 1080},
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "small-phone": {"width": 360, "height": 640},
    "small-phone-landscape": {"width": 740, "height": 360},
}
# One hand per kind of device, checked at each of its viewports at every decision (the page is
# resized in place): a hand per viewport would take minutes, every discard holding the claim window.
DEVICES = {
    "desktop": ("desktop", "laptop", "large"),
    "phone": ("phone", "phone-landscape", "small-phone", "small-phone-landscape"),
}
SEED = 3  # a long hand: drawn at the last tiles, three melds of ours (so the pools fill up)
WON_SEED = 59  # a short hand, won by a bot off a discard (the end box with a fan breakdown)
CLAIM = 0.6  # seconds of each claim window
# The claim window of the tables played through to their end (``hand_url``; test_web_table_audit10's
# too): every discard holds it, some seventy a hand, whoever may claim (第七条六), so that at 0.6 s
# it was most of a hand's time. Our claims, clicked once every size is checked (a round trip to the
# page each, PROBLEMS), still land within it; one that misses it is passed by the server, as the
# tests allow (a loaded machine).
HAND_CLAIM = 0.4

OVER = "!document.querySelector('#overlay').hidden"

# Every tile of the hand and every action button, and whether each lies inside the viewport.
OUTSIDE = """() => {
  const w = innerWidth, h = innerHeight;
  const bad = [];
  for (const node of document.querySelectorAll('#hand .tile, #actions button')) {
    const r = node.getBoundingClientRect();
    if (r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5 || r.width === 0)
      bad.push(`${node.className} ${node.dataset.tile || node.dataset.action} ${JSON.stringify(r)}`);
  }
  const s = document.scrollingElement;
  if (s.scrollHeight > h) bad.push(`page scrolls: ${s.scrollHeight} > ${h}`);
  if (s.scrollWidth > w) bad.push(`page scrolls sideways: ${s.scrollWidth} > ${w}`);
  return bad;
}"""

# The header's controls (the lobby link, help, Last hand, the switches, the language) stay on
# screen; only the table's name and the connection status may shrink or go.
HEADER_OUTSIDE = """() => {
  const w = innerWidth, bad = [];
  for (const node of document.querySelectorAll('body > .bar > :not(.spacer, #room-name, #status)')) {
    if (node.hidden) continue;
    const r = node.getBoundingClientRect();
    if (r.left < 0 || r.right > w + 0.5 || r.width === 0)
      bad.push(`header ${node.id || node.className || node.tagName} ${JSON.stringify(r)}`);
  }
  return bad;
}"""

# On a phone held upright the side seats' melds stand in a column at a readable size, whole
# within their strip (in a row across the narrow strip their tiles were 9 px wide).
SIDE_MELDS = """() => {
  if (innerWidth >= innerHeight) return [];
  const bad = [];
  for (const box of document.querySelectorAll('.seat-box.left, .seat-box.right')) {
    const b = box.getBoundingClientRect();
    for (const t of box.querySelectorAll('.meld .tile, .flowers .tile')) {
      const r = t.getBoundingClientRect();
      if (r.width < 16) bad.push(`side meld tile ${t.dataset.tile} ${r.width.toFixed(1)} px wide`);
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1)
        bad.push(`side meld tile ${t.dataset.tile} cut off by its strip`);
    }
  }
  return bad;
}"""

# Discards must not be cut off by their area either.
CLIPPED = """() => {
  const bad = [];
  for (const pool of document.querySelectorAll('.pond .discards')) {
    const box = pool.getBoundingClientRect();
    for (const t of pool.children) {
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        bad.push(`${pool.id} ${t.dataset.tile}`);
    }
  }
  // the centre: the seats' plates and the middle never overlap, and no text runs out of them
  const parts = [...document.querySelectorAll('.center .plate, .center .mid')];
  for (const [i, a] of parts.entries()) {
    const p = a.getBoundingClientRect();
    for (const b of parts.slice(i + 1)) {
      const q = b.getBoundingClientRect();
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 1 && h > 1) bad.push(`${a.className} overlaps ${b.className}`);
    }
    for (const inner of a.querySelectorAll('*')) {
      const r = inner.getBoundingClientRect();
      if (r.width && (r.top < p.top - 1 || r.bottom > p.bottom + 1) && getComputedStyle(inner).visibility !== 'hidden')
        bad.push(`${inner.className || inner.tagName} runs out of ${a.className}`);
    }
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    # every discard opens the claim window for all (第七条六): short, so that a hand is quick
    with server(tmp_path_factory.mktemp("layout"), port, between_hands=600, claim=CLAIM):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def hand_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server like ``base_url``'s with the claim window HAND_CLAIM long."""
    port = free_port()
    with server(tmp_path_factory.mktemp("hands"), port, between_hands=600, claim=HAND_CLAIM):
        yield f"http://127.0.0.1:{port}"


def practice_table(
    browser: Any, base_url: str, size: str, lang: str = "en", seed: int = SEED
) -> tuple[Any, list[str]]:
    made = post(base_url, "/api/rooms", {"player": "Ann", "practice": True, "seed": seed})
    post(
        base_url,
        f"/api/rooms/{made['id']}/start",
        {"owner_token": made["owner_token"], "fill": True},
    )
    phone = "phone" in size
    page, errors = open_page(
        browser,
        f"{base_url}/room/{made['id']}?token={made['token']}&lang={lang}&hints=1",
        viewport=VIEWPORTS[size],
        is_mobile=phone,
        has_touch=phone,
    )
    page.wait_for_selector("#hand button.tile:not([disabled])")
    return page, errors


# Resolves after two animation frames: the resize handler, the pools' ResizeObserver (which runs
# after a layout) and the layout their new sizes cause have all run by then.
SETTLE = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


# A phone held sideways: the top and bottom pools' tiles readable, in three rows as large as the
# side pools' (a centre between them left them 13-16 px wide against the side pools' 21).
POND_TILES = """() => {
  if (innerWidth < innerHeight || innerHeight > 500) return [];
  const bad = [];
  const width = (id) => {
    const t = document.querySelector(`#${id} .tile`);
    return t ? t.getBoundingClientRect().width : null;
  };
  const side = Math.max(width('pool-1') || 0, width('pool-3') || 0);
  for (const id of ['pool-2', 'pool-0']) {
    const w = width(id);
    if (w === null) continue;
    const rows = Number(document.querySelector(`#${id}`).dataset.rows);
    const least = rows <= 3 ? 18 : 14;
    if (w < least) bad.push(`${id}: ${rows} rows of ${w.toFixed(1)} px tiles (< ${least})`);
    if (rows <= 3 && side && w < side - 3) bad.push(`${id}: ${w.toFixed(1)} px tiles against the side pools' ${side.toFixed(1)}`);
  }
  return bad;
}"""

# Every seat's name on its plate whole, never cut ("strong…"): wrapped, or where the centre has
# no room its short form ("bot B"), with the full name in its title; at every size while no
# claim's buttons take the centre's room.
NAMES = """() => {
  const bad = [];
  const claim = document.querySelectorAll('#actions button').length > 0;
  for (const plate of document.querySelectorAll('.center .plate')) {
    const shown = [...plate.querySelectorAll('.name, .abbr')].filter(n => n.getClientRects().length);
    if (!shown.length && !claim) bad.push(`${plate.id}: no name`);
    for (const name of shown) {
      // whole pixels both (a line 18.48 px high: 19 against 18); a line cut off is 10 px or more
      if (name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1)
        bad.push(`${plate.id} name cut: ${name.textContent}`);
      if (!name.title) bad.push(`${plate.id} name without its title`);
    }
  }
  return bad;
}"""


# Every check above, in one round trip: after ``wait`` ms and two animation frames (SETTLE),
# OUTSIDE, CLIPPED, HEADER_OUTSIDE, SIDE_MELDS, POND_TILES and NAMES, their problems in that order.
PROBLEMS = f"""async (wait) => {{
  if (wait) await new Promise(done => setTimeout(done, wait));
  await ({SETTLE})();
  return [...({OUTSIDE})(), ...({CLIPPED})(), ...({HEADER_OUTSIDE})(), ...({SIDE_MELDS})(),
          ...({POND_TILES})(), ...({NAMES})()];
}}"""


def problems_now(page: Any, wait: int = 0) -> list[str]:
    """The page's layout problems once it has settled (after ``wait`` ms, then two frames)."""
    found: list[str] = page.evaluate(PROBLEMS, wait)
    return found


def layout_problems(page: Any, sizes: tuple[str, ...]) -> list[str]:
    """What lies outside the viewport or is cut off, at each size (the first one last, so that
    the page is left at it). A problem must still be there once the page has settled again: a
    loaded machine can measure a pool between a resize and the fitting it triggers (CI saw a
    4th row of discards clipped for one frame), which no player sees. Each size's checks run in
    one round trip to the page (PROBLEMS): at every decision of a hand, while a claim window
    runs out, the round trips were most of the time."""
    bad: list[str] = []
    for name in (*sizes[1:], sizes[0]):
        page.set_viewport_size(VIEWPORTS[name])
        found = problems_now(page, 30)
        if found:
            again = problems_now(page, 100)
            found = [b for b in found if b in again]
            if found:
                shot(page, f"failed-at-{name}.png")
        bad += [f"{name}: {b}" for b in found]
    return bad


def shots_at_each_size(page: Any, sizes: tuple[str, ...], what: str) -> None:
    """docs/screenshots/{what}-{size}.jpg at each size (the first one last)."""
    if not SHOTS:
        return
    for name in (*sizes[1:], sizes[0]):
        page.set_viewport_size(VIEWPORTS[name])
        shot(page, f"screenshots/{what}-{name}.jpg", type="jpeg", quality=70)


def decision_now(page: Any) -> dict[str, Any]:
    """One snapshot, taken when our seat must act (the decision, the legal actions, the drawn tile,
    the wall), or ``{"over": True}`` at the hand's end: read separately, a claim window could
    close in between and leave the test acting on the next state (legal = [])."""
    now: dict[str, Any] = page.wait_for_function(
        f"() => ({OVER}) ? {{over: true}} : state && state.must_act && {{"
        "decision: state.decision, legal: state.view.legal_actions,"
        " drawn: state.view.drawn, wall: state.view.wall_remaining}"
    ).json_value()
    return now


# Whether the decision ``d`` is behind us: the hand over, or no longer ours to answer.
MOVED_ON = f"d => {OVER} || !state.must_act || state.decision !== d"


def click_answer(page: Any, target: Any, now: dict[str, Any], claim: float) -> bool:
    """Click ``target`` (a locator) to answer the decision ``now``; whether it was answered.

    The element is taken once and clicked as it is: a locator's click that the page had taken
    can be retried by Playwright under load (the element drawn anew by the state the click
    brought), and the retry waited for the next element the locator named and clicked that, a
    turn later (the CI's failure: the next turn's drawn tile discarded 0.3 s after the turn came,
    before the test had clicked, and the test's own click then waited for a tile no longer
    there). A claim's window may close before the click lands (a loaded machine): the server
    passed for us (False). Our turn waits for us (the turn clock is LONG's 600 s), so a turn that
    has moved on when the click fails was answered by it; while the decision is still the same
    (its element drawn anew by a state for the same turn) the element is taken again; a turn
    that has not moved on in the time allowed is a failure."""
    legal: list[str] = now["legal"]
    wait = claim * 1000 if "pass" in legal else 10_000  # a claim's window is short
    deadline = time.monotonic() + wait / 1000
    while True:
        try:
            target.element_handle(timeout=wait).click(timeout=wait)
            return True
        except PlaywrightError:  # a time-out, or the element gone (drawn anew) during the click
            if page.evaluate(MOVED_ON, now["decision"]):
                return "pass" not in legal  # our turn moved on by our click; a claim: unknown
            if time.monotonic() > deadline:  # still this decision: the click never landed
                assert "pass" in legal, f"could not click {legal}"
                return False
            # the same decision, its element drawn anew (a state for the same turn): again


def play_hand(
    page: Any, device: str, sizes: tuple[str, ...] = ("desktop",), claim: float = CLAIM
) -> int:
    """Play to the end of the hand, checking the layout at every decision at each of the
    device's viewports (another device's: ``sizes``), on a server whose claim window is ``claim``
    seconds long; the decisions."""
    sizes = DEVICES.get(device, sizes)  # "keys": a desktop played from the keyboard
    size = sizes[0]
    took_mid = took_claim = False
    for decisions in range(500):  # returns how many were answered
        now = decision_now(page)
        if now.get("over"):
            return decisions
        legal: list[str] = now["legal"]
        if device in DEVICES and "pass" in legal and not took_claim:
            # before the layout checks: the claim window is short and may close under them
            took_claim = True
            shot(
                page,
                "screenshot-claim.png" if device == "desktop" else "screenshot-claim-phone.png",
            )
            shots_at_each_size(page, sizes, "claim")
        bad = layout_problems(page, sizes)
        if bad:
            shot(page, f"failed-{size}.png")
        assert bad == [], f"decision {now['decision']}: {bad}"
        buttons = page.locator("#actions button")
        if device in DEVICES and now["wall"] <= 60 and not took_mid:
            took_mid = True
            shot(page, f"screenshot-table-{device}.png")
            shots_at_each_size(page, sizes, "table")
        if buttons.count():
            target = buttons.first
        elif now["drawn"] is not None:
            target = page.locator("#hand button.tile.drawn")
        else:
            target = page.locator("#hand button.tile:not([disabled])").last
        click_answer(page, target, now, claim)
        page.wait_for_function(MOVED_ON, arg=now["decision"])
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("device", list(DEVICES))
def test_the_hand_and_the_choices_are_always_on_screen(
    browser: Any, hand_url: str, device: str
) -> None:
    page, errors = practice_table(browser, hand_url, DEVICES[device][0])
    decisions = play_hand(page, device, claim=HAND_CLAIM)
    assert decisions > 5
    shots_at_each_size(page, DEVICES[device], "hand-end")
    if SHOTS:  # the table at the hand's end, every meld on it, with the box moved aside
        page.evaluate("document.querySelector('#overlay').style.display = 'none'")
        shots_at_each_size(page, DEVICES[device], "table-end")
        page.evaluate("document.querySelector('#overlay').style.display = ''")
    for size in DEVICES[device]:
        page.set_viewport_size(VIEWPORTS[size])
        page.wait_for_timeout(30)
        # the end of the hand: its box fits the screen and stays
        assert page.locator("#overlay #continue").is_visible(), size
        # the table under it still shows every discard
        assert page.locator(".pond .discards .tile").count() > 20
        box = page.locator("#overlay .card").bounding_box()
        height = VIEWPORTS[size]["height"]
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, size
        # the header, now with its Last hand button, still fits
        assert page.locator("#last-hand").is_visible(), size
        assert page.evaluate(HEADER_OUTSIDE) == [], size
    assert errors == []
    page.context.close()


MID_HAND = 30  # tiles left in the wall when the README's table is taken (a bot wins soon after)
ATTEMPTS = 3  # tables played from the deal: a chow clicked after its window closed changes the hand


def to_mid_hand(page: Any, claim: float = CLAIM) -> bool:
    """Plays the seeded hand to our first turn with MID_HAND tiles or fewer left in the wall:
    our first two chows claimed, every later claim passed (the window's end passes too). False
    when a chow missed its window (a loaded machine) or the hand ended first."""
    for _ in range(500):
        now = decision_now(page)
        if now.get("over"):
            return False
        legal: list[str] = now["legal"]
        if "pass" not in legal and now["wall"] <= MID_HAND:
            return True
        claims = page.locator("#actions button:not([data-action=pass])")
        chow = False
        if "pass" in legal:
            chow = page.evaluate("state.view.melds[state.seat].length") < 2
            target = claims.first if chow else page.locator("#actions [data-action=pass]")
        elif claims.count():  # a win or a kong on our turn: not in this hand, but take it
            target = claims.first
        elif now["drawn"] is not None:
            target = page.locator("#hand button.tile.drawn")
        else:
            target = page.locator("#hand button.tile:not([disabled])").last
        if not click_answer(page, target, now, claim) and chow:
            return False
        page.wait_for_function(MOVED_ON, arg=now["decision"])
    return False


def test_the_table_mid_hand(browser: Any, hand_url: str) -> None:
    """docs/screenshot-table.png, the README's picture, as a player meets the table mid-hand
    (the seeded hand, SEED, played by ``to_mid_hand``; a table played again from the deal when a
    chow missed its short window). By then every seat has melded (our two chows, a bot's meld on
    each side), the four pools hold a dozen discards each, the latest one is marked, and the hint
    line gives our shanten and the best discard."""
    for _ in range(ATTEMPTS):
        page, errors = practice_table(browser, hand_url, "desktop")
        if to_mid_hand(page, HAND_CLAIM):
            break
        page.context.close()
    else:
        raise AssertionError(f"no turn of ours in the middle of the hand in {ATTEMPTS} tables")
    assert problems_now(page) == []
    view = page.evaluate(
        "({pools: state.view.discards.map(p => p.length),"
        " melds: state.view.melds.map(m => m.length), seat: state.seat})"
    )
    assert min(view["pools"]) >= 8, view  # discards on all four sides
    assert view["melds"][view["seat"]] >= 1 and sum(view["melds"]) >= 3, view
    assert page.locator(".pond .discards .tile.last").count() == 1  # the latest discard
    assert page.locator(".meld .tile").count() >= 3 * sum(view["melds"])
    assert page.locator("#hand .tile.drawn").count() == 1
    hints = page.locator("#hints")
    assert hints.is_visible() and "Shanten" in hints.inner_text()
    assert "Your turn" in page.locator("#countdown").inner_text()
    shot(page, "screenshot-table.png")
    assert errors == []
    page.context.close()


def test_hand_end_continue_last_hand_and_replay_tab(browser: Any, hand_url: str) -> None:
    page, errors = practice_table(browser, hand_url, "desktop", lang="zh", seed=WON_SEED)
    assert "轮到你" in page.locator("#countdown").inner_text()
    assert page.locator("#keys").is_visible()  # the key legend on a desktop
    assert "向听" in page.locator("#hints summary").inner_text()
    # the header's switches, once clicked, leave the table's keys alone (a focused checkbox
    # took them: Space toggled Hints instead of passing, and the tile keys did nothing)
    page.click("#labels-on")
    page.click("#labels-on")
    assert page.evaluate("document.activeElement.id") != "labels-on"
    # keys: "=" is the 12th tile; the drawn tile is the 14th: arrow left from none selects it
    page.keyboard.press("ArrowLeft")
    assert page.locator("#hand .tile.selected").count() == 1
    play_hand(page, "keys", claim=HAND_CLAIM)
    overlay = page.locator("#overlay")
    assert "第 1 盘结束" in overlay.inner_text()
    shot(page, "screenshot-hand-end.png")
    page.wait_for_timeout(1500)  # it does not close by itself
    assert overlay.is_visible()
    with page.context.expect_page() as new:
        page.click("#replay-hand")
    replay = new.value
    replay.wait_for_url("**/replay?hand=1")
    assert page.url.endswith(page.url.split("/")[-1])  # the table stays where it was
    assert page.locator("#overlay").is_visible()
    page.click("#continue")
    # the server answers "ready" (or, before it knows the message, errors: the box stays)
    page.wait_for_timeout(500)
    if page.locator("#overlay").is_visible():
        page.keyboard.press("Escape")
    assert page.locator("#overlay").is_hidden()
    page.click("#last-hand")
    assert "第 1 盘结束" in page.locator("#overlay").inner_text()
    assert [e for e in errors if "WebSocket" not in e] == []
    page.context.close()


def test_auto_play_and_i_am_back(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Two turns run out: the place is played by a bot, marked auto-play on the table, and its
    player gets an "I'm back" button that takes the place back."""
    port = free_port()
    with server(tmp_path_factory.mktemp("auto"), port, turn=1, first_discard=1, claim=0.3):
        page, errors = practice_table(browser, f"http://127.0.0.1:{port}", "phone", lang="zh")
        page.wait_for_selector("#resume:not([hidden])", timeout=30_000)
        assert page.locator("#resume").inner_text() == "我回来了"
        assert "托管" in page.locator("#plate-0").inner_text()
        box = page.locator("#resume").bounding_box()
        assert box is not None and box["height"] >= 44  # a touch target
        page.click("#resume")
        page.wait_for_selector("#resume", state="hidden")
        assert "托管" not in page.locator("#plate-0").inner_text()
        assert errors == []
        page.context.close()


# Every claim a discard can offer at once: a win, three chows, a pung and a kong, and pass.
EVERY_CLAIM = """() => {
  const view = {...state.view, phase: "respond", last_discard: "W3", drawn: null,
    legal_actions: ["win", "chow W1W2W3", "chow W2W3W4", "chow W3W4W5", "pung W3", "kong W3",
                    "pass"]};
  renderActions(view);
}"""


@pytest.mark.parametrize(
    "size", ["small-phone", "phone", "phone-landscape", "small-phone-landscape", "desktop"]
)
def test_every_claim_button_fits_when_a_discard_offers_them_all(
    browser: Any, base_url: str, size: str
) -> None:
    """The most buttons a claim window shows (the layout test's hands offer one chow at most):
    every one of them on screen, the hand too, nothing scrolling; at a small phone's 360 px too,
    with the header's Last hand button shown. Held sideways, they keep one row: on two (740x360)
    they left the pools 10 px tiles."""
    page, errors = practice_table(browser, base_url, size)
    page.evaluate("document.querySelector('#last-hand').hidden = false")
    page.evaluate(FULL_POOLS, 18)  # three rows in each pool
    page.evaluate(EVERY_CLAIM)
    page.evaluate(SETTLE)
    assert page.locator("#actions button").count() == 7
    bad = [*page.evaluate(OUTSIDE), *page.evaluate(HEADER_OUTSIDE), *page.evaluate(CLIPPED)]
    bad += [*page.evaluate(POND_TILES), *page.evaluate(NAMES)]
    if bad:
        shot(page, f"failed-claims-{size}.png")
    else:
        shot(page, f"screenshots/claims-all-{size}.jpg", type="jpeg", quality=70)
    assert bad == []
    assert errors == []
    page.context.close()


def test_d_discards_the_drawn_tile(browser: Any, base_url: str) -> None:
    """摸切 from the keyboard: D discards the tile just drawn (the number keys reach 12 places
    of a 14-tile hand)."""
    page, errors = practice_table(browser, base_url, "desktop")
    for _ in range(60):
        now = page.wait_for_function(
            "() => state && state.must_act && {decision: state.decision, drawn: state.view.drawn,"
            " legal: state.view.legal_actions, seat: state.seat}"
        ).json_value()
        legal = now["legal"]
        if now["drawn"] is not None and f"discard {now['drawn']}" in legal:
            page.keyboard.press("d")
            page.wait_for_function("d => state.decision !== d", arg=now["decision"])
            pool = page.evaluate(f"state.view.discards[{now['seat']}]")
            assert pool[-1] == now["drawn"]
            break
        # not after a draw (the deal, a claim window): answer with the first choice
        buttons = page.locator("#actions button")
        if buttons.count():
            buttons.first.click()
        else:
            page.locator("#hand button.tile:not([disabled])").last.click()
        page.wait_for_function("d => state.decision !== d", arg=now["decision"])
    else:
        raise AssertionError("no turn after a draw came")
    assert errors == []
    page.context.close()


# Every pool with 18 discards (three rows), then 24 (four): the most a pool shows before the
# last tiles.
FULL_POOLS = """n => {
  const tiles = ["W1", "W9", "B5", "T3", "F1", "J2"];
  const pool = Array.from({length: n}, (_, i) => tiles[i % 6]);
  state.view = {...state.view, discards: [pool, pool, pool, pool]};
  renderTable();
}"""


@pytest.mark.parametrize("size", ["phone-landscape", "small-phone-landscape"])
def test_the_top_and_bottom_pools_are_readable_on_a_phone_held_sideways(
    browser: Any, base_url: str, size: str
) -> None:
    """At 844x390 and 740x360 the centre stood between the top and bottom pools, whose tiles were
    13-16 px wide (the side pools' 21): now they are as large as the side pools' (18 px at least
    in three rows), every seat's name and the wall still in sight, nothing overlapping."""
    page, errors = practice_table(browser, base_url, size)
    for discards in (18, 24):
        page.evaluate(FULL_POOLS, discards)
        page.evaluate(SETTLE)
        bad = [*page.evaluate(POND_TILES), *page.evaluate(CLIPPED), *page.evaluate(NAMES)]
        bad += page.evaluate(OUTSIDE)
        if bad:
            shot(page, f"failed-pools-{size}-{discards}.png")
        assert bad == [], discards
        assert page.locator(".center .wall").is_visible()
    assert errors == []
    page.context.close()


# Where a finger lands on a header control: 20 px above and below its middle (above only if on
# screen) and 13 px to each side of it, the control itself takes the tap.
HEADER_TAPS = """() => {
  const bad = [];
  for (const node of document.querySelectorAll('body > .bar > a, body > .bar > button, body > .bar > label')) {
    if (node.hidden || !node.getClientRects().length) continue;
    const r = node.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    for (const [px, py] of [[x, y + 20], [x, y - 20], [x - 13, y], [x + 13, y]]) {
      if (py < 0) continue;
      const hit = document.elementFromPoint(px, py);
      const taker = hit && hit.closest('a, button, label');
      if (taker !== node)
        bad.push(`${node.id || node.className || node.tagName} misses (${px.toFixed(0)}, ${py.toFixed(0)}): ${taker ? taker.id || taker.className : hit && hit.className}`);
    }
  }
  return bad;
}"""


@pytest.mark.parametrize(
    "size", ["phone", "small-phone", "phone-landscape", "small-phone-landscape"]
)
def test_the_header_controls_take_a_finger_on_a_phone(
    browser: Any, base_url: str, size: str
) -> None:
    """The lobby link, help, Last hand, the two switches and the language are small to the eye
    (the table needs the height) but take taps 40 px high: they took 18-25 px."""
    page, errors = practice_table(browser, base_url, size)
    page.evaluate("document.querySelector('#last-hand').hidden = false")
    page.evaluate(SETTLE)
    bad = page.evaluate(HEADER_TAPS)
    assert bad == []
    before = page.evaluate("document.querySelector('#labels-on').checked")
    box = page.locator("label:has(#labels-on)").bounding_box()
    assert box is not None  # a tap under the switch, past its label's box, still toggles it
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] + 8)
    assert page.evaluate("document.querySelector('#labels-on').checked") != before
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("size", ["small-phone", "phone"])
def test_the_winning_hand_is_readable_on_a_phone(browser: Any, base_url: str, size: str) -> None:
    """The end of a hand won by a bot: the winning hand in two rows of 28 px tiles or more,
    within the box (in one row of sixteen its tiles were 18 px on a 360 px phone)."""
    page, errors = practice_table(browser, base_url, size, seed=WON_SEED)
    play_hand(page, "won", (size,))
    tiles = page.locator("#overlay .win-hand .tile")
    assert tiles.count() >= 14
    card = page.locator("#overlay .card").bounding_box()
    assert card is not None
    for i in range(tiles.count()):
        box = tiles.nth(i).bounding_box()
        assert box is not None and box["width"] >= 28, box
        assert card["x"] <= box["x"] and box["x"] + box["width"] <= card["x"] + card["width"]
    assert [e for e in errors if "WebSocket" not in e] == []
    page.context.close()
