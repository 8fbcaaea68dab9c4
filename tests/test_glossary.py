"""The glossary (guobiao.table.glossary): one list of the game's words for the printed papers and
the web pages. Its terms cover every penalty the table knows and every bot; the papers print
what it says (change a term and the sheet changes); the server serves it to the pages as
/static/glossary.js and names bots and tables by its templates."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guobiao.bots import BOT_KINDS, BOT_NAMES, LEVEL_NAMES, LEVEL_OF
from guobiao.server import app as app_module
from guobiao.server.app import create_app
from guobiao.server.protocol import glossary_script
from guobiao.server.rooms import Room
from guobiao.table.glossary import BOT_NAME, TABLE_NAME, TERMS, WINDS, Term, glossary_data
from guobiao.table.settlement import PenaltyKind
from guobiao.tournament import reports
from test_reports import Cells, Played, T, hand_cell, part, played  # noqa: F401 (a fixture)

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_terms_are_well_formed() -> None:
    assert len(TERMS) >= 50
    for key, term in TERMS.items():
        assert re.fullmatch(r"[a-z_]+", key), key
        assert CJK.search(term.zh) and term.en.strip(), key
        assert len(term.short) <= 5, key
    pairs = [(t.zh, t.en) for t in TERMS.values()]
    assert len(pairs) == len(set(pairs)), "two keys for one term"
    assert [TERMS[w].zh for w in WINDS] == ["东", "南", "西", "北"]
    assert [TERMS[w].abbr for w in WINDS] == ["E", "S", "W", "N"]


def test_every_penalty_of_the_table_is_a_term() -> None:
    for kind in PenaltyKind:
        assert TERMS[kind.name.lower()].zh == kind.zh
    for key, zh in {
        "warning": "警告",
        "late": "迟到",
        "deduction": "扣分",
        "forfeit": "弃权",
    }.items():
        assert TERMS[key].zh == zh


def test_issue_terms_as_the_sheets_print_them() -> None:
    said = {k: TERMS[k].zh for k in ("self_drawn", "deal_in", "drawn_hand", "fan", "flowers")}
    assert said == {
        "self_drawn": "自摸",
        "deal_in": "点炮",
        "drawn_hand": "荒庄",
        "fan": "番",
        "flowers": "花牌",
    }
    assert (TERMS["session_score"].zh, TERMS["standard_points"].zh) == ("局分", "标准分")


def test_every_bot_has_a_name_in_both_languages() -> None:
    assert set(BOT_NAMES) == set(BOT_KINDS)
    for kind, name in BOT_NAMES.items():
        assert name.en == kind and CJK.search(name.zh)
    assert len({n.zh for n in BOT_NAMES.values()}) == len(BOT_KINDS)


def test_the_papers_take_their_labels_from_the_glossary() -> None:
    want = {k.name: TERMS[k.name.lower()].zh for k in PenaltyKind}
    assert {**want, "WARNING": TERMS["warning"].zh} == reports.HAND_KINDS
    assert {k: TERMS[k].zh for k in ("late", "deduction", "forfeit")} == reports.LOOSE_KINDS
    assert tuple(TERMS[w].zh for w in WINDS) == reports.WIND_ZH


def test_a_changed_term_changes_the_sheet(
    played: Played,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = Cells(reports.score_sheet_html(played.store, T, 1, 1))
    assert part(page, hand_cell(page, 2, "D"), "marks") == "点炮"
    monkeypatch.setitem(TERMS, "deal_in", Term("放铳", "Dealt in"))
    monkeypatch.setitem(TERMS, "session_score", Term("局分数", "Session score"))
    html = reports.score_sheet_html(played.store, T, 1, 1)
    page = Cells(html)
    assert part(page, hand_cell(page, 2, "D"), "marks") == "放铳"
    assert "点炮" not in html
    assert "局分数" in html and "Session score" in html


def test_glossary_js_is_served_to_the_pages(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "rooms.sqlite3")) as client:
        response = client.get("/static/glossary.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["content-security-policy"].startswith("default-src 'self'")
    text = response.text
    assert text == glossary_script()
    found = re.fullmatch(r"const GLOSSARY = (\{.*\});\n", text, re.S)
    assert found
    data = json.loads(found.group(1))
    assert data == {
        **json.loads(json.dumps(glossary_data())),
        "bots": {k: v._asdict() for k, v in BOT_NAMES.items()},
        "levels": {k: LEVEL_NAMES[LEVEL_OF[k]]._asdict() for k in BOT_NAMES},
    }
    assert list(data["bots"]) == list(data["levels"]) == list(BOT_KINDS)
    assert data["levels"]["fan"] == {"zh": "普通", "en": "normal", "short": ""}
    # every page loads it before common.js, whose terms come from it
    pages = sorted((Path(app_module.__file__).parent / "static").glob("*.html"))
    assert len(pages) >= 8
    for html in pages:
        text = html.read_text(encoding="utf-8")
        if "/static/common.js" in text:
            assert text.index("/static/glossary.js") < text.index("/static/common.js"), html.name


def test_the_server_names_bots_and_tables_by_the_templates() -> None:
    room = Room("Xy7qwertyu", bot_kind="fan")
    assert room.name == TABLE_NAME.en.format(id="Xy7q") == "Table Xy7q"
    room.add_bots()
    assert [p.name for p in room.places] == [
        BOT_NAME.en.format(kind="fan", place=letter) for letter in "ABCD"
    ]
    assert BOT_NAME.zh.format(kind=BOT_NAMES["fan"].zh, place="B") == "番种机器人 B"
    named = Room("abcdef", name="Spring")
    assert named.name == "Spring"
