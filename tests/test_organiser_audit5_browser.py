"""The organiser's day, fifth audit, in headless Chromium against a real ``guobiao serve --db``
(the event of tests/test_organiser_audit5.py: 18 players, two byes a session, a table still
playing): the pages name the byes (轮空) and the table in play; the referee page shows a
correction's changes before sending it, and asks before a reset throws away a running clock;
an open page follows the results after the server restarts; a long name does not widen the
standings past a phone's screen.

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``audit5-*.png``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import test_tournament_pages_audit2_browser as audit2
from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from test_organiser_audit5 import T, event, ok, write_players
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real, wait_js

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 720}}
PAGE = "/t/Spring%20Open"
LONG = "Maximilianalexandrovakonstantinopoulouvanderbilt"  # 48 letters, one word


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"audit5-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("audit5")
    spring = event(data)
    url = spring["url"]
    found = re.search(r"password (\S+)", ok(url, "referee", T, "--add", "boss", "--organiser"))
    assert found
    # a second tournament in the same database: a name of one long word, a long team name
    ok(url, "create", "Long", "--sessions", "1")
    ok(url, "players", "Long", str(write_players(data / "long.csv", [
        f"1,{LONG},The Extraordinarily Long-Named Mahjong Club of Southern Shanghai",
        "2,B,", "3,C,", "4,D,"])))  # fmt: skip
    ok(url, "draw", "Long")
    ok(url, "totals", "Long", "--session", "1", "--table", "1", "620", "480", "510", "390")
    port = free_port()
    with server(data, port, db=url) as proc:
        yield {**spring, "data": data, "port": port, "base": f"http://127.0.0.1:{port}",
               "password": found[1], "proc": proc}  # fmt: skip


def scores(site: dict[str, Any], table: int) -> dict[str, int] | None:
    return audit2.scores(site, table, T)


def log_in(browser: Any, site: dict[str, Any]) -> tuple[Any, list[str]]:
    return audit2.log_in(browser, site, "boss", 3, T)


def test_the_pages_name_the_byes_and_the_table_in_play(browser: Any, site: dict[str, Any]) -> None:
    page, errors = open_page(browser, site["base"] + PAGE, **PHONE)
    page.wait_for_selector("#tables [data-table]")
    # session 1 is the current one: table 2 has 3 of its 16 hands (it moved on to session 2)
    assert page.locator("#session-select").input_value() == "1"
    assert "0 / 3" in page.locator("#t-status").inner_text()
    byes = page.locator("#byes .bye").all_inner_texts()
    assert sorted(byes) == sorted(site["byes"]) and len(byes) == 2
    assert "轮空 Bye" in page.locator("#byes").inner_text()
    card = page.locator("#tables [data-table='2']")
    assert card.get_attribute("data-state") == "partial"
    assert "3/16" in card.locator(".in-play").inner_text()
    assert "entered" not in (card.get_attribute("class") or "")
    assert "entered" in (page.locator("#tables [data-table='1']").get_attribute("class") or "")
    shot(page, "standings-390")
    assert real(errors) == []

    projector, projector_errors = open_page(browser, site["base"] + PAGE + "/projector", **LAPTOP)
    projector.wait_for_selector(".p-table")
    assert "session 1" in projector.locator(".p-page-title").inner_text()
    assert sorted(projector.locator(".byes .bye").all_inner_texts()) == sorted(site["byes"])
    assert "3/16" in projector.locator(".p-table[data-table='2'] .in-play").inner_text()
    shot(projector, "projector-1280")
    assert projector_errors == []


def test_a_correction_shows_its_changes_before_it_is_sent(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = log_in(browser, site)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.select_option("#table", "1")
    wait_js(page, "document.querySelector('input[name=score-E]').value === '620'")
    assert page.locator("#save").inner_text() == "更正 Correct"
    page.fill("input[name=score-E]", "600")
    page.fill("input[name=score-S]", "500")
    page.click("#save")
    page.wait_for_timeout(1000)
    assert posts == [], "a correction was sent before its changes were shown"
    confirm = page.locator("#entry-confirm")
    wait_js(page, "document.querySelector('#entry-confirm').innerText.includes('620 → 600')")
    assert "480 → 500" in confirm.inner_text() and "510" not in confirm.inner_text()
    assert page.locator("#save").inner_text() == "确认更正 Confirm correction"
    assert (
        posts == []
        and sorted(scores(site, 1) or {})
        and sorted((scores(site, 1) or {}).values()) == [390, 480, 510, 620]
    )
    shot(page, "referee-confirm-390")
    # a number changed after: the confirmation goes, and the next press asks again
    page.fill("input[name=score-W]", "490")
    page.fill("input[name=score-N]", "410")
    assert confirm.inner_text() == ""
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-confirm').innerText.includes('390 → 410')")
    assert posts == []
    page.click("#save")  # confirmed
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('corrected')")
    assert len(posts) == 1
    assert sorted((scores(site, 1) or {}).values()) == [410, 490, 500, 600]
    # the tables: ✓ entered, the table entered hand by hand and still playing how far it is
    options = page.locator("#table option").all_inner_texts()
    assert options[0].endswith("✓") and "3/16" in options[1] and "✓" not in options[1]
    assert real(errors) == []


def test_a_reset_of_a_running_clock_asks_first(browser: Any, site: dict[str, Any]) -> None:
    page, errors = log_in(browser, site)
    page.wait_for_selector("#clock-card:not([hidden])")
    page.fill("#clock-session", "1")
    page.fill("#clock-minutes", "90")
    page.click("#clock-reset")  # a clock that never ran: reset at once
    wait_js(page, "document.querySelector('#clock-time').innerText === '1:30:00'")
    page.click("#clock-start")
    wait_js(page, "document.querySelector('#clock-time').innerText.startsWith('1:29:')")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.fill("#clock-minutes", "180")
    page.click("#clock-reset")
    page.wait_for_timeout(1000)
    assert posts == [], "a running clock was reset at one touch"
    wait_js(page, "document.querySelector('#clock-confirm').innerText.includes('1:29')")
    assert "running" in page.locator("#clock-confirm").inner_text()
    assert page.locator("#clock-reset").inner_text() == "确认重置 Confirm reset"
    assert posts == []
    shot(page, "clock-confirm-390")
    page.click("#clock-reset")
    wait_js(page, "document.querySelector('#clock-time').innerText === '3:00:00'")
    assert len(posts) == 1 and page.locator("#clock-confirm").inner_text() == ""
    assert real(errors) == []


def test_a_long_name_does_not_widen_the_standings_on_a_phone(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site["base"] + "/t/Long", **PHONE)
    page.wait_for_selector("#individual tbody tr[data-player]")
    page.wait_for_selector("#team-table tbody tr")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the name is all there, over lines of its own
    cell = page.locator(f"#individual tr[data-player='{LONG}'] td.name")
    assert cell.inner_text() == LONG
    box = cell.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    shot(page, "long-name-390")
    assert real(errors) == []


def test_an_open_page_follows_the_results_after_a_restart(
    browser: Any, site: dict[str, Any]
) -> None:
    """The last test of the module: it restarts the server (same data, database and port)."""
    page, errors = open_page(browser, site["base"] + PAGE, **LAPTOP)

    def card(table: int) -> str:
        return f"document.querySelector(\"#tables [data-table='{table}']\")"

    page.wait_for_selector("#tables [data-table='3']")
    # changes seen before the restart: the page's version is past the server's first ones
    for hand in ("4", "5"):
        ok(site["url"], "hand", T, "--session", "1", "--table", "2", "--hand", hand,
           "--winner", "S", "--from", "E", "--fan", "10")  # fmt: skip
        best = max((scores(site, 2) or {}).values())
        wait_js(page, f"{card(2)}.innerText.includes('{best}')")
    site["proc"].kill()  # the server stops mid-tournament...
    site["proc"].wait(10)
    with server(site["data"], site["port"], db=site["url"]):  # ...and starts again
        page.wait_for_timeout(4000)  # the page reconnects (it retries every 3 s)
        ok(site["url"], "totals", T, "--session", "1", "--table", "3",
           "620", "480", "510", "390")  # fmt: skip
        wait_js(page, f"{card(3)}.classList.contains('entered')", timeout=20)
        assert "620" in page.locator("#tables [data-table='3']").inner_text()
    # only the restart's own failed polls (the server was down for a moment)
    assert [e for e in real(errors) if "net::ERR_CONNECTION" not in e] == []
