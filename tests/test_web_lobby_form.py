"""The lobby's Create form: its fields stand in one column whatever their labels' lengths (the
name field began at 119 px and the table name at 126 on a phone), inside the card, tall enough
to tap. In headless Chromium against a real ``guobiao serve``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_server_e2e import open_page
from test_server_restart import free_port, server


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    with server(tmp_path_factory.mktemp("lobby_form"), port):
        yield f"http://127.0.0.1:{port}"


FIELDS = """() => {
  const card = document.querySelector('#create').closest('.card').getBoundingClientRect();
  const boxes = [...document.querySelectorAll(
    '#create input:not([type=checkbox]), #create select')].map((e) => e.getBoundingClientRect());
  return {card: [card.left, card.right],
          fields: boxes.map((b) => [Math.round(b.left), Math.round(b.right), b.height])};
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(360, 640), (390, 844), (1366, 768)])
def test_the_create_forms_fields_stand_in_one_column(
    browser: Any, base_url: str, lang: str, size: tuple[int, int]
) -> None:
    page, errors = open_page(
        browser, f"{base_url}/?lang={lang}", viewport={"width": size[0], "height": size[1]}
    )
    seen = page.evaluate(FIELDS)
    fields = seen["fields"]
    assert len(fields) == 3
    assert len({left for left, _, _ in fields}) == 1, fields
    assert len({right for _, right, _ in fields}) == 1, fields
    left, right = seen["card"]
    assert all(left < a and b < right for a, b, _ in fields), seen
    assert all(height >= 44 for _, _, height in fields), fields
    assert errors == []
    page.context.close()
