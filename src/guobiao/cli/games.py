"""``guobiao play`` (a person at the terminal against bots) and ``guobiao simulate`` (bot
sessions, serially, in processes or on Ray).
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from guobiao.bots import BOT_KINDS, BOT_LEVELS
from guobiao.cli.help import Command
from guobiao.cli.options import OVERWRITE_OPTION, RULES_OPTION, SEED, WIND, parallel_options
from guobiao.cli.util import INTERRUPTED, need_writable_file, prepare_log_dir
from guobiao.cli.util import console as _console
from guobiao.cli.util import count as count_of
from guobiao.cli.util import fail as _fail
from guobiao.cli.util import no_progress as _no_progress
from guobiao.core.context import Wind

__all__ = ["Stopped", "interruption", "play", "simulate", "stop_signals"]


class Stopped(KeyboardInterrupt):
    """SIGTERM (a batch system's time limit, ``kill``) or SIGHUP (the terminal closed) during a
    run of ``simulate`` or ``arena``: the run stops as Ctrl-C stops it (the summary of what was
    played, the workers and their bot programs stopped), exit code 128 + the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def stop_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` while the run lasts (a signal the caller made
    ignored, as ``nohup`` does SIGHUP, stays ignored)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stopped(signum)

    previous: dict[signal.Signals, Any] = {}
    for name in ("SIGTERM", "SIGHUP"):  # (Windows has no SIGHUP)
        if not hasattr(signal, name):
            continue
        number = signal.Signals[name]
        try:
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, stop)
        except ValueError:  # not the main thread: the signals stay as they are
            break
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def interruption(err: KeyboardInterrupt) -> tuple[str, int]:
    """What stopped a run, as said to its user, and the exit code: ``Ctrl-C`` and 130, or the
    signal's name and 128 + its number."""
    if isinstance(err, Stopped):
        return signal.Signals(err.signum).name, 128 + err.signum
    return "Ctrl-C", INTERRUPTED


def _bot_specs(text: str) -> list[str]:
    given = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not 1 <= len(given) <= 4:
        _fail(
            "--bots takes 1 to 4 bot names separated by commas (the last repeats to fill 4 seats)"
        )
    names = [BOT_LEVELS.get(n, n) for n in given]  # a level (easy, normal) as `play` reads it
    unknown = [g for g, n in zip(given, names, strict=True) if n not in BOT_KINDS]
    if unknown:
        _fail(
            f"unknown bot(s): {', '.join(unknown)} (choose from {', '.join(BOT_KINDS)} "
            f"or a level: {', '.join(BOT_LEVELS)})"
        )
    return names + [names[-1]] * (4 - len(names))


@click.command(cls=Command, short_help="Bots against bots: play sessions and summarise them.")
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
    help="The four players' bots, comma-separated: strong, fan, efficiency, random, or a level: "
    "easy (efficiency), normal (fan), strong; the last repeats to fill four seats.",
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Makes the whole run reproducible, 0 or more [default: a fresh seed, shown with the "
    "summary].",
)
@click.option(
    "--hands", type=click.IntRange(1, 16), default=16, show_default=True, help="Hands per session."
)
@RULES_OPTION
@click.option("--no-flowers", is_flag=True, help="Play without the 8 flowers (136 tiles).")
@click.option(
    "--log-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write one replay log per session here, session-0001.jsonl ... (read them with "
    "`guobiao replay`); a folder holding an earlier run's logs is refused (--overwrite).",
)
@OVERWRITE_OPTION
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
    overwrite: bool,
    as_json: bool,
    workers: int,
    ray_address: str | None,
) -> None:
    """Play sessions between bots and summarise: win rate, average fan, deal-ins, points.

    Each session is 4 rounds x 4 hands (or --hands) with the 1998 seat rotation; player P1 gets
    the first bot, P2 the second, and so on, for every session. With --seed the run is exactly
    reproducible, and every log in --log-dir replays with `guobiao replay`; a --log-dir holds
    one run's logs (one that holds an earlier run's is refused, or with --overwrite emptied of
    them first, other files left as they are). --workers and
    --ray-address spread the sessions over processes or a Ray cluster: the results are the
    same as a serial run with the same seed (docs/distributed.md). A progress bar runs on
    standard error (a terminal); Ctrl-C stops the run and summarises the sessions played so far
    (exit code 130; SIGTERM likewise, 143), their logs kept whole. -n may be huge, to run
    until stopped: sessions are made as they are played.

    \b
    Examples:
      guobiao simulate -n 100 --bots fan,efficiency,efficiency,efficiency --seed 1
      guobiao simulate -n 5 --bots random --log-dir logs &&
          guobiao replay logs/session-0001.jsonl
      guobiao simulate -n 400 --seed 1 --workers 2
      guobiao simulate -n 4000 --seed 1 --workers 64 --ray-address auto
    """
    import time

    from rich.progress import Progress

    from guobiao.jobs.simulation import (
        SessionOutcome,
        add_summary,
        iter_session_jobs,
        simulate_summary,
    )
    from guobiao.jobs.workers import WorkerError
    from guobiao.table.replay import write_log
    from guobiao.table.rules import TableRules
    from guobiao.table.summary import SimulationSummary

    names = _bot_specs(bots_text)
    if seed is None:  # drawn here and shown, so that any run can be run again
        seed = _fresh_seed()
    table_rules = TableRules(fan_profile=rules, flowers=not no_flowers, hands_per_session=hands)
    if log_dir is not None:
        prepare_log_dir(log_dir, "--log-dir", overwrite=overwrite)
    elif overwrite:
        _fail("--overwrite goes with --log-dir")
    started = time.perf_counter()
    console = _console()
    # The sessions done so far, folded as they come: what a Ctrl-C still reports.
    summary = SimulationSummary([])
    interrupted: KeyboardInterrupt | None = None
    try:
        with (
            stop_signals(),
            Progress(
                console=Console(stderr=True), transient=True, disable=_no_progress(as_json)
            ) as progress,
        ):
            task = progress.add_task("sessions", total=count)

            def done(outcome: SessionOutcome) -> None:
                # Each session is written and dropped as it comes: memory stays flat in the run.
                if log_dir is not None and outcome.log is not None:
                    path = log_dir / f"session-{outcome.number:04d}.jsonl"
                    try:
                        write_log(path, outcome.log)
                    except OSError as err:
                        raise _CannotWrite(f"cannot write {path}: {err.strerror or err}") from err
                add_summary(summary, outcome.summary)
                progress.advance(task, 1)

            # made as they are handed out: a huge -n starts at once (no list of its sessions)
            jobs = iter_session_jobs(count, names, table_rules, seed, log=log_dir is not None)
            simulate_summary(jobs, workers=workers, ray_address=ray_address, on_outcome=done)
    except KeyboardInterrupt as err:  # Ctrl-C, or SIGTERM / SIGHUP (Stopped)
        interrupted = err
    except _CannotWrite as err:
        _fail(str(err), 1)
    except WorkerError as err:
        _fail(str(err), 1)
    how, code = interruption(interrupted) if interrupted is not None else ("", 0)
    if interrupted and not summary.sessions:
        _fail(f"interrupted ({how}) before the first session ended", code)
    elapsed = time.perf_counter() - started
    if as_json:
        out: dict[str, object] = {
            "seed": seed,
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
        if interrupted:
            out["interrupted"] = True
            out["sessions_asked"] = count
        click.echo(json.dumps(out, ensure_ascii=False))
        if interrupted:
            sys.exit(code)
        return
    table = Table(show_header=True, header_style="bold")
    # Seven columns that fit 80 characters whole (no bot name or header cut short).
    for column in ("Player", "Win", "Wins (自摸)", "Fan", "Deal-in", "Pts/sess", "Std/sess"):
        table.add_column(column, justify="left" if column == "Player" else "right", no_wrap=True)
    for p in summary.players:
        table.add_row(
            f"{p.player} {p.agent}",
            f"{p.win_rate:.1%}",
            f"{p.wins} ({p.self_drawn})",
            f"{p.average_fan:.1f}",
            f"{p.deal_in_rate:.1%}",
            f"{p.points_per_session:+.1f}",
            f"{p.standard_points_per_session:.2f}",
        )
    console.print(table)
    console.print(
        "Player: the player and its bot; Win: wins per hand played; Wins (自摸): wins (of them "
        "self-drawn); Fan: "
        "average fan points of its wins (flowers included); Deal-in: discards won by others per "
        "hand; Pts/sess: session score - 500; Std/sess: standard points per session."
    )
    console.print(
        f"{count_of(summary.sessions, 'session')}, {count_of(summary.hands, 'hand')}, "
        f"draw rate {summary.draw_rate:.1%}, {summary.hands / elapsed:.0f} hands/s; seed {seed}"
        + (f"; logs in {log_dir}" if log_dir is not None else "")
    )
    if interrupted:
        _fail(
            f"interrupted ({how}) after {summary.sessions} of {count_of(count, 'session')}: "
            "the summary above covers those",
            code,
        )


def _fresh_seed() -> int:
    """A seed for a run given none (the run is then said with it, to be run again)."""
    import random

    return random.SystemRandom().randrange(2**31)


class _CannotWrite(Exception):
    """A session's log could not be written (raised out of the run, then said in one line)."""


@click.command(cls=Command, short_help="Play at the terminal: you against three bots.")
@click.option(
    "--seed", type=SEED, default=None, help="Replay the same deals (and bots) as this seed."
)
@click.option(
    "--bots",
    default="fan,fan,fan",
    show_default=True,
    help="The three opponents, in seat order after you (one for all): strong, fan, efficiency, "
    "random, or a level: easy (efficiency), normal (fan), strong.",
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
    type=click.Choice(["glyph", "chinese", "botzone"], case_sensitive=False),
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
    ('d W5', 'pung', 'chow 345m', 'win', 'pass'; Enter passes a claim), tiles as W5, 5m or
    五万. '?' helps, 'q' quits (the complete hands still count and are logged). The session
    ends with the command that deals it again. Exit code 0 when the session ends or you quit,
    1 when the input ends first, 130 on Ctrl-C, 70 when a bot fails (a bug to report, with
    that command; docs/terminal.md).

    \b
    Examples:
      guobiao play                               16 hands against three FanBots
      guobiao play --hands 4 --seed 7 --seat S   one round, the deals of seed 7
      guobiao play --bots strong                 against the strongest bots
      guobiao play --bots fan,efficiency,random --tiles chinese --log game.jsonl
    """
    from contextlib import suppress

    from guobiao.cli.terminal import parse_bots, play_at_terminal

    try:
        kinds = parse_bots(bots)
    except ValueError as err:
        _fail(f"--bots: {err}")
    if log is not None:  # found out now, not after the session
        need_writable_file(log, "--log")
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
