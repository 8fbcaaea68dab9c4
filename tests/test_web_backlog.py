"""A table page that falls behind its socket (a slow phone, a loaded machine, a fast table of
bots) draws only the latest of the states waiting for it: it drew every state in turn, and on a
loaded CI machine a page still drew hand 10 of a table of bots when the session had ended (its
Play again never came). In headless Chromium against a real ``guobiao serve``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_server_e2e import quick_table
from test_server_restart import free_port, server


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("backlog"), port):
        yield f"http://127.0.0.1:{port}"


# Three copies of the page's latest state arrive together, as a backlog does: how many times
# the table was drawn, and whether the page holds the last of them.
BACKLOG = """async () => {
  let drawn = 0;
  const real = render;
  render = () => { drawn += 1; real(); };
  const copies = [1, 2, 3].map((n) => ({...state, marker: n}));
  try {
    for (const copy of copies) ws.onmessage({data: JSON.stringify(copy)});
    await new Promise((done) => setTimeout(done, 100));
  } finally {
    render = real;
  }
  return {drawn, marker: state.marker};
}"""


def test_a_page_behind_its_socket_draws_only_the_latest_state(browser: Any, base_url: str) -> None:
    page, errors = quick_table(browser, base_url)
    seen = page.evaluate(BACKLOG)
    assert seen == {"drawn": 1, "marker": 3}
    # the one drawn is the state itself: our hand's tiles (the drawn one among them) as sent
    tiles = page.evaluate("() => document.querySelectorAll('#hand button.tile').length")
    assert tiles == len(page.evaluate("() => state.view.hand")) == 14
    assert errors == []
    page.context.close()
