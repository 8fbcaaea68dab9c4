"""Running many independent jobs (simulated sessions, arena deals) in parallel: here, in local
worker processes, or on a Ray cluster (an adapter; the core never imports it).

Every job carries its own seed, so the results do not depend on where or in which order the jobs
ran: :func:`run_jobs` returns them in the order of the jobs, identical to a serial run.

- ``workers=1`` and no Ray address: in this process, one after the other.
- ``workers=N``: ``N`` local processes (``concurrent.futures``, the ``spawn`` start method, so a
  job sees nothing of this process but its arguments).
- ``ray_address``: Ray (``pip install 'guobiao[ray]'``). ``"local"`` starts a one-machine Ray
  instance with ``workers`` CPUs (what the tests use: Ray 2.60 no longer has a ``local_mode``);
  ``"auto"`` or ``"ray://host:10001"`` joins a running cluster (docs/distributed.md).
"""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, TypeVar

__all__ = ["WorkerError", "run_jobs"]

J = TypeVar("J")
R = TypeVar("R")


class WorkerError(RuntimeError):
    """Ray is missing or unreachable, or a job failed in a worker (the message says which)."""


def run_jobs(
    function: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_done: Callable[[int], None] | None = None,
) -> list[R]:
    """``[function(job) for job in jobs]``, computed serially, in ``workers`` processes or on
    Ray; ``function`` must be a module-level function (it is pickled). ``on_done(k)`` is called
    in this process each time ``k`` more jobs have finished (progress bars)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if ray_address is not None:
        return _on_ray(function, jobs, workers, ray_address, on_done)
    if workers == 1 or len(jobs) <= 1:
        out = []
        for job in jobs:
            out.append(function(job))
            if on_done is not None:
                on_done(1)
        return out
    return _in_processes(function, jobs, workers, on_done)


def _in_processes(
    function: Callable[[J], R],
    jobs: Sequence[J],
    workers: int,
    on_done: Callable[[int], None] | None,
) -> list[R]:
    results: list[Any] = [None] * len(jobs)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {pool.submit(function, job): index for index, job in enumerate(jobs)}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    index = pending.pop(future)
                    try:
                        results[index] = future.result()
                    except Exception as err:
                        raise WorkerError(f"job {index + 1} failed in a worker: {err!r}") from err
                    if on_done is not None:
                        on_done(1)
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return results


def _on_ray(
    function: Callable[[J], R],
    jobs: Sequence[J],
    workers: int,
    address: str,
    on_done: Callable[[int], None] | None,
) -> list[R]:
    try:
        import ray
    except ModuleNotFoundError:  # the command line names the extra to install
        raise ModuleNotFoundError(
            "Ray is not installed: pip install 'guobiao[ray]' (or pip install ray)", name="ray"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address == "local":
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except Exception as err:  # ConnectionError, RuntimeError, ValueError from Ray
            raise WorkerError(f"cannot start or join Ray at {address!r}: {err}") from err
    try:
        remote = ray.remote(function)
        refs = [remote.remote(job) for job in jobs]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[Any] = [None] * len(jobs)
        waiting = list(refs)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                try:
                    results[index[ref]] = ray.get(ref)
                except Exception as err:
                    raise WorkerError(f"job {index[ref] + 1} failed on Ray: {err}") from err
                if on_done is not None:
                    on_done(1)
        return results
    finally:
        if started_here:
            ray.shutdown()
