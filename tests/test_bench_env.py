"""benchmarks/env.py against an in-run reference: alternating rounds, the ratio of the best rounds.

The PKU environment itself is never part of guobiao, so a stand-in with its API (``MahjongGBEnv``
and ``FeatureAgent`` in a folder of three files) plays here: what is checked is the benchmark's
arithmetic and its refusals, not anyone's speed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ENV_SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "env.py"

STAND_IN_ENV = """
import numpy as np

class MahjongGBEnv:
    def __init__(self, config):
        self.agent_clz = config["agent_clz"]

    def reset(self):
        self.steps = 0
        return {"player_1": {"observation": None, "action_mask": np.array([0, 1, 1])}}

    def step(self, actions):
        assert actions["player_1"] in ((1, 2) if self.steps == 0 else (0, 2))
        self.steps += 1
        rewards = {f"player_{i}": 0 for i in range(1, 5)}
        obs = {"player_1": {"observation": None, "action_mask": np.array([1, 0, 1])}}
        return obs, rewards, self.steps >= 5
"""


def stand_in(folder: Path) -> Path:
    folder.mkdir()
    (folder / "env.py").write_text(STAND_IN_ENV)
    (folder / "agent.py").write_text("class MahjongGBAgent:\n    pass\n")
    (folder / "feature.py").write_text("class FeatureAgent:\n    pass\n")
    return folder


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ENV_SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "GUOBIAO_PKU_ENV"},
    )


def test_rounds_alternate_and_the_best_of_each_side_is_divided(tmp_path: Path) -> None:
    folder = stand_in(tmp_path / "pku")
    done = run("-n", "3", "--reference", str(folder), "--reference-hands", "4", "--rounds", "3")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    rounds = re.findall(
        r"round (\d): reference ([\d.]+) hands/s \(CPU time [\d.]+\), "
        r"AEC env cold (\d+) \(CPU time \d+\): ratio ([\d.]+)",
        out,
    )
    assert [r[0] for r in rounds] == ["1", "2", "3"]
    for _, ref, cold, ratio in rounds:
        assert float(ratio) == pytest.approx(int(cold) / float(ref), rel=0.02, abs=0.01)
    assert "4 hands (5.0 steps/hand; 0 wins, 4 wall games, 0 rejected)" in out
    best = re.search(
        r"best of 3: reference ([\d.]+) hands/s, AEC env cold (\d+): ratio ([\d.]+)", out
    )
    assert best, out
    assert float(best[1]) == max(float(r[1]) for r in rounds)
    assert int(best[2]) == max(int(r[2]) for r in rounds)
    assert float(best[3]) == pytest.approx(int(best[2]) / float(best[1]), rel=0.02, abs=0.01)
    assert "(target 6.00: " in out or "(target 10.00: " in out


def test_no_round_and_a_missing_folder_are_one_line_refusals(tmp_path: Path) -> None:
    done = run("-n", "3", "--rounds", "0")
    assert done.returncode == 2
    assert done.stderr.strip() == "env.py: -n, --rounds and --reference-hands must be at least 1"
    done = run("-n", "3", "--reference", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert done.stderr.strip() == f"env.py: reference folder {tmp_path / 'nowhere'} does not exist"
    assert not done.stdout


def test_without_a_reference_the_output_says_it_was_not_measured() -> None:
    done = run("-n", "2")
    assert done.returncode == 0, done.stderr
    assert "in-run reference: not measured" in done.stdout
    assert "round 1" not in done.stdout
