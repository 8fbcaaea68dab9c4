"""Parallel runs (issue 6 item 6): jobs run serially, in local processes and on a one-machine
Ray give the same results in the same order; `guobiao simulate --workers / --ray-address` equals
the serial run with the same seed; failures are reported by job, never as a hang."""

from __future__ import annotations

import json
import sys
from dataclasses import replace

import pytest
from click.testing import CliRunner

from guobiao.cli import main
from guobiao.jobs.simulation import play_job, session_jobs
from guobiao.jobs.workers import WorkerError, run_jobs
from guobiao.table.rules import COMPETITION


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x


def test_serial_and_processes_agree_in_order() -> None:
    jobs = list(range(20))
    done: list[int] = []
    assert run_jobs(square, jobs, workers=2, on_done=done.append) == [x * x for x in jobs]
    assert sum(done) == len(jobs)
    assert run_jobs(square, jobs) == [x * x for x in jobs]


def test_a_failing_job_is_named() -> None:
    with pytest.raises(WorkerError, match="job 4 failed in a worker: ValueError"):
        run_jobs(fail_on_three, [0, 1, 2, 3, 4], workers=2)
    with pytest.raises(ValueError, match="three"):
        run_jobs(fail_on_three, [3])  # serially the job's own error
    with pytest.raises(ValueError, match="at least 1"):
        run_jobs(square, [1], workers=0)


def test_sessions_are_the_same_wherever_they_run() -> None:
    jobs = session_jobs(4, ["fan", "efficiency", "random", "efficiency"], COMPETITION, 11)
    assert [j.seed for j in jobs] == [j.seed for j in session_jobs(4, ["fan"] * 4, COMPETITION, 11)]
    serial = run_jobs(play_job, jobs)
    parallel = run_jobs(play_job, jobs, workers=2)
    for a, b in zip(serial, parallel, strict=True):
        assert a.session.scores == b.session.scores
        assert [g.record() for g in a.games] == [g.record() for g in b.games]


def test_ray_local_gives_the_serial_results() -> None:
    jobs = session_jobs(3, ["efficiency"] * 4, COMPETITION, 5)
    serial = [p.session.scores for p in run_jobs(play_job, jobs)]
    on_ray = [p.session.scores for p in run_jobs(play_job, jobs, workers=2, ray_address="local")]
    assert on_ray == serial
    bad = [*jobs, replace(jobs[0], bots=("nope", "nope", "nope", "nope"))]
    with pytest.raises(WorkerError, match="job 4 failed on Ray"):
        run_jobs(play_job, bad, workers=2, ray_address="local")


def test_without_ray_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'guobiao\[ray\]'"):
        run_jobs(square, [1, 2], ray_address="local")
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "--ray-address", "local"])
    assert result.exit_code == 2 and "pip install 'guobiao[ray]'" in result.output
    assert "Traceback" not in result.output


def _summary(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(main, ["simulate", "-n", "6", "--seed", "9", "--json", *args])
    assert result.exit_code == 0, result.output
    out: dict[str, object] = json.loads(result.output)
    out.pop("hands_per_second")
    return out


def test_simulate_with_workers_equals_serial() -> None:
    assert _summary("--workers", "2") == _summary()
