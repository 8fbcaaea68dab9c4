"""Printable tournament papers: the score sheet (记分表) of a table and the results table (比赛成绩
统计表); for the organisers, the players' seat cards (座位卡) and the best hands and fan counts
(最佳牌例与番种统计); as self-contained A4 HTML pages, and PDF through headless Chromium (an
adapter; the core never imports it).

The pages use no external resources (inline CSS, no scripts, no images): a browser or
``html_to_pdf`` prints them as they are. Every cell a test or a reader may want to find carries
``data-*`` attributes (``data-hand``, ``data-player``, ``data-session``, ``data-col``).

A score sheet's columns follow the *players*: a hand's seats are seat winds in that hand, and the
seats rotate between rounds (第五条九), so hand ``n``'s seat ``s`` is mapped to its player with
``guobiao.tournament.seating.Table.seats_at`` (as the store does). Marks: docs/tournament.md.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from html import escape
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session as OrmSession

from guobiao.scoring.fans import Fan
from guobiao.table.glossary import TERMS, WINDS
from guobiao.tournament.models import (
    GameTable,
    HandRecord,
    PenaltyRecord,
    Player,
    SessionAbsence,
    SessionResult,
    Team,
    Tournament,
    TournamentSession,
)
from guobiao.tournament.ranking import (
    PlayerHistory,
    Readings,
    Standing,
    TableResult,
    format_points,
    group_standard_points,
    individual_ranking,
    player_histories,
    readings_line,
    team_ranking,
)
from guobiao.tournament.seating import Table as SeatingTable
from guobiao.tournament.store import Store, StoreError, WithdrawalLine, no_tournament

__all__ = [
    "CHROMIUM_CANDIDATES",
    "CHROMIUM_ENV",
    "HANDS",
    "PAPERS",
    "SEAT_STATUSES",
    "BestHand",
    "FanCount",
    "Highlights",
    "Paper",
    "ReportError",
    "SeatCard",
    "SeatLine",
    "SeatedPlayer",
    "SeatedTable",
    "SessionBye",
    "byes_text",
    "find_chromium",
    "highlights",
    "highlights_html",
    "highlights_json",
    "highlights_notes",
    "highlights_page",
    "html_to_pdf",
    "paper_size",
    "results_table_html",
    "score_sheet_html",
    "score_sheets_html",
    "seat_cards",
    "seat_cards_html",
    "seat_mark",
    "seating_html",
    "seatings_html",
    "session_byes",
    "session_seating",
]

HANDS = 16
"""Hands printed on a score sheet: 4 rounds × 4 hands (第五条九)."""


@dataclass(frozen=True, slots=True)
class Paper:
    """A page size the papers are laid out for: ``name`` as the commands take it (``--paper``),
    ``css`` as CSS ``@page size`` names it, portrait ``width`` × ``height`` in mm."""

    name: str
    css: str
    width: float
    height: float

    @property
    def usable_height(self) -> float:
        """The height in mm between the page margins (``_CSS``: 7 mm top, 8 mm bottom)."""
        return self.height - PAGE_MARGIN_TOP - PAGE_MARGIN_BOTTOM


PAGE_MARGIN_TOP = 7.0
PAGE_MARGIN_BOTTOM = 8.0

PAPERS = {
    "a4": Paper("a4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "letter", 215.9, 279.4),
}
"""The page sizes of the papers (``--paper``): A4 (the default) and US Letter. Each paper is laid
out for its size: Letter is 5.9 mm wider and 17.6 mm shorter than A4, and the score sheet and the
seat cards are fitted to it (docs/tournament.md)."""


def paper_size(paper: str | Paper) -> Paper:
    """The ``Paper`` named ``paper`` (``a4`` or ``letter``, any case); ``ValueError`` else."""
    if isinstance(paper, Paper):
        return paper
    found = PAPERS.get(paper.strip().lower())
    if found is None:
        raise ValueError(f"no paper size {paper!r}: one of {', '.join(PAPERS)}")
    return found


CHROMIUM_ENV = "GUOBIAO_CHROMIUM"
"""The environment variable naming the Chromium binary ``html_to_pdf`` runs."""

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")
"""Where ``find_chromium`` looks when neither an argument nor ``GUOBIAO_CHROMIUM`` names one."""

INSTALL_HINT = "install it with `apt-get install chromium` (as root), or set GUOBIAO_CHROMIUM"

# every label comes from the glossary (guobiao.table.glossary), as the web pages' do
WIND_ZH = tuple(TERMS[w].zh for w in WINDS)
WIND_EN = tuple(TERMS[w].abbr for w in WINDS)
DASH = "—"

HAND_KINDS = {
    kind.upper(): TERMS[kind].zh
    for kind in (
        "false_win",
        "fake_win",
        "intentional_fake_win",
        "wrong_count",
        "violation",
        "warning",
    )
}
"""Labels of the hand-level penalty kinds (``PenaltyRecord.kind``); any other is shown by name."""

LOOSE_KINDS = {kind: TERMS[kind].zh for kind in ("late", "deduction", "forfeit")}
"""Labels of the session-level deductions (``PenaltyRecord`` without a hand)."""


def _zh(key: str) -> str:
    return TERMS[key].zh


def _label(key: str, sep: str = "<br>", *, short: bool = False) -> str:
    """A term for a heading: 中文, then the English (``short``: its abbreviation)."""
    term = TERMS[key]
    return f'{term.zh}{sep}<span class="en">{term.abbr if short else term.en}</span>'


def _sub() -> str:
    return f"{_zh('substitute')} {TERMS['substitute'].abbr}"


_PAID_TO_EACH = ("FALSE_WIN", "FAKE_WIN")  # amount paid to each of the other three


class ReportError(Exception):
    """A report could not be printed (no Chromium, Chromium failed or timed out, not a PDF)."""


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _e(value: object) -> str:
    return escape(str(value), quote=True)


# -- reading the store ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Person:
    name: str
    number: int
    team: str | None
    substitute: bool
    replaces: str | None = None  # the drawn player this one stands in for (陪打, 第十二条三(二))


@dataclass(frozen=True, slots=True)
class _Loose:
    player: str
    kind: str
    amount: int
    note: str | None


@dataclass(frozen=True, slots=True)
class _TableData:
    tournament: str
    sessions_planned: int
    starting_points: int
    seats: tuple[_Person, _Person, _Person, _Person]  # E S W N at the first hand
    loose: tuple[_Loose, ...]
    has_totals: bool  # SessionResult rows (a table entered by its totals)
    forfeits: frozenset[str]  # replaced players who forfeited (局分 0, 第十三条二(一))


def _person(player: Player, replaces: Player | None = None) -> _Person:
    return _Person(
        player.name,
        player.number,
        player.team.name if player.team else None,
        player.substitute or replaces is not None,
        replaces.name if replaces is not None else None,
    )


def _tournament(db: OrmSession, name: str) -> Tournament:
    found = db.scalar(select(Tournament).where(Tournament.name == name))
    if found is None:
        raise no_tournament(name, db.scalars(select(Tournament.name)))
    return found


def _table_data(store: Store, tournament: str, session: int, table: int) -> _TableData:
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        row = db.scalar(
            select(GameTable)
            .join(TournamentSession)
            .where(
                TournamentSession.tournament_id == t.id,
                TournamentSession.number == session,
                GameTable.number == table,
            )
        )
        if row is None:
            raise StoreError(f"{tournament!r}: session {session} has no table {table}")
        seats = sorted(row.seats, key=lambda s: s.seat)
        if len(seats) != 4:
            raise StoreError(
                f"{tournament!r}: session {session} table {table} has {len(seats)} seated "
                "players, not 4"
            )
        people = tuple(_person(s.player, s.replaces) for s in seats)
        loose = db.scalars(
            select(PenaltyRecord)
            .where(PenaltyRecord.table_id == row.id, PenaltyRecord.hand_id.is_(None))
            .order_by(PenaltyRecord.id)
        ).all()
        totals = db.scalar(select(SessionResult.id).where(SessionResult.table_id == row.id))
        replaced = [s.replaces_id for s in seats if s.replaces_id is not None]
        forfeits = db.scalars(
            select(Player.name)
            .join(SessionAbsence, SessionAbsence.player_id == Player.id)
            .where(
                SessionAbsence.session_id == row.session_id,
                SessionAbsence.kind == "forfeit",
                SessionAbsence.player_id.in_(replaced),
            )
        ).all()
        return _TableData(
            tournament=t.name,
            sessions_planned=t.sessions_planned,
            starting_points=t.starting_points,
            seats=(people[0], people[1], people[2], people[3]),
            loose=tuple(_Loose(p.player.name, p.kind, p.amount, p.note) for p in loose),
            has_totals=totals is not None,
            forfeits=frozenset(forfeits),
        )


# -- HTML scaffolding ---------------------------------------------------------------------------

_CSS = """
@page { size: %(page)s; margin: 7mm 10mm 8mm;
  @bottom-left { content: %(footer)s; font-size: 7pt; color: #000; vertical-align: middle; }
  @bottom-right {
    content: "第 " counter(page) " / " counter(pages) " 页  Page " counter(page) " of "
      counter(pages);
    font-size: 7pt; color: #000; vertical-align: middle; white-space: nowrap;
  }
}
* { box-sizing: border-box; }
/* the fonts on html, not body: the page foot (a margin box of @page) takes them from the root.
   WenQuanYi Zen Hei first (Debian's fonts-wqy-zenhei, scripts/chromium.sh): a TrueType font,
   embedded as CID TrueType; Noto Sans CJK, CFF-based, is printed by Chromium as Type 3 fonts,
   which some older printers handle badly. DejaVu Sans has the few signs it lacks (−). */
html {
  -webkit-print-color-adjust: exact; print-color-adjust: exact;
  font-family: "WenQuanYi Zen Hei", "DejaVu Sans", "Noto Sans CJK SC", "Noto Sans SC",
    "Source Han Sans SC", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", "Noto Sans",
    Arial, sans-serif;
}
body { margin: 0; color: #000; background: #fff; font-size: 9.5pt; line-height: 1.15; }
/* bold, never bolder: a <b> in bold text asked for a 900 weight the TrueType font has not */
b, strong { font-weight: bold; }
h1 { font-size: 15pt; margin: 0 0 0.5mm 0; text-align: center; line-height: 1.1; }
h2 { font-size: 11.5pt; margin: 4mm 0 1.5mm 0; }
p.sub { text-align: center; margin: 0 0 2mm 0; font-size: 10.5pt; }
.en { font-weight: normal; font-size: 0.85em; color: #333; }
table { border-collapse: collapse; width: 100%%; page-break-inside: auto; }
table.sheet { table-layout: fixed; }
col.c-hand, col.c-round { width: 6.5%%; }
col.c-player { width: 17%%; }
col.c-note { width: 19%%; }
.pn { font-size: 11pt; }
tr.round td { border-top: 0.7mm solid #000; }
tr { page-break-inside: avoid; }
th, td { border: 0.3mm solid #000; padding: 0.5mm 1mm; text-align: center; vertical-align: middle; }
th { background: #eee; font-weight: bold; }
th { word-break: keep-all; }  /* 标准分 stays one word; a line breaks at a space */
td[data-col="standard"], td[data-col="total-standard"] { white-space: nowrap; }  /* 1 1/2 */
.nb { white-space: nowrap; }
td.name { text-align: left; }
td.note { text-align: left; font-size: 7pt; }
td.note .nt { max-height: 2.2em; overflow: hidden; line-height: 1.1; }
td.p .d { font-weight: bold; font-size: 10pt; }
td.p .m { display: block; font-size: 7pt; line-height: 1.05; }
td.p .w { font-size: 7pt; color: #444; }
/* the boxes a score is written in by hand: 8.6 mm high (they were 7.6 mm and 7.2 mm) */
tr.hand td { height: 8.6mm; }
tr.total td { font-weight: bold; height: 8.6mm; }
tr.sign td { height: 12mm; }
th[data-col="team"] { font-weight: normal; font-size: 8.5pt; }
tr.total td:first-child .en, tr.sign td:first-child .en { font-size: 7pt; }
td.refsign { vertical-align: top; text-align: left; font-size: 8pt; }
.line.date { min-width: 32mm; }
tr.sub td { color: #333; font-style: italic; }
tr.unplayed td { color: #777; background: #f4f4f4; }
p.ended { text-align: center; margin: -1mm 0 1.5mm 0; font-size: 9.5pt; font-weight: bold; }
p.ended .en { font-weight: normal; }
.ref { margin-top: 3.5mm; display: flex; justify-content: space-between; font-size: 10.5pt; }
.line { display: inline-block; min-width: 55mm; border-bottom: 0.3mm solid #000; }
.legend { font-size: 6.5pt; margin: 1.2mm 0 0; color: #000; }
section.page + section.page { break-before: page; page-break-before: always; }
"""


# On a screen (the web pages serve the sheets and the results): wide tables scroll in their box,
# never the page, and the small print grows on a phone; the printed page is not changed.
_SCREEN_CSS = """
@media screen {
  body { padding: 2mm; }
  .scroll { overflow-x: auto; max-width: 100%; }
  td.note, td.p .m, td.p .w, .legend { font-size: 8pt; }
  .en,
  tr.total td:first-child .en, tr.sign td:first-child .en, thead th[data-col="name"] .en {
    font-size: max(0.85em, 7.5pt);
  }
}
@media screen and (max-width: 48rem) {
  body { font-size: 10.5pt; }
  table.sheet { min-width: 40rem; }
  /* the hand numbers and the row labels stay in view while the players' columns scroll */
  table.sheet tr > :first-child, table.sheet tr.hand > :nth-child(2),
  table.sheet thead tr:last-child > :nth-child(2) {
    position: sticky; left: 0; z-index: 1; background: #fff;
  }
  table.sheet tr.hand > :nth-child(2), table.sheet thead tr:last-child > :nth-child(2) {
    left: 2.5rem;  /* the hand column: 6.5% of the 40rem table, less its border */
  }
  table.sheet th:first-child, table.sheet thead tr:last-child > :nth-child(2) { background: #eee; }
  table.sheet tr.unplayed > :nth-child(-n+2) { background: #f4f4f4; }
  table.results, table.teams, table.best, table.fans, table.seating { width: auto; min-width: 100%; }
  td.note, td.p .m, td.p .w, .legend, p.ended .en, td.refsign { font-size: 8.5pt; }
  .en,
  tr.total td:first-child .en, tr.sign td:first-child .en, thead th[data-col="name"] .en {
    font-size: max(0.85em, 8.5pt);
  }
  td.note .nt { max-height: none; }
  .ref { flex-wrap: wrap; gap: 3mm; }
  .line { min-width: 40mm; }
  section.cards { grid-template-columns: 1fr; grid-template-rows: none !important; }
  /* the results: the rank and the name stay in view while the sessions scroll under them (a
     player's row read across seven sessions with the name out of sight was anyone's) */
  table.results tr:first-child > :first-child, table.results td[data-col="rank"],
  table.teams tr > :first-child {
    position: sticky; left: 0; z-index: 1; width: 2.6rem; min-width: 2.6rem;
  }
  table.results thead tr:first-child > :nth-child(3), table.results td[data-col="name"],
  table.teams tr > :nth-child(2) {
    position: sticky; left: 2.6rem; z-index: 1; min-width: 6rem;
    box-shadow: 2px 0 0 #000;  /* the edge the sessions scroll under */
  }
  table.results td[data-col="rank"], table.results td[data-col="name"],
  table.teams td[data-col="rank"], table.teams td[data-col="team"] { background: #fff; }
  /* separate borders: a collapsed border stays behind when its cell sticks */
  table.results, table.teams {
    border-collapse: separate; border-spacing: 0;
    border-top: 0.3mm solid #000; border-left: 0.3mm solid #000;
  }
  table.results th, table.results td, table.teams th, table.teams td { border-width: 0 0.3mm 0.3mm 0; }
  table.results td[data-col="team"] { font-size: 0.8em; }
}
/* a phone (up to 40rem): the score sheet reflows to the screen's width, the four players side
   by side as on paper (a hand is read across its four seats: the changes sum to 0), each hand's
   note under its row; it scrolled sideways in a box 345 px wide, two players of four in sight */
@media screen and (max-width: 40rem) {
  table.sheet, table.sheet thead, table.sheet tbody { display: block; width: 100%; min-width: 0; }
  table.sheet colgroup, table.sheet thead th[rowspan] { display: none; }
  table.sheet tr {
    display: grid; grid-template-columns: 2.2rem 2.2rem repeat(4, minmax(0, 1fr));
    border-left: 0.3mm solid #000;
  }
  table.sheet thead tr:first-child { border-top: 0.3mm solid #000; }
  table.sheet th, table.sheet td {
    position: static; border: 0; border-right: 0.3mm solid #000; border-bottom: 0.3mm solid #000;
    padding: 0.5mm 0.6mm; align-content: center; min-width: 0; overflow-wrap: anywhere;
  }
  table.sheet [colspan="2"] { grid-column: span 2; word-break: normal; }
  table.sheet tr.round { border-top: 0.7mm solid #000; }
  table.sheet tr.round td { border-top: 0; }
  table.sheet td.note, table.sheet td.refsign { grid-column: 1 / -1; height: auto; }
  table.sheet td.note:empty, table.sheet td.note:has(> .nt:empty) { display: none; }
  table.sheet td.note { background: #f6f6f6; }
  table.sheet tr.hand td, table.sheet tr.total td { height: auto; min-height: 8.6mm; }
  table.sheet tr.sign td { height: auto; min-height: 12mm; }
  table.sheet .pn { font-size: 10.5pt; }
  table.sheet thead tr:last-child > :nth-child(-n+2) { word-break: keep-all; overflow-wrap: normal; }
}
"""


def _css_string(text: str) -> str:
    """``text`` as a CSS string: every character but a letter or digit as a 6-digit escape, so
    that no quote, backslash or ``</style>`` in a tournament's name can end it."""
    return (
        '"' + "".join(c if c.isascii() and c.isalnum() else f"\\{ord(c):06x}" for c in text) + '"'
    )


def _footer(title: str) -> str:
    """The foot of every printed page (a page margin box): what the paper is, of which
    tournament, and the day it was printed; the page number goes on the right."""
    return f"{title} · 打印 Printed {datetime.now().date().isoformat()}"


def _page(
    title: str, body: str, *, paper: str | Paper = "a4", landscape: bool = False, css: str = ""
) -> str:
    """The HTML document of a paper: ``body`` laid out for ``paper`` (``PAPERS``), portrait or
    ``landscape``, with the page foot (``_footer``) and the extra ``css``."""
    size = paper_size(paper).css + (" landscape" if landscape else "")
    footer = _css_string(_footer(title))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'  # served as a web page too: no /favicon.ico asked
        f"<title>{_e(title)}</title>\n"
        f"<style>{_CSS % {'page': size, 'footer': footer}}{css}{_SCREEN_CSS}</style>\n"
        f"</head>\n<body>\n{body}</body>\n</html>\n"
    )


# -- the score sheet ----------------------------------------------------------------------------

# US Letter is 17.6 mm shorter than A4 (and 5.9 mm wider): the boxes a score is written in keep
# their 8.6 mm, the head, the labels and the small print give up the height instead
_SHEET_LETTER_CSS = """
@page { margin-top: 6mm; }
h1 { font-size: 13pt; }
p.sub { font-size: 9.5pt; margin-bottom: 1mm; }
p.ended { font-size: 7.5pt; margin: -0.5mm 0 1mm 0; }
p.ended .en { font-size: 7pt; }
thead tr > th:first-child { font-size: 8.5pt; }
thead tr:last-child th { font-size: 8.5pt; line-height: 1; }
col.c-hand, col.c-round { width: 5.5%; }
col.c-player { width: 18.5%; }
col.c-note { width: 15%; }
thead .pn { font-size: 10pt; }
thead th[data-col="name"] .en { font-size: 7pt; }
thead th { line-height: 1.1; }
tr.total td:first-child, tr.sign td:first-child { line-height: 1; }
tr.total td.note { line-height: 1.05; }
tr.sign td { height: 10mm; }
.legend { line-height: 1.1; margin-top: 1mm; }
"""


def _sheet_css(paper: str | Paper) -> str:
    """The score sheet's CSS for ``paper`` beyond ``_CSS``."""
    return _SHEET_LETTER_CSS if paper_size(paper).name == "letter" else ""


def _hand_marks(hand: HandRecord, wind: int, names: Sequence[str]) -> list[str]:
    """The marks of the player at seat wind ``wind`` in ``hand`` (``names``: E S W N)."""
    marks: list[str] = []
    if wind == 0:
        marks.append(_zh("dealer"))
    if hand.winner_seat == wind:
        win = f"{_zh('win')} {hand.fan_points}"
        if hand.flowers:
            win += f"+{hand.flowers}{_zh('flower')}"
        marks.append(win)
        if hand.discarder_seat is None:
            marks.append(_zh("self_drawn"))
    if hand.winner_seat is not None and hand.discarder_seat == wind:
        marks.append(_zh("deal_in"))
    for penalty in hand.penalties:
        label = HAND_KINDS.get(penalty.kind, penalty.kind)
        if penalty.seat == wind:
            if penalty.kind in _PAID_TO_EACH:
                marks.append(f"{label} -{3 * penalty.amount}")
            elif penalty.amount:
                marks.append(f"{label} -{penalty.amount}")
            else:
                marks.append(label)
        elif penalty.payee_seat == wind:
            marks.append(f"{label} +{penalty.amount}")
    return marks


def _hand_note(hand: HandRecord, names: Sequence[str]) -> str:
    parts: list[str] = []
    if hand.winner_seat is None:
        parts.append(_zh("drawn_hand"))
    else:
        winner = names[hand.winner_seat]
        how = (
            _zh("self_drawn")
            if hand.discarder_seat is None
            else f"{names[hand.discarder_seat]} {_zh('deal_in')}"
        )
        parts.append(f"{winner} {_zh('win')} {hand.fan_points} {_zh('fan')} ({how})")
        if hand.fans:
            parts.append("、".join(hand.fans))
    for penalty in hand.penalties:
        label = HAND_KINDS.get(penalty.kind, penalty.kind)
        who = names[penalty.seat] if penalty.seat is not None else "?"
        parts.append(f"{who} {label}")
    return "；".join(parts)


def score_sheet_html(
    store: Store, tournament: str, session: int, table: int, *, paper: str | Paper = "a4"
) -> str:
    """The 记分表 of table ``table`` in session ``session``: one printable page of ``paper``
    (``PAPERS``: A4, or US Letter with the head and the small print tighter so that the boxes
    keep their height).

    Columns are the four players (seated E S W N at the first hand), each following its player
    through the seat rotation; one row per hand 1-16 with the score change and the marks, then
    the hand total, the session deductions, the 局分 (= ``Store.table_scores``), the rank at the
    table, the standard points and the signatures. A table entered by its totals prints them
    with the hand rows blank; a table with nothing entered prints a blank sheet. A missing
    tournament or table raises ``StoreError``.
    """
    data, body = _sheet(store, tournament, session, table)
    title = f"{data.tournament} — {_zh('score_sheet')} session {session} table {table}"
    return _page(title, body, paper=paper, css=_sheet_css(paper))


def score_sheets_html(
    store: Store,
    tournament: str,
    session: int,
    tables: Iterable[int] | None = None,
    *,
    paper: str | Paper = "a4",
) -> str:
    """The 记分表 of several tables of a session (default: every table, by number) in one
    document, one page of ``paper`` each, as ``score_sheet_html`` prints them."""
    numbers = list(tables) if tables is not None else _table_numbers(store, tournament, session)
    if not numbers:
        raise StoreError(f"{tournament!r}: session {session} has no tables (run the draw first)")
    pages = []
    name = tournament
    for number in numbers:
        data, body = _sheet(store, tournament, session, number)
        name = data.tournament
        pages.append(f'<section class="page" data-table="{number}">\n{body}</section>\n')
    title = f"{name} — {_zh('score_sheet')} session {session}"
    return _page(title, "".join(pages), paper=paper, css=_sheet_css(paper))


def _table_numbers(store: Store, tournament: str, session: int) -> list[int]:
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        return list(
            db.scalars(
                select(GameTable.number)
                .join(TournamentSession)
                .where(TournamentSession.tournament_id == t.id, TournamentSession.number == session)
                .order_by(GameTable.number)
            )
        )


def _sheet(store: Store, tournament: str, session: int, table: int) -> tuple[_TableData, str]:
    """The body of one score sheet."""
    hands = {h.number: h for h in store.hands(tournament, session, table)}
    data = _table_data(store, tournament, session, table)
    scores = store.table_scores(tournament, session, table)
    players = tuple(p.name for p in data.seats)
    seating = SeatingTable(table, (players[0], players[1], players[2], players[3]))
    points: dict[str, Fraction] = {}
    ranks: dict[str, str] = {}
    if scores is not None:
        results = store.table_results(tournament)
        every = group_standard_points(results)
        points = {name: every[(session, name)] for name in players if (session, name) in every}
        ranks = _table_ranks(results, session, table)

    # a session ended before hand 16 (`finish`: 第六条四, 第十二条三(一)): the scores stand as reached
    status = next((x for x in store.table_status(tournament, session) if x.table == table), None)
    ended = status.ended if status is not None and not data.has_totals else None
    played = ended.hands if ended is not None else HANDS
    stand_ins = {  # 陪打: plays the seat, no place (not a team's 替补 who counts for the team)
        seat.name
        for t in session_seating(store, tournament, session)
        if t.table == table
        for seat in t.seats
        if seat.stand_in
    }

    out: list[str] = []
    out.append(
        f'<h1 data-col="tournament">{_e(data.tournament)}</h1>\n'
        f'<p class="sub">{_label("score_sheet", " ")} · '
        f'第 <b data-col="session">{session}</b> {_label("session", " ")} · '
        f'第 <b data-col="table">{table}</b> {_label("table", " ")} · '
        f'{_label("date", " ")}: <span class="line date" data-col="date"></span></p>\n'
    )
    if ended is not None:
        why = f"（{_e(ended.note)}）" if ended.note else ""
        out.append(
            f'<p class="ended" data-col="ended" data-hands="{played}">'
            f"本局提前结束：共打 <b>{played}</b> 盘（应打 {HANDS} 盘），按已取得的分数计算成绩{why}"
            f' <span class="en">Session ended early: {played} of {HANDS} hands played,'
            " scores stand as reached (第六条四)</span></p>\n"
        )
    out.append(
        '<div class="scroll"><table class="sheet">\n<colgroup><col class="c-hand"><col class="c-round">'
        + '<col class="c-player">' * 4
        + '<col class="c-note"></colgroup>\n<thead>\n'
    )
    heads = (
        ("seat", _label("first_seat", " ")),
        ("number", _label("number", " ", short=True)),
        ("name", _label("name", " ")),
        ("team", _label("team", " ")),
    )
    for index, (col, label) in enumerate(heads):
        out.append(f'<tr><th colspan="2">{label}</th>')
        for seat, person in enumerate(data.seats):
            if col == "seat":
                cell = f"{WIND_ZH[seat]} {WIND_EN[seat]}"
            elif col == "number":
                cell = str(person.number)
            elif col == "name":
                sub = ""
                pd = f" · {_zh('stand_in')}" if person.name in stand_ins else ""  # 第十二条三(二)
                if person.replaces is not None:
                    why = (
                        f" {_zh('forfeit')} {TERMS['forfeit'].en.lower()}, {_zh('session_score')} 0"
                        if person.replaces in data.forfeits
                        else ""
                    )
                    sub = f' <span class="en">({_sub()}{pd}, 代 {_e(person.replaces)}{why})</span>'
                elif person.substitute:
                    sub = f' <span class="en">({_sub()}{pd})</span>'
                cell = f'<span class="pn">{_e(person.name)}</span>{sub}'
            else:
                cell = _e(person.team or DASH)
            out.append(f'<th data-player="{_e(person.name)}" data-col="{col}">{cell}</th>')
        if index == 0:
            out.append(f'<th rowspan="5">{_label("notes")}</th>')
        out.append("</tr>\n")
    out.append(
        f"<tr><th>{_label('hand')}</th><th>{_label('round')}</th>"
        + f"<th>{_label('change', ' ')}</th>" * 4
    )
    out.append("</tr>\n</thead>\n<tbody>\n")

    changes = dict.fromkeys(players, 0)
    for number in range(HANDS):
        hand = hands.get(number)
        names = seating.seats_at(number)
        if number >= played:  # after an early end: not played, nothing to fill in
            out.append(
                f'<tr class="hand unplayed{" round" if number % 4 == 0 else ""}" '
                f'data-hand="{number + 1}" data-played="no">'
                f'<td data-col="hand">{number + 1}</td>'
                f'<td data-col="round">{WIND_ZH[number // 4]}</td>'
                + "".join(f'<td data-player="{_e(n)}">{DASH}</td>' for n in players)
                + '<td class="note" data-col="note">未打 <span class="en">not played</span></td>'
                "</tr>\n"
            )
            continue
        out.append(
            f'<tr class="hand{" round" if number % 4 == 0 else ""}" data-hand="{number + 1}">'
            f'<td data-col="hand">{number + 1}</td>'
            f'<td data-col="round">{WIND_ZH[number // 4]}</td>'
        )
        for name in players:
            wind = names.index(name)
            if hand is None:
                out.append(
                    f'<td class="p" data-player="{_e(name)}" data-wind="{WIND_EN[wind]}">'
                    f'<span class="w">{WIND_ZH[wind]}</span></td>'
                )
                continue
            delta = hand.deltas[wind]
            changes[name] += delta
            marks = _hand_marks(hand, wind, names)
            out.append(
                f'<td class="p" data-player="{_e(name)}" data-wind="{WIND_EN[wind]}">'
                f'<span class="w">{WIND_ZH[wind]}</span> '
                f'<span class="d" data-col="change">{_signed(delta)}</span>'
                f'<span class="m" data-col="marks">{_e(" ".join(marks))}</span></td>'
            )
        note = _hand_note(hand, names) if hand is not None else ""
        out.append(f'<td class="note" data-col="note"><div class="nt">{_e(note)}</div></td></tr>\n')

    deductions: dict[str, list[_Loose]] = defaultdict(list)
    for item in data.loose:
        deductions[item.player].append(item)
    entered = scores is not None

    def row(label: str, col: str, cells: Iterable[str], note: str = "") -> None:
        out.append(f'<tr class="total" data-row="{col}"><td colspan="2">{label}</td>')
        for name, cell in zip(players, cells, strict=True):
            out.append(f'<td data-player="{_e(name)}" data-col="{col}">{cell}</td>')
        out.append(f'<td class="note">{note}</td></tr>\n')

    row(
        _label("hands_total"),
        "hands",
        (_signed(changes[n]) if hands else "" for n in players),
    )
    row(
        _label("session_deductions"),
        "deductions",
        (
            _e(
                " ".join(
                    f"{LOOSE_KINDS.get(d.kind, d.kind)} -{d.amount}" for d in deductions.get(n, [])
                )
            )
            for n in players
        ),
        _e("；".join(f"{d.player}: {d.note}" for d in data.loose if d.note)),
    )
    row(
        _label("session_score"),
        "score",
        (str(scores[n]) if scores is not None else "" for n in players),
        f"{data.starting_points} + 盘分 − {_zh('deduction')}"
        ' <span class="en">(start + hands − deductions)</span>'
        if entered
        else "",
    )
    stand_in = _label("stand_in", " ", short=True)  # 陪打: no place (第十二条三(二))
    row(
        _label("table_rank"),
        "rank",
        (
            ranks.get(n, stand_in if person.substitute else DASH) if entered else ""
            for n, person in zip(players, data.seats, strict=True)
        ),
    )
    row(
        _label("standard_points"),
        "standard",
        ((format_points(points[n]) if n in points else DASH) if entered else "" for n in players),
    )
    out.append(f'<tr class="sign"><td colspan="2">{_label("player_signature")}</td>')
    for name in players:
        out.append(f'<td data-player="{_e(name)}" data-col="signature"></td>')
    # the referee signs at the end of the players' row, in the notes column: a line of its own
    # under the table left too little room for the boxes the scores are written in
    out.append(
        f'<td class="refsign" data-col="referee">{_label("referee_signature", " ")}</td></tr>\n'
        "</tbody>\n</table></div>\n"
    )
    out.append(
        f'<p class="legend">{_zh("dealer")} dealer · {_zh("win")} n winner with n'
        f" {_zh('fan')} fan points (+{_zh('flower')} flowers) · {_zh('self_drawn')} self-drawn"
        f" · {_zh('deal_in')} (放铳) discarded the winning tile · {_zh('drawn_hand')} drawn hand"
        f" · {_zh('false_win')} / {_zh('fake_win')} false win, paid to each other player"
        f" (第十四条六) · {_zh('violation')} fine (第十三条二(二)) · {_zh('warning')} warning"
        f" · {_zh('late')} lateness (第十三条二(一)) · {_zh('session_score')} = "
        f"{data.starting_points} + hands − deductions (第十条二(一)) · {''.join(WIND_ZH)}: seat"
        " wind in the hand (第五条九)"
        f" · {_zh('stand_in')}: a substitute, the score counts for the table, no place and no"
        f" {_zh('standard_points')} (第十二条三(二))</p>\n"
    )
    out.append(_readings_html(store.settings(tournament).readings))
    return data, "".join(out)


def _readings_html(readings: Readings) -> str:
    """The tournament's readings (``Readings``, docs/rules.md §19), one line under a paper."""
    return f'<p class="legend readings" data-col="readings">{_e(readings_line(readings))}</p>\n'


def _table_ranks(results: Sequence[TableResult], session: int, table: int) -> dict[str, str]:
    """Places at the table by 局分 among the entries the ranking ranks (``Entry.ranked``), the
    ones the standard points go to: a substitute (陪打) or a disqualified player takes no place,
    a forfeit by lateness (局分 0, not seated) takes one. Equal scores share a place (``2=``).
    The tournament's ``Readings`` as the ranking applies them: a team's 替补 takes a place by
    ``team_substitute`` "counts"; a 陪打 pushes the others down by ``substitute_table`` "four"
    (their own place not printed); a forfeit is last by ``forfeit`` "last"."""
    found = [r for r in results if (r.session, r.table) == (session, table)]
    out: dict[str, str] = {}
    for result in found:
        readings = result.readings
        forfeited = any(e.forfeit for e in result.entries)
        counts = readings.team_substitute == "counts" and not forfeited
        placed = [e for e in result.entries if e.ranked or (counts and e.team_substitute)]
        if readings.forfeit == "last":
            placed = [e for e in placed if not e.forfeit]
        shown = {e.player for e in placed}
        if readings.substitute_table == "four" and not forfeited:
            placed += [e for e in result.entries if e.substitute and e.player not in shown]
        scores = {e.player: e.score for e in placed}
        for name in shown:
            score = scores[name]
            place = 1 + sum(other > score for other in scores.values())
            tied = sum(other == score for other in scores.values()) > 1
            out[name] = f"{place}=" if tied else str(place)
    return out


# -- the results table --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Registry:
    name: str
    sessions: int
    people: dict[str, _Person]
    teams: dict[str, tuple[str | None, tuple[str, ...]]]  # team -> (leader, members by number)


def _registry(store: Store, tournament: str) -> _Registry:
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        rows = db.scalars(
            select(Player).where(Player.tournament_id == t.id).order_by(Player.number)
        ).all()
        people = {p.name: _person(p) for p in rows}
        teams: dict[str, tuple[str | None, tuple[str, ...]]] = {}
        for team in db.scalars(select(Team).where(Team.tournament_id == t.id).order_by(Team.name)):
            members = tuple(p.name for p in rows if p.team_id == team.id)
            teams[team.name] = (team.leader, members)
        return _Registry(t.name, t.sessions_planned, people, teams)


def _session_cells(history: PlayerHistory | None, sessions: int) -> str:
    lines = {line.session: line for line in history.lines} if history else {}
    cells: list[str] = []
    for number in range(1, sessions + 1):
        line = lines.get(number)
        score = DASH if line is None or line.score is None else str(line.score)
        points = (
            DASH
            if line is None or line.standard_points is None
            else format_points(line.standard_points)
        )
        mark = ""
        if line is not None and line.forfeit:  # 自动弃权: 局分 0, not played (第十三条二(一))
            score, mark = f"{score} {_zh('forfeit')}", ' data-status="forfeit"'
        elif line is not None and line.bye:  # 轮空: sat out by the draw (第十二条一)
            score, mark = _zh("bye"), ' data-status="bye"'
        cells.append(
            f'<td data-session="{number}" data-col="score"{mark}>{score}</td>'
            f'<td data-session="{number}" data-col="standard">{points}</td>'
        )
    return "".join(cells)


def _left_note(withdrawal: WithdrawalLine | None) -> str:
    """After a name on the results table: 退赛 withdrawn (or 停赛 disqualified) and the session
    the player left from; "" for a player still in the tournament."""
    if withdrawal is None:
        return ""
    zh = "退赛" if withdrawal.reason == "withdrawn" else "停赛"
    return (
        f'<br><span class="en" data-col="left" data-left-from="{withdrawal.from_session}">'
        f"{zh} {withdrawal.reason}, 第{withdrawal.from_session}{_zh('session')}起"
        f" from session {withdrawal.from_session}</span>"
    )


def results_table_html(store: Store, tournament: str, *, paper: str | Paper = "a4") -> str:
    """The 比赛成绩统计表: every player in the order of the individual ranking (第十一条), with
    each session's 局分 and 标准分 and the totals; registered players without a ranked session
    and substitutes (第十二条三: not ranked) follow, marked. Below: the team ranking with its
    members. Pages of ``paper`` (``PAPERS``), landscape from 5 sessions on. A missing
    tournament raises ``StoreError``."""
    registry = _registry(store, tournament)
    results = store.table_results(tournament)
    histories = player_histories(results)
    standings = individual_ranking(results)
    sessions = registry.sessions
    landscape = sessions > 4

    out: list[str] = [
        f'<h1 data-col="tournament">{_e(registry.name)}</h1>\n'
        f'<p class="sub">{_label("results_table", " ")}</p>\n'
        f"<h2>{_label('individual_ranking', ' ')}</h2>\n"
        '<div class="scroll"><table class="results">\n<thead>\n<tr>'
        f'<th rowspan="2">{_label("rank")}</th>'
        f'<th rowspan="2">{_label("number", short=True)}</th>'
        f'<th rowspan="2">{_label("name")}</th>'
        f'<th rowspan="2">{_label("team")}</th>'
    ]
    for number in range(1, sessions + 1):
        out.append(
            f'<th colspan="2">第{number}{_zh("session")}<br>'
            f'<span class="en">{TERMS["session"].en} {number}</span></th>'
        )
    out.append(
        f'<th colspan="2">{_label("total", " ")}</th></tr>\n<tr>'
        + f"<th>{_zh('session_score')}</th><th>{_zh('standard_points')}</th>" * sessions
        + f"<th>{_label('standard_points', short=True)}</th>"
        + f"<th>{_label('match_points', short=True)}</th></tr>\n</thead>\n<tbody>\n"
    )

    # who left the tournament, from which session (第十二条二, 第十三条四): as recorded
    left = {w.player: w for w in store.withdrawals(tournament)}

    def person_cells(name: str) -> str:
        person = registry.people.get(name)
        number = str(person.number) if person else ""
        team = person.team if person and person.team else DASH
        return (
            f'<td data-col="number">{number}</td><td class="name" data-col="name">{_e(name)}'
            f"{_left_note(left.get(name))}</td>"
            f'<td class="name" data-col="team">{_e(team)}</td>'
        )

    ranked = {s.name for s in standings}
    for standing in standings:
        out.append(
            f'<tr data-player="{_e(standing.name)}" data-kind="ranked">'
            f'<td data-col="rank">{standing.label}</td>{person_cells(standing.name)}'
            f"{_session_cells(histories.get(standing.name), sessions)}"
            f'<td data-col="total-standard">{format_points(standing.standard_points)}</td>'
            f'<td data-col="total-score">{standing.match_points}</td></tr>\n'
        )
    others = [p for p in registry.people.values() if p.name not in ranked and not p.substitute]
    subs = [p for p in registry.people.values() if p.name not in ranked and p.substitute]
    # anyone in the results who is not registered (cannot happen through the store) comes last
    strays = sorted(set(histories) - ranked - set(registry.people))
    for person in others:
        out.append(
            f'<tr data-player="{_e(person.name)}" data-kind="unranked">'
            f'<td data-col="rank">{DASH}</td>{person_cells(person.name)}'
            f"{_session_cells(histories.get(person.name), sessions)}"
            f'<td data-col="total-standard">{DASH}</td><td data-col="total-score">{DASH}</td>'
            "</tr>\n"
        )
    for name in [p.name for p in subs] + strays:
        out.append(
            f'<tr class="sub" data-player="{_e(name)}" data-kind="substitute">'
            f'<td data-col="rank">{_label("substitute", short=True)}</td>{person_cells(name)}'
            f"{_session_cells(histories.get(name), sessions)}"
            f'<td data-col="total-standard">{DASH}</td><td data-col="total-score">{DASH}</td>'
            "</tr>\n"
        )
    out.append("</tbody>\n</table></div>\n")
    out.append(
        f'<p class="legend">{_zh("session_score")}: match points of the session (第十条二(一))'
        f" · {_zh('standard_points')}: standard points (第十条二(二)) · order: total standard"
        f" points, then {_zh('match_points')}之和, 单局{_zh('standard_points')}最高,"
        f" 单局{_zh('standard_points')}高分多 (第十一条); 3= a shared place"
        f" · {_zh('substitute')}: substitute, scores count for the table but take no"
        f" place (第十二条三) · {_zh('forfeit')}: forfeit, more than 15 minutes late, 局分 0"
        f" (第十三条二(一)) · {_zh('bye')}: bye, sat out by the draw (第十二条一)"
        f" · {DASH}: did not play / no standard points</p>\n"
    )
    if registry.teams:
        teams = {team: members for team, (_, members) in registry.teams.items()}
        out.append(_teams_html(registry, histories, team_ranking(results, teams)))
    out.append(_readings_html(store.settings(tournament).readings))
    title = f"{registry.name} — {_zh('results_table')}"
    return _page(title, "".join(out), paper=paper, landscape=landscape)


def _teams_html(
    registry: _Registry, histories: dict[str, PlayerHistory], standings: list[Standing]
) -> str:
    sessions = registry.sessions
    out = [
        f"<h2>{_label('team_ranking', ' ')}</h2>\n"
        '<div class="scroll"><table class="teams">\n<thead>\n<tr>'
        f"<th>{_label('rank')}</th>"
        f"<th>{_label('team')}</th>"
        f"<th>{_label('members')}</th>"
    ]
    for number in range(1, sessions + 1):
        out.append(
            f"<th>第{number}{_zh('session')}<br>"
            f'<span class="en">{TERMS["session"].abbr}{number}</span></th>'
        )
    out.append(
        f"<th>{_label('standard_points', short=True)}</th>"
        f"<th>{_label('match_points', short=True)}</th></tr>\n</thead>\n<tbody>\n"
    )
    for standing in standings:
        per_session: dict[int, Fraction] = defaultdict(Fraction)
        played: set[int] = set()
        for member in standing.members:
            history = histories.get(member)
            if history is None:
                continue
            for line in history.ranked_lines:
                per_session[line.session] += line.standard_points or Fraction(0)
                played.add(line.session)
        leader = registry.teams[standing.name][0]
        members = []
        for member in standing.members:
            person = registry.people[member]
            label = f"{person.number} {member}"
            if member == leader:
                label += f" ({_zh('captain')})"
            if person.substitute:
                label += f" ({_zh('substitute')})"
            members.append(f'<span class="nb">{_e(label)}</span>')  # a name never breaks
        out.append(
            f'<tr data-team="{_e(standing.name)}"><td data-col="rank">{standing.label}</td>'
            f'<td class="name" data-col="team">{_e(standing.name)}</td>'
            f'<td class="name" data-col="members">{"、".join(members)}</td>'
        )
        for number in range(1, sessions + 1):
            cell = format_points(per_session[number]) if number in played else DASH
            out.append(f'<td data-session="{number}" data-col="standard">{cell}</td>')
        out.append(
            f'<td data-col="total-standard">{format_points(standing.standard_points)}</td>'
            f'<td data-col="total-score">{standing.match_points}</td></tr>\n'
        )
    out.append("</tbody>\n</table></div>\n")
    return "".join(out)


# -- seat cards ---------------------------------------------------------------------------------


SEAT_STATUSES = ("seated", "plays_for", "absent", "forfeit", "bye", "not_seated", "not_drawn")
"""What a seat card says of a session (``SeatLine.status``): seated at a table; playing the seat
of ``other`` (a substitute, 第十二条三(二)); replaced by ``other`` (absent, or more than 15 minutes
late: 弃权, 第十三条二(一)); a bye (轮空, 第十二条一); at no table (a team's substitute, a player
registered after the draw); the session is not drawn yet."""


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One session on a seat card: ``table`` and ``seat`` (0-3, E S W N at the session's first
    hand) where the player sits, or the seat they were drawn to when replaced."""

    session: int
    status: str
    table: int | None = None
    seat: int | None = None
    other: str | None = None  # the player replaced (plays_for) or replacing (absent, forfeit)


@dataclass(frozen=True, slots=True)
class SeatCard:
    """A player's seat card: where they sit in every planned session."""

    name: str
    number: int
    team: str | None
    substitute: bool
    lines: tuple[SeatLine, ...]


def seat_cards(store: Store, tournament: str, *, order: str = "number") -> list[SeatCard]:
    """Every registered player's seat card, by registration ``number`` or by ``name``. A session
    with no tables is ``not_drawn`` on every card. A missing tournament raises ``StoreError``."""
    if order not in ("number", "name"):
        raise ValueError(f"order must be 'number' or 'name', not {order!r}")
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        players = db.scalars(
            select(Player).where(Player.tournament_id == t.id).order_by(Player.number)
        ).all()
        sessions = {
            s.number: s
            for s in db.scalars(
                select(TournamentSession).where(TournamentSession.tournament_id == t.id)
            )
        }
        lines: dict[str, list[SeatLine]] = {p.name: [] for p in players}
        for number in range(1, t.sessions_planned + 1):
            row = sessions.get(number)
            if row is None or not row.tables:
                for out in lines.values():
                    out.append(SeatLine(number, "not_drawn"))
                continue
            found: dict[str, SeatLine] = {}
            for table in row.tables:
                for seat in table.seats:
                    if seat.replaces is None:
                        found[seat.player.name] = SeatLine(
                            number, "seated", table.number, seat.seat
                        )
                        continue
                    found[seat.player.name] = SeatLine(
                        number, "plays_for", table.number, seat.seat, seat.replaces.name
                    )
                    found[seat.replaces.name] = SeatLine(
                        number, "absent", table.number, seat.seat, seat.player.name
                    )
            for absence in db.scalars(
                select(SessionAbsence).where(SessionAbsence.session_id == row.id)
            ):
                name = absence.player.name
                if absence.kind == "bye" and name not in found:
                    found[name] = SeatLine(number, "bye")
                elif absence.kind == "forfeit" and name in found:
                    drawn = found[name]
                    found[name] = SeatLine(number, "forfeit", drawn.table, drawn.seat, drawn.other)
            for name, out in lines.items():
                out.append(found.get(name, SeatLine(number, "not_seated")))
        cards = [
            SeatCard(
                p.name,
                p.number,
                p.team.name if p.team else None,
                p.substitute,
                tuple(lines[p.name]),
            )
            for p in players
        ]
    if order == "name":
        cards.sort(key=lambda c: (c.name.casefold(), c.name, c.number))
    return cards


_CARD_CSS = """
section.cards { display: grid; grid-template-columns: 1fr 1fr; }
div.card {
  border: 0.3mm dashed #777; padding: 2.5mm 3mm; overflow: hidden; break-inside: avoid;
  page-break-inside: avoid;
}
div.card .ct { font-size: 8pt; color: #333; display: flex; justify-content: space-between; }
div.card .who { font-size: 13pt; font-weight: bold; line-height: 1.4; margin: 1mm 0 1mm 0; }
div.card .who .no { display: inline-block; min-width: 9mm; }
div.card .tm { font-size: 9pt; margin-bottom: 1.2mm; }
div.card table td, div.card table th { padding: 0.3mm 1mm; font-size: 9pt; }
div.card td.st { font-size: 8pt; }
div.card td.seat b { font-size: 10.5pt; }
div.card .legend { margin-top: 1mm; font-size: 6.5pt; }
div.card .m { font-size: 7pt; font-weight: normal; }
"""


def _card_height(paper: str | Paper) -> float:
    """The height in mm the cards of a page may take: the page between its margins, less 1 mm
    (281 mm on A4, 263.4 mm on Letter); the rows of cards share it less another 1 mm."""
    return paper_size(paper).usable_height - 1


def _card_rows(sessions: int, paper: str | Paper = "a4") -> int:
    """Cards down a page of ``paper`` (two across), so that every session's line fits on a
    card."""
    needed = 24 + 5 * (sessions + 1)
    return max(1, min(5, int(_card_height(paper) // needed)))


def _card_line(line: SeatLine) -> str:
    session = f'<td data-col="session">{line.session}</td>'
    if line.status in ("not_drawn", "bye", "not_seated"):
        key = {"not_drawn": "not_drawn", "bye": "bye", "not_seated": ""}[line.status]
        text = _label(key, " ") if key else DASH
        return (
            f'<tr data-session="{line.session}" data-status="{line.status}">{session}'
            f'<td class="st" colspan="2" data-col="status">{text}</td></tr>\n'
        )
    assert line.table is not None and line.seat is not None
    seat = f"<b>{WIND_ZH[line.seat]}</b> {WIND_EN[line.seat]}"
    note = ""
    if line.status == "plays_for":
        note = f'<br><span class="m">{_label("plays_for", " ")} {_e(line.other)}</span>'
    elif line.status in ("absent", "forfeit"):
        key = "absent" if line.status == "absent" else "forfeit"
        note = (
            f'<br><span class="m">{_label(key, " ")}: {_e(line.other)} {_zh("plays_for")} '
            '<span class="en">(plays the seat)</span></span>'
        )
    return (
        f'<tr data-session="{line.session}" data-status="{line.status}">{session}'
        f'<td data-col="table"><b>{line.table}</b></td>'
        f'<td class="seat" data-col="seat" data-seat="{WINDS[line.seat][0].upper()}">'
        f"{seat}{note}</td></tr>\n"
    )


def _card_html(tournament: str, card: SeatCard) -> str:
    team = (
        f'<div class="tm">{_label("team", " ")}: <span data-col="team">{_e(card.team)}</span>'
        + (f" · {_sub()}" if card.substitute else "")
        + "</div>\n"
        if card.team
        else '<div class="tm">&nbsp;</div>\n'
    )
    rows = "".join(_card_line(line) for line in card.lines)
    return (
        f'<div class="card" data-player="{_e(card.name)}">\n'
        f'<div class="ct"><span data-col="tournament">{_e(tournament)}</span>'
        f"<span>{_label('seat_card', ' ')}</span></div>\n"
        f'<div class="who"><span class="no" data-col="number">{card.number}</span> '
        f'<span data-col="name">{_e(card.name)}</span></div>\n{team}'
        '<table class="seats">\n<thead><tr>'
        f"<th>{_label('session', ' ')}</th><th>{_label('table', ' ')}</th>"
        f"<th>{_label('first_seat', ' ')}</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n"
        f'<p class="legend">{_label("first_seat", " ")}: the seat at hand 1 · '
        f"{_label('seats_rotate', ' ')} (第五条九)</p>\n</div>\n"
    )


def seat_cards_html(
    store: Store, tournament: str, *, order: str = "number", paper: str | Paper = "a4"
) -> str:
    """The seat cards (座位卡) of every registered player (``seat_cards``), two across a page of
    ``paper`` and as many down as the sessions allow, dashed cut lines round each card. Each lists
    every planned session: the table and the seat wind at its first hand, a bye, a substitution,
    or that the session is not drawn yet."""
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        name, sessions = t.name, t.sessions_planned
    cards = seat_cards(store, tournament, order=order)
    rows = _card_rows(sessions, paper)
    per_page = 2 * rows
    height = f"{(_card_height(paper) - 1) / rows:.1f}mm"
    pages = []
    for start in range(0, max(len(cards), 1), per_page):
        chunk = "".join(_card_html(name, c) for c in cards[start : start + per_page])
        pages.append(
            f'<section class="page cards" style="grid-template-rows: repeat({rows}, {height});">'
            f"\n{chunk}</section>\n"
        )
    return _page(f"{name} — {_zh('seat_card')}", "".join(pages), paper=paper, css=_CARD_CSS)


# -- the seating of a session ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A seat of a session's table: ``seat`` 0-3 (E S W N at the first hand). ``stand_in``: a
    陪打 who plays the seat and takes no place and no standard points (第十二条三(二)): a
    registered substitute, or anyone playing for an absent player (``plays_for``); a team's
    替补 whose points count for the team (``Readings.team_substitute`` "counts") is not one.
    ``forfeit``: the player played for forfeited the session (more than 15 minutes late, 局分 0,
    第十三条二(一)), as recorded with the substitution, before any score."""

    seat: int
    name: str
    number: int
    team: str | None
    substitute: bool
    stand_in: bool
    plays_for: str | None = None
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class SeatedTable:
    table: int
    seats: tuple[SeatedPlayer, ...]


def session_seating(store: Store, tournament: str, session: int) -> list[SeatedTable]:
    """The tables of a session by number, their players at E S W N with the 陪打 marked. A
    missing tournament, or a session not seated, raises ``StoreError``."""
    counts = store.settings(tournament).readings.team_substitute == "counts"
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        tables = db.scalars(
            select(GameTable)
            .join(TournamentSession)
            .where(TournamentSession.tournament_id == t.id, TournamentSession.number == session)
            .order_by(GameTable.number)
        ).all()
        if not tables:
            raise StoreError(
                f"{tournament!r}: session {session} is not seated (run the draw first)"
            )
        forfeits = set(
            db.scalars(
                select(SessionAbsence.player_id).where(
                    SessionAbsence.session_id == tables[0].session_id,
                    SessionAbsence.kind == "forfeit",
                )
            )
        )
        out = []
        for table in tables:
            seats = []
            for seat in sorted(table.seats, key=lambda x: x.seat):
                player = seat.player
                substitute = player.substitute or seat.replaces is not None
                team_counts = counts and player.substitute and player.team is not None
                seats.append(
                    SeatedPlayer(
                        seat.seat,
                        player.name,
                        player.number,
                        player.team.name if player.team else None,
                        substitute,
                        substitute and not team_counts,
                        seat.replaces.name if seat.replaces is not None else None,
                        seat.replaces_id in forfeits,
                    )
                )
            out.append(SeatedTable(table.number, tuple(seats)))
        return out


@dataclass(frozen=True, slots=True)
class SessionBye:
    """A player who sits out a session (轮空, 第十二条一): drawn with a bye."""

    name: str
    number: int
    team: str | None


def session_byes(store: Store, tournament: str, session: int) -> list[SessionBye]:
    """The players with a bye in ``session`` (轮空, 第十二条一), by registration number: they
    sit at no table, and a seating list that left them out would leave them looking for their
    name. A bye taken up by a substitution (the player then plays for someone) is not one."""
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        row = db.scalar(
            select(TournamentSession).where(
                TournamentSession.tournament_id == t.id, TournamentSession.number == session
            )
        )
        if row is None:
            return []
        seated = {seat.player_id for table in row.tables for seat in table.seats}
        byes = [
            absence.player
            for absence in db.scalars(
                select(SessionAbsence).where(
                    SessionAbsence.session_id == row.id, SessionAbsence.kind == "bye"
                )
            )
            if absence.player_id not in seated
        ]
        return [
            SessionBye(p.name, p.number, p.team.name if p.team else None)
            for p in sorted(byes, key=lambda p: p.number)
        ]


def byes_text(byes: Sequence[SessionBye]) -> str:
    """``轮空 Bye: 12 Bam4, 19 Cra3`` for a seating list; "" with none."""
    if not byes:
        return ""
    return f"{_zh('bye')} Bye: " + ", ".join(f"{b.number} {b.name}" for b in byes)


def seat_mark(seat: SeatedPlayer) -> str:
    """What a seating list prints after a substitute's name: 陪打 (plays the seat, not ranked,
    第十二条三(二)) or 替补 (a team's substitute whose points count for the team), and whom they
    play for, with 弃权 when that player forfeited (局分 0, 第十三条二(一)); "" for a player."""
    if not seat.substitute:
        return ""
    mark = f"{_zh('stand_in')} substitute" if seat.stand_in else f"{_zh('substitute')} team sub"
    if seat.plays_for is not None:
        mark += f" · {_zh('plays_for')} {seat.plays_for}"
        if seat.forfeit:
            mark += f" ({_zh('forfeit')} forfeit)"
    return mark


_SEATING_CSS = (
    # posted on a wall, read from 2 m: the table numbers 40 pt (digits about 10 mm high, they
    # were 20 pt, 5 mm), the names 16 pt; four equal seat columns
    "table.seating { table-layout: fixed; }\n"
    "table.seating col.c-table { width: 13%; }\n"
    "table.seating td { height: 17mm; font-size: 14pt; }\n"
    "table.seating td[data-col=table] b { font-size: 40pt; line-height: 1; }\n"
    "table.seating th { font-size: 12pt; }\n"
    "table.seating td .pn { font-size: 16pt; font-weight: bold; }\n"
    "table.seating td .no { color: #000; font-size: 12pt; }\n"
    "table.seating td .en { font-size: 10pt; color: #000; }\n"
    "table.seating .mark { font-size: 10.5pt; }\n"
    "table.seating td[data-kind=stand-in] { background: #f1f1f1; }\n"
    # the title is the first row of the table's head: a page the list runs onto says again
    # which tournament and which session it is (it said neither)
    "table.seating th.title { border: 0; background: #fff; font-weight: normal; padding: 0 0 2mm; }\n"
    "p.sub { font-size: 13pt; }\n"
    "p.byes { font-size: 14pt; }\n"
    "p.byes .pn { font-size: 15pt; }\n"
    "p.byes .no { color: #444; font-size: 11pt; }\n"
)


def _seating_body(store: Store, name: str, session: int) -> str:
    tables = session_seating(store, name, session)
    byes = session_byes(store, name, session)
    out = [
        '<div class="scroll"><table class="seating">\n'
        '<colgroup><col class="c-table">' + "<col>" * 4 + "</colgroup>\n"
        '<thead><tr><th class="title" colspan="5">'
        f'<h1 data-col="tournament">{_e(name)}</h1>\n'
        f'<p class="sub">座位表 <span class="en">Seating</span> · '
        f'第 <b data-col="session">{session}</b> {_label("session", " ")}</p></th></tr>\n'
        f"<tr><th>{_label('table')}</th>"
        + "".join(
            f'<th>{WIND_ZH[i]}<br><span class="en">{WIND_EN[i]}</span></th>' for i in range(4)
        )
        + "</tr></thead>\n<tbody>\n"
    ]
    for table in tables:
        out.append(f'<tr data-table="{table.table}"><td data-col="table"><b>{table.table}</b></td>')
        for seat in table.seats:
            mark = seat_mark(seat)
            kind = "stand-in" if seat.stand_in else "substitute" if seat.substitute else "player"
            out.append(
                f'<td class="name" data-player="{_e(seat.name)}" data-seat="{WIND_EN[seat.seat]}"'
                f' data-kind="{kind}"><span class="no">{seat.number}</span> '
                f'<span class="pn">{_e(seat.name)}</span>'
                + (f'<br><span class="en">{_e(seat.team)}</span>' if seat.team else "")
                + (f'<br><b class="mark" data-col="mark">{_e(mark)}</b>' if mark else "")
                + "</td>"
            )
        out.append("</tr>\n")
    out.append("</tbody>\n</table></div>\n")
    if byes:  # 轮空 (第十二条一): at no table, so listed, or they would look for their name
        out.append(
            f'<p class="byes" data-col="byes"><b>{_zh("bye")}</b> <span class="en">Bye</span>: '
            + ", ".join(
                f'<span data-player="{_e(b.name)}"><span class="no">{b.number}</span> '
                f'<b class="pn">{_e(b.name)}</b>'
                + (f' <span class="en">({_e(b.team)})</span>' if b.team else "")
                + "</span>"
                for b in byes
            )
            + "</p>\n"
        )
    out.append(
        f'<p class="legend">{"".join(WIND_ZH)}: the seat at hand 1 · {_label("seats_rotate", " ")}'
        f" (第五条九) · {_zh('stand_in')}: a substitute, plays the seat, the score counts for the"
        f" table, no place and no {_zh('standard_points')} (第十二条三(二))</p>\n"
    )
    return "".join(out)


def seating_html(store: Store, tournament: str, session: int, *, paper: str | Paper = "a4") -> str:
    """The seating of a session (座位表) to print and post on pages of ``paper``: one row per
    table, the players at E S W N of the first hand with their number and team; a 陪打 marked
    (第十二条三(二))."""
    with OrmSession(store.engine) as db:
        name = _tournament(db, tournament).name
    body = _seating_body(store, name, session)
    return _page(f"{name} — 座位表 session {session}", body, paper=paper, css=_SEATING_CSS)


def seatings_html(
    store: Store,
    tournament: str,
    sessions: Iterable[int] | None = None,
    *,
    paper: str | Paper = "a4",
) -> str:
    """The seating of several sessions (default: every session drawn) in one document, each
    session from a new page of ``paper``, as ``seating_html`` prints it. No session drawn
    raises ``StoreError``."""
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        name = t.name
        drawn = sorted(s.number for s in t.sessions if s.tables)
    numbers = list(sessions) if sessions is not None else drawn
    if not numbers:
        raise StoreError(f"{tournament!r}: no session is seated (run the draw first)")
    pages = "".join(
        f'<section class="page" data-session="{n}">\n{_seating_body(store, name, n)}</section>\n'
        for n in numbers
    )
    return _page(f"{name} — 座位表 seating", pages, paper=paper, css=_SEATING_CSS)


# -- best hands and fan counts ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BestHand:
    """A winning hand entered hand by hand. ``hand`` is 0-15 (printed 1-16); ``fans`` as
    recorded, 中文, a fan counted twice listed twice (empty: entered by its points alone)."""

    player: str
    session: int
    table: int
    hand: int
    fan_points: int
    flowers: int
    self_drawn: bool
    fans: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FanCount:
    """How often a fan was counted over the recorded wins: ``times`` (箭刻 twice in a hand is 2),
    in how many winning ``hands`` and by how many different ``players``. ``zh`` as recorded,
    ``en`` and ``points`` from the fan table ('' and None for a name it does not know)."""

    zh: str
    en: str
    points: int | None
    times: int
    hands: int
    players: int


@dataclass(frozen=True, slots=True)
class Highlights:
    """The best hands and the fan counts of a tournament. ``hands``: every hand entered hand by
    hand (wins, drawn hands, false wins); ``wins``: the winning ones; ``wins_without_fans``:
    wins entered by their points alone, which count among the best hands but not in the fan
    counts. ``totals_only``: the tables (session, table) entered as session totals only, whose
    hands are not known."""

    tournament: str
    best: tuple[BestHand, ...]
    fans: tuple[FanCount, ...]
    hands: int
    wins: int
    wins_without_fans: int
    totals_only: tuple[tuple[int, int], ...]


def _fan_key(name: str) -> tuple[str, str, int | None, int]:
    """(中文, English, points, order) of a recorded fan name."""
    try:
        fan = Fan.by_name(name)
    except KeyError:
        return name, "", None, 1000
    return fan.zh, fan.en, fan.points, fan.number


def highlights(store: Store, tournament: str, *, top: int = 10) -> Highlights:
    """The ``top`` highest-scoring hands entered hand by hand (by fan points, then flowers;
    hands tied with the last one listed are all kept), and every fan counted over all recorded
    wins, most frequent first. A missing tournament raises ``StoreError``."""
    if top < 0:
        raise ValueError(f"top must be 0 or more, not {top}")
    wins: list[BestHand] = []
    recorded = 0
    totals_only: list[tuple[int, int]] = []
    with OrmSession(store.engine) as db:
        t = _tournament(db, tournament)
        name = t.name
        sessions = db.scalars(
            select(TournamentSession)
            .where(TournamentSession.tournament_id == t.id)
            .order_by(TournamentSession.number)
        ).all()
        for session in sessions:
            for table in sorted(session.tables, key=lambda x: x.number):
                hands = db.scalars(
                    select(HandRecord)
                    .where(HandRecord.table_id == table.id)
                    .order_by(HandRecord.number)
                ).all()
                if not hands:
                    totals = select(SessionResult.id).where(SessionResult.table_id == table.id)
                    if db.scalar(totals) is not None:
                        totals_only.append((session.number, table.number))
                    continue
                seats = sorted(table.seats, key=lambda s: s.seat)
                if len(seats) != 4:
                    continue
                a, b, c, d = (s.player.name for s in seats)
                seating = SeatingTable(table.number, (a, b, c, d))
                recorded += len(hands)
                for hand in hands:
                    if hand.winner_seat is None:
                        continue
                    wins.append(
                        BestHand(
                            seating.seats_at(hand.number)[hand.winner_seat],
                            session.number,
                            table.number,
                            hand.number,
                            hand.fan_points,
                            hand.flowers,
                            hand.discarder_seat is None,
                            tuple(hand.fans or ()),
                        )
                    )
    ordered = sorted(
        wins, key=lambda h: (-h.fan_points, -h.flowers, h.session, h.table, h.hand, h.player)
    )
    best = ordered[:top]
    if best:
        last = (best[-1].fan_points, best[-1].flowers)
        best += [h for h in ordered[top:] if (h.fan_points, h.flowers) == last]
    times: Counter[str] = Counter()
    in_hands: Counter[str] = Counter()
    players: dict[str, set[str]] = defaultdict(set)
    facts: dict[str, tuple[str, int | None, int]] = {}
    for win in wins:
        counted = Counter(_fan_key(f)[0] for f in win.fans)
        for fan in win.fans:
            zh, en, points, number = _fan_key(fan)
            facts[zh] = (en, points, number)
        for zh, count in counted.items():
            times[zh] += count
            in_hands[zh] += 1
            players[zh].add(win.player)
    fans = sorted(
        (
            FanCount(zh, facts[zh][0], facts[zh][1], times[zh], in_hands[zh], len(players[zh]))
            for zh in times
        ),
        key=lambda f: (-f.hands, -f.times, facts[f.zh][2], f.zh),
    )
    return Highlights(
        name,
        tuple(best),
        tuple(fans),
        recorded,
        len(wins),
        sum(not h.fans for h in wins),
        tuple(totals_only),
    )


def highlights_json(found: Highlights) -> dict[str, object]:
    """``highlights`` as plain data (hands numbered 1-16, as printed)."""
    return {
        "tournament": found.tournament,
        "hands_recorded": found.hands,
        "wins": found.wins,
        "wins_without_fans": found.wins_without_fans,
        "tables_totals_only": [{"session": s, "table": t} for s, t in found.totals_only],
        "best_hands": [
            {
                "player": h.player,
                "session": h.session,
                "table": h.table,
                "hand": h.hand + 1,
                "fan_points": h.fan_points,
                "flowers": h.flowers,
                "self_drawn": h.self_drawn,
                "fans": list(h.fans),
            }
            for h in found.best
        ],
        "fan_counts": [
            {
                "fan": f.zh,
                "en": f.en,
                "points": f.points,
                "times": f.times,
                "hands": f.hands,
                "players": f.players,
            }
            for f in found.fans
        ],
    }


def highlights_notes(found: Highlights) -> list[str]:
    """What the counts leave out, in English: tables entered as totals only (no hands), wins
    entered without their fans, nothing entered hand by hand."""
    notes = []
    if found.totals_only:
        where = ", ".join(f"session {s} table {t}" for s, t in found.totals_only)
        notes.append(
            f"{len(found.totals_only)} table(s) were entered as session totals only and have no "
            f"hands: none of their wins is among the best hands or in the fan counts ({where})."
        )
    if found.wins_without_fans:
        notes.append(
            f"{found.wins_without_fans} win(s) were entered by their fan points alone, without "
            "the fans: they rank among the best hands but add nothing to the fan counts."
        )
    if not found.hands:
        notes.append("No hand has been entered hand by hand yet.")
    return notes


def _fan_list(fans: Sequence[str]) -> str:
    counted = Counter(fans)
    parts = [f"{zh}×{n}" if n > 1 else zh for zh, n in counted.items()]
    return "、".join(_e(p) for p in parts) if parts else DASH


def highlights_html(
    store: Store, tournament: str, *, top: int = 10, paper: str | Paper = "a4"
) -> str:
    """The best hands and the fan counts (``highlights``) as a printable page of ``paper``,
    with what they leave out said at the top (tables entered as totals only have no hands)."""
    readings = store.settings(tournament).readings
    return highlights_page(highlights(store, tournament, top=top), readings, paper=paper)


def highlights_page(
    found: Highlights, readings: Readings | None = None, *, paper: str | Paper = "a4"
) -> str:
    """The page of ``highlights_html`` from what ``highlights`` read (``readings``: the
    tournament's settings, printed at the foot as on every paper), on ``paper``."""
    out = [
        f'<h1 data-col="tournament">{_e(found.tournament)}</h1>\n'
        f'<p class="sub">{_label("highlights", " ")}</p>\n'
    ]
    notes = highlights_notes(found)
    if found.totals_only:
        notes[0] = f"{_zh('totals_only')}: " + notes[0]
    for note in notes:
        out.append(f'<p class="notice" data-col="notice">{_e(note)}</p>\n')
    out.append(
        f"<h2>{_label('best_hands', ' ')}</h2>\n"
        '<table class="best">\n<thead><tr>'
        f"<th>{_label('rank')}</th><th>{_label('winner')}</th>"
        f"<th>{_label('session')}</th><th>{_label('table')}</th>"
        f"<th>{_label('hand')}</th><th>{_label('fan_points')}</th>"
        f"<th>{_label('flowers')}</th><th>{_label('win')}</th><th>{_label('fans')}</th>"
        "</tr></thead>\n<tbody>\n"
    )
    previous: tuple[int, int] | None = None
    place = 0
    for index, hand in enumerate(found.best, 1):
        if (hand.fan_points, hand.flowers) != previous:
            place, previous = index, (hand.fan_points, hand.flowers)
        how = _zh("self_drawn") if hand.self_drawn else _zh("deal_in")
        out.append(
            f'<tr data-player="{_e(hand.player)}" data-session="{hand.session}" '
            f'data-table="{hand.table}" data-hand="{hand.hand + 1}">'
            f'<td data-col="rank">{place}</td><td class="name" data-col="player">'
            f"{_e(hand.player)}</td><td>{hand.session}</td><td>{hand.table}</td>"
            f'<td>{hand.hand + 1}</td><td data-col="fan-points"><b>{hand.fan_points}</b></td>'
            f"<td>{hand.flowers or ''}</td><td>{how}</td>"
            f'<td class="name" data-col="fans">{_fan_list(hand.fans)}</td></tr>\n'
        )
    if not found.best:
        out.append(f'<tr><td colspan="9">{DASH}</td></tr>\n')
    out.append(
        "</tbody>\n</table>\n"
        f"<h2>{_label('fan_counts', ' ')}</h2>\n"
        '<table class="fans">\n<thead><tr>'
        f"<th>{_label('fans')}</th><th>{_label('fan')}</th><th>{_label('times')}</th>"
        f"<th>{_label('hands_count')}</th><th>{_label('players_count')}</th>"
        "</tr></thead>\n<tbody>\n"
    )
    for fan in found.fans:
        out.append(
            f'<tr data-fan="{_e(fan.zh)}"><td class="name">{_e(fan.zh)} '
            f'<span class="en">{_e(fan.en)}</span></td>'
            f"<td>{'' if fan.points is None else fan.points}</td>"
            f'<td data-col="times">{fan.times}</td><td data-col="hands">{fan.hands}</td>'
            f'<td data-col="players">{fan.players}</td></tr>\n'
        )
    if not found.fans:
        out.append(f'<tr><td colspan="5">{DASH}</td></tr>\n')
    out.append(
        "</tbody>\n</table>\n"
        f'<p class="legend">{_zh("fan_points")}: the fan points of the win (flowers apart) ·'
        f" {_zh('times')}: times counted (箭刻×2 counts 2) · {_zh('hands_count')}: winning hands"
        f" with the fan · {_zh('players_count')}: different winners · hands entered hand by"
        f" hand: {found.hands}, wins: {found.wins}</p>\n"
    )
    if readings is not None:
        out.append(_readings_html(readings))
    css = "p.notice { border: 0.4mm solid #000; padding: 1.5mm 2mm; margin: 0 0 2mm 0; }\n"
    return _page(f"{found.tournament} — {_zh('highlights')}", "".join(out), paper=paper, css=css)


# -- PDF ------------------------------------------------------------------------------------------


def find_chromium(chromium: str | None = None) -> str:
    """The Chromium binary: ``chromium`` (a path or a name on PATH), else ``$GUOBIAO_CHROMIUM``,
    else ``/usr/bin/chromium`` or ``chromium`` / ``chromium-browser`` on PATH. Raises
    ``ReportError`` (with how to install it) when none is found."""
    wanted = chromium or os.environ.get(CHROMIUM_ENV)
    if wanted:
        found = shutil.which(wanted)
        if found is None:
            source = "given" if chromium else f"named by {CHROMIUM_ENV}"
            raise ReportError(
                f"the Chromium binary {wanted!r} {source} is not an executable file: {INSTALL_HINT}"
            )
        return found
    for candidate in CHROMIUM_CANDIDATES:
        found = shutil.which(candidate)
        if found is not None:
            return found
    raise ReportError(f"Chromium is needed to print a PDF and was not found: {INSTALL_HINT}")


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End what Chromium started (it runs in its own process group, which we created)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def html_to_pdf(
    html: str, out: Path, *, chromium: str | None = None, timeout: float = 120.0
) -> None:
    """Print ``html`` to the PDF file ``out`` with headless Chromium (binary: ``find_chromium``).

    Chromium reads the page from a temporary file and writes into a temporary directory with a
    fresh profile; the PDF is moved to ``out`` only when it is one (``%PDF``). Raises
    ``ReportError`` when Chromium is missing, fails, takes more than ``timeout`` seconds, or
    writes no PDF; ``out`` is then left untouched. No temporary file is left behind.
    """
    binary = find_chromium(chromium)
    out = Path(out)
    with tempfile.TemporaryDirectory(prefix="guobiao-pdf-") as tmp:
        work = Path(tmp)
        page = work / "page.html"
        page.write_text(html, encoding="utf-8")
        pdf = work / "out.pdf"
        profile = work / "profile"
        profile.mkdir()
        command = [
            binary,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.as_uri(),
        ]
        log = work / "chromium.log"
        # stderr to a file, not a pipe: a helper process Chromium leaves running cannot hold
        # the pipe open and make a finished print look like a timeout
        with log.open("wb") as stderr:
            try:
                process = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                    start_new_session=True,
                    cwd=work,
                )
            except OSError as error:
                raise ReportError(
                    f"cannot run Chromium {binary!r}: {error}; {INSTALL_HINT}"
                ) from error
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired as error:
                raise ReportError(
                    f"Chromium {binary!r} did not finish printing the PDF within {timeout:g} s"
                ) from error
            finally:
                _kill_group(process)
        if process.returncode != 0:
            detail = log.read_text("utf-8", "replace").strip()[-2000:]
            raise ReportError(
                f"Chromium {binary!r} failed (exit {process.returncode}) printing the PDF"
                + (f":\n{detail}" if detail else "")
            )
        if not pdf.is_file():
            raise ReportError(f"Chromium {binary!r} wrote no PDF")
        with pdf.open("rb") as handle:
            magic = handle.read(4)
        if magic != b"%PDF":
            raise ReportError(f"Chromium {binary!r} wrote a file that is not a PDF ({magic!r})")
        try:
            shutil.move(str(pdf), out)
        except OSError as error:
            raise ReportError(f"cannot write the PDF to {out}: {error}") from error
