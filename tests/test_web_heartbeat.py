"""A table page whose socket goes dead without closing (a phone that changed networks or slept)
finds out by its heartbeat and opens a new socket: it pinged nobody before, and sat showing a
table that the server went on playing by its clock until the browser's own TCP time-out (many
minutes on a phone). In headless Chromium against a real ``guobiao serve``, the socket routed
through the test (Playwright's ``route_web_socket``) so that it can be made to swallow
everything, and the page's clock driven by Playwright's fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_server_e2e import open_page
from test_server_restart import free_port, server


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("heartbeat"), port):
        yield f"http://127.0.0.1:{port}"


class Sockets:
    """The page's table sockets, forwarded to the server until ``dead`` (then both ways are
    swallowed, as a network that went away does)."""

    def __init__(self) -> None:
        self.opened = 0
        self.pings = 0
        self.pongs = 0
        self.dead = False

    def route(self, ws: Any) -> None:
        self.opened += 1
        upstream = ws.connect_to_server()
        this = self.opened

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str) and '"ping"' in message:
                self.pings += 1
            if not (self.dead and this == 1):
                upstream.send(message)

        def to_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"pong"' in message:
                self.pongs += 1
            if not (self.dead and this == 1):
                ws.send(message)

        ws.on_message(to_server)
        upstream.on_message(to_page)


def test_a_dead_socket_is_found_by_its_heartbeat_and_replaced(browser: Any, base_url: str) -> None:
    page, errors = open_page(browser, f"{base_url}/?lang=en")
    sockets = Sockets()
    page.route_web_socket("**/ws/rooms/**", sockets.route)
    page.clock.install()
    page.fill("input[name=player]", "Zoe")
    page.click("button[value=quick]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#hand button.tile:not([disabled])")
    assert sockets.opened == 1

    # a live socket: pinged, answered, kept
    page.clock.run_for(21_000)
    page.wait_for_timeout(300)
    assert sockets.pings >= 1
    assert sockets.pongs >= 1
    page.clock.run_for(10_000)
    page.wait_for_timeout(300)
    assert sockets.opened == 1

    # the network goes away: nothing goes through, and the socket does not close
    sockets.dead = True
    pings = sockets.pings
    page.clock.run_for(21_000)
    page.wait_for_timeout(300)
    assert sockets.pings > pings
    page.clock.run_for(9_000)  # no answer within the wait: given up, a new socket in 0.5 s
    page.wait_for_timeout(300)
    page.clock.run_for(1_000)
    deadline = 50
    while sockets.opened < 2 and deadline:
        page.clock.run_for(500)
        page.wait_for_timeout(100)
        deadline -= 1
    assert sockets.opened == 2
    # the new socket brings the table back: the hand to play, no notice over it
    page.wait_for_selector("#hand button.tile:not([disabled])")
    page.clock.run_for(2_000)
    page.wait_for_timeout(300)
    assert page.locator("#offline").is_hidden()
    assert page.evaluate("() => ws.readyState") == 1
    assert errors == []
    page.context.close()
