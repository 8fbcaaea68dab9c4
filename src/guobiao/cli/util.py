"""What every command of the command line shares: the console, how a refusal is said, counts in
words, and checking before a long run that its output can be written."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "INTERRUPTED",
    "console",
    "count",
    "fail",
    "need_writable_dir",
    "need_writable_file",
    "no_progress",
    "prepare_log_dir",
]

INTERRUPTED = 130
"""The exit code after Ctrl-C (128 + SIGINT), as a shell reports a process SIGINT ended."""


def console(ascii_only: bool = False) -> Console:
    """The output console: no markup guessing, no emoji codes; ASCII boxes when asked."""
    from rich.console import Console  # only the commands that print load rich

    return Console(highlight=False, emoji=False, safe_box=ascii_only)


def fail(message: str, code: int = 2) -> NoReturn:
    """Say what is wrong on stderr and exit: 2 for bad input, 1 for a refused action."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def count(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, the word in the plural unless ``n`` is 1: "1 hand", "2 hands"."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


def need_writable_dir(path: Path, option: str) -> None:
    """Create the folder ``path`` if need be and check that a file can be written in it, or fail
    with one line naming ``option``: a long run finds out before it starts, not at its end."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as err:
        fail(f"cannot write to {option} {path}: {_reason(err)}")


RUN_LOGS = ("session-*.jsonl", "deal-*.jsonl", "deal-*.botzone.json", "deal-*.stderr.txt")
"""The logs a run writes in its --log-dir: ``simulate``'s sessions, ``arena``'s hands."""


def prepare_log_dir(path: Path, option: str, *, overwrite: bool) -> None:
    """Make ``path`` ready for a run's logs (:func:`need_writable_dir`). A folder that already
    holds logs of a run (:data:`RUN_LOGS`) is refused, since a reader could not tell which logs
    are whose, unless ``overwrite``: then those logs, and no other file, are deleted first."""
    need_writable_dir(path, option)
    old = sorted({log for pattern in RUN_LOGS for log in path.glob(pattern) if log.is_file()})
    if old and not overwrite:
        fail(
            f"{option} {path} already holds {count(len(old), 'log')} of an earlier run "
            f"({old[0].name}{', ...' if len(old) > 1 else ''}): give an empty or new folder, "
            "or --overwrite to delete those logs first"
        )
    for log in old:
        try:
            log.unlink()
        except OSError as err:
            fail(f"--overwrite: cannot delete {log}: {_reason(err)}")


def need_writable_file(path: Path, option: str) -> None:
    """Check that the file ``path`` can be written (its folder exists and takes a new file; an
    existing file is left as it is), or fail with one line naming ``option``."""
    folder = path.parent
    if not folder.is_dir():
        fail(f"{option}: no such directory: {folder}")
    if path.is_dir():
        fail(f"{option}: {path} is a directory")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as err:
        fail(f"cannot write {option} {path}: {_reason(err)}")


def no_progress(as_json: bool) -> bool:
    """Whether a long command's progress bar stays off: with --json, or when standard error is
    no terminal (a log file or a pipe gets no bar, and no blank line where it was)."""
    return as_json or not sys.stderr.isatty()
