"""The README's examples run: every ``guobiao`` command line and every Python block."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from guobiao.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, flags=re.S)
COMMANDS = [
    line.split("#")[0].strip()
    for lang, body in BLOCKS
    if lang == "sh"
    for line in body.splitlines()
    if line.startswith("guobiao ")
]
PYTHON = [body for lang, body in BLOCKS if lang == "python"]


def test_the_readme_starts_with_the_two_setup_commands() -> None:
    first = BLOCKS[0][1].strip().splitlines()
    assert len(first) == 2
    assert "pip install" in first[0] and "[web]" in first[0]
    assert first[0].endswith("guobiao serve")  # the server is the README's main job
    assert first[1] == "scripts/test"


def test_commands_run_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command, in README order, in one scratch folder (a later command may read what an
    earlier one wrote, as a reader following the README would)."""
    assert COMMANDS
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GUOBIAO_HOME", str(tmp_path / "home"))  # never the real per-user folder
    for command in COMMANDS:
        words = shlex.split(command)[1:]
        stdin = None
        if "<" in words:
            at = words.index("<")
            stdin = (ROOT / words[at + 1]).read_text(encoding="utf-8")
            words = words[:at]
        elif words[0] == "play":
            stdin = "1\n" * 20000  # always the first choice: a whole round completes
        # files the README names in the repository (docs/examples/...) are read from there
        words = [
            str(ROOT / w) if w.startswith("docs/") and (ROOT / w).exists() else w for w in words
        ]
        result = runner.invoke(main, words, input=stdin)
        assert result.exit_code == 0, (command, result.output[-2000:])
        assert result.output.strip()


def test_python_blocks_run() -> None:
    assert PYTHON
    namespace: dict[str, object] = {}
    for block in PYTHON:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), namespace)
        assert out.getvalue().strip()
        # A "# value" comment after a print states the output.
        for line in block.splitlines():
            if line.startswith("print(") and "#" in line:
                assert line.split("#", 1)[1].strip() in out.getvalue()


DOCS = sorted((ROOT / "docs").glob("*.md"))


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_python_examples_in_docs_run(doc: Path) -> None:
    """Every Python block of the docs runs; an expression line whose comment starts with a
    literal (``expr  # ('P11', 'P01'): note``) must evaluate to that literal."""
    import ast

    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)
    namespace: dict[str, object] = {}
    for block in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, doc.name, "exec"), namespace)
        for line in block.splitlines():
            code, _, comment = line.partition("  # ")
            literal = comment.split(":")[0].strip()
            if not code or "=" in code.split("(")[0] or literal[:1] not in "([0123456789'\"-":
                continue
            try:
                expected = ast.literal_eval(literal)
            except (ValueError, SyntaxError):
                continue
            assert eval(code, namespace) == expected, line
