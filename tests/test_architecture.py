"""The layering of docs/architecture.md holds (scripts/layers.py): each layer imports only the
layers below it, the core, scoring, the table and the bots import nothing outside the standard
library, and no modules import each other in a circle."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load_layers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layers", ROOT / "scripts" / "layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["layers"] = module
    spec.loader.exec_module(module)
    return module


layers = _load_layers()


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    src = tmp_path / "guobiao"
    for name, text in {"__init__.py": "", **files}.items():
        path = src / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return src


def test_the_tree_keeps_its_layers() -> None:
    assert layers.violations(layers.read_sources()) == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert layers.cycles(layers.read_sources().imports) == []


def test_every_layer_is_a_package_of_the_tree() -> None:
    sources = layers.read_sources()
    present = {layers.layer_of(m) for m in sources.imports}
    assert present == set(layers.LAYERS)
    assert len([m for m in sources.imports if layers.layer_of(m) == "core"]) >= 7


def test_the_pure_layers_import_only_the_standard_library() -> None:
    sources = layers.read_sources()
    for module, packages in sources.third_party.items():
        if layers.layer_of(module) in {"core", "scoring", "table", "bots", "guobiao"}:
            assert packages == set(), module


def test_the_core_importing_the_table_is_refused(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/tiles.py": "from guobiao.table.game import Game\n",
            "table/__init__.py": "",
            "table/game.py": "from guobiao.core import tiles\n",
        },
    )
    sources = layers.read_sources(src)
    problems = layers.violations(sources)
    assert problems == [
        "guobiao.core.tiles (core) imports guobiao.table.game (table): against the layers"
    ]
    assert layers.cycles(sources.imports) == [["guobiao.core.tiles", "guobiao.table.game"]]


def test_the_table_importing_a_transport_is_refused(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "table/__init__.py": "",
            "table/game.py": "def f():\n    from guobiao.server.app import create_app\n",
            "table/rules.py": "from .. import server\nimport fastapi\n",
            "server/__init__.py": "",
            "server/app.py": "",
        },
    )
    problems = layers.violations(layers.read_sources(src))
    assert (
        "guobiao.table.game (table) imports guobiao.server.app (server): against the layers"
        in problems
    )
    assert (
        "guobiao.table.rules (table) imports guobiao.server (server): against the layers"
        in problems
    )
    assert "guobiao.table.rules (table) imports the third-party package fastapi" in problems


def test_layers_of_one_rank_may_not_import_each_other(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {"env/__init__.py": "from guobiao.botzone import arena\n", "botzone/arena.py": ""},
    )
    assert layers.violations(layers.read_sources(src)) == [
        "guobiao.env (env) imports guobiao.botzone.arena (botzone): against the layers"
    ]


def test_a_circle_inside_one_layer_is_found(tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "botzone/arena.py": "from guobiao.botzone.log import x\n",
            "botzone/log.py": "def f():\n    from .replay import y\n",
            "botzone/replay.py": "from guobiao.botzone import arena\n",
            "botzone/protocol.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from guobiao.botzone.arena import z\n",
        },
    )
    sources = layers.read_sources(src)
    assert layers.violations(sources) == []
    assert layers.cycles(sources.imports) == [
        ["guobiao.botzone.arena", "guobiao.botzone.log", "guobiao.botzone.replay"]
    ]


def test_a_module_outside_every_layer_is_named(tmp_path: Path) -> None:
    src = _tree(tmp_path, {"misc.py": "import os\n"})
    assert layers.violations(layers.read_sources(src)) == [
        "guobiao.misc is in no layer (add its package to LAYERS)"
    ]


def test_the_script_prints_the_layers_and_says_they_hold() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "layers.py"), "--modules"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 core" in done.stdout and "7 cli" in done.stdout
    assert "scoring     -> core" in done.stdout
    assert "core.hand: core.melds, core.tiles" in done.stdout
    assert done.stdout.rstrip().endswith("Import circles: none")
