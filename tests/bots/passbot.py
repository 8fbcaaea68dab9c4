#!/usr/bin/env python3
"""A minimal Botzone bot for the arena tests, in plain Python (no guobiao import).

It answers PASS to every request and, after its own draw (``2 T``), discards the drawn tile.
It reads Botzone's JSON input (one line, the whole history), the simple input (a turn count
``n`` and 2n-1 lines) and, with ``--keep-running``, one plain request line per later turn.

Misbehaving for the tests: ``--misbehave KIND`` at its ``--at``-th own draw (default 1):
``sleep`` (sleeps past any limit, with a child process that sleeps too), ``crash`` (exits 3),
``garbage`` (prints a line that is no answer), ``illegal`` (answers CHI after a draw), ``hu`` (a
wrong HU), ``silent`` (closes its output and exits 0).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep-running", action="store_true")
    parser.add_argument("--misbehave", default=None)
    parser.add_argument("--at", type=int, default=1)
    args = parser.parse_args()
    first = sys.stdin.readline()
    if not first:
        return 0
    text = first.strip()
    json_mode = text.startswith("{")
    if json_mode:
        requests = json.loads(text)["requests"]
    else:
        lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * int(text) - 1)]
        requests = lines[0::2]
    draws = sum(1 for r in requests if r.startswith("2 "))
    while True:
        request = requests[-1]
        answer = "PASS"
        if request.startswith("2 "):
            answer = "PLAY " + request.split()[1]
            if args.misbehave and draws == args.at:
                kind = args.misbehave
                if kind == "sleep":
                    subprocess.Popen(["sleep", "1000"])
                    time.sleep(1000)
                elif kind == "crash":
                    return 3
                elif kind == "silent":
                    sys.stdout.close()
                    return 0
                elif kind == "garbage":
                    answer = "garbage! {"
                elif kind == "illegal":
                    answer = "CHI B5 B5"
                elif kind == "hu":
                    answer = "HU"
        if json_mode:
            print(json.dumps({"response": answer}), flush=True)
        else:
            print(answer, flush=True)
        if not args.keep_running or json_mode:
            return 0
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return 0
        requests.append(line.strip())
        if line.startswith("2 "):
            draws += 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
