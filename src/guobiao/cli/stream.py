"""``guobiao fan --jsonl``: one JSON answer per line of a stream of hands.

Kept apart from the command-line framework: the console script (:func:`guobiao.cli.run`) calls
:func:`stream_jsonl` directly for ``guobiao fan --jsonl [--rules R]``, so a batch loads only the
core, the calculator and :mod:`guobiao.cli.jsonio` (a smaller, faster-starting process); the
``fan`` command calls the same function.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Final

from guobiao.cli.jsonio import answer_line, invalid_answer
from guobiao.scoring.calculator import PROFILES

__all__ = ["stream_jsonl", "stream_rules"]

DEFAULT_RULES = "1998"
"""The ``fan`` command's default ``--rules``."""


def stream_rules(args: Sequence[str]) -> str | None:
    """The rules profile when ``args`` (the command line after ``guobiao``) is exactly a plain
    stream: ``fan --jsonl`` with at most a valid ``--rules R`` (or ``--rules=R``), in any order;
    None for anything else, which the command-line framework reads (and refuses when wrong)."""
    if not args or args[0] != "fan":
        return None
    rest = list(args[1:])
    if rest.count("--jsonl") != 1:
        return None
    rest.remove("--jsonl")
    if not rest:
        return DEFAULT_RULES
    if len(rest) == 2 and rest[0] == "--rules":
        rules = rest[1]
    elif len(rest) == 1 and rest[0].startswith("--rules="):
        rules = rest[0].removeprefix("--rules=")
    else:
        return None
    return rules if rules in PROFILES else None


MAX_LINE: Final = 1 << 20
"""The longest line the stream reads (1 MiB; a hand is a few hundred bytes): a longer one is
answered as invalid and skipped as it comes, never held whole in memory."""


def stream_jsonl(rules: str) -> None:
    """One output line per non-blank input line, in order, whatever the line holds.

    Input is read as it comes (``read1``: what one read gives, up to 64 KiB), and the answers to
    the complete lines of each read are written and flushed together: a batch moves in large
    blocks, and a program that writes one line and waits for its answer gets it at once. A line
    over :data:`MAX_LINE` is answered as invalid without being kept.
    """
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    sys.stdout.flush()
    if stdin.isatty():  # a person at a terminal: say what is awaited, not a silent wait
        sys.stderr.write(
            "guobiao fan --jsonl: reading one JSON hand per line (guobiao fan --help); "
            "Ctrl-D ends\n"
        )
        sys.stderr.flush()
    read = getattr(stdin, "read1", stdin.read)
    number = 0
    tail: list[bytes] = []  # the incomplete last line so far, in pieces
    size = 0  # its length
    overlong = False  # it is over MAX_LINE: its pieces are dropped as they come
    try:
        while True:
            chunk = read(1 << 16)
            lines: list[bytes | None]  # None: a line over MAX_LINE
            if chunk:
                end = chunk.rfind(b"\n")
                if end < 0:
                    if not overlong:
                        tail.append(chunk)
                        size += len(chunk)
                        if size > MAX_LINE:
                            overlong, tail, size = True, [], 0
                    continue
                first = chunk.find(b"\n")
                if overlong or size + first > MAX_LINE:
                    lines = [None]
                else:
                    tail.append(chunk[:first])
                    lines = [b"".join(tail)]
                lines.extend(chunk[first + 1 : end].split(b"\n") if end > first else [])
                rest = chunk[end + 1 :]
                tail, size, overlong = [rest], len(rest), False
            else:
                last = b"".join(tail)
                lines = [None] if overlong else [last] if last else []
            out = []
            for raw in lines:
                number += 1
                if raw is None:
                    out.append(_too_long(number))
                elif raw.strip():
                    try:
                        out.append(answer_line(raw, number, rules))
                    except Exception as err:  # last resort: the stream goes on
                        out.append(_internal_error(err, number))
            if out:
                out.append("")
                stdout.write("\n".join(out).encode("utf-8", "backslashreplace"))
                stdout.flush()
            if not chunk:
                break
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        _silence_stdout()
        sys.exit(1)


def _too_long(number: int) -> str:
    message = (
        f"line {number}: longer than {MAX_LINE >> 20} MiB, not read (a hand is one short line)"
    )
    return json.dumps(invalid_answer(message))


def _internal_error(err: Exception, number: int) -> str:
    """A line's answer to an internal error (a bug, never bad input), also said on stderr."""
    message = f"line {number}: internal error: {type(err).__name__}: {err}"
    sys.stderr.write(f"error: {message}\n")
    sys.stderr.flush()
    return json.dumps({"ok": False, "reason": "error", "message": message}, ensure_ascii=False)


def _silence_stdout() -> None:
    """Point stdout at the null device so that the exit's flush finds no broken pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
