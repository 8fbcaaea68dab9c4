"""An optional build step: the game loop's core modules and the fan calculator compiled to C
extensions with mypyc.

Off by default: ``pip install .`` installs pure Python, as the sources read. Turned on with
hatchling's switch for this hook:

    HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 pip install '.[rl]'

which also fetches the hook's build dependencies (mypy, setuptools; pyproject.toml) and needs a C
compiler and the Python headers. The same sources are compiled (:data:`COMPILED`); they stay in
the wheel next to their extensions, which Python imports first. An editable install is never
compiled (its sources are meant to be edited). docs/env.md gives the figures.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

COMPILED = (
    "guobiao/table/game.py",
    "guobiao/table/wall.py",
    "guobiao/core/bounded.py",
    "guobiao/core/shanten.py",
    "guobiao/core/shapes.py",
    "guobiao/core/waits.py",
    "guobiao/scoring/_fan_ids.py",
    "guobiao/scoring/_tables.py",
    "guobiao/scoring/combinations.py",
    "guobiao/scoring/calculator.py",
    "guobiao/env/observation.py",
    "guobiao/env/spaces.py",
    "guobiao/env/_table.py",
)
"""The modules on the hot path of a hand, relative to ``src/``: the engine and its wall (the
shuffle and the deal of every hand), the shanten tables,
the fan calculator with the shapes, waits and combination tables it reads (core and scoring: no
third-party imports), and the environments' step: the observation board, the action masks
(``spaces``) and the table that plays an index and fills a seat's observation and mask
(``_table``; numpy and Gymnasium are read through their Python objects). All are typed for ``mypy
--strict``; compiled, their functions check their arguments' types, their module constants
(``Final``) are read as C values, and their classes pickle and copy by their own ``__reduce__``
(a compiled class has no instance dictionary; the calculator's classes never leave a call)."""


class CompiledCoreHook(BuildHookInterface):
    PLUGIN_NAME = "custom"
    work: Path | None = None  # the compiler's scratch directory, removed once the wheel is built

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        from mypyc.build import mypycify
        from setuptools import Distribution

        src = Path(self.root) / "src"
        work = self.work = Path(tempfile.mkdtemp(prefix="guobiao-mypyc-"))
        here = Path.cwd()
        os.chdir(src)  # module names from the paths: guobiao/table/game.py is guobiao.table.game
        try:
            extensions = mypycify(list(COMPILED), opt_level="3", target_dir=str(work / "c"))
            dist = Distribution({"name": "guobiao", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(work / "lib")
            command.build_temp = str(work / "temp")
            dist.run_command("build_ext")
        finally:
            os.chdir(here)
        built = sorted((work / "lib").rglob("*.so")) + sorted((work / "lib").rglob("*.pyd"))
        if not built:
            raise RuntimeError("mypyc built no extension module")
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(work / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self.work is not None:
            shutil.rmtree(self.work, ignore_errors=True)
            self.work = None
