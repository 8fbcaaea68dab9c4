"""The replay and help pages judged by a player used to the replays of the mahjong apps and by a
newcomer, on phones (360x640, 390x844, 844x390 on touch) and in both languages:

- the replay: a hand chosen from the list kept the keyboard's focus, and its → then went to the
  next hand (the step shown lost) instead of the next action; on touch the step buttons were the
  only way to step (a swipe across the board now steps, as in the apps); the header's links were
  16 px high and the labels box 13 px on touch, the step slider 28 px; the tiles of the sets each
  fan uses were 14 px wide on a 360 px phone; the wall's count stood in the board's middle, below
  a phone's screen (it is now beside the step, in the controls that stay in sight);
- the help page: 387 px wide at 360 px (the seat table outgrew its card: the page scrolled
  sideways); its contents' links, the lobby link and the fan filter 19-31 px high on touch; its
  header three lines high on a phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_server_e2e import bots_session, get, open_page
from test_server_restart import free_port, server

PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
TALL = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SIDEWAYS = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, list[Any]]]:
    """A server, a session of four bots played to its end, and its hands."""
    port = free_port()
    with server(tmp_path_factory.mktemp("replay-help"), port, between_hands=0):
        base = f"http://127.0.0.1:{port}"
        made, hands = bots_session(base)
        yield base, made["id"], hands


def won(hands: list[Any]) -> int:
    """The number (from 0) of a won hand with the most fans' sets to draw."""
    return max((h for h in hands if h["winner"] is not None), key=lambda h: h["total"])["number"]


def open_replay(browser: Any, finished: Any, hand: int, lang: str, context: Any) -> Any:
    base, room, _ = finished
    page, errors = open_page(
        browser, f"{base}/room/{room}/replay?hand={hand + 1}&lang={lang}", **context
    )
    page.wait_for_selector("#table:not([hidden])")
    return page, errors


def step_of(page: Any) -> tuple[int, int]:
    hand, step = page.evaluate("[replay.hand_number, step]")
    return hand, step


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_arrows_step_the_hand_once_one_is_chosen_from_the_list(
    browser: Any, finished: Any, lang: str
) -> None:
    _, _, hands = finished
    page, errors = open_replay(browser, finished, 0, lang, DESKTOP)
    chosen = [h["number"] for h in hands if h["over"]][2]
    page.focus("#hand-select")
    page.select_option("#hand-select", str(chosen))
    page.wait_for_function(f"() => replay.hand_number === {chosen}")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    # the hand chosen, two actions on (the old page went to the next hand, at its deal)
    assert step_of(page) == (chosen, 2)
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(300)
    assert step_of(page) == (chosen, 1)
    assert page.locator("#hand-select").input_value() == str(chosen)
    assert errors == []
    page.context.close()


def shown(page: Any, n: int) -> None:
    page.wait_for_function(f"() => document.querySelector('#step').innerText.startsWith('{n} / ')")


def swipe(page: Any, x0: float, x1: float, y: float) -> None:
    """A finger across the screen, as the browser has it from a touch screen."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for k in range(1, 6):
        x = x0 + (x1 - x0) * k / 5
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize(("lang", "context"), [("en", PHONE), ("zh", SIDEWAYS)])
def test_a_swipe_across_the_board_steps_on_touch(
    browser: Any, finished: Any, lang: str, context: Any
) -> None:
    _, _, hands = finished
    page, errors = open_replay(browser, finished, won(hands), lang, context)
    width = context["viewport"]["width"]
    box = page.locator("#pos-2").bounding_box()  # the top seat: on the screen in both
    y = box["y"] + box["height"] / 2
    swipe(page, width * 0.8, width * 0.2, y)  # to the left: the next action
    shown(page, 1)
    swipe(page, width * 0.8, width * 0.2, y)
    shown(page, 2)
    swipe(page, width * 0.2, width * 0.8, y)  # to the right: the one before
    shown(page, 1)
    assert page.locator("#step").inner_text().startswith("1 / ")
    swipe(page, width * 0.5, width * 0.5 + 10, y)  # a small move is no swipe
    page.wait_for_timeout(200)
    assert page.locator("#step").inner_text().startswith("1 / ")
    assert errors == []
    page.context.close()


def hit(page: Any, selector: str, dy: float) -> bool:
    """Whether a finger dy px above or below the middle of selector still reaches it."""
    return page.evaluate(
        """([sel, dy]) => { const e = document.querySelector(sel); const b = e.getBoundingClientRect();
        const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2 + dy);
        return !!at && (at === e || e.contains(at)); }""",
        [selector, dy],
    )


@pytest.mark.parametrize(
    ("lang", "context"), [("en", PHONE), ("zh", PHONE), ("en", TALL), ("zh", SIDEWAYS)]
)
def test_the_replay_on_a_phone_takes_a_finger_and_reads(
    browser: Any, finished: Any, lang: str, context: Any
) -> None:
    base, room, hands = finished
    number = won(hands)
    page, errors = open_replay(browser, finished, number, lang, context)
    # the header's links, the labels box and the step slider: a finger high (16, 13 and 28 px)
    for selector in ("body > .bar > a.home", "#room-name", "label.check", "#scrub"):
        height = page.locator(selector).bounding_box()["height"]
        assert height >= 40, (selector, height)
    assert hit(page, "#room-name", 18) and hit(page, "#room-name", -18)
    replay = get(base, f"/api/rooms/{room}/hands/{number}")
    frames = replay["frames"]
    # the wall's count beside the step, in the controls that stay in sight (a phone held upright)
    page.evaluate("go(7)")
    if context["viewport"]["height"] > 500:
        wall = page.locator("#wall-now")
        assert wall.is_visible()
        assert wall.inner_text().endswith(f" {frames[7]['wall']}")
        controls = page.locator(".replay-controls").bounding_box()
        assert wall.bounding_box()["y"] + wall.bounding_box()["height"] <= (
            controls["y"] + controls["height"]
        )
    # the end of the hand: each fan's sets in tiles at least 18 px wide (14 px on a 360 px phone)
    page.click("#last")
    page.wait_for_selector("#result:not([hidden]) table.fans")
    widths = page.evaluate(
        "[...document.querySelectorAll('#result .fan-sets .tile')].map((t) => t.getBoundingClientRect().width)"
    )
    assert widths and min(widths) >= 18, min(widths)
    assert page.evaluate("document.documentElement.scrollWidth") <= context["viewport"]["width"]
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("lang", "context"), [("en", PHONE), ("zh", PHONE), ("en", TALL)])
def test_the_help_page_fits_a_phone_and_takes_a_finger(
    browser: Any, finished: Any, lang: str, context: Any
) -> None:
    base, _, _ = finished
    page, errors = open_page(browser, f"{base}/help?lang={lang}", **context)
    page.wait_for_selector("body[data-ready]")
    width = context["viewport"]["width"]
    # no sideways scrolling (387 px at 360: the seat table outgrew its card)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    card = page.locator("#seats").bounding_box()
    table = page.locator("#seat-table").bounding_box()
    assert table["x"] + table["width"] <= card["x"] + card["width"]
    # the lobby link, the contents' links and the fan filter a finger high (19-31 px)
    for selector in ("body > .bar > a.home", "#fan-filter"):
        assert page.locator(selector).bounding_box()["height"] >= 40, selector
    links = page.evaluate(
        "[...document.querySelectorAll('.toc a')].map((a) => [a.getAttribute('href'), a.getBoundingClientRect().height, a.getBoundingClientRect().width])"
    )
    assert len(links) == 7
    assert all(h >= 40 and w >= 40 for _, h, w in links), links
    # the header: the lobby link and the language button on a line, the title below (3 lines)
    home = page.locator("body > .bar > a.home").bounding_box()
    lang_button = page.locator("#lang").bounding_box()
    assert abs(home["y"] - lang_button["y"]) < 10
    assert page.locator("body > .bar").bounding_box()["height"] <= 100
    # a link in the contents takes one to its part; the fans found by the filter
    page.click(".toc a[href='#fans']")
    page.wait_for_timeout(300)
    assert page.locator("#fans").bounding_box()["y"] < 100
    page.fill("#fan-filter", "88")
    assert page.locator("tr.fan").count() == 7
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_page_gives_the_replays_keys_too(browser: Any, finished: Any, lang: str) -> None:
    """The help's keys were the table's alone: the replay's (← →, Home / End, Space, a swipe on
    touch) were written nowhere but in replay.js. Each is checked against the replay itself."""
    base, _, hands = finished
    page, errors = open_page(browser, f"{base}/help?lang={lang}", **DESKTOP)
    page.wait_for_selector("body[data-ready]")
    keys = page.evaluate(
        "[...document.querySelectorAll('#keys-table .replay-keys tr[data-key]')].map((r) => [...r.querySelectorAll('kbd')].map((k) => k.innerText))"
    )
    assert keys == [["→", "←"], ["Home", "End"], ["Space"]]
    heading = page.locator("#keys-table .replay-keys th").inner_text()
    assert heading == ("回放中" if lang == "zh" else "In a hand's replay")
    swipe_words = "滑动" if lang == "zh" else "swipe"
    assert swipe_words in page.locator("#keys-table .replay-keys").inner_text()
    assert errors == []
    page.context.close()
    # the replay does as the help says
    replay, errors = open_replay(browser, finished, won(hands), lang, DESKTOP)
    last = replay.evaluate("replay.frames.length - 1")
    for key, step in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", last)):
        replay.keyboard.press(key)
        shown(replay, step)
    replay.keyboard.press("Home")
    shown(replay, 0)
    replay.keyboard.press(" ")
    shown(replay, 1)  # playing
    replay.keyboard.press(" ")
    assert errors == []
    replay.context.close()


# The chosen hand's label and the width its list gives it (the text, the list's padding and its
# arrow): a label cut at the list's end ("7 · South · easy bot D w") named no winner.
LABEL_FITS = """() => {
  const select = document.querySelector('#hand-select');
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = select.options[select.selectedIndex].text;
  return [text, context.measureText(text).width, select.clientWidth - 28];
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_phone_held_sideways_shows_the_chosen_hand_s_whole_label(
    browser: Any, finished: Any, lang: str
) -> None:
    _, _, hands = finished
    for context in (SIDEWAYS, {**SIDEWAYS, "viewport": {"width": 740, "height": 360}}):
        page, errors = open_replay(browser, finished, won(hands), lang, context)
        text, width, room = page.evaluate(LABEL_FITS)
        assert width <= room, (context["viewport"], text, width, room)
        # the slider keeps a thumb's travel a finger can place, and the list keeps its name
        assert page.locator("#scrub").bounding_box()["width"] >= 120
        name = "盘" if lang == "zh" else "Hand"  # the glossary's term
        assert page.get_by_role("combobox", name=name).count() == 1
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        assert errors == []
        page.context.close()


@pytest.mark.parametrize(("lang", "context"), [("en", PHONE), ("zh", TALL)])
def test_a_phone_held_upright_gives_the_board_s_middle_one_line(
    browser: Any, finished: Any, lang: str, context: Any
) -> None:
    # the round, the hand and the wall between the side seats and the bottom seat: one line on a
    # phone held upright (with the claimable discard drawn large it took 136 px, and the bottom
    # seat lay that much further below the screen)
    _, _, hands = finished
    page, errors = open_replay(browser, finished, won(hands), lang, context)
    page.evaluate("go(Math.min(60, replay.frames.length - 1))")
    center = page.locator("#center")
    ems = page.evaluate(
        "(() => { const c = document.querySelector('#center'); return c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).fontSize); })()"
    )
    assert ems < 2, ems  # one line (8.5 em before)
    words = ("盘", "牌墙") if lang == "zh" else ("Hand", "Wall")
    assert all(word in center.inner_text() for word in words)
    # the bottom seat begins less than 1.15 screens down (1.29 at 360x640 before)
    top = page.locator("#pos-0").bounding_box()["y"]
    assert top < 1.15 * context["viewport"]["height"], top
    assert errors == []
    page.context.close()
