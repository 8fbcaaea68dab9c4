"""The table page, tenth audit (the eighth of the table in the browser), in headless Chromium
against a real ``guobiao serve``, at the sizes the earlier audits left out: a tablet held upright
(768x1024) and sideways (1024x768), a small phone held sideways (640x360), a large desktop
(1920x1080), in both languages. Real hands are played through the page (discards, chows, a win
of ours, the end of the hand, the next hand) with the layout checked at every decision. Found and
fixed: at 640x360 the top and bottom pools had 15 px tiles against the side pools' 20 (their
columns half empty); the latest discard was marked only while it could be claimed, so that once
the next seat drew nothing showed what had just been thrown (a phone's centre has no log); an
added kong open to robbing marked the konger's last discard instead (red where one could win on
the kong); in 中文 the end of a hand ran the fan table's points off its box where a fan's English
name is long (Lesser Honours and Knitted Tiles: 37 px past the edge on a tablet, off a 640 px
screen); the session's end had links 19 px high on a touch screen; the replay too marked a
discard only while it could be claimed. Each test failed on the pages before this audit."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from guobiao.server.protocol import hints
from guobiao.server.rooms import Limits, Room
from guobiao.table.game import Action, ActionKind
from test_server_e2e import open_page, post, shot
from test_server_restart import free_port, server
from test_web_layout import (
    CLIPPED,
    FULL_POOLS,
    HAND_CLAIM,
    MOVED_ON,
    NAMES,
    OUTSIDE,
    POND_TILES,
    SEED,
    SETTLE,
    click_answer,
    layout_problems,
)
from test_web_table_audit7 import session_over  # noqa: F401 (a fixture: a session played out)

# The sizes this audit adds (test_web_layout's own are checked there).
SIZES = {
    "tablet": {"width": 768, "height": 1024},
    "tablet-landscape": {"width": 1024, "height": 768},
    "small-phone-landscape-640": {"width": 640, "height": 360},
    "large": {"width": 1920, "height": 1080},
}
OVER = "!document.querySelector('#overlay').hidden"
WIN = Action(ActionKind.WIN)
PASS = Action(ActionKind.PASS)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    # the hands played through (seventy claim windows each) at test_web_layout's short window
    with server(tmp_path_factory.mktemp("audit10"), port, between_hands=600, claim=HAND_CLAIM):
        yield f"http://127.0.0.1:{port}"


def table_at(
    browser: Any, base_url: str, size: str, lang: str, seed: int, touch: bool
) -> tuple[Any, list[str]]:
    """Ann's practice table (three bots, ``seed``), the hints on, at one of SIZES."""
    made = post(base_url, "/api/rooms", {"player": "Ann", "practice": True, "seed": seed})
    post(
        base_url,
        f"/api/rooms/{made['id']}/start",
        {"owner_token": made["owner_token"], "fill": True},
    )
    page, errors = open_page(
        browser,
        f"{base_url}/room/{made['id']}?token={made['token']}&lang={lang}&hints=1",
        viewport=SIZES[size],
        is_mobile=touch,
        has_touch=touch,
    )
    page.wait_for_selector("#hand button.tile:not([disabled])")
    return page, errors


# test_web_layout's checks, at sizes of this module: each size's problems, the page left at the
# first one.
def problems_at(page: Any, sizes: tuple[str, ...]) -> list[str]:
    import test_web_layout

    saved = dict(test_web_layout.VIEWPORTS)
    test_web_layout.VIEWPORTS.update(SIZES)
    try:
        return layout_problems(page, sizes)
    finally:
        test_web_layout.VIEWPORTS.clear()
        test_web_layout.VIEWPORTS.update(saved)


# A claim offered: each button's size, the claimed discard's marks, and whether the tile is in
# sight and uncovered (the point at its middle is the tile itself).
CLAIM_SIGHT = """(decision) => {
  if (!state.must_act || state.decision !== decision) return null;  // the window closed meanwhile
  const buttons = [...document.querySelectorAll('#actions button')].map((b) => {
    const r = b.getBoundingClientRect();
    return {action: b.dataset.action, w: r.width, h: r.height};
  });
  const marked = [...document.querySelectorAll('.pond .tile.claimable')];
  const seen = marked.map((t) => {
    const r = t.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return {tile: t.dataset.tile, width: r.width, uncovered: Boolean(hit && t.contains(hit)),
            inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight};
  });
  return {buttons, seen, discard: state.view.last_discard};
}"""
# The pond's marked tiles (the latest discard), by pool, and each pool's last tile; null if the
# state moved on meanwhile (a loaded machine's claim windows run out, and a seat whose time runs
# out twice is played by the server at once: its draw discarded before the page was read).
MARKED = """(decision) => state.decision !== decision ? null : ({
  marked: [...document.querySelectorAll('.pond .tile.last')].map((t) => [t.parentElement.id, [...t.parentElement.children].indexOf(t)]),
  sizes: Object.fromEntries([0, 1, 2, 3].map((p) => [`pool-${p}`, document.querySelector(`#pool-${p}`).children.length])),
})"""


@pytest.mark.parametrize(
    ("touch", "lang", "sizes"),
    [
        (True, "en", ("small-phone-landscape-640", "tablet", "tablet-landscape")),
        (False, "zh", ("large", "tablet-landscape", "tablet")),
    ],
    ids=["touch-en", "mouse-zh"],
)
def test_a_hand_at_a_tablet_a_small_phone_sideways_and_a_large_screen(
    browser: Any, base_url: str, touch: bool, lang: str, sizes: tuple[str, ...]
) -> None:
    """A whole hand played through the page (a chow taken when offered, else the drawn tile
    discarded), its layout checked at each decision at every size: the hand and the buttons on
    screen, nothing clipped or overlapping, the names whole, held sideways the top and bottom
    pools as readable as the side ones (at 640x360 they had 15 px tiles, the side pools 20).
    At a claim every button takes a finger (44 px) and the discard it claims is marked once, in
    sight and uncovered. At each of our draws the discard just made (the previous seat's) is still
    marked: the mark went with the claim window."""
    page, errors = table_at(browser, base_url, sizes[0], lang, SEED, touch)
    claims = draws = 0
    for _ in range(500):
        now = page.wait_for_function(
            f"() => ({OVER}) ? {{over: true}} : state && state.must_act && {{"
            "decision: state.decision, legal: state.view.legal_actions, phase: state.view.phase,"
            " drawn: state.view.drawn, seat: state.seat}"
        ).json_value()
        if now.get("over"):
            break
        legal: list[str] = now["legal"]
        if "pass" in legal and now["phase"] == "respond":  # first: the window is short
            sight = page.evaluate(CLAIM_SIGHT, now["decision"])
            if sight is not None:
                claims += 1
                small = [b for b in sight["buttons"] if b["w"] < 44 or b["h"] < 44]
                assert small == [], small
                assert len(sight["seen"]) == 1, sight
                seen = sight["seen"][0]
                assert seen["tile"] == sight["discard"] and seen["inside"] and seen["uncovered"], (
                    sight
                )
        elif now["drawn"] is not None:
            marks = page.evaluate(MARKED, now["decision"])
            if marks is not None and sum(marks["sizes"].values()):  # not the dealer's first
                draws += 1
                left = "pool-3"  # the seat before ours
                assert marks["marked"] == [[left, marks["sizes"][left] - 1]], marks
        bad = problems_at(page, sizes)
        if bad:
            shot(page, f"failed-audit10-{sizes[0]}.png")
        assert bad == [], f"decision {now['decision']}: {bad}"
        buttons = page.locator("#actions button")
        if buttons.count():
            target = buttons.first
        elif now["drawn"] is not None:
            target = page.locator("#hand button.tile.drawn")
        else:
            target = page.locator("#hand button.tile:not([disabled])").last
        click_answer(page, target, now, HAND_CLAIM)
        page.wait_for_function(MOVED_ON, arg=now["decision"])
    else:
        raise AssertionError("the hand did not end")
    assert claims >= 1 and draws >= 5, (claims, draws)
    assert errors == []
    page.context.close()


def hints_policy(room: Room, seat: int) -> Action:
    """What the page is clicked to do: win when offered, pass on a claim, else discard the hint
    summary's best tile (the server's hints of this seat's view)."""
    view = room.view_of(seat)
    legal = view.legal_actions
    if WIN in legal:
        return WIN
    if PASS in legal:
        return PASS
    best = hints(view)
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if best and best.get("discards"):
        chosen = [a for a in discards if str(a.tile) == best["discards"][0]["tile"]]
        if chosen:
            return chosen[0]
    return discards[-1]


def self_drawn_by_ann(seed: int) -> bool:
    """Whether hand 1 of a practice table seeded ``seed``, Ann (place A) played by
    :func:`hints_policy`, ends in her self-drawn win (a win with no claim window to race)."""
    room = Room("probe", seed=seed, limits=Limits(bot_delay=0))
    room.join("Ann", 0)
    room.add_bots()
    room.start(0.0)
    game = room.games[0]
    room.connect(0)
    t = 0.0
    for _ in range(5000):
        room.poll(t)
        if game.is_over and room.window is None:
            result = game.result
            return result is not None and result.winner == 0 and result.discarder is None
        seat = room.seat_of(0)
        assert seat is not None
        if room.view_of(seat).legal_actions:
            room.act(0, hints_policy(room, seat), t)
        else:
            wake = room.next_wake(t)
            assert wake is not None
            t = max(t, wake)
    raise AssertionError("the simulated hand did not end")


@pytest.fixture(scope="module")
def winning_seed() -> int:
    """Seed 60 (全不靠 and 组合龙, self-drawn: a long English fan name), else the first that wins."""
    for seed in (60, *range(100)):
        if self_drawn_by_ann(seed):
            return seed
    raise AssertionError("no seed gives Ann a self-drawn win")


# The end of a hand's box: within the screen, and every cell of its tables within the box.
END_BOX = """() => {
  const card = document.querySelector('#overlay .card');
  const c = card.getBoundingClientRect();
  const bad = [];
  if (c.left < 0 || c.top < 0 || c.right > innerWidth + 0.5 || c.bottom > innerHeight + 0.5)
    bad.push(`box ${JSON.stringify(c)}`);
  for (const td of card.querySelectorAll('table td, table th')) {
    const r = td.getBoundingClientRect();
    if (r.width && (r.right > c.right + 0.5 || r.left < c.left - 0.5))
      bad.push(`${td.textContent.trim()} at ${r.left.toFixed(0)}-${r.right.toFixed(0)}`);
  }
  const points = [...card.querySelectorAll('table.fans tr')].map((tr) => tr.lastElementChild.textContent.trim());
  return {bad, points};
}"""


@pytest.mark.parametrize("touch", [True], ids=["touch"])
def test_a_win_of_ours_and_the_end_of_the_hand_at_each_size(
    browser: Any, base_url: str, winning_seed: int, touch: bool
) -> None:
    """Ann plays a hand to her own win by the page's buttons, in 中文 (at 640x360, the hint's
    discard each turn): the win button takes a finger. The end of the hand's box then fits each
    size and every cell of its fan table stays within it: the English names, the second column in
    中文, were kept on one line, and 全不靠's (Lesser Honours and Knitted Tiles) pushed the points
    37 px past the box on a tablet and off a 640 px screen. Continue deals the next hand."""
    page, errors = table_at(
        browser, base_url, "small-phone-landscape-640", "zh", winning_seed, touch
    )
    won = False
    for _ in range(300):
        now = page.wait_for_function(
            f"() => ({OVER}) ? {{over: true}} : state && state.must_act && state.hints && {{"
            "decision: state.decision, legal: state.view.legal_actions, hints: state.hints}"
        ).json_value()
        if now.get("over"):
            break
        legal: list[str] = now["legal"]
        if "win" in legal:
            box = page.locator("#actions .act-win").bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
            page.click("#actions .act-win")
            won = True
        elif "pass" in legal:
            # the window may close first: the server passes for us
            with contextlib.suppress(PlaywrightTimeout):
                page.click("#actions .act-pass", timeout=HAND_CLAIM * 1000)
        else:
            best = now["hints"]["discards"][0]["tile"]
            page.locator(f"#hand button.tile[data-tile='{best}']").last.click()
        page.wait_for_function(
            f"d => {OVER} || !state.must_act || state.decision !== d", arg=now["decision"]
        )
    assert won, "no win was offered"
    page.wait_for_selector("#overlay:not([hidden]) #continue")
    assert "Ann" in page.locator("#overlay").inner_text()
    for size in ("tablet", "tablet-landscape", "large", "small-phone-landscape-640"):
        page.set_viewport_size(SIZES[size])
        page.evaluate(SETTLE)
        found = page.evaluate(END_BOX)
        if found["bad"]:
            shot(page, f"failed-audit10-end-{size}.png")
        assert found["bad"] == [], size
        assert found["points"][-1].endswith("番"), found  # the total's row, whole
        assert page.locator("#overlay #continue").is_visible(), size
    page.click("#overlay #continue")
    # the next hand: dealt, hand 2 of 16, the box gone
    page.wait_for_function(
        f"() => !({OVER}) && state.hand_number === 1 && state.view.hand.length >= 13"
    )
    assert "2/16" in page.locator("#center .round").inner_text()
    assert errors == []
    page.context.close()


def test_the_pools_of_a_small_phone_held_sideways(browser: Any, base_url: str) -> None:
    """At 640x360 the stylesheet's 1 : 1.25 : 1 shares of the pond's width left the top and
    bottom pools 15 px tiles in three rows against the side pools' 20, the side pools' columns
    half empty. The width now goes by what each pool's rows need: 18 px at least in three rows,
    as large as the side pools; with four rows every tile still whole, none smaller than 14."""
    page, errors = table_at(browser, base_url, "small-phone-landscape-640", "en", SEED, True)
    page.evaluate(FULL_POOLS, 18)
    page.evaluate(SETTLE)
    bad = [*page.evaluate(POND_TILES), *page.evaluate(CLIPPED), *page.evaluate(NAMES)]
    bad += page.evaluate(OUTSIDE)
    if bad:
        shot(page, "failed-audit10-pools-640.png")
    assert bad == []
    page.evaluate(FULL_POOLS, 24)
    page.evaluate(SETTLE)
    assert [*page.evaluate(CLIPPED), *page.evaluate(OUTSIDE)] == []
    least = page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('.pond .tile')].map((t) => t.getBoundingClientRect().width))"
    )
    assert least >= 14, least
    assert page.locator(".center .wall").is_visible()
    assert errors == []
    page.context.close()


# An added kong by the seat to our right, open to robbing (抢杠和), and we may win on it: the
# state as the server sends it in the ROB phase (the konger current, its kong's tile the one
# offered, its own pool holding an older discard on top).
ROBBING = """() => {
  const seat = (state.seat + 1) % 4;
  state.must_act = true;
  state.view = {...state.view, phase: "rob", current: seat, drawn: null, last_discard: "T5",
    legal_actions: ["win", "pass"],
    discards: state.view.discards.map((pool, s) => s === seat ? ["W1", "B9", "J2"] : pool),
    melds: state.view.melds.map((m, s) => s === seat
      ? [{kind: "kong", tiles: ["T5", "T5", "T5", "T5"], claimed: "T5", offered_by: 3}] : m)};
  renderTable();
  const marked = (sel) => [...document.querySelectorAll(sel)].map((t) => [t.closest('[id]').id, t.dataset.tile, t.className]);
  return {pond: marked('.pond .tile.last'), melds: marked('#pos-1 .melds .tile.last')};
}"""


@pytest.mark.parametrize("size", ["tablet", "large"])
def test_an_added_kong_open_to_robbing_is_marked_on_its_meld(
    browser: Any, base_url: str, size: str
) -> None:
    """When the seat to our right added a kong and we could rob it (和 offered), the page marked
    its pool's last tile (a 北 it had discarded before) in pulsing red as the tile to claim. The
    kong's added tile is marked now, in its meld, and no discard."""
    page, errors = table_at(browser, base_url, size, "en", SEED, size != "large")
    found = page.evaluate(ROBBING)
    assert found["pond"] == [], found
    assert len(found["melds"]) == 1, found
    pos, tile, classes = found["melds"][0]
    assert pos == "pos-1" and tile == "T5" and "claimable" in classes.split(), found
    assert "claimed" not in classes.split()  # the added tile, not the one claimed for the pung
    assert errors == []
    page.context.close()


# The session's end: each link's and button's box.
END_LINKS = """() => [...document.querySelectorAll('#overlay .links a, #overlay .overlay-buttons button')].map((a) => {
  const r = a.getBoundingClientRect();
  return {text: a.textContent, w: r.width, h: r.height, inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth};
})"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", ["tablet", "small-phone-landscape-640"])
def test_the_sessions_end_takes_a_finger(
    browser: Any,
    session_over: tuple[str, Any],  # noqa: F811 (the fixture imported above)
    size: str,
    lang: str,
) -> None:
    """After the sixteenth hand, on a touch screen, the box's links to the replays and to the
    lobby were 19 px high (the buttons under them 44): each now takes a finger's tap, every one
    on the screen."""
    base, made = session_over
    page, errors = open_page(
        browser,
        f"{base}/room/{made['id']}?token={made['token']}&lang={lang}",
        viewport=SIZES[size],
        is_mobile=True,
        has_touch=True,
    )
    page.wait_for_selector("#overlay:not([hidden]) #replay-link")
    page.evaluate(SETTLE)
    found = page.evaluate(END_LINKS)
    assert len(found) >= 3, found
    small = [f for f in found if f["h"] < 44 or f["w"] < 24 or not f["inside"]]
    if small:
        shot(page, f"failed-audit10-session-{size}-{lang}.png")
    assert small == [], small
    assert errors == []
    page.context.close()


# A replay's frame: its phase and, after a discard, whose it was; the tiles marked, by seat box.
REPLAY_MARKS = """() => {
  const frame = replay.frames[step];
  const marked = [...document.querySelectorAll('.tile.last')].map((t) => {
    const box = t.closest('.seat-box');
    return [box.id, [...t.parentElement.children].indexOf(t), t.parentElement.children.length];
  });
  return {phase: frame.phase, action: frame.action, seat: frame.seat, marked};
}"""


def test_the_replay_marks_the_latest_discard_until_the_next(
    browser: Any,
    session_over: tuple[str, Any],  # noqa: F811 (the fixture imported above)
) -> None:
    """The replay marked a discard only at the step where it could be claimed: one step on (the
    next seat's draw) nothing showed which tile had just been thrown. Each step of a hand now
    marks the latest discard, on top of its seat's pool, until the next discard or its claim."""
    base, made = session_over
    page, errors = open_page(
        browser, f"{base}/room/{made['id']}/replay?hand=1&lang=en", viewport=SIZES["large"]
    )
    page.wait_for_selector("#table:not([hidden]) .seat-box .name")
    frames = page.evaluate("() => replay.frames.length")
    latest: int | None = None  # the seat of the latest discard not claimed
    checked = 0
    for k in range(1, frames - 1):
        page.evaluate("k => go(k)", k)
        now = page.evaluate(REPLAY_MARKS)
        action = now["action"] or ""
        if action.startswith("discard"):
            latest = now["seat"]
        elif action.split(" ")[0] in ("chow", "pung", "kong", "win"):
            latest = None  # claimed (or a kong of one's own: the pools alike, checked below)
        if now["phase"] in ("act", "respond") and latest is not None:
            checked += 1
            assert len(now["marked"]) == 1, (k, now)
            box, at, size = now["marked"][0]
            assert box == f"pos-{latest}" and at == size - 1, (k, now)
    assert checked > 20, checked
    assert errors == []
    page.context.close()
