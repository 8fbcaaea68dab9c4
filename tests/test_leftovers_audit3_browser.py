"""The public standings page (tournament.html) in headless Chromium against a real ``guobiao serve
--db``, on a club of four where A forfeits session 2 (弃权, more than 15 minutes late, 局分 0,
第十三条二(一)) and S plays the seat (陪打): the seating card marks the forfeit, in 中文 and English,
and the standings' session columns give each session's points in its own column with the forfeit
marked (they listed the ranking's points, highest first, under 第1局, 第2局 ...).

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``audit3-*.png``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import PlayerRow, open_store
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import wait_js

T = "club"
SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 720}}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Session 1: A 620, B 480, C 510, D 390 (standard points A 4, C 2, B 1, D 0). Session 2: A
    forfeits, S plays the seat: S 530, B 500, C 490, D 480 (B 4, C 2, D 1, A 0)."""
    data = tmp_path_factory.mktemp("audit3")
    url = f"sqlite:///{data / 't.db'}"
    store = open_store(url)
    try:
        store.create_tournament(T, sessions=2)
        store.add_players(T, [PlayerRow(n, name) for n, name in enumerate("ABCDS", 1)])
        seating = tuple(SessionSeating(s, (Table(1, ("A", "B", "C", "D")),)) for s in (1, 2))
        store.save_schedule(T, Schedule(("A", "B", "C", "D"), seating, "manual"))
        store.record_session_totals(T, 1, 1, {"A": 620, "B": 480, "C": 510, "D": 390})
        store.substitute(T, 2, "A", "S", who="referee", forfeit=True, note="20 min late")
        store.record_session_totals(T, 2, 1, {"S": 530, "B": 500, "C": 490, "D": 480})
    finally:
        store.close()
    port = free_port()
    with server(data, port, db=url):
        yield f"http://127.0.0.1:{port}/t/{T}"


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"audit3-{name}.png"), full_page=True)


def session_cells(page: Any, player: str) -> list[str]:
    return list(
        page.evaluate(
            f"""[...document.querySelectorAll('#individual tr[data-player="{player}"] td')]
                 .slice(5).map((td) => td.innerText.trim())"""
        )
    )


@pytest.mark.parametrize("device", [PHONE, LAPTOP], ids=["390x844", "1280x720"])
def test_the_card_marks_the_forfeit(browser: Any, site: str, device: dict[str, Any]) -> None:
    page, errors = open_page(browser, site, **device)
    page.wait_for_selector(".t-card[data-table='1'] .stand-in")
    wait_js(page, "document.querySelector('.t-card .forfeit') !== null")
    card = page.locator(".t-card[data-table='1']")
    mark = card.locator(".forfeit")
    assert mark.count() == 1
    assert mark.inner_text() == "A 弃权 forfeit"  # 中文 and English, naming who forfeited
    assert "局分" in (mark.get_attribute("title") or "")
    row = mark.evaluate("(m) => m.closest('tr').innerText")
    assert "S" in row and "陪打 substitute" in row and "530" in row  # on the seat S played
    assert mark.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, "standings-forfeit-" + ("phone" if device is PHONE else "laptop"))
    # session 1: nobody forfeited
    page.select_option("#session-select", "1")
    wait_js(page, "!document.querySelector('.t-card .stand-in')")
    assert page.locator(".t-card .forfeit").count() == 0
    assert errors == []


def test_the_standings_give_each_session_in_its_column(browser: Any, site: str) -> None:
    page, errors = open_page(browser, site, **LAPTOP)
    wait_js(page, "document.querySelector('#individual .forfeit') !== null")
    # B: 1 in session 1, 4 in session 2 (the ranking's list, highest first, read 4 then 1)
    assert session_cells(page, "B") == ["1", "4"]
    assert session_cells(page, "C") == ["2", "2"]
    assert session_cells(page, "A") == ["4", "0 弃权 forfeit"]
    assert page.locator("#individual .forfeit").count() == 1
    assert errors == []


def test_the_standings_json_gives_each_session_in_its_place_with_the_forfeit(site: str) -> None:
    import json
    import urllib.request

    api = site.replace("/t/", "/api/t/") + "/standings"
    with urllib.request.urlopen(api, timeout=30) as answer:
        rows = {r["name"]: r for r in json.load(answer)["individual"]}
    # the ranking's list stays highest first (第十一条三); by_session is by session number
    assert rows["B"]["sessions"] == ["4", "1"]
    assert rows["B"]["by_session"] == {
        "1": {"score": 480, "standard": "1", "forfeit": False, "bye": False},
        "2": {"score": 500, "standard": "4", "forfeit": False, "bye": False},
    }
    assert rows["A"]["by_session"]["1"] == {
        "score": 620,
        "standard": "4",
        "forfeit": False,
        "bye": False,
    }
    assert rows["A"]["by_session"]["2"]["forfeit"] is True
    assert rows["A"]["by_session"]["2"]["standard"] == "0"
    assert not any(line["forfeit"] for line in rows["S"]["by_session"].values())


CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let bg = null;
  for (let n = el; n && !bg; n = n.parentElement) {
    const c = getComputedStyle(n).backgroundColor;
    if (c && !c.endsWith(", 0)") && c !== "transparent") bg = c;
  }
  const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(bg))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("device", [PHONE, LAPTOP], ids=["390x844", "1280x720"])
def test_the_progress_line_on_the_felt_is_readable(
    browser: Any, site: str, device: dict[str, Any]
) -> None:
    page, errors = open_page(browser, site, **device)
    wait_js(page, "document.getElementById('t-status').textContent.length > 0")
    status = page.locator("#t-status")
    assert "sessions complete" in status.inner_text()
    # WCAG AA for normal text: 4.5:1 (grey #6b7a70 on the green felt was 1.9:1)
    assert status.evaluate(CONTRAST) >= 4.5
    assert not errors


def test_the_standings_links_take_a_finger_on_a_phone(browser: Any, site: str) -> None:
    page, errors = open_page(browser, site, **PHONE)
    page.wait_for_selector(".t-nav a")
    small = page.evaluate(
        """() => [...document.querySelectorAll('.t-nav a')].filter((a) => a.offsetParent)
               .map((a) => [a.innerText, a.getBoundingClientRect().height])
               .filter(([, h]) => h < 44)"""
    )
    assert small == [], small  # each at least 44 px high (the text alone was about 20)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert not errors
