"""The load test, short: 50 tables of WebSocket players (benchmarks/load.py) for about 20 s
against a real ``guobiao serve``. No errors allowed; the latency figures are reported, not
asserted (they depend on the machine)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

LOAD = Path(__file__).resolve().parents[1] / "benchmarks" / "load.py"


def test_fifty_tables_play_without_errors(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("guobiao_load", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["guobiao_load"] = module
    spec.loader.exec_module(module)
    duration = float(os.environ.get("GUOBIAO_LOAD_SECONDS", "20"))
    report = module.run_load(tables=50, duration=duration)
    with capsys.disabled():
        print("\nload test:", json.dumps(report))
    assert report["errors"] == 0, report["error_samples"]
    assert report["rooms"] == 50
    assert report["actions"] > 50  # every table played
    assert report["latency_ms"]["p50"] > 0
