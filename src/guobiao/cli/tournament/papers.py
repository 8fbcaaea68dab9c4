"""``guobiao tournament seating | sheet | results | cards | highlights | ema``: the printable papers
(issue 4, item 5; issue 13, point 7).

The 记分表 of a table (or of every table of a session), the 比赛成绩统计表, the players' seat cards
and the best hands and fan counts, as HTML or as PDF printed by headless Chromium
(``guobiao.tournament.reports``), laid out for A4 or US Letter (``--paper``); the EMA results
file as CSV (``guobiao.tournament.ema``); docs/tournament.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from guobiao.cli.help import Command
from guobiao.cli.tournament.common import DB_OPTION, EMA_ENCODING, output_option
from guobiao.cli.tournament.common import open_cli_store as _store
from guobiao.cli.util import fail as _fail

if TYPE_CHECKING:
    from guobiao.tournament.reports import Highlights, SeatedTable, SessionBye

__all__ = ["PAPER_COMMANDS", "PAPER_ENV"]

PAPER_ENV = "GUOBIAO_PAPER"
"""The environment variable giving ``--paper`` its default (``a4`` when unset)."""

PAPER_OPTION = click.option(
    "--paper",
    type=click.Choice(["a4", "letter"], case_sensitive=False),
    default="a4",
    show_default=True,
    envvar=PAPER_ENV,
    show_envvar=True,
    help="The page size the paper is laid out for: A4, or US Letter (8.5 x 11 in). Print a "
    "Letter paper at 100 % (actual size), not fitted to the page.",
)


def _deliver(html: str, html_path: Path | None, pdf_path: Path | None, what: str) -> None:
    """Write the page as HTML or PDF, or to standard output."""
    from guobiao.tournament.reports import ReportError, html_to_pdf

    if html_path is not None and pdf_path is not None:
        _fail("give --html or --pdf, not both")
    if pdf_path is not None:
        try:
            html_to_pdf(html, pdf_path)
        except ReportError as err:
            _fail(f"cannot print {what} to PDF: {err}", 1)
        click.echo(f"Wrote {what} to {pdf_path}.", err=True)
    elif html_path is not None:
        try:
            html_path.write_text(html, encoding="utf-8")
        except OSError as err:
            _fail(f"cannot write {html_path}: {err.strerror}")
        click.echo(f"Wrote {what} to {html_path}.", err=True)
    else:
        click.echo(html, nl=False)


SEATING_COLUMNS = (
    "session",
    "table",
    "seat",
    "number",
    "name",
    "team",
    "substitute",
    "ranked",
    "plays_for",
)
"""The columns of ``seating --csv``: one row per seat; ``seat`` E S W N at the first hand,
``substitute`` and ``ranked`` yes/no (a 陪打 is a substitute not ranked, 第十二条三(二)). Then
one row per player with a bye (轮空, 第十二条一): ``table`` empty, ``seat`` ``bye``."""
BYE_SEAT = "bye"


@click.command(cls=Command)
@click.argument("name")
@click.option(
    "--session",
    type=int,
    default=None,
    help="Session number, from 1 (default: every session drawn, each from a new page).",
)
@output_option("--html", "html_path", "the seating as an HTML page to print and post")
@output_option("--pdf", "pdf_path", "the seating as PDF, printed by headless Chromium")
@output_option(
    "--csv", "csv_path", "the seating as CSV, one row per seat, then one per bye (seat 'bye')"
)
@PAPER_OPTION
@DB_OPTION
def seating(
    name: str,
    session: int | None,
    html_path: Path | None,
    pdf_path: Path | None,
    csv_path: Path | None,
    paper: str,
    url: str,
) -> None:
    """The tables of a session with the players at E S W N (the seats of the first hand); a
    substitute who plays a seat and is not ranked is marked 陪打 (第十二条三(二)); the players
    with a bye (轮空) follow the tables.

    Without --session, every session drawn: one after the other on the terminal and in the
    CSV file, each on a page of its own in the HTML or PDF (A4, or US Letter with --paper
    letter: the same large type, table numbers about 10 mm high).

    \b
    Examples:
      guobiao tournament seating club --session 1
      guobiao tournament seating club --session 1 --html seating1.html \\
          --csv seating1.csv
      guobiao tournament seating club --pdf seating.pdf  # a page a session
      guobiao tournament seating club --pdf seating.pdf --paper letter
    """
    from guobiao.tournament.queries import read_info
    from guobiao.tournament.reports import (
        byes_text,
        seating_html,
        seatings_html,
        session_byes,
        session_seating,
    )
    from guobiao.tournament.store import StoreError

    if html_path is not None and pdf_path is not None:
        _fail("give --html or --pdf, not both")
    found: list[tuple[int, list[SeatedTable], list[SessionBye]]] = []
    with _store(url) as store:
        info = read_info(store, name)
        if session is not None and not 1 <= session <= info.sessions:
            _fail(f"{name!r} has sessions 1-{info.sessions}, not {session}")
        numbers = [session] if session is not None else list(range(1, info.sessions + 1))
        for number in numbers:
            try:
                tables = session_seating(store, name, number)
            except StoreError:
                if session is not None:
                    raise
                continue  # not drawn (yet): every session means every session drawn
            found.append((number, tables, session_byes(store, name, number)))
        if not found:
            _fail(f"{name!r}: no session is seated (run the draw first)", 1)
        page = ""
        if html_path or pdf_path:
            page = (
                seating_html(store, name, session, paper=paper)
                if session is not None
                else seatings_html(store, name, [n for n, _, _ in found], paper=paper)
            )
    for number, tables, byes in found:
        _print_seating(name, number, tables)
        if byes:  # at no table (第十二条一): said, or they would look for their name
            click.echo(byes_text(byes) + " (第十二条一)")
    what = f"session {session}" if session is not None else f"{len(found)} session(s), a page each"
    if csv_path is not None:
        _write_seating_csv(csv_path, found)
        click.echo(f"Wrote the seating of {what} to {csv_path}.", err=True)
    if page:
        _deliver(page, html_path, pdf_path, f"the seating of {what}")


def _print_seating(name: str, session: int, tables: list[SeatedTable]) -> None:
    from rich.markup import escape
    from rich.table import Table

    from guobiao.cli.util import console as _console
    from guobiao.tournament.reports import seat_mark

    table = Table(title=f"{name}: session {session}", show_header=True, header_style="bold")
    table.add_column("Table", justify="right")
    for wind in ("E 东", "S 南", "W 西", "N 北"):
        table.add_column(wind, overflow="fold")
    for row in tables:
        cells = []
        for seat in row.seats:
            cell = f"{seat.number} {escape(seat.name)}" + (
                f" ({escape(seat.team)})" if seat.team else ""
            )
            mark = seat_mark(seat)
            if mark:
                cell += f"\n[bold]{escape(mark)}[/bold]"
            cells.append(cell)
        table.add_row(str(row.table), *cells)
    _console().print(table)
    if any(s.stand_in for row in tables for s in row.seats):
        click.echo(
            "陪打: a substitute plays the seat; the score counts for the table, "
            "no place and no standard points (第十二条三(二))."
        )


def _write_seating_csv(
    path: Path, sessions: Sequence[tuple[int, list[SeatedTable], Sequence[SessionBye]]]
) -> None:
    import csv

    from guobiao.cli.tournament.common import spreadsheet_csv

    try:
        with spreadsheet_csv(path) as handle:  # a BOM: Excel reads the names as UTF-8
            writer = csv.writer(handle)
            writer.writerow(SEATING_COLUMNS)
            for session, tables, byes in sessions:
                _write_session_rows(writer, session, tables, byes)
    except OSError as err:
        _fail(f"cannot write {path}: {err.strerror}")


def _write_session_rows(
    writer: Any, session: int, tables: list[SeatedTable], byes: Sequence[SessionBye]
) -> None:
    from guobiao.cli.tournament.common import WINDS

    for row in tables:
        for seat in row.seats:
            writer.writerow(
                (
                    session,
                    row.table,
                    WINDS[seat.seat],
                    seat.number,
                    seat.name,
                    seat.team or "",
                    "yes" if seat.substitute else "no",
                    "no" if seat.stand_in else "yes",
                    seat.plays_for or "",
                )
            )
    # 轮空 (第十二条一): at no table; a sheet without them had them look for their name
    for bye in byes:
        writer.writerow(
            (session, "", BYE_SEAT, bye.number, bye.name, bye.team or "", "no", "no", "")
        )


@click.command(cls=Command)
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--table", "table_number", type=int, default=None, help="One table (default: all).")
@output_option("--html", "html_path", "the sheets as an HTML page (not to standard output)")
@output_option("--pdf", "pdf_path", "the sheets as PDF, printed by headless Chromium")
@PAPER_OPTION
@DB_OPTION
def sheet(
    name: str,
    session: int,
    table_number: int | None,
    html_path: Path | None,
    pdf_path: Path | None,
    paper: str,
    url: str,
) -> None:
    """The score sheets (记分表) of a session: one page per table (A4, or US Letter with
    --paper letter; the boxes a score is written in are 8.6 mm high on both), blank before the
    session, filled in with every hand (players followed through the seat rotation), marks,
    totals, ranks and standard points once entered; signature lines for the players and the
    referee.

    \b
    Examples:
      guobiao tournament sheet club --session 1 --pdf session1.pdf
      guobiao tournament sheet club --session 1 --pdf session1.pdf --paper letter
      guobiao tournament sheet club --session 2 --table 3 --html table3.html
    """
    from guobiao.tournament.reports import score_sheets_html

    with _store(url) as store:
        tables = None if table_number is None else [table_number]
        html = score_sheets_html(store, name, session, tables, paper=paper)
    what = f"session {session}" + (f" table {table_number}" if table_number else "") + " sheets"
    _deliver(html, html_path, pdf_path, what)


@click.command(cls=Command)
@click.argument("name")
@output_option("--html", "html_path", "the table as an HTML page (not to standard output)")
@output_option("--pdf", "pdf_path", "the table as PDF, printed by headless Chromium")
@PAPER_OPTION
@DB_OPTION
def results(name: str, html_path: Path | None, pdf_path: Path | None, paper: str, url: str) -> None:
    """The results table (比赛成绩统计表): every player in ranking order with each session's 局分
    and standard points and the totals, substitutes apart, then the team ranking; on A4 or US
    Letter pages (--paper), landscape from 5 sessions on.

    \b
    Examples:
      guobiao tournament results club --pdf results.pdf
      guobiao tournament results club --pdf results.pdf --paper letter
    """
    from guobiao.tournament.reports import results_table_html

    with _store(url) as store:
        html = results_table_html(store, name, paper=paper)
    _deliver(html, html_path, pdf_path, "the results table")


@click.command(cls=Command)
@click.argument("name")
@click.option(
    "--sort",
    "order",
    type=click.Choice(["number", "name"]),
    default="number",
    show_default=True,
    help="The order of the cards: registration number or name.",
)
@output_option("--html", "html_path", "the cards as an HTML page (not to standard output)")
@output_option("--pdf", "pdf_path", "the cards as PDF, printed by headless Chromium")
@PAPER_OPTION
@DB_OPTION
def cards(
    name: str, order: str, html_path: Path | None, pdf_path: Path | None, paper: str, url: str
) -> None:
    """The seat cards (座位卡): one small card per registered player, several to an A4 or US
    Letter page (--paper) with dashed cut lines, listing every session's table and seat wind
    at its first hand (seats change each round), the team, byes and substitutions; a session
    not drawn yet says so.

    \b
    Examples:
      guobiao tournament cards club --pdf cards.pdf
      guobiao tournament cards club --pdf cards.pdf --paper letter
      guobiao tournament cards club --sort name --html cards.html
    """
    from guobiao.tournament.reports import seat_cards_html

    with _store(url) as store:
        html = seat_cards_html(store, name, order=order, paper=paper)
    _deliver(html, html_path, pdf_path, "the seat cards")


@click.command(cls=Command)
@click.argument("name")
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="How many best hands (hands tied with the last are all listed).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of the tables.")
@output_option("--html", "html_path", "the lists as an HTML page")
@output_option("--pdf", "pdf_path", "the lists as PDF, printed by headless Chromium")
@PAPER_OPTION
@DB_OPTION
def highlights(
    name: str,
    top: int,
    as_json: bool,
    html_path: Path | None,
    pdf_path: Path | None,
    paper: str,
    url: str,
) -> None:
    """The best hands and the fan counts: the highest-scoring hands entered hand by hand (player,
    session, table, hand, fan points, fans) and how often each fan was counted over every
    recorded win, in how many hands and by how many players. Tables entered as session totals
    only have no hands: they are named and left out.

    \b
    Examples:
      guobiao tournament highlights club --top 5
      guobiao tournament highlights club --json > highlights.json
      guobiao tournament highlights club --pdf highlights.pdf
    """
    import json

    from guobiao.tournament.reports import highlights as read_highlights
    from guobiao.tournament.reports import highlights_json, highlights_notes, highlights_page

    if as_json and (html_path is not None or pdf_path is not None):
        _fail("give --json or --html / --pdf, not both")
    with _store(url) as store:
        found = read_highlights(store, name, top=top)
        readings = store.settings(name).readings
    if html_path is not None or pdf_path is not None:
        # the readings line at the foot, as on every paper that counts (it was left out here)
        page = highlights_page(found, readings, paper=paper)
        _deliver(page, html_path, pdf_path, "the best hands and fan counts")
    elif as_json:
        click.echo(json.dumps(highlights_json(found), ensure_ascii=False, indent=2))
    else:
        _print_highlights(found, highlights_notes(found))


def _print_highlights(found: Highlights, notes: list[str]) -> None:
    from rich.table import Table

    from guobiao.cli.util import console as _console
    from guobiao.table.glossary import TERMS

    def label(key: str) -> str:
        return f"{TERMS[key].zh} {TERMS[key].en}"

    for note in notes:  # unwrapped, one a line
        click.echo(f"note: {note}")
    console = _console()
    best = Table(title=f"{found.tournament}: {label('best_hands')}", header_style="bold")
    for key in ("winner", "session", "table", "hand", "fan_points", "flowers", "fans"):
        best.add_column(label(key), justify="left" if key in ("winner", "fans") else "right")
    for hand in found.best:
        fans = "、".join(hand.fans) if hand.fans else "—"
        how = TERMS["self_drawn" if hand.self_drawn else "deal_in"].zh
        best.add_row(
            hand.player,
            str(hand.session),
            str(hand.table),
            str(hand.hand + 1),
            f"{hand.fan_points} ({how})",
            str(hand.flowers or ""),
            fans,
        )
    console.print(best)
    counts = Table(title=f"{found.tournament}: {label('fan_counts')}", header_style="bold")
    for key in ("fans", "fan", "times", "hands_count", "players_count"):
        counts.add_column(label(key), justify="left" if key == "fans" else "right")
    for fan in found.fans:
        counts.add_row(
            f"{fan.zh} {fan.en}".strip(),
            "" if fan.points is None else str(fan.points),
            str(fan.times),
            str(fan.hands),
            str(fan.players),
        )
    console.print(counts)


@click.command(cls=Command)
@click.argument("name")
@output_option("--csv", "csv_path", "the EMA results file (CSV; without it, standard output)")
@DB_OPTION
def ema(name: str, csv_path: Path | None, url: str) -> None:
    """The EMA results file: the individual ranking as the EMA takes it for its ranking (MERS),
    one row per ranked player: Place, EMA number, Last name, First name, Country, Table points
    (标准分), Mahjong points (局分 counted from 0), Base rank. Names registered without
    first_name and last_name are split from the full name; stderr lists them to check.

    \b
    Examples:
      guobiao tournament ema club --csv club-ema.csv
    """
    from guobiao.tournament.ema import ema_csv, ema_rows
    from guobiao.tournament.queries import read_info
    from guobiao.tournament.ranking import individual_ranking

    with _store(url) as store:
        info = read_info(store, name)
        rows = ema_rows(individual_ranking(store.table_results(name)), info)
    text = ema_csv(rows)
    if csv_path is None:
        click.echo(text, nl=False)
    else:
        try:
            # plain UTF-8, no BOM: the EMA's file (common.EMA_ENCODING)
            with csv_path.open("w", newline="", encoding=EMA_ENCODING) as handle:
                handle.write(text)
        except OSError as err:
            _fail(f"cannot write {csv_path}: {err.strerror}")
        click.echo(f"Wrote the EMA results of {len(rows)} player(s) to {csv_path}.", err=True)
    split = [r for r in rows if r["name_split"]]
    if split:
        shown = "; ".join(f"{r['name']} -> {r['last_name']}, {r['first_name']}" for r in split)
        click.echo(
            f"note: {len(split)} name(s) split into last, first name from the full name "
            f"(register first_name,last_name to set them): {shown}",
            err=True,
        )
    if not rows:
        click.echo(f"note: {name!r} has no ranked player yet.", err=True)


# ``seating`` replaces the plain one commands.py registered first (a group keeps the last added)
PAPER_COMMANDS = (seating, sheet, results, cards, highlights, ema)
