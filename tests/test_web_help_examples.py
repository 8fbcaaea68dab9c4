"""The help page's example hand under every fan (guobiao.scoring.examples, served by /api/fans),
in a browser: every fan row shows its hand with all its tiles, the winning tile marked as the
table marks it (win-tile), the win's circumstances in words; on a 360x640 phone in both languages
the page never scrolls sideways and the tiles stay at least 16 px wide; at 1366x768 each hand is
one row; the fan filter still filters the examples. ``GUOBIAO_SCREENSHOTS=docs`` saves
docs/screenshot-help-fans.png (the README's): /help#fans at 1366x768, the card of the fans
down to the last 88-point fan wholly in view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guobiao import Fan
from guobiao.scoring.examples import EXAMPLES
from test_server_e2e import open_page, shot
from test_server_restart import free_port, server

PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
SHOTS = Path("/tmp/helpex")

# The 81 fans of the web table (1998): number -> (tiles drawn, the winning tile's name)
EXPECTED: dict[int, tuple[int, str]] = {}
for _fan, _ex in EXAMPLES.items():
    if _fan is Fan.MELDED_AND_CONCEALED_KONG:  # the mil profile's: not on the table's page
        continue
    _hand, _context = _ex.parse()
    _tiles = len(_hand.concealed) + 1 + sum(len(m.tiles) for m in _hand.melds) + len(_hand.flowers)
    EXPECTED[_fan.number] = (_tiles, str(_context.win_tile))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("help-examples"), port):
        yield f"http://127.0.0.1:{port}"


def open_help(browser: Any, base: str, lang: str, context: Any) -> tuple[Any, list[str]]:
    page, errors = open_page(browser, f"{base}/help?lang={lang}", **context)
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.fan-example img')].every((i) => i.complete)"
    )
    return page, errors


EXAMPLES_JS = """() => [...document.querySelectorAll('tr.fan-def')].map((row) => {
  const ex = row.querySelector('.fan-example');
  const tiles = ex ? [...ex.querySelectorAll('.tile')] : [];
  const win = ex ? [...ex.querySelectorAll('.tile.win-tile')] : [];
  const card = document.getElementById('fans').getBoundingClientRect();
  return {
    number: Number(row.dataset.number),
    tiles: tiles.length,
    win: win.map((t) => t.dataset.tile),
    winOutline: win.length ? getComputedStyle(win[0]).outlineStyle : '',
    minWidth: Math.min(...tiles.map((t) => t.getBoundingClientRect().width)),
    tops: [...new Set(tiles.map((t) => Math.round(t.getBoundingClientRect().top)))].length,
    right: Math.max(...tiles.map((t) => t.getBoundingClientRect().right)),
    cardRight: card.right,
    how: ex ? ex.querySelector('.ex-how').innerText : '',
    backs: ex ? ex.querySelectorAll('.tile.back').length : 0,
  };
})"""


def examples_of(page: Any) -> dict[int, dict[str, Any]]:
    return {row["number"]: row for row in page.evaluate(EXAMPLES_JS)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_fan_shows_its_example_on_a_phone(browser: Any, base: str, lang: str) -> None:
    page, errors = open_help(browser, base, lang, PHONE)
    SHOTS.mkdir(exist_ok=True)
    page.locator("#fan-46").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"test-help-examples-{lang}-360.png"))
    shown = examples_of(page)
    assert sorted(shown) == sorted(EXPECTED) and len(shown) == 81
    for number, (count, win) in EXPECTED.items():
        row = shown[number]
        assert row["tiles"] == count, (number, row)
        assert row["win"] == [win], (number, row)  # one winning tile, marked
        assert row["winOutline"] == "solid", number
        assert row["minWidth"] >= 16, (number, row)  # small, but still a tile at 360 px
        assert row["right"] <= row["cardRight"], (number, row)  # inside the card
        assert row["how"], number
    # no sideways scrolling at 360 px
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # the circumstances in words; a concealed kong's ends face down, as on the table
    words = {
        "en": {47: "robbing a kong", 46: "replacement tile", 44: "last tile", 80: "self-drawn"},
        "zh": {47: "抢杠", 46: "补牌", 44: "最后一张", 80: "自摸"},
    }[lang]
    for number, text in words.items():
        assert text in shown[number]["how"], (number, shown[number]["how"])
    assert shown[Fan.CONCEALED_KONG.number]["backs"] == 2
    assert shown[Fan.TWO_CONCEALED_KONGS.number]["backs"] == 4
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_example_is_one_row_on_a_computer(browser: Any, base: str, lang: str) -> None:
    page, errors = open_help(browser, base, lang, DESKTOP)
    shown = examples_of(page)
    assert len(shown) == 81
    assert all(row["tops"] == 1 for row in shown.values()), [
        n for n, row in shown.items() if row["tops"] != 1
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    assert errors == []
    page.context.close()


def test_the_filter_filters_the_examples_too(browser: Any, base: str) -> None:
    page, errors = open_help(browser, base, "en", PHONE)
    page.fill("#fan-filter", "88")
    assert page.locator("tr.fan").count() == 7
    assert page.locator(".fan-example").count() == 7
    page.fill("#fan-filter", "flower")
    shown = examples_of(page)
    assert list(shown) == [81]
    assert shown[81]["tiles"] == EXPECTED[81][0]
    assert page.locator(".fan-example .tile.flower").count() == 2
    page.fill("#fan-filter", "")
    assert page.locator(".fan-example").count() == 81
    assert errors == []
    page.context.close()


def test_the_fans_section_opens_on_the_first_fans_and_their_hands(browser: Any, base: str) -> None:
    """/help#fans on a 1366x768 screen opens on the section's heading, the filter and the first
    fans (88 points), each whole in view with its example hand and how it was won: the README's
    picture, cut under the last whole fan."""
    page, errors = open_page(browser, f"{base}/help?lang=en#fans", **DESKTOP)
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.fan-example img')].every((i) => i.complete)"
    )
    page.evaluate("document.getElementById('fans').scrollIntoView()")
    assert abs(page.evaluate("document.getElementById('fans').getBoundingClientRect().top")) < 2
    assert page.locator("#fans h2").first.is_visible()
    # the fans whose rows (name, definition, example) lie whole within the screen
    whole = page.evaluate("""() => [...document.querySelectorAll('tr.fan-def')].filter((row) => {
      const top = document.getElementById(`fan-${row.dataset.number}`).getBoundingClientRect().top;
      return top >= 0 && row.getBoundingClientRect().bottom <= innerHeight;
    }).map((row) => Number(row.dataset.number))""")
    assert whole[:4] == [1, 2, 3, 4], whole
    shown = examples_of(page)
    for number in whole:
        assert shown[number]["tiles"] == EXPECTED[number][0], number
        assert shown[number]["win"] == [EXPECTED[number][1]], number
        assert shown[number]["tops"] == 1 and shown[number]["how"], number
    # the card alone, down to the last whole fan: at its own size in the README (the whole
    # 1366 px screen would be shrunk to the README's column, its tiles to 15 px)
    card = page.locator("#fans").bounding_box()
    bottom = page.evaluate(
        f"document.querySelector('tr.fan-def[data-number=\"{whole[-1]}\"]')"
        ".getBoundingClientRect().bottom"
    )
    assert card is not None and card["width"] <= 900, card
    clip = {"x": card["x"] - 12, "y": 0, "width": card["width"] + 24, "height": bottom + 2}
    shot(page, "screenshot-help-fans.png", clip=clip)
    assert errors == []
    page.context.close()
