"""``guobiao fan``, ``guobiao shanten`` and ``guobiao tiles``: score a hand (one, or a JSON-lines
stream), its shanten, waits and useful tiles, and the tile notations.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NoReturn

import click

from guobiao.cli.help import Command
from guobiao.cli.jsonio import invalid_answer, result_to_json
from guobiao.cli.options import (
    HAND_HELP,
    RULES_OPTION,
    WIND,
    parse_hand_or_fail,
    say_refusal,
    tile_error,
)
from guobiao.cli.stream import stream_jsonl
from guobiao.cli.util import console as _console
from guobiao.cli.util import fail as _fail
from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, format_hand, parse_tiles
from guobiao.core.melds import melds_text
from guobiao.core.tiles import MARK, TILES, Tile, TileParseError
from guobiao.scoring.calculator import calculate
from guobiao.scoring.fans import Fan
from guobiao.scoring.result import FanResult, InvalidHandError

if TYPE_CHECKING:
    from rich.console import Console

# rich.table is imported by the commands that print tables, not here: a JSON-lines stream
# never loads it.

__all__ = ["fan", "shanten", "tiles"]


def _show_hand(hand: Hand, win: Tile, style: str) -> str:
    """The hand's line, in ``style``'s tile names, as ``guobiao fan`` reads it back."""
    if style == "botzone":
        return format_hand(Hand(hand.concealed, hand.melds, win, hand.flowers))
    parts = []
    for meld in hand.melds:
        names = [t.text(style) for t in meld.tiles]
        if meld.claimed is not None:
            names[meld.tiles.index(meld.claimed)] += MARK
        body = " ".join(names)
        seat = f":{meld.offered_by}" if meld.offered_by is not None else ""
        parts.append(f"({body})" if meld.is_concealed else f"[{body}{seat}]")
    parts.append(" ".join(t.text(style) for t in hand.concealed))
    parts.append("+" + win.text(style))  # one word: a line never breaks between them
    if hand.flowers:
        parts.append(" ".join(t.text(style) for t in hand.flowers))
    return "  ".join(parts)


_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "hand": "Hand: ",
        "shape": "Shape: ",
        "above": "the shape (above)",
        "points": "Points",
        "times": "×",
        "subtotal": "Subtotal",
        "on": "On",
        "total": "Total: {total}",
        "flowers": " (flowers {flowers})",
        "met": "Meets the 8-point minimum (起和分): yes",
        "met_flowers": "Meets the 8-point minimum (起和分): yes, {points} without flowers",
        "not_met": (
            "Meets the 8-point minimum (起和分): [bold red]no[/bold red] ({points}): "
            "not a valid win (错和)"
        ),
        "not_met_flowers": (
            "Meets the 8-point minimum (起和分): [bold red]no[/bold red], {points} without "
            "flowers (flowers never count toward it, 第九条81): not a valid win (错和)"
        ),
        "others": "Other readings (就高不就低原则, 第十条一(五)4: the higher total is scored):",
        "other": "  {reading} = {points}",
        "same": ", the same total: either reading scores it",
        "excluded": "Shown by the hand but not counted:",
        "why": "Why not",
        "none": "No fan the hand shows was left out.",
    },
    "zh": {
        "hand": "手牌：",
        "shape": "牌型：",
        "above": "见牌型",
        "points": "分",
        "times": "次",
        "subtotal": "小计",
        "on": "依据",
        "total": "合计：{total}分",
        "flowers": "（含花牌{flowers}分）",
        "met": "起和分（8分）：够",
        "met_flowers": "起和分（8分）：够，不含花牌{points}分",
        "not_met": "起和分（8分）：[bold red]不够[/bold red]（{points}分），不能和牌，属错和",
        "not_met_flowers": (
            "起和分（8分）：[bold red]不够[/bold red]，不含花牌只有{points}分"
            "（花牌不计在起和分内，第九条81），属错和"
        ),
        "others": "其他组合方式（就高不就低原则，第十条一(五)4：取分高的计分）：",
        "other": "  {reading} = {points}分",
        "same": "，总分相同：按哪种组合计分都一样",
        "excluded": "牌中有、但不计分的番种：",
        "why": "原因",
        "none": "没有不计分的番种。",
    },
}
"""The words of ``guobiao fan``'s table and explanation, by ``--lang``."""


def _explained(result: FanResult, hand: Hand, context: WinContext) -> FanResult:
    """The result as a referee reads it: with the wait fans left out because the hand waited on
    more than one tile (each wind fan's pung is named by ``calculate`` itself)."""
    from guobiao.scoring.explain import wait_exclusions

    waits = wait_exclusions(hand, context, result)
    return replace(result, excluded=result.excluded + waits) if waits else result


def _print_result(
    console: Console,
    hand: Hand,
    context: WinContext,
    result: FanResult,
    style: str,
    explain: bool,
    lang: str,
) -> None:
    from rich.table import Table

    from guobiao.scoring.explain import referee_text

    words = _WORDS[lang]
    zh = lang == "zh"
    console.print(words["hand"] + _show_hand(hand, context.win_tile, style), overflow="fold")
    if result.decomposition:
        console.print(words["shape"] + result.decomposition, overflow="fold")
    table = Table(show_header=True, header_style="bold")
    table.add_column("番种", overflow="fold")
    if not zh:
        table.add_column("Fan", overflow="fold")
    table.add_column(words["points"], justify="right")
    table.add_column(words["times"], justify="right")
    table.add_column(words["subtotal"], justify="right")
    with_basis = any(f.basis for f in result.fans)
    if with_basis:
        table.add_column(words["on"], overflow="fold")
    for fan in result.fans:
        row = [fan.fan.zh] + ([] if zh else [fan.fan.en])
        row += [str(fan.points), str(fan.count), str(fan.total)]
        if with_basis:
            # a fan resting on the whole shape (九莲宝灯 and what it adds, 平和) points to the
            # Shape line: the shape is written once, not on each of its rows
            row.append(
                "; ".join(
                    words["above"] if b == result.decomposition else referee_text(b, lang)
                    for b in fan.basis
                )
            )
        table.add_row(*row)
    console.print(table)
    flowers = words["flowers"].format(flowers=result.flower_points) if result.flower_points else ""
    console.print(words["total"].format(total=f"[bold]{result.total}[/bold]") + flowers)
    key = ("met" if result.meets_minimum else "not_met") + (
        "_flowers" if result.flower_points else ""
    )
    console.print(words[key].format(points=result.points_without_flowers))
    if not explain:
        return
    if result.alternatives:
        console.print("\n" + words["others"], overflow="fold")
        for reading, points in result.alternatives:
            same = words["same"] if points == result.points_without_flowers else ""
            console.print(
                words["other"].format(reading=reading, points=points) + same, overflow="fold"
            )
    if not result.excluded:
        console.print("\n" + words["none"])
        return
    console.print("\n" + words["excluded"])
    why = Table(show_header=True, header_style="bold")
    why.add_column("番种", overflow="fold")
    if not zh:
        why.add_column("Fan", overflow="fold")
    why.add_column(words["why"], overflow="fold")
    for item in result.excluded:
        row = [item.fan.zh] + ([] if zh else [item.fan.en])
        why.add_row(*row, referee_text(item.reason, lang))
    console.print(why)


class _JsonRefusingCommand(Command):
    """``fan`` and ``shanten``: with --json, a command line that click refuses (an unknown
    option, --seat Q) is answered on stdout as every refusal of ``--json`` is, then said as
    usual."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        given = list(args[: args.index("--")] if "--" in args else args)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as err:
            if "--json" in given and "--jsonl" not in given:
                click.echo(json.dumps(invalid_answer(err.format_message()), ensure_ascii=False))
            raise


@click.command(
    cls=_JsonRefusingCommand,
    epilog=HAND_HELP,
    short_help="Score a winning hand: its fans (番), points and total.",
)
@click.argument("hand", required=False)
@click.option("--win", "win_text", metavar="TILE", help="The winning tile, if HAND has no '+'.")
@click.option("-s", "--self-drawn", is_flag=True, help="Won by self-draw (自摸).")
@click.option("-4", "--fourth-tile", is_flag=True, help="The last copy of the tile (和绝张).")
@click.option(
    "-k",
    "--kong",
    is_flag=True,
    help="Kong-related: 杠上开花 when self-drawn, else 抢杠和 (robbing a kong).",
)
@click.option(
    "-l",
    "--last-tile",
    is_flag=True,
    help="Last tile of the wall: 妙手回春 when self-drawn, else 海底捞月.",
)
@click.option("--seat", type=WIND, default="E", show_default=True, help="Seat wind 门风: E S W N.")
@click.option(
    "--round",
    "round_wind",
    type=WIND,
    default="E",
    show_default=True,
    help="Prevalent wind 圈风: E S W N.",
)
@click.option(
    "--flowers",
    type=click.IntRange(0, 8),
    default=None,
    help="Number of flowers (or write them in HAND as H1.. / 1f..).",
)
@RULES_OPTION
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON object instead of a table, a refusal too, as --jsonl answers a line: "
    '{"ok": false, "reason": "invalid" or "not_winning", "message": ...} (exit code 2 for bad '
    "input, 1 for an impossible or a losing hand).",
)
@click.option(
    "--jsonl",
    is_flag=True,
    help="Read JSON hands from stdin, one per line; write one JSON answer per hand (below).",
)
@click.option(
    "--explain", is_flag=True, help="Also show fans the hand displays but does not count, and why."
)
@click.option(
    "--tiles",
    "style",
    type=click.Choice(["botzone", "glyph", "chinese"], case_sensitive=False),
    default="botzone",
    show_default=True,
    help="How to show the hand's tiles (the fans' sets are in Botzone names).",
)
@click.option(
    "--lang",
    type=click.Choice(["en", "zh"], case_sensitive=False),
    default="en",
    show_default=True,
    help="Language of the table and the explanation: en (English, fans in 中文 and English) or "
    "zh (中文); with --json, of the bases and reasons.",
)
def fan(
    hand: str | None,
    win_text: str | None,
    self_drawn: bool,
    fourth_tile: bool,
    kong: bool,
    last_tile: bool,
    seat: Wind,
    round_wind: Wind,
    flowers: int | None,
    rules: str,
    as_json: bool,
    jsonl: bool,
    explain: bool,
    style: str,
    lang: str,
) -> None:
    """Score a winning hand: every fan (番), its points, the total and the 8-point minimum.

    \b
    Examples:
      guobiao fan "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"
      guobiao fan "[W1W2W3][F1F1F1]B4B5B6T7T8B1B1 +T9" --seat E --round E
      guobiao fan "W2W3W4W2W3W4B2B3B4B5B6B7T5 +T5" --self-drawn --explain
      guobiao fan "W1W2W3W4W5B4B5B6T6T7T8J1J1 +W3" --explain --lang zh
      guobiao fan --jsonl --rules mil < hands.jsonl > scores.jsonl

    \b
    --jsonl reads one JSON hand per line (docs/examples/hands.jsonl): "concealed"
    (the standing tiles, without the winning one) and "win_tile" are needed, the
    other keys may be left out (false, "E", 0, no melds):
      {"concealed": ["W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7",
       "W8", "W9", "W9", "W9"], "melds": [], "win_tile": "W5",
       "self_drawn": false, "fourth_tile": false, "kong": false,
       "last_tile": false, "seat_wind": "E", "round_wind": "E", "flowers": 0}
    a meld: {"type": "chow"|"pung"|"kong"|"concealed_kong", "tiles": [...],
    "from": 1|2|3}. One answer per hand, on one line: {"ok": true, "total": 91,
    "meets_minimum": true, "fans": [{"zh", "en", "points", "count"}, ...]}
    or {"ok": false, "reason": "invalid"|"not_winning", "message": "line 3: ..."};
    blank lines get no answer.
    """
    if jsonl:
        if hand is not None:
            _fail("--jsonl reads hands from stdin: give no HAND")
        ignored = _options_given(click.get_current_context(), exclude={"jsonl", "rules", "hand"})
        if ignored:
            _fail(
                f"--jsonl reads each hand and its context from its JSON line: {', '.join(ignored)} "
                "would be ignored (only --rules goes with --jsonl)"
            )
        stream_jsonl(rules)
        return
    refuse = _json_refusal if as_json else say_refusal
    if hand is None:
        refuse("give a HAND (see 'guobiao fan --help'), or --jsonl to read JSON lines")
    if not hand.strip():
        refuse("HAND is empty: give the tiles, e.g. 'W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5'")
    parsed = parse_hand_or_fail(hand, refuse)
    win = parsed.win_tile
    if win_text is not None:
        try:
            win_from_option = Tile.parse(win_text)
        except TileParseError as err:
            refuse(f"--win: {tile_error(err, win_text)}")
        if win is not None and win != win_from_option:
            refuse(f"the hand's winning tile +{win} and --win {win_from_option} differ")
        win = win_from_option
    full = 14 - 3 * len(parsed.melds)  # standing tiles with the winning one
    if win is None:
        if len(parsed.concealed) == full:
            refuse(
                f"no winning tile: HAND has {full} standing tiles and no '+'; write the winning "
                "tile last, after '+' (e.g. 'W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5')"
            )
        if len(parsed.concealed) != full - 1 and len(parsed.melds) <= 4:
            # adding '+TILE' would not make it a hand: say what is wrong, its size
            refuse(
                f"no winning tile, and HAND has {len(parsed.concealed)} standing "
                f"tile{'' if len(parsed.concealed) == 1 else 's'}: with "
                f"{melds_text(len(parsed.melds))} a hand holds {full - 1}, then the winning tile "
                "after '+' (e.g. 'W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5')"
            )
        refuse("no winning tile: end HAND with '+TILE' (e.g. '+W5') or pass --win")
    if parsed.win_tile is None and len(parsed.concealed) == full:
        refuse(
            f"HAND has {full} standing tiles and --win {win}: leave the winning tile out of "
            f"HAND (or mark it in HAND with '+{win}', without --win)"
        )
    if win.is_flower:
        refuse("a flower cannot be the winning tile")
    if flowers is not None and parsed.flowers and flowers != len(parsed.flowers):
        refuse(f"--flowers {flowers} but HAND shows {len(parsed.flowers)} flower(s)")
    context = WinContext(
        win_tile=win,
        self_drawn=self_drawn,
        fourth_tile=fourth_tile,
        kong=kong,
        last_tile=last_tile,
        seat_wind=seat,
        round_wind=round_wind,
        flowers=flowers if flowers is not None else len(parsed.flowers),
    )
    hand_obj = Hand(parsed.concealed, parsed.melds, None, parsed.flowers)
    try:
        result = calculate(hand_obj, context, rules, explain=True)
    except InvalidHandError as err:
        if as_json:
            _json_refusal(str(err), 1)
        _fail(f"impossible hand: {err}", 1)
    if result.is_winning:
        result = _explained(result, hand_obj, context)
    if as_json:
        out = result_to_json(result)
        if explain and result.is_winning:
            from guobiao.scoring.explain import referee_text

            for fan_out, counted in zip(out["fans"], result.fans, strict=True):
                fan_out["basis"] = [referee_text(b, lang) for b in counted.basis]
            out["excluded"] = [
                {"zh": e.fan.zh, "en": e.fan.en, "reason": referee_text(e.reason, lang)}
                for e in result.excluded
            ]
            out["shape"] = result.decomposition
            out["alternatives"] = [
                {"reading": reading, "points": points} for reading, points in result.alternatives
            ]
        elif not result.is_winning:
            out["message"] = _not_winning(parsed, win)
        click.echo(json.dumps(out, ensure_ascii=False))
        sys.exit(0 if result.is_winning else 1)
    if not result.is_winning:
        _fail(_not_winning(parsed, win), 1)
    _print_result(_console(), hand_obj, context, result, style, explain, lang)


def _not_winning(parsed: Hand, win: Tile) -> str:
    """Why the tiles win no hand, for a referee: what the hand waited on before the winning
    tile, or how far it was from ready (和错牌 and 诈和, 第十四条六)."""
    from guobiao.core import shanten as sh

    message = (
        f"not a winning hand: {format_hand(Hand(parsed.concealed, parsed.melds, win))} "
        "forms no winning shape (4 sets + pair, 七对, 十三幺, 全不靠, 组合龙)"
    )
    counts = [0] * 34
    for tile in parsed.concealed:
        counts[tile] += 1
    if len(parsed.melds) > 4 or sum(counts) != 13 - 3 * len(parsed.melds) or max(counts) > 4:
        return message
    before = sh.shanten(counts, len(parsed.melds))
    if before == 0:
        waits = ", ".join(str(TILES[t]) for t in sh.waits(counts, len(parsed.melds)))
        return f"{message}; before {win} the hand was ready on {waits}, not on {win}"
    return f"{message}; before {win} the hand was {before} from ready (not 听牌)"


def _json_refusal(message: str, code: int = 2, *, detail: str = "") -> NoReturn:
    """``fan --json``'s refusal: the answer ``fan --jsonl`` gives a line it refuses,
    ``{"ok": false, "reason": "invalid", "message": ...}``, on stdout (exit code 2 for bad
    input, 1 for an impossible hand); for a person the message and its detail on stderr too."""
    click.echo(json.dumps(invalid_answer(message), ensure_ascii=False))
    _fail(message + detail, code)


def _options_given(ctx: click.Context, exclude: set[str]) -> list[str]:
    """The options the command line gave (not defaults), as typed (``--seat``), but ``exclude``."""
    from click.core import ParameterSource

    given = []
    for param in ctx.command.params:
        if param.name is None or param.name in exclude or not isinstance(param, click.Option):
            continue
        if ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE:
            given.append(max(param.opts, key=len))
    return given


def _fan_name(fan: Fan) -> str:
    return f"{fan.zh} {fan.en}"


def _live(tile: int, counts: list[int], seen: list[int]) -> int:
    return max(0, 4 - counts[tile] - seen[tile])


@click.command(
    cls=_JsonRefusingCommand,
    epilog=HAND_HELP,
    short_help="Shanten (向听数), waits and best discards of a hand.",
)
@click.argument("hand")
@click.option(
    "--visible",
    metavar="TILES",
    default="",
    help="Tiles seen elsewhere (discards, others' melds), left out of the live counts.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print one JSON object instead of tables: {"ok": true, "shanten": ...}, or a refusal '
    '{"ok": false, "reason": "invalid", "message": ...} (exit code 2).',
)
def shanten(hand: str, visible: str, as_json: bool) -> None:
    """Shanten (向听数) of a hand, its waits or useful tiles, and for 14 tiles the best discards.

    Shanten 0 means ready (听牌), -1 a complete winning shape; every shape counts (4 sets + pair,
    七对, 十三幺, 全不靠, 组合龙). A winning tile after '+' is taken as drawn.

    \b
    Examples:
      guobiao shanten "W1W1W1W2W3W4W5W6W7W8W9W9W9"        ready: waits on all nine
      guobiao shanten "W1W9B1B9T1T9F1F2F3F4J1J2J3"        thirteen-way wait
      guobiao shanten "[T2T3T4]W1W2W5W7B3B4B6B8F1F1 +J1"   which tile to discard
    """
    from guobiao.core import shanten as sh

    refuse = _json_refusal if as_json else say_refusal
    if not hand.strip():
        refuse("HAND is empty: give the tiles, e.g. 'W1W1W1W2W3W4W5W6W7W8W9W9W9'")
    parsed = parse_hand_or_fail(hand, refuse)
    try:
        seen_tiles = parse_tiles(visible)
    except TileParseError as err:
        refuse(f"--visible: {tile_error(err, visible)}")
    counts = [0] * 34
    for tile in parsed.standing:
        counts[tile] += 1
    seen = [0] * 34
    for tile in seen_tiles:
        if tile.is_flower:
            refuse("--visible: flowers never matter to shanten")
        seen[tile] += 1
    for meld in parsed.melds:
        for tile in meld.tiles:
            seen[tile] += 1
    melds = len(parsed.melds)
    if melds > 4:
        refuse(f"a hand has at most 4 melds, not {melds}")
    size = sum(counts)
    over = [str(TILES[t]) for t in range(34) if counts[t] + seen[t] > 4]
    if over:
        where = "between the hand and --visible" if seen_tiles else "in the hand"
        refuse(f"more than four of {', '.join(over)} {where}")
    if size not in (13 - 3 * melds, 14 - 3 * melds):
        refuse(
            f"with {melds_text(melds)} a hand has {13 - 3 * melds} or {14 - 3 * melds} standing tiles, "
            f"not {size}"
        )
    per_shape = {"regular": sh.regular_shanten(counts, melds)}
    if melds == 0:
        per_shape["seven_pairs"] = sh.seven_pairs_shanten(counts)
        per_shape["thirteen_orphans"] = sh.thirteen_orphans_shanten(counts)
        per_shape["honors_and_knitted"] = sh.honors_and_knitted_shanten(counts)
    if melds <= 1:
        per_shape["knitted_straight"] = sh.knitted_straight_shanten(counts, melds)
    overall = sh.shanten(counts, melds)
    out: dict[str, Any] = {"ok": True, "shanten": overall, "by_shape": per_shape}
    before: list[dict[str, Any]] = []  # with '+TILE' on a complete hand: its waits before it
    drawn = parsed.win_tile
    if drawn is not None and overall == -1:
        counts[drawn] -= 1
        before = [
            {"tile": str(TILES[t]), "live": _live(t, counts, seen)} for t in sh.waits(counts, melds)
        ]
        counts[drawn] += 1
        out["before_win"] = {"win": str(drawn), "waits": before, "unique": len(before) == 1}
    if size == 13 - 3 * melds:
        tiles_out = sh.waits(counts, melds) if overall == 0 else sh.useful_tiles(counts, melds)
        key = "waits" if overall == 0 else "useful"
        out[key] = [{"tile": str(TILES[t]), "live": _live(t, counts, seen)} for t in tiles_out]
    else:
        options = sh.discard_options(counts, melds, seen)
        out["discards"] = [
            {
                "discard": str(o.tile),
                "shanten": o.shanten,
                "useful": [str(t) for t in o.useful],
                "live": o.live,
            }
            for o in options
        ]
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    console = _console()
    names = {  # 中文 beside English, as the fan table names them
        "regular": "4 sets + pair",
        "seven_pairs": _fan_name(Fan.SEVEN_PAIRS),
        "thirteen_orphans": _fan_name(Fan.THIRTEEN_ORPHANS),
        "honors_and_knitted": _fan_name(Fan.LESSER_HONOURS_AND_KNITTED_TILES),
        "knitted_straight": _fan_name(Fan.KNITTED_STRAIGHT),
    }
    state = {-1: "complete (和牌型)", 0: "ready (听牌)"}.get(overall, f"{overall} from ready")
    console.print(f"Hand: {format_hand(parsed)}", overflow="fold")
    console.print(f"Shanten: [bold]{overall}[/bold], {state}")
    console.print(_wrapped("By shape: ", [f"{names[k]}: {v}" for k, v in per_shape.items()]))
    if "waits" in out or "useful" in out:
        label = "Waits" if "waits" in out else "Tiles that improve it"
        items = out.get("waits", out.get("useful", []))
        listed = [f"{i['tile']} ({i['live']} left)" for i in items]
        total_live = sum(i["live"] for i in items)
        console.print(
            _wrapped(f"{label}: ", listed or ["none"])
            + (f"  \\[{total_live} tile{'' if total_live == 1 else 's'}]" if items else "")
        )
        if "waits" in out:
            for line in _wait_notes(counts, melds, out["waits"]):
                console.print(line)
        return
    if before and drawn is not None:
        listed = [f"{i['tile']} ({i['live']} left)" for i in before]
        console.print(_wrapped(f"Before {drawn} it waited on: ", listed))
        counts[drawn] -= 1
        for line in _wait_notes(counts, melds, before, drawn):
            console.print(line)
        counts[drawn] += 1
    from rich.table import Table

    table = Table(show_header=True, header_style="bold")
    for column in ("Discard", "Shanten", "Tiles that improve it", "Live"):
        table.add_column(column)
    for item in out["discards"]:
        table.add_row(
            item["discard"], str(item["shanten"]), " ".join(item["useful"]), str(item["live"])
        )
    console.print(table)


def _wrapped(label: str, items: list[str], width: int = 80) -> str:
    """``label`` and ``items`` joined by "; ", broken between items (never inside one) to fit
    ``width`` terminal columns, each further line under the first item."""
    from rich.cells import cell_len

    lines = [label]
    for n, item in enumerate(items):
        piece = item + (";" if n < len(items) - 1 else "")
        if cell_len(lines[-1]) + 1 + cell_len(piece) > width and lines[-1].strip():
            lines.append(" " * cell_len(label) + piece)
        else:
            lines[-1] += ("" if lines[-1] == label else " ") + piece
    return "\n".join(lines)


def _wait_notes(
    counts: list[int], melds: int, waits: list[dict[str, Any]], win: Tile | None = None
) -> list[str]:
    """What the waits mean to a referee: a single winning tile (独听) and the wait fan a win on
    it shows, or several (no 边张, 坎张 or 单钓将, 第九条77-79); a wait on a tile the hand holds
    all four of still counts as one (docs/rules.md §3)."""
    from guobiao.scoring.explain import wait_shapes

    notes = []
    held_four = [w["tile"] for w in waits if counts[Tile.parse(w["tile"])] == 4]
    if held_four:
        notes.append(
            f"{', '.join(held_four)}: all four in the hand, yet still a wait (docs/rules.md §3)"
        )
    if len(waits) == 1:
        tile = Tile.parse(waits[0]["tile"])
        counts[tile] += 1
        shows = wait_shapes(counts, tile)
        counts[tile] -= 1
        on = "won" if win is not None else "a win"
        notes.append(
            f"独听 (one winning tile): {on} on {tile} counts {shows[0].zh} {shows[0].en} 1, "
            "unless another fan excludes it (第九条77-79)"
            if shows
            else f"独听 (one winning tile): {tile}; no 边张, 坎张 or 单钓将 reading of it"
        )
    elif melds < 4:
        notes.append(
            f"Not 独听: {len(waits)} winning tiles, so no 边张, 坎张 or 单钓将 (第九条77-79)"
        )
    return notes


@click.command(
    cls=Command, short_help="Every tile in each notation (Botzone, compact, 中文, glyph)."
)
def tiles() -> None:
    """Show every tile in each notation (Botzone, compact, 中文, glyph): any of them is read
    wherever a command takes tiles.

    \b
    Example:
      guobiao tiles
    """
    from rich.table import Table

    table = Table(show_header=True, header_style="bold")
    for column in ("Botzone", "compact", "中文", "glyph"):
        table.add_column(column)
    for tile in TILES:
        table.add_row(str(tile), tile.compact, tile.chinese, tile.glyph)
    _console().print(table)
