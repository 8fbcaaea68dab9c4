"""The load test, short: 50 tables of WebSocket players (benchmarks/load.py) for about 12 s
against a real ``guobiao serve``. No errors allowed; the latency figures are reported, not
asserted (they depend on the machine)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

LOAD = Path(__file__).resolve().parents[1] / "benchmarks" / "load.py"


def load_module() -> Any:
    if "guobiao_load" in sys.modules:
        return sys.modules["guobiao_load"]
    spec = importlib.util.spec_from_file_location("guobiao_load", LOAD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["guobiao_load"] = module
    spec.loader.exec_module(module)
    return module


def test_the_soak_reports_the_memory_trend() -> None:
    """The soak's memory slope: least squares over the samples after the warm-up only."""
    module = load_module()
    assert module.slope([(0, 5.0), (1, 7.0), (2, 9.0)]) == pytest.approx(2.0)
    assert module.slope([(0, 5.0)]) == 0.0
    samples = [(float(t), 100.0 + (50.0 if t < 60 else 0.0) + t / 60) for t in range(0, 600, 5)]
    report = module.memory_report(samples, warmup=60)
    assert report["slope_mib_per_min"] == pytest.approx(1.0)  # the warm-up's jump left out
    assert report["warm_mib"] == pytest.approx(101.0)
    assert report["slope_pct_per_10min"] == pytest.approx(100 * 10 / 101, abs=0.01)
    assert report["max_mib"] == pytest.approx(150 + 55 / 60, abs=0.05)


def test_fifty_tables_play_without_errors(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_module()
    duration = float(os.environ.get("GUOBIAO_LOAD_SECONDS", "12"))
    report = module.run_load(tables=50, duration=duration)
    with capsys.disabled():
        print("\nload test:", json.dumps(report))
    assert report["errors"] == 0, report["error_samples"]
    assert report["rooms"] == 50
    assert report["actions"] > 50  # every table played
    assert report["latency_ms"]["p50"] > 0
    memory = report["memory"]
    assert memory["samples"] and memory["max_mib"] >= memory["start_mib"] > 0


def test_answers_after_the_claim_window_are_refused_as_late_not_misapplied() -> None:
    """Players slower than the 1 s claim window: their answers to a closed window carry its
    decision, the server refuses them as ``stale`` and sends the state now, which they answer;
    none is applied to a decision they have not seen (that was an ``illegal_action`` error)."""
    module = load_module()
    report = module.run_load(tables=4, duration=8, think=(0.9, 1.4), warmup=0)
    assert report["errors"] == 0, report["error_samples"]
    assert report["stale"] > 0  # the windows closed before some answers came
    assert report["actions"] > report["stale"]  # and play went on
