"""Replay logs: sessions as versioned JSON lines, and checking that a log replays exactly.

The schema is docs/replay-log.md (version :data:`LOG_VERSION`; within a version fields are only
added, and readers ignore fields they do not know). A log has one object per line:

- ``{"type": "session", "version": 1, "seed": ..., "players": [...], "agents": [...], "rules":
  {...}}``;
- one ``{"type": "hand", "number": n, "round_wind": "E", "seats": [players E S W N], "game":
  Game.record(), "result": {...}}`` per hand, with the wall (and dice), every action, a forfeit
  and the settlement;
- ``{"type": "end", "hands": n, "ended_early": bool, "scores": {...}, "standard_points":
  {...}}``.

:func:`session_lines` writes a played session, :func:`hand_lines` one hand as a session of one
hand (``guobiao arena``). :func:`verify_log` rebuilds every hand from its wall and actions, and
the session from the hands, and reports every difference from what the log says;
:func:`guobiao.botzone.log.verify_any` also reads a single hand record and a Botzone match
log. File reading and writing are the only I/O; the rest is pure.

A log is read as data from anywhere: :func:`read_text` reads at most :data:`MAX_LOG_BYTES`,
:func:`parse_log` at most :data:`MAX_LOG_VALUES` JSON values, and every field is type-checked
(:mod:`guobiao.table.fields`): what cannot be read raises :class:`LogError` naming the line and
the field, never another exception.
"""

from __future__ import annotations

import contextlib
import json
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guobiao.table.fields import (
    MAX_INT,
    LogError,
    array,
    clip,
    expect,
    integer,
    optional,
    required,
    show,
    table_rules,
)
from guobiao.table.game import Game, HandResult
from guobiao.table.play import SessionPlay
from guobiao.table.rules import TableRules
from guobiao.table.session import Session, seating

__all__ = [
    "LOG_VERSION",
    "MAX_LOG_BYTES",
    "MAX_LOG_VALUES",
    "LogError",
    "ReplayReport",
    "hand_lines",
    "parse_json",
    "parse_log",
    "read_log",
    "read_text",
    "result_summary",
    "session_lines",
    "verify_log",
    "write_log",
]

LOG_VERSION = 1

MAX_LOG_BYTES = 16 * 2**20
"""The largest log :func:`read_text` reads: 16 MiB, some 300 times a 16-hand session log."""

MAX_LOG_VALUES = 1_000_000
"""The most JSON values a log may hold (some 150 times a 16-hand session log): with
:data:`MAX_LOG_BYTES`, what bounds the memory a log takes to read to some 200 MB."""


def result_summary(result: HandResult) -> dict[str, Any]:
    """The settlement of a hand as plain data (:meth:`HandResult.summary`)."""
    return result.summary()


def session_lines(
    play: SessionPlay, rules: TableRules, seed: int | None
) -> Iterator[dict[str, Any]]:
    """The log of a played session, line by line."""
    session = play.session
    yield {
        "type": "session",
        "version": LOG_VERSION,
        "seed": seed,
        "players": list(session.players),
        "agents": list(play.names),
        "rules": {k: getattr(rules, k) for k in rules.__slots__},
    }
    for record, game in zip(session.history, play.games, strict=True):
        result = game.result
        assert result is not None
        yield {
            "type": "hand",
            "number": record.number,
            "round_wind": record.round_wind.letter,
            "seats": list(record.seats),
            "game": game.record(),
            "result": result_summary(result),
        }
    yield {
        "type": "end",
        "hands": len(session.history),
        "ended_early": len(session.history) < rules.hands_per_session,
        "scores": dict(session.scores),
        "standard_points": {p: str(v) for p, v in session.standard_points().items()},
    }


def hand_lines(
    record: Mapping[str, Any],
    players: Sequence[str],
    *,
    agents: Sequence[str] | None = None,
    seed: int | None = None,
) -> Iterator[dict[str, Any]]:
    """The log of one finished hand (``Game.record()``) as a session of one hand, ended early:
    what ``guobiao arena`` writes for each hand. ``players`` are four distinct names by seat."""
    rules = TableRules(**record["rules"])
    session = Session(players, starting_points=rules.starting_points, hands=rules.hands_per_session)
    result = record["result"]
    seats = list(session.seats)
    session.record(tuple(int(d) for d in result["deltas"]))
    yield {
        "type": "session",
        "version": LOG_VERSION,
        "seed": seed if seed is not None else record.get("seed"),
        "players": list(players),
        "agents": list(agents) if agents is not None else list(players),
        "rules": dict(record["rules"]),
    }
    yield {
        "type": "hand",
        "number": 0,
        "round_wind": record["round_wind"],
        "seats": seats,
        "game": dict(record),
        "result": result,
    }
    yield {
        "type": "end",
        "hands": 1,
        "ended_early": True,
        "scores": dict(session.scores),
        "standard_points": {p: str(v) for p, v in session.standard_points().items()},
    }


def write_log(path: Path, lines: Iterable[Mapping[str, Any]]) -> None:
    """Write a log atomically (a temporary file renamed into place: never a half-written log;
    stopped midway, by an error or Ctrl-C, the temporary file is removed)."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    try:
        with temporary.open("w", encoding="utf-8") as out:
            for line in lines:
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
        temporary.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def read_text(path: Path, limit: int = MAX_LOG_BYTES) -> str:
    """A log file's text, read whole (without a byte order mark): LogError, one line, if it is
    missing, a directory or a device, unreadable, over ``limit`` bytes or not UTF-8."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise LogError("a directory, not a log file")
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise LogError("a device, not a log file")
        with path.open("rb") as source:  # a regular file or a pipe: read at most limit + 1
            data = source.read(limit + 1)
    except FileNotFoundError:
        raise LogError("no such file") from None
    except PermissionError:
        raise LogError("permission denied") from None
    except OSError as err:
        raise LogError(f"cannot be read: {err.strerror or err}") from None
    if len(data) > limit:
        raise LogError(f"larger than {limit // 2**20} MiB: not a log guobiao reads")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a BOM an editor may add
    except UnicodeDecodeError as err:
        raise LogError(f"not UTF-8 text (byte {err.start})") from None


def parse_json(text: str, where: str) -> object:
    """One JSON value; LogError (naming ``where``) for bad JSON, more values than
    :data:`MAX_LOG_VALUES`, nesting too deep for the reader, or an integer too long to read."""
    _check_values(text, where)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise LogError(f"{where}: not JSON: {err.msg} (column {err.colno})") from None
    except RecursionError:
        raise LogError(f"{where}: JSON nested too deeply") from None
    except ValueError as err:  # an integer over the int-string limit (4,300 digits)
        raise LogError(f"{where}: not JSON guobiao reads: {clip(str(err), 80)}") from None


def _check_values(text: str, where: str = "") -> None:
    # each value but the first follows a comma or opens a container: an upper bound, cheap
    count = text.count(",") + text.count("[") + text.count("{")
    if count > MAX_LOG_VALUES:
        prefix = f"{where}: " if where else ""
        raise LogError(f"{prefix}more than {MAX_LOG_VALUES:,} JSON values: not a log guobiao reads")


def parse_log(text: str) -> list[dict[str, Any]]:
    """The lines of a log's text; a line that is not a JSON object raises :class:`LogError`
    naming it."""
    _check_values(text)
    if "\r" in text:  # universal newlines (JSON has no raw CR inside a string)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines: list[dict[str, Any]] = []
    start, number = 0, 0
    while start < len(text):  # line by line, without a copy of the whole text
        stop = text.find("\n", start)
        stop = len(text) if stop < 0 else stop
        line = text[start:stop]
        start, number = stop + 1, number + 1
        if line.strip():
            where = f"line {number}"
            lines.append(expect(parse_json(line, where), dict, where))
    return lines


def read_log(path: Path) -> list[dict[str, Any]]:
    """Read a log (:func:`read_text`, :func:`parse_log`)."""
    return parse_log(read_text(path))


@dataclass(slots=True)
class ReplayReport:
    """What replaying a log found: hands replayed, every difference, the scores replayed, and
    which format the log was (``session``, ``hand`` or ``botzone match``)."""

    hands: int = 0
    problems: list[str] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    kind: str = "session"

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_log(lines: list[dict[str, Any]]) -> ReplayReport:
    """Replay every hand and the session; list every difference from the log. A log that cannot
    be read (a field of the wrong type, a hand record that is not one) raises LogError naming
    the line and the field."""
    report = ReplayReport()
    if not lines or lines[0].get("type") != "session":
        raise LogError("the first line must be the session header")
    header = lines[0]
    version = header.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != LOG_VERSION:
        raise LogError(
            f"unsupported log version {show(version)} (this guobiao reads {LOG_VERSION})"
        )
    rules = table_rules(required(header, "rules", dict, "line 1: "), "line 1: rules")
    players = array(required(header, "players", list, "line 1: "), str, "line 1: players")
    try:
        session = Session(
            players, starting_points=rules.starting_points, hands=rules.hands_per_session
        )
    except ValueError as err:
        raise LogError(f"bad session header: {err}") from None
    end: dict[str, Any] | None = None
    for index, line in enumerate(lines[1:], start=2):
        kind = line.get("type")
        if kind == "end":
            end = line
            optional(line, "ended_early", bool, f"line {index}: ", False)
            continue
        if kind != "hand":
            report.problems.append(f"line {index}: unknown line type {show(kind)}")
            continue
        number = integer(line.get("number"), f"line {index}: number")
        record = required(line, "game", dict, f"line {index}: ")
        where = f"hand {number} (line {index})"
        report.hands += 1
        if session.is_over:
            report.problems.append(f"{where}: the session was already over")
            continue
        expected_seats = [session.players[i] for i in seating(session.hand_number)]
        if line.get("seats") != expected_seats or number != session.hand_number:
            report.problems.append(
                f"{where}: seating or number differs from the session's rotation"
            )
        try:
            game = Game.replay(record)
        except LogError as err:
            raise LogError(f"line {index}: game: {err}") from None
        except ValueError as err:
            report.problems.append(f"{where}: {err}")
            _skip(session, line)
            continue
        if game.result is None:
            report.problems.append(f"{where}: the actions end before the hand does")
            _skip(session, line)
            continue
        replayed = result_summary(game.result)
        if replayed != line.get("result"):
            report.problems.append(
                f"{where}: the replayed result {replayed} differs from the log's "
                f"{show(line.get('result'))}"
            )
        session.record(game.result.deltas, game.result.outcome)
    report.scores = dict(session.scores)
    if end is None:
        report.problems.append("the log has no end line")
    elif not end.get("ended_early") and report.hands != rules.hands_per_session:
        report.problems.append(
            f"the log has {report.hands} hands of {rules.hands_per_session} and does not say it ended early"
        )
    elif end.get("scores") != report.scores:
        report.problems.append(
            f"the session scores {report.scores} differ from the log's {show(end.get('scores'))}"
        )
    return report


def _skip(session: Session, line: Mapping[str, Any]) -> None:
    """Keep the session in step past a hand that did not replay, with the log's own deltas
    (four integers summing to zero), else none."""
    result = line.get("result")
    deltas = result.get("deltas") if isinstance(result, dict) else None
    if (
        isinstance(deltas, list)
        and len(deltas) == 4
        and all(isinstance(d, int) and not isinstance(d, bool) for d in deltas)
        and all(abs(d) <= MAX_INT for d in deltas)
        and sum(deltas) == 0
    ):
        session.record(tuple(deltas))
    else:
        session.record((0, 0, 0, 0))
