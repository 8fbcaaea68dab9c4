"""``guobiao arena`` (the local Botzone judge, duplicate format), ``guobiao replay`` (check any
log guobiao writes or reads) and ``guobiao botzone-bot`` (a guobiao bot on the Botzone protocol).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from guobiao.bots import BOT_KINDS, BOT_LEVELS
from guobiao.cli.help import Command
from guobiao.cli.options import OVERWRITE_OPTION, RULES, SEED, parallel_options
from guobiao.cli.util import console as _console
from guobiao.cli.util import count as count_of
from guobiao.cli.util import fail as _fail
from guobiao.cli.util import no_progress as _no_progress
from guobiao.cli.util import prepare_log_dir

__all__ = ["arena", "botzone_bot", "replay"]


@click.command(
    cls=Command, short_help="Judge bots and Botzone programs against each other (duplicate)."
)
@click.option(
    "--bots",
    "bots_text",
    required=True,
    help="Four bots, comma-separated: strong, fan, efficiency, random (or a level: easy, normal), "
    "cmd:PROGRAM ARGS (keep-running), json:PROGRAM ARGS, simple:PROGRAM ARGS, or the path of an "
    "executable.",
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
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Makes the whole run reproducible, 0 or more [default: a fresh seed, shown with the "
    "results].",
)
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
    help="Write every hand's Botzone match log and guobiao replay log here (deal-NNNN-ORDER."
    "botzone.json and .jsonl); a folder holding an earlier run's logs is refused (--overwrite).",
)
@OVERWRITE_OPTION
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
    overwrite: bool,
    as_json: bool,
) -> None:
    """Judge Botzone-variant hands between guobiao bots and Botzone bot programs (docs/arena.md).

    Each deal is a 136-tile wall and a prevailing wind from the seed; with --duplicate it is
    played in every seat order, so that each bot plays each wall from each seat. External bots
    are subprocesses answering the judge's requests within --time-limit; a time-out, a crash,
    garbage or an illegal answer costs the hand (-30, +10 to each other seat). Deals run in
    parallel with --workers / --ray-address, with the same results as a serial run. A --log-dir
    holds one run's logs (one that holds an earlier run's is refused, or with --overwrite
    emptied of them first, other files left as they are). A progress
    bar runs on standard error (a terminal); Ctrl-C stops the run and prints the results of the
    deals played so far (exit code 130; SIGTERM likewise, 143), their logs kept whole.

    Your own bot is an executable speaking Botzone's protocol (docs/botzone.md). json:./mybot is
    started every turn and reads one line, {"requests": [every request so far], "responses":
    [its earlier answers]}, and prints {"response": "PLAY W1"}; simple:./mybot reads the turn
    count n, then the 2n-1 lines of requests and answers, and prints the answer line;
    cmd:./mybot gets the same first turn as simple:, then after each answer prints
    >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and reads the next request as one line. {seed} in its
    arguments becomes its seed. When a bot forfeits, a line under the results says why
    (time-out, crash, illegal action, wrong win).

    \b
    Examples:
      guobiao arena --bots fan,efficiency,efficiency,random --duplicate \\
          --deals 50 --seed 1
      guobiao arena --bots "fan,cmd:guobiao botzone-bot --bot fan --seed {seed} \\
          --keep-running,random,random"
      guobiao arena --bots fan,fan,fan,json:./mybot --deals 5 --log-dir logs
          # ./mybot: your own bot
    """
    from rich.markup import escape
    from rich.progress import Progress

    from guobiao.botzone.arena import (
        add_deal,
        iter_arena,
        iter_arena_jobs,
        parse_bot_spec,
        summarize,
        write_logs,
    )
    from guobiao.cli.games import interruption, stop_signals
    from guobiao.jobs.workers import WorkerError

    # a level (easy, normal, strong) names its bot, as `play` and `simulate` read it
    texts = [
        BOT_LEVELS.get(t.strip().lower(), t.strip()) for t in bots_text.split(",") if t.strip()
    ]
    if len(texts) != 4:
        _fail(f"--bots takes four bots separated by commas, not {len(texts)}")
    # A program that cannot start would lose every hand as a crash: said before the run. (On a
    # Ray cluster it need only exist on the nodes, docs/arena.md.)
    local = ray_address is None or ray_address == "local"
    try:
        specs = [parse_bot_spec(t, check=local) for t in texts]
    except ValueError as err:
        _fail(f"--bots: {err}")
    if rotations and not duplicate:
        _fail("--rotations goes with --duplicate")
    if log_dir is not None:
        prepare_log_dir(log_dir, "--log-dir", overwrite=overwrite)
    elif overwrite:
        _fail("--overwrite goes with --log-dir")
    mode = ("rotations" if rotations else "all") if duplicate else "none"
    if seed is None:  # drawn here and shown, so that any run can be run again
        import random

        seed = random.SystemRandom().randrange(2**31)
    # made as they are handed out: a huge --deals starts at once (no list of its deals)
    jobs = iter_arena_jobs(
        deals,
        specs,
        seed=seed,
        duplicate=mode,
        time_limit=time_limit,
        keep_logs=log_dir is not None,
    )
    # Each deal is logged and added to the statistics as it comes, then dropped: the memory of
    # a run does not grow with its deals (issue 14).
    stats = summarize(specs, [])
    hands = written = played = 0
    interrupted: KeyboardInterrupt | None = None
    try:
        with (
            stop_signals(),
            Progress(
                console=Console(stderr=True), transient=True, disable=_no_progress(as_json)
            ) as progress,
        ):
            task = progress.add_task("deals", total=deals)
            for deal in iter_arena(jobs, workers=workers, ray_address=ray_address):
                if log_dir is not None:
                    try:
                        written += write_logs(log_dir, [deal], specs)
                    except OSError as err:
                        raise _CannotWrite(
                            f"cannot write to --log-dir {log_dir}: {err.strerror or err}"
                        ) from err
                add_deal(stats, deal)
                hands += len(deal)
                played += 1
                progress.advance(task, 1)
    except KeyboardInterrupt as err:  # Ctrl-C, or SIGTERM / SIGHUP (Stopped)
        interrupted = err
    except _CannotWrite as err:
        _fail(str(err), 1)
    except WorkerError as err:
        _fail(str(err), 1)
    how, code = interruption(interrupted) if interrupted is not None else ("", 0)
    if interrupted and not played:
        _fail(f"interrupted ({how}) before the first deal ended", code)
    if as_json:
        out = {
            "deals": played,
            "hands": hands,
            "duplicate": mode,
            "seed": seed,
            "bots": [s.to_json() for s in stats],
        }
        if interrupted:
            out["interrupted"] = True
            out["deals_asked"] = deals
        click.echo(json.dumps(out, ensure_ascii=False))
        if interrupted:
            sys.exit(code)
        return
    console = _console()
    table = Table(show_header=True, header_style="bold")
    # Seven columns that fit 80 characters whole; a long program spec is shortened in the
    # table and written out in full below it.
    for column in ("Bot", "Hands", "Mean ±95%", "Win", "自摸", "Deal-in", "Forfeit"):
        table.add_column(column, justify="left" if column == "Bot" else "right", no_wrap=True)
    shortened = []
    for s in stats:
        letter = "ABCD"[s.index]
        label = s.bot if len(s.bot) <= _LABEL else s.bot[: _LABEL - 1] + "…"
        if label != s.bot:
            shortened.append(f"{letter} = {s.bot}")
        ci = s.ci95
        table.add_row(
            f"{letter} {label}",
            str(s.hands),
            f"{s.mean:+.2f}" + (f" ±{ci:.2f}" if ci is not None else ""),
            f"{s.win_rate:.1%}",
            f"{s.self_draw_rate:.1%}",
            f"{s.deal_in_rate:.1%}",
            str(s.forfeits),
        )
    console.print(table)
    for line in shortened:
        console.print(escape(line), soft_wrap=True)  # whole, to copy
    for s in stats:  # what a forfeit was: the first thing to know when one's own bot loses
        if s.forfeits:
            reasons = ", ".join(f"{n} {r}" for r, n in sorted(s.forfeit_reasons.items()))
            console.print(
                escape(f"{'ABCD'[s.index]} forfeited {count_of(s.forfeits, 'hand')}: {reasons}"),
                soft_wrap=True,
            )
            if s.last_words:  # a crash's traceback ends with what went wrong
                console.print(escape(f"  its standard error ended: {s.last_words}"), soft_wrap=True)
    if any(s.forfeits for s in stats):
        console.print(_FORFEITS)
    console.print(
        f"{count_of(played, 'deal')} x {count_of(hands // played, 'seat order')} = "
        f"{count_of(hands, 'hand')}. Mean: score per hand, ±95% its 95% confidence interval "
        "over deals (a deal's mean is the unit; none with one deal); Win, 自摸 (self-drawn "
        "wins), Deal-in: per hand; Forfeit: hands lost by a foul (time-out, crash, illegal "
        f"answer, wrong win); seed {seed}"
        + (f"; {count_of(written, 'hand')} logged in {log_dir}" if log_dir is not None else "")
    )
    if interrupted:
        _fail(
            f"interrupted ({how}) after {played} of {count_of(deals, 'deal')}: "
            "the results above cover those",
            code,
        )


_FORFEITS = (
    "time-out: no answer within --time-limit; crash: the program ended, printed nothing, closed "
    "its output or could not start (the last line it wrote on standard error is shown above; "
    "--log-dir keeps the end of it, deal-NNNN-ORDER.stderr.txt); illegal action: an answer that is not legal then or not readable (the "
    "Botzone log, --log-dir, has it); wrong win: a HU that is not a win of 8 points."
)
"""What each forfeit reason means, printed under the results when a bot forfeited."""

_LABEL = 12
"""The longest bot label the arena's table shows whole (at 80 characters)."""


class _CannotWrite(Exception):
    """A log could not be written (raised out of the run, then said in one line)."""


@click.command(cls=Command, short_help="Replay logs and check every action, settlement and score.")
@click.argument("logs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--quiet", is_flag=True, help="Print only problems and the final line.")
def replay(logs: tuple[Path, ...], quiet: bool) -> None:
    """Replay logs and check them: a guobiao session log (`guobiao simulate --log-dir`, `guobiao
    play --log`, `guobiao arena --log-dir`: JSON lines, docs/replay-log.md), a single hand record
    (`Game.record()` as one JSON object) or a Botzone match log (`{"log": [...], "initdata":
    {...}}`, docs/arena.md); the format is read from the content.

    Every hand is rebuilt from its wall and actions (a Botzone log is judged again, every seat
    answering what the log says); every request, settlement and score must come out exactly as
    the log says. Exit code 0 when everything matches, 1 when anything differs (each difference
    is listed), 2 when a file cannot be read (missing, not a file, over 16 MiB, not UTF-8,
    not JSON, a field of the wrong type). Several logs are checked one after the other, each
    line of the report starting with the file's name; the exit code is the worst of them.

    \b
    Examples:
      guobiao simulate -n 1 --seed 7 --log-dir logs &&
          guobiao replay logs/session-0001.jsonl
      guobiao arena --bots fan,fan,fan,random --deals 1 --log-dir logs
      guobiao replay logs/deal-0001-0123.botzone.json
      guobiao replay --quiet logs/*.jsonl
    """
    console = _console()
    codes = [_replay_one(console, log, quiet, named=len(logs) > 1) for log in logs]
    if len(logs) > 1:
        parts = [
            f"{codes.count(code)} {what}"
            for code, what in ((0, "match"), (1, "differ"), (2, "cannot be read"))
            if codes.count(code)
        ]
        console.print(f"{count_of(len(logs), 'log')}: {', '.join(parts)}.")
    if max(codes):
        sys.exit(max(codes))


def _replay_one(console: Console, log: Path, quiet: bool, named: bool) -> int:
    """Replay one log, report it, and return its exit code (0, 1 or 2)."""
    from rich.markup import escape

    from guobiao.botzone.log import verify_any
    from guobiao.table.replay import LogError, parse_log, read_text

    name = _one_line(str(log))
    prefix = f"{name}: " if named else ""
    if log.is_dir():  # what a newcomer may give after `--log-dir`: say how to name its logs
        folder = _one_line(str(log).rstrip("/"))
        click.echo(
            f"error: {name}: a directory, not a log file; name its logs: "
            f"guobiao replay {folder}/*.jsonl",
            err=True,
        )
        return 2
    try:
        text = read_text(log)
        if not text.strip():  # nothing in it: say so, and which files replay reads
            raise LogError(
                "the file is empty (the first line must be the session header): replay reads "
                "what guobiao simulate --log-dir, play --log or arena --log-dir writes"
            )
        report = verify_any(text, lambda: parse_log(text))
    except LogError as err:
        click.echo(f"error: {name}: {_one_line(str(err))}", err=True)
        return 2
    except RecursionError:  # a guard: the readers refuse JSON nested deeper than they go
        click.echo(f"error: {name}: nested too deeply to read", err=True)
        return 2
    for problem in report.problems:
        console.print(
            f"{escape(prefix)}[red]mismatch[/red] {escape(_one_line(problem, 2000))}",
            soft_wrap=True,  # a line each, its file's name whole (to grep, to copy)
        )
    if not quiet:
        scores = ", ".join(f"{p} {v}" for p, v in report.scores.items())
        console.print(
            escape(f"{prefix}{report.kind.capitalize()} scores: {scores}"), soft_wrap=True
        )
    replayed = f"{prefix}Replayed {count_of(report.hands, 'hand')} ({report.kind})"
    if report.ok:
        if not (quiet and named):  # several logs, quiet: the tally is the final line
            console.print(
                escape(f"{replayed}: every action, settlement and score matches."), soft_wrap=True
            )
        return 0
    console.print(
        escape(f"{replayed}: {count_of(len(report.problems), 'difference')}."), soft_wrap=True
    )
    return 1


def _one_line(text: str, limit: int = 500) -> str:
    """``text`` as one line of at most ``limit`` characters (control characters shown escaped)."""
    flat = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit + 1])
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


@click.command(
    "botzone-bot", cls=Command, short_help="Run a guobiao bot as a Botzone bot (stdin/stdout)."
)
@click.option(
    "--bot",
    "kind",
    type=click.Choice(BOT_KINDS, case_sensitive=False),
    default="fan",
    show_default=True,
    help="The guobiao bot that chooses.",
)
@click.option(
    "--seed", type=SEED, default=None, help="Seed the bot (ties, random choices), 0 or more."
)
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
    type=RULES,
    default="botzone",
    show_default=True,
    help="Fan profile that decides HU (botzone: as the Botzone judge counts, docs/rules.md §20).",
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
    from guobiao.botzone.protocol import serve
    from guobiao.table.rules import TableRules

    table = TableRules(fan_profile=rules, flowers=False)
    if sys.stdin.isatty():  # a person at a terminal: say what is awaited, not a silent wait
        click.echo(
            "guobiao botzone-bot: reading the judge's requests, e.g. "
            '{"requests":["0 1 0"],"responses":[]} (guobiao botzone-bot --help); Ctrl-D ends',
            err=True,
        )
    try:
        code = serve(kind, seed=seed, transport=transport, keep_running=keep_running, rules=table)
    except KeyboardInterrupt:
        sys.exit(130)
    if code:
        sys.exit(code)  # serve said why on stderr
