"""A local Botzone judge and arena (docs/arena.md): Botzone-variant hands between guobiao bots and
external Botzone bot programs, Botzone match logs, and duplicate evaluation.

An adapter. :func:`play_match` plays one hand of the Botzone variant (``rules.BOTZONE``, a
136-tile wall string) with four :class:`Player` objects, and speaks to each of them exactly as
the Botzone judge does: every round each seat gets one request (``0 seat quan``, ``1 ...`` the
deal, ``2 T`` to the drawer and ``3 p DRAW`` to the others, ``3 p PLAY X`` / ``PENG Y`` /
``CHI M Y`` / ``GANG`` / ``BUGANG X`` to all) and must answer it (``PASS`` where it has no
choice). Answers are read exactly as the judge reads them (split on single spaces, nothing
stripped) and become engine actions (a ``PENG Y`` / ``CHI M Y`` is the claim and, if it is
granted, the discard). A time-out, a crash, an unreadable or an illegal answer ends the hand by
:meth:`guobiao.table.game.Game.forfeit` (-30 for the offender, +10 for each other seat); a wrong
``HU`` is the engine's (``false_wins=True``). When a round holds several faults or answers, the
seats are checked in the judge's order (docs/rules.md §20): the first it reaches decides. The
match log has the official log's keys in their order, ``canHu`` and ``tileCnt`` included.

- :class:`GuobiaoPlayer`: a guobiao bot in this process, fed the same requests through the
  bot-side tracker of :mod:`guobiao.botzone.protocol`, so that it plays exactly as ``guobiao botzone-bot
  --keep-running`` with the same seed does.
- :class:`ExternalPlayer`: a bot program as a subprocess (its own process group, killed with
  it), with a per-move time limit, in the keep-running simple transport (``cmd:``), the JSON
  transport (``json:``, restarted every turn with the whole history; its whole output, which may
  span lines, is one JSON object) or the simple transport
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
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Protocol

from guobiao.bots import BOT_KINDS, make_bot
from guobiao.botzone.protocol import (
    BOTZONE_RULES,
    KEEP_RUNNING,
    BotzoneSeat,
    ProtocolError,
    choose_response,
    parse_exact,
    response_to_actions,
)
from guobiao.core.context import Wind
from guobiao.core.tiles import TILES
from guobiao.jobs.workers import iter_jobs, run_jobs
from guobiao.scoring.botzone_names import judge_fans
from guobiao.scoring.result import FanResult, InvalidHandError
from guobiao.table.game import PASS, WIN, Action, ActionKind, Game, HandResult, Phase
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
    "add_deal",
    "arena_jobs",
    "deal_of",
    "iter_arena",
    "iter_arena_jobs",
    "make_player",
    "parse_bot_spec",
    "play_job",
    "play_match",
    "program_problem",
    "run_arena",
    "seat_orders",
    "summarize",
    "wall_string",
    "write_logs",
]

DEFAULT_TIME_LIMIT: Final = 5.0
TRANSPORTS: Final = ("keep", "json", "simple")
"""How an external bot is run: ``keep`` (simple lines, keep-running: started once per hand),
``json`` (one JSON line with the whole history in, the whole output read as one JSON object; a
new process every turn), ``simple`` (the simple
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
    memory: int = 0  # MB, as Botzone logs it (the arena does not measure it: 0)
    debug: str | None = None  # a JSON bot's ``debug`` text, which Botzone keeps in the log

    def log_entry(self) -> dict[str, Any]:
        """This answer as a Botzone match log's player entry, with Botzone's keys in its order:
        ``memory``, ``time``, ``verdict``, then ``response`` (and ``debug``) for an answer."""
        out: dict[str, Any] = {"memory": self.memory, "time": self.time_ms, "verdict": self.verdict}
        if self.verdict == "OK":
            out["response"] = self.response if self.response is not None else (self.raw or "")
            if self.debug is not None:
                out["debug"] = self.debug
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


STDERR_KEPT: Final = 4096
"""Bytes of an external bot's standard error kept from each hand: the end of it, where a crash's
traceback is (shown with its forfeit, written beside the hand's logs)."""

_STDERR_TRIM: Final = 1 << 20  # a capture past 1 MiB between answers is cut to its end


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
        self._stderr: IO[bytes] | None = None  # the hand's standard error, every process's
        self._stderr_trimmed = False

    def start(self, seat: int) -> None:
        self.close()
        self._requests, self._responses = [], []
        self.take_stderr()
        self._stderr_trimmed = False
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (the hand's; take_stderr closes it)

    def take_stderr(self) -> str:
        """The end of what the program wrote on its standard error since :meth:`start` (at most
        :data:`STDERR_KEPT` bytes, from a line's start), then forgotten."""
        capture, self._stderr = self._stderr, None
        if capture is None:
            return ""
        with capture:
            tail, cut = _tail(capture, STDERR_KEPT)
        cut = cut or self._stderr_trimmed
        text = tail.decode("utf-8", "replace")
        if cut and "\n" in text[:-1]:
            text = text[text.index("\n") + 1 :]  # from a whole line
        return ("…\n" if cut else "") + text

    def _trim_stderr(self) -> None:
        """Keep the capture small between answers: a program writing without end fills no disk.
        (The program's descriptor shares the file's offset: it writes on after the kept end.)"""
        capture = self._stderr
        if capture is None or capture.seek(0, os.SEEK_END) <= _STDERR_TRIM:
            return
        tail, _ = _tail(capture, STDERR_KEPT)
        capture.seek(0)
        capture.truncate()
        capture.write(tail)
        capture.flush()
        self._stderr_trimmed = True

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
            stderr=self._stderr if self._stderr is not None else subprocess.DEVNULL,
            start_new_session=True,  # its own process group: killed whole, children too
        )
        self.last_pid = self._proc.pid
        return self._proc

    def _write(self, text: str, *, close: bool) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        if proc.stdin.closed:  # a kept program that closed its input at an earlier turn (below)
            return  # nothing reaches it: its output is judged as it comes
        try:
            proc.stdin.write(text.encode("utf-8"))
            proc.stdin.flush()
            if close:
                proc.stdin.close()
        except BrokenPipeError:
            # The program closed its input before reading all of it (or ended): what it printed
            # is still its answer, as on Botzone, which judges the output. (This was a crash,
            # depending on whether the write or the program's end came first.) A program that
            # printed nothing is a crash when its output ends.
            with contextlib.suppress(OSError):
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

    def _read_output(self, deadline: float) -> str | None:
        """A JSON bot's whole output (Botzone parses all of it: it may span lines), up to the end
        of its output or a keep-running marker line; None if it printed nothing."""
        lines: list[str] = []
        while True:
            line = self._read_line(deadline)
            if line is None or line.strip() == KEEP_RUNNING:
                break
            lines.append(line)
        return "\n".join(lines) if lines else None

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
                raw = self._read_output(deadline)
            else:
                if self.transport == "simple" or not self._kept:
                    self._spawn()
                    self._write(self._simple_history(), close=self.transport == "simple")
                else:
                    self._write(request + "\n", close=False)
                raw = self._read_line(deadline)  # the first line is the answer, as printed
            if raw is None:
                self.close()
                return Reply("RE", None, _ms(started))
            if self.transport == "keep":
                self._kept = self._await_marker(deadline)
                if not self._kept:
                    self.close()  # not a keep-running program: start it again next turn
            else:
                self.close()
        except _Timeout:
            self.close()
            return Reply("TLE", None, _ms(started))
        except OSError:  # cannot start it
            self.close()
            return Reply("RE", None, _ms(started))
        finally:
            self._trim_stderr()
        response, debug = _read_response(raw, whole_json=self.transport == "json")
        if response is not None:
            self._responses.append(response)
        raw_kept = None if response == raw else raw
        return Reply("OK", response, _ms(started), raw_kept, debug=debug)

    def _await_marker(self, deadline: float) -> bool:
        """After a keep-running answer: its other lines (debug, data) up to the marker line;
        False if the program ends first."""
        while True:
            line = self._read_line(deadline)
            if line is None:
                return False
            if line.strip() == KEEP_RUNNING:
                return True


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def _tail(capture: IO[bytes], size: int) -> tuple[bytes, bool]:
    """The last ``size`` bytes of ``capture`` and whether anything before them was left out."""
    end = capture.seek(0, os.SEEK_END)
    capture.seek(max(0, end - size))
    return capture.read(), end > size


def _read_response(raw: str, *, whole_json: bool) -> tuple[str | None, str | None]:
    """The answer in a bot's output and its debug text. A JSON output (``whole_json``, or a line
    starting with ``{``) is read whole, as Botzone does, and its ``response`` taken as it is; a
    simple line is the answer as printed. Nothing is stripped: the judge compares exactly."""
    if whole_json or raw.lstrip().startswith("{"):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            return None, None
        if not isinstance(data, dict):
            return None, None
        value, debug = data.get("response"), data.get("debug")
        return (
            value if isinstance(value, str) else None,
            debug if isinstance(debug, str) else None,
        )
    return raw, None


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


def program_problem(program: str) -> str | None:
    """Why ``program`` (the first word of an external bot's command) cannot be started as
    :class:`ExternalPlayer` starts it: a path as it is, a bare name looked up on PATH; None when
    it can be."""
    if os.sep not in program and not (os.altsep and os.altsep in program):
        if shutil.which(program) is not None:
            return None
        here = f" (the one in this folder is ./{program})" if os.path.isfile(program) else ""
        return f"not found on PATH{here}"
    if not os.path.exists(program):
        return "no such file"
    if os.path.isdir(program):
        return "a folder, not a program"
    if not os.access(program, os.X_OK):
        return f"not executable (chmod +x {shlex.quote(program)})"
    return None


def parse_bot_spec(text: str, *, check: bool = True) -> BotSpec:
    """Read a bot: ``strong`` / ``fan`` / ``efficiency`` / ``random``; ``cmd:PROGRAM ARGS`` (keep-running
    simple lines), ``json:PROGRAM ARGS``, ``simple:PROGRAM ARGS``; or the path of an executable
    (as ``cmd:``; a file of this folder by its bare name too). ValueError names what is wrong,
    a program that cannot be started included (:func:`program_problem`), unless ``check`` is
    False (a program that need only exist where the deals run, e.g. on a Ray cluster's nodes)."""
    spec = text.strip()
    if spec.lower() in BOT_KINDS:
        return BotSpec(spec.lower(), kind=spec.lower())
    argv: tuple[str, ...] | None = None
    transport = "keep"
    for prefix, kind in _PREFIXES.items():
        if spec.startswith(prefix):
            argv, transport = tuple(shlex.split(spec[len(prefix) :])), kind
            if not argv:
                raise ValueError(f"{text!r}: {prefix} needs a command")
            break
    else:
        if os.sep in spec or (os.altsep and os.altsep in spec):
            argv = (spec,)
        elif os.path.isfile(spec):  # started by its path: a bare name is looked up on PATH
            argv = (os.path.join(os.curdir, spec),)
    if argv is None:
        raise ValueError(
            f"{text!r} is not a bot: {', '.join(BOT_KINDS)}, cmd:PROGRAM, json:PROGRAM, "
            "simple:PROGRAM or the path of an executable"
        )
    problem = program_problem(argv[0]) if check else None
    if problem is not None:
        named = "" if argv[0] in (spec, os.path.join(os.curdir, spec)) else f"{text!r}: "
        raise ValueError(f"{named}cannot run {argv[0]!r}: {problem}")
    return BotSpec(spec, argv=argv, transport=transport)


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
    stderr: tuple[str, str, str, str] = ("", "", "", "")
    """The end of each external bot's standard error in this hand (by seat; "" for none)."""

    @property
    def result(self) -> HandResult:
        assert self.game.result is not None
        return self.game.result


def wall_string(wall: Sequence[int]) -> str:
    """The judge's ``walltiles``: 136 tile names separated by spaces."""
    return " ".join(str(TILES[t]) for t in wall)


_Round = tuple[str, int, int | None]  # (kind, player, tile): draw, play, peng, chi, gang, bugang

_NO_HU: Final = (-4, -4, -4, -4)
"""``display.canHu`` of a seat the judge does not ask about (not its event, or a finish)."""
_NOT_WIN: Final = -3  # ``canHu`` of a seat whose hand the tile does not complete


def _display(**fields: Any) -> dict[str, Any]:
    """A judge's ``display``, keys sorted as the judge (jsoncpp) writes them."""
    return dict(sorted(fields.items()))


def _judge_entry(output: dict[str, Any]) -> dict[str, Any]:
    """A judge's log entry, Botzone's keys in its order; the arena measures neither (0)."""
    return {"memory": 0, "output": output, "time": 0, "verdict": "OK"}


class _Judge:
    """The Botzone judge, answer by answer as the official one checks them (docs/rules.md §20):
    exact answers (split on single spaces), and in each round the seats in the judge's order."""

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
        walltiles = wall_string(wall)
        self.strlen = len(walltiles)
        self.initdata = {"quan": quan, "srand": srand, "walltiles": walltiles}
        self.fault_code: str | None = None  # a verdict other than OK, printed as it is
        self.wrong_win: tuple[int, FanResult | None] | None = None  # a WH: its fans, if any

    # -- rounds -------------------------------------------------------------------------------
    def _ask(self, requests: Sequence[str], display: dict[str, Any]) -> list[Reply]:
        content = {str(i): r for i, r in enumerate(requests)}
        self.log.append(
            _judge_entry({"command": "request", "content": content, "display": display})
        )
        replies = [
            player.ask(request) for player, request in zip(self.players, requests, strict=True)
        ]
        self.log.append({str(i): reply.log_entry() for i, reply in enumerate(replies)})
        return replies

    def _tile_counts(self) -> list[int]:
        """``display.tileCnt``: the tiles left in each seat's wall segment."""
        return [self.game.segment_remaining(seat) for seat in range(4)]

    def _can_hu(
        self, seat: int, tile: int, *, self_drawn: bool, robbing: bool = False
    ) -> tuple[int, FanResult | None]:
        """What the judge's calculator says of ``seat`` winning on ``tile`` now: the fan total
        (8 points or not) and the fans, or -3 and None if the tile does not complete the hand."""
        game = self.game
        if tile not in game.live_seat(seat).waits:
            return _NOT_WIN, None
        try:  # the engine's own reading of the win: its hand and flags (和绝张, the last tile ...)
            result = game.win_fans(seat, tile, self_drawn=self_drawn, robbing=robbing)
        except InvalidHandError:
            return _NOT_WIN, None
        if not result.is_winning:
            return _NOT_WIN, None
        return result.total, result

    def run(self) -> None:
        game = self.game
        try:
            for player, seat in zip(self.players, range(4), strict=True):
                player.start(seat)
            display = _display(
                action="INIT",
                canHu=list(_NO_HU),
                quan=self.quan,
                srand=self.initdata["srand"],
                strlen=self.strlen,
            )
            replies = self._ask([f"0 {i} {self.quan}" for i in range(4)], display)
            if not self._all_pass(replies):
                self._finish()
                return
            hands = game.deal.hands
            dealt = self._tile_counts()
            dealt[0] += 1  # East's 14th tile is drawn in the next round
            display = _display(
                action="DEAL",
                canHu=list(_NO_HU),
                hand=[[str(TILES[t]) for t in h] for h in hands],
                tileCnt=dealt,
            )
            replies = self._ask(
                ["1 0 0 0 0 " + " ".join(str(TILES[t]) for t in hands[i]) for i in range(4)],
                display,
            )
            if not self._all_pass(replies):
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
        kind, p, tile = rnd
        if kind == "draw":
            return self._draw_round(p)
        if kind == "gang":
            assert tile is not None
            return self._kong_round(p, tile)
        if kind == "bugang":
            assert tile is not None
            return self._robbing_round(p, tile)
        # a discard: PLAY, or a PENG / CHI and its discard
        assert tile is not None
        can_hu = list(_NO_HU)
        for step in (1, 2, 3):
            seat = (p + step) % 4
            can_hu[seat] = self._can_hu(seat, tile, self_drawn=False)[0]
        fields: dict[str, Any] = {"action": kind.upper(), "player": p, "tile": str(TILES[tile])}
        if kind == "chi":
            middle = TILES[self.game.hand_of(p).melds[-1].tile + 1]
            request = f"3 {p} CHI {middle} {TILES[tile]}"
            fields["tileCHI"] = str(middle)
        else:
            request = f"3 {p} {kind.upper()} {TILES[tile]}"
        display = _display(canHu=can_hu, tileCnt=self._tile_counts(), **fields)
        replies = self._ask([request] * 4, display)
        return self._discard_round(p, tile, replies)

    def _draw_round(self, p: int) -> _Round | None:
        """A draw: the seats are checked 0-3; the drawer's answer in its turn."""
        game = self.game
        drawn = game.view(p).drawn
        assert drawn is not None
        can_hu = list(_NO_HU)
        can_hu[p] = self._can_hu(p, int(drawn), self_drawn=True)[0]
        requests = [f"2 {drawn}" if i == p else f"3 {p} DRAW" for i in range(4)]
        display = _display(
            action="DRAW", canHu=can_hu, player=p, tile=str(drawn), tileCnt=self._tile_counts()
        )
        replies = self._ask(requests, display)
        action: Action | None = None
        for seat, reply in enumerate(replies):
            if self._failed(seat, reply):
                return None
            if seat != p:
                if reply.response != "PASS":
                    self._forfeit(seat, "illegal action")
                    return None
                continue
            if reply.response == "HU":
                self._hu(p, int(drawn), self_drawn=True)
                return None
            action = self._own_action(p, reply)
            if action is None:
                return None
        assert action is not None
        game.act(p, action)
        assert action.tile is not None
        if action.kind is ActionKind.DISCARD:
            return ("play", p, int(action.tile))
        if action.kind is ActionKind.CONCEALED_KONG:
            return ("gang", p, int(action.tile))
        return ("bugang", p, int(action.tile))

    def _kong_round(self, p: int, tile: int) -> _Round | None:
        """A kong (concealed, or on a discard): everyone must pass, checked from the konger."""
        counts = self._tile_counts()
        if self.game.view(p).drawn is not None:
            counts[p] += 1  # the engine has drawn the replacement; the judge draws it next round
        display = _display(
            action="GANG",
            canHu=list(_NO_HU),
            player=p,
            tile=str(TILES[tile]),
            tileCnt=counts,
        )
        replies = self._ask([f"3 {p} GANG"] * 4, display)
        for step in range(4):
            seat = (p + step) % 4
            if self._failed(seat, replies[seat]):
                return None
            if replies[seat].response != "PASS":
                self._forfeit(seat, "illegal action")
                return None
        return ("draw", p, None) if not self.game.is_over else None

    def _robbing_round(self, p: int, tile: int) -> _Round | None:
        """An added kong: checked from the konger; the first HU (robbing the kong) is judged."""
        game = self.game
        can_hu = list(_NO_HU)
        for step in (1, 2, 3):
            seat = (p + step) % 4
            can_hu[seat] = self._can_hu(seat, tile, self_drawn=False, robbing=True)[0]
        display = _display(
            action="BUGANG",
            canHu=can_hu,
            player=p,
            tile=str(TILES[tile]),
            tileCnt=self._tile_counts(),
        )
        replies = self._ask([f"3 {p} BUGANG {TILES[tile]}"] * 4, display)
        for step in range(4):
            seat = (p + step) % 4
            reply = replies[seat]
            if self._failed(seat, reply):
                return None
            if reply.response == "PASS":
                continue
            if reply.response == "HU" and seat != p:
                self._hu(seat, tile, self_drawn=False, robbing=True, replies=replies)
                return None
            self._forfeit(seat, "illegal action")
            return None
        for seat in game.to_act:
            game.act(seat, PASS)
        return ("draw", p, None) if not game.is_over else None

    def _discard_round(self, p: int, tile: int, replies: list[Reply]) -> _Round | None:
        """Answers to a discard, in the judge's order: the discarder must pass; the HUs from the
        discarder (the first decides); PENG / GANG in seat order 0-3, the first granted one
        ending the checks; then CHI in seat order."""
        game = self.game
        if self._failed(p, replies[p]):
            return None
        if replies[p].response != "PASS":
            self._forfeit(p, "illegal action")
            return None
        for step in (1, 2, 3):
            seat = (p + step) % 4
            if self._failed(seat, replies[seat]):
                return None
            if replies[seat].response == "HU":
                self._hu(seat, tile, self_drawn=False, replies=replies)
                return None
        claim: tuple[int, tuple[Action, ...]] | None = None
        for chow in (False, True):
            for seat in range(4):
                text = replies[seat].response or ""
                if seat == p or text == "PASS" or (len(text.split(" ")) == 3) != chow:
                    continue
                actions = self._claim_actions(seat, text, tile, chow=chow)
                if actions is None:
                    self._forfeit(seat, "illegal action")
                    return None
                claim = (seat, actions)
                break
            if claim is not None:
                break
        for seat in game.to_act:
            game.act(seat, claim[1][0] if claim is not None and claim[0] == seat else PASS)
        if game.is_over:
            # a kong on a discard with the konger's segment empty: told, then the hand is drawn
            if claim is not None and claim[1][0].kind is ActionKind.KONG:
                self._kong_round(claim[0], tile)
            return None
        if claim is None:
            return ("draw", game.current, None)
        c, actions = claim
        if actions[0].kind is ActionKind.KONG:
            return ("gang", c, tile)
        discard = actions[1]
        if discard not in game.legal_actions(c):
            self._forfeit(c, "illegal action")
            return None
        game.act(c, discard)
        assert discard.tile is not None
        return ("chi" if actions[0].kind is ActionKind.CHOW else "peng", c, int(discard.tile))

    # -- checking answers ---------------------------------------------------------------------
    def _failed(self, seat: int, reply: Reply) -> bool:
        """A verdict other than OK (time-out, crash ...): forfeit (True). An answer that could
        not be read (``response`` None) is no answer: WA wherever the judge reads it."""
        if reply.verdict != "OK":
            self.fault_code = reply.verdict
            self._forfeit(seat, _VERDICT_REASON.get(reply.verdict, "crash"))
            return True
        return False

    def _all_pass(self, replies: Sequence[Reply]) -> bool:
        """Every seat must answer exactly PASS (seats 0-3); forfeit the first that does not."""
        for seat, reply in enumerate(replies):
            if self._failed(seat, reply):
                return False
            if reply.response != "PASS":
                self._forfeit(seat, "illegal action")
                return False
        return True

    def _own_action(self, seat: int, reply: Reply) -> Action | None:
        """The drawer's answer as an action: exactly ``PLAY X``, ``GANG X`` or ``BUGANG X``,
        legal now; else forfeit (None)."""
        response = parse_exact(reply.response or "")
        if (
            response is None
            or response.verb not in ("PLAY", "GANG", "BUGANG")
            or not response.tiles
        ):
            self._forfeit(seat, "illegal action")
            return None
        (action,) = response_to_actions(response)
        if action not in self.game.legal_actions(seat):
            self._forfeit(seat, "illegal action")
            return None
        return action

    def _claim_actions(
        self, seat: int, text: str, tile: int, *, chow: bool
    ) -> tuple[Action, ...] | None:
        """A claim on a discard, exactly ``GANG``, ``PENG Y`` (or ``CHI M Y`` with ``chow``),
        legal for ``seat``: its actions (the claim, then the discard), else None."""
        response = parse_exact(text)
        verbs = ("CHI",) if chow else ("PENG", "GANG")
        if response is None or response.verb not in verbs:
            return None
        if response.verb == "GANG" and response.tiles:
            return None
        actions = response_to_actions(response, TILES[tile])
        if actions[0] not in self.game.legal_actions(seat):
            return None
        return actions

    # -- the end ------------------------------------------------------------------------------
    def _hu(
        self,
        seat: int,
        tile: int,
        *,
        self_drawn: bool,
        robbing: bool = False,
        replies: Sequence[Reply] = (),
    ) -> None:
        """Judge ``seat``'s HU: a win, or a wrong win (the judge prints the fans it found).

        The first HU decides. The other seats' readable answers still go to the engine, so that
        the hand's record keeps them (they do not change the result: the engine too takes the
        first HU counter-clockwise from the discarder)."""
        game = self.game
        _, fans = self._can_hu(seat, tile, self_drawn=self_drawn, robbing=robbing)
        game.act(seat, WIN)
        for other in game.to_act:
            game.act(other, self._ignored_answer(other, replies, tile))
        result = game.result
        if result is not None and result.forfeit_seat == seat:
            self.wrong_win = (seat, fans)

    def _ignored_answer(self, seat: int, replies: Sequence[Reply], tile: int) -> Action:
        """An answer the judge did not read (a HU decided first), as an engine action."""
        text = replies[seat].response if seat < len(replies) else None
        if text == "HU" and replies[seat].verdict == "OK":
            return WIN
        if text is None or self.game.phase is not Phase.RESPOND:
            return PASS
        for chow in (False, True):
            actions = self._claim_actions(seat, text, tile, chow=chow)
            if actions is not None:
                return actions[0]
        return PASS

    def _forfeit(self, seat: int, reason: str) -> None:
        if not self.game.is_over:
            self.game.forfeit(seat, reason)

    def _finish(self) -> None:
        result = self.game.result
        assert result is not None
        scores = list(result.deltas)
        display: dict[str, Any]
        if result.winner is not None and result.fans is not None:
            display = _display(
                action="HU",
                canHu=list(_NO_HU),
                fan=judge_fans(result.fans.fans),
                fanCnt=result.fans.total,
                player=result.winner,
                score=scores,
            )
        elif result.forfeit_seat is not None:
            reason = result.forfeit_reason or "illegal action"
            code = self.fault_code or _REASON_CODE.get(reason, "WA")
            fields: dict[str, Any] = {}
            if reason == "wrong win" and self.wrong_win is not None:
                fans = self.wrong_win[1]
                fields["fanCnt"] = fans.total if fans is not None else _NOT_WIN
                if fans is not None:
                    fields["fan"] = judge_fans(fans.fans)
            display = _display(
                action=code,
                canHu=list(_NO_HU),
                player=result.forfeit_seat,
                score=scores,
                **fields,
            )
        else:  # 荒牌: the judge prints no score
            display = _display(action="HUANG", canHu=list(_NO_HU), tileCnt=self._tile_counts())
        content = {str(i): s for i, s in enumerate(scores)}
        self.log.append(_judge_entry({"command": "finish", "content": content, "display": display}))


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
    errs = tuple(p.take_stderr() if isinstance(p, ExternalPlayer) else "" for p in players)
    log = {"log": judge.log, "initdata": judge.initdata}
    return Match(
        judge.game,
        log,
        (names[0], names[1], names[2], names[3]),
        (errs[0], errs[1], errs[2], errs[3]),
    )


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
    stderr: tuple[str, str, str, str] | None = None
    """The end of each seat's standard error (external bots; None when no bot wrote any)."""


def arena_jobs(
    deals: int,
    bots: Sequence[BotSpec],
    *,
    seed: int | None = None,
    duplicate: str = "none",
    time_limit: float = DEFAULT_TIME_LIMIT,
    keep_logs: bool = False,
) -> list[ArenaJob]:
    """The deals of a run: seeds drawn in order from ``random.Random(seed)``
    (:func:`iter_arena_jobs` as a list)."""
    return list(
        iter_arena_jobs(
            deals, bots, seed=seed, duplicate=duplicate, time_limit=time_limit, keep_logs=keep_logs
        )
    )


def iter_arena_jobs(
    deals: int,
    bots: Sequence[BotSpec],
    *,
    seed: int | None = None,
    duplicate: str = "none",
    time_limit: float = DEFAULT_TIME_LIMIT,
    keep_logs: bool = False,
) -> Iterator[ArenaJob]:
    """The jobs of :func:`arena_jobs`, made one at a time as they are asked for: a run of any
    length starts at once and holds no list of its deals (``guobiao arena``)."""
    if len(bots) != 4:
        raise ValueError(f"four bots, not {len(bots)}")
    lineup = (bots[0], bots[1], bots[2], bots[3])
    orders = seat_orders(duplicate)
    return _arena_jobs(deals, lineup, orders, seed, time_limit, keep_logs)


def _arena_jobs(
    deals: int,
    lineup: tuple[BotSpec, BotSpec, BotSpec, BotSpec],
    orders: tuple[tuple[int, int, int, int], ...],
    seed: int | None,
    time_limit: float,
    keep_logs: bool,
) -> Iterator[ArenaJob]:
    master = random.Random(seed)
    for n in range(1, deals + 1):
        yield ArenaJob(n, master.randrange(2**31), lineup, orders, time_limit, keep_logs)


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
                match.stderr if any(match.stderr) else None,
            )
        )
    return hands


def run_arena(
    jobs: Iterable[ArenaJob],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[list[ArenaHand]]:
    """Play every deal (serially, in processes or on Ray: the same results)."""
    return run_jobs(play_job, jobs, workers=workers, ray_address=ray_address, on_done=on_done)


def iter_arena(
    jobs: Iterable[ArenaJob], *, workers: int = 1, ray_address: str | None = None
) -> Iterator[list[ArenaHand]]:
    """Each deal's hands in the order of the jobs, as they come (:func:`run_arena` without
    keeping them: fold each into the statistics with :func:`add_deal` and write its logs, so
    that a long run's memory does not grow with its deals)."""
    return iter_jobs(play_job, jobs, workers=workers, ray_address=ray_address)


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
    forfeit_reasons: dict[str, int] = field(default_factory=dict)
    """The forfeits by reason (``time-out``, ``crash``, ``illegal action``, ``wrong win``)."""
    last_words: str | None = None
    """The last line its program wrote on standard error in the first hand it forfeited."""

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
            "forfeit_reasons": dict(sorted(self.forfeit_reasons.items())),
            "last_words": self.last_words,
            "total": self.total,
        }


def summarize(bots: Sequence[BotSpec], deals: Sequence[Sequence[ArenaHand]]) -> list[BotStats]:
    """Each line-up bot's statistics; the unit of the confidence interval is one deal (the mean
    of the bot's scores over the deal's seat orders)."""
    stats = [BotStats(i, spec.label) for i, spec in enumerate(bots)]
    for hands in deals:
        add_deal(stats, hands)
    return stats


def add_deal(stats: Sequence[BotStats], hands: Sequence[ArenaHand]) -> None:
    """Add one deal's hands to the statistics (in place): :func:`summarize` deal by deal."""
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
                reason = hand.forfeit_reason or "illegal action"
                s.forfeit_reasons[reason] = s.forfeit_reasons.get(reason, 0) + 1
                if s.last_words is None and hand.stderr is not None:
                    lines = hand.stderr[seat].strip().splitlines()
                    s.last_words = lines[-1].strip() if lines else None
    if hands:
        for b, s in enumerate(stats):
            s.deal_means.append(per_deal[b] / len(hands))


def write_logs(
    directory: Path, deals: Sequence[Sequence[ArenaHand]], bots: Sequence[BotSpec]
) -> int:
    """Write each kept hand as ``deal-NNNN-ORDER.botzone.json`` (the Botzone match log) and
    ``deal-NNNN-ORDER.jsonl`` (guobiao's replay log), and ``deal-NNNN-ORDER.stderr.txt`` when an
    external bot wrote on its standard error (the end of it, seat by seat); returns the number
    of hands written.
    All or nothing: stopped midway (a full disk, Ctrl-C), the files this call wrote are removed,
    so that the folder holds the logs of whole deals only, those a run counted."""
    from guobiao.table.replay import hand_lines, write_log

    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    count = 0
    try:
        for hands in deals:
            for hand in hands:
                if hand.record is None or hand.match_log is None:
                    continue
                stem = f"deal-{hand.deal:04d}-{''.join(str(b) for b in hand.order)}"
                match_path, log_path = (
                    directory / f"{stem}.botzone.json",
                    directory / f"{stem}.jsonl",
                )
                written += (match_path, log_path)  # named first: removed if stopped while writing
                _write_text(match_path, json.dumps(hand.match_log, ensure_ascii=False) + "\n")
                players = [f"{'ABCD'[b]}:{bots[b].label}" for b in hand.order]
                write_log(log_path, hand_lines(hand.record, players))
                if hand.stderr is not None:
                    stderr_path = directory / f"{stem}.stderr.txt"
                    written.append(stderr_path)
                    _write_text(stderr_path, _stderr_text(hand.stderr, players))
                count += 1
    except BaseException:
        for path in written:
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    return count


def _stderr_text(stderr: Sequence[str], players: Sequence[str]) -> str:
    """The hand's standard errors, one section a seat that wrote any."""
    return "".join(
        f"== {'ESWN'[seat]} {players[seat]} ==\n{text.rstrip()}\n"
        for seat, text in enumerate(stderr)
        if text
    )


def _write_text(path: Path, text: str) -> None:
    """Write ``path`` atomically, as ``write_log`` does: a temporary file renamed into place,
    removed if the writing stops midway."""
    temporary = path.with_suffix(path.suffix + ".tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
