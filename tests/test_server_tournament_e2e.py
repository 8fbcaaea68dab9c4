"""The tournament pages in headless Chromium against a real ``guobiao serve --db``: a referee
logs in on a phone-sized screen and enters a table's totals (a wrong sum is refused in the page,
before anything is sent), and the public standings page, open all along, shows the new ranking
without a reload; the projector view's clock.

With ``GUOBIAO_SCREENSHOTS=DIR`` the test also saves the screenshots of docs/web.md there
(``screenshot-standings.png``, ``screenshot-referee.png``, ``screenshot-projector.png``):
``GUOBIAO_SCREENSHOTS=docs pytest tests/test_server_tournament_e2e.py``. (The table's picture,
``screenshot-table.png``, is taken mid-hand by tests/test_web_layout.py.)
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from test_server_e2e import open_page, quick_table
from test_server_restart import free_port, server

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
PLAYERS = ["王芳", "李伟", "张敏", "刘洋", "陈静", "杨磊", "赵丽", "黄强"]
TEAMS = ["北京", "上海", "广州", "成都"]


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    data = tmp_path_factory.mktemp("tweb")
    url = f"sqlite:///{data / 'guobiao.db'}"
    csv = data / "players.csv"
    csv.write_text(
        "number,name,team\n"
        + "".join(f"{i + 1},{p},{TEAMS[i % 4]}\n" for i, p in enumerate(PLAYERS)),
        encoding="utf-8",
    )
    cli("tournament", "create", "春季赛", "--sessions", "2", "--db", url)
    cli("tournament", "players", "春季赛", str(csv), "--db", url)
    cli("tournament", "draw", "春季赛", "--seed", "3", "--db", url)
    out = cli("tournament", "referee", "春季赛", "--add", "li", "--organiser", "--db", url)
    found = re.search(r"password (\S+)", out)
    assert found
    port = free_port()
    with server(data, port, db=url):
        yield {"base": f"http://127.0.0.1:{port}", "password": found.group(1), "db": url}


T = "/t/%E6%98%A5%E5%AD%A3%E8%B5%9B"  # /t/春季赛


def seating(site: dict[str, str], session: int = 1) -> Any:
    with urllib.request.urlopen(f"{site['base']}/api{T}/seating/{session}") as r:
        return json.loads(r.read())


def wait_js(page: Any, expression: str, timeout: float = 15.0) -> None:
    """Wait until ``expression`` is true in the page. (``page.wait_for_function`` evaluates
    with ``eval``, which the pages' Content-Security-Policy forbids; ``evaluate`` does not.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(100)


def real(errors: list[str]) -> list[str]:
    """The page's errors but the browser's log of the refusals the test asked for (401: not
    logged in yet, a wrong password)."""
    return [e for e in errors if "status of 401" not in e]


def shot(page: Any, name: str, **options: Any) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), **options)


def test_referee_enters_totals_on_a_phone_and_the_standings_follow(
    browser: Any,
    site: dict[str, str],
) -> None:
    base = site["base"]
    standings, standing_errors = open_page(
        browser, base + T, viewport={"width": 1100, "height": 800}
    )
    standings.wait_for_selector("#individual")
    wait_js(standings, "document.querySelector('#t-status').innerText.includes('0 / 2')")
    assert standings.locator("#individual tbody tr[data-player]").count() == 0

    phone, errors = open_page(
        browser,
        base + T + "/referee",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    phone.wait_for_selector("#login-card:not([hidden])")
    # nothing marked hidden shows (a button's own display once showed "Log out" logged out)
    assert not phone.locator("#logout").is_visible()
    assert phone.evaluate(
        "[...document.querySelectorAll('[hidden]')]"
        ".every(e => getComputedStyle(e).display === 'none')"
    )
    phone.fill("input[name=username]", "li")
    phone.fill("input[name=password]", "wrong password")
    phone.click("#login button[type=submit]")
    wait_js(phone, "document.querySelector('#login-error').innerText.length > 0")
    phone.fill("input[name=username]", "li")
    phone.fill("input[name=password]", site["password"])
    phone.click("#login button[type=submit]")
    phone.wait_for_selector("#entry-card:not([hidden])")
    assert phone.locator("#logout").is_visible()
    phone.wait_for_selector("input[name=score-E]")
    assert phone.locator("#table").input_value() == "1"
    names = [s["name"] for s in seating(site)["tables"][0]["seats"]]

    # a wrong sum: the page says so and will not send it
    for wind, value in zip("ESWN", (620, 480, 510, 391), strict=True):
        phone.fill(f"input[name=score-{wind}]", str(value))
    assert "✗ +1" in phone.locator("#sum-state").inner_text()
    assert phone.locator("#save").is_disabled()
    phone.evaluate("document.getElementById('entry').requestSubmit()")
    assert "must sum to 2000" in phone.locator("#entry-error").inner_text()
    assert not seating(site)["tables"][0]["entered"]  # nothing reached the server
    # a deduction changes what the sum must be
    phone.fill("input[name=deduction-N]", "1")
    assert "✗ +2" in phone.locator("#sum-state").inner_text()
    phone.fill("input[name=deduction-N]", "")
    phone.fill("input[name=score-N]", "390")
    assert phone.locator("#sum-state").inner_text() == "✓"
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing scrolls sideways on a phone"
    shot(phone, "screenshot-referee.png", full_page=True)
    phone.click("#save")
    wait_js(phone, "document.querySelector('#entry-ok').innerText.includes('saved')")
    assert seating(site)["tables"][0]["entered"]

    # the standings page, never reloaded, shows the new ranking
    first = "#individual tbody tr[data-player]:not(.unranked)"
    wait_js(standings, f"document.querySelectorAll('{first}').length === 4")
    order = standings.locator(first).evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert order == [names[0], names[2], names[1], names[3]]
    assert standings.locator(first).first.locator(".strong").inner_text() == "4"
    # the four yet to play are listed after them, with no place, and say why
    waiting = standings.locator("#individual tbody tr.unranked")
    assert waiting.count() == 4
    assert waiting.locator(".rank").all_inner_texts() == ["—"] * 4
    assert all("did not play" in t for t in waiting.locator(".name").all_inner_texts())

    # the second table, so the screenshot shows a whole session
    wait_js(phone, "document.querySelector('#table').value === '2'")
    for wind, value in zip("ESWN", (455, 530, 610, 405), strict=True):
        phone.fill(f"input[name=score-{wind}]", str(value))
    phone.click("#save")
    wait_js(phone, "document.querySelector('#entry-ok').innerText.includes('table 2')")
    # the session's last table saved: the page stays on it (it went back to table 1, which
    # looked like the table just entered), and choosing another table clears the confirmation
    wait_js(phone, "document.querySelector('#table').options[1].textContent.includes('✓')")
    assert phone.locator("#table").input_value() == "2"
    phone.select_option("#table", "1")
    assert phone.locator("#entry-ok").inner_text() == ""
    wait_js(standings, f"document.querySelectorAll('{first}').length === 8")
    wait_js(standings, "document.querySelector('#t-status').innerText.includes('1 / 2')")
    shot(standings, "screenshot-standings.png", full_page=True)
    assert real(errors) == [] and standing_errors == []


def test_the_projector_clock(browser: Any, site: dict[str, str]) -> None:
    base = site["base"]
    referee, errors = open_page(browser, base + T + "/referee")
    wait_js(referee, "!document.querySelector('#login-card').hidden")  # a new browser context
    if referee.locator("#login-card:not([hidden])").count():
        referee.fill("input[name=username]", "li")
        referee.fill("input[name=password]", site["password"])
        referee.click("#login button[type=submit]")
    referee.wait_for_selector("#clock-card:not([hidden])")
    projector, projector_errors = open_page(
        browser, base + T + "/projector?rotate=5", viewport={"width": 1280, "height": 720}
    )
    wait_js(projector, "document.querySelector('#p-time').innerText !== '--:--'")
    referee.fill("#clock-session", "2")
    referee.fill("#clock-minutes", "14")  # under 15 minutes: the warning shows at once
    referee.click("#clock-reset")
    wait_js(referee, "document.querySelector('#clock-time').innerText === '14:00'")
    referee.click("#clock-start")
    wait_js(projector, "document.querySelector('#p-clock').classList.contains('warn')")
    wait_js(projector, "document.querySelector('#p-note').innerText.includes('15')")
    wait_js(projector, "!document.querySelector('#p-clock').classList.contains('paused')")
    shown = projector.locator("#p-time").inner_text()
    assert shown.startswith("13:") or shown == "14:00"
    assert "Session 2" in projector.locator("#p-session").inner_text()
    projector.wait_for_selector(".p-table, .p-standings")
    shot(projector, "screenshot-projector.png")
    referee.click("#clock-pause")
    wait_js(projector, "document.querySelector('#p-note').innerText.includes('paused')")
    assert real(errors) == [] and projector_errors == []


def test_a_quick_table_on_the_tournament_server(browser: Any, site: dict[str, str]) -> None:
    """The lobby's quick table works on a server with a tournament database too: our discard
    reaches the table. (docs/screenshot-table.png is taken mid-hand by test_web_layout.py.)"""
    page, errors = quick_table(browser, site["base"], viewport={"width": 1100, "height": 760})
    page.locator("#hand button.tile:not([disabled])").last.click()
    # a discard on the table (a bot may have claimed ours: then it is in that bot's melds)
    wait_js(page, "document.querySelectorAll('.discards .tile, .melds .tile').length >= 1")
    assert errors == []


def test_the_results_page_keeps_points_and_names_whole_on_a_phone(
    browser: Any, site: dict[str, str]
) -> None:
    """The printed results (比赛成绩统计表) read on a small phone (320 px): a standard-point fraction as
    ``1 3/4`` and a member's number and name never break over two lines (the table scrolls
    sideways instead). And the standings page says what the asterisk of a table still in play
    means, on screen (its tooltip is no help on a phone)."""
    cli("tournament", "totals", "春季赛", "--session", "2", "--table", "1", *("500",) * 4,
        "--db", site["db"])  # fmt: skip
    # the standings page says what the asterisk of a table still in play means
    standings, standing_errors = open_page(
        browser, site["base"] + T, viewport={"width": 390, "height": 844}
    )
    standings.wait_for_selector("#individual tbody tr[data-player]")
    assert not standings.locator(".partial-note").first.is_visible()  # nothing partial
    width = standings.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the standings do not scroll sideways on a phone"
    cli("tournament", "hand", "春季赛", "--session", "2", "--table", "2", "--hand", "1",
        "--winner", "E", "--self-drawn", "--fan", "8", "--db", site["db"])  # fmt: skip
    wait_js(standings, "document.querySelector('#individual').innerText.includes('*')")
    assert standings.locator(".partial-note").first.is_visible()
    assert "partial" in standings.locator(".partial-note").first.inner_text()
    assert real(standing_errors) == []
    page, errors = open_page(
        browser, site["base"] + T + "/results", viewport={"width": 320, "height": 844}
    )
    page.wait_for_selector("td[data-col='total-standard']")
    one_line = """sel => [...document.querySelectorAll(sel)].filter(e => {
        const range = document.createRange();
        range.selectNodeContents(e);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
    }).map(e => e.textContent)"""
    points = "td[data-col='standard'], td[data-col='total-standard']"
    assert "3/4" in " ".join(page.locator(points).all_inner_texts())  # fractions are there
    assert page.evaluate(one_line, points) == []
    assert page.locator(".nb").count() == len(PLAYERS)
    assert page.evaluate(one_line, ".nb") == []
    assert real(errors) == []
