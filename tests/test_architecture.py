"""The layering of docs/architecture.md holds: the core imports no adapter and nothing third-party."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "guobiao"
ADAPTERS = {
    "arena",
    "botzone_log",
    "cli",
    "cliutil",
    "jsonio",
    "bots",
    "botzone",
    "terminal",
    "replay",
    "simulation",
    "workers",
    "tournament_cli",
    "tournament_common",
    "tournament_entry",
    "tournament_papers",
    "tournament_referee",
    "tournament.store",
    "tournament.models",
    "tournament.reports",
    "server",
    "server.__init__",
    "server.app",
    "server.protocol",
    "server.rooms",
    "server.store",
    "server.accounts",
    "server.tournament",
    "env",
    "env.__init__",
    "env._table",
    "env.aec",
    "env.gym",
    "env.observation",
    "env.parallel",
    "env.spaces",
}
CORE = sorted(
    p
    for p in SRC.rglob("*.py")
    if "migrations" not in p.parts
    and p.relative_to(SRC).with_suffix("").as_posix().replace("/", ".") not in ADAPTERS
)


def imported(path: Path) -> set[str]:
    """Absolute names of the modules a file imports (relative imports resolved in the package)."""
    package = path.relative_to(SRC).parent.parts
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ("guobiao", *package[: len(package) - node.level + 1])
                module = ".".join((*base, node.module)) if node.module else ".".join(base)
                names.add(module)
                if not node.module:  # from . import bots
                    names.update(f"{module}.{alias.name}" for alias in node.names)
            elif node.module:
                names.add(node.module)
    return names


@pytest.mark.parametrize("path", CORE, ids=[p.relative_to(SRC).as_posix() for p in CORE])
def test_core_module_imports_only_the_core_and_the_standard_library(path: Path) -> None:
    for name in imported(path):
        top = name.split(".")[0]
        if top == "guobiao":
            inner = name.removeprefix("guobiao.")
            assert inner not in ADAPTERS, f"{path.name} imports the adapter {name}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", (
                f"{path.name} imports {name}, which is not in the standard library"
            )


def test_the_core_list_is_not_empty() -> None:
    assert len(CORE) > 20
