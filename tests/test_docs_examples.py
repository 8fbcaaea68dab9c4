"""Every example hand in docs/rules.md scores, under both profiles, exactly as the doc says.

The doc's examples were checked against the reference calculator when written; this test keeps
the doc and guobiao in step. Example blocks are ```text fences: a hand line (guobiao notation,
then two spaces and context words), followed by indented ``1998 = mil: fan pts[×n], ... = total``
lines (or separate ``1998:`` and ``mil:`` lines).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from guobiao.core.context import WinContext, Wind
from guobiao.core.hand import Hand, parse_hand
from guobiao.scoring.calculator import calculate

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def _examples() -> list[tuple[str, str, str, str]]:
    """(hand line, context words, profile, expected fan text) for every example."""
    out: list[tuple[str, str, str, str]] = []
    in_block = False
    hand_line = context = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```text"
            continue
        if not in_block or not line.strip():
            continue
        if not line.startswith(" "):
            hand_line, _, context = line.partition("  ")
            continue
        label, _, fans = line.strip().partition(":")
        for profile in ("1998", "mil"):
            if profile in label:
                out.append((hand_line.strip(), context.strip(), profile, fans.strip()))
    return out


def _context(win: int, words: str, flowers: int) -> WinContext:
    flags = {"self_drawn": False, "fourth_tile": False, "kong": False, "last_tile": False}
    seat = prevalent = Wind.EAST
    for word in (w.strip() for w in words.split(",") if w.strip()):
        if word == "self-drawn":
            flags["self_drawn"] = True
        elif word == "和绝张":
            flags["fourth_tile"] = True
        elif word == "杠上开花":
            flags["self_drawn"] = flags["kong"] = True
        elif word == "抢杠和":
            flags["kong"] = True
        elif word == "last tile":
            flags["last_tile"] = True
        elif word.startswith("seat wind "):
            seat = Wind.parse(word[-1])
        elif word.startswith("prevalent wind "):
            prevalent = Wind.parse(word[-1])
        elif word != "discard":
            raise AssertionError(f"unknown context word {word!r} in docs/rules.md")
    return WinContext(win, seat_wind=seat, round_wind=prevalent, flowers=flowers, **flags)


def _expected(text: str) -> tuple[dict[str, int], int]:
    body, _, total = text.split("→")[0].rpartition("=")
    fans: dict[str, int] = {}
    for item in body.split(","):
        match = re.fullmatch(r"(\S+) (\d+)(?:×(\d+))?", item.strip())
        assert match, f"bad fan item {item!r}"
        fans[match[1]] = int(match[3] or 1)
    return fans, int(total.split()[0])


EXAMPLES = _examples()


def test_the_doc_has_examples() -> None:
    assert len(EXAMPLES) >= 80


@pytest.mark.parametrize(
    ("hand_line", "words", "profile", "expected"),
    EXAMPLES,
    ids=[f"{h} {w} [{p}]" for h, w, p, _ in EXAMPLES],
)
def test_example(hand_line: str, words: str, profile: str, expected: str) -> None:
    hand = parse_hand(hand_line)
    assert hand.win_tile is not None
    context = _context(hand.win_tile, words, len(hand.flowers))
    result = calculate(Hand(hand.concealed, hand.melds, None, hand.flowers), context, profile)
    fans, total = _expected(expected)
    assert {f.fan.zh: f.count for f in result.fans} == fans
    assert result.total == total


# -- the command lines of the docs this project's command line owns run as written -------------

ROOT = DOC.parents[1]


def _doc_commands(name: str) -> list[str]:
    """Every ``guobiao ...`` line of the doc's ```sh and ```text blocks, comments cut."""
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|text)\n(.*?)```", text, flags=re.S)
    return [
        line.split("  #")[0].strip()
        for body in blocks
        for line in body.splitlines()
        if line.startswith("guobiao ")
    ]


def _smaller(words: list[str]) -> list[str]:
    """The same command with fewer sessions or deals (what it does is checked, not its size)."""
    out = list(words)
    for flag, value in (("--deals", "1"), ("-n", "2")):
        if flag in out:
            out[out.index(flag) + 1] = value
    if out[0] == "arena" and "--deals" not in out:
        out += ["--deals", "1"]
    if out[0] == "simulate":
        out += ["--hands", "2"]
    return out


def _run_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    import os
    import sys

    from click.testing import CliRunner

    from guobiao.cli import main

    monkeypatch.chdir(tmp_path)
    # `cmd:guobiao botzone-bot ...` finds the guobiao of this environment
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    runner = CliRunner()

    def run(words: list[str], stdin: str | None = None) -> Any:
        result = runner.invoke(main, words, input=stdin)
        assert result.exit_code == 0, (words, result.output[-2000:])
        assert "Traceback" not in result.output
        return result

    return run


def test_the_arena_doc_commands_run_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/arena.md: its runs (a deal each), then the replays of the logs the third one wrote."""
    import shlex

    run = _run_in(tmp_path, monkeypatch)
    commands = _doc_commands("arena.md")
    assert len(commands) == 5
    for command in commands:
        words = _smaller(shlex.split(command)[1:])
        result = run(words)
        if words[0] == "replay":
            assert "every action, settlement and score matches" in result.output
        else:
            assert "Forfeit" in result.output and "Mean ±95%" in result.output
            rows = [line for line in result.output.splitlines() if line.startswith("│ ")]
            assert len(rows) == 4 and all(row.endswith(" 0 │") for row in rows)  # no forfeit


def test_the_botzone_doc_commands_answer_a_first_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    run = _run_in(tmp_path, monkeypatch)
    commands = _doc_commands("botzone.md")
    assert len(commands) == 3
    for command in commands:
        words = shlex.split(command)[1:]
        if "simple" in words:
            assert run(words, "1\n0 1 0\n").output == "PASS\n"
        else:
            out = run(words, '{"requests":["0 1 0"],"responses":[]}\n').output
            assert '{"response": "PASS"}' in out


def test_the_distributed_doc_commands_give_the_same_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/distributed.md: one process and two give the same summary (Ray's lines need Ray)."""
    import shlex

    run = _run_in(tmp_path, monkeypatch)
    commands = [c for c in _doc_commands("distributed.md") if "--ray-address" not in c]
    assert len(commands) == 2
    outputs = []
    for command in commands:
        out = run(_smaller(shlex.split(command)[1:])).output
        outputs.append(re.sub(r"\d+ hands/s", "", out))
    assert outputs[0] == outputs[1] and "2 sessions, 4 hands" in outputs[0]


@pytest.mark.parametrize("name", ["README.md", "docs/arena.md", "docs/botzone.md", "docs/env.md"])
def test_a_list_of_the_bots_names_every_bot(name: str) -> None:
    """Where a paragraph lists the bot kinds (three or more of them), it lists all of them."""
    from guobiao.bots import BOT_KINDS

    text = (ROOT / name).read_text(encoding="utf-8")
    for paragraph in re.split(r"\n\s*\n", text):
        named = {kind for kind in BOT_KINDS if f"`{kind}`" in paragraph}
        if len(named) >= 3:
            assert named == set(BOT_KINDS), paragraph


def test_the_distributed_doc_ray_local_command_gives_the_serial_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/distributed.md's `--ray-address local` line (a private one-machine Ray) gives what one
    process gives; `--ray-address auto` needs a cluster and is left out."""
    import shlex

    pytest.importorskip("ray")
    run = _run_in(tmp_path, monkeypatch)
    commands = _doc_commands("distributed.md")
    local = [c for c in commands if "--ray-address local" in c]
    serial = [c for c in commands if "--ray-address" not in c and "--workers" not in c]
    assert len(local) == 1 and len(serial) == 1
    outputs = [
        re.sub(r"\d+ hands/s", "", run(_smaller(shlex.split(c)[1:])).output)
        for c in (serial[0], local[0])
    ]
    assert outputs[0] == outputs[1] and "2 sessions, 4 hands" in outputs[0]


@pytest.mark.parametrize("name", ["env.md", "replay-log.md"])
def test_the_true_comments_of_the_research_docs_hold(name: str) -> None:
    """An expression line of a ```python block commented ``# True`` (which the literal check of
    tests/test_readme.py leaves out) evaluates to True after the blocks before it ran."""
    import contextlib
    import io

    blocks = re.findall(
        r"```python\n(.*?)```", (ROOT / "docs" / name).read_text(encoding="utf-8"), flags=re.S
    )
    namespace: dict[str, object] = {}
    checked = 0
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, name, "exec"), namespace)
        for line in block.splitlines():
            code, _, comment = line.partition("  # ")
            if code and not code.startswith(" ") and comment.split(":")[0].strip() == "True":
                assert eval(code, namespace) is True, line
                checked += 1
    assert checked
