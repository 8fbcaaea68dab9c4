"""The table page and the replay, sixth audit, in headless Chromium against a real ``guobiao
serve``: the replay's header keeps one line on a phone held upright (its language button went
onto a second line); in 中文 on a desktop the keys' legend no longer drops under the countdown when
a claim's buttons fill the controls' row (the row grew taller); a desktop's discard pools use the
pond's room (32 px tiles at 720 px high, 48 at 1080, with empty felt around them), every pool's
tiles alike. Each test failed on the pages before this audit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_server_e2e import open_page, shot
from test_server_restart import free_port, server
from test_web_layout import (
    CLAIM,
    CLIPPED,
    FULL_POOLS,
    NAMES,
    OUTSIDE,
    SETTLE,
    VIEWPORTS,
    practice_table,
)
from test_web_table_audit5 import EVERY_CLAIM_STATE, bots_table


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("audit6"), port, between_hands=600, claim=CLAIM):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def finished(base_url: str) -> str:
    return bots_table(base_url)


# The header's parts: each shown one within the screen and on the header's one line (its middle
# above the first part's bottom), and the header's height.
HEADER_LINE = """() => {
  const bar = document.querySelector('body > .bar');
  const parts = [...bar.children].filter((n) => n.getClientRects().length && !n.classList.contains('spacer'));
  const first = parts[0].getBoundingClientRect();
  const bad = [];
  for (const n of parts) {
    const r = n.getBoundingClientRect();
    if (r.right > innerWidth + 0.5 || r.left < -0.5) bad.push(`${n.id || n.className || n.tagName} off the screen`);
    if ((r.top + r.bottom) / 2 > first.bottom || (r.top + r.bottom) / 2 < first.top)
      bad.push(`${n.id || n.className || n.tagName} on another line`);
  }
  return {bad, height: bar.getBoundingClientRect().height};
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", ["phone", "small-phone"])
def test_the_replay_header_keeps_one_line_on_a_phone(
    browser: Any, base_url: str, finished: str, size: str, lang: str
) -> None:
    """Held upright (390x844, 360x640) the replay's header wrapped: the 中文/EN button went onto a
    second line (82 px of header at 360 px in English, and at 390 with a table's name of a few
    words). It now keeps one line in both languages, the table's name giving way first; every
    part on the screen, the header no higher than its language button (52 px)."""
    page, errors = open_page(
        browser,
        f"{base_url}/room/{finished}/replay?hand=1&lang={lang}",
        viewport=VIEWPORTS[size],
        is_mobile=True,
        has_touch=True,
    )
    page.wait_for_selector("#table:not([hidden]) .seat-box .name")
    for name in (None, "Sunday club, table three"):
        if name:
            page.evaluate("n => { document.querySelector('#room-name').textContent = n; }", name)
        page.evaluate(SETTLE)
        found = page.evaluate(HEADER_LINE)
        if found["bad"]:
            shot(page, f"failed-replay-header-{size}-{lang}.png")
        assert found["bad"] == [], (name, found)
        lang_button = page.locator("#lang").bounding_box()
        assert found["height"] <= lang_button["height"] + 10, found
    assert errors == []
    page.context.close()


# The keys' legend: shown or not, and whether it lies below another part of the controls' row
# (a line of its own); the row's height.
KEYS = """() => {
  const keys = document.querySelector('#keys');
  const row = document.querySelector('.controls-row');
  const shown = keys.getClientRects().length > 0;
  const k = keys.getBoundingClientRect();
  const below = shown && [...row.children].some((c) => c !== keys && c.getClientRects().length
    && k.top >= c.getBoundingClientRect().bottom - 1);
  const over = [];
  if (shown)
    for (const c of row.children) {
      if (c === keys || !c.getClientRects().length) continue;
      const r = c.getBoundingClientRect();
      if (Math.min(r.right, k.right) - Math.max(r.left, k.left) > 1 && Math.min(r.bottom, k.bottom) - Math.max(r.top, k.top) > 1)
        over.push(c.id || c.className);
    }
  return {shown, below, over, height: row.getBoundingClientRect().height};
}"""


@pytest.mark.parametrize("size", ["desktop", "laptop"])
def test_the_keys_legend_never_drops_under_the_countdown(
    browser: Any, base_url: str, size: str
) -> None:
    """In 中文 at 1280x720 (and 1366x768) the fullest claim (a win, three chows, a pung, a kong,
    pass) left the keys' legend no room beside the buttons and the hint summary: it went onto a
    line of its own under the countdown, and the controls' row grew taller (48 to 77 px), taking
    the pond's height. Now it gives way while there is no room and comes back after; the row
    never higher than without a claim, the legend never over anything."""
    page, errors = practice_table(browser, base_url, size, lang="zh")
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(SETTLE)
    before = page.evaluate(KEYS)
    assert before["shown"] and not before["below"] and before["over"] == [], before
    page.evaluate(EVERY_CLAIM_STATE)
    page.evaluate(SETTLE)
    claim = page.evaluate(KEYS)
    bad = [*page.evaluate(OUTSIDE), *page.evaluate(CLIPPED), *page.evaluate(NAMES)]
    if claim["below"] or claim["over"] or claim["height"] > before["height"] + 0.5 or bad:
        shot(page, f"failed-keys-{size}.png")
    assert not claim["below"], claim
    assert claim["over"] == [], claim
    assert claim["height"] <= before["height"] + 0.5, (before, claim)
    assert bad == []
    # the claim over: the legend back
    page.evaluate(
        "() => { state = {...state, must_act: false, view: {...state.view, legal_actions: []}}; renderTable(); }"
    )
    page.evaluate(SETTLE)
    after = page.evaluate(KEYS)
    assert after["shown"] and not after["below"], after
    assert after["height"] <= before["height"] + 0.5
    assert errors == []
    page.context.close()


# Each pool's tile width; and any two pools, or a pool and the centre, that overlap.
POOLS = """() => {
  const widths = {}, boxes = {}, bad = [];
  for (const pos of [0, 1, 2, 3]) {
    const tiles = [...document.querySelectorAll(`#pool-${pos} .tile`)].map((t) => t.getBoundingClientRect());
    widths[pos] = Math.min(...tiles.map((r) => r.width));
    boxes[`pool-${pos}`] = {left: Math.min(...tiles.map((r) => r.left)), right: Math.max(...tiles.map((r) => r.right)),
      top: Math.min(...tiles.map((r) => r.top)), bottom: Math.max(...tiles.map((r) => r.bottom))};
  }
  boxes.center = document.querySelector('#center').getBoundingClientRect();
  const names = Object.keys(boxes);
  for (const [i, a] of names.entries())
    for (const b of names.slice(i + 1)) {
      const p = boxes[a], q = boxes[b];
      if (Math.min(p.right, q.right) - Math.max(p.left, q.left) > 0.5 && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 0.5)
        bad.push(`${a} overlaps ${b}`);
    }
  return {widths, bad};
}"""


@pytest.mark.parametrize(("size", "least"), [("desktop", 35), ("laptop", 37), ("large", 56)])
def test_a_desktops_pools_use_the_room(
    browser: Any, base_url: str, size: str, least: float
) -> None:
    """On a desktop the pools' tiles were capped at 32 px at 1280x720 (34 at 1366x768, 48 at
    1920x1080), with empty felt around the pond's pools; with four rows the top and bottom pools
    shrank (27 px) and the side pools did not (32): pools of two sizes. They now grow to use the
    room (35, 37, 59 px with three rows), every pool's tiles the same size, none overlapping
    another or the centre, whose text and two log lines stay."""
    page, errors = practice_table(browser, base_url, size)
    for line in ("South easy bot B chow 1m2m3m", "West easy bot C pung 9p"):
        page.evaluate("line => addLog(line)", line)
    for discards in (18, 24):
        page.evaluate(FULL_POOLS, discards)
        page.evaluate(SETTLE)
        found = page.evaluate(POOLS)
        bad = [*page.evaluate(OUTSIDE), *page.evaluate(CLIPPED), *page.evaluate(NAMES)]
        widths = found["widths"].values()
        if found["bad"] or bad or max(widths) - min(widths) > 0.5:
            shot(page, f"failed-pools-{size}-{discards}.png")
        assert found["bad"] == [], found
        assert bad == []
        assert max(widths) - min(widths) <= 0.5, (discards, found["widths"])
        if discards == 18:
            assert min(widths) >= least, found["widths"]
            assert page.locator("#log li").count() >= 2
    assert errors == []
    page.context.close()
