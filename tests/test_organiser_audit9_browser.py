"""The organiser's day, ninth audit, in headless Chromium against a real ``guobiao serve --db``
(the event of tests/test_organiser_audit8.py: 23 players, 5 sessions, 3 byes a session; one
player withdrawn from session 1, session 1 entered).

- The projector's standings (1920x1080) broke a rank in its 3rem column (11= on three lines, 1 /
  1 / =), so a page of 12 rows ran past the screen and was set smaller until it fitted: names
  too small to read from the back of the hall. The two numbers had no heading (which was the
  standard points, which the tiebreak?), a withdrawn player was a bare —, and before any result
  the projector showed every player — (every team 1= with 0) where the standings page says
  还没有成绩 No results yet. Ranks and numbers now keep one line, the columns are named, a player
  with no place says why, and no standings page is shown before a result.
- On a tablet (768x1024) the individual standings show every session's column. A withdrawn
  player's five 退赛 withdrawn cells each held one line, so the name column was squeezed to one
  character a line (陈 / 明 / (退 / 赛 ...) and the table ran 260 px past its card (sessions 4
  and 5 out of sight). A session's mark now breaks between its words and the cells are tighter:
  the table fits its card and a name stays whole.

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``audit9-*.png``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from test_organiser_audit5 import ok
from test_organiser_audit7 import seatings
from test_organiser_audit8 import T, enter_session, event
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
TABLET = {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True}
PAGE = "/t/" + quote(T)
EMPTY = "空杯"
HALL = {"viewport": {"width": 1920, "height": 1080}}


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"audit9-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("audit9")
    url = event(data)
    never = seatings(url, T)[0].tables[0].seats[0]
    ok(url, "withdraw", T, never, "--from-session", "1", "--who", "Li")
    enter_session(url, 1)
    # a second tournament in the database, drawn, nothing entered yet
    ok(url, "create", EMPTY, "--sessions", "2")
    ok(url, "players", EMPTY, str(data / "players.csv"))
    ok(url, "draw", EMPTY, "--seed", "1")
    found = re.search(r"password (\S+)", ok(url, "referee", T, "--add", "li"))
    assert found
    port = free_port()
    with server(data, port, db=url):
        yield {"base": f"http://127.0.0.1:{port}", "url": url, "never": never, "password": found[1]}


def test_the_tablet_standings_fit_their_card_and_keep_names_whole(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site["base"] + PAGE, **TABLET)
    page.wait_for_selector("#individual tr[data-player]")
    # every session's column is shown on a tablet
    assert page.locator("#individual thead th[class*=wide-only]").first.is_visible()
    box = page.evaluate(
        """() => { const t = document.getElementById('individual');
        return {table: t.scrollWidth, box: t.parentElement.clientWidth}; }"""
    )
    assert box["table"] <= box["box"], box  # sessions 4 and 5 were out of sight
    row = page.locator(f"#individual tr[data-player='{site['never']}']")
    assert row.locator("[data-mark=withdrawn]").count() == 5
    # the withdrawn player's name is on one line, as wide as the name itself
    name = page.evaluate(
        """(player) => { const td = [...document.querySelectorAll('#individual tr')]
            .find((tr) => tr.dataset.player === player).querySelector('td.name');
          const range = document.createRange();
          range.setStart(td.firstChild, 0); range.setEnd(td.firstChild, player.length);
          return range.getClientRects().length; }""",
        site["never"],
    )
    assert name == 1  # it broke one character a line
    shot(page, "standings-768")
    assert real(errors) == []


def referee(browser: Any, site: dict[str, Any], context: dict[str, Any]) -> tuple[Any, list[str]]:
    """The referee page logged in as ``li``, a table of session 2 (not entered) shown."""
    page, errors = open_page(browser, site["base"] + PAGE + "/referee", **context)
    page.fill("input[name=username]", "li")
    page.fill("input[name=password]", site["password"])
    page.click("#login button[type=submit]")
    page.wait_for_selector("#entry-rows input.score")
    return page, errors


@pytest.mark.parametrize("width, height", [(360, 640), (390, 844), (768, 1024), (1280, 720)])
def test_the_referee_entry_keeps_winds_names_and_headings_apart(
    browser: Any, site: dict[str, Any], width: int, height: int
) -> None:
    page, errors = referee(browser, site, {"viewport": {"width": width, "height": height}})
    page.locator("input.score").first.fill("-1250")
    geometry = page.evaluate(
        r"""() => {
        const text = (node) => { const r = document.createRange(); r.selectNodeContents(node);
          return r.getBoundingClientRect(); };
        const rows = [...document.querySelectorAll('#entry-rows tr')].filter((tr) => tr.querySelector('th.wind'));
        const gaps = rows.map((tr) => text(tr.querySelector('td.name').firstChild).left
          - text(tr.querySelector('th.wind').firstChild).right);
        // each word of a heading: on how many lines it is drawn
        const words = (node) => [...node.textContent.matchAll(/\S+/g)].map((m) => {
          const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
          return [m[0], r.getClientRects().length]; });
        const texts = (node) => node.nodeType === Node.TEXT_NODE ? [node] : [...node.childNodes].flatMap(texts);
        const heads = [...document.querySelectorAll('.entry thead th')].flatMap(texts).flatMap(words);
        const score = document.querySelector('input.score');
        return {gaps, heads, fits: [score.scrollWidth, score.clientWidth],
          page: document.documentElement.scrollWidth};
        }"""
    )
    # the wind (西 W) ran into the name (西 W张明): a gap of at least 4 px between them
    assert min(geometry["gaps"]) >= 4, geometry
    # each word of a heading whole, on one line (扣分 Deducted broke Deduc / ted at 360 px)
    assert all(count == 1 for _, count in geometry["heads"]), geometry
    typed, room = geometry["fits"]
    assert typed <= room, geometry  # -1250 shown whole
    assert geometry["page"] <= width
    shot(page, f"referee-{width}")
    assert real(errors) == []


def pages(page: Any, at_least: int) -> list[str]:
    """The projector's page titles, once it has ``at_least`` (the pages' CSP allows no eval, so
    no wait_for_function)."""
    for _ in range(150):
        titles: list[str] = page.evaluate("() => PAGES.map((p) => p.title)")
        if len(titles) >= at_least:
            return titles
        page.wait_for_timeout(100)
    raise AssertionError(f"the projector has {titles}")


def projector_page(page: Any, title: str) -> None:
    """Show the projector's page whose title holds ``title`` now (not after its rotation)."""
    pages(page, 2)
    page.evaluate(
        "(title) => { PAGE = PAGES.findIndex((p) => p.title.includes(title)); show(); }", title
    )
    page.wait_for_selector(".p-standings td.rank")


def test_the_projector_standings_read_from_the_back_of_the_hall(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site["base"] + PAGE + "/projector", **HALL)
    projector_page(page, "(2/2)")  # ranks 11= and 16=, then the players with no place
    found = page.evaluate(
        """() => {
        const lines = (node) => { const r = document.createRange(); r.selectNodeContents(node);
          return r.getClientRects().length; };
        return {
          ranks: [...document.querySelectorAll('.p-standings td.rank')].map((td) => [td.textContent, lines(td)]),
          heads: [...document.querySelectorAll('.p-standings th')].map((th) => th.textContent),
          name: parseFloat(getComputedStyle(document.querySelector('.p-standings td.name')).fontSize),
          fits: document.documentElement.scrollHeight <= innerHeight,
        }; }"""
    )
    assert all(count == 1 for _, count in found["ranks"]), found["ranks"]  # 11= was 1 / 1 / =
    assert "11=" in [rank for rank, _ in found["ranks"]]
    # the numbers are named: which is the ranking, which the tiebreak
    assert any("标准分" in h and "Std" in h for h in found["heads"]), found["heads"]
    assert any("比赛分" in h and "Match" in h for h in found["heads"]), found["heads"]
    # a name 2.5% of the screen's height at least (27 px of 1080), and the page on the screen
    assert found["name"] >= 27, found
    assert found["fits"]
    row = page.locator(f".p-standings tr[data-row='{site['never']}']")
    assert "退赛 withdrawn" in row.inner_text()
    shot(page, "projector-1920")
    assert real(errors) == []


def test_the_projector_shows_no_standings_before_any_result(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site["base"] + "/t/" + quote(EMPTY) + "/projector", **HALL)
    page.wait_for_selector(".p-table[data-table]")
    titles = pages(page, 1)
    assert titles and all("Seating" in t for t in titles), titles  # no ranking of nobody
    assert page.locator(".p-standings").count() == 0
    shot(page, "projector-empty-1920")
    assert real(errors) == []
