"""A local Botzone judge and arena (docs/arena.md): Botzone-variant hands between guobiao bots and
external Botzone bot programs, Botzone match logs, and duplicate evaluation.

An adapter. :func:`play_match` plays one hand of the Botzone variant (``rules.BOTZONE``, a
136-tile wall string) with four :class:`Player` objects, and speaks to each of them exactly as
the Botzone judge does: every round each seat gets one request (``0 seat quan``, ``1 ...`` the
deal, ``2 T`` to the drawer and ``3 p DRAW`` to the others, ``3 p PLAY X`` / ``PENG Y`` /
``CHI M Y`` / ``GANG`` / ``BUGANG X`` to all) and must answer it (``PASS`` where it has no
choice). Answers become engine actions (a ``PENG Y`` / ``CHI M Y`` is the claim and, if it is
granted, the discard). A time-out, a crash, an unreadable or an illegal answer ends the hand by
:meth:`guobiao.table.game.Game.forfeit` (-30 for the offender, +10 for each other seat), the first
offender in seat order deciding; a wrong ``HU`` is the engine's (``false_wins=True``).

- :class:`GuobiaoPlayer`: a guobiao bot in this process, fed the same requests through the
  bot-side tracker of :mod:`guobiao.botzone.protocol`, so that it plays exactly as ``guobiao botzone-bot
  --keep-running`` with the same seed does.
- :class:`ExternalPlayer`: a bot program as a subprocess (its own process group, killed with
  it), with a per-move time limit, in the keep-running simple transport (``cmd:``), the JSON
  transport (``json:``, restarted every turn with the whole history) or the simple transport
  (``simple:``, restarted every turn).
- :func:`run_arena`: deals (walls) from a seed, each played once or in the duplicate format
  (every seat permutation of the four bots on the same wall), in parallel with
  :func:`guobiao.jobs.workers.run_jobs`; :func:`summarize` gives each bot's statistics.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import random
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from guobiao.bots import BOT_KINDS, make_bot
from guobiao.botzone.protocol import (
    BOTZONE_RULES,
    KEEP_RUNNING,
    BotzoneSeat,
    ProtocolError,
    choose_response,
    parse_response,
    response_to_actions,
)
from guobiao.core.context import Wind
from guobiao.core.tiles import TILES
from guobiao.jobs.workers import run_jobs
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, HandResult
from guobiao.table.rules import BOTZONE
from guobiao.table.wall import deal_botzone, shuffled_tiles

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "TRANSPORTS",
    "ArenaHand",
    "ArenaJob",
    "BotSpec",
    "BotStats",
    "ExternalPlayer",
    "GuobiaoPlayer",
    "Match",
    "Player",
    "Reply",
    "arena_jobs",
    "deal_of",
    "make_player",
    "parse_bot_spec",
    "play_job",
    "play_match",
    "run_arena",
    "seat_orders",
    "summarize",
    "wall_string",
    "write_logs",
]

DEFAULT_TIME_LIMIT: Final = 5.0
TRANSPORTS: Final = ("keep", "json", "simple")
"""How an external bot is run: ``keep`` (simple lines, keep-running: started once per hand),
``json`` (one JSON line with the whole history, a new process every turn), ``simple`` (the simple
format with the whole history, a new process every turn)."""

_VERDICT_REASON: Final = {"TLE": "time-out", "RE": "crash"}
_REASON_CODE: Final = {
    "time-out": "TLE",
    "crash": "RE",
    "illegal action": "WA",
    "wrong win": "WH",
}


# ---------------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """One seat's answer to one request: ``verdict`` ``OK`` (with the ``response`` line, None if
    it could not be read), ``TLE`` (time-out) or ``RE`` (the program ended or failed)."""

    verdict: str = "OK"
    response: str | None = "PASS"
    time_ms: int = 0
    raw: str | None = None  # what the program printed, when it is not ``response``

    def log_entry(self) -> dict[str, Any]:
        """This answer as a Botzone match log's player entry."""
        out: dict[str, Any] = {"verdict": self.verdict, "time": self.time_ms}
        if self.verdict == "OK":
            out["response"] = self.response if self.response is not None else (self.raw or "")
        return out


class Player(Protocol):
    """One seat's program: :meth:`start` a hand, :meth:`ask` each request, :meth:`close`."""

    name: str

    def start(self, seat: int) -> None: ...

    def ask(self, request: str) -> Reply: ...

    def close(self) -> None: ...


class GuobiaoPlayer:
    """A guobiao bot (``make_bot(kind, seed)``) answering through the bot-side tracker, as
    ``guobiao botzone-bot --bot KIND --seed SEED --keep-running`` answers."""

    def __init__(self, kind: str, seed: int | None = None) -> None:
        self.name = kind
        self.kind = kind
        self.seed = seed
        self._bot = make_bot(kind, seed, BOTZONE_RULES)
        self._seat = BotzoneSeat(BOTZONE_RULES)

    def start(self, seat: int) -> None:
        self._bot = make_bot(self.kind, self.seed, BOTZONE_RULES)
        self._seat = BotzoneSeat(BOTZONE_RULES)

    def ask(self, request: str) -> Reply:
        try:
            self._seat.feed(request)
            response = choose_response(self._bot, self._seat)
        except ProtocolError:
            return Reply("RE", None)
        self._seat.respond(response)
        return Reply("OK", str(response))

    def close(self) -> None:
        pass


class _Timeout(Exception):
    pass


class ExternalPlayer:
    """A Botzone bot program run as a subprocess (``argv``), in ``transport`` (:data:`TRANSPORTS`),
    with ``time_limit`` seconds for each answer. A program that overruns, ends, or cannot be
    started gets ``TLE`` or ``RE`` and is killed with its whole process group."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        transport: str = "keep",
        time_limit: float = DEFAULT_TIME_LIMIT,
        name: str | None = None,
    ) -> None:
        if transport not in TRANSPORTS:
            raise ValueError(f"transport must be one of {', '.join(TRANSPORTS)}, not {transport!r}")
        if not argv:
            raise ValueError("an external bot needs a command")
        self.argv = list(argv)
        self.transport = transport
        self.time_limit = time_limit
        self.name = name or " ".join(argv)
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._requests: list[str] = []
        self._responses: list[str] = []
        self._kept = False  # a keep-running process is up, waiting for the next request
        self.last_pid: int | None = None  # the last process started (its process group id)

    def start(self, seat: int) -> None:
        self.close()
        self._requests, self._responses = [], []

    def close(self) -> None:
        """Kill the program (its process group) and reap it."""
        proc, self._proc = self._proc, None
        self._kept = False
        self._buffer = b""
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        proc.wait()

    def _spawn(self) -> subprocess.Popen[bytes]:
        self.close()
        self._proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: killed whole, children too
        )
        self.last_pid = self._proc.pid
        return self._proc

    def _write(self, text: str, *, close: bool) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        proc.stdin.write(text.encode("utf-8"))
        proc.stdin.flush()
        if close:
            proc.stdin.close()

    def _read_line(self, deadline: float) -> str | None:
        """The next line the program prints (None at the end of its output) before ``deadline``."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Timeout
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                raise _Timeout
            chunk = os.read(fd, 65536)
            if not chunk:
                if self._buffer:
                    line, self._buffer = self._buffer, b""
                    return line.decode("utf-8", "replace").rstrip("\r")
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")

    def _answer_line(self, deadline: float) -> str | None:
        while True:
            line = self._read_line(deadline)
            if line is None or line.strip():
                return line

    def _simple_history(self) -> str:
        lines = [str(len(self._requests))]
        for i, request in enumerate(self._requests):
            lines.append(request)
            if i < len(self._responses):
                lines.append(self._responses[i])
        return "\n".join(lines) + "\n"

    def ask(self, request: str) -> Reply:
        self._requests.append(request)
        started = time.monotonic()
        deadline = started + self.time_limit
        raw: str | None = None
        try:
            if self.transport == "json":
                self._spawn()
                history = {"requests": self._requests, "responses": self._responses}
                self._write(json.dumps(history) + "\n", close=True)
            elif self.transport == "simple" or not self._kept:
                self._spawn()
                self._write(self._simple_history(), close=self.transport == "simple")
            else:
                self._write(request + "\n", close=False)
            raw = self._answer_line(deadline)
            if raw is None:
                self.close()
                return Reply("RE", None, _ms(started))
            if self.transport == "keep":
                marker = self._answer_line(deadline)
                self._kept = marker is not None and marker.strip() == KEEP_RUNNING
                if not self._kept:
                    self.close()  # not a keep-running program: start it again next turn
            else:
                self.close()
        except _Timeout:
            self.close()
            return Reply("TLE", None, _ms(started))
        except OSError:  # cannot start it, or it closed its input (BrokenPipeError)
            self.close()
            return Reply("RE", None, _ms(started))
        response = _read_response(raw, json_line=self.transport == "json")
        if response is not None:
            self._responses.append(response)
        return Reply("OK", response, _ms(started), None if response == raw else raw)


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def _read_response(raw: str, *, json_line: bool) -> str | None:
    """The answer in a printed line (a JSON transport's ``{"response": ...}``), or None."""
    text = raw.strip()
    if json_line or text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return None
        value = data.get("response") if isinstance(data, dict) else None
        return value.strip() if isinstance(value, str) else None
    return text


# ---------------------------------------------------------------------------------------------
# Bot specifications
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A player of the arena: a guobiao bot ``kind``, or an external program (``argv``, run in
    ``transport``). ``{seed}`` in an external command is replaced by the bot's seed."""

    text: str
    kind: str | None = None
    argv: tuple[str, ...] = ()
    transport: str = "keep"

    @property
    def label(self) -> str:
        return self.kind if self.kind is not None else self.text


_PREFIXES: Final = {"cmd:": "keep", "json:": "json", "simple:": "simple"}


def parse_bot_spec(text: str) -> BotSpec:
    """Read a bot: ``fan`` / ``efficiency`` / ``random``; ``cmd:PROGRAM ARGS`` (keep-running
    simple lines), ``json:PROGRAM ARGS``, ``simple:PROGRAM ARGS``; or the path of an executable
    (as ``cmd:``). ValueError names what is wrong."""
    spec = text.strip()
    if spec.lower() in BOT_KINDS:
        return BotSpec(spec.lower(), kind=spec.lower())
    for prefix, transport in _PREFIXES.items():
        if spec.startswith(prefix):
            argv = tuple(shlex.split(spec[len(prefix) :]))
            if not argv:
                raise ValueError(f"{text!r}: {prefix} needs a command")
            return BotSpec(spec, argv=argv, transport=transport)
    if os.path.isfile(spec) and os.access(spec, os.X_OK):
        return BotSpec(spec, argv=(spec,), transport="keep")
    raise ValueError(
        f"{text!r} is not a bot: {', '.join(BOT_KINDS)}, cmd:PROGRAM, json:PROGRAM, "
        "simple:PROGRAM or the path of an executable"
    )


def make_player(
    spec: BotSpec, seed: int | None, time_limit: float = DEFAULT_TIME_LIMIT
) -> GuobiaoPlayer | ExternalPlayer:
    """The player of ``spec`` seeded with ``seed``."""
    if spec.kind is not None:
        return GuobiaoPlayer(spec.kind, seed)
    argv = [a.replace("{seed}", str(seed)) for a in spec.argv]
    return ExternalPlayer(argv, transport=spec.transport, time_limit=time_limit, name=spec.text)


# ---------------------------------------------------------------------------------------------
# The judge
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Match:
    """One judged hand: the engine's game (``record()``, ``result``), the Botzone match log
    (``{"log": [...], "initdata": {...}}``) and the players' names by seat."""

    game: Game
    log: dict[str, Any]
    names: tuple[str, str, str, str] = ("", "", "", "")

    @property
    def result(self) -> HandResult:
        assert self.game.result is not None
        return self.game.result


def wall_string(wall: Sequence[int]) -> str:
    """The judge's ``walltiles``: 136 tile names separated by spaces."""
    return " ".join(str(TILES[t]) for t in wall)


_Round = tuple[str, int, int | None]  # (kind, player, tile): draw, play, peng, chi, gang, bugang


class _Judge:
    def __init__(
        self,
        wall: Sequence[int],
        players: Sequence[Player],
        quan: int,
        srand: int,
    ) -> None:
        if len(players) != 4:
            raise ValueError(f"four players, not {len(players)}")
        self.players = players
        self.quan = quan
        # the record's seed is the judge's srand (the deal is the wall's, not the seed's)
        self.game = Game(
            BOTZONE, srand, deal_=deal_botzone(wall), round_wind=Wind(quan), false_wins=True
        )
        self.log: list[dict[str, Any]] = []
        self.initdata = {"srand": srand, "quan": quan, "walltiles": wall_string(wall)}

    # -- rounds -------------------------------------------------------------------------------
    def _ask(self, requests: Sequence[str], display: dict[str, Any]) -> list[Reply]:
        self.log.append(
            {
                "output": {
                    "command": "request",
                    "content": {str(i): r for i, r in enumerate(requests)},
                    "display": display,
                },
                "verdict": "OK",
            }
        )
        replies = [
            player.ask(request) for player, request in zip(self.players, requests, strict=True)
        ]
        self.log.append({str(i): reply.log_entry() for i, reply in enumerate(replies)})
        return replies

    def run(self) -> None:
        game = self.game
        try:
            for player, seat in zip(self.players, range(4), strict=True):
                player.start(seat)
            replies = self._ask(
                [f"0 {i} {self.quan}" for i in range(4)],
                {"action": "INIT", "srand": self.initdata["srand"], "quan": self.quan},
            )
            if not self._all_pass(replies, set()):
                self._finish()
                return
            hands = game.deal.hands
            replies = self._ask(
                ["1 0 0 0 0 " + " ".join(str(TILES[t]) for t in hands[i]) for i in range(4)],
                {"action": "DEAL", "hand": [[str(TILES[t]) for t in h] for h in hands]},
            )
            if not self._all_pass(replies, set()):
                self._finish()
                return
            current: _Round | None = ("draw", 0, None)
            while current is not None and not game.is_over:
                current = self._round(current)
            self._finish()
        finally:
            for player in self.players:
                player.close()

    def _round(self, rnd: _Round) -> _Round | None:
        game = self.game
        kind, p, tile = rnd
        if kind == "draw":
            drawn = game.view(p).drawn
            assert drawn is not None
            requests = [f"2 {drawn}" if i == p else f"3 {p} DRAW" for i in range(4)]
            replies = self._ask(requests, {"action": "DRAW", "player": p, "tile": str(drawn)})
            if not self._all_pass(replies, {p}):
                return None
            action = self._own_action(p, replies[p])
            if action is None:
                return None
            game.act(p, action)
            if action.kind is ActionKind.DISCARD:
                return ("play", p, int(action.tile) if action.tile is not None else None)
            if action.kind is ActionKind.CONCEALED_KONG:
                return ("gang", p, None)
            if action.kind is ActionKind.ADDED_KONG:
                return ("bugang", p, int(action.tile) if action.tile is not None else None)
            return None  # a win, right or wrong: the hand is over
        if kind == "gang":
            replies = self._ask([f"3 {p} GANG"] * 4, {"action": "GANG", "player": p})
            if not self._all_pass(replies, set()):
                return None
            return ("draw", p, None) if not game.is_over else None
        if kind == "bugang":
            assert tile is not None
            request = f"3 {p} BUGANG {TILES[tile]}"
            replies = self._ask(
                [request] * 4, {"action": "BUGANG", "player": p, "tile": str(TILES[tile])}
            )
            return self._claims(p, tile, replies, robbing=True)
        # a discard: PLAY, or a PENG / CHI and its discard
        assert tile is not None
        if kind == "chi":
            chow = game.hand_of(p).melds[-1]
            middle = TILES[chow.tile + 1]
            request = f"3 {p} CHI {middle} {TILES[tile]}"
            display = {"action": "CHI", "player": p, "tile": str(TILES[tile])}
            display["tileCHI"] = str(middle)
        else:
            request = f"3 {p} {kind.upper()} {TILES[tile]}"
            display = {"action": kind.upper(), "player": p, "tile": str(TILES[tile])}
        replies = self._ask([request] * 4, display)
        return self._claims(p, tile, replies, robbing=False)

    def _claims(self, p: int, tile: int, replies: list[Reply], *, robbing: bool) -> _Round | None:
        """Answers to a discard or an added kong: check them all, then act in seat order."""
        game = self.game
        chosen: dict[int, tuple[Action, ...]] = {}
        for seat in range(4):
            reply = replies[seat]
            if self._failed(seat, reply):
                return None
            if seat == p:
                if reply.response != "PASS":
                    self._forfeit(seat, "illegal action")
                    return None
                continue
            actions = self._claim_actions(seat, reply, tile, robbing=robbing)
            if actions is None:
                self._forfeit(seat, "illegal action")
                return None
            chosen[seat] = actions
        for step in (1, 2, 3):
            seat = (p + step) % 4
            if seat in game.to_act:
                game.act(seat, chosen[seat][0])
        if game.is_over:
            # a kong on a discard with the konger's segment empty: told, then the hand is drawn
            kong = next((s for s, a in chosen.items() if a[0].kind is ActionKind.KONG), None)
            result = game.result
            if kong is not None and result is not None and result.is_draw:
                self._ask([f"3 {kong} GANG"] * 4, {"action": "GANG", "player": kong})
            return None
        c = game.current
        if robbing:
            return ("draw", c, None)
        claim = chosen.get(c)
        if c == p or claim is None or claim[0].kind is ActionKind.PASS:
            return ("draw", c, None)
        first = claim[0].kind
        if first is ActionKind.KONG:
            return ("gang", c, None)
        discard = claim[1]
        if discard not in game.legal_actions(c):
            self._forfeit(c, "illegal action")
            return None
        game.act(c, discard)
        assert discard.tile is not None
        return ("chi" if first is ActionKind.CHOW else "peng", c, int(discard.tile))

    # -- checking answers ---------------------------------------------------------------------
    def _failed(self, seat: int, reply: Reply) -> bool:
        """A time-out, a crash or an unreadable answer: forfeit (True)."""
        if reply.verdict != "OK":
            self._forfeit(seat, _VERDICT_REASON.get(reply.verdict, "crash"))
            return True
        if reply.response is None:
            self._forfeit(seat, "illegal action")
            return True
        return False

    def _all_pass(self, replies: Sequence[Reply], except_: set[int]) -> bool:
        """Seats not in ``except_`` must answer PASS; forfeit the first that does not."""
        for seat, reply in enumerate(replies):
            if self._failed(seat, reply):
                return False
            if seat not in except_ and reply.response != "PASS":
                self._forfeit(seat, "illegal action")
                return False
        return True

    def _own_action(self, seat: int, reply: Reply) -> Action | None:
        """The drawer's answer as an action: PLAY, GANG X, BUGANG X or HU, legal now."""
        try:
            response = parse_response(reply.response or "")
            if response.verb not in ("PLAY", "GANG", "BUGANG", "HU") or (
                response.verb == "GANG" and not response.tiles
            ):
                raise ProtocolError("not an answer to one's own draw")
            (action,) = response_to_actions(response)
        except (ProtocolError, ValueError):
            self._forfeit(seat, "illegal action")
            return None
        if action != WIN and action not in self.game.legal_actions(seat):
            self._forfeit(seat, "illegal action")
            return None
        return action

    def _claim_actions(
        self, seat: int, reply: Reply, tile: int, *, robbing: bool
    ) -> tuple[Action, ...] | None:
        try:
            response = parse_response(reply.response or "")
        except ProtocolError:
            return None
        allowed = ("PASS", "HU") if robbing else ("PASS", "HU", "PENG", "CHI", "GANG")
        if response.verb not in allowed or (response.verb == "GANG" and response.tiles):
            return None
        try:
            actions = response_to_actions(response, TILES[tile])
        except ProtocolError:
            return None
        first = actions[0]
        if first in (PASS, WIN) or first in self.game.legal_actions(seat):
            return actions
        return None

    # -- the end ------------------------------------------------------------------------------
    def _forfeit(self, seat: int, reason: str) -> None:
        if not self.game.is_over:
            self.game.forfeit(seat, reason)

    def _finish(self) -> None:
        result = self.game.result
        assert result is not None
        scores = list(result.deltas)
        display: dict[str, Any]
        if result.winner is not None and result.fans is not None:
            display = {
                "action": "HU",
                "player": result.winner,
                "fanCnt": result.fans.total,
                "fan": [
                    {"name": f.fan.zh, "cnt": f.count, "value": f.points} for f in result.fans.fans
                ],
            }
        elif result.forfeit_seat is not None:
            reason = result.forfeit_reason or "illegal action"
            display = {"action": _REASON_CODE.get(reason, "WA"), "player": result.forfeit_seat}
        else:
            display = {"action": "HUANG"}
        display["score"] = scores
        self.log.append(
            {
                "output": {
                    "command": "finish",
                    "content": {str(i): s for i, s in enumerate(scores)},
                    "display": display,
                },
                "verdict": "OK",
            }
        )


def play_match(
    wall: Sequence[int],
    players: Sequence[Player],
    *,
    quan: int = 0,
    srand: int = 0,
) -> Match:
    """Judge one Botzone hand on ``wall`` (136 tile ints in the judge's order) between four
    players (seat 0 East first); ``quan`` is the prevalent wind (0-3), ``srand`` only goes into
    the log's ``initdata``. The players are closed (programs killed) when it ends."""
    judge = _Judge(wall, players, quan, srand)
    judge.run()
    names = tuple(getattr(p, "name", "") for p in players)
    log = {"log": judge.log, "initdata": judge.initdata}
    return Match(judge.game, log, (names[0], names[1], names[2], names[3]))


# ---------------------------------------------------------------------------------------------
# The arena: deals, the duplicate format, statistics
# ---------------------------------------------------------------------------------------------


def seat_orders(duplicate: str) -> tuple[tuple[int, int, int, int], ...]:
    """Which bot (index in the line-up) sits at E, S, W, N in each hand of a deal:
    ``none`` (the line-up as given), ``rotations`` (the 4 rotations: each bot once in each
    seat) or ``all`` (the 24 permutations: also every order of the others around it)."""
    if duplicate == "none":
        return ((0, 1, 2, 3),)
    if duplicate == "rotations":
        return tuple((i, (i + 1) % 4, (i + 2) % 4, (i + 3) % 4) for i in range(4))
    if duplicate == "all":
        return tuple((p[0], p[1], p[2], p[3]) for p in itertools.permutations(range(4)))
    raise ValueError(f"duplicate must be none, rotations or all, not {duplicate!r}")


@dataclass(frozen=True, slots=True)
class ArenaJob:
    """One deal: its number, seed (the wall, the prevailing wind, the bots' seeds), the four
    bots of the line-up, the seat orders to play it in."""

    number: int
    seed: int
    bots: tuple[BotSpec, BotSpec, BotSpec, BotSpec]
    orders: tuple[tuple[int, int, int, int], ...]
    time_limit: float = DEFAULT_TIME_LIMIT
    keep_logs: bool = False


@dataclass(frozen=True, slots=True)
class ArenaHand:
    """One hand of a deal: who sat where (line-up indexes by seat) and how it ended."""

    deal: int
    order: tuple[int, int, int, int]
    deltas: tuple[int, int, int, int]
    winner: int | None
    discarder: int | None
    forfeit_seat: int | None
    forfeit_reason: str | None
    fan: int
    record: dict[str, Any] | None = None
    match_log: dict[str, Any] | None = None


def arena_jobs(
    deals: int,
    bots: Sequence[BotSpec],
    *,
    seed: int | None = None,
    duplicate: str = "none",
    time_limit: float = DEFAULT_TIME_LIMIT,
    keep_logs: bool = False,
) -> list[ArenaJob]:
    """The deals of a run: seeds drawn in order from ``random.Random(seed)``."""
    if len(bots) != 4:
        raise ValueError(f"four bots, not {len(bots)}")
    lineup = (bots[0], bots[1], bots[2], bots[3])
    master = random.Random(seed)
    orders = seat_orders(duplicate)
    return [
        ArenaJob(n, master.randrange(2**31), lineup, orders, time_limit, keep_logs)
        for n in range(1, deals + 1)
    ]


def deal_of(seed: int) -> tuple[list[int], int]:
    """A deal's wall (the judge's order) and prevailing wind, from its seed."""
    rng = random.Random(seed)
    wall = shuffled_tiles(rng, flowers=False)
    return wall, rng.randrange(4)


def play_job(job: ArenaJob) -> list[ArenaHand]:
    """Play one deal in every seat order of the job. Bot ``b`` of the line-up is seeded with
    ``seed + b`` wherever it sits."""
    wall, quan = deal_of(job.seed)
    hands: list[ArenaHand] = []
    for order in job.orders:
        players = [make_player(job.bots[b], job.seed + b, job.time_limit) for b in order]
        match = play_match(wall, players, quan=quan, srand=job.seed)
        result = match.result
        hands.append(
            ArenaHand(
                job.number,
                order,
                result.deltas,
                result.winner,
                result.discarder,
                result.forfeit_seat,
                result.forfeit_reason,
                result.fans.total if result.fans is not None else 0,
                match.game.record() if job.keep_logs else None,
                match.log if job.keep_logs else None,
            )
        )
    return hands


def run_arena(
    jobs: Sequence[ArenaJob],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[list[ArenaHand]]:
    """Play every deal (serially, in processes or on Ray: the same results)."""
    return run_jobs(play_job, jobs, workers=workers, ray_address=ray_address, on_done=on_done)


@dataclass(slots=True)
class BotStats:
    """One bot of the line-up over a run."""

    index: int
    bot: str
    hands: int = 0
    total: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    forfeits: int = 0
    deal_means: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return self.total / self.hands if self.hands else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def self_draw_rate(self) -> float:
        return self.self_drawn / self.hands if self.hands else 0.0

    @property
    def deal_in_rate(self) -> float:
        return self.deal_ins / self.hands if self.hands else 0.0

    @property
    def ci95(self) -> float | None:
        """Half the width of the 95% confidence interval of the mean score per hand: 1.96
        standard errors of the per-deal means (None with fewer than two deals)."""
        n = len(self.deal_means)
        if n < 2:
            return None
        mean = sum(self.deal_means) / n
        variance = sum((x - mean) ** 2 for x in self.deal_means) / (n - 1)
        return 1.96 * math.sqrt(variance / n)

    def to_json(self) -> dict[str, Any]:
        ci = self.ci95
        return {
            "bot": self.bot,
            "index": self.index,
            "hands": self.hands,
            "mean_score": round(self.mean, 4),
            "ci95": round(ci, 4) if ci is not None else None,
            "win_rate": round(self.win_rate, 4),
            "self_draw_rate": round(self.self_draw_rate, 4),
            "deal_in_rate": round(self.deal_in_rate, 4),
            "forfeits": self.forfeits,
            "total": self.total,
        }


def summarize(bots: Sequence[BotSpec], deals: Sequence[Sequence[ArenaHand]]) -> list[BotStats]:
    """Each line-up bot's statistics; the unit of the confidence interval is one deal (the mean
    of the bot's scores over the deal's seat orders)."""
    stats = [BotStats(i, spec.label) for i, spec in enumerate(bots)]
    for hands in deals:
        per_deal = [0] * len(stats)
        for hand in hands:
            for seat, b in enumerate(hand.order):
                s = stats[b]
                s.hands += 1
                s.total += hand.deltas[seat]
                per_deal[b] += hand.deltas[seat]
                if hand.winner == seat:
                    s.wins += 1
                    if hand.discarder is None:
                        s.self_drawn += 1
                if hand.discarder == seat:
                    s.deal_ins += 1
                if hand.forfeit_seat == seat:
                    s.forfeits += 1
        if hands:
            for b, s in enumerate(stats):
                s.deal_means.append(per_deal[b] / len(hands))
    return stats


def write_logs(
    directory: Path, deals: Sequence[Sequence[ArenaHand]], bots: Sequence[BotSpec]
) -> int:
    """Write each kept hand as ``deal-NNNN-ORDER.botzone.json`` (the Botzone match log) and
    ``deal-NNNN-ORDER.jsonl`` (guobiao's replay log); returns the number of hands written."""
    from guobiao.table.replay import hand_lines, write_log

    directory.mkdir(parents=True, exist_ok=True)
    written = 0
    for hands in deals:
        for hand in hands:
            if hand.record is None or hand.match_log is None:
                continue
            stem = f"deal-{hand.deal:04d}-{''.join(str(b) for b in hand.order)}"
            (directory / f"{stem}.botzone.json").write_text(
                json.dumps(hand.match_log, ensure_ascii=False) + "\n", encoding="utf-8"
            )
            players = [f"{'ABCD'[b]}:{bots[b].label}" for b in hand.order]
            write_log(directory / f"{stem}.jsonl", hand_lines(hand.record, players))
            written += 1
    return written
