"""``guobiao fans``: the fans (番种) of 第九条 at the command line, what each asks of a hand
(:data:`guobiao.scoring.examples.DEFINITIONS`, the help page's lines) and its example hand with
the ``guobiao fan`` command line that scores it.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
from typing import TYPE_CHECKING, Any

import click

from guobiao.cli.help import Command
from guobiao.cli.stream import DEFAULT_RULES
from guobiao.cli.util import console as _console
from guobiao.cli.util import fail as _fail
from guobiao.core.context import Wind
from guobiao.core.hand import format_hand
from guobiao.scoring.examples import DEFINITIONS, EXAMPLES, FanExample, fan_summary
from guobiao.scoring.fans import Fan

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["example_command", "fans", "find_fans"]

_MIL_ONLY = Fan.MELDED_AND_CONCEALED_KONG  # counted by the mil and botzone profiles only

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "no": "No.",
        "points": "Pts",
        "fan": "Fan",
        "def": "What it asks of a hand",
        "mil": " Counted by --rules mil only.",
        "points_line": "{points} points",
        "mil_line": "Counted by the mil and botzone profiles only (--rules mil), not by 1998.",
        "example": "Example",
        "won": "Won",
        "score": "Score it",
        "discard": "on a discard",
        "self_drawn": "self-drawn",
        "last_draw": "self-drawn: the wall's last tile",
        "last_claim": "on the last discard of the hand",
        "replacement": "self-drawn: a kong's replacement tile",
        "robbing": "robbing a kong: the tile another player adds to a pung",
        "fourth": "the last tile of its kind: the other three in sight",
        "winds": "seat wind {seat}, prevalent wind {round}",
        "flowers": "{count} flowers",
        "sep": "; ",
        "many": "{count} fans match {query!r}: 'guobiao fans NUMBER' shows one in full.",
    },
    "zh": {
        "no": "序号",
        "points": "番数",
        "fan": "",
        "def": "说明",
        "mil": "仅 --rules mil 计。",
        "points_line": "{points}番",
        "mil_line": "只在 mil 和 botzone 规则下计（--rules mil），1998 规则不计。",
        "example": "例牌",
        "won": "和牌",
        "score": "计分命令",
        "discard": "和别人打出的牌",
        "self_drawn": "自摸",
        "last_draw": "自摸牌墙最后一张",
        "last_claim": "和本盘最后一张打出的牌",
        "replacement": "开杠后自摸补牌",
        "robbing": "抢杠：和别人加杠的那张牌",
        "fourth": "和绝张：其余三张已亮明",
        "winds": "门风{seat}，圈风{round}",
        "flowers": "{count}张花牌",
        "sep": "；",
        "many": "{count}种番种符合“{query}”：'guobiao fans 序号' 显示其中一种的全部内容。",
    },
}
"""The words of ``guobiao fans``, by ``--lang``."""

_WIND_EN = ("East", "South", "West", "North")


def _key(text: str) -> str:
    """A name as a query is matched against it: any case, hyphens and runs of spaces as one
    space, "honour" as "honor" (the table spells both)."""
    text = re.sub(r"[\s\-_]+", " ", text.casefold()).strip()
    return text.replace("honour", "honor")


def find_fans(query: str) -> list[Fan]:
    """The fans ``query`` names, in table order: by number (1-82), by a whole 中文 or English
    name (any case), else every fan whose name holds it; none for no match."""
    text = query.strip()
    if text.isdigit():
        return [f for f in Fan if f.number == int(text)]
    key = _key(text)
    if not key:
        return []
    whole = [f for f in Fan if text == f.zh or key == _key(f.en)]
    if whole:
        return whole
    return [f for f in Fan if text in f.zh or key in _key(f.en)]


def _close_names(query: str) -> list[str]:
    """The fans' names nearest ``query`` (difflib), "中文 English" each, at most two."""
    by_key = {**{f.zh: f for f in Fan}, **{_key(f.en): f for f in Fan}}
    near = difflib.get_close_matches(_key(query), list(by_key), n=2, cutoff=0.5)
    found = list(dict.fromkeys(by_key[name] for name in near))
    return [f"{f.zh} {f.en}" for f in found]


def example_hand(ex: FanExample, style: str) -> str:
    """The example's hand as ``guobiao fan`` reads it, in ``style``'s tile names."""
    return format_hand(ex.parse()[0], style=style)


def example_command(fan: Fan, style: str = "botzone") -> str:
    """The ``guobiao fan`` command line that scores ``fan``'s example (a shell reads it)."""
    ex = EXAMPLES[fan]
    words = ["guobiao", "fan", f'"{example_hand(ex, style)}"']
    for flag, on in (
        ("--self-drawn", ex.self_drawn),
        ("--fourth-tile", ex.fourth_tile),
        ("--kong", ex.kong),
        ("--last-tile", ex.last_tile),
    ):
        if on:
            words.append(flag)
    if ex.seat_wind is not Wind.EAST:
        words += ["--seat", ex.seat_wind.letter]
    if ex.round_wind is not Wind.EAST:
        words += ["--round", ex.round_wind.letter]
    if ex.rules != DEFAULT_RULES:
        words += ["--rules", ex.rules]
    return " ".join(words)


def _how_won(ex: FanExample, lang: str) -> str:
    """The win's circumstances in words, as the help page says them under the example."""
    words = _WORDS[lang]
    if ex.kong:
        how = [words["replacement" if ex.self_drawn else "robbing"]]
    elif ex.last_tile:
        how = [words["last_draw" if ex.self_drawn else "last_claim"]]
    else:
        how = [words["self_drawn" if ex.self_drawn else "discard"]]
    if ex.fourth_tile:
        how.append(words["fourth"])
    name = (lambda w: w.zh) if lang == "zh" else (lambda w: _WIND_EN[w])
    how.append(words["winds"].format(seat=name(ex.seat_wind), round=name(ex.round_wind)))
    flowers = len(ex.parse()[0].flowers)
    if flowers:
        how.append(words["flowers"].format(count=flowers))
    return words["sep"].join(how)


def fan_json(fan: Fan, style: str) -> dict[str, Any]:
    """A fan as ``--json`` gives it: ``GET /api/fans``'s fields but the drawing, and the example
    as ``guobiao fan`` takes it."""
    ex = EXAMPLES[fan]
    return {
        **fan_summary(fan),
        "example": {
            "hand": example_hand(ex, style),
            "self_drawn": ex.self_drawn,
            "fourth_tile": ex.fourth_tile,
            "kong": ex.kong,
            "last_tile": ex.last_tile,
            "seat_wind": ex.seat_wind.letter,
            "round_wind": ex.round_wind.letter,
            "flowers": len(ex.parse()[0].flowers),
            "rules": ex.rules,
            "command": example_command(fan, style),
        },
    }


def _print_table(console: Console, chosen: list[Fan], lang: str) -> None:
    """The fans in a table, a rule between two point values."""
    from rich.table import Table

    words = _WORDS[lang]
    zh = lang == "zh"
    # a narrow terminal: the width shared by ratio (the definitions widest), not by length
    table = Table(show_header=True, header_style="bold", expand=console.width < 100)
    table.add_column(words["no"], justify="right")
    table.add_column(words["points"], justify="right")
    table.add_column("番种", overflow="fold", no_wrap=True)
    if not zh:
        table.add_column(words["fan"], overflow="fold", ratio=2)
    table.add_column(words["def"], overflow="fold", ratio=3)
    for n, fan in enumerate(chosen):
        row = [str(fan.number), str(fan.points), fan.zh]
        if not zh:
            row.append(fan.en)
        text = DEFINITIONS[fan].text(lang)
        row.append(text + (words["mil"] if fan is _MIL_ONLY else ""))
        after = chosen[n + 1] if n + 1 < len(chosen) else None
        table.add_row(*row, end_section=after is not None and after.points != fan.points)
    console.print(table)


def _print_fan(console: Console, fan: Fan, lang: str, style: str) -> None:
    """One fan in full: names, points, definition, its example and the command that scores it."""
    words = _WORDS[lang]
    ex = EXAMPLES[fan]
    name = fan.zh if lang == "zh" else f"{fan.zh} {fan.en}"
    points = words["points_line"].format(points=fan.points)
    console.print(f"[bold]{fan.number}  {name}[/bold]  {points}")
    console.print(DEFINITIONS[fan].text(lang), markup=False)
    if fan is _MIL_ONLY:
        console.print(words["mil_line"], markup=False)
    colon = "：" if lang == "zh" else ": "
    console.print(words["example"] + colon + example_hand(ex, style), markup=False)
    console.print(words["won"] + colon + _how_won(ex, lang), markup=False)
    console.print(words["score"] + colon.rstrip(), markup=False)
    # one line however long: pasted into a shell as it stands
    console.print("  " + example_command(fan, style), markup=False, soft_wrap=True)


@click.command(
    cls=Command,
    short_help="The 81 fans (番种): what each asks of a hand, an example.",
)
@click.argument("query", required=False)
@click.option(
    "--lang",
    type=click.Choice(["en", "zh"], case_sensitive=False),
    default="en",
    show_default=True,
    help="Language: en (English, fans in 中文 and English) or zh (中文).",
)
@click.option(
    "--tiles",
    "style",
    type=click.Choice(["botzone", "glyph", "chinese"], case_sensitive=False),
    default="botzone",
    show_default=True,
    help="How to write the example hands (as 'guobiao fan --tiles').",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON array of the fans found (all without QUERY; [] for none): number, "
    "points, zh, en, en_def, zh_def, example {hand, the win's flags, rules, command}.",
)
def fans(query: str | None, lang: str, style: str, as_json: bool) -> None:
    """The fans (番种) of 第九条: points, 中文 and English names and what each asks of a hand.

    Without QUERY every fan in table order, 明暗杠 (82) last: only the mil profile counts it.
    QUERY is a fan's number, its 中文 or English name (any case) or part of one: one fan
    found is shown in full, with an example hand and the 'guobiao fan' command line that
    scores it; several are listed. No fan found: exit code 1, with the nearest names.

    \b
    Examples:
      guobiao fans                      every fan, grouped by points
      guobiao fans 七对                 one fan: its example and how to score it
      guobiao fans "seven pairs"        the same, by its English name
      guobiao fans dragon               every fan whose name holds "dragon"
      guobiao fans 48 --tiles chinese   the example in Chinese tile names
      guobiao fans --lang zh --json     every fan, as JSON
    """
    lang = lang.lower()
    style = style.lower()
    chosen = [f for f in Fan] if query is None else find_fans(query)
    if as_json:
        click.echo(json.dumps([fan_json(f, style) for f in chosen], ensure_ascii=False))
    if not chosen:
        close = _close_names(query or "")
        hint = f": did you mean {' or '.join(close)}?" if close else "."
        message = (
            f"no fan matches {query!r} (give a number 1-82, a 中文 or English name, or part of "
            f"one){hint} 'guobiao fans' lists every fan"
        )
        if as_json:
            click.echo(f"error: {message}", err=True)
            sys.exit(1)
        _fail(message, 1)
    if as_json:
        return
    console = _console()
    if len(chosen) == 1 and query is not None:
        _print_fan(console, chosen[0], lang, style)
        return
    _print_table(console, chosen, lang)
    if query is not None:
        console.print(_WORDS[lang]["many"].format(count=len(chosen), query=query), markup=False)
