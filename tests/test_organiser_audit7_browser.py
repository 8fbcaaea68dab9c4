"""The organiser's day, seventh audit, in headless Chromium against a real ``guobiao serve --db``
(the event of tests/test_organiser_audit7.py: 23 players, 3 byes a session). Session 1: a player
more than 15 minutes late at table 1 forfeits (弃权, 第十三条二(一)) and a player with a bye plays
the seat; tables 2-5 are entered, table 1 is not yet; another player with a bye in session 1
withdraws from session 2.

- The referee page, the standings page and the projector mark the forfeit on the substitute's
  seat before table 1's scores are saved (the referee page showed it only after a save).
- The standings mark 退赛 from the session of the recorded withdrawal: not in session 1, a bye,
  which the page read as the withdrawal before.

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``audit7-*.png``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from test_organiser_audit5 import ok
from test_organiser_audit7 import T, event, seatings
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real, wait_js

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 720}}
PAGE = "/t/City%20Cup"


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"audit7-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("audit7")
    url = event(data)
    first = seatings(url)[0]
    late, sub, gone = first.tables[0].seats[1], first.byes[0], first.byes[1]
    ok(url, "late", T, "--session", "1", "--player", late, "--minutes", "20",
       "--substitute", sub, "--who", "Li", "--allow-team-mate")  # fmt: skip
    for table in first.tables[1:]:
        ok(url, "totals", T, "--session", "1", "--table", str(table.number),
           "620", "480", "510", "390")  # fmt: skip
    ok(url, "withdraw", T, gone, "--from-session", "2", "--who", "Li")
    found = re.search(r"password (\S+)", ok(url, "referee", T, "--add", "boss", "--organiser"))
    assert found
    port = free_port()
    with server(data, port, db=url):
        yield {"url": url, "base": f"http://127.0.0.1:{port}", "password": found[1],
               "late": late, "sub": sub, "gone": gone}  # fmt: skip


def test_the_forfeit_is_marked_before_the_scores_are_saved(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site["base"] + PAGE + "/referee", **PHONE)
    page.wait_for_selector("#login-card:not([hidden])")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", site["password"])
    page.click("#login button[type=submit]")
    page.wait_for_selector("#entry-card:not([hidden])")
    wait_js(page, "document.querySelectorAll('#table option').length === 5")
    page.select_option("#table", "1")
    wait_js(page, "document.querySelectorAll('#entry-rows input.score').length === 4")
    assert page.locator("#entry-rows input.score").first.input_value() == ""  # not saved
    mark = page.locator("#entry-rows .mark-row [data-mark=forfeit]")
    assert mark.count() == 1
    assert site["late"] in mark.inner_text() and "弃权" in mark.inner_text()
    shot(page, "referee-390")
    assert real(errors) == []

    standings, standings_errors = open_page(browser, site["base"] + PAGE, **LAPTOP)
    standings.wait_for_selector("#tables [data-table='1']")
    card = standings.locator("#tables [data-table='1']")
    assert card.locator("[data-mark=forfeit]").count() == 1
    assert site["late"] in card.locator("[data-mark=forfeit]").inner_text()
    assert standings_errors == []

    projector, projector_errors = open_page(browser, site["base"] + PAGE + "/projector", **LAPTOP)
    projector.wait_for_selector(".p-table[data-table='1']")
    table = projector.locator(".p-table[data-table='1']")
    assert site["late"] in table.locator("[data-mark=forfeit]").inner_text()
    shot(projector, "projector-1280")
    assert projector_errors == []


def test_the_withdrawn_mark_starts_at_the_recorded_session(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site["base"] + PAGE, **LAPTOP)
    page.wait_for_selector("#individual tr[data-player]")
    row = page.locator(f"#individual tr[data-player='{site['gone']}']")
    marked = [
        int(cell.get_attribute("data-session") or 0)
        for cell in row.locator("td[data-session]").all()
        if cell.locator("[data-mark=withdrawn]").count()
    ]
    assert marked == [2, 3, 4, 5]  # session 1 was a bye, not the withdrawal
    assert "第2局起 from session 2" in row.locator(".unranked-why").inner_text()
    shot(page, "standings-1280")
    assert errors == []
    phone, phone_errors = open_page(browser, site["base"] + PAGE, **PHONE)
    phone.wait_for_selector("#individual tr[data-player]")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "standings-390")
    assert phone_errors == []
