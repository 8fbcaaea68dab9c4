"""Load test of ``guobiao serve``: many tables of WebSocket clients playing at once.

    python benchmarks/load.py [--tables 50] [--duration 180] [--think 0.1 0.5] [--json]

Starts ``guobiao serve`` in a subprocess on a free loopback port (fresh data directory and
tournament database), creates ``--tables`` rooms and seats four *remote* players in each: every
player is a WebSocket client of this process that reads the ``state`` messages it receives and,
when ``must_act`` is set for a new ``decision``, waits a random think time (``--think LOW HIGH``
seconds: people, not bots, so the per-connection flood limit of 20 messages/s is respected) and
sends one of the ``legal_actions`` of its view at random (``win`` whenever offered, so hands also
end by wins). Each table also has one spectator socket (watch token), so every change is sent
to five sockets. When a table's 16-hand session ends, a new room takes its place. No server-side
bots play: every action crosses a socket.

Measured, for ``--duration`` seconds: the latency of every action (from sending it to receiving
the next ``state`` message on that socket: the server validated it, applied it, saved the room
and published the new views), as p50/p95/p99/max, after ``--warmup`` seconds (5: the burst of
creating every room and dealing every first hand at once) and over every action; actions and messages per second; hands played;
and errors: any ``error`` message but ``stale``, refused HTTP request, socket closed by the server
or client exception. A healthy run has zero errors. Each action carries the ``decision`` it
answers: one that arrives after its claim window closed (a loaded machine) is refused ``stale``
and counted as such (``stale``), and the player answers the state that follows. The server's
stderr is kept in the report on failure.

The soak test (docs/web.md, Soak test) is the same run, long, with rooms coming and going:

    python benchmarks/load.py --tables 30 --duration 600 --churn 120

``--churn S``: each table leaves its room after a random 0.5-1.5 × S seconds (every socket closed,
the session unfinished) and opens a new one, so abandoned rooms pile up unless the server closes
them (``--idle-close``, 30 s here). The server's resident memory is sampled every
``--sample-every`` seconds; the report gives the samples and the least-squares slope after
``--memory-warmup`` seconds (default: a fifth of the run, at least 60 s), in MiB per minute and as
a share of the memory at that point per 10 minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

SERVER_LIMITS = {
    "turn": 600,
    "first-discard": 600,
    "claim": 1.0,  # the window after every discard: longer than the longest think time
    "grace": 600,
    "bot-delay": 0,
    "between-hands": 0.5,
    "idle-close": 30,  # abandoned rooms (--churn) leave memory after this
    # every table's clients come from an address of their own (X-Forwarded-For, believed from
    # loopback only), as people at different tables would: the per-address limits apply to each
    "trusted-proxy": "127.0.0.1",
}


def address(table: int) -> dict[str, str]:
    """The X-Forwarded-For header of table ``table``'s clients."""
    return {"X-Forwarded-For": f"10.{table // 65536 % 256}.{table // 256 % 256}.{table % 256}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Stats:
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (when, seconds)
    errors: list[str] = field(default_factory=list)
    messages: int = 0
    actions: int = 0
    hands: int = 0
    sessions: int = 0
    rooms: int = 0
    abandoned: int = 0
    stale: int = 0  # answers that came after their decision closed: refused, as for any slow client
    memory: list[tuple[float, float]] = field(default_factory=list)  # (when, MiB resident)

    def error(self, text: str) -> None:
        if len(self.errors) < 50:
            self.errors.append(text)
        else:
            self.errors[-1] = f"... and more ({text})"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def summary(ms: list[float]) -> dict[str, float]:
    return {
        "count": len(ms),
        "p50": round(percentile(ms, 50), 2),
        "p95": round(percentile(ms, 95), 2),
        "p99": round(percentile(ms, 99), 2),
        "max": round(max(ms), 2) if ms else float("nan"),
        "mean": round(statistics.fmean(ms), 2) if ms else float("nan"),
    }


class Server:
    """``guobiao serve`` in a subprocess on loopback."""

    def __init__(self, data: Path, port: int) -> None:
        self.port = port
        args = [
            sys.executable,
            "-c",
            "from guobiao.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--data",
            str(data),
            "--db",
            f"sqlite:///{data / 'guobiao.db'}",
        ]
        for name, value in SERVER_LIMITS.items():
            args += [f"--{name}", str(value)]
        self.log = (data / "server.log").open("wb")
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.url("/api/rooms"), timeout=1).read()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the server did not start: {self.stderr()}") from None
                time.sleep(0.1)

    def url(self, path: str, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def stderr(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def rss_mib(self) -> float | None:
        """The server's resident memory (Linux ``/proc``), or None where it cannot be read."""
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return None
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


def post(
    server: Server, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url(path),
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


@dataclass(frozen=True)
class Room:
    id: str
    owner: str
    tokens: list[str]  # the four places' seat tokens
    watch: str


async def new_room(server: Server, table: int) -> Room:
    """A room with four remote players seated (not started)."""
    made = await asyncio.to_thread(
        post,
        server,
        "/api/rooms",
        {"name": f"load {table}", "player": f"T{table}A"},
        address(table),
    )
    tokens = [made["token"]]
    for place in "BCD":
        joined = await asyncio.to_thread(
            post,
            server,
            f"/api/rooms/{made['id']}/join",
            {"name": f"T{table}{place}", "invite": made["invite"]},
            address(table),
        )
        tokens.append(joined["token"])
    return Room(made["id"], made["owner_token"], tokens, made["watch_token"])


async def start(server: Server, room: str, owner: str) -> None:
    await asyncio.to_thread(post, server, f"/api/rooms/{room}/start", {"owner_token": owner})


class Player:
    def __init__(self, stats: Stats, rng: random.Random, think: tuple[float, float]) -> None:
        self.stats = stats
        self.rng = rng
        self.think = think
        self.answered = -1
        self.sent_at: float | None = None
        self.pending: asyncio.Task[None] | None = None

    async def act(self, ws: ClientConnection, decision: int, legal: list[str]) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        action = "win" if "win" in legal else self.rng.choice(legal)
        self.sent_at = time.perf_counter()
        self.stats.actions += 1
        try:
            # the decision answered, as the pages send it: an answer that arrives after the
            # table moved on (a claim window closed) is refused as stale, never misapplied
            message = {"type": "action", "action": action, "decision": decision}
            await ws.send(json.dumps(message))
        except ConnectionClosed:  # the table left the room (--churn) or the run stopped
            self.sent_at = None

    async def play(
        self, ws: ClientConnection, stop: asyncio.Event, session_over: asyncio.Event
    ) -> None:
        async for raw in ws:
            self.stats.messages += 1
            message = json.loads(raw)
            kind = message["type"]
            if kind == "error" and message.get("code") == "stale":
                self.stats.stale += 1  # the state now follows; it is answered as any other
                self.sent_at = None
            elif kind == "error":
                self.stats.error(f"error message: {message}")
            elif kind == "state":
                if self.sent_at is not None:
                    now = time.perf_counter()
                    self.stats.latencies.append((now, now - self.sent_at))
                    self.sent_at = None
                decision = message.get("decision", -1)
                if (
                    message.get("must_act")
                    and decision != self.answered
                    and not stop.is_set()
                    and (self.pending is None or self.pending.done())
                ):
                    self.answered = decision
                    legal = message["view"]["legal_actions"]
                    self.pending = asyncio.get_running_loop().create_task(
                        self.act(ws, decision, legal)
                    )
            elif kind == "session_end":
                session_over.set()
                return
            if stop.is_set() and self.sent_at is None:
                return


async def spectate(ws: ClientConnection, stats: Stats, counts_hands: bool) -> None:
    async for raw in ws:
        stats.messages += 1
        message = json.loads(raw)
        if message["type"] == "error":
            stats.error(f"spectator error: {message}")
        elif message["type"] == "hand_end" and counts_hands:
            stats.hands += 1
        elif message["type"] == "session_end":
            return


async def table(
    server: Server,
    number: int,
    stats: Stats,
    stop: asyncio.Event,
    think: tuple[float, float],
    churn: float = 0.0,
) -> None:
    rng = random.Random(number)
    while not stop.is_set():
        try:
            room = await new_room(server, number)
        except Exception as err:  # an HTTP refusal is an error of the run
            stats.error(f"table {number}: cannot create a room: {err!r}")
            return
        stats.rooms += 1
        session_over = asyncio.Event()
        sockets: list[ClientConnection] = []
        try:
            for token in [*room.tokens, room.watch]:
                sockets.append(
                    await connect(
                        server.url(f"/ws/rooms/{room.id}?token={token}", "ws"),
                        max_size=2**22,
                        additional_headers=address(number),
                    )
                )
            await start(server, room.id, room.owner)
            players = [Player(stats, rng, think) for _ in range(4)]
            tasks = [
                asyncio.create_task(p.play(ws, stop, session_over))
                for p, ws in zip(players, sockets, strict=False)
            ]
            tasks.append(asyncio.create_task(spectate(sockets[4], stats, True)))
            stopper = asyncio.create_task(stop.wait())
            ender = asyncio.create_task(session_over.wait())
            waits = [stopper, ender]
            if churn > 0:  # leave the room midway, as people do
                waits.append(asyncio.create_task(asyncio.sleep(rng.uniform(0.5, 1.5) * churn)))
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if session_over.is_set():
                stats.sessions += 1
            elif not stop.is_set():
                stats.abandoned += 1
            await asyncio.sleep(0.5)  # let answers in flight come back
            pending = [p.pending for p in players if p.pending is not None]
            for task in [*tasks, *waits, *pending]:
                task.cancel()
            for task in tasks:
                try:
                    await task
                except (asyncio.CancelledError, ConnectionClosed):
                    pass
                except Exception as err:
                    stats.error(f"table {number}: {err!r}")
        except ConnectionClosed as err:
            if not stop.is_set():
                stats.error(f"table {number}: socket closed by the server: {err!r}")
        except Exception as err:
            stats.error(f"table {number}: {err!r}")
        finally:
            for ws in sockets:
                await ws.close()


async def sample_memory(server: Server, stats: Stats, every: float) -> None:
    began = time.perf_counter()
    while True:
        rss = server.rss_mib()
        if rss is not None:
            stats.memory.append((time.perf_counter() - began, rss))
        await asyncio.sleep(every)


async def run(
    server: Server,
    tables: int,
    duration: float,
    think: tuple[float, float],
    churn: float = 0.0,
    sample_every: float = 5.0,
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_memory(server, stats, sample_every))
    tasks = [
        asyncio.create_task(table(server, n + 1, stats, stop, think, churn)) for n in range(tables)
    ]
    await asyncio.sleep(duration)
    sampler.cancel()
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=60)
    return stats


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of ``(x, y)`` points (0 for fewer than two)."""
    if len(points) < 2:
        return 0.0
    mean_x = statistics.fmean(x for x, _ in points)
    mean_y = statistics.fmean(y for _, y in points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def memory_report(samples: list[tuple[float, float]], warmup: float) -> dict[str, Any]:
    """The memory samples and their trend after ``warmup`` seconds."""
    after = [(t, m) for t, m in samples if t >= warmup]
    per_s = slope(after)
    at_warm = after[0][1] if after else float("nan")
    return {
        "warmup_s": warmup,
        "start_mib": round(samples[0][1], 1) if samples else None,
        "warm_mib": round(at_warm, 1) if after else None,
        "end_mib": round(samples[-1][1], 1) if samples else None,
        "max_mib": round(max(m for _, m in samples), 1) if samples else None,
        "slope_mib_per_min": round(per_s * 60, 3),
        "slope_pct_per_10min": round(100 * per_s * 600 / at_warm, 2) if after else None,
        "samples": [[round(t, 1), round(m, 1)] for t, m in samples],
    }


def run_load(
    tables: int = 50,
    duration: float = 180.0,
    think: tuple[float, float] = (0.1, 0.5),
    warmup: float = 5.0,
    churn: float = 0.0,
    memory_warmup: float | None = None,
    sample_every: float = 5.0,
) -> dict[str, Any]:
    """Start a server, play for ``duration`` seconds, stop it; the report as a dict. The
    latency percentiles leave out the first ``warmup`` seconds (50 rooms created, 250 sockets
    connected and 50 first deals at once); ``latency_all_ms`` has every action. ``churn``:
    tables leave their rooms after about that many seconds; ``memory``: the server's resident
    memory, sampled every ``sample_every`` seconds, and its slope after ``memory_warmup``."""
    if memory_warmup is None:
        memory_warmup = max(60.0, duration / 5) if duration >= 120 else duration / 4
    with tempfile.TemporaryDirectory(prefix="guobiao-load-") as tmp:
        server = Server(Path(tmp), free_port())
        began = time.perf_counter()
        try:
            stats = asyncio.run(run(server, tables, duration, think, churn, sample_every))
        finally:
            elapsed = time.perf_counter() - began
            server.stop()
            log = Path(tmp, "server.log").read_text(errors="replace")
        alive = server.proc.returncode in (0, -15)
        if not alive:
            stats.error(f"the server exited with {server.proc.returncode}")
        if "Traceback" in log:
            stats.error("server log: " + log[-2000:])
    first = min((t for t, _ in stats.latencies), default=0.0)
    ms = [1000 * x for t, x in stats.latencies if t - first >= warmup]
    every = [1000 * x for _, x in stats.latencies]
    return {
        "tables": tables,
        "sockets": tables * 5,
        "duration_s": round(elapsed, 1),
        "think_s": list(think),
        "rooms": stats.rooms,
        "abandoned": stats.abandoned,
        "hands": stats.hands,
        "sessions": stats.sessions,
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "stale": stats.stale,
        "messages": stats.messages,
        "messages_per_s": round(stats.messages / elapsed, 1),
        "warmup_s": warmup,
        "latency_ms": summary(ms),
        "latency_all_ms": summary(every),
        "memory": memory_report(stats.memory, memory_warmup),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "errors": len(stats.errors),
        "error_samples": stats.errors[:10],
        "cpu": os.cpu_count(),
        "python": sys.version.split()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of play")
    parser.add_argument("--think", type=float, nargs=2, default=(0.1, 0.5), metavar=("LOW", "HIGH"))
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds left out of the percentiles"
    )
    parser.add_argument(
        "--churn", type=float, default=0.0, help="seconds after which tables leave their rooms"
    )
    parser.add_argument(
        "--memory-warmup", type=float, default=None, help="seconds left out of the memory slope"
    )
    parser.add_argument("--sample-every", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    args = parser.parse_args()
    report = run_load(
        args.tables,
        args.duration,
        (args.think[0], args.think[1]),
        args.warmup,
        args.churn,
        args.memory_warmup,
        args.sample_every,
    )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        lat = report["latency_ms"]
        print(
            f"{report['tables']} tables ({report['sockets']} sockets), "
            f"{report['duration_s']} s, think {args.think[0]}-{args.think[1]} s: "
            f"{report['actions']} actions ({report['actions_per_s']}/s), "
            f"{report['messages']} messages received ({report['messages_per_s']}/s), "
            f"{report['hands']} hands"
        )
        every = report["latency_all_ms"]
        print(
            f"latency send → next state, after {args.warmup} s: p50 {lat['p50']} ms, "
            f"p95 {lat['p95']} ms, p99 {lat['p99']} ms, max {lat['max']} ms"
        )
        print(
            f"latency, every action: p50 {every['p50']} ms, p95 {every['p95']} ms, "
            f"p99 {every['p99']} ms, max {every['max']} ms"
        )
        mem = report["memory"]
        print(
            f"server memory: {mem['start_mib']} MiB at start, {mem['warm_mib']} MiB after "
            f"{mem['warmup_s']:.0f} s, {mem['end_mib']} MiB at the end (max {mem['max_mib']}); "
            f"slope after warm-up {mem['slope_mib_per_min']} MiB/min "
            f"({mem['slope_pct_per_10min']}% per 10 min); "
            f"{report['rooms']} rooms, {report['abandoned']} abandoned, "
            f"{report['sessions']} sessions finished; load average {report['load_average']}"
        )
        print(f"answers refused as late (stale): {report['stale']}; errors: {report['errors']}")
        for sample in report["error_samples"]:
            print("  ", sample)
    sys.exit(1 if report["errors"] else 0)


if __name__ == "__main__":
    main()
