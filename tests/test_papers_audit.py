"""The printed papers as an organiser and a referee use them (docs/tournament.md): each printed
to PDF with headless Chromium and read back with poppler (pdfinfo, pdftotext -bbox / -layout,
pdffonts, pdftoppm), then measured on the page in millimetres.

- the score sheet's handwriting boxes are at least 8.5 mm high and a sheet stays on one page,
  even with long names, a 陪打 and a session ended early;
- every page says which tournament and paper it is, the day it was printed and its number
  (page X of Y), a long results table and a seating list included;
- the seating of a 6-session, 32-player event prints one session per page, the table numbers
  large enough to read on a wall from 2 m (digits at least 8 mm high);
- the best hands page printed from the command line has the readings line, as every paper that
  counts.

Chromium missing: under CI (the CI variable set) these tests fail, never skip; in a plain local
``pytest`` they skip (scripts/chromium.sh installs it: ``chromium_ensure``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from guobiao.tournament.reports import (
    ReportError,
    find_chromium,
    html_to_pdf,
    results_table_html,
    score_sheets_html,
    seating_html,
)
from guobiao.tournament.seating import Schedule, SessionSeating, Table
from guobiao.tournament.store import PlayerRow, Store, open_store

PT_MM = 25.4 / 72  # one PDF point in millimetres
T = "2024 上海国标麻将公开赛 Shanghai MCR Open"


# -- reading the PDF back --------------------------------------------------------------------------


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        message = f"{tool} is missing: apt-get install poppler-utils (scripts/chromium.sh)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


@pytest.fixture(scope="module")
def chromium() -> str:
    try:
        return find_chromium()
    except ReportError as error:
        if os.environ.get("CI"):
            pytest.fail(str(error), pytrace=False)
        pytest.skip(str(error))


def _run(*args: str) -> str:
    _need(args[0])
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def _info(pdf: Path) -> tuple[int, float, float]:
    """Pages, and the first page's width and height in mm."""
    out = _run("pdfinfo", str(pdf))
    pages = int(re.search(r"^Pages:\s+(\d+)", out, re.M)[1])  # type: ignore[index]
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", out, re.M)
    assert size, out
    return pages, float(size[1]) * PT_MM, float(size[2]) * PT_MM


def _page_texts(pdf: Path) -> list[str]:
    """The text of each page (pdftotext -layout), in order."""
    return _run("pdftotext", "-layout", str(pdf), "-").split("\f")[:-1]


@dataclass(frozen=True)
class Word:
    page: int  # from 1
    text: str
    x0: float  # mm from the page's left edge
    y0: float  # mm from the page's top edge
    x1: float
    y1: float


def _words(pdf: Path) -> list[Word]:
    """Every word on every page with its box in mm (pdftotext -bbox)."""
    out = _run("pdftotext", "-bbox", str(pdf), "-")
    words: list[Word] = []
    for number, page in enumerate(re.findall(r"<page .*?</page>", out, re.S), 1):
        for x0, y0, x1, y1, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
            page,
        ):
            words.append(
                Word(
                    number,
                    text,
                    float(x0) * PT_MM,
                    float(y0) * PT_MM,
                    float(x1) * PT_MM,
                    float(y1) * PT_MM,
                )
            )
    return words


def gray_crop(
    pdf: Path, page: int, box: tuple[int, int, int, int], dpi: int
) -> tuple[int, int, bytes]:
    """``box`` (x, y, width, height in pixels at ``dpi``) of ``page`` rendered in grey by pdftoppm:
    its width, its height and its pixels, a byte each, row by row."""
    x, y, w, h = box
    raw = subprocess.run(
        [
            *("pdftoppm", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page)),
            *("-x", str(x), "-y", str(y), "-W", str(w), "-H", str(h), str(pdf)),
        ],
        capture_output=True,
        check=True,
    ).stdout
    # binary PGM: "P5\n<w> <h>\n255\n" then the pixels
    match = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", raw)
    assert match, raw[:20]
    return int(match[1]), int(match[2]), raw[match.end() :]


def _ink_height(pdf: Path, word: Word, dpi: int = 300) -> float:
    """The height in mm of the ink of ``word`` (its glyphs as printed: pdftoppm renders the
    word's box in grey and the dark rows are counted)."""
    _need("pdftoppm")
    scale = dpi / 25.4
    x, y = int(word.x0 * scale), int(word.y0 * scale)
    w, h = int((word.x1 - word.x0) * scale) + 1, int((word.y1 - word.y0) * scale) + 1
    width, height, pixels = gray_crop(pdf, word.page, (x, y, w, h), dpi)
    dark = [row for row in range(height) if min(pixels[row * width : (row + 1) * width]) < 128]
    assert dark, word
    return (dark[-1] - dark[0] + 1) / scale


def _fonts(pdf: Path) -> list[list[str]]:
    """pdffonts' rows: each a list of its columns from the right (uni, sub, emb, ...)."""
    out = _run("pdffonts", str(pdf)).splitlines()[2:]
    return [line.split()[::-1] for line in out if line.strip()]


# -- a tournament ---------------------------------------------------------------------------------

LONG = (
    "Maximilian Oberhauser-Schmidt",
    "欧阳诸葛司马上官慕容",
    "Anna-Katharina von Lichtenstein",
    "Jan van der Berg",
)


def _cli(db: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["tournament", *args, "--db", f"sqlite:///{db}"])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """32 players in 8 teams over 6 sessions (Chinese and long English names), drawn; session
    1 table 1 entered hand by hand, sessions 1-3 otherwise by their totals."""
    tmp = tmp_path_factory.mktemp("event")
    db = tmp / "t.db"
    zh = list(
        [
            "王小明",
            "李娜",
            "张伟",
            "刘洋",
            "陈静",
            "杨磊",
            "赵敏",
            "黄强",
            "周杰",
            "吴芳",
            "徐丽",
            "孙涛",
            "马超",
            "朱琳",
            "胡斌",
            "郭靖",
        ]
    )
    en = [*LONG, "Ann Lee", "Bob Wu", "Chloé Dubois", "Dmitri Ivanov"]
    names = zh + en + [f"选手{i} Player {i}" for i in range(8)]
    teams = ["上海队 Shanghai", "Red Dragons", "北京 Beijing Tigers", "Nordic Winds"]
    teams += ["东京 Tokyo", "Green", "白板 White Board Club", "Amsterdam Mahjong Vereniging"]
    players = tmp / "p.csv"
    rows = [f"{i},{n},{teams[(i - 1) % 8]}" for i, n in enumerate(names, 1)]
    players.write_text("number,name,team\n" + "\n".join(rows) + "\n", encoding="utf-8")
    _cli(db, "create", T, "--sessions", "6")
    _cli(db, "players", T, str(players))
    _cli(db, "draw", T, "--seed", "1")
    for hand in range(1, 17):
        args = ["--winner", "E", "--from", "S", "--fans", "清一色,一色三步高,幺九刻"]
        _cli(db, "hand", T, "--session", "1", "--table", "1", "--hand", str(hand), *args)
    for session in (1, 2, 3):
        for table in range(1, 9):
            if (session, table) != (1, 1):
                scores = (
                    500 + table * 7,
                    500 - table * 3,
                    500 + session,
                    500 - table * 4 - session,
                )
                _cli(
                    db,
                    "totals",
                    T,
                    "--session",
                    str(session),
                    "--table",
                    str(table),
                    *map(str, scores),
                )
    return db


@dataclass
class Worst:
    store: Store
    tables: int


@pytest.fixture
def worst(tmp_path: Path) -> Iterator[Worst]:
    """A session of two tables whose sheets carry everything a sheet can: long names and
    teams, a 陪打 standing in for a player who forfeited, a session ended early with a note,
    and hands with long notes."""
    store = open_store(f"sqlite:///{tmp_path / 'w.db'}")
    store.create_tournament(T, sessions=1)
    team = "Amsterdam Mahjong Vereniging"
    store.add_team(T, team)
    rows = [PlayerRow(i, name, team if i % 2 else None) for i, name in enumerate(LONG, 1)]
    rows += [PlayerRow(5 + i, f"上官婉儿 Shangguan Wan'er {i}") for i in range(4)]
    rows.append(PlayerRow(9, "Jean-Baptiste Lefèvre", substitute=True))
    store.add_players(T, rows)
    names = [r.name for r in rows]
    seating = SessionSeating(
        1,
        (
            Table(1, (names[0], names[1], names[2], names[3])),
            Table(2, (names[4], names[5], names[6], names[7])),
        ),
    )
    store.save_schedule(T, Schedule(tuple(names[:8]), (seating,), "manual"))
    store.substitute(T, 1, names[1], names[8], who="referee", forfeit=True)
    for table in (1, 2):
        for hand in range(12):
            store.record_hand(
                T,
                1,
                table,
                hand,
                winner="S",
                discarder="N",
                fan_points=64,
                fans=["清一色", "一色三步高", "幺九刻", "四归一", "平和", "断幺", "门前清"],
            )
        store.finish_table(T, 1, table, who="referee", note="time limit 11:45")
    yield Worst(store, 2)
    store.close()


# -- the score sheet ---------------------------------------------------------------------------


def _row_pitch(words: list[Word], page: int) -> float:
    """The height of a hand row: the distance from hand 1's number to hand 16's, over 15. The
    hand numbers are the words 1-16 in the sheet's first column."""
    left = [w for w in words if w.page == page and w.x0 < 25 and w.text.isdigit()]
    tops: dict[int, float] = {}
    for w in sorted(left, key=lambda w: w.y0):
        tops.setdefault(int(w.text), w.y0)
    assert all(n in tops for n in range(1, 17)), sorted(tops)
    return (tops[16] - tops[1]) / 15


def test_score_sheet_boxes_are_large_enough_to_write_in(
    worst: Worst, chromium: str, tmp_path: Path
) -> None:
    """A referee writes each hand's score in its box: 8.5 mm at the least (they were 7.6 mm),
    and the whole sheet, with everything on it, still on one A4 page per table."""
    pdf = tmp_path / "sheets.pdf"
    html_to_pdf(score_sheets_html(worst.store, T, 1), pdf, chromium=chromium)
    pages, width, height = _info(pdf)
    assert (round(width), round(height)) == (210, 297)
    assert pages == worst.tables  # one page a table: nothing ran onto a second page
    words = _words(pdf)
    texts = _page_texts(pdf)
    for page in range(1, pages + 1):
        assert _row_pitch(words, page) >= 8.5
        text = texts[page - 1]
        assert f"第 {page} 桌" in text
        # the foot of the sheet is on the same page: signature lines and the readings
        assert "裁判员签名" in text and "计分选项" in text
        assert "Session ended early" in text


# -- every page: which paper, which tournament, printed when, page X of Y ------------------------


def test_every_page_of_the_results_says_what_it_is_and_its_number(
    event: Path, chromium: str, tmp_path: Path
) -> None:
    """The results table of 32 players over 6 sessions runs onto a second landscape page: that
    page said neither the tournament nor the page number, and no page said when it was
    printed (a table printed after session 3 looked like the final one)."""
    store = open_store(f"sqlite:///{event}")
    try:
        html = results_table_html(store, T)
    finally:
        store.close()
    pdf = tmp_path / "results.pdf"
    html_to_pdf(html, pdf, chromium=chromium)
    pages, width, height = _info(pdf)
    assert pages == 2 and width > height  # landscape, 6 sessions
    today = date.today().isoformat()
    for number, text in enumerate(_page_texts(pdf), 1):
        assert T in text, number
        assert f"Page {number} of {pages}" in text and f"第 {number} / {pages} 页" in text
        assert f"Printed {today}" in text
        # the column headings are printed again at the top of the second page
        assert "局分" in text and "标准分" in text


def test_every_score_sheet_page_is_numbered(event: Path, chromium: str, tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    _cli(event, "sheet", T, "--session", "4", "--pdf", str(out))
    texts = _page_texts(out)
    assert len(texts) == 8
    for number, text in enumerate(texts, 1):
        assert f"第 {number} 桌" in text and f"Page {number} of 8" in text and T in text


# -- the seating, posted on a wall ---------------------------------------------------------------


def test_the_seating_of_every_session_one_page_each(
    event: Path, chromium: str, tmp_path: Path
) -> None:
    """``seating NAME --pdf`` without ``--session``: the six sessions, each on a page of its
    own with its number and its eight tables (the command took one session at a time)."""
    out = tmp_path / "seating.pdf"
    csv = tmp_path / "seating.csv"
    _cli(event, "seating", T, "--pdf", str(out), "--csv", str(csv))
    pages, width, height = _info(out)
    assert pages == 6 and (round(width), round(height)) == (210, 297)
    store = open_store(f"sqlite:///{event}")
    try:
        from guobiao.tournament.reports import session_seating

        seated = {s: session_seating(store, T, s) for s in range(1, 7)}
    finally:
        store.close()
    for number, text in enumerate(_page_texts(out), 1):
        assert re.search(rf"座位表 Seating · 第 {number} 局 Session", text), number
        flat = " ".join(text.split())
        for table in seated[number]:
            for seat in table.seats:
                assert " ".join(seat.name.split()) in flat or seat.name[:4] in flat
    rows = csv.read_text(encoding="utf-8-sig").splitlines()
    assert len(rows) == 1 + 6 * 32
    assert {r.split(",")[0] for r in rows[1:]} == {str(s) for s in range(1, 7)}


def test_table_numbers_can_be_read_from_two_metres(
    event: Path, chromium: str, tmp_path: Path
) -> None:
    """The table numbers of a posted seating: digits at least 8 mm high (they were 20 pt,
    about 5 mm), in the table column of every row."""
    store = open_store(f"sqlite:///{event}")
    try:
        html = seating_html(store, T, 2)
    finally:
        store.close()
    pdf = tmp_path / "seating2.pdf"
    html_to_pdf(html, pdf, chromium=chromium)
    words = _words(pdf)
    # the table column: left of the East column (the page's margin is 10 mm, the column 13%)
    found = {w.text: w for w in words if w.x1 < 33 and w.text in {str(n) for n in range(1, 9)}}
    assert sorted(found, key=int) == [str(n) for n in range(1, 9)]
    for word in found.values():
        assert _ink_height(pdf, word) >= 8.0, word


def test_a_long_seating_says_the_session_on_every_page(tmp_path: Path, chromium: str) -> None:
    """100 players: the list of 25 tables runs onto more pages; each page names the tournament
    and the session above its rows (page 2 said neither: two sessions' second pages, posted,
    looked the same)."""
    db = tmp_path / "big.db"
    players = tmp_path / "p.csv"
    rows = [f"{i},Player Number {i},Team {(i - 1) % 25}" for i in range(1, 101)]
    players.write_text("number,name,team\n" + "\n".join(rows) + "\n", encoding="utf-8")
    _cli(db, "create", "big", "--sessions", "2")
    _cli(db, "players", "big", str(players))
    _cli(db, "draw", "big", "--seed", "1")
    out = tmp_path / "s.pdf"
    _cli(db, "seating", "big", "--session", "2", "--pdf", str(out))
    texts = _page_texts(out)
    assert len(texts) >= 2
    for text in texts:
        head = text.strip().splitlines()[:3]
        assert any("big" in line for line in head), head
        assert any(re.search(r"座位表 Seating · 第 2 局 Session", line) for line in head), head
    tables = [int(m) for t in texts for m in re.findall(r"^\s*(\d+)\s", t, re.M)]
    assert sorted(set(tables) & set(range(1, 26))) == list(range(1, 26))


# -- best hands, fonts ----------------------------------------------------------------------------


def test_best_hands_from_the_command_line_print_the_readings(event: Path, tmp_path: Path) -> None:
    """Every paper that counts prints the tournament's readings at its foot; the best hands
    page printed by ``highlights --html`` / ``--pdf`` left them out."""
    out = tmp_path / "h.html"
    _cli(event, "highlights", T, "--html", str(out))
    html = out.read_text(encoding="utf-8")
    assert 'data-col="readings"' in html and "计分选项" in html


def test_fonts_are_embedded_and_chinese_reads_back(
    event: Path, chromium: str, tmp_path: Path
) -> None:
    out = tmp_path / "s.pdf"
    _cli(event, "sheet", T, "--session", "1", "--table", "1", "--pdf", str(out))
    fonts = _fonts(out)
    assert fonts and all(row[2] == "yes" for row in fonts)  # emb, on every font
    text = _page_texts(out)[0]
    assert "记分表 Score sheet" in text and "裁判员签名 Referee" in text and "□" not in text
