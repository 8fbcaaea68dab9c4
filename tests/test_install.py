"""``pip install .`` in a bare virtual environment: the core installs and scores a hand with no
third-party package at all, the command line with only its own small dependencies, and a command
whose extra is missing says which extra to install instead of a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import guobiao

ROOT = Path(__file__).resolve().parents[1]

SCORE = """
import sys
import guobiao
result = guobiao.calculate(guobiao.parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5"), guobiao.WinContext(win_tile=guobiao.Tile.parse("W5")))
print(result.total, sorted(f.fan.name for f in result.fans))
stdlib = set(sys.stdlib_module_names) | {"guobiao", "__main__", "_distutils_hack"}
outside = sorted({m.split(".")[0] for m in sys.modules} - stdlib)
print("third-party:", outside)
"""


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run(
        args, capture_output=True, text=True, check=False, timeout=600, env=env, **kwargs
    )


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv (no system site-packages) with guobiao installed from the sources and no
    dependency at all (``--no-deps``)."""
    where = tmp_path_factory.mktemp("bare") / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(where)
    done = _run(
        [str(where / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", str(ROOT)]
    )
    assert done.returncode == 0, done.stderr
    return where


def test_the_core_installs_and_scores_with_no_third_party_package(bare: Path) -> None:
    listed = _run([str(bare / "bin" / "python"), "-m", "pip", "list", "--format=freeze"])
    names = {line.split("==")[0].lower() for line in listed.stdout.split()}
    assert names <= {"guobiao", "pip", "setuptools"}, names
    done = _run([str(bare / "bin" / "python"), "-c", SCORE], cwd=bare)
    assert done.returncode == 0, done.stderr
    scored, third = done.stdout.splitlines()
    hand = guobiao.parse_hand("W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5")
    here = guobiao.calculate(hand, guobiao.WinContext(win_tile=hand.win_tile))
    assert scored == f"{here.total} {sorted(f.fan.name for f in here.fans)}"  # as the sources score
    assert "NINE_GATES" in scored
    assert third == "third-party: []"


def test_pip_install_without_extras_gives_a_working_command(bare: Path) -> None:
    done = _run([str(bare / "bin" / "python"), "-m", "pip", "install", "-q", str(ROOT)])
    assert done.returncode == 0, done.stderr
    guobiao = str(bare / "bin" / "guobiao")
    scored = _run([guobiao, "fan", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5", "--json"], cwd=bare)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["total"] == 91  # the score the previous test checked
    for command, extra in (
        (["tournament", "standings", "club"], "tournament"),
        (["serve", "--port", "8765"], "web"),
        (["simulate", "--sessions", "1", "--ray-address", "local"], "ray"),
    ):
        done = _run([guobiao, *command], cwd=bare)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert f"pip install 'guobiao[{extra}]'" in done.stderr, (command, done.stderr)
        assert "Traceback" not in done.stderr
    assert sys.version_info >= (3, 11)


LICENCE = """
import importlib.metadata as md
dist = md.distribution("guobiao")
print(dist.metadata["License-Expression"])
(licence,) = [f for f in dist.files if f.name == "LICENSE"]
print(licence.locate().read_text(encoding="utf-8"), end="")
"""


def test_the_installed_package_carries_its_licence_and_runs_as_python_m(bare: Path) -> None:
    python = str(bare / "bin" / "python")
    shown = _run([python, "-c", LICENCE], cwd=bare)
    assert shown.returncode == 0, shown.stderr
    expression, text = shown.stdout.split("\n", 1)
    assert expression == "MIT"
    assert text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Permission is hereby granted, free of charge" in text
    # without the console script on the PATH, the module runs the same command
    version = _run([python, "-m", "guobiao", "--version"], cwd=bare)
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"guobiao, version {guobiao.__version__}"
    scored = _run(
        [python, "-m", "guobiao", "fan", "W1W1W1W2W3W4W5W6W7W8W9W9W9 +W5", "--json"], cwd=bare
    )
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["total"] == 91
