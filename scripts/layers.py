#!/usr/bin/env python3
"""Print guobiao's layers and the imports between them, and check the layering.

    python3 scripts/layers.py            # the layers, their third-party imports, the layer graph
    python3 scripts/layers.py --modules  # also every module and the guobiao modules it imports

Reads the sources (src/guobiao) as text with :mod:`ast`; imports nothing of guobiao, so it runs
with a bare Python. Exit status 1 when an import runs against the layers (a module importing a
layer at its own rank or above, other than its own package), a layer imports a third-party
package it is not allowed, or modules import each other in a circle. docs/architecture.md
explains the layers; tests/test_architecture.py runs the same checks.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "guobiao"


@dataclass(frozen=True)
class Layer:
    rank: int  # a module may import guobiao modules of lower ranks, and its own package
    what: str
    third_party: frozenset[str] = frozenset()


LAYERS: dict[str, Layer] = {
    "core": Layer(0, "tiles, melds, hands, the win context, winning shapes, waits, shanten"),
    "scoring": Layer(1, "the 81 fans, the calculator, chow/pung combinations, explanations"),
    "guobiao": Layer(2, "the package's public names (from guobiao import ...)"),
    "table": Layer(2, "rules, wall, the game engine, settlement, sessions, agents, logs"),
    "bots": Layer(3, "agents that see only their seat's view"),
    "jobs": Layer(4, "seeded batch jobs: serial, local processes or Ray", frozenset({"ray"})),
    "botzone": Layer(5, "the Botzone protocol, the local judge and arena, match logs"),
    "env": Layer(
        5, "PettingZoo / Gymnasium environments", frozenset({"numpy", "gymnasium", "pettingzoo"})
    ),
    "tournament": Layer(
        5,
        "seating, ranking, storage, papers, referee accounts",
        frozenset({"sqlalchemy", "alembic"}),
    ),
    "server": Layer(
        6,
        "guobiao serve: web tables and tournament pages",
        frozenset({"fastapi", "pydantic", "starlette", "sqlalchemy", "uvicorn"}),
    ),
    "cli": Layer(
        7,
        "the guobiao command, one module per command group",
        frozenset({"click", "rich", "uvicorn", "sqlalchemy", "platformdirs"}),
    ),
    "__main__": Layer(8, "python -m guobiao: the guobiao command"),
}
"""Lowest first. The core, scoring, the table and the bots import only the standard library."""


def module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["guobiao", *parts])


def layer_of(module: str) -> str:
    """``guobiao.core.tiles`` -> ``core``; the package itself is the layer ``guobiao``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "guobiao"


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """Lines under ``if TYPE_CHECKING:``: those imports never run."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


@dataclass
class Sources:
    imports: dict[str, set[str]]  # guobiao module -> guobiao modules it imports (when it runs)
    third_party: dict[str, set[str]]  # guobiao module -> third-party top-level packages


def read_sources(src: Path = SRC) -> Sources:
    files = {
        module_name(p, src): p for p in sorted(src.rglob("*.py")) if "migrations" not in p.parts
    }
    imports: dict[str, set[str]] = {}
    third: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_lines(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        outside: set[str] = set()
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join([*base, node.module] if node.module else base)
                else:
                    module = node.module or ""
                targets = [module]
                # from guobiao.bots import plans: a module, not a name
                targets += [
                    f"{module}.{alias.name}"
                    for alias in node.names
                    if f"{module}.{alias.name}" in files
                ]
            for target in targets:
                top = target.split(".")[0]
                if top == "guobiao":
                    if target in files and target != name:
                        found.add(target)
                elif top not in sys.stdlib_module_names and top != "__future__":
                    outside.add(top)
        imports[name] = found
        third[name] = outside
    return Sources(imports, third)


def violations(sources: Sources, layers: Mapping[str, Layer] = LAYERS) -> list[str]:
    """Every import that runs against the layers, and every unknown layer, as a sentence."""
    problems: list[str] = []
    for module, targets in sorted(sources.imports.items()):
        layer = layer_of(module)
        if layer not in layers:
            problems.append(f"{module} is in no layer (add its package to LAYERS)")
            continue
        for target in sorted(targets):
            other = layer_of(target)
            if other == layer:
                continue
            if other not in layers or layers[other].rank >= layers[layer].rank:
                problems.append(
                    f"{module} ({layer}) imports {target} ({other}): against the layers"
                )
        allowed = layers[layer].third_party
        for package in sorted(sources.third_party.get(module, set()) - allowed):
            problems.append(f"{module} ({layer}) imports the third-party package {package}")
    return problems


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (or a module
    importing itself), each sorted, by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def layer_edges(sources: Sources) -> Counter[tuple[str, str]]:
    edges: Counter[tuple[str, str]] = Counter()
    for module, targets in sources.imports.items():
        for target in targets:
            if layer_of(module) != layer_of(target):
                edges[layer_of(module), layer_of(target)] += 1
    return edges


def report(sources: Sources, show_modules: bool = False) -> tuple[str, bool]:
    """The printed report, and whether the layering holds."""
    lines = ["Layers, lowest first (a layer imports only layers of a lower rank):", ""]
    members = Counter(layer_of(m) for m in sources.imports)
    for name, layer in sorted(LAYERS.items(), key=lambda item: (item[1].rank, item[0])):
        used = sorted(
            set().union(*(sources.third_party[m] for m in sources.imports if layer_of(m) == name))
            or {"-"}
        )
        lines.append(
            f"  {layer.rank} {name:<11} {members[name]:>2} modules  {layer.what}"
            f"\n  {'':<14}{'':>2}          third-party: {', '.join(used)}"
        )
    lines += ["", "Imports between layers (importing -> imported: how many module imports):", ""]
    edges = layer_edges(sources)
    rank = {name: layer.rank for name, layer in LAYERS.items()}
    for (a, b), count in sorted(edges.items(), key=lambda e: (-rank.get(e[0][0], 99), e[0])):
        lines.append(f"  {a:<11} -> {b:<11} {count}")
    if show_modules:
        lines += ["", "Modules and the guobiao modules they import:", ""]
        for module, targets in sorted(sources.imports.items()):
            short = ", ".join(t.removeprefix("guobiao.") for t in sorted(targets)) or "-"
            lines.append(f"  {module.removeprefix('guobiao.')}: {short}")
    problems = violations(sources)
    circles = cycles(sources.imports)
    lines.append("")
    lines.append(f"Against the layers: {len(problems) or 'none'}")
    lines += [f"  {p}" for p in problems]
    lines.append(f"Import circles: {len(circles) or 'none'}")
    lines += [f"  {' -> '.join(c)}" for c in circles]
    return "\n".join(lines), not problems and not circles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", action="store_true", help="also list every module's imports")
    args = parser.parse_args(argv)
    text, ok = report(read_sources(), args.modules)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
