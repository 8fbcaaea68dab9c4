"""Leftovers of the sixth audit, in headless Chromium against a real ``guobiao serve --db``:

- the referee page marks a forfeit (弃权) on the seat played for the player, as the standings do;
- the projector keeps six tables of very long names within a 1280x720 screen;
- the standings show "退赛 withdrawn" for the sessions after a player withdrew, not a blank.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from guobiao.tournament.store import open_store
from test_organiser_audit5 import ok, write_players
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real, wait_js
from test_tournament_audit2_forfeit_standings import _open

LAPTOP = {"viewport": {"width": 1280, "height": 720}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LONG = "Maximilianalexandrovakonstantinopoulouvanderbilt"  # 48 letters, one word


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("audit6")
    url = f"sqlite:///{data / 'open.db'}"
    # "club": A forfeits session 2, S plays the seat (tests/test_tournament_audit2_forfeit_...)
    store = _open(url, 2, "ABCDS")
    store.record_session_totals("club", 1, 1, {"A": 620, "B": 480, "C": 510, "D": 390})
    store.substitute("club", 2, "A", "S", who="referee", forfeit=True, note="20 min late")
    store.record_session_totals("club", 2, 1, {"S": 530, "B": 500, "C": 490, "D": 480})
    store.close()
    found = re.search(r"password (\S+)", ok(url, "referee", "club", "--add", "li"))
    assert found
    # "Long": 24 players of very long names, six tables
    names = [
        f"{LONG[: 40 + i % 8]}{i:02d}"
        if i % 2
        else f"Anna-Maria Konstantinopoulou Vanderbilt {i:02d}"
        for i in range(24)
    ]
    ok(url, "create", "Long", "--sessions", "1")
    ok(
        url,
        "players",
        "Long",
        str(write_players(data / "long.csv", [f"{i + 1},{n}," for i, n in enumerate(names)])),
    )
    ok(url, "draw", "Long")
    # "Gone": A leaves after session 1
    ok(url, "create", "Gone", "--sessions", "3")
    ok(
        url,
        "players",
        "Gone",
        str(write_players(data / "gone.csv", [f"{i + 1},{n}," for i, n in enumerate("ABCDEFGH")])),
    )
    ok(url, "draw", "Gone", "--seed", "1")
    store = open_store(url)
    try:
        for table in store.seatings("Gone")[0].tables:
            scores = dict(zip(table.seats, (620, 480, 510, 390), strict=True))
            store.record_session_totals("Gone", 1, table.number, scores)
    finally:
        store.close()
    ok(url, "withdraw", "Gone", "A", "--from-session", "2", "--who", "ref")
    port = free_port()
    with server(data, port, db=url) as proc:
        yield {"url": url, "base": f"http://127.0.0.1:{port}", "password": found[1], "proc": proc}


def test_the_referee_page_marks_a_forfeit(browser: Any, site: dict[str, Any]) -> None:
    page, errors = open_page(browser, f"{site['base']}/t/club/referee", **PHONE)
    page.wait_for_selector("#login-card:not([hidden])")
    page.fill("input[name=username]", "li")
    page.fill("input[name=password]", site["password"])
    page.click("#login button[type=submit]")
    page.wait_for_selector("#entry-card:not([hidden])")
    wait_js(page, "document.querySelectorAll('#session option').length === 2")
    page.select_option("#session", "2")
    wait_js(page, "document.querySelectorAll('#entry-rows input.score').length === 4")
    page.wait_for_selector("#entry-rows .forfeit")
    marks = page.locator("#entry-rows .forfeit").all_inner_texts()
    assert marks == ["A 弃权 forfeit"]
    # the mark is on S's seat, who plays for A
    assert "S" in page.locator("#entry-rows tr:has(input[name=score-E])").inner_text()
    page.select_option("#session", "1")
    wait_js(page, "document.querySelectorAll('#entry-rows .forfeit').length === 0")
    assert real(errors) == []


def test_the_projector_keeps_six_long_tables_on_the_screen(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, f"{site['base']}/t/Long/projector", **LAPTOP)
    wait_js(page, "document.querySelectorAll('.p-table').length === 6")
    sizes = page.evaluate(
        """(() => {
             const root = document.documentElement;
             const boxes = [...document.querySelectorAll('.p-table, .p-seats li')].map((e) => e.getBoundingClientRect());
             return {width: root.scrollWidth, height: root.scrollHeight,
                     right: Math.max(...boxes.map((b) => b.right)), bottom: Math.max(...boxes.map((b) => b.bottom))};
           })()"""
    )
    assert sizes["width"] <= 1280 and sizes["right"] <= 1280, sizes
    assert sizes["height"] <= 720 and sizes["bottom"] <= 720, sizes
    # every name is shown whole (wrapped or smaller, never cut off)
    text = page.locator(".p-tables").inner_text()
    assert text.count("Anna-Maria") == 12
    assert errors == []


def test_the_standings_say_withdrawn_for_the_sessions_after(
    browser: Any, site: dict[str, Any]
) -> None:
    page, errors = open_page(browser, f"{site['base']}/t/Gone", **LAPTOP)
    page.wait_for_selector("#individual tr[data-player='A']")
    row = page.locator("#individual tr[data-player='A']")
    assert row.locator("td[data-session='1']").inner_text().strip() in ("4", "2", "1", "0")
    for session in ("2", "3"):
        assert row.locator(f"td[data-session='{session}']").inner_text().strip() == "退赛 withdrawn"
    # a player still in, with a bye or a session not yet entered: blank as before
    others = page.locator(
        "#individual tr[data-player]:not([data-player='A']) td[data-session='2']"
    ).all_inner_texts()
    assert "退赛 withdrawn" not in " ".join(others)
    assert errors == []
