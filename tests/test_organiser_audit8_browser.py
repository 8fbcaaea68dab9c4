"""The organiser's day, eighth audit, in headless Chromium against a real ``guobiao serve --db``
(the event of tests/test_organiser_audit8.py: 23 players with Chinese names, 5 teams of 4 and 3
in no team, 3 byes a session). One player withdraws before session 1 (never plays); session 1 is
entered.

- The standings mark a bye 轮空 bye in its session's cell (it was empty, like a session not
  entered), and a player who has had only byes says 轮空 byes only (it said 未参赛 did not play).
- A withdrawn player who never played shows no totals (it showed 0 and 0).
- Before any result the team standings say 还没有成绩 No results yet, as the individual ones do
  (every team was listed 1= with 0 points).

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``audit8-*.png``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from test_organiser_audit5 import ok
from test_organiser_audit8 import T, enter_session, event, seatings
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 720}}
PAGE = "/t/" + quote(T)
EMPTY = "空杯"


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"audit8-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("audit8")
    url = event(data)
    never = seatings(url, T)[0].tables[0].seats[0]
    ok(url, "withdraw", T, never, "--from-session", "1", "--who", "Li")
    enter_session(url, 1)
    first = seatings(url, T)[0]
    # a second tournament in the database, drawn, nothing entered yet
    ok(url, "create", EMPTY, "--sessions", "2")
    ok(url, "players", EMPTY, str(data / "players.csv"))
    ok(url, "draw", EMPTY, "--seed", "1")
    port = free_port()
    with server(data, port, db=url):
        yield {"base": f"http://127.0.0.1:{port}", "bye": first.byes[0], "never": never,
               "seated": first.tables[0].seats[0]}  # fmt: skip


def test_a_bye_is_marked_on_the_standings(browser: Any, site: dict[str, Any]) -> None:
    page, errors = open_page(browser, site["base"] + PAGE, **LAPTOP)
    page.wait_for_selector("#individual tr[data-player]")
    row = page.locator(f"#individual tr[data-player='{site['bye']}']")
    cell = row.locator("td[data-session='1']")
    assert cell.locator("[data-mark=bye]").inner_text() == "轮空 bye"
    assert "轮空 byes only" in row.locator(".unranked-why").inner_text()
    assert "did not play" not in row.inner_text()
    # a player who played session 1 has no such mark there; the session's byes are its 2
    played = page.locator(f"#individual tr[data-player='{site['seated']}']")
    assert played.locator("td[data-session='1'] [data-mark=bye]").count() == 0
    assert page.locator("#individual td[data-session='1'] [data-mark=bye]").count() == 2
    shot(page, "standings-1280")
    assert real(errors) == []


def test_a_withdrawn_player_who_never_played_has_no_totals(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site["base"] + PAGE, **LAPTOP)
    page.wait_for_selector("#individual tr[data-player]")
    row = page.locator(f"#individual tr[data-player='{site['never']}']")
    assert "退赛 withdrawn" in row.locator(".unranked-why").inner_text()
    numbers = [c.inner_text().strip() for c in row.locator("td.num:not(.wide-only)").all()]
    assert numbers == ["", ""]  # standard and match points: none, not 0
    assert real(errors) == []


def test_the_phone_standings_fit(browser: Any, site: dict[str, Any]) -> None:
    page, errors = open_page(browser, site["base"] + PAGE, **PHONE)
    page.wait_for_selector("#individual tr[data-player]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "standings-390")
    assert real(errors) == []


def test_before_any_result_the_teams_are_not_ranked(browser: Any, site: dict[str, Any]) -> None:
    page, errors = open_page(browser, site["base"] + "/t/" + quote(EMPTY), **PHONE)
    page.wait_for_selector("#tables [data-table]")  # loaded
    assert "No results yet" in page.locator("#individual").inner_text()
    assert page.locator("#teams").is_visible()
    assert "No results yet" in page.locator("#team-table").inner_text()
    assert page.locator("#team-table tr[data-team]").count() == 0
    shot(page, "no-results-390")
    assert real(errors) == []
