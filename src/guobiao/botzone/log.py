"""Botzone match logs and guobiao hand records, both ways (docs/arena.md).

A Botzone match log is ``{"log": [...], "initdata": {"quan", "srand", "walltiles"}}``: the
judge's outputs at even indexes (``{"output": {"command": "request" | "finish", "content":
{"0": ..., "3": ...}, "display": {...}}, ...}``) and the four players' answers at odd indexes
(``{"0": {"memory": ..., "time": ..., "verdict": "OK", "response": "PASS"}, ...}``), with Botzone's
keys in Botzone's order (docs/rules.md §20).

- :func:`match_to_record` judges the log again (guobiao's judge, :mod:`guobiao.botzone.arena`) with each
  seat answering what the log says it answered, checks every request against the log's, and
  returns guobiao's hand record (:meth:`guobiao.table.game.Game.record`, replayable with
  :meth:`Game.replay <guobiao.table.game.Game.replay>`) and the differences found.
- :func:`record_to_match` judges a guobiao Botzone-variant hand record, each seat answering the
  record's actions, and returns the Botzone match log.

- :func:`verify_any` replays a log of any format guobiao reads: a Botzone match log, a hand
  record or a session log (:mod:`guobiao.table.replay`).

An adapter, like the arena it uses.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from guobiao.botzone.arena import Reply, play_match
from guobiao.botzone.protocol import action_to_response
from guobiao.core.tiles import TILES, Tile
from guobiao.table.fields import MAX_INT, LogError, expect, integer, optional, required, show
from guobiao.table.fields import seat as _seat
from guobiao.table.game import (
    PASS,
    Action,
    ActionKind,
    Game,
    Phase,
    record_actions,
    record_forfeit,
)
from guobiao.table.replay import ReplayReport, parse_json, verify_log

__all__ = [
    "MatchCheck",
    "is_match_log",
    "match_scores",
    "match_to_record",
    "record_to_match",
    "verify_any",
    "verify_match",
]

_FAILURES = {"time-out": Reply("TLE", None), "crash": Reply("RE", None)}
_ILLEGAL = Reply("OK", "ILLEGAL")  # an answer the judge cannot read: an illegal action
_OBJECT = re.compile(r"[ \t\r\n]*\{")  # a text that starts as one JSON object


def is_match_log(data: object) -> bool:
    """Does ``data`` look like a Botzone match log (an object with a ``log`` list)?"""
    return isinstance(data, dict) and isinstance(data.get("log"), list)


def _walltiles(initdata: Mapping[str, Any]) -> list[int]:
    text = required(initdata, "walltiles", str, "initdata.")
    words = text.split()
    if len(words) != 136:
        raise LogError(f"initdata.walltiles has {len(words)} tiles, not 136")
    tiles = []
    for index, word in enumerate(words):
        try:
            tiles.append(int(Tile.parse(word)))
        except ValueError:
            raise LogError(
                f"initdata.walltiles: tile {index + 1} is no tile: {show(word)}"
            ) from None
    return tiles


def _score(value: object) -> int | None:
    """A score of a ``finish`` output: an integer (Botzone may write 10.0 or "10")."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, str) and len(value) <= 12:
        try:
            value = int(value)
        except ValueError:
            return None
    if isinstance(value, int) and abs(value) <= MAX_INT:
        return value
    return None


def match_scores(match: Mapping[str, Any]) -> tuple[int, ...] | None:
    """The scores of the log's ``finish`` output (by seat), or None if it has none."""
    log = match.get("log")
    for entry in reversed(log if isinstance(log, list) else []):
        output = entry.get("output") if isinstance(entry, dict) else None
        if isinstance(output, dict) and output.get("command") == "finish":
            content = output.get("content")
            if not isinstance(content, dict):
                return None
            scores = []
            for seat in range(4):
                score = _score(content.get(str(seat)))
                if score is None:
                    return None
                scores.append(score)
            return tuple(scores)
    return None


class _LogPlayer:
    """A seat answering what the log says it answered; requests are checked against the log."""

    def __init__(self, seat: int, log: Sequence[Any], problems: list[str]) -> None:
        self.name = f"seat {seat}"
        self.seat = seat
        self.log = log
        self.problems = problems
        self.turn = 0

    def start(self, seat: int) -> None:
        self.turn = 0

    def ask(self, request: str) -> Reply:
        index = 2 * self.turn
        self.turn += 1
        key = str(self.seat)
        if index >= len(self.log):
            self.problems.append(f"log entry {index}: no request for seat {self.seat}")
            return Reply("RE", None)
        entry = expect(self.log[index], dict, f"log[{index}]")
        output = required(entry, "output", dict, f"log[{index}].")
        content = required(output, "content", dict, f"log[{index}].output.")
        if key not in content:
            self.problems.append(f"log entry {index}: no request for seat {self.seat}")
            return Reply("RE", None)
        logged = expect(content[key], str, f"log[{index}].output.content.{key}")
        if logged != request:
            self.problems.append(
                f"log entry {index}: seat {self.seat}'s request is {show(logged)}, the judge sends {request!r}"
            )
        answers: dict[str, Any] = {}
        if index + 1 < len(self.log):
            answers = expect(self.log[index + 1], dict, f"log[{index + 1}]")
        if key not in answers:
            self.problems.append(f"log entry {index + 1}: no answer of seat {self.seat}")
            return Reply("RE", None)
        where = f"log[{index + 1}].{key}"
        answer = expect(answers[key], dict, where)
        verdict = optional(answer, "verdict", str, f"{where}.", "OK")
        time = answer.get("time")
        if time is not None and not (isinstance(time, float) and math.isfinite(time)):
            time = integer(time, f"{where}.time", 0, MAX_INT)
        time_ms = int(time or 0)
        if verdict != "OK":
            return Reply(verdict, None, time_ms)
        response = answer.get("response")
        if isinstance(response, dict):  # a JSON bot's whole output object
            response = response.get("response")
        # taken as it is (the judge compares answers exactly); any other answer is one the judge
        # cannot read: an illegal action, as on Botzone
        text = response if isinstance(response, str) else None
        return Reply("OK", text, time_ms)

    def close(self) -> None:
        pass


@dataclass(slots=True)
class MatchCheck:
    """The outcome of judging a Botzone match log again."""

    game: Game
    problems: list[str] = field(default_factory=list)
    scores: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_match(match: Mapping[str, Any]) -> MatchCheck:
    """Judge a Botzone match log again: every request and the final scores must be the log's.
    A log that cannot be read (a field of the wrong type, a seat out of range) raises
    :class:`~guobiao.table.fields.LogError` naming the field."""
    if not is_match_log(match):
        raise LogError("not a Botzone match log: an object with a 'log' list expected")
    given: object = required(match, "initdata", object)
    if isinstance(given, str):  # Botzone may keep the judge's initdata as a JSON string
        given = parse_json(given, "initdata")
    initdata = expect(given, dict, "initdata")
    wall = _walltiles(initdata)
    quan = _seat(optional(initdata, "quan", int, "initdata.", 0), "initdata.quan")
    srand = optional(initdata, "srand", int, "initdata.", 0)
    log = match["log"]
    problems: list[str] = []
    players = [_LogPlayer(seat, log, problems) for seat in range(4)]
    judged = play_match(wall, players, quan=quan, srand=srand)
    deltas = judged.result.deltas
    logged = match_scores(match)
    if logged is None:
        problems.append("the log has no finish output with the scores")
    elif tuple(logged) != tuple(deltas):
        problems.append(f"the judged scores {list(deltas)} differ from the log's {list(logged)}")
    judged_turns = len(judged.log["log"])
    if judged_turns != len(log):
        problems.append(f"the log has {len(log)} entries, the judge makes {judged_turns}")
    return MatchCheck(judged.game, problems, tuple(deltas))


def match_to_record(match: Mapping[str, Any]) -> dict[str, Any]:
    """The guobiao hand record of a Botzone match log (ValueError listing the differences if the
    log does not judge as it says)."""
    check = verify_match(match)
    if not check.ok:
        raise ValueError("; ".join(check.problems))
    return check.game.record()


# ---------------------------------------------------------------------------------------------
# Record -> match log
# ---------------------------------------------------------------------------------------------


class _RecordOracle:
    """Answers each round of the judge from a hand record's actions (one Game follows them)."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        self.game = Game.replay(record, actions=False)
        self.actions = record_actions(record)
        self.at = 0
        self.forfeit = record_forfeit(record)
        self.turn = -1
        self.replies: list[Reply] = []

    def _take(self) -> tuple[int, Action] | None:
        if self.at >= len(self.actions):
            return None
        entry = self.actions[self.at]
        self.at += 1
        self.game.act(*entry)
        return entry

    def reply(self, turn: int, seat: int, request: str) -> Reply:
        if turn != self.turn:  # seat 0 is asked first: its request tells the round
            self.turn = turn
            self.replies = self._round(request)
        return self.replies[seat]

    def _fail(self, replies: list[Reply], missing: bool) -> list[Reply]:
        """The record's foul goes in the first round needing an action the record does not
        have (a round where every seat must pass needs none)."""
        if self.forfeit is not None and missing and not self.game.is_over:
            seat, reason = self.forfeit
            replies[seat] = _FAILURES.get(reason, _ILLEGAL)
        return replies

    def _round(self, request: str) -> list[Reply]:
        words = request.split()
        replies = [Reply("OK", "PASS")] * 4
        if words[0] in ("0", "1") or (len(words) >= 3 and words[2] == "GANG"):
            return replies
        game = self.game
        if words[0] == "2" or words[2] == "DRAW":
            drawer = 0 if words[0] == "2" else int(words[1])
            replies = list(replies)
            if self.at < len(self.actions) and not game.is_over:
                seat, action = self.actions[self.at]
                if seat != drawer:
                    raise ValueError(f"action {self.at + 1} is seat {seat}'s; seat {drawer} drew")
                self._take()
                replies[drawer] = Reply("OK", str(action_to_response(action)))
                return replies
            # the record ends here (a forfeit): the drawer plays its drawn tile
            drawn = game.view(drawer).drawn
            replies[drawer] = Reply("OK", f"PLAY {drawn}")
            return self._fail(replies, missing=True)
        # a discard (PLAY, PENG, CHI) or an added kong: the responders' entries, in any order
        discarder = int(words[1])
        chosen: dict[int, Action] = {}
        while game.phase in (Phase.RESPOND, Phase.ROB) and game.to_act:
            if self.at >= len(self.actions):
                break
            seat, action = self.actions[self.at]
            if seat not in game.to_act:
                break
            self._take()
            chosen[seat] = action
        missing = game.phase in (Phase.RESPOND, Phase.ROB) and bool(game.to_act)
        replies = list(replies)
        for seat, action in chosen.items():
            if action.kind in (ActionKind.PUNG, ActionKind.CHOW):
                discard = self._granted_discard(seat, discarder)
                if discard is None:
                    missing = missing or self._granted(seat, discarder)
                    discard = self._some_discard(seat, action)
                replies[seat] = Reply("OK", str(action_to_response(action, discard)))
            elif action != PASS:
                replies[seat] = Reply("OK", str(action_to_response(action)))
        return self._fail(replies, missing)

    def _granted(self, seat: int, discarder: int) -> bool:
        """Was ``seat``'s chow or pung granted (it must discard now)?"""
        game = self.game
        return (
            game.phase is Phase.ACT
            and game.current == seat
            and seat != discarder
            and game.view(seat).drawn is None
        )

    def _granted_discard(self, seat: int, discarder: int) -> Action | None:
        if (
            not self._granted(seat, discarder)
            or self.at >= len(self.actions)
            or self.actions[self.at][0] != seat
        ):
            return None
        _, discard = self.actions[self.at]
        self._take()
        return discard

    def _some_discard(self, seat: int, claim: Action) -> Action:
        """A claim that was not granted still names a discard: the first tile left after it."""
        counts = [0] * 34
        for t in self.game.hand_of(seat).concealed:
            counts[t] += 1
        assert claim.tile is not None
        low = int(claim.tile)
        used = [low, low + 1, low + 2] if claim.kind is ActionKind.CHOW else []
        for u in used:
            if counts[u]:
                counts[u] -= 1
        tile = next((t for t in range(34) if counts[t]), 0)
        return Action(ActionKind.DISCARD, TILES[tile])


class _OraclePlayer:
    def __init__(self, seat: int, oracle: _RecordOracle) -> None:
        self.name = f"seat {seat}"
        self.seat = seat
        self.oracle = oracle
        self.turn = 0

    def start(self, seat: int) -> None:
        self.turn = 0

    def ask(self, request: str) -> Reply:
        reply = self.oracle.reply(self.turn, self.seat, request)
        self.turn += 1
        return reply

    def close(self) -> None:
        pass


def record_to_match(record: Mapping[str, Any]) -> dict[str, Any]:
    """The Botzone match log of a guobiao Botzone-variant hand record (``Game.record()`` with
    ``wall_build="botzone"``). ValueError if the record is not one, or does not judge to its
    own result."""
    rules = record.get("rules", {})
    if not isinstance(rules, dict) or rules.get("wall_build") != "botzone":
        raise ValueError("only a Botzone-variant record (wall_build 'botzone') has a match log")
    if "result" not in record:
        raise ValueError("the record's hand is not over: it has no result")
    oracle = _RecordOracle(record)
    game = oracle.game
    wall = [int(t) for t in game.deal.wall]
    players = [_OraclePlayer(seat, oracle) for seat in range(4)]
    seed = game.seed if game.seed is not None else 0
    judged = play_match(wall, players, quan=int(game.round_wind), srand=seed)
    expected = record.get("result")  # an object: Game.replay read it
    if expected is not None and list(judged.result.deltas) != expected.get("deltas"):
        raise ValueError(
            f"the record judges to {list(judged.result.deltas)}, not its {show(expected.get('deltas'))}"
        )
    return judged.log


def _seat_scores(deltas: Sequence[int]) -> dict[str, int]:
    return {"ESWN"[i]: int(d) for i, d in enumerate(deltas)}


def verify_any(text: str, read_lines: Callable[[], list[dict[str, Any]]]) -> ReplayReport:
    """Replay a log of any format guobiao reads, told apart by its content: one JSON object that
    is a Botzone match log (``"log"`` and ``"initdata"``, judged again by
    :func:`guobiao.botzone.log.verify_match`) or a single hand record (``Game.record()``: it has
    ``"rules"`` and ``"actions"``); else a session log of JSON lines (``read_lines()``, checked
    by :func:`verify_log`). A log that cannot be read raises :class:`LogError`."""
    data: object = None
    if _OBJECT.match(text):
        try:
            data = parse_json(text, "the log")
        except LogError:
            data = None  # JSON lines (more than one object), or bad JSON: read line by line
    if isinstance(data, dict) and isinstance(data.get("log"), list):
        try:
            check = verify_match(data)
        except ValueError as err:
            raise LogError(f"bad Botzone match log: {err}") from None
        return ReplayReport(1, check.problems, _seat_scores(check.scores), "botzone match")
    if isinstance(data, dict) and "actions" in data and "rules" in data:
        report = ReplayReport(1, kind="hand")
        try:
            game = Game.replay(data)
        except LogError as err:
            raise LogError(f"bad hand record: {err}") from None
        except ValueError as err:
            report.problems.append(str(err))
            return report
        if game.result is None:
            report.problems.append("the actions end before the hand does")
        else:
            report.scores = _seat_scores(game.result.deltas)
        return report
    data = None  # not kept while the lines are read
    return verify_log(read_lines())
