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

from guobiao.cli.jsonio import answer_line
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


def stream_jsonl(rules: str) -> None:
    """One output line per non-blank input line, in order, whatever the line holds.

    Input is read as it comes (``read1``: what one read gives, up to 64 KiB), and the answers to
    the complete lines of each read are written and flushed together: a batch moves in large
    blocks, and a program that writes one line and waits for its answer gets it at once.
    """
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    sys.stdout.flush()
    read = getattr(stdin, "read1", stdin.read)
    number = 0
    tail: list[bytes] = []  # the incomplete last line so far, in pieces
    try:
        while True:
            chunk = read(1 << 16)
            if chunk:
                end = chunk.rfind(b"\n")
                if end < 0:
                    tail.append(chunk)
                    continue
                tail.append(chunk[:end])
                lines = b"".join(tail).split(b"\n")
                tail = [chunk[end + 1 :]]
            else:
                rest = b"".join(tail)
                lines = [rest] if rest else []
            out = []
            for raw in lines:
                number += 1
                if raw.strip():
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
