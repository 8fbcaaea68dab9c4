"""The ``guobiao`` command line: score hands, find waits and shanten.

An adapter over the core: it parses text, calls the library and prints with rich.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from . import __version__
from .bots import BOT_KINDS
from .calculator import PROFILES, calculate
from .cliutil import console as _console
from .cliutil import fail as _fail
from .context import WinContext, Wind
from .hand import Hand, format_hand, parse_hand, parse_tiles
from .jsonio import evaluate, result_to_json
from .result import MINIMUM_POINTS, FanResult, InvalidHandError
from .tiles import TILES, Tile, TileParseError

__all__ = ["main"]

_HAND_HELP = """\b
HAND grammar (white space ignored):
  [W1W2W3]      an exposed meld (chow, pung or kong); [F1F1F1:2] names the
                offering seat (1 next, 2 opposite, 3 previous)
  (B5B5B5B5)    a concealed kong
  B4B5B6T7T8    standing tiles
  +T9           the winning tile
  H1H2          flowers, anywhere outside melds
Tiles: W1-W9 万 characters, B1-B9 饼 dots, T1-T9 条 bamboo, F1-F4 东南西北,
J1-J3 中发白, H1-H8 flowers; or compact: 123m 456p 789s 1234567z (东南西北中发白)
12f (flowers), e.g. "[123m][111z]456p78s +9s"."""


def _parse_or_fail(text: str) -> Hand:
    try:
        return parse_hand(text)
    except TileParseError as err:
        pointer = ""
        if err.position is not None:
            pointer = f"\n  {text}\n  {' ' * err.position}^"
        _fail(f"{err}{pointer}")


class _WindType(click.ParamType[Wind, Any]):
    name = "wind"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Wind:
        if isinstance(value, Wind):
            return value
        try:
            return Wind.parse(str(value))
        except ValueError as err:
            self.fail(str(err), param, ctx)


WIND = _WindType()

RULES_OPTION = click.option(
    "--rules",
    type=click.Choice(PROFILES),
    default="1998",
    show_default=True,
    help="Fan profile: 1998 (the rules text) or mil (modern reference reading).",
)


_F = TypeVar("_F", bound=Callable[..., Any])


def parallel_options(what: str) -> Callable[[_F], _F]:
    """--workers and --ray-address, for commands that run independent seeded jobs
    (``guobiao.workers``; docs/distributed.md)."""

    def decorate(function: _F) -> _F:
        function = click.option(
            "--ray-address",
            default=None,
            metavar="ADDR",
            help="Run on Ray: 'local' (a one-machine Ray), 'auto' or ray://HOST:10001 (a cluster).",
        )(function)
        return click.option(
            "--workers",
            type=click.IntRange(1),
            default=1,
            show_default=True,
            help=f"Play {what} in this many processes (or Ray CPUs with --ray-address local).",
        )(function)

    return decorate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="guobiao")
def main() -> None:
    """guobiao: Chinese Official Mahjong (国标麻将, MCR) by the 1998 competition rules.

    \b
    Examples:
      guobiao fan "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"      score a hand
      guobiao fan "[123m][111z]456p78s99p +9s" --explain  and say why
      guobiao fan --jsonl --rules mil < hands.jsonl      score a stream
      guobiao tiles                                      the tile notations
    """


def _show_hand(hand: Hand, win: Tile, style: str) -> str:
    if style == "botzone":
        return format_hand(Hand(hand.concealed, hand.melds, win, hand.flowers))
    parts = []
    for meld in hand.melds:
        body = " ".join(t.text(style) for t in meld.tiles)
        parts.append(f"({body})" if meld.is_concealed else f"[{body}]")
    parts.append(" ".join(t.text(style) for t in hand.concealed))
    parts.append("+ " + win.text(style))
    return "  ".join(parts)


def _print_result(
    console: Console, hand: Hand, context: WinContext, result: FanResult, style: str, explain: bool
) -> None:
    console.print(f"Hand: {_show_hand(hand, context.win_tile, style)}")
    if result.decomposition:
        console.print(f"Shape: {result.decomposition}")
    table = Table(show_header=True, header_style="bold")
    table.add_column("番种")
    table.add_column("Fan")
    table.add_column("Points", justify="right")
    table.add_column("×", justify="right")
    table.add_column("Subtotal", justify="right")
    if any(f.basis for f in result.fans):
        table.add_column("On")
    for fan in result.fans:
        row = [fan.fan.zh, fan.fan.en, str(fan.points), str(fan.count), str(fan.total)]
        if any(f.basis for f in result.fans):
            row.append("; ".join(fan.basis))
        table.add_row(*row)
    console.print(table)
    flowers = f" (flowers {result.flower_points})" if result.flower_points else ""
    console.print(f"Total: [bold]{result.total}[/bold]{flowers}")
    if result.meets_minimum:
        console.print(f"Meets the {MINIMUM_POINTS}-point minimum (起和分): yes")
    else:
        console.print(
            f"Meets the {MINIMUM_POINTS}-point minimum (起和分): [bold red]no[/bold red] "
            f"({result.points_without_flowers} without flowers): not a valid win"
        )
    if explain:
        for reading, points in result.alternatives:
            console.print(
                f"Not taken: {reading} = {points} points (就高不就低, 第十条一(五)4: the higher reading counts)"
            )
        if result.excluded:
            console.print("\nShown by the hand but not counted:")
            for item in result.excluded:
                console.print(f"  {item.fan.zh} {item.fan.en}: {item.reason}")
        else:
            console.print("\nNo displayed fan was excluded.")


def _jsonl(rules: str) -> None:
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            out: dict[str, Any] = {
                "ok": False,
                "reason": "invalid",
                "message": f"line {number}: not JSON: {err.msg} at column {err.colno}",
            }
        else:
            out = evaluate(obj, rules)
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        sys.stdout.flush()


@main.command(epilog=_HAND_HELP)
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option(
    "--jsonl", is_flag=True, help="Read JSON hands from stdin, one per line; write results."
)
@click.option(
    "--explain", is_flag=True, help="Also show fans the hand displays but does not count, and why."
)
@click.option(
    "--tiles",
    "style",
    type=click.Choice(["botzone", "glyph", "chinese"]),
    default="botzone",
    show_default=True,
    help="How to show tiles.",
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
) -> None:
    """Score a winning hand: every fan (番), its points, the total and the 8-point minimum.

    \b
    Examples:
      guobiao fan "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"
      guobiao fan "[W1W2W3][F1F1F1]B4B5B6T7T8B1B1 +T9" --seat E --round E
      guobiao fan "W2W3W4W2W3W4B2B3B4B5B6B7T5 +T5" --self-drawn --explain
      guobiao fan --jsonl --rules mil < hands.jsonl > scores.jsonl
    """
    if jsonl:
        if hand is not None:
            _fail("--jsonl reads hands from stdin: give no HAND")
        _jsonl(rules)
        return
    if hand is None:
        _fail("give a HAND (see 'guobiao fan --help'), or --jsonl to read JSON lines")
    parsed = _parse_or_fail(hand)
    win = parsed.win_tile
    if win_text is not None:
        try:
            win_from_option = Tile.parse(win_text)
        except TileParseError as err:
            _fail(f"--win: {err}")
        if win is not None and win != win_from_option:
            _fail(f"the hand's winning tile +{win} and --win {win_from_option} differ")
        win = win_from_option
    if win is None:
        _fail("no winning tile: end HAND with '+TILE' (e.g. '+W5') or pass --win")
    if win.is_flower:
        _fail("a flower cannot be the winning tile")
    if flowers is not None and parsed.flowers and flowers != len(parsed.flowers):
        _fail(f"--flowers {flowers} but HAND shows {len(parsed.flowers)} flower(s)")
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
            click.echo(
                json.dumps(
                    {"ok": False, "reason": "invalid", "message": str(err)}, ensure_ascii=False
                )
            )
            sys.exit(1)
        _fail(f"impossible hand: {err}", 1)
    if as_json:
        out = result_to_json(result)
        if explain and result.is_winning:
            out["excluded"] = [
                {"zh": e.fan.zh, "en": e.fan.en, "reason": e.reason} for e in result.excluded
            ]
            out["shape"] = result.decomposition
        click.echo(json.dumps(out, ensure_ascii=False))
        sys.exit(0 if result.is_winning else 1)
    if not result.is_winning:
        _fail(
            f"not a winning hand: {format_hand(Hand(parsed.concealed, parsed.melds, win))} "
            "forms no winning shape (4 sets + pair, 七对, 十三幺, 全不靠, 组合龙)",
            1,
        )
    _print_result(_console(), hand_obj, context, result, style, explain)


def _live(tile: int, counts: list[int], seen: list[int]) -> int:
    return max(0, 4 - counts[tile] - seen[tile])


@main.command(epilog=_HAND_HELP)
@click.argument("hand")
@click.option(
    "--visible",
    metavar="TILES",
    default="",
    help="Tiles seen elsewhere (discards, others' melds), left out of the live counts.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
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
    from . import shanten as sh

    parsed = _parse_or_fail(hand)
    try:
        seen_tiles = parse_tiles(visible)
    except TileParseError as err:
        _fail(f"--visible: {err}")
    counts = [0] * 34
    for tile in parsed.standing:
        counts[tile] += 1
    seen = [0] * 34
    for tile in seen_tiles:
        if tile.is_flower:
            _fail("--visible: flowers never matter to shanten")
        seen[tile] += 1
    for meld in parsed.melds:
        for tile in meld.tiles:
            seen[tile] += 1
    melds = len(parsed.melds)
    size = sum(counts)
    over = [str(TILES[t]) for t in range(34) if counts[t] + seen[t] > 4]
    if over:
        _fail(f"more than four of {', '.join(over)} between the hand and --visible")
    if size not in (13 - 3 * melds, 14 - 3 * melds):
        _fail(
            f"with {melds} meld(s) a hand has {13 - 3 * melds} or {14 - 3 * melds} standing tiles, "
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
    out: dict[str, Any] = {"shanten": overall, "by_shape": per_shape}
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
    names = {
        "regular": "4 sets + pair",
        "seven_pairs": "七对",
        "thirteen_orphans": "十三幺",
        "honors_and_knitted": "全不靠",
        "knitted_straight": "组合龙",
    }
    state = {-1: "complete (和牌型)", 0: "ready (听牌)"}.get(overall, f"{overall} from ready")
    console.print(f"Hand: {format_hand(parsed)}")
    console.print(f"Shanten: [bold]{overall}[/bold], {state}")
    console.print("By shape: " + ", ".join(f"{names[k]} {v}" for k, v in per_shape.items()))
    if "waits" in out or "useful" in out:
        label = "Waits" if "waits" in out else "Tiles that improve it"
        items = out.get("waits", out.get("useful", []))
        listed = ", ".join(f"{i['tile']} ({i['live']} left)" for i in items)
        total_live = sum(i["live"] for i in items)
        console.print(f"{label}: {listed or 'none'}" + (f"  [{total_live} tiles]" if items else ""))
        return
    table = Table(show_header=True, header_style="bold")
    for column in ("Discard", "Shanten", "Tiles that improve it", "Live"):
        table.add_column(column)
    for item in out["discards"]:
        table.add_row(
            item["discard"], str(item["shanten"]), " ".join(item["useful"]), str(item["live"])
        )
    console.print(table)


def _bot_specs(text: str) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not 1 <= len(names) <= 4:
        _fail(
            "--bots takes 1 to 4 bot names separated by commas (the last repeats to fill 4 seats)"
        )
    unknown = [n for n in names if n not in BOT_KINDS]
    if unknown:
        _fail(f"unknown bot(s): {', '.join(unknown)} (choose from {', '.join(BOT_KINDS)})")
    return names + [names[-1]] * (4 - len(names))


@main.command()
@click.option(
    "-n",
    "--sessions",
    "count",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Sessions to play.",
)
@click.option(
    "--bots",
    "bots_text",
    default="fan,efficiency,efficiency,efficiency",
    show_default=True,
    help="The four players' bots (random, efficiency, fan), comma-separated.",
)
@click.option("--seed", type=int, default=None, help="Makes the whole run reproducible.")
@click.option(
    "--hands", type=click.IntRange(1, 16), default=16, show_default=True, help="Hands per session."
)
@RULES_OPTION
@click.option("--no-flowers", is_flag=True, help="Play without the 8 flowers (136 tiles).")
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write one replay log per session here (read them with `guobiao replay`).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@parallel_options("sessions")
def simulate(
    count: int,
    bots_text: str,
    seed: int | None,
    hands: int,
    rules: str,
    no_flowers: bool,
    log_dir: Path | None,
    as_json: bool,
    workers: int,
    ray_address: str | None,
) -> None:
    """Play sessions between bots and summarise: win rate, average fan, deal-ins, points.

    Each session is 4 rounds x 4 hands (or --hands) with the 1998 seat rotation; player P1 gets
    the first bot, P2 the second, and so on, for every session. With --seed the run is exactly
    reproducible, and every log in --log-dir replays with `guobiao replay`. --workers and
    --ray-address spread the sessions over processes or a Ray cluster: the results are the
    same as a serial run with the same seed (docs/distributed.md).

    \b
    Examples:
      guobiao simulate -n 100 --bots fan,efficiency,efficiency,efficiency --seed 1
      guobiao simulate -n 5 --bots random --log-dir logs && guobiao replay logs/session-0001.jsonl
      guobiao simulate -n 400 --seed 1 --workers 2
      guobiao simulate -n 4000 --seed 1 --workers 64 --ray-address auto
    """
    import time

    from rich.progress import Progress

    from .replay import session_lines, write_log
    from .rules import TableRules
    from .simulation import play_job, session_jobs
    from .summary import summarize
    from .workers import WorkerError, run_jobs

    names = _bot_specs(bots_text)
    table_rules = TableRules(fan_profile=rules, flowers=not no_flowers, hands_per_session=hands)
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            _fail(f"cannot use --log-dir {log_dir}: {err.strerror}")
    started = time.perf_counter()
    console = _console()
    with Progress(console=Console(stderr=True), transient=True, disable=as_json) as progress:
        task = progress.add_task("sessions", total=count)
        jobs = session_jobs(count, names, table_rules, seed)
        try:
            plays = run_jobs(
                play_job,
                jobs,
                workers=workers,
                ray_address=ray_address,
                on_done=lambda k: progress.advance(task, k),
            )
        except WorkerError as err:
            _fail(str(err), 1)
    elapsed = time.perf_counter() - started
    if log_dir is not None:
        for job, play in zip(jobs, plays, strict=True):
            write_log(
                log_dir / f"session-{job.number:04d}.jsonl",
                session_lines(play, table_rules, job.seed),
            )
    summary = summarize(plays, table_rules.starting_points)
    if as_json:
        out = {
            "sessions": summary.sessions,
            "hands": summary.hands,
            "draw_rate": round(summary.draw_rate, 4),
            "hands_per_second": round(summary.hands / elapsed, 1),
            "players": [
                {
                    "player": p.player,
                    "bot": p.agent,
                    "win_rate": round(p.win_rate, 4),
                    "self_drawn": p.self_drawn,
                    "wins": p.wins,
                    "average_fan": round(p.average_fan, 2),
                    "deal_in_rate": round(p.deal_in_rate, 4),
                    "points_per_session": round(p.points_per_session, 2),
                    "standard_points_per_session": round(p.standard_points_per_session, 3),
                }
                for p in summary.players
            ],
        }
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    table = Table(show_header=True, header_style="bold")
    for column in (
        "Player",
        "Bot",
        "Win",
        "Wins (tsumo)",
        "Fan",
        "Deal-in",
        "Pts/sess",
        "Std/sess",
    ):
        table.add_column(column, justify="left" if column in ("Player", "Bot") else "right")
    for p in summary.players:
        table.add_row(
            p.player,
            p.agent,
            f"{p.win_rate:.1%}",
            f"{p.wins} ({p.self_drawn})",
            f"{p.average_fan:.1f}",
            f"{p.deal_in_rate:.1%}",
            f"{p.points_per_session:+.1f}",
            f"{p.standard_points_per_session:.2f}",
        )
    console.print(table)
    console.print(
        "Win: wins per hand played; Fan: average fan points of its wins (flowers included); "
        "Deal-in: discards won by others per hand; Pts/sess: session score - 500; Std/sess: "
        "standard points per session."
    )
    console.print(
        f"{summary.sessions} sessions, {summary.hands} hands, draw rate {summary.draw_rate:.1%}, "
        f"{summary.hands / elapsed:.0f} hands/s"
        + (f"; logs in {log_dir}" if log_dir is not None else "")
    )


@main.command()
@click.option(
    "--bots",
    "bots_text",
    required=True,
    help="Four bots, comma-separated: fan, efficiency, random, cmd:PROGRAM ARGS (keep-running), "
    "json:PROGRAM ARGS, simple:PROGRAM ARGS, or the path of an executable.",
)
@click.option(
    "--deals", type=click.IntRange(1), default=10, show_default=True, help="Walls to play."
)
@click.option(
    "--duplicate",
    is_flag=True,
    help="Play every wall in all 24 seat orders of the four bots (see --rotations).",
)
@click.option(
    "--rotations",
    is_flag=True,
    help="With --duplicate: only the 4 rotations of the line-up (each bot once in each seat).",
)
@click.option("--seed", type=int, default=None, help="Makes the whole run reproducible.")
@parallel_options("deals")
@click.option(
    "--time-limit",
    type=click.FloatRange(0.01),
    default=5.0,
    show_default=True,
    help="Seconds an external bot has for each answer.",
)
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write every hand's Botzone match log and guobiao replay log here.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
def arena(
    bots_text: str,
    deals: int,
    duplicate: bool,
    rotations: bool,
    seed: int | None,
    workers: int,
    ray_address: str | None,
    time_limit: float,
    log_dir: Path | None,
    as_json: bool,
) -> None:
    """Judge Botzone-variant hands between guobiao bots and Botzone bot programs (docs/arena.md).

    Each deal is a 136-tile wall and a prevailing wind from the seed; with --duplicate it is
    played in every seat order, so that each bot plays each wall from each seat. External bots
    are subprocesses answering the judge's requests within --time-limit; a time-out, a crash,
    garbage or an illegal answer costs the hand (-30, +10 to each other seat). Deals run in
    parallel with --workers / --ray-address, with the same results as a serial run.

    \b
    Examples:
      guobiao arena --bots fan,efficiency,efficiency,random --duplicate --deals 50 --seed 1
      guobiao arena --bots "fan,cmd:guobiao botzone-bot --bot fan --seed {seed} --keep-running,random,random"
      guobiao arena --bots fan,fan,fan,json:./mybot --deals 5 --log-dir logs
    """
    from rich.progress import Progress

    from .arena import arena_jobs, parse_bot_spec, run_arena, summarize, write_logs
    from .workers import WorkerError

    texts = [t.strip() for t in bots_text.split(",") if t.strip()]
    if len(texts) != 4:
        _fail(f"--bots takes four bots separated by commas, not {len(texts)}")
    try:
        specs = [parse_bot_spec(t) for t in texts]
    except ValueError as err:
        _fail(f"--bots: {err}")
    if rotations and not duplicate:
        _fail("--rotations goes with --duplicate")
    mode = ("rotations" if rotations else "all") if duplicate else "none"
    jobs = arena_jobs(
        deals,
        specs,
        seed=seed,
        duplicate=mode,
        time_limit=time_limit,
        keep_logs=log_dir is not None,
    )
    with Progress(console=Console(stderr=True), transient=True, disable=as_json) as progress:
        task = progress.add_task("deals", total=deals)
        try:
            results = run_arena(
                jobs,
                workers=workers,
                ray_address=ray_address,
                on_done=lambda k: progress.advance(task, k),
            )
        except WorkerError as err:
            _fail(str(err), 1)
    written = 0
    if log_dir is not None:
        try:
            written = write_logs(log_dir, results, specs)
        except OSError as err:
            _fail(f"cannot write to --log-dir {log_dir}: {err}")
    stats = summarize(specs, results)
    hands = sum(len(h) for h in results)
    if as_json:
        out = {
            "deals": deals,
            "hands": hands,
            "duplicate": mode,
            "seed": seed,
            "bots": [s.to_json() for s in stats],
        }
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    console = _console()
    table = Table(show_header=True, header_style="bold")
    for column in ("", "Bot", "Hands", "Mean", "±95%", "Win", "Tsumo", "Deal-in", "Forfeit"):
        table.add_column(column, justify="left" if column in ("", "Bot") else "right", no_wrap=True)
    for s in stats:
        ci = s.ci95
        table.add_row(
            "ABCD"[s.index],
            s.bot,
            str(s.hands),
            f"{s.mean:+.2f}",
            f"±{ci:.2f}" if ci is not None else "-",
            f"{s.win_rate:.1%}",
            f"{s.self_draw_rate:.1%}",
            f"{s.deal_in_rate:.1%}",
            str(s.forfeits),
        )
    console.print(table)
    console.print(
        f"{deals} deals x {hands // deals} seat orders = {hands} hands. Mean: score per hand; "
        "±95%: its 95% confidence interval over deals (a deal's mean is the unit); Win, Tsumo "
        "(self-drawn wins), Deal-in: per hand"
        + (f"; {written} hands logged in {log_dir}" if log_dir is not None else "")
    )


@main.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quiet", is_flag=True, help="Print only problems and the final line.")
def replay(log: Path, quiet: bool) -> None:
    """Replay a log and check it: a guobiao session log (`guobiao simulate --log-dir`, `guobiao
    play --log`, `guobiao arena --log-dir`: JSON lines, docs/replay-log.md), a single hand record
    (`Game.record()` as one JSON object) or a Botzone match log (`{"log": [...], "initdata":
    {...}}`, docs/arena.md); the format is read from the content.

    Every hand is rebuilt from its wall and actions (a Botzone log is judged again, every seat
    answering what the log says); every request, settlement and score must come out exactly as
    the log says. Exit code 0 when everything matches, 1 when anything differs (each difference
    is listed), 2 when the file cannot be read.

    \b
    Examples:
      guobiao simulate -n 1 --seed 7 --log-dir logs && guobiao replay logs/session-0001.jsonl
      guobiao arena --bots fan,fan,fan,random --deals 1 --log-dir logs
      guobiao replay logs/deal-0001-0123.botzone.json
    """
    from .replay import LogError, read_log, verify_any

    try:
        text = log.read_text(encoding="utf-8")
    except FileNotFoundError:
        _fail(f"no such file: {log}")
    except (OSError, UnicodeDecodeError) as err:
        _fail(f"{log}: {err}")
    try:
        report = verify_any(text, lambda: read_log(log))
    except LogError as err:
        _fail(f"{log}: {err}")
    console = _console()
    for problem in report.problems:
        console.print(f"[red]mismatch[/red] {problem}")
    if not quiet:
        scores = ", ".join(f"{p} {v}" for p, v in report.scores.items())
        console.print(f"{report.kind.capitalize()} scores: {scores}")
    if report.ok:
        console.print(
            f"Replayed {report.hands} hand{'s' if report.hands != 1 else ''} ({report.kind}): "
            "every action, settlement and score matches."
        )
    else:
        console.print(f"Replayed {report.hands} hands: {len(report.problems)} difference(s).")
        sys.exit(1)


@main.command()
@click.option(
    "--seed", type=int, default=None, help="Replay the same deals (and bots) as this seed."
)
@click.option(
    "--bots",
    default="fan,fan,fan",
    show_default=True,
    help="The three opponents, in seat order after you: fan, efficiency, random (one for all).",
)
@click.option(
    "--hands",
    type=click.IntRange(1, 16),
    default=16,
    show_default=True,
    help="Hands to play: 16 is a full session (4 rounds), 4 a round.",
)
@click.option(
    "--seat",
    type=WIND,
    default="E",
    show_default=True,
    help="Your seat at the first hand: E S W N.",
)
@click.option(
    "--tiles",
    "style",
    type=click.Choice(["glyph", "chinese", "botzone"]),
    default=None,
    help="How to show tiles [default: glyph on a UTF-8 terminal, else botzone].",
)
@RULES_OPTION
@click.option(
    "--log",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the session log here (for `guobiao replay`) when the session ends or you quit.",
)
def play(
    seed: int | None,
    bots: str,
    hands: int,
    seat: Wind,
    style: str | None,
    rules: str,
    log: Path | None,
) -> None:
    """Play MCR at the terminal: you against three bots, hand after hand, with scores.

    At each decision the table is shown (winds, scores, wall, melds, flowers, discards) with
    your hand and a numbered menu of your legal actions: type the number, or the action
    ('d W5', 'pung', 'chow 345m', 'win', 'pass'; Enter passes a claim). '?' helps, 'q' quits
    (the complete hands still count and are logged). Exit code 0 when the session ends or you
    quit, 1 when the input ends first, 130 on Ctrl-C.

    \b
    Examples:
      guobiao play                                  a full session against three FanBots
      guobiao play --hands 4 --seed 7 --seat S      one round, the same deals as seed 7
      guobiao play --bots fan,efficiency,random --tiles chinese --log game.jsonl
    """
    from contextlib import suppress

    from .terminal import parse_bots, play_at_terminal

    try:
        kinds = parse_bots(bots)
    except ValueError as err:
        _fail(f"--bots: {err}")
    if log is not None and not log.parent.is_dir():
        _fail(f"--log: no such directory: {log.parent}")
    if sys.stdin.isatty():
        with suppress(ImportError):  # line editing and history for input(), where there is one
            import readline  # noqa: F401
    code = play_at_terminal(
        _console(),
        bots=kinds,
        hands=hands,
        seat=int(seat),
        style=style,
        rules=rules,
        seed=seed,
        log=log,
    )
    sys.exit(code)


@main.command("botzone-bot")
@click.option(
    "--bot",
    "kind",
    type=click.Choice(BOT_KINDS),
    default="fan",
    show_default=True,
    help="The guobiao bot that chooses.",
)
@click.option("--seed", type=int, default=None, help="Seed the bot (ties, random choices).")
@click.option(
    "--transport",
    type=click.Choice(["auto", "json", "simple"]),
    default="auto",
    show_default=True,
    help="auto: a first line starting with { is JSON, a number the simple format.",
)
@click.option(
    "--keep-running",
    is_flag=True,
    help="After each answer print >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and read the next request.",
)
@click.option(
    "--rules",
    type=click.Choice(PROFILES),
    default="mil",
    show_default=True,
    help="Fan profile that decides HU (the Botzone judge counts as the reference, mil).",
)
def botzone_bot(
    kind: str, seed: int | None, transport: str, keep_running: bool, rules: str
) -> None:
    """Play Botzone's Chinese Standard Mahjong: read the judge's requests on stdin, answer on
    stdout (docs/botzone.md).

    \b
    Try it:
      echo '{"requests":["0 1 0"],"responses":[]}' | guobiao botzone-bot
      {"response": "PASS"}
    JSON (Botzone's default), one line in, one line out:
      {"requests":["0 1 0","1 0 0 0 0 W1 W2 ...","3 0 DRAW","3 0 PLAY T5"],
       "responses":["PASS","PASS","PASS"]}
      -> {"response": "PASS"}       (or "PENG Y", "CHI M Y", "GANG", "HU")
    Simple: the turn count n, then requests and my earlier answers alternating:
      3 / 0 1 0 / PASS / 1 0 0 0 0 W1 W2 ... / PASS / 2 T6   -> PLAY T6
    With --keep-running the process stays up and reads one request line per turn.
    Requests: 0 seat quan; 1 f0 f1 f2 f3 <13 tiles> [flowers]; 2 T (I drew);
    3 p BUHUA H | DRAW | PLAY X | PENG Y | CHI M Y | GANG | BUGANG X.
    Malformed input: "error: ..." on stderr and exit code 2 (no answer).
    """
    from .bots import make_bot
    from .botzone import run
    from .rules import TableRules

    table = TableRules(fan_profile=rules, flowers=False)
    bot = make_bot(kind, seed, table)
    try:
        run(bot, sys.stdin, sys.stdout, transport=transport, keep_running=keep_running, rules=table)
    except ValueError as err:  # ProtocolError, and any request the state cannot take
        _fail(str(err).replace("\n", " "))
    except KeyboardInterrupt:
        sys.exit(130)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("guobiao-web"),
    show_default=True,
    help="Directory of the rooms database (rooms.sqlite3); a restart resumes every table.",
)
@click.option(
    "--turn", type=click.FloatRange(0.01), default=15.0, show_default=True, help="Seconds per turn."
)
@click.option(
    "--first-discard",
    type=click.FloatRange(0.01),
    default=30.0,
    show_default=True,
    help="Seconds for the dealer's first discard.",
)
@click.option(
    "--claim",
    type=click.FloatRange(0.01),
    default=5.0,
    show_default=True,
    help="Seconds of the claim window.",
)
@click.option(
    "--grace",
    type=click.FloatRange(0),
    default=30.0,
    show_default=True,
    help="Seconds before a bot plays a disconnected player.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0),
    default=0.6,
    show_default=True,
    help="Seconds bots wait before acting.",
)
@click.option(
    "--between-hands",
    type=click.FloatRange(0),
    default=8.0,
    show_default=True,
    help="Seconds between hands.",
)
@click.option(
    "--db",
    "url",
    envvar="GUOBIAO_DB",
    default="sqlite:///guobiao.db",
    show_default=True,
    help="The tournament database (as guobiao tournament --db) whose pages to serve; "
    "or set GUOBIAO_DB.",
)
@click.option(
    "--session-hours",
    type=click.FloatRange(0.01),
    default=12.0,
    show_default=True,
    help="How long a referee's login lasts.",
)
def serve(
    host: str,
    port: int,
    data: Path,
    turn: float,
    first_discard: float,
    claim: float,
    grace: float,
    bot_delay: float,
    between_hands: float,
    url: str,
    session_hours: float,
) -> None:
    """Play in the browser: a lobby, tables with people and bots, 16-hand sessions; and the
    tournament pages of the --db database: standings, seating, score sheets, the projector
    view, referee score entry (docs/web.md). Needs the web extra: pip install 'guobiao[web]'.

    \b
    Try it:
      guobiao serve --port 8000        then open http://127.0.0.1:8000/
      guobiao serve --db sqlite:///club.db     tournaments at http://127.0.0.1:8000/t/
    """
    try:
        import gc

        import uvicorn

        from .server.app import create_app
        from .server.rooms import Limits
    except ImportError as err:
        _fail(f"guobiao serve needs the web extra (pip install 'guobiao[web]'): {err}")
    limits = Limits(
        first_discard=first_discard,
        turn=turn,
        claim=claim,
        grace=grace,
        bot_delay=bot_delay,
        between_hands=between_hands,
    )
    data.mkdir(parents=True, exist_ok=True)
    try:
        app = create_app(
            data / "rooms.sqlite3",
            limits=limits,
            tournament_db=url,
            session_seconds=session_hours * 3600,
        )
    except Exception as err:  # a bad URL, a database that is not ours
        _fail(f"cannot open the tournament database {url}: {err}")
    click.echo(f"guobiao: http://{host}:{port}/ (data in {data}, tournaments in {url})", err=True)
    # What is loaded now (modules, tables, resumed rooms) lives as long as the server: keep it
    # out of the cycle collector's full passes, and run those rarely; they were pauses of 70-100
    # ms under load (docs/web.md, Load test).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    uvicorn.run(app, host=host, port=port, log_level="warning")


@main.command()
def tiles() -> None:
    """Show every tile in each notation (Botzone, compact, 中文, glyph)."""
    table = Table(show_header=True, header_style="bold")
    for column in ("Botzone", "compact", "中文", "glyph"):
        table.add_column(column)
    for tile in TILES:
        table.add_row(str(tile), tile.compact, tile.chinese, tile.glyph)
    _console().print(table)


# `guobiao tournament ...`: its module loads SQLAlchemy only when one of its commands runs.
from .tournament_cli import tournament  # noqa: E402

main.add_command(tournament)
