"""The tile pictures (static/tiles/*.svg, drawn by scripts/make_tiles.py): one per tile and a back,
self-contained SVG (no text, no font, no outside reference), exactly what the script draws, served
by ``guobiao serve`` and drawn by common.js's ``tile()`` in headless Chromium at phone size, with
the Latin index in English. ``GUOBIAO_SCREENSHOTS=docs`` also saves docs/screenshot-tiles.png, a
contact sheet of every tile 40 and 80 pixels wide."""

from __future__ import annotations

import importlib.util
import os
import shutil
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from guobiao.core.tiles import TILES

ROOT = Path(__file__).resolve().parents[1]
TILE_DIR = ROOT / "src" / "guobiao" / "server" / "static" / "tiles"
NAMES = [str(t) for t in TILES] + ["back"]
SVG_NS = "{http://www.w3.org/2000/svg}"
CHROMIUM = os.environ.get("GUOBIAO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = os.environ.get("GUOBIAO_SCREENSHOTS")

# The Latin index common.js writes over each tile (docs/web.md).
INDEX = {
    **{f"{s}{k}": f"{k}{m}" for s, m in (("W", "m"), ("B", "p"), ("T", "s")) for k in range(1, 10)},
    "F1": "E",
    "F2": "S",
    "F3": "W",
    "F4": "N",
    "J1": "R",
    "J2": "G",
    "J3": "Wh",
    **{f"H{k}": f"{k}f" for k in range(1, 9)},
}


def make_tiles() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_tiles", ROOT / "scripts" / "make_tiles.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_file_per_tile_and_a_back() -> None:
    assert len(NAMES) == 43
    assert sorted(p.stem for p in TILE_DIR.glob("*.svg")) == sorted(NAMES)
    assert sorted(INDEX) == sorted(NAMES[:-1])


@pytest.mark.parametrize("name", NAMES)
def test_each_file_is_self_contained_svg(name: str) -> None:
    text = (TILE_DIR / f"{name}.svg").read_text(encoding="utf-8")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    tags = {e.tag.removeprefix(SVG_NS) for e in root.iter()}
    assert all(e.tag.startswith(SVG_NS) for e in root.iter())
    assert not tags & {"text", "tspan", "textPath", "image", "use", "foreignObject", "style"}
    assert "font" not in text.lower()
    for element in root.iter():
        for attr, value in element.attrib.items():
            assert not attr.endswith("href"), (name, attr)
            if "url(" in value:  # only the file's own gradient
                assert value == "url(#f)", (name, attr, value)
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    # something is drawn beyond the tile's body and face (two rectangles)
    shapes = [
        e
        for e in root.iter()
        if e.tag.removeprefix(SVG_NS) in {"rect", "path", "circle", "ellipse"}
    ]
    assert len(shapes) > 2, name


def test_files_are_what_the_script_draws(tmp_path: Path) -> None:
    module = make_tiles()
    drawn = module.render_all()
    assert drawn == module.render_all()  # deterministic
    assert sorted(drawn) == sorted(NAMES)
    for name, text in drawn.items():
        assert (TILE_DIR / f"{name}.svg").read_text(encoding="utf-8") == text, name
    assert module.main(["--check"]) == 0
    # --check notices a changed file; a run writes the same bytes
    assert module.main(["--out", str(tmp_path)]) == 0
    (tmp_path / "W5.svg").write_text("<svg/>", encoding="utf-8")
    assert module.main(["--check", "--out", str(tmp_path)]) == 1
    module.main(["--out", str(tmp_path)])
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {
        p.name: p.read_bytes() for p in TILE_DIR.iterdir()
    }


def test_red_and_green_dragons_differ_beyond_colour() -> None:
    module = make_tiles()
    assert module.GLYPHS["中"] != module.GLYPHS["发"]
    grey = {
        name: module.render_all()[name]
        .replace(module.RED, "#000")
        .replace(module.GREEN, "#000")
        .replace(module.BLUE, "#000")
        for name in NAMES
    }
    assert len(set(grey.values())) == len(NAMES)  # every tile differs with colours removed


# -- in a browser -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("uvicorn")
    from test_server_restart import free_port, server

    port = free_port()
    with server(tmp_path_factory.mktemp("web"), port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"no Chromium at {CHROMIUM}: scripts/chromium.sh installs it")
        pytest.skip("no Chromium (scripts/chromium.sh installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def test_served_as_svg_under_the_pages_policy(base_url: str) -> None:
    with urllib.request.urlopen(f"{base_url}/static/tiles/J2.svg", timeout=10) as response:
        assert response.headers["Content-Type"].startswith("image/svg+xml")
        assert "img-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.read().decode() == (TILE_DIR / "J2.svg").read_text(encoding="utf-8")


# Draws tiles with common.js's tile(): for each width (--tile-w), one row per group of names.
DRAW = """([widths, groups]) => {
  const sheet = document.createElement("div");
  sheet.id = "sheet";
  sheet.style.cssText = "background:#1f5e3b;padding:6px;display:inline-block";
  for (const w of widths) {
    for (const names of groups) {
      const row = document.createElement("div");
      row.style.cssText = `--tile-w:${w}px;display:flex;flex-wrap:wrap;gap:2px;margin:3px 0`;
      for (const name of names) row.append(tile(name === "back" ? null : name));
      sheet.append(row);
    }
  }
  document.body.replaceChildren(sheet);
}"""
# The contact sheet's rows: the three suits, the honours, the flowers and the back.
ROWS = [NAMES[0:9], NAMES[9:18], NAMES[18:27], NAMES[27:34], NAMES[34:]]

SHOWN = """() => Promise.all([...document.images].map((img) => img.decode().catch(() => null)))
  .then(() => [...document.querySelectorAll("#sheet .tile")].map((t) => {
    const img = t.querySelector("img");
    const box = img.getBoundingClientRect();
    const index = t.querySelector(".index");
    return {tile: t.dataset.tile || null, src: img.getAttribute("src"), loaded: img.complete,
      natural: img.naturalWidth, width: box.width, height: box.height,
      index: index ? index.textContent : null, back: t.classList.contains("back")};
  }))"""


def open_page(browser: Any, base_url: str, lang: str, **context: Any) -> tuple[Any, list[str]]:
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(15_000)
    page.goto(f"{base_url}/?lang={lang}")
    return page, errors


def test_every_tile_loads_at_phone_size_with_the_latin_index(browser: Any, base_url: str) -> None:
    page, errors = open_page(
        browser, base_url, "en", viewport={"width": 390, "height": 844}, device_scale_factor=2
    )
    page.evaluate(DRAW, [[26], [NAMES]])
    shown = page.evaluate(SHOWN)
    assert len(shown) == len(NAMES)
    for name, s in zip(NAMES, shown, strict=True):
        assert s["src"] == f"/static/tiles/{name}.svg"
        assert s["loaded"] and s["natural"] > 0, name
        assert s["width"] == 26 and abs(s["height"] - 26 * 4 / 3) < 0.5, s
        if name == "back":
            assert s["back"] and s["tile"] is None and s["index"] is None
        else:
            assert s["tile"] == name and s["index"] == INDEX[name]
    # the index is drawn inside the tile's top left corner
    tile_box = page.locator("#sheet .tile").first.bounding_box()
    index_box = page.locator("#sheet .tile .index").first.bounding_box()
    assert tile_box["x"] <= index_box["x"] < tile_box["x"] + tile_box["width"] / 2
    assert tile_box["y"] <= index_box["y"] < tile_box["y"] + tile_box["height"] / 2
    assert errors == []


def test_index_off_in_chinese_and_switchable(browser: Any, base_url: str) -> None:
    page, errors = open_page(browser, base_url, "zh")
    page.evaluate(DRAW, [[30], [["W1", "F1", "J3"]]])
    shown = page.evaluate(SHOWN)
    assert [s["index"] for s in shown] == [None, None, None]
    assert [s["natural"] > 0 for s in shown] == [True, True, True]
    page.evaluate("localStorage.setItem('guobiao:labels', '1')")  # the labels checkbox, ticked
    page.evaluate(DRAW, [[30], [["W1", "F1", "J3"]]])
    assert [s["index"] for s in page.evaluate(SHOWN)] == ["1m", "E", "Wh"]
    page.evaluate("localStorage.setItem('guobiao:labels', '0')")
    page.evaluate("setLang('en')")
    page.evaluate(DRAW, [[30], [["W1"]]])
    assert [s["index"] for s in page.evaluate(SHOWN)] == [None]
    assert errors == []


def test_contact_sheet(browser: Any, base_url: str) -> None:
    page, errors = open_page(browser, base_url, "en", viewport={"width": 1000, "height": 600})
    page.evaluate(DRAW, [[40, 80], ROWS])
    shown = page.evaluate(SHOWN)
    assert all(s["natural"] > 0 for s in shown)
    assert {s["width"] for s in shown} == {40, 80}
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.locator("#sheet").screenshot(path=str(Path(SHOTS) / "screenshot-tiles.png"))
    assert errors == []


def test_labels_checkbox_on_the_table(browser: Any, base_url: str) -> None:
    """The table page's labels checkbox: on by default in English, off in 中文, and it switches
    the index on every tile of the hand."""
    page, errors = open_page(browser, base_url, "en")
    page.fill("input[name=player]", "Zoe")
    page.click("button[value=quick]")
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#hand button.tile:not([disabled])")
    hand = page.locator("#hand .tile[data-tile]")
    count = hand.count()
    assert count >= 13
    assert page.is_checked("#labels-on")
    assert page.locator("#hand .tile .index").count() == count
    first = hand.first.get_attribute("data-tile")
    assert hand.first.locator(".index").inner_text() == INDEX[first]
    assert hand.first.locator("img").evaluate("img => img.naturalWidth") > 0
    page.click("#lang")  # 中文, the setting never chosen: off
    page.wait_for_function("() => !document.querySelector('#hand .tile .index')")
    assert not page.is_checked("#labels-on")
    page.check("#labels-on")  # chosen: on in either language
    page.wait_for_function("() => document.querySelectorAll('#hand .tile .index').length >= 13")
    assert page.evaluate("localStorage.getItem('guobiao:labels')") == "1"
    page.uncheck("#labels-on")
    page.wait_for_function("() => !document.querySelector('#hand .tile .index')")
    assert errors == []
