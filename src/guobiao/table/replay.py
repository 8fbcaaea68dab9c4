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
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from guobiao.table.game import Game, HandResult
from guobiao.table.play import SessionPlay
from guobiao.table.rules import TableRules
from guobiao.table.session import Session, seating

__all__ = [
    "LOG_VERSION",
    "LogError",
    "ReplayReport",
    "hand_lines",
    "read_log",
    "result_summary",
    "session_lines",
    "verify_log",
    "write_log",
]

LOG_VERSION = 1


class LogError(ValueError):
    """A log that cannot be read (bad JSON, wrong version, missing lines)."""


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
    """Write a log atomically (a temporary file renamed into place: never a half-written log)."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    with temporary.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    temporary.replace(path)


def read_log(path: Path) -> list[dict[str, Any]]:
    """Read a log; a line that is not a JSON object raises :class:`LogError` naming it."""
    lines: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as source:
        for number, text in enumerate(source, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as err:
                raise LogError(f"line {number}: not JSON: {err.msg}") from None
            if not isinstance(obj, dict):
                raise LogError(f"line {number}: a JSON object expected")
            lines.append(obj)
    return lines


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
    """Replay every hand and the session; list every difference from the log."""
    report = ReplayReport()
    if not lines or lines[0].get("type") != "session":
        raise LogError("the first line must be the session header")
    header = lines[0]
    if header.get("version") != LOG_VERSION:
        raise LogError(
            f"unsupported log version {header.get('version')!r} (this guobiao reads {LOG_VERSION})"
        )
    try:
        rules = TableRules(**header["rules"])
        session = Session(
            header["players"], starting_points=rules.starting_points, hands=rules.hands_per_session
        )
    except (KeyError, TypeError, ValueError) as err:
        raise LogError(f"bad session header: {err}") from None
    end: dict[str, Any] | None = None
    for index, line in enumerate(lines[1:], start=2):
        kind = line.get("type")
        if kind == "end":
            end = line
            continue
        if kind != "hand":
            report.problems.append(f"line {index}: unknown line type {kind!r}")
            continue
        number = line.get("number")
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
            game = Game.replay(line["game"])
        except (KeyError, TypeError, ValueError) as err:
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
                f"{where}: the replayed result {replayed} differs from the log's {line.get('result')}"
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
            f"the session scores {report.scores} differ from the log's {end.get('scores')}"
        )
    return report


def _skip(session: Session, line: Mapping[str, Any]) -> None:
    """Keep the session in step past a hand that did not replay, with the log's own deltas."""
    try:
        session.record(tuple(line["result"]["deltas"]))
    except (KeyError, TypeError, ValueError):
        session.record((0, 0, 0, 0))
