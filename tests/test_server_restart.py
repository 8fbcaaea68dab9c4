"""A real server (``guobiao serve`` under uvicorn, a subprocess) killed with SIGKILL mid-hand and
started again on the same data directory resumes the table where it stood."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
from websockets.sync.client import ClientConnection, connect

Message = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


LONG = {
    "bot-delay": 0,
    "turn": 600,
    "first-discard": 600,
    "claim": 0.3,  # every discard opens the window (第七条六): short, as players here answer at once
    "grace": 600,
    "between-hands": 600,
}


@contextmanager
def server(
    data: Path, port: int, db: str | None = None, **limits: float
) -> Iterator[subprocess.Popen[bytes]]:
    """``guobiao serve`` in a subprocess on ``port``; ``limits`` override LONG (``bot_delay=0.1``);
    ``db``: the tournament database URL (default: a fresh one in ``data``)."""
    options = {**LONG, **{k.replace("_", "-"): v for k, v in limits.items()}}
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
        db or f"sqlite:///{data / 'guobiao.db'}",
    ]
    for name, value in options.items():
        args += [f"--{name}", str(value)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # (a loaded machine has taken over 30 s to start one)
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    # stopped first: reading the standard error of a live server waited for ever
                    proc.kill()
                    proc.wait(10)
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise AssertionError(f"the server did not start: {err}") from None
                time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def post(port: int, path: str, body: Message) -> Message:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: Message = json.loads(response.read())
        return data


def next_turn(ws: ClientConnection, answered: set[tuple[Any, Any]]) -> Message:
    """The next state in which this seat must act and has not answered yet."""
    for _ in range(5000):
        msg: Message = json.loads(ws.recv(timeout=20))
        assert msg["type"] != "error", msg
        key = (msg.get("hand_number"), msg.get("decision"))
        if msg["type"] == "state" and msg["must_act"] and key not in answered:
            return msg
    raise AssertionError("no turn came")


def test_a_killed_server_resumes_every_table(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    rng = random.Random(4)
    answered: set[tuple[Any, Any]] = set()
    with server(data, port) as proc:
        made = post(
            port,
            "/api/rooms",
            {"player": "me", "practice": True, "seed": 12, "bot_kind": "efficiency"},
        )
        post(
            port,
            f"/api/rooms/{made['id']}/start",
            {"owner_token": made["owner_token"], "fill": True},
        )
        url = f"ws://127.0.0.1:{port}/ws/rooms/{made['id']}?token={made['token']}"
        with connect(url) as ws:
            for _ in range(5):
                state = next_turn(ws, answered)
                answered.add((state["hand_number"], state["decision"]))
                legal = [a for a in state["view"]["legal_actions"] if a != "win"]
                ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
            # stop on a turn of this seat's own (nothing else is pending: the table waits)
            while True:
                state = next_turn(ws, answered)
                if state["view"]["phase"] == "act":
                    break
                answered.add((state["hand_number"], state["decision"]))
                ws.send(json.dumps({"type": "action", "action": "pass"}))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
    assert state["view"]["discards"] != [[], [], [], []]

    with server(data, port), connect(url) as ws:
        welcome = json.loads(ws.recv(timeout=20))
        assert welcome["type"] == "welcome" and welcome["you"] == 0
        again: Message = json.loads(ws.recv(timeout=20))
        assert again["type"] == "state"
        assert again["view"] == state["view"]
        assert again["seat"] == state["seat"]
        assert again["hand_number"] == state["hand_number"]
        assert again["scores"] == state["scores"]
        assert again["must_act"]
        # and the game goes on from there
        action = again["view"]["legal_actions"][-1]
        ws.send(json.dumps({"type": "action", "action": action}))
        for _ in range(100):
            msg = json.loads(ws.recv(timeout=20))
            assert msg["type"] != "error", msg
            if msg["type"] == "event":
                assert msg == {"type": "event", "seat": state["seat"], "action": action}
                break
        else:
            raise AssertionError("the action after the restart was not played")
