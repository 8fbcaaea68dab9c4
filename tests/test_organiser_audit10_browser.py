"""The organiser's day on a phone and on a projector, tenth audit, in headless Chromium against a
real ``guobiao serve --db``: 26 players (long names: Alexandra Konstantinopoulou, 欧阳娜娜娜), 6
sessions, one player withdrawn from session 2, session 1 entered by its totals and a table of
session 2 by its hands.

- The score sheet on a phone (360-414 px) was its A4 table, 640 px wide, scrolling in a box of
  345: two players of four in sight. It reflows to the screen: the four players side by side, each
  hand's note under its row. Print media (a browser's Print, ``html_to_pdf``) keeps the A4 table.
- The results table on a phone scrolled its rank and name out of sight (a row of numbers was
  anyone's): they stay at the left while the sessions scroll under them (the team table too).
- The standings at 641-768 px with six sessions ran 141-200 px past their card (a session's column
  81 px wide for 退赛 withdrawn) and broke Konstanti / nopoulou: they fit, names whole.
- The projector's standings at 1920x1080 were set down to 29 px a name (12 rows under the full
  clock): up to 16 rows at 42 px, the clock on one line above them, the pages of even size.
- At 360 px the standings' points were cut off at the card's edge (a team's members broke
  anywhere): a team, a team's members, stand under the name on a phone. A score sheet's link was 24
  px high and the session's list 35 px on touch screens: 44.

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``audit10-*.png``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from test_organiser_audit5 import ok
from test_organiser_audit7 import seatings
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
T = "秋季公开赛"
PAGE = "/t/" + quote(T)
LONG = ("Alexandra Konstantinopoulou", "欧阳娜娜娜", "Maximilian Oberhausen-Lindqvist", "司马相如")
TEAMS = ("红队 Red Dragons", "蓝队 Blue Winds", "玉队", "金队 Golden Bamboo", "珠队")
SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋"
NAMES = (*LONG, *(f"{s}明" for s in SURNAMES))  # 26 players: 2 byes a session
WITHDRAWN = NAMES[5]


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"audit10-{name}.png"), full_page=True)


def event(data: Path) -> str:
    url = f"sqlite:///{data / 'autumn.db'}"
    rows = [f"{i + 1},{name},{TEAMS[i // 4] if i < 20 else ''}" for i, name in enumerate(NAMES)]
    path = data / "players.csv"
    path.write_text("number,name,team\n" + "\n".join(rows) + "\n", encoding="utf-8")
    ok(url, "create", T, "--sessions", "6")
    ok(url, "players", T, str(path))
    ok(url, "draw", T, "--seed", "7")
    for table in seatings(url, T)[0].tables:
        ok(url, "totals", T, "--session", "1", "--table", str(table.number),
           "620", "480", "510", "390")  # fmt: skip
    ok(url, "withdraw", T, WITHDRAWN, "--from-session", "2", "--who", "Li")
    for hand in range(1, 9):
        ok(url, "hand", T, "--session", "2", "--table", "1", "--hand", str(hand),
           "--winner", "ESWN"[hand % 4], "--from", "SWNE"[hand % 4], "--fan", str(8 + hand))  # fmt: skip
    return url


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("audit10")
    url = event(data)
    port = free_port()
    with server(data, port, db=url):
        yield {"base": f"http://127.0.0.1:{port}", "url": url}


def device(width: int, height: int, locale: str = "en-US") -> dict[str, Any]:
    """A browser context's options: a touch screen below 1100 px, the browser's language."""
    touch = width < 1100
    return {
        "viewport": {"width": width, "height": height},
        "is_mobile": touch,
        "has_touch": touch,
        "locale": locale,
    }


PHONES = [(360, 640, "en-US"), (390, 844, "zh-CN"), (414, 896, "en-US")]


# -- 1. the score sheet and the results on a phone ----------------------------------------------


@pytest.mark.parametrize("width, height, locale", PHONES)
def test_the_score_sheet_reads_on_a_phone_without_scrolling(
    browser: Any, site: dict[str, Any], width: int, height: int, locale: str
) -> None:
    """The sheet was an A4 table 640 px wide scrolling in a 345 px box: two players of four in
    sight. On a phone its four players stand side by side within the screen, each hand's note
    under its row."""
    page, errors = open_page(
        browser, site["base"] + PAGE + "/sheet/2/1", **device(width, height, locale)
    )
    page.wait_for_selector("table.sheet")
    found = page.evaluate(
        """() => { const t = document.querySelector('table.sheet');
        const row = (n) => document.querySelector(`tr.hand[data-hand="${n}"]`);
        const boxes = (tr) => [...tr.querySelectorAll('td.p')].map((td) => td.getBoundingClientRect());
        const first = boxes(row(1)), names = [...t.querySelectorAll('th[data-col=name]')]
          .map((th) => th.getBoundingClientRect());
        const note = row(1).querySelector('td.note').getBoundingClientRect();
        return {table: t.scrollWidth, box: t.parentElement.clientWidth,
          page: document.documentElement.scrollWidth,
          tops: first.map((r) => Math.round(r.top)), rights: [...first, ...names].map((r) => r.right),
          cells: first.map((r) => r.width), note: [note.top, note.width, first[0].bottom]}; }"""
    )
    assert found["table"] <= found["box"], found  # 640 in 345 (360 px), 375 (390 px)
    assert found["page"] <= width, found
    assert len(set(found["tops"])) == 1, found  # the four players of a hand on one line
    assert max(found["rights"]) <= width, found
    assert min(found["cells"]) >= 60, found  # -18 点炮, 庄 和 16 still fit a cell
    top, note_width, bottom = found["note"]
    assert top >= bottom - 1 and note_width > 0.8 * found["box"], found  # the note under the row
    assert "陈明 和 9 番" in page.locator("tr.hand[data-hand='1'] td.note").inner_text()
    shot(page, f"sheet-{width}")
    assert real(errors) == []


def test_the_printed_sheet_keeps_its_a4_table(browser: Any, site: dict[str, Any]) -> None:
    """Print media (``html_to_pdf`` and a browser's Print) keeps the A4 table even from a phone:
    seven columns, the note at the end of the hand's row, the rows' heights as on paper."""
    page, errors = open_page(browser, site["base"] + PAGE + "/sheet/2/1", **device(360, 640))
    page.wait_for_selector("table.sheet")
    page.emulate_media(media="print")
    found = page.evaluate(
        """() => { const t = document.querySelector('table.sheet');
        const cells = [...document.querySelector('tr.hand[data-hand="1"]').children];
        return {display: getComputedStyle(t).display, collapse: getComputedStyle(t).borderCollapse,
          tops: cells.map((c) => Math.round(c.getBoundingClientRect().top)), count: cells.length,
          height: parseFloat(getComputedStyle(cells[2]).height),
          notes: getComputedStyle(document.querySelector('thead th[rowspan]')).display}; }"""
    )
    assert found["display"] == "table" and found["collapse"] == "collapse", found
    assert found["count"] == 7 and len(set(found["tops"])) == 1, found
    assert found["notes"] != "none", found
    assert found["height"] >= 31, found  # 8.6 mm to write a score in
    assert real(errors) == []


@pytest.mark.parametrize("width, height, locale", PHONES[:2])
def test_the_results_keep_rank_and_name_in_sight_on_a_phone(
    browser: Any, site: dict[str, Any], width: int, height: int, locale: str
) -> None:
    """Six sessions and the totals do not fit a phone: the table scrolls in its card, and the
    rank and the name stay at its left (they scrolled away: a row of numbers was anyone's)."""
    page, errors = open_page(
        browser, site["base"] + PAGE + "/results", **device(width, height, locale)
    )
    page.wait_for_selector("table.results")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate(
        "() => document.querySelectorAll('.scroll').forEach((s) => { s.scrollLeft = 1e5; })"
    )
    found = page.evaluate(
        """() => [['results', 'name'], ['teams', 'team']].map(([table, col]) => {
        const t = document.querySelector(`table.${table}`), box = t.parentElement.getBoundingClientRect();
        const row = t.querySelector('tbody tr'), name = row.querySelector(`td[data-col=${col}]`);
        const rank = row.querySelector('td[data-col=rank]').getBoundingClientRect();
        const total = row.querySelector('td[data-col=total-score]').getBoundingClientRect();
        window.scrollTo(0, name.getBoundingClientRect().top + scrollY - 100);
        const n = name.getBoundingClientRect();
        // what is drawn at the middle of the name: the name itself, not a session passing under
        const hit = document.elementFromPoint(n.left + 4, n.top + n.height / 2);
        return {scrolled: t.parentElement.scrollLeft, box: [box.left, box.right],
          name: [n.left, n.right], rank: [rank.left, rank.right], total: [total.left, total.right],
          top: name.contains(hit)}; })"""
    )
    for table in found:
        left, right = table["box"]
        assert table["scrolled"] > 0, table
        assert left - 1 <= table["rank"][0] and table["name"][1] <= right, table
        assert table["rank"][1] <= table["name"][0] + 1, table
        assert table["total"][1] <= right + 1, table
        assert table["top"], table
    shot(page, f"results-{width}-scrolled")
    assert real(errors) == []


# -- 2. the standings on a tablet, six sessions ---------------------------------------------------


@pytest.mark.parametrize("width", [641, 700, 759, 768])
def test_the_tablet_standings_show_six_sessions_within_their_card(
    browser: Any, site: dict[str, Any], width: int
) -> None:
    """Six sessions at 641-768 px: the table ran 141-200 px past its card (its session columns 81 px
    wide for 退赛 withdrawn). It fits, every session's column in sight, a long name broken only
    between its words."""
    page, errors = open_page(browser, site["base"] + PAGE, **device(width, 1024))
    page.wait_for_selector("#individual tr[data-player]")
    found = page.evaluate(
        """(long) => { const t = document.getElementById('individual');
        const td = [...t.querySelectorAll('td.name')].find((td) => td.textContent === long);
        const words = [...long.matchAll(/\\S+/g)].map((m) => { const r = document.createRange();
          r.setStart(td.firstChild, m.index); r.setEnd(td.firstChild, m.index + m[0].length);
          return r.getClientRects().length; });
        const box = t.parentElement.getBoundingClientRect();
        const last = t.querySelector('thead th:last-child').getBoundingClientRect();
        return {table: t.scrollWidth, box: t.parentElement.clientWidth, words,
          last: [last.right, box.right], page: document.documentElement.scrollWidth,
          sessions: t.querySelectorAll('thead th.wide-only').length}; }""",
        LONG[0],
    )
    assert found["sessions"] == 6
    assert found["table"] <= found["box"], found
    assert found["last"][0] <= found["last"][1] + 0.5, found
    assert found["words"] == [1, 1], found  # Konstanti / nopoulou
    assert found["page"] <= width
    row = page.locator(f"#individual tr[data-player='{WITHDRAWN}']")
    assert row.locator("[data-mark=withdrawn]").count() == 5  # sessions 2 to 6
    assert "退赛 withdrawn" in row.locator(".unranked-why").inner_text()  # said in full
    shot(page, f"standings-{width}")
    assert real(errors) == []


# -- 3. the projector's standings from the back of the hall ---------------------------------------


def projector_pages(page: Any) -> list[str]:
    for _ in range(150):
        titles: list[str] = page.evaluate("() => PAGES.map((p) => p.title)")
        if any("名次" in t for t in titles):
            return titles
        page.wait_for_timeout(100)
    raise AssertionError("no standings page")


MEASURE = """() => ({
  rows: document.querySelectorAll('.p-standings tbody tr').length,
  names: [...document.querySelectorAll('.p-standings td.name')].map((td) => [td.firstChild.textContent,
    parseFloat(getComputedStyle(td).fontSize)]),
  time: parseFloat(getComputedStyle(document.getElementById('p-time')).fontSize),
  height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth,
})"""


def test_the_projector_standings_read_from_the_back_of_the_hall(
    browser: Any, site: dict[str, Any]
) -> None:
    """1920x1080: a page of 12 rows under the full clock was set down to 29 px a name. Now a page
    holds up to 16 rows at 42 px, the clock on one line above them, the pages even."""
    page, errors = open_page(
        browser,
        site["base"] + PAGE + "/projector?rotate=600",
        viewport={"width": 1920, "height": 1080},
    )
    titles = projector_pages(page)
    standings = [i for i, t in enumerate(titles) if "名次" in t]
    sizes = []
    for index in standings:
        page.evaluate("(i) => { PAGE = i; show(); }", index)
        found = page.evaluate(MEASURE)
        sizes.append(found["rows"])
        assert found["rows"] <= 16, found
        assert min(size for _, size in found["names"]) >= 40, found  # 28.8 px
        assert found["height"] <= 1080 and found["width"] <= 1920, found
        assert found["time"] >= 80, found  # the clock still read from the back
        shot(page, f"projector-1920-{index}")
    individual = [
        n for t, n in zip([titles[i] for i in standings], sizes, strict=True) if "个人" in t
    ]
    assert sum(individual) == len(NAMES) and max(individual) - min(individual) <= 1, individual
    # a full page: 16 rows, the longest names, the withdrawn player
    page.evaluate(
        """async (gone) => { const s = await api('GET', tApi(NAME, 'standings'));
        const rows = [...s.individual].sort((a, b) => b.name.length - a.name.length).slice(0, 15);
        rows.push(s.individual.find((r) => r.name === gone));
        PAGES = standingPages('个人名次 Individual ranking', rows, false); PAGE = 0; show(); }""",
        WITHDRAWN,
    )
    found = page.evaluate(MEASURE)
    assert found["rows"] == 16
    assert min(size for _, size in found["names"]) >= 40, found
    assert found["height"] <= 1080 and found["width"] <= 1920, found
    shot(page, "projector-1920-16")
    assert real(errors) == []


# -- what else the audit found ----------------------------------------------------------------------


@pytest.mark.parametrize("width, height, locale", PHONES[:2])
def test_the_phone_standings_show_the_points_with_the_team_under_the_name(
    browser: Any, site: dict[str, Any], width: int, height: int, locale: str
) -> None:
    """At 360 px the individual standings were 300 px in a card of 277, the team standings 301:
    the standard and match points were cut off at the card's edge, and a member's name broke
    anywhere (Konstantin / opoulou). On a phone a player's team, a team's members, stand under
    the name; the numbers are in sight."""
    page, errors = open_page(browser, site["base"] + PAGE, **device(width, height, locale))
    page.wait_for_selector("#team-table tr[data-team]")
    found = page.evaluate(
        """() => ['individual', 'team-table'].map((id) => { const t = document.getElementById(id);
        const cell = t.querySelector('tbody td.name[data-team]');
        return {id, table: t.scrollWidth, box: t.parentElement.clientWidth,
          under: getComputedStyle(cell, '::after').content,
          text: cell.innerText}; })"""
    )
    for table in found:
        assert table["table"] <= table["box"], table
        assert table["under"] not in ("none", "normal", ""), table  # the team, the members shown
    row = page.locator(f"#individual tr[data-player='{LONG[0]}']")
    assert row.locator("td.name").inner_text() == LONG[0]  # the name's own text, as before
    assert page.locator("#individual td.num.strong").first.is_visible()
    shot(page, f"standings-{width}")
    assert real(errors) == []


def test_the_standings_links_are_a_finger_high_on_touch(browser: Any, site: dict[str, Any]) -> None:
    """A score sheet's link was 24 px high and the session's list 35 px on a phone and a tablet:
    40 px at least on a touch screen."""
    for width, height in ((390, 844), (768, 1024)):
        page, errors = open_page(browser, site["base"] + PAGE, **device(width, height))
        page.wait_for_selector(".t-card a")
        heights = page.evaluate(
            """() => [...document.querySelectorAll('.t-card a, #session-select, .t-nav a')]
            .filter((e) => e.getClientRects().length)
            .map((e) => [e.textContent.trim().slice(0, 20), e.getBoundingClientRect().height])"""
        )
        assert heights and all(h >= 40 for _, h in heights), (width, heights)
        assert real(errors) == []
