"""Which build of the core is under test. ``scripts/test`` runs the suite on the sources as they
read (pure Python), then the engine's tests again on the wheel whose core modules mypyc compiled
(``hatch_build.py``), with ``GUOBIAO_EXPECT_COMPILED=1``: each run checks it has the build it
means to test."""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

HOOK = Path(__file__).resolve().parents[1] / "hatch_build.py"


def compiled_modules() -> list[str]:
    """The modules hatch_build.py compiles (read from its source: hatchling is a build tool,
    not installed with the tests)."""
    for node in ast.parse(HOOK.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets
        ):
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("hatch_build.py names no COMPILED modules")


def test_the_core_modules_are_the_build_under_test() -> None:
    expected = os.environ.get("GUOBIAO_EXPECT_COMPILED") == "1"
    names = compiled_modules()
    assert "guobiao.table.game" in names
    for name in names:
        path = importlib.import_module(name).__file__ or ""
        assert path.endswith((".so", ".pyd")) is expected, f"{name}: {path}"
