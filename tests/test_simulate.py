"""guobiao simulate: sessions between bots, a summary, reproducible runs, logs that replay."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from guobiao.cli import main


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_summary_as_json_is_reproducible() -> None:
    args = (
        "simulate",
        "-n",
        "2",
        "--hands",
        "4",
        "--bots",
        "efficiency,random",
        "--seed",
        "3",
        "--json",
    )
    code, out = run(*args)
    assert code == 0
    data = json.loads(out)
    assert data["sessions"] == 2 and data["hands"] == 8
    assert [p["bot"] for p in data["players"]] == ["efficiency", "random", "random", "random"]
    assert 0 <= data["draw_rate"] <= 1
    wins = sum(p["wins"] for p in data["players"])
    assert round(data["draw_rate"] * data["hands"]) == data["hands"] - wins
    points = sum(p["points_per_session"] for p in data["players"])
    assert abs(points) < 1e-6  # scores are zero-sum
    _, again = run(*args)
    strip = lambda d: {k: v for k, v in d.items() if k != "hands_per_second"}  # noqa: E731
    assert strip(json.loads(again)) == strip(data)


def test_logs_replay(tmp_path: Path) -> None:
    code, out = run(
        "simulate",
        "-n",
        "2",
        "--hands",
        "4",
        "--bots",
        "random",
        "--seed",
        "5",
        "--log-dir",
        str(tmp_path),
    )
    assert code == 0 and "2 sessions, 8 hands" in out
    logs = sorted(tmp_path.glob("session-*.jsonl"))
    assert [p.name for p in logs] == ["session-0001.jsonl", "session-0002.jsonl"]
    for log in logs:
        code, out = run("replay", str(log))
        assert code == 0, out


def test_bad_options_are_explained() -> None:
    code, out = run("simulate", "--bots", "fan,alphago")
    assert code == 2 and "unknown bot(s): alphago" in out
    code, out = run("simulate", "--bots", "fan,fan,fan,fan,fan")
    assert code == 2 and "1 to 4 bot names" in out
    code, out = run("simulate", "-n", "0")
    assert code == 2
