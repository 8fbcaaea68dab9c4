"""The command line as a newcomer meets it: every mistake is one clear line (never a traceback,
never a silent wrong answer), a long run checks its output before it starts and stops on Ctrl-C
with what it did, and the tables stay whole at 80 columns."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from guobiao.cli import main

ROOT = Path(__file__).resolve().parents[1]
PASSBOT = str(ROOT / "tests" / "bots" / "passbot.py")
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "COLUMNS": "80"}
SCRIPT = "import sys; from guobiao.cli import run; sys.argv[0] = 'guobiao'; run()"
NINE_GATES = "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    """The command in this process at 80 columns; an exception other than an exit fails."""
    result = CliRunner(env={"COLUMNS": "80"}).invoke(main, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {result.exception!r}\n{result.output}")
    return result


def width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def one_line_error(result: Result, code: int, *words: str) -> str:
    """The result failed with ``code`` and one ``error:`` line holding every word."""
    assert result.exit_code == code, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]


# -- a long run checks where it writes before it starts ------------------------------------------


def test_simulate_says_in_one_line_when_a_log_cannot_be_written(tmp_path: Path) -> None:
    # The folder takes files, but not this one: the log of session 1 cannot be written.
    (tmp_path / "session-0001.jsonl.tmp").mkdir()
    result = invoke("simulate", "-n", "1", "--hands", "1", "--log-dir", str(tmp_path))
    one_line_error(result, 1, "cannot write", "session-0001.jsonl")


def test_simulate_refuses_a_log_dir_that_takes_no_file_before_playing() -> None:
    # /proc exists and is a folder, but no file can be created in it (not even by root).
    result = invoke("simulate", "-n", "3", "--log-dir", "/proc")
    one_line_error(result, 2, "cannot write to --log-dir /proc")
    assert "draw rate" not in result.output  # refused before playing, not after


def test_arena_refuses_a_log_dir_that_takes_no_file_before_playing() -> None:
    result = invoke("arena", "--bots", "fan,fan,fan,fan", "--deals", "1", "--log-dir", "/proc")
    line = one_line_error(result, 2, "cannot write to --log-dir /proc")
    assert "Errno" not in line


def test_play_checks_its_log_before_the_session() -> None:
    result = invoke("play", "--hands", "1", "--log", "/proc/game.jsonl", stdin="")
    one_line_error(result, 2, "--log", "/proc/game.jsonl")
    assert "Your move" not in result.output  # refused before the first hand


# -- a program that cannot run is said, not scored as forfeits ---------------------------------


@pytest.mark.parametrize(
    "bot", ["cmd:no-such-program-here --keep-running", "json:/etc/passwd", "simple:./nope"]
)
def test_arena_refuses_a_program_that_cannot_run(bot: str) -> None:
    result = invoke("arena", "--bots", f"fan,fan,fan,{bot}", "--deals", "1")
    one_line_error(result, 2, "--bots", "cannot run")


# -- Ctrl-C ------------------------------------------------------------------------------------


def test_simulate_interrupted_summarises_the_sessions_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import guobiao.jobs.simulation as simulation

    real = simulation.outcome_job

    def interrupted_at_three(job: Any) -> Any:
        if job.number == 3:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(simulation, "outcome_job", interrupted_at_three)
    result = invoke("simulate", "-n", "5", "--hands", "1", "--seed", "1")
    one_line_error(result, 130, "interrupted (Ctrl-C) after 2 of 5 sessions")
    assert "2 sessions, 2 hands" in result.output and "P1 fan" in result.output
    as_json = invoke("simulate", "-n", "5", "--hands", "1", "--seed", "1", "--json")
    assert as_json.exit_code == 130
    data = json.loads(as_json.stdout)
    assert data["interrupted"] is True and data["sessions"] == 2 and data["sessions_asked"] == 5


def test_arena_interrupted_prints_the_deals_played(monkeypatch: pytest.MonkeyPatch) -> None:
    import guobiao.botzone.arena as arena

    real = arena.iter_arena

    def two_deals_then_ctrl_c(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for number, deal in enumerate(real(*args, **kwargs), 1):
            yield deal
            if number == 2:
                raise KeyboardInterrupt

    monkeypatch.setattr(arena, "iter_arena", two_deals_then_ctrl_c)
    args = ["arena", "--bots", "fan,efficiency,efficiency,random", "--deals", "5", "--seed", "1"]
    result = invoke(*args)
    one_line_error(result, 130, "interrupted (Ctrl-C) after 2 of 5 deals")
    assert "2 deals x 1 seat order = 2 hands" in result.output
    data = json.loads(invoke(*args, "--json").stdout)
    assert data["interrupted"] is True and data["deals"] == 2 and data["hands"] == 2


def test_a_real_ctrl_c_stops_simulate_with_a_summary(tmp_path: Path) -> None:
    args = ["simulate", "-n", "500", "--hands", "4", "--seed", "1", "--log-dir", str(tmp_path)]
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 90
    while not (tmp_path / "session-0002.jsonl").exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # until some sessions are done
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"Aborted" not in err
    assert b"interrupted (Ctrl-C) after " in err and b" of 500 sessions" in err
    assert b"Player" in out and b"draw rate" in out


# -- the stream takes only what applies to it ------------------------------------------------


@pytest.mark.parametrize(
    ("option", "shown"),
    [
        (["--seat", "S"], "--seat"),
        (["--self-drawn"], "--self-drawn"),
        (["--explain"], "--explain"),
        (["--json"], "--json"),
        (["--flowers", "2"], "--flowers"),
    ],
)
def test_fan_jsonl_refuses_options_it_would_ignore(option: list[str], shown: str) -> None:
    line = json.dumps({"concealed": ["W1"] * 13, "win_tile": "W1"})
    result = invoke("fan", "--jsonl", *option, stdin=line + "\n")
    one_line_error(result, 2, shown, "only --rules")
    assert "{" not in result.stdout  # no answer that silently ignored the option


def test_fan_jsonl_answers_an_overlong_line_without_reading_it() -> None:
    good = {
        "concealed": ["W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9", "W9"],
        "win_tile": "W5",
    }
    huge = json.dumps({"concealed": ["W1"] * 400_000, "win_tile": "W5"})  # 2.4 MB
    stdin = "\n".join([json.dumps(good), huge, json.dumps(good)]) + "\n"
    result = invoke("fan", "--jsonl", stdin=stdin)
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 0 and len(answers) == 3
    assert answers[0]["total"] == answers[2]["total"] == 91
    assert answers[1]["ok"] is False and "line 2: longer than 1 MiB" in answers[1]["message"]


def test_the_console_script_stream_bounds_a_line_without_a_newline() -> None:
    stdin = b"[" + b" " * (3 << 20)  # 3 MiB and no end of line
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "fan", "--jsonl"],
        input=stdin,
        capture_output=True,
        env=ENV,
        timeout=120,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer["ok"] is False and "line 1: longer than 1 MiB" in answer["message"]


# -- wrong hands are said as they are ----------------------------------------------------------


def test_an_empty_hand_is_called_empty() -> None:
    one_line_error(invoke("fan", ""), 2, "HAND is empty")
    one_line_error(invoke("fan", "   "), 2, "HAND is empty")


def test_shanten_names_what_is_wrong_with_the_hand() -> None:
    line = one_line_error(invoke("shanten", "W1W1W1W1W1W2W3W4W5W6W7W8W9"), 2, "W1 in the hand")
    assert "--visible" not in line  # none was given
    one_line_error(
        invoke("shanten", "W1W1W1W2W3W4W5W6W7W8W9W9W9", "--visible", "W1W1"),
        2,
        "W1 between the hand and --visible",
    )
    melds = "[W1W2W3][B1B2B3][T1T2T3][F1F1F1][J1J1J1]"
    one_line_error(invoke("shanten", melds), 2, "at most 4 melds, not 5")


# -- tables and summaries read whole -----------------------------------------------------------


def _whole_at_80(output: str) -> None:
    for line in output.splitlines():
        if " = " not in line[:4]:  # but a bot's whole spec, written below the arena's table
            assert width(line) <= 80, line


def test_simulate_table_shows_every_bot_name_whole_at_80_columns() -> None:
    result = invoke("simulate", "-n", "1", "--hands", "1", "--seed", "1")
    assert result.exit_code == 0
    _whole_at_80(result.output)
    assert "…" not in result.output
    assert "P2 efficiency" in result.output and "Wins (自摸)" in result.output
    assert "1 session, 1 hand," in result.output  # not "1 sessions, 1 hands"


def test_arena_table_stays_readable_with_a_long_program_at_80_columns() -> None:
    program = f"cmd:{sys.executable} {PASSBOT} --keep-running"
    result = invoke("arena", "--bots", f"fan,fan,fan,{program}", "--deals", "1", "--seed", "1")
    assert result.exit_code == 0, result.output
    _whole_at_80(result.output)
    header = next(line for line in result.output.splitlines() if "Hands" in line)
    for column in ("Bot", "Hands", "Mean ±95%", "Win", "自摸", "Deal-in", "Forfeit"):
        assert column in header
    assert f"D = {program}" in result.output  # the whole spec, below the table
    rows = [line for line in result.output.splitlines() if line.startswith("│ ")]
    assert len(rows) == 4 and all(row.count("%") == 3 for row in rows)
    assert "1 deal x 1 seat order = 1 hand." in result.output


def test_the_command_list_says_what_each_command_does_whole() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    mine = ("arena", "botzone-bot", "fan", "play", "replay", "shanten", "simulate", "tiles")
    for name in mine:
        line = next(line for line in lines if line.strip().startswith(name + " "))
        assert not line.endswith("..."), line
    for example in ("guobiao play", "guobiao simulate", "guobiao replay", "guobiao shanten"):
        assert example in result.output


@pytest.mark.parametrize(
    "command", ["fan", "shanten", "tiles", "play", "simulate", "arena", "replay", "botzone-bot"]
)
def test_every_help_has_an_example(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output or "Try it" in result.output
    assert f"guobiao {command}" in result.output


def test_fourteen_tiles_without_a_winning_tile_say_how_to_mark_it() -> None:
    hand = "W1W1W1W2W3W4W5W6W7W8W9W9W9W5"
    one_line_error(invoke("fan", hand), 2, "14 standing tiles", "after '+'")
    one_line_error(invoke("fan", hand, "--win", "W5"), 2, "14 standing tiles", "leave the winning")
    assert invoke("fan", hand[:-2], "--win", "W5").exit_code == 0  # 13 and --win: scored


def test_replay_counts_in_words(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    invoke("simulate", "-n", "1", "--hands", "1", "--seed", "2", "--log-dir", str(logs))
    log = logs / "session-0001.jsonl"
    header = log.read_text(encoding="utf-8").splitlines()[0]
    cut = tmp_path / "cut.jsonl"
    cut.write_text(header + "\n", encoding="utf-8")  # the header alone: no hand, no end
    result = invoke("replay", str(cut))
    assert result.exit_code == 1
    assert "Replayed 0 hands (session): 1 difference." in result.output
    assert "Replayed 1 hand (session): every action" in invoke("replay", str(log)).output


@pytest.mark.parametrize(
    ("args", "hint"),
    [(["fan", "--jsonl"], b"one JSON hand per line"), (["botzone-bot"], b"judge's requests")],
)
def test_a_command_reading_a_terminal_says_what_it_awaits(args: list[str], hint: bytes) -> None:
    import pty

    parent, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, *args],
        stdin=child,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    os.close(child)
    try:
        time.sleep(2)
        os.write(parent, b"\x04")  # Ctrl-D: the end of input
        _, err = process.communicate(timeout=60)
    finally:
        os.close(parent)
    assert hint in err and b"Ctrl-D ends" in err


def test_simulate_and_arena_read_the_levels_play_reads() -> None:
    result = invoke("simulate", "-n", "1", "--hands", "1", "--bots", "easy,normal", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "P1 efficiency" in result.output and "P4 fan" in result.output
    arena = invoke("arena", "--bots", "easy,normal,fan,random", "--deals", "1", "--json")
    assert arena.exit_code == 0, arena.output
    assert [b["bot"] for b in json.loads(arena.stdout)["bots"]][:2] == ["efficiency", "fan"]
    one_line_error(invoke("simulate", "--bots", "hard"), 2, "hard", "a level: easy, normal")


def test_replay_reads_a_log_an_editor_saved_with_a_bom(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    invoke("simulate", "-n", "1", "--hands", "1", "--seed", "4", "--log-dir", str(logs))
    log = logs / "session-0001.jsonl"
    saved = tmp_path / "saved.jsonl"
    saved.write_bytes(b"\xef\xbb\xbf" + log.read_bytes())
    result = invoke("replay", str(saved))
    assert result.exit_code == 0 and "every action, settlement and score matches" in result.output


def test_the_json_hand_of_fan_help_scores_as_it_says() -> None:
    help_text = invoke("fan", "--help").output
    start = help_text.index('{"concealed"')
    end = help_text.index("}", start) + 1
    line = " ".join(help_text[start:end].split())
    answer = json.loads(invoke("fan", "--jsonl", stdin=line + "\n").stdout)
    assert answer["ok"] is True and answer["total"] == 91  # as the help says
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index('{"concealed"', readme.index("`--jsonl` scores a stream"))
    line = " ".join(readme[start : readme.index("}", start) + 1].split())
    assert json.loads(invoke("fan", "--jsonl", stdin=line + "\n").stdout)["total"] == 91


def test_every_refused_stream_line_names_its_line() -> None:
    knitted = ["W1", "W2", "W4", "W5", "W7", "W8", "B1", "B2", "B4", "B5", "T1", "T2", "T4"]
    lines = [
        json.dumps({"concealed": ["W1"] * 13, "win_tile": "W5"}),  # 13 of W1: impossible
        "",
        json.dumps({"concealed": knitted[:12], "win_tile": "W5"}),  # 12 tiles
        json.dumps({"concealed": "W1", "win_tile": "W5"}),  # not a list
        json.dumps({"concealed": knitted, "win_tile": "T7"}),  # no winning shape
    ]
    result = invoke("fan", "--jsonl", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 4 and not any(a["ok"] for a in answers)
    for answer, number in zip(answers, (1, 3, 4, 5), strict=True):
        assert answer["message"].startswith(f"line {number}: "), answer
    assert answers[3]["reason"] == "not_winning"


def test_replay_checks_every_log_it_is_given(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    invoke("simulate", "-n", "2", "--hands", "1", "--seed", "6", "--log-dir", str(logs))
    paths = sorted(str(p) for p in logs.glob("*.jsonl"))
    result = invoke("replay", "--quiet", *paths)
    assert result.exit_code == 0, result.output
    # --quiet: "only problems and the final line", the tally (each log's line without it)
    assert result.output.splitlines() == ["2 logs: 2 match."]
    result = invoke("replay", *paths)
    assert result.output.count("every action, settlement and score matches") == 2
    for path in paths:  # one line each, however long its path: not wrapped at 80 columns
        assert f"{path}: Replayed 1 hand (session): every action" in result.output
    result = invoke("replay", "--quiet", *paths, str(tmp_path / "missing.jsonl"))
    assert result.exit_code == 2
    assert "missing.jsonl: no such file" in result.output
    assert result.output.splitlines()[-1] == "3 logs: 2 match, 1 cannot be read."


def test_shanten_names_the_shapes_as_the_fan_table_does() -> None:
    from guobiao.scoring.fans import Fan

    out = invoke("shanten", "W1W9B1B9T1T9F1F2F3F4J1J2J3").output
    shapes = " ".join(out.split())  # the line may wrap
    for fan in (
        Fan.SEVEN_PAIRS,
        Fan.THIRTEEN_ORPHANS,
        Fan.LESSER_HONOURS_AND_KNITTED_TILES,
        Fan.KNITTED_STRAIGHT,
    ):
        assert f"{fan.zh} {fan.en}: " in shapes
    assert "十三幺 Thirteen Orphans: 0" in shapes and "4 sets + pair: 8" in shapes


def test_a_mistyped_command_gets_a_suggestion() -> None:
    # A fresh process, as a person meets it: no command has been looked up yet (click alone
    # suggests only among the commands already loaded).
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", SCRIPT, *args],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=60,
            check=False,
        )

    done = run("simualte", "-n", "1")
    assert done.returncode == 2
    assert "No such command 'simualte'. Did you mean 'simulate'?" in done.stderr
    assert "Did you mean" not in run("xyz").stderr  # nothing close: no guess


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-n", "2", "--hands", "1", "--json"],
        ["arena", "--bots", "fan,efficiency,random,fan", "--deals", "2", "--json"],
    ],
)
def test_a_run_without_seed_says_its_seed_and_runs_again_with_it(args: list[str]) -> None:
    first = json.loads(invoke(*args).stdout)
    assert isinstance(first["seed"], int)
    again = json.loads(invoke(*args, "--seed", str(first["seed"])).stdout)
    for data in (first, again):
        data.pop("hands_per_second", None)
    assert again == first
    table = invoke(*args[:-1]).output  # the table says it too
    assert re.search(r"seed \d+", " ".join(table.split()))


def test_replay_of_a_folder_says_how_to_name_its_logs(tmp_path: Path) -> None:
    one_line_error(
        invoke("replay", str(tmp_path)),
        2,
        "a directory, not a log file",
        f"guobiao replay {tmp_path}/*.jsonl",
    )
