"""A second researcher's day (after tests/test_researcher_audit.py): the long runs of `guobiao
simulate` and `guobiao arena` as docs/distributed.md and docs/arena.md describe them, stopped with
Ctrl-C in local worker processes, run with a huge -n, seeded with a negative seed, and judged with
a bot program of one's own that crashes, hangs or prints garbage.

- Ctrl-C with --workers: the workers took the terminal's SIGINT themselves, each reported it as
  its job's failure and took the next job of its queue; the command waited for those jobs to end
  (a hanging bot program: its whole --time-limit per request), and a second Ctrl-C printed the
  workers' tracebacks and left the command hanging. A failed job, or a loop left early, waited
  for the running jobs the same way.
- A huge -n (or --deals) built the list of every job before the first one ran: -n 10**8 held
  1.2 GB and had not started after 20 s; -n 10**12 ran out of memory. On Ray every job was
  submitted at once.
- A negative seed repeated another run: Python's random takes -5 as 5.
- A bot that forfeited said only how many hands, never why (time-out, crash, illegal answer).
- Stopped while writing (Ctrl-C, a full disk), a log left its temporary file, and an arena deal
  part of its hands' logs, though the results counted none of them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from guobiao.jobs.workers import WINDOW, iter_jobs

ROOT = Path(__file__).resolve().parents[1]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie has ended
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return True


def _wait_for(condition: Any, what: str, limit: float = 120.0) -> None:
    """Poll ``condition`` until it holds (a guard against a hang, not a measure of time)."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


def _guobiao(*words: str, **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "guobiao", *words],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        # and Ctrl-C heeded, as at a terminal: a job started in the background of a
        # non-interactive shell (a CI runner's) inherits SIGINT ignored, and Python keeps it so
        preexec_fn=_heed_ctrl_c,
        **kwargs,
    )


def _heed_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


# -- Ctrl-C with local worker processes --------------------------------------------------------


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_ctrl_c_with_workers_stops_at_once_and_kills_the_bot_programs(
    tmp_path: Path, how: str
) -> None:
    """A terminal's Ctrl-C is SIGINT to the whole process group: the command and its workers.
    The workers used to take it as their job's failure and run the next job of their queue, and
    the command waited for it: here a program that never answers, under a 600 s time limit.
    SIGTERM to the command alone (a batch system's time limit) ended it on the spot, with no
    results, its workers playing on and its bot programs left running: it stops as Ctrl-C does
    (exit code 143)."""
    pids = tmp_path / "pids"
    pids.mkdir()
    bot = tmp_path / "silent.py"
    bot.write_text(
        f"#!{sys.executable}\n"
        + textwrap.dedent(
            """\
            import os, sys, time
            from pathlib import Path
            Path(sys.argv[1], str(os.getpid())).write_text("")
            sys.stdin.readline()
            time.sleep(3600)
            """
        )
    )
    bot.chmod(0o755)
    proc = _guobiao(
        "arena",
        "--bots",
        f"fan,fan,fan,cmd:{bot} {pids}",
        "--deals",
        "6",
        "--seed",
        "1",
        "--workers",
        "2",
        "--time-limit",
        "600",
        cwd=tmp_path,
    )
    started: list[int] = []
    try:
        _wait_for(lambda: len(list(pids.iterdir())) >= 2, "both workers asking their bot")
        started = [int(p.name) for p in pids.iterdir()]
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C at the terminal sends
        else:
            os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=90)
    finally:
        _kill_group(proc)
        for pid in [int(p.name) for p in pids.iterdir()]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    if how == "ctrl-c":
        assert proc.returncode == 130, err
        assert "interrupted (Ctrl-C) before the first deal ended" in err
    else:
        assert proc.returncode == 143, err
        assert "interrupted (SIGTERM) before the first deal ended" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    # no job after the Ctrl-C: only the two bots of the two running deals were ever started
    assert sorted(int(p.name) for p in pids.iterdir()) == sorted(started)
    _wait_for(lambda: not any(_alive(pid) for pid in started), "the bot programs killed", 30)


def test_sigterm_keeps_the_summary_and_the_logs_of_the_sessions_played(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    proc = _guobiao(
        "simulate", "-n", "100000", "--hands", "1", "--seed", "2", "--workers", "2",
        "--log-dir", str(logs), "--json",
    )  # fmt: skip
    try:
        _wait_for(lambda: logs.is_dir() and any(logs.glob("session-*.jsonl")), "a first log")
        os.kill(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=90)
    finally:
        _kill_group(proc)
    assert proc.returncode == 143, err
    summary = json.loads(out)
    assert summary["interrupted"] and summary["sessions_asked"] == 100000
    played = summary["sessions"]
    assert played >= 1 and "Traceback" not in err
    # the logs are those of the sessions counted, 1 to N, each whole
    assert sorted(p.name for p in logs.iterdir()) == [
        f"session-{n:04d}.jsonl" for n in range(1, played + 1)
    ]
    replayed = CliRunner().invoke(main, ["replay", "--quiet", *map(str, logs.iterdir())])
    assert replayed.exit_code == 0, replayed.output


_STOPPED_EARLY = """\
import os, sys, time
from pathlib import Path

from guobiao.jobs.workers import WorkerError, iter_jobs, run_jobs

FOLDER = Path(sys.argv[1])


def job(n: int) -> int:
    if n == 0:
        return 0
    if n == 1:
        raise ValueError("job 2 fails")
    (FOLDER / f"running-{n}").write_text(str(os.getpid()))
    try:
        while True:
            time.sleep(0.05)
    finally:  # a job's own clean-up (an arena deal kills its bot programs here)
        (FOLDER / f"unwound-{n}").write_text("")


def wait_running(count):
    while len(list(FOLDER.glob("running-*"))) < count:
        time.sleep(0.05)


if __name__ == "__main__":
    results = iter_jobs(job, [0, 2, 3, 4], workers=2)
    assert next(results) == 0
    wait_running(2)
    results.close()  # the caller leaves its loop
    print("left", sorted(p.name for p in FOLDER.glob("unwound-*")), flush=True)
    for p in FOLDER.glob("*"):
        p.unlink()
    try:
        run_jobs(job, [0, 1, 2, 3, 4, 5], workers=2)
    except WorkerError as err:
        print("failed", err, flush=True)
"""


def test_a_run_stopped_early_or_failed_stops_its_workers_at_once(tmp_path: Path) -> None:
    """``iter_jobs`` left early, or a job that fails, used to wait for the jobs still running in
    the workers (here forever); they are stopped, their clean-up run, and the call returns."""
    script = tmp_path / "stopped.py"
    script.write_text(_STOPPED_EARLY)
    folder = tmp_path / "marks"
    folder.mkdir()
    proc = subprocess.Popen(
        [sys.executable, str(script), str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        _kill_group(proc)
    assert proc.returncode == 0, err
    assert "left ['unwound-2', 'unwound-3']" in out
    assert "failed job 2 failed in a worker: ValueError('job 2 fails')" in out
    assert "Traceback" not in err


# -- a huge run starts at once ------------------------------------------------------------------


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Count the jobs ``module.name`` makes; return the counts seen when each job is played."""
    made = [0]
    original = getattr(module, name)

    def make(*args: Any, **kwargs: Any) -> Any:
        made[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, make)
    return made


def test_simulate_with_a_huge_n_plays_before_making_every_job(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """-n 10**8 held 1.2 GB and had not played a session after 20 s: the jobs were a list."""
    import guobiao.jobs.simulation as simulation

    made = _counting(monkeypatch, simulation, "SessionJob")
    seen: list[int] = []
    play = simulation.play_job

    def play_and_stop(job: Any) -> Any:
        seen.append(made[0])
        if len(seen) == 2:
            raise KeyboardInterrupt  # Ctrl-C during the second session
        return play(job)

    monkeypatch.setattr(simulation, "play_job", play_and_stop)
    result = CliRunner().invoke(
        main, ["simulate", "-n", "100000", "--hands", "1", "--seed", "3", "--json"]
    )
    assert result.exit_code == 130, result.output
    assert seen == [1, 2]  # each job made as it is played
    out = json.loads(result.output)
    assert out["sessions"] == 1 and out["interrupted"] and out["sessions_asked"] == 100000


def test_arena_with_huge_deals_plays_before_making_every_job(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import guobiao.botzone.arena as arena

    made = _counting(monkeypatch, arena, "ArenaJob")
    seen: list[int] = []
    play = arena.play_job

    def play_and_stop(job: Any) -> Any:
        seen.append(made[0])
        if len(seen) == 3:
            raise KeyboardInterrupt
        return play(job)

    monkeypatch.setattr(arena, "play_job", play_and_stop)
    words = ["arena", "--bots", "random,random,random,random", "--deals", "100000"]
    result = CliRunner().invoke(main, [*words, "--seed", "2", "--json"])
    assert result.exit_code == 130, result.output
    assert seen == [1, 2, 3]
    out = json.loads(result.output)
    assert out["deals"] == 2 and out["interrupted"] and out["deals_asked"] == 100000


def _drawn(count: int, log: list[int]) -> Iterator[int]:
    for n in range(count):
        log.append(n)
        yield n


@pytest.mark.parametrize("ray_address", [None, "local"], ids=["processes", "ray"])
def test_jobs_may_be_a_generator_read_as_handed_out(ray_address: str | None) -> None:
    """The jobs had to be a list (``len``, indexing); on Ray every one was submitted at once."""
    if ray_address is not None:
        pytest.importorskip("ray")
    drawn: list[int] = []
    # a function of the standard library: Ray's workers import it (not this test module)
    results = iter_jobs(json.dumps, _drawn(200, drawn), workers=2, ray_address=ray_address)
    first = next(results)
    ahead = len(drawn)
    rest = list(results)
    assert [first, *rest] == [str(n) for n in range(200)]
    # what was read before the first result: a window, whatever the cluster's size here
    cpus = os.cpu_count() or 1
    assert ahead <= WINDOW * max(2, cpus if ray_address else 2)


# -- seeds ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words",
    [
        ["simulate", "-n", "1", "--hands", "1"],
        ["arena", "--bots", "random,random,random,random", "--deals", "1"],
        ["botzone-bot"],
    ],
    ids=["simulate", "arena", "botzone-bot"],
)
def test_a_negative_seed_is_refused_not_the_run_of_its_opposite(words: list[str]) -> None:
    """``--seed -5`` ran exactly the run of ``--seed 5`` (random.Random(-5) is Random(5)): a
    researcher's seeds -2..2 were three runs, not five."""
    runner = CliRunner()
    refused = runner.invoke(main, [*words, "--seed", "-5"], input="")
    assert refused.exit_code == 2
    assert "-5 is negative: seeds are 0 or more" in refused.output
    assert "Traceback" not in refused.output
    if words[0] != "botzone-bot":
        taken = runner.invoke(main, [*words, "--seed", "5", "--json"])
        assert taken.exit_code == 0 and json.loads(taken.output)["seed"] == 5


def test_play_and_the_tournament_draws_refuse_a_negative_seed_too(tmp_path: Path) -> None:
    """``guobiao play --seed -7`` dealt seed 7's hands and ``tournament draw --seed -3`` drew seed
    3's seating (random.Random takes the absolute value): refused as the other commands do."""
    from tournament_cli import TournamentCli

    runner = CliRunner()
    played = runner.invoke(main, ["play", "--hands", "1", "--seed", "-7"], input="q\n")
    assert played.exit_code == 2 and "-7 is negative: seeds are 0 or more" in played.output
    cli = TournamentCli(f"sqlite:///{tmp_path / 'club.db'}")
    cli.ok("create", "Club", "--sessions", "1")
    players = tmp_path / "players.csv"
    players.write_text("number,name\n" + "".join(f"{n},P{n}\n" for n in range(1, 5)))
    cli.ok("players", "Club", str(players))
    drawn = cli("draw", "Club", "--seed", "-3")
    assert drawn.exit_code == 2 and "-3 is negative: seeds are 0 or more" in drawn.output
    assert "Traceback" not in drawn.output
    cli.ok("draw", "Club", "--seed", "3")


# -- a bot of one's own that forfeits: why -------------------------------------------------------


def _program(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return path


def test_the_arena_says_why_each_bot_forfeited(tmp_path: Path) -> None:
    crash = _program(tmp_path, "crash.py", "raise SystemExit('boom')\n")
    garbage = _program(tmp_path, "garbage.py", "print('HELLO')\n")
    words = ["arena", "--bots", f"fan,fan,json:{crash},simple:{garbage}", "--deals", "2"]
    words += ["--seed", "1", "--duplicate", "--rotations"]
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 0, result.output
    assert "C forfeited 6 hands: 6 crash" in result.output
    assert "D forfeited 2 hands: 2 illegal action" in result.output
    assert "crash: the program ended, printed nothing" in " ".join(result.output.split())
    # and --help says how to write one's own bot, and that forfeits are explained
    helped = " ".join(CliRunner().invoke(main, ["arena", "--help"]).output.split())
    assert '{"requests": [every request so far], "responses": [its earlier answers]}' in helped
    assert "When a bot forfeits, a line under the results says why" in helped
    data = CliRunner().invoke(main, [*words, "--json"])
    bots = json.loads(data.output)["bots"]
    assert [b["forfeit_reasons"] for b in bots] == [
        {},
        {},
        {"crash": 6},
        {"illegal action": 2},
    ]
    assert [b["forfeits"] for b in bots] == [0, 0, 6, 2]  # the first foul in seat order


def test_a_crashing_bot_says_why_its_standard_error_is_kept(tmp_path: Path) -> None:
    """An external bot's standard error went to /dev/null: a researcher whose bot crashed saw
    "6 crash" and nothing of the traceback. Its end is now kept: the last line under the
    forfeit, the last 4 KiB a hand beside the logs."""
    crash = _program(
        tmp_path,
        "crash.py",
        """
        import sys
        print("reading the request", file=sys.stderr)
        sys.stdin.readline()
        1 / 0
        """,
    )
    logs = tmp_path / "logs"
    words = ["arena", "--bots", f"fan,fan,fan,json:{crash}", "--deals", "1", "--seed", "1"]
    result = CliRunner().invoke(main, [*words, "--log-dir", str(logs)])
    assert result.exit_code == 0, result.output
    assert "D forfeited 1 hand: 1 crash" in result.output
    assert "its standard error ended: ZeroDivisionError: division by zero" in result.output
    (kept,) = logs.glob("deal-0001-*.stderr.txt")
    text = kept.read_text()
    assert text.startswith("== N D:json:") and "reading the request" in text
    assert "Traceback (most recent call last)" in text and "1 / 0" in text
    assert len(list(logs.glob("deal-0001-*"))) == 3  # with the two logs of the hand
    bots = json.loads(CliRunner().invoke(main, [*words, "--json"]).output)["bots"]
    assert bots[3]["last_words"] == "ZeroDivisionError: division by zero"
    assert bots[0]["last_words"] is None
    # a folder holding them is a run's: refused, and emptied with --overwrite
    again = CliRunner().invoke(main, [*words, "--log-dir", str(logs)])
    assert again.exit_code == 2
    CliRunner().invoke(
        main,
        [
            "arena",
            "--bots",
            "fan,fan,fan,fan",
            "--deals",
            "1",
            "--log-dir",
            str(logs),
            "--overwrite",
        ],
    )
    assert not list(logs.glob("*.stderr.txt"))


def test_a_bot_writing_without_end_on_standard_error_fills_no_disk(tmp_path: Path) -> None:
    from guobiao.botzone.arena import STDERR_KEPT, ExternalPlayer

    chatty = _program(
        tmp_path,
        "chatty.py",
        """
        import sys
        n = int(sys.stdin.readline())  # the first turn as simple: (the history), then a line each
        for _ in range(2 * n - 1):
            sys.stdin.readline()
        for turn in range(1, 100):
            sys.stderr.write(("x" * 1023 + "\\n") * 1536)  # 1.5 MiB an answer
            sys.stderr.write(f"turn {turn} done\\n")
            sys.stderr.flush()
            print("PASS")
            print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
            sys.stdin.readline()
        """,
    )
    player = ExternalPlayer([str(chatty)], transport="keep", time_limit=10)
    player.start(0)
    sizes = []
    for _ in range(4):
        assert player.ask("3 0 0").verdict == "OK"
        capture = player._stderr
        assert capture is not None
        sizes.append(os.fstat(capture.fileno()).st_size)
    player.close()
    tail = player.take_stderr()
    assert max(sizes) <= STDERR_KEPT  # trimmed after each answer, not 6 MiB
    assert tail.startswith("…\n") and tail.endswith("turn 4 done\n")
    assert len(tail.encode()) <= STDERR_KEPT + 4


# -- logs stopped while being written --------------------------------------------------------------


def test_a_log_stopped_while_written_leaves_no_temporary_file(tmp_path: Path) -> None:
    from guobiao.table.replay import write_log

    def lines() -> Iterator[dict[str, int]]:
        yield {"a": 1}
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_log(tmp_path / "session-0001.jsonl", lines())
    assert list(tmp_path.iterdir()) == []


def test_an_arena_deal_is_logged_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while a duplicate deal's 8 logs were written left some of them in --log-dir, of a
    deal the results did not count."""
    import guobiao.table.replay as replay
    from guobiao.botzone.arena import arena_jobs, parse_bot_spec, play_job, write_logs

    bots = [parse_bot_spec(b) for b in ("fan", "efficiency", "random", "random")]
    (job,) = arena_jobs(1, bots, seed=3, duplicate="rotations", keep_logs=True)
    deal = play_job(job)
    assert write_logs(tmp_path / "whole", [deal], bots) == 4
    assert len(list((tmp_path / "whole").iterdir())) == 8
    calls = [0]
    original = replay.write_log

    def write_then_stop(path: Path, lines: Any) -> None:
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt
        original(path, lines)

    monkeypatch.setattr(replay, "write_log", write_then_stop)
    with pytest.raises(KeyboardInterrupt):
        write_logs(tmp_path / "stopped", [deal], bots)
    assert list((tmp_path / "stopped").iterdir()) == []
