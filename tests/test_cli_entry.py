"""The console script (``guobiao.cli.run``): a plain ``guobiao fan --jsonl [--rules R]`` is
streamed without loading click, with the same answers as the ``fan`` command; every other command
line goes to the command group, refusals included."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

import handgen
from guobiao.cli import main
from guobiao.cli.stream import stream_rules

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
SCRIPT = "import sys; from guobiao.cli import run; sys.argv[0] = 'guobiao'; run()"


@pytest.mark.parametrize(
    ("args", "rules"),
    [
        (["fan", "--jsonl"], "1998"),
        (["fan", "--jsonl", "--rules", "mil"], "mil"),
        (["fan", "--rules", "botzone", "--jsonl"], "botzone"),
        (["fan", "--rules=1998", "--jsonl"], "1998"),
        (["fan", "--jsonl", "--rules", "nonsense"], None),  # click refuses it
        (["fan", "--jsonl", "--rules"], None),
        (["fan", "--jsonl", "--jsonl"], None),
        (["fan", "--jsonl", "--explain"], None),
        (["fan", "--jsonl", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"], None),
        (["fan"], None),
        (["shanten", "--jsonl"], None),
        ([], None),
    ],
)
def test_only_a_plain_stream_skips_the_command_group(args: list[str], rules: str | None) -> None:
    assert stream_rules(args) == rules


def _script(args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, *args],
        input=stdin,
        capture_output=True,
        env=ENV,
        timeout=120,
        check=False,
    )


def test_the_stream_answers_as_the_fan_command_without_click() -> None:
    lines = [json.dumps(h) for h in handgen.generate(300, 5)] + ["{not json", '{"concealed": 3}']
    stdin = "\n".join(lines).encode() + b"\n"
    expected = CliRunner().invoke(main, ["fan", "--jsonl", "--rules", "mil"], input=stdin)
    assert expected.exit_code == 0
    code = SCRIPT + "; print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", code, "fan", "--jsonl", "--rules", "mil"],
        input=stdin,
        capture_output=True,
        env=ENV,
        timeout=120,
        check=True,
    )
    assert done.stdout.decode() == expected.stdout
    loaded = set(done.stderr.decode().split())
    assert "guobiao.cli.stream" in loaded
    assert not {"click", "rich", "guobiao.cli.app"} & loaded
    assert "guobiao.core.shanten" not in loaded  # the package's names load on first use


def test_other_command_lines_go_to_the_command_group() -> None:
    done = _script(["fan", "--jsonl", "--rules", "nonsense"], b"")
    assert done.returncode == 2
    assert b"nonsense" in done.stderr and b"Traceback" not in done.stderr
    done = _script(["fan", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5", "--json"], b"")
    assert done.returncode == 0
    assert json.loads(done.stdout)["total"] == 91  # 九莲宝灯 88, 双暗刻 2, 幺九刻 1
