"""``guobiao tournament sheet | results``: the printable papers (issue 4, item 5).

The 记分表 of a table (or of every table of a session) and the 比赛成绩统计表, as A4 HTML or as PDF
printed by headless Chromium (``guobiao.tournament.reports``); docs/tournament.md.
"""

from __future__ import annotations

from pathlib import Path

import click

from guobiao.cli.tournament.common import DB_OPTION, output_option
from guobiao.cli.tournament.common import open_cli_store as _store
from guobiao.cli.util import fail as _fail

__all__ = ["PAPER_COMMANDS"]


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


@click.command()
@click.argument("name")
@click.option("--session", type=int, required=True, help="Session number, from 1.")
@click.option("--table", "table_number", type=int, default=None, help="One table (default: all).")
@output_option("--html", "html_path", "the sheets as an HTML page (not to standard output)")
@output_option("--pdf", "pdf_path", "the sheets as PDF, printed by headless Chromium")
@DB_OPTION
def sheet(
    name: str,
    session: int,
    table_number: int | None,
    html_path: Path | None,
    pdf_path: Path | None,
    url: str,
) -> None:
    """The score sheets (记分表) of a session: one A4 page per table, blank before the session,
    filled in with every hand (players followed through the seat rotation), marks, totals,
    ranks and standard points once entered; signature lines for the players and the referee.

    \b
    Examples:
      guobiao tournament sheet club --session 1 --pdf session1.pdf
      guobiao tournament sheet club --session 2 --table 3 --html table3.html
    """
    from guobiao.tournament.reports import score_sheets_html

    with _store(url) as store:
        tables = None if table_number is None else [table_number]
        html = score_sheets_html(store, name, session, tables)
    what = f"session {session}" + (f" table {table_number}" if table_number else "") + " sheets"
    _deliver(html, html_path, pdf_path, what)


@click.command()
@click.argument("name")
@output_option("--html", "html_path", "the table as an HTML page (not to standard output)")
@output_option("--pdf", "pdf_path", "the table as PDF, printed by headless Chromium")
@DB_OPTION
def results(name: str, html_path: Path | None, pdf_path: Path | None, url: str) -> None:
    """The results table (比赛成绩统计表): every player in ranking order with each session's 局分
    and standard points and the totals, substitutes apart, then the team ranking.

    \b
    Example:
      guobiao tournament results club --pdf results.pdf
    """
    from guobiao.tournament.reports import results_table_html

    with _store(url) as store:
        html = results_table_html(store, name)
    _deliver(html, html_path, pdf_path, "the results table")


PAPER_COMMANDS = (sheet, results)
