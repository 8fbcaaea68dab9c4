"""The head referee's audit of the referee page in headless Chromium against a real ``guobiao
serve --db`` (a 32-player event, 8 tables; tests/test_referee_audit.py): two referees at one
table (the second is told, never silently written over), a double press on a slow network, an
answer lost on a flaky one, a login that ends mid-entry, negative 局分 on a phone's number pad
(±) and full-width digits, the tables still missing as buttons, a typed entry that survives
choosing another table and a reload, a second login on the same phone, and the page at
360x640, 390x844 and 768x1024 with nothing wider than the screen.

With ``GUOBIAO_SCREENSHOTS=DIR`` the screenshots are saved there (``referee-audit-*.png``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from guobiao.cli import main  # noqa: F401 (the server runs the same package)
from guobiao.tournament.store import open_store
from test_referee_audit import T, event, store_seats
from test_server_e2e import open_page
from test_server_restart import free_port, server
from test_server_tournament_e2e import real, wait_js

SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SMALL = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, Any]]:
    found = event(tmp_path)
    port = free_port()
    with server(tmp_path, port, db=found["url"]):
        yield {**found, "base": f"http://127.0.0.1:{port}"}


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"referee-audit-{name}.png"), full_page=True)


def held(site: dict[str, Any], table: int) -> list[int] | None:
    """Session 1's 局分 of ``table``, E S W N, as the database holds them."""
    store = open_store(site["url"])
    try:
        scores = store.table_scores(T, 1, table)
        return None if scores is None else [scores[n] for _, n in store_seats(store, table)]
    finally:
        store.close()


def trail(site: dict[str, Any]) -> list[tuple[str, int | None, bool]]:
    store = open_store(site["url"])
    try:
        return [(a.who, a.table, bool(a.old)) for a in store.audit_trail(T)]
    finally:
        store.close()


def open_referee(browser: Any, site: dict[str, Any], context: dict[str, Any] = PHONE) -> Any:
    page, errors = open_page(browser, f"{site['base']}/t/{quote(T)}/referee", **context)
    page.errors = errors
    return page


def log_in(page: Any, site: dict[str, Any], user: str = "li") -> None:
    page.wait_for_selector("#login-card:not([hidden])")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", site[user])
    page.click("#login button[type=submit]")
    page.wait_for_selector("#entry-card:not([hidden])")
    wait_js(page, "document.querySelectorAll('#table option').length === 8")


def referee(browser: Any, site: dict[str, Any], user: str = "li", **context: Any) -> Any:
    page = open_referee(browser, site, context or PHONE)
    log_in(page, site, user)
    return page


def choose(page: Any, table: int) -> None:
    page.select_option("#table", str(table))
    wait_js(page, "document.querySelectorAll('#entry-rows input.score').length === 4")


def type_scores(page: Any, scores: tuple[int | str, ...]) -> None:
    for wind, value in zip("ESWN", scores, strict=True):
        page.fill(f"input[name=score-{wind}]", str(value))


def values(page: Any) -> list[str]:
    return list(page.evaluate("[...document.querySelectorAll('input.score')].map((i) => i.value)"))


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).inner_text())


def test_two_referees_at_one_table_the_second_is_told_not_written_over(
    browser: Any, site: dict[str, Any]
) -> None:
    li = referee(browser, site, "li")
    wang = referee(browser, site, "wang")
    for page in (li, wang):
        choose(page, 3)
    # both type the sheet of table 3; wang misreads one number; li saves first
    type_scores(li, (620, 480, 510, 390))
    type_scores(wang, (620, 480, 501, 399))
    li.click("#save")
    wait_js(li, "document.querySelector('#entry-ok').innerText.includes('table 3')")
    assert held(site, 3) == [620, 480, 510, 390]
    # wang presses Save: told that table 3 was entered meanwhile, shown li's numbers against
    # their own, nothing written; what wang typed is still in the form
    wang.click("#save")
    wait_js(wang, "document.querySelector('#entry-confirm').innerText.includes('meanwhile')")
    confirm = text(wang, "#entry-confirm")
    assert "510 → 501" in confirm and "390 → 399" in confirm
    assert held(site, 3) == [620, 480, 510, 390]
    assert values(wang) == ["620", "480", "501", "399"]
    shot(wang, "conflict-390")
    # li corrects the table meanwhile (two presses); wang's press now would be against li's
    # first entry: refused again, with the corrected numbers shown
    type_scores(li, ("", "", "", ""))
    choose(li, 3)
    type_scores(li, (600, 480, 510, 410))
    li.click("#save")
    wait_js(li, "document.querySelector('#entry-confirm').innerText.includes('620 → 600')")
    li.click("#save")
    wait_js(li, "document.querySelector('#entry-ok').innerText.includes('corrected')")
    assert held(site, 3) == [600, 480, 510, 410]
    wang.click("#save")
    wait_js(wang, "document.querySelector('#entry-confirm').innerText.includes('600 → 620')")
    assert held(site, 3) == [600, 480, 510, 410]
    assert "meanwhile" in text(wang, "#entry-confirm")
    # having looked, wang confirms: a correction over li's, in the audit trail under wang
    wang.click("#save")
    wait_js(wang, "document.querySelector('#entry-ok').innerText.includes('corrected')")
    assert held(site, 3) == [620, 480, 501, 399]
    assert trail(site) == [("li", 3, False), ("li", 3, True), ("wang", 3, True)]
    assert real(li.errors) == [] and [e for e in real(wang.errors) if "409" not in e] == []


def test_a_double_press_on_a_slow_network_saves_once_and_says_saved(
    browser: Any, site: dict[str, Any]
) -> None:
    page = referee(browser, site)
    choose(page, 2)
    type_scores(page, (560, 440, 500, 500))
    posts: list[str] = []

    def slow(route: Any) -> None:
        posts.append(route.request.url)
        page.wait_for_timeout(1500)  # the hall's Wi-Fi
        route.continue_()

    page.route("**/results", slow)
    # the referee taps Save, sees nothing happen, taps again (and Enter in a field)
    page.evaluate(
        "document.querySelector('#save').click(); document.querySelector('#save').click()"
    )
    page.evaluate(
        "document.querySelector('#entry').dispatchEvent(new Event('submit', {cancelable: true}))"
    )
    assert page.locator("#save").is_disabled()
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 2')")
    page.wait_for_timeout(2000)  # any second request would have been answered by now
    assert len(posts) == 1
    assert text(page, "#entry-error") == ""
    assert held(site, 2) == [560, 440, 500, 500]
    assert trail(site) == [("li", 2, False)]


def test_a_lost_answer_is_retried_without_an_error_or_a_second_entry(
    browser: Any, site: dict[str, Any]
) -> None:
    page = referee(browser, site)
    choose(page, 4)
    type_scores(page, (700, 400, 450, 450))

    def lost(route: Any) -> None:  # the save reaches the server; its answer never comes back
        route.fetch()
        route.abort("connectionreset")

    page.route("**/results", lost)
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 4')"
            " || document.querySelector('#entry-error').innerText !== ''")  # fmt: skip
    page.unroute("**/results")
    # the entry did arrive: the page finds it on the server and says it is saved
    assert held(site, 4) == [700, 400, 450, 450]
    if text(page, "#entry-ok") == "":  # (a page that could not tell: the referee retries)
        page.click("#save")
        wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 4')"
                " || document.querySelector('#entry-error').innerText.includes('Refused')")  # fmt: skip
    assert "table 4" in text(page, "#entry-ok")
    assert text(page, "#entry-error") == ""
    assert trail(site) == [("li", 4, False)]
    # a connection that fails before the server heard anything: said so, the entry kept
    choose(page, 5)
    type_scores(page, (530, 470, 500, 500))
    page.route("**/results", lambda route: route.abort("internetdisconnected"))
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-error').innerText !== ''")
    assert "kept" in text(page, "#entry-error") and "Failed to fetch" not in text(
        page, "#entry-error"
    )
    assert values(page) == ["530", "470", "500", "500"] and held(site, 5) is None
    page.unroute("**/results")
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 5')")
    assert held(site, 5) == [530, 470, 500, 500]


def test_a_login_that_ends_mid_entry_says_so_and_keeps_the_numbers(
    browser: Any, site: dict[str, Any]
) -> None:
    page = referee(browser, site)
    choose(page, 6)
    type_scores(page, (610, 390, 500, 500))
    page.context.clear_cookies()  # the login expired (or was reset) while the referee typed
    page.click("#save")
    page.wait_for_selector("#login-card:not([hidden])")
    # the login form says why it is back and that nothing typed is lost
    assert "log in again" in text(page, "#login-error").lower()
    assert held(site, 6) is None
    log_in(page, site)
    assert page.input_value("#table") == "6"
    assert values(page) == ["610", "390", "500", "500"]
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 6')")
    assert held(site, 6) == [610, 390, 500, 500]


def test_a_second_login_on_the_same_phone_does_not_break_the_first_tab(
    browser: Any, site: dict[str, Any]
) -> None:
    page = referee(browser, site)
    # the referee opened the page again in another tab and logged in there: a new session
    other = page.context.new_page()
    other.goto(f"{site['base']}/t/{quote(T)}/referee")
    other.evaluate("fetch('/api/t/" + quote(T) + "/logout', {method: 'POST'})")
    other.context.clear_cookies()
    other.reload()
    log_in(other, site)
    choose(page, 7)
    type_scores(page, (500, 500, 520, 480))
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 7')"
            " || document.querySelector('#entry-error').innerText !== ''")  # fmt: skip
    assert text(page, "#entry-error") == ""
    assert held(site, 7) == [500, 500, 520, 480]


def test_negative_scores_on_a_number_pad_and_full_width_digits(
    browser: Any, site: dict[str, Any]
) -> None:
    page = referee(browser, site)
    choose(page, 8)
    # a phone's number pad has no minus: ± before each score turns 40 into -40
    type_scores(page, ("1210", "380", "450", "40"))
    page.click("button.sign[data-wind=N]")
    assert page.input_value("input[name=score-N]") == "-40"
    page.click("button.sign[data-wind=N]")
    assert page.input_value("input[name=score-N]") == "40"
    page.click("button.sign[data-wind=N]")
    # a Chinese keyboard's full-width digits and minus are numbers too
    page.fill("input[name=score-S]", "３８０")
    page.fill("input[name=score-W]", "４５０")
    assert text(page, "#sum-state") == "✓"
    assert page.locator("#save").is_enabled()
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 8')")
    assert held(site, 8) == [1210, 380, 450, -40]


def test_a_number_with_a_space_the_page_accepts_is_saved_not_silently_blocked(
    browser: Any, site: dict[str, Any]
) -> None:
    # a number pasted from a message or typed with a space: the page reads it (the sum is ✓,
    # Save enabled), so the browser's own pattern check must not then refuse the press unseen
    page = referee(browser, site)
    choose(page, 1)
    type_scores(page, ("620 ", " 480", "510", "390"))
    assert text(page, "#sum-state") == "✓" and page.locator("#save").is_enabled()
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 1')", 8)
    assert held(site, 1) == [620, 480, 510, 390]


def test_the_tables_still_missing_are_listed_and_picked_with_one_tap(
    browser: Any, site: dict[str, Any]
) -> None:
    page = referee(browser, site)
    missing = "#missing button.table-pick"
    assert page.locator(missing).all_inner_texts() == [str(n) for n in range(1, 9)]
    assert "8/8" in text(page, "#missing")
    page.click(f"{missing}[data-table='5']")
    wait_js(page, "document.querySelector('#table').value === '5'")
    type_scores(page, (620, 480, 510, 390))
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 5')")
    wait_js(page, f"document.querySelectorAll('{missing}').length === 7")
    assert "5" not in page.locator(missing).all_inner_texts()
    assert "7/8" in text(page, "#missing")
    # another referee's entries come in live: the list follows without a reload
    other = referee(browser, site, "wang")
    for table in (1, 2, 3, 4, 6, 7, 8):
        # the page moved on to the next table still missing by itself
        wait_js(other, f"document.querySelector('#table').value === '{table}'")
        choose(other, table)
        type_scores(other, (620, 480, 510, 390))
        other.click("#save")
        wait_js(other, f"document.querySelector('#entry-ok').innerText.includes('table {table}')")
    wait_js(page, "document.querySelector('#missing').innerText.includes('All 8 tables entered')")
    assert page.locator(missing).count() == 0


def test_another_tables_entry_leaves_the_field_just_tapped_as_it_is(
    browser: Any, site: dict[str, Any]
) -> None:
    # a referee taps table 3's first score (the phone's keyboard opens), and before a key is
    # pressed another referee saves table 6: the live update must not draw the form again (the
    # field would lose its focus and the keys typed next would go nowhere)
    page = referee(browser, site)
    choose(page, 3)
    page.focus("input[name=score-E]")
    page.evaluate("document.querySelector('input[name=score-E]').dataset.tapped = 'yes'")
    other = referee(browser, site, "wang")
    choose(other, 6)
    type_scores(other, (620, 480, 510, 390))
    other.click("#save")
    wait_js(other, "document.querySelector('#entry-ok').innerText.includes('table 6')")
    wait_js(page, "document.querySelector('#missing').innerText.includes('7/8')")
    assert page.evaluate("document.activeElement.dataset.tapped") == "yes"
    page.keyboard.type("620")
    assert values(page) == ["620", "", "", ""]
    assert page.input_value("#table") == "3"


def test_what_was_typed_survives_another_table_and_a_reload(
    browser: Any, site: dict[str, Any]
) -> None:
    page = referee(browser, site)
    choose(page, 2)
    type_scores(page, (620, 480, 510, ""))
    page.fill("#note", "E signed late")
    choose(page, 3)  # the referee looks at another table's sheet
    assert values(page) == ["", "", "", ""] and page.input_value("#note") == ""
    choose(page, 2)
    assert values(page) == ["620", "480", "510", ""]
    assert page.input_value("#note") == "E signed late"
    page.reload()  # the phone dropped the tab
    page.wait_for_selector("#entry-card:not([hidden])")
    wait_js(page, "document.querySelectorAll('#table option').length === 8")
    choose(page, 2)
    assert values(page) == ["620", "480", "510", ""]
    page.fill("input[name=score-N]", "390")
    page.click("#save")
    wait_js(page, "document.querySelector('#entry-ok').innerText.includes('table 2')")
    assert held(site, 2) == [620, 480, 510, 390]
    wait_js(page, "document.querySelector('#table').value === '1'")  # on to the next one
    choose(page, 2)  # saved: no draft comes back over the entered table
    print(
        "DBG",
        page.evaluate(
            "JSON.stringify([TABLES.find((t) => t.table === 2), localStorage.getItem(DRAFTS_KEY), DIRTY])"
        ),
    )
    assert values(page) == ["620", "480", "510", "390"] and page.input_value("#note") == ""


@pytest.mark.parametrize(("name", "context"), [("360", SMALL), ("390", PHONE), ("768", TABLET)])
def test_the_page_fits_phones_and_a_tablet(
    browser: Any, site: dict[str, Any], name: str, context: dict[str, Any]
) -> None:
    page = referee(browser, site, **context)
    choose(page, 1)
    type_scores(page, ("-1250", "1480", "1010", "760"))
    page.fill("input[name=deduction-E]", "10")
    assert page.locator("#entry-rows button.sign").count() == 4  # ± by each score
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = page.evaluate(
        """[...document.querySelectorAll(`#entry-rows input, #entry-rows button.sign, #save,
             #missing button`)].map((e) => {
               const r = e.getBoundingClientRect();
               return {name: e.name || e.textContent, left: r.left, right: r.right, height: r.height};
             })"""
    )
    assert boxes and all(b["left"] >= 0 and b["right"] <= width for b in boxes), boxes
    assert all(b["height"] >= 36 for b in boxes), boxes  # a finger's tap
    # the whole score is visible in its box (-1250 not cut off), and the name column is usable
    cut = page.evaluate(
        "[...document.querySelectorAll('input.score, input.deduction')]"
        ".filter((i) => i.scrollWidth > i.clientWidth).map((i) => [i.name, i.scrollWidth, i.clientWidth])"
    )
    assert cut == []
    assert (
        page.evaluate(
            "Math.min(...[...document.querySelectorAll('#entry-rows td.name')].map((t) => t.clientWidth))"
        )
        >= 60
    )
    shot(page, f"entry-{name}")
    assert real(page.errors) == []
