"""`guobiao tournament sheet | results`: the papers from the command line, as HTML on standard
output, an HTML file or a PDF printed by Chromium, and refusals that write nothing."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from guobiao.tournament.reports import ReportError, find_chromium
from test_tournament_cli import Cli

T = "club"


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.pages = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self.pages += 1

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append(data.strip())


def _read(html: str) -> _Text:
    parser = _Text()
    parser.feed(html)
    return parser


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(tmp_path / "t.db")
    path = tmp_path / "p.csv"
    rows = [f"{i},P{i}" for i in range(1, 9)]
    path.write_text("\n".join(["number,name", *rows]) + "\n", encoding="utf-8")
    c.ok("create", T, "--sessions", "1")
    c.ok("players", T, str(path))
    c.ok("draw", T, "--seed", "1")
    c.ok("totals", T, "--session", "1", "--table", "1", "700", "500", "500", "300")
    c.ok("hand", T, "--session", "1", "--table", "2", "--hand", "1", "--winner", "S",
         "--from", "E", "--fan", "12")  # fmt: skip
    return c


def test_sheets_of_a_session_to_standard_output(cli: Cli) -> None:
    html = cli.ok("sheet", T, "--session", "1")
    page = _read(html)
    seated = [p for seats in cli.seats(1).values() for p in seats]
    assert all(p in page.text for p in seated)
    assert page.pages == len(cli.seats(1)) == 2  # one A4 sheet per table
    one = cli.ok("sheet", T, "--session", "1", "--table", "2")
    assert all(p in _read(one).text for p in cli.seats(1)[2])
    assert not any(p in _read(one).text for p in cli.seats(1)[1])


def test_results_to_an_html_file(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "results.html"
    result = CliRunner().invoke(
        main, ["tournament", "results", T, "--html", str(out), "--db", cli.url]
    )
    assert result.exit_code == 0, result.output
    text = _read(out.read_text(encoding="utf-8")).text
    first = cli.seats(1)[1]
    # table 1: E 700 is first with 4, S and W share 2 + 1, N 0
    assert first[0] in text and "1 1/2" in text


def test_refusals_write_nothing(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "x.pdf"
    both = cli("sheet", T, "--session", "1", "--pdf", str(out), "--html", str(out))
    assert both.exit_code == 2 and "not both" in both.output
    unknown = cli("results", "nope")
    assert unknown.exit_code == 1 and "no tournament 'nope'" in unknown.output
    table = cli("sheet", T, "--session", "1", "--table", "9")
    assert table.exit_code == 1 and "no table 9" in table.output
    monkeypatch.setenv("GUOBIAO_CHROMIUM", str(tmp_path / "no-chromium"))
    missing = cli("results", T, "--pdf", str(out))
    assert missing.exit_code == 1 and "apt-get install chromium" in missing.output
    assert "Traceback" not in missing.output
    assert not out.exists()


def test_results_as_pdf(cli: Cli, tmp_path: Path) -> None:
    try:
        find_chromium()
    except ReportError as error:
        if os.environ.get("CI"):
            pytest.fail(f"{error} (scripts/test installs it)", pytrace=False)
        pytest.skip(str(error))
    out = tmp_path / "results.pdf"
    cli.ok("results", T, "--pdf", str(out))
    assert out.read_bytes().startswith(b"%PDF")
