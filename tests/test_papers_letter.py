"""The printed papers on US Letter as well as A4 (``--paper a4|letter``, docs/tournament.md):
each paper printed to PDF with headless Chromium on both sizes and measured from the PDF
(pdfinfo's page size in points, pdftotext -bbox for the rows, pdftoppm for the ink), as
tests/test_papers_audit.py measures the A4 papers.

Letter is 612 x 792 pt (215.9 x 279.4 mm), A4 595 x 842 pt: a paper laid out for A4 and printed
on Letter was either cut off or shrunk by the printer (about 94 %: score rows of 8.1 mm). On
each size: one score sheet a page, its hand rows at least 8.5 mm high; the seating one session a
page with table numbers about 10 mm high; the results table landscape from 5 sessions on with
its headings and page numbers on every page; no seat card cut by a page break.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import test_papers_audit as audit
from guobiao.cli import main
from guobiao.tournament import reports
from guobiao.tournament.store import open_store
from test_papers_audit import T, Word, Worst, _cli, _page_texts, _row_pitch, _run, _words

# the fixtures of the A4 audit: the 32-player event, the fullest sheets, Chromium
chromium = audit.chromium
event = audit.event
worst = audit.worst

SIZES_PT = {"a4": (595, 842), "letter": (612, 792)}
"""Portrait width x height in points, as pdfinfo gives them (rounded)."""


def _points(pdf: Path) -> tuple[int, int, int]:
    """Pages, and every page's width and height in points (pdfinfo -l: all pages the same)."""
    out = _run("pdfinfo", "-l", "999", str(pdf))
    pages = int(re.search(r"^Pages:\s+(\d+)", out, re.M)[1])  # type: ignore[index]
    sizes = set(re.findall(r"^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", out, re.M))
    assert len(sizes) == 1, sizes  # every page the same size
    ((width, height),) = sizes
    return pages, round(float(width)), round(float(height))


PAPER = pytest.mark.parametrize("paper", ["a4", "letter"])


def _no_type3(pdf: Path) -> None:
    """Every font of ``pdf`` embedded, none a Type 3 font (pdffonts): Chromium printed Noto
    Sans CJK as Type 3 fonts, which some older printers handle badly; WenQuanYi Zen Hei is
    embedded as CID TrueType."""
    rows = _run("pdffonts", str(pdf)).splitlines()[2:]
    assert rows
    for row in rows:
        assert "Type 3" not in row, row
        assert row.split()[-5] == "yes", row  # emb


def _glyph_height(pdf: Path, word: Word, dpi: int = 300) -> float:
    """The height in mm of the glyphs of ``word``: its box, widened by 2 mm each side, rendered
    in grey (pdftoppm); a row dark out in both widenings is a rule of the table, not a glyph
    (the box of a 40 pt digit reaches over the rules of its row); the longest run of the other
    rows with ink is the glyphs' height."""
    scale = dpi / 25.4
    pad = int(2 * scale)
    x, y = int(word.x0 * scale) - pad, int(word.y0 * scale)
    w, h = int((word.x1 - word.x0) * scale) + 1 + 2 * pad, int((word.y1 - word.y0) * scale) + 1
    width, height, pixels = audit.gray_crop(pdf, word.page, (x, y, w, h), dpi)
    edge = pad // 2
    best = run = 0
    for row in range(height):
        line = pixels[row * width : (row + 1) * width]
        rule = min(line[:edge]) < 128 and min(line[-edge:]) < 128
        ink = min(line[pad:-pad]) < 128
        run = run + 1 if ink and not rule else 0
        best = max(best, run)
    return best / scale


# -- the score sheet ---------------------------------------------------------------------------


@PAPER
def test_a_full_score_sheet_is_one_page_of_either_size_with_its_boxes(
    paper: str, worst: Worst, chromium: str, tmp_path: Path
) -> None:
    """The fullest sheet there is (long names and teams, a 陪打 for a forfeit, a session ended
    early, long hand notes) on A4 and on Letter: a page per table, the page the size asked for,
    hand rows of at least 8.5 mm (the A4 layout printed on Letter ran each sheet onto a second
    page), and the foot (signatures, readings) on the same page."""
    pdf = tmp_path / f"sheets-{paper}.pdf"
    reports.html_to_pdf(
        reports.score_sheets_html(worst.store, T, 1, paper=paper), pdf, chromium=chromium
    )
    pages, width, height = _points(pdf)
    assert (width, height) == SIZES_PT[paper]
    assert pages == worst.tables
    words = _words(pdf)
    texts = _page_texts(pdf)
    for page in range(1, pages + 1):
        assert _row_pitch(words, page) >= 8.5
        text = texts[page - 1]
        assert f"第 {page} 桌" in text and f"Page {page} of {pages}" in text
        assert "裁判员签名" in text and "计分选项" in text and "Session ended early" in text
        # the last thing on the sheet (the readings line) above the page's foot line
        mine = [w for w in words if w.page == page]
        foot = min(w.y0 for w in mine if w.text == "Printed")
        readings = max(w.y1 for w in mine if w.text.startswith("计分选项"))
        assert readings < foot
        assert foot < reports.paper_size(paper).height  # on the page, not below it
    _no_type3(pdf)


def test_sheets_from_the_command_line_on_letter(event: Path, chromium: str, tmp_path: Path) -> None:
    """``sheet --paper letter``: a Letter page per table of a blank session, each numbered,
    the hand rows at least 8.5 mm (the option did not exist: the sheets were A4 only)."""
    out = tmp_path / "s.pdf"
    _cli(event, "sheet", T, "--session", "4", "--pdf", str(out), "--paper", "letter")
    pages, width, height = _points(out)
    assert (pages, width, height) == (8, 612, 792)
    words = _words(out)
    for number, text in enumerate(_page_texts(out), 1):
        assert f"第 {number} 桌" in text and f"Page {number} of 8" in text and T in text
        assert _row_pitch(words, number) >= 8.5


def test_the_paper_comes_from_guobiao_paper(event: Path, tmp_path: Path) -> None:
    """GUOBIAO_PAPER=letter sets the default of --paper (an organiser in the US sets it once);
    --paper wins over it; an unknown size is refused."""
    out = tmp_path / "s.html"
    runner = CliRunner()
    db = ["--db", f"sqlite:///{event}"]
    args = ["tournament", "sheet", T, "--session", "1", "--table", "2", "--html", str(out), *db]
    result = runner.invoke(main, args, env={"GUOBIAO_PAPER": "letter"})
    assert result.exit_code == 0, result.output
    assert "@page { size: letter;" in out.read_text(encoding="utf-8")
    result = runner.invoke(main, [*args, "--paper", "A4"], env={"GUOBIAO_PAPER": "letter"})
    assert result.exit_code == 0, result.output
    assert "@page { size: A4;" in out.read_text(encoding="utf-8")
    result = runner.invoke(main, [*args, "--paper", "legal"])
    assert result.exit_code == 2 and "legal" in result.output


def test_every_paper_command_takes_paper_and_says_so() -> None:
    runner = CliRunner()
    for command in ("seating", "sheet", "results", "cards", "highlights"):
        result = runner.invoke(main, ["tournament", command, "--help"])
        assert result.exit_code == 0
        flat = " ".join(result.output.split())
        assert "--paper [a4|letter]" in flat and "GUOBIAO_PAPER" in flat, command


def test_paper_sizes() -> None:
    assert set(reports.PAPERS) == {"a4", "letter"}
    assert reports.paper_size("Letter").css == "letter"
    assert reports.paper_size(" A4 ").css == "A4"
    with pytest.raises(ValueError, match="legal"):
        reports.paper_size("legal")


# -- the seating ---------------------------------------------------------------------------------


@PAPER
def test_seating_one_session_a_page_with_large_table_numbers(
    paper: str, event: Path, chromium: str, tmp_path: Path
) -> None:
    """``seating --pdf`` of six sessions: six pages of the size asked for, each its session's,
    the table numbers 40 pt (ink at least 8 mm high, about 10) in every row, page numbers."""
    out = tmp_path / "seating.pdf"
    _cli(event, "seating", T, "--pdf", str(out), "--paper", paper)
    pages, width, height = _points(out)
    assert (pages, (width, height)) == (6, SIZES_PT[paper])
    words = _words(out)
    for number, text in enumerate(_page_texts(out), 1):
        assert re.search(rf"座位表 Seating · 第 {number} 局 Session", text), number
        assert f"Page {number} of 6" in text
    # session 2's table numbers: the table column (the page's 10 mm margin, the column 13 %)
    found = {
        w.text: w
        for w in words
        if w.page == 2 and w.x1 < 36 and w.text in {str(n) for n in range(1, 9)}
    }
    assert sorted(found, key=int) == [str(n) for n in range(1, 9)]
    for word in found.values():
        assert 8.0 <= _glyph_height(out, word) <= 12.0, word
    _no_type3(out)


def test_a_long_seating_on_letter_repeats_its_head(tmp_path: Path, chromium: str) -> None:
    """25 tables on Letter: the list runs onto more Letter pages, each with the tournament, the
    session and the column headings at its top."""
    db = tmp_path / "big.db"
    players = tmp_path / "p.csv"
    rows = [f"{i},Player Number {i},Team {(i - 1) % 25}" for i in range(1, 101)]
    players.write_text("number,name,team\n" + "\n".join(rows) + "\n", encoding="utf-8")
    _cli(db, "create", "big", "--sessions", "2")
    _cli(db, "players", "big", str(players))
    _cli(db, "draw", "big", "--seed", "1")
    out = tmp_path / "s.pdf"
    _cli(db, "seating", "big", "--session", "2", "--pdf", str(out), "--paper", "letter")
    pages, width, height = _points(out)
    assert pages >= 2 and (width, height) == (612, 792)
    texts = _page_texts(out)
    for number, text in enumerate(texts, 1):
        head = text.strip().splitlines()[:4]
        assert any("big" in line for line in head), head
        assert any(re.search(r"座位表 Seating · 第 2 局 Session", line) for line in head), head
        assert "东" in text and f"Page {number} of {pages}" in text
    tables = [int(m) for t in texts for m in re.findall(r"^\s*(\d+)\s", t, re.M)]
    assert sorted(set(tables) & set(range(1, 26))) == list(range(1, 26))
    _no_type3(out)


# -- the results table ---------------------------------------------------------------------------


@PAPER
def test_results_landscape_on_either_size_headed_and_numbered(
    paper: str, event: Path, chromium: str, tmp_path: Path
) -> None:
    """Six sessions: landscape pages of the size asked for (Letter landscape is 792 x 612 pt),
    each with the tournament, the column headings and its number."""
    out = tmp_path / "results.pdf"
    _cli(event, "results", T, "--pdf", str(out), "--paper", paper)
    pages, width, height = _points(out)
    portrait = SIZES_PT[paper]
    assert (width, height) == (portrait[1], portrait[0])  # landscape
    assert pages >= 2
    for number, text in enumerate(_page_texts(out), 1):
        assert T in text and f"Page {number} of {pages}" in text
        assert "局分" in text and "标准分" in text
    _no_type3(out)


def test_results_of_a_short_event_are_letter_portrait(tmp_path: Path, chromium: str) -> None:
    db = tmp_path / "short.db"
    players = tmp_path / "p.csv"
    rows = [f"{i},Player {i}," for i in range(1, 9)]
    players.write_text("number,name,team\n" + "\n".join(rows) + "\n", encoding="utf-8")
    _cli(db, "create", "short", "--sessions", "2")
    _cli(db, "players", "short", str(players))
    _cli(db, "draw", "short", "--seed", "1")
    out = tmp_path / "r.pdf"
    _cli(db, "results", "short", "--pdf", str(out), "--paper", "letter")
    assert _points(out) == (1, 612, 792)


# -- seat cards, best hands ----------------------------------------------------------------------


@PAPER
def test_seat_cards_fill_pages_of_either_size_and_none_is_cut(
    paper: str, event: Path, chromium: str, tmp_path: Path
) -> None:
    """32 cards of 6 sessions: as many to a page as fit its height (the A4 rows on a Letter
    page ran past its foot and pushed cards onto extra pages); every card whole on one page."""
    out = tmp_path / "cards.pdf"
    _cli(event, "cards", T, "--pdf", str(out), "--paper", paper)
    store = open_store(f"sqlite:///{event}")
    try:
        cards = reports.seat_cards(store, T)
    finally:
        store.close()
    per_page = 8  # two across, four down: 6 sessions need 59 mm a card
    pages, width, height = _points(out)
    assert (width, height) == SIZES_PT[paper]
    assert pages == math.ceil(len(cards) / per_page)
    texts = [" ".join(t.split()) for t in _page_texts(out)]
    for index, card in enumerate(cards):
        page = texts[index // per_page]
        # the card's name and its legend (the card's last line) on the same page
        assert f"{card.number} {' '.join(card.name.split())}" in page, card.name
    for number, page in enumerate(texts):
        # each card's head and its foot (the legend, its last line) both on this page
        whole = min(per_page, len(cards) - number * per_page)
        assert page.count("座位卡 Seat card") == whole
        assert page.count("the seat at hand 1") == whole
    _no_type3(out)


def test_best_hands_on_letter(event: Path, chromium: str, tmp_path: Path) -> None:
    out = tmp_path / "h.pdf"
    _cli(event, "highlights", T, "--pdf", str(out), "--paper", "letter")
    _, width, height = _points(out)
    assert (width, height) == (612, 792)
    assert "Page 1 of" in _page_texts(out)[0]
    _no_type3(out)


def test_no_type3_font_on_the_default_papers(
    worst: Worst, event: Path, chromium: str, tmp_path: Path
) -> None:
    """The A4 papers as the web pages and older scripts ask for them (no paper given): every
    font embedded as TrueType (CID), the Chinese read back, the page foot included (it was in
    Chromium's default font)."""
    sheets = tmp_path / "sheets.pdf"
    reports.html_to_pdf(reports.score_sheets_html(worst.store, T, 1), sheets, chromium=chromium)
    store = open_store(f"sqlite:///{event}")
    try:
        html = reports.results_table_html(store, T)
    finally:
        store.close()
    results = tmp_path / "results.pdf"
    reports.html_to_pdf(html, results, chromium=chromium)
    for pdf in (sheets, results):
        _no_type3(pdf)
        text = "".join(_page_texts(pdf))
        assert "计分选项" in text and "打印 Printed" in text and "第 1 /" in text


def test_a4_stays_the_default(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    _cli(event, "results", T, "--html", str(out))
    assert "@page { size: A4 landscape;" in out.read_text(encoding="utf-8")
    out = tmp_path / "c.html"
    _cli(event, "cards", T, "--html", str(out), "--paper", "letter")
    html = out.read_text(encoding="utf-8")
    # four rows of cards sharing Letter's 263.4 mm (A4's were 70 mm: 280 mm, past the foot)
    assert "@page { size: letter;" in html and "repeat(4, 65.6mm)" in html
