"""The second audit's pages in headless Chromium against a real ``guobiao serve --db`` (the club of
tests/test_tournament_pages_audit2.py: 20 players, 5 teams, a 陪打, a table ended early): the
referee page marks a score it cannot read and sends nothing until it is fixed, and marks a field
the server refuses; the 陪打 on the referee, standings and projector pages; the score sheet and
the results at a phone's 390x844 and a laptop's 1280x720, nothing wider than the screen and no
text too small to read.

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``audit2-*.png``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from guobiao.tournament.store import open_store
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real, wait_js
from test_tournament_pages_audit2 import SUB, T, club, ok

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 720}}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("audit2")
    event = club(data)
    found = re.search(r"password (\S+)", ok(event["url"], "referee", T, "--add", "li"))
    assert found
    port = free_port()
    with server(data, port, db=event["url"]):
        yield {**event, "base": f"http://127.0.0.1:{port}", "password": found[1]}


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"audit2-{name}.png"), full_page=True)


def scores(site: dict[str, Any], table: int, tournament: str = T) -> dict[str, int] | None:
    """Session 1's 局分 of ``table`` as the database holds them."""
    store = open_store(site["url"])
    try:
        return store.table_scores(tournament, 1, table)
    finally:
        store.close()


def log_in(
    browser: Any, site: dict[str, Any], user: str = "li", tables: int = 4, tournament: str = T
) -> tuple[Any, list[str]]:
    """The referee page on a phone, logged in as ``user``, once it lists the ``tables``."""
    page, errors = open_page(browser, f"{site['base']}/t/{quote(tournament)}/referee", **PHONE)
    page.wait_for_selector("#login-card:not([hidden])")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", site["password"])
    page.click("#login button[type=submit]")
    page.wait_for_selector("#entry-card:not([hidden])")
    wait_js(page, f"document.querySelectorAll('#table option').length === {tables + 1}")
    return page, errors


def choose(page: Any, table: int) -> None:
    page.select_option("#table", str(table))
    wait_js(page, "document.querySelectorAll('#entry-rows input.score').length === 4")


def invalid(page: Any) -> list[str]:
    """The fields marked invalid for a screen reader, each also red and tied to the message."""
    return list(
        page.evaluate(
            """[...document.querySelectorAll('#entry input')].filter((i) => {
                 const marked = i.getAttribute('aria-invalid') === 'true';
                 if (marked && !(i.classList.contains('invalid')
                     && i.getAttribute('aria-describedby') === 'entry-invalid'
                     && getComputedStyle(i).borderTopColor !== getComputedStyle(
                          document.querySelector('#note')).borderTopColor)) throw new Error(i.name);
                 return marked;
               }).map((i) => i.name)"""
        )
    )


def test_the_referee_page_marks_a_number_it_cannot_read_and_saves_nothing(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = log_in(browser, site)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    choose(page, 4)
    for wind, value in zip("ESWN", ("1O0", "480", "510", "12a"), strict=True):
        page.fill(f"input[name=score-{wind}]", value)
    assert invalid(page) == ["score-E", "score-N"]
    message = page.locator("#entry-invalid")
    assert message.is_visible()
    text = message.inner_text()
    assert "「1O0」" in text and "「12a」" in text and "a score is a whole number" in text
    assert page.locator("#save").is_disabled()
    shot(page, "referee-typo-390")
    # Enter in a field does not submit (the save button is disabled); a submit that comes anyway
    # is refused in the page, the first bad field focused, nothing sent
    page.press("input[name=score-S]", "Enter")
    page.evaluate(
        "document.querySelector('#entry').dispatchEvent(new Event('submit', {cancelable: true}))"
    )
    wait_js(page, "document.querySelector('#entry-error').innerText.includes('marked in red')")
    assert page.evaluate("document.activeElement.name") == "score-E"
    page.fill("input[name=deduction-W]", "1O")
    assert invalid(page) == ["score-E", "deduction-W", "score-N"]
    assert "a deduction is a whole number" in message.inner_text()
    # fixed: the marks go, the sum decides, the save goes through
    page.fill("input[name=score-E]", "620")
    page.fill("input[name=score-N]", "390")
    page.fill("input[name=deduction-W]", "")
    assert invalid(page) == []
    assert not message.is_visible() and message.inner_text() == ""
    assert page.locator("#save").is_enabled()
    assert not [u for u in posts if u.endswith("/results")]  # nothing was sent before
    assert scores(site, 4) is None
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 4')")
    saved = scores(site, 4)
    assert saved is not None and sorted(saved.values()) == [390, 480, 510, 620]
    assert real(errors) == []  # (the 401 of the page asking who is logged in, before the login)


def test_a_number_the_server_refuses_is_marked_on_the_page(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = log_in(browser, site)
    choose(page, 5)
    # whole numbers that sum right, but beyond what a session can hold: the server's check
    for wind, value in zip("ESWN", ("200000", "-198000", "0", "0"), strict=True):
        page.fill(f"input[name=score-{wind}]", value)
    assert invalid(page) == [] and page.locator("#save").is_enabled()
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-error').innerText.length > 0")
    assert invalid(page) == ["score-E"]
    assert "a score is a whole number" in page.locator("#entry-error").inner_text()
    assert scores(site, 5) is None
    shot(page, "referee-refused-390")
    assert [e for e in real(errors) if "422" not in e] == []  # the refusal asked for


def test_the_stand_in_is_marked_wherever_the_seats_are_listed(
    browser: Any, site: dict[str, Any]
) -> None:
    replaced, table = site["replaced"], site["table"]
    referee, errors = log_in(browser, site)
    choose(referee, table)
    marks = referee.locator("#entry-rows .stand-in")
    assert marks.count() == 1
    # on a line of its own under the substitute's row (the S seat)
    above = referee.evaluate(
        "document.querySelector('#entry-rows .stand-in').closest('tr').previousElementSibling"
        ".innerText"
    )
    assert SUB in above and "南 S" in above and "陪打 substitute" in marks.inner_text()
    assert f"代打 {replaced}" in marks.inner_text()
    shot(referee, "referee-stand-in-390")
    for other in {1, 2, 3, 4, 5} - {table}:
        choose(referee, other)
        assert referee.locator("#entry-rows .stand-in").count() == 0
    standings, more = open_page(browser, f"{site['base']}/t/{T}", **PHONE)
    standings.wait_for_selector(f".t-card[data-table='{table}'] .stand-in")
    card = standings.locator(f".t-card[data-table='{table}']")
    assert "陪打 substitute" in card.locator(".stand-in").inner_text()
    assert standings.locator(".stand-in").count() == 1
    assert standings.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(standings, "standings-390")
    projector, most = open_page(
        browser, f"{site['base']}/t/{T}/projector?rows=20", viewport={"width": 1280, "height": 720}
    )
    projector.wait_for_selector(".p-seats .stand-in")
    assert "陪打 substitute" in projector.locator(".p-seats .stand-in").inner_text()
    shot(projector, "projector-1280")
    assert real(errors) + more + most == []


PAGES = ("sheet/1/1", "sheet/1/2", "results")


@pytest.mark.parametrize("device", [PHONE, LAPTOP], ids=["390x844", "1280x720"])
def test_the_sheets_and_results_fit_a_phone_and_a_laptop(
    browser: Any, site: dict[str, Any], device: dict[str, Any]
) -> None:
    width = device["viewport"]["width"]
    for path in PAGES:
        page, errors = open_page(browser, f"{site['base']}/t/{T}/{path}", **device)
        page.wait_for_selector("h1")
        name = f"{path.replace('/', '-')}-{width}"
        shot(page, name)
        # the viewport is the device's (without the meta tag a phone lays out 980 px and shrinks)
        assert page.evaluate("innerWidth") == width, name
        # nothing makes the page wider than the screen: a wide table scrolls in its own box
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), name
        boxes = page.evaluate(
            """[...document.querySelectorAll('.scroll')].map((b) => [
                 b.getBoundingClientRect().right <= innerWidth + 0.5,
                 b.scrollWidth > b.clientWidth])"""
        )
        assert boxes and all(inside for inside, _ in boxes), name
        if width >= 1280:  # a laptop shows every table whole
            assert not any(scrolls for _, scrolls in boxes), name
        # no text smaller than 11 px on a phone, 10 px on a laptop (the A4 page prints smaller)
        smallest = page.evaluate(
            """Math.min(...[...document.querySelectorAll('body *')].filter((e) =>
                 [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
                 && e.getClientRects().length).map((e) => parseFloat(getComputedStyle(e).fontSize)))"""
        )
        assert smallest >= (11 if width < 500 else 10), (name, smallest)
        if path == "sheet/1/1":  # the early end is on screen, within the width
            ended = page.locator("p.ended")
            assert ended.is_visible() and "5 of 16 hands played" in ended.inner_text()
            box = ended.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert errors == [], name
