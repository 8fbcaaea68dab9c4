"""The pages in a real browser (Playwright driving Debian's Chromium, headless) against a real
``guobiao serve``: the lobby, a table against three bots played by clicking, the language and hint
toggles, a phone-sized screen. Chromium is Debian's (scripts/chromium.sh installs it for the test
run); without it these tests fail under CI and are skipped in a plain local ``pytest``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from test_server_restart import free_port, server

CHROMIUM = os.environ.get("GUOBIAO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):  # under CI a missing browser is a failure, never a skip
        raise RuntimeError(f"no Chromium at {CHROMIUM}: scripts/chromium.sh installs it")
    pytest.skip("no Chromium (scripts/chromium.sh installs it)", allow_module_level=True)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("web"), port, between_hands=600):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def open_page(browser: Any, url: str, **context: Any) -> tuple[Any, list[str]]:
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(15_000)
    page.goto(url)
    return page, errors


def quick_table(browser: Any, base_url: str, **context: Any) -> tuple[Any, list[str]]:
    page, errors = open_page(browser, f"{base_url}/?lang=en", **context)
    page.fill("input[name=player]", "Zoe")
    page.click("button[value=quick]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#hand button.tile:not([disabled])")
    return page, errors


def test_play_a_hand_by_clicking(browser: Any, base_url: str) -> None:
    page, errors = quick_table(browser, base_url)
    assert page.locator("#hand .tile").count() == 14  # the dealer's 14 (flowers replaced)
    assert "D" in page.locator("#pos-0 .dealer").inner_text()
    page.locator("#hand button.tile:not([disabled])").last.click()
    # our discard is in our pool, or in the melds of a bot that claimed it at once
    page.wait_for_function(
        "document.querySelectorAll('#pos-0 .discards .tile, .melds .tile').length >= 1"
    )
    # play on, clicking: win when offered, else pass on claims, else discard the drawn tile
    for _ in range(400):
        if page.locator("#overlay:not([hidden])").count():
            break
        buttons = page.locator("#actions button")
        tiles = page.locator("#hand button.tile:not([disabled])")
        try:
            if page.locator("#actions .act-win").count():
                page.locator("#actions .act-win").first.click(timeout=2000)
            elif page.locator("#actions .act-pass").count():
                page.locator("#actions .act-pass").first.click(timeout=2000)
            elif tiles.count():
                tiles.last.click(timeout=2000)
            elif buttons.count() == 0:
                page.wait_for_timeout(50)
        except sync_api.Error:
            continue  # the table moved on under the click: look again
    overlay = page.locator("#overlay:not([hidden])")
    assert overlay.count() == 1, "the hand did not end"
    text = overlay.inner_text()
    assert "Hand over" in text
    assert "Draw" in text or "pts" in text  # a draw, or a win with its fan breakdown
    assert errors == []


def test_language_hints_and_labels(browser: Any, base_url: str) -> None:
    page, errors = quick_table(browser, base_url)
    assert page.locator("a.home").inner_text() == "Lobby"
    page.click("#lang")
    assert page.locator("a.home").inner_text() == "大厅"
    page.wait_for_function("document.querySelector('#countdown').innerText.includes('轮到你')")
    assert page.locator("#hints").is_hidden()
    page.check("#hints-on")
    assert "向听" in page.locator("#hints").inner_text()
    page.click("#lang")
    assert "Shanten" in page.locator("#hints").inner_text()
    assert errors == []


def test_a_phone_sized_screen(browser: Any, base_url: str) -> None:
    page, errors = quick_table(
        browser, base_url, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing scrolls sideways"
    box = page.locator("#hand").bounding_box()
    first = page.locator("#hand .tile").first.bounding_box()
    last = page.locator("#hand .tile").last.bounding_box()
    assert box is not None and first is not None and last is not None
    assert last["x"] + last["width"] <= 390
    assert abs(first["y"] - last["y"]) < first["height"] * 2.5  # two rows at most
    assert errors == []


def test_private_room_invite_and_waiting_room(browser: Any, base_url: str) -> None:
    page, errors = open_page(browser, f"{base_url}/?lang=en")
    page.fill("input[name=player]", "Host")
    page.check("input[name=private]")
    page.click("button[value=wait]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#waiting:not([hidden])")
    link = page.locator("#share-link").input_value()
    assert "?invite=" in link
    guest, guest_errors = open_page(browser, link)
    guest.wait_for_selector("#join-form:not([hidden])")
    guest.fill("#join-name", "Guest")
    guest.click("#join-btn")
    page.wait_for_function("document.querySelector('#wait-places').innerText.includes('Guest')")
    page.click("#start")  # the host fills the other places with bots and starts
    guest.wait_for_selector("#table:not([hidden])")
    page.wait_for_selector("#table:not([hidden])")
    assert guest.locator("#pos-0 .name").inner_text().startswith("Guest")
    assert errors == [] and guest_errors == []
