"""Leftovers of the command-line audits, each failing on the code before it: a bot program that
cannot be started is refused when its spec is read (library and command line), ``fan --json``
answers a refusal in JSON on stdout, ``fan --explain`` writes the 九莲宝灯 shape once, and a
``--log-dir`` holds the logs of one run. (The standings page's 弃权: the _browser module.)"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import shutil
import tokenize
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from guobiao.botzone.arena import parse_bot_spec
from guobiao.cli import main

ROOT = Path(__file__).resolve().parents[1]
PASSBOT = ROOT / "tests" / "bots" / "passbot.py"
NINE_GATES = "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"


def invoke(*args: str, stdin: str | None = None) -> Result:
    """The command in this process at 80 columns; an exception other than an exit fails."""
    result = CliRunner(env={"COLUMNS": "80"}).invoke(main, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {result.exception!r}\n{result.output}")
    assert "Traceback" not in result.output
    return result


def error_line(result: Result, code: int, *words: str) -> str:
    """The result failed with ``code`` and one ``error:`` line on stderr holding every word."""
    assert result.exit_code == code, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, result.stderr
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]


# -- 1. a bot program that cannot be started is refused when its spec is read --------------------


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder: a script ``passbot`` (executable) and ``notes`` (not executable)."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(PASSBOT, tmp_path / "passbot")
    os.chmod(tmp_path / "passbot", 0o755)
    (tmp_path / "notes").write_text("not a bot\n")
    os.chmod(tmp_path / "notes", 0o644)
    return tmp_path


@pytest.mark.parametrize(
    ("spec", "program", "why"),
    [
        ("cmd:/no/such/program --keep-running", "/no/such/program", "no such file"),
        ("json:/no/such/program", "/no/such/program", "no such file"),
        ("/no/such/program", "/no/such/program", "no such file"),  # a bare path
        ("simple:./notes", "./notes", "not executable (chmod +x ./notes)"),
        ("./notes", "./notes", "not executable"),
        ("notes", "./notes", "not executable"),  # a file of this folder by its bare name
        ("cmd:/tmp", "/tmp", "a folder, not a program"),
        ("cmd:no-such-program-here", "no-such-program-here", "not found on PATH"),
        ("cmd:passbot", "passbot", "not found on PATH (the one in this folder is ./passbot)"),
    ],
)
def test_parse_bot_spec_refuses_a_program_that_cannot_start(
    folder: Path, spec: str, program: str, why: str
) -> None:
    # It used to accept them (a run of forfeits, or only the command line looked), or to call
    # a bare path "not a bot" without saying that the file is missing or not executable.
    with pytest.raises(ValueError, match="cannot run") as caught:
        parse_bot_spec(spec)
    assert f"cannot run {program!r}: {why}" in str(caught.value)
    line = error_line(invoke("arena", "--bots", f"fan,fan,fan,{spec}", "--deals", "1"), 2)
    assert "--bots: " in line and f"cannot run {program!r}: {why}" in line


def test_check_false_leaves_the_program_to_where_the_deals_run() -> None:
    # on a Ray cluster a program need only exist on the nodes (docs/arena.md)
    spec = parse_bot_spec("json:/on/the/nodes/bot --x", check=False)
    assert spec.argv == ("/on/the/nodes/bot", "--x") and spec.transport == "json"
    assert parse_bot_spec("/on/the/nodes/bot", check=False).argv == ("/on/the/nodes/bot",)


def test_an_executable_of_this_folder_plays_by_its_bare_name(folder: Path) -> None:
    # It was started as "passbot", which the system looks for on PATH: every hand a crash.
    assert parse_bot_spec("passbot").argv == ("./passbot",)
    result = invoke("arena", "--bots", "fan,fan,fan,passbot", "--deals", "1", "--json")
    assert result.exit_code == 0, result.output
    bots = json.loads(result.stdout)["bots"]
    assert bots[3]["bot"] == "passbot" and bots[3]["forfeits"] == 0


# -- 2. fan --json: a refusal is a JSON answer on stdout, as fan --jsonl gives a line ------------


def _jsonl_refusal() -> dict[str, object]:
    out = invoke("fan", "--jsonl", stdin='{"concealed": []}\n').stdout
    answer = json.loads(out)
    assert answer["ok"] is False and answer["reason"] == "invalid"
    return dict(answer)


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["W1W2X3 +W4"], 2, "unexpected character at position 4"),
        ([""], 2, "HAND is empty"),
        (["W1W1"], 2, "no winning tile"),
        (["[]" + NINE_GATES], 2, "empty meld"),
        ([], 2, "give a HAND"),
        ([NINE_GATES, "--win", "X9"], 2, "--win"),
        ([NINE_GATES, "--flowers", "2", "--seat", "Q"], 2, "--seat"),  # refused by click
        ([NINE_GATES, "--no-such-option"], 2, "--no-such-option"),
        (["W1W1W1W1W1W2W3W4W5W6W7W8W9 +W9"], 1, "more than four of W1"),  # as it was
    ],
)
def test_fan_json_answers_a_refusal_in_json_on_stdout(
    args: list[str], code: int, words: str
) -> None:
    # It printed nothing on stdout (the error on stderr only): a script reading JSON got nothing.
    result = invoke("fan", "--json", *args)
    assert result.exit_code == code, result.output
    answer = json.loads(result.stdout)
    assert answer.keys() == _jsonl_refusal().keys()
    assert answer["ok"] is False and answer["reason"] == "invalid" and words in answer["message"]
    assert result.stderr.strip()  # and a person still reads why on stderr


def test_fan_without_json_keeps_stdout_empty_on_a_refusal() -> None:
    result = invoke("fan", "W1W2X3 +W4")
    assert result.stdout == "" and result.exit_code == 2
    assert "^" in result.stderr  # the pointer under the place, for a person


# -- 3. fan --explain on 九莲宝灯: the shape is written once ---------------------------------


def test_nine_gates_shape_is_written_once() -> None:
    # Each of 九莲宝灯's rows (九莲宝灯, 双暗刻, 幺九刻) repeated the whole shape in "On".
    out = invoke("fan", "--explain", NINE_GATES).stdout
    assert out.count("九莲宝灯 W1W1W1") == 1
    assert "Shape: 九莲宝灯 W1W1W1 W2 W3 W4 W5W5 W6 W7 W8 W9W9W9" in out
    rows = [line for line in out.splitlines() if line.startswith("│ 九莲宝灯")]
    assert len(rows) == 1 and "the shape (above)" in rows[0]


def test_a_basis_that_is_not_the_shape_is_kept() -> None:
    out = invoke("fan", "--explain", "W2W3W4W2W3W4B2B3B4B5B6B7T5 +T5", "-s").stdout
    assert "W2W3W4 + W2W3W4" in out and "no exposed set" in out


# -- 4. a --log-dir holds one run's logs ------------------------------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


SIMULATE = ["simulate", "--hands", "1", "--seed", "3", "--log-dir"]
ARENA = ["arena", "--bots", "fan,efficiency,random,random", "--seed", "3", "--log-dir"]


def test_simulate_refuses_a_log_dir_holding_an_earlier_run(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    assert invoke(*SIMULATE, str(logs), "-n", "3").exit_code == 0
    (logs / "notes.txt").write_text("mine\n")
    before = _files(logs)
    assert sorted(before) == ["notes.txt", *(f"session-000{n}.jsonl" for n in (1, 2, 3))]
    # Run again, 2 sessions: it wrote them over sessions 1-2 and left session 3 of the first run
    # beside them, with nothing to tell the runs apart.
    again = invoke(*SIMULATE, str(logs), "-n", "2")
    error_line(again, 2, f"--log-dir {logs}", "3 logs of an earlier run", "--overwrite")
    assert "draw rate" not in again.stdout  # refused before playing
    assert _files(logs) == before  # nothing lost
    # --overwrite: the earlier run's logs deleted first, any other file kept
    assert invoke(*SIMULATE, str(logs), "-n", "2", "--overwrite").exit_code == 0
    assert sorted(_files(logs)) == ["notes.txt", "session-0001.jsonl", "session-0002.jsonl"]
    assert (logs / "notes.txt").read_text() == "mine\n"


def test_arena_refuses_a_log_dir_holding_an_earlier_run(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    assert invoke(*ARENA, str(logs), "--deals", "2").exit_code == 0
    before = _files(logs)
    assert len(before) == 4  # two hands, each a Botzone log and a replay log
    error_line(invoke(*ARENA, str(logs), "--deals", "1"), 2, "4 logs of an earlier run")
    assert _files(logs) == before
    # a simulate's logs there are an earlier run's too
    error_line(invoke(*SIMULATE, str(logs), "-n", "1"), 2, "--overwrite")
    assert invoke(*ARENA, str(logs), "--deals", "1", "--overwrite").exit_code == 0
    assert sorted(_files(logs)) == ["deal-0001-0123.botzone.json", "deal-0001-0123.jsonl"]


@pytest.mark.parametrize("command", [SIMULATE[:-1], ARENA[:-1]], ids=["simulate", "arena"])
def test_overwrite_goes_with_log_dir(command: list[str]) -> None:
    error_line(invoke(*command, "--overwrite"), 2, "--overwrite goes with --log-dir")


def test_help_says_what_a_log_dir_holds() -> None:
    for command in ("simulate", "arena"):
        out = " ".join(invoke(command, "--help").stdout.split())
        assert "--overwrite" in out and "an earlier run's logs is refused" in out


# -- the docs' Python examples run, and say what they give -------------------------------------

DOC_BLOCKS = [
    (doc.name, number, body)
    for doc in sorted((ROOT / "docs").glob("*.md"))
    for number, body in enumerate(
        re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)
    )
]


def _claims(body: str) -> dict[int, object]:
    """The statements ``EXPRESSION  # VALUE`` of a block by their place in it, VALUE a Python
    literal, alone or before a ``: why`` (``# 14: the dealer's tiles``)."""
    comments = {
        token.start[0]: token.string[1:].strip()
        for token in tokenize.generate_tokens(io.StringIO(body).readline)
        if token.type == tokenize.COMMENT
    }
    out: dict[int, object] = {}
    for index, node in enumerate(ast.parse(body).body):
        text = comments.get(node.end_lineno or node.lineno)
        if not isinstance(node, ast.Expr) or text is None:
            continue
        for candidate in (text, text.split(": ", 1)[0]):
            try:
                out[index] = ast.literal_eval(candidate)
                break
            except (ValueError, SyntaxError):
                continue
    return out


def test_the_docs_have_python_examples() -> None:
    # tests/test_readme.py runs these blocks but checks only one-line claims that start with a
    # number, a string or a bracket, after the whole block: not True (record_to_match(record) ==
    # log), a dict (lines[2]["scores"]) or a claim written over several lines
    assert {name for name, _, _ in DOC_BLOCKS} >= {"arena.md", "env.md", "tournament.md"}
    assert sum(len(_claims(body)) for _, _, body in DOC_BLOCKS) >= 25


@pytest.mark.parametrize(
    ("name", "number", "body"), DOC_BLOCKS, ids=[f"{n}#{i}" for n, i, _ in DOC_BLOCKS]
)
def test_a_docs_python_example_runs_and_gives_what_it_says(
    name: str, number: int, body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Statement by statement, as a reader types them: each claimed value where it stands."""
    monkeypatch.chdir(tmp_path)  # a block that writes files writes them here
    scope: dict[str, object] = {"__name__": f"docs_{number}"}
    claims = _claims(body)
    where = f"docs/{name} block {number}"
    with contextlib.redirect_stdout(io.StringIO()):
        for index, node in enumerate(ast.parse(body).body):
            if index in claims:
                assert isinstance(node, ast.Expr)
                code = compile(ast.Expression(node.value), where, "eval")
                got = eval(code, scope)
                assert got == claims[index], f"{where}, line {node.lineno}: {got!r}"
            else:
                exec(compile(ast.Module([node], []), where, "exec"), scope)


# -- the library as a newcomer meets it: README's blocks, help(guobiao), the shanten command -----

README_BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text("utf-8"), re.S)


@pytest.mark.parametrize("number", range(len(README_BLOCKS)))
def test_each_readme_python_block_runs_alone(number: int) -> None:
    # the shanten block used parse_hand without importing it (it ran only after the block before)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(README_BLOCKS[number], f"README block {number}", "exec"), {})


def test_the_readme_library_example_checks_the_winning_tile() -> None:
    # WinContext(hand.win_tile) with win_tile "Tile | None": mypy --strict refused the example
    scoring = next(b for b in README_BLOCKS if "calculate(" in b)
    assert scoring.index("assert hand.win_tile is not None") < scoring.index("WinContext(")


def test_help_guobiao_teaches_by_examples_that_run() -> None:
    # help(guobiao) showed one example, not run, and said nothing of tiles or errors
    import doctest

    import guobiao

    assert guobiao.__doc__ is not None
    for words in ("TileParseError", "InvalidHandError", "is_winning", "Tile.parse", "waits"):
        assert words in guobiao.__doc__
    failed, tried = doctest.testmod(guobiao, optionflags=doctest.ELLIPSIS)
    assert failed == 0 and tried >= 10


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("", "HAND is empty"),
        ("   ", "HAND is empty"),
        ("W1", "with no meld a hand has 13 or 14 standing tiles, not 1"),
        ("[W1W2W3]W4", "with 1 meld a hand has 10 or 11 standing tiles, not 1"),
    ],
)
def test_shanten_says_what_is_wrong_in_words(hand: str, words: str) -> None:
    # it said "with 0 meld(s) a hand has 13 or 14 standing tiles, not 0" for an empty hand
    error_line(invoke("shanten", hand), 2, words)
