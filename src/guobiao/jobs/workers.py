"""Running many independent jobs (simulated sessions, arena deals) in parallel: here, in local
worker processes, or on a Ray cluster (an adapter; the core never imports it).

Every job carries its own seed, so the results do not depend on where or in which order the jobs
ran: :func:`run_jobs` returns them in the order of the jobs, identical to a serial run, and
:func:`iter_jobs` hands them over one by one in that order, so that a long run can fold each
result into a total (or write it out) and drop it: its memory then does not grow with the jobs.

- ``workers=1`` and no Ray address: in this process, one after the other.
- ``workers=N``: ``N`` local processes (``concurrent.futures``, the ``spawn`` start method, so a
  job sees nothing of this process but its arguments); at most :data:`WINDOW` jobs per worker
  are handed out ahead of the next result to return, so finished results never pile up here.
- ``ray_address``: Ray (``pip install 'guobiao[ray]'``). ``"local"`` starts a one-machine Ray
  instance with ``workers`` CPUs (what the tests use: Ray 2.60 no longer has a ``local_mode``);
  ``"auto"`` or ``"ray://host:10001"`` joins a running cluster (docs/distributed.md).
"""

from __future__ import annotations

import logging
import multiprocessing
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Final, TypeVar

__all__ = ["WINDOW", "WorkerError", "iter_jobs", "run_jobs"]

J = TypeVar("J")
R = TypeVar("R")

WINDOW: Final = 4
"""Jobs handed to each local worker process ahead of the next result to return."""


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
    out = []
    for result in iter_jobs(function, jobs, workers=workers, ray_address=ray_address):
        out.append(result)
        if on_done is not None:
            on_done(1)
    return out


def iter_jobs(
    function: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int = 1,
    ray_address: str | None = None,
) -> Iterator[R]:
    """``function(job)`` for each job, yielded in the order of the jobs as soon as it and every
    earlier one are done, computed as :func:`run_jobs` says. Only the results not yet yielded
    are held here (locally at most ``WINDOW * workers``; Ray keeps the others in its object
    store), so a caller that folds each result into a total runs in flat memory.

    A failed job raises :class:`WorkerError` naming it (serially: the job's own exception)
    when its turn comes; the jobs still waiting are then cancelled."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if ray_address is not None:
        return _on_ray(function, jobs, workers, ray_address)
    if workers == 1 or len(jobs) <= 1:
        return map(function, jobs)
    return _in_processes(function, jobs, workers)


def _in_processes(function: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    context = multiprocessing.get_context("spawn")
    ahead = WINDOW * workers
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        running: deque[Future[R]] = deque()
        submitted = 0
        try:
            for index in range(len(jobs)):
                while submitted < len(jobs) and submitted < index + ahead:
                    running.append(pool.submit(function, jobs[submitted]))
                    submitted += 1
                future = running.popleft()
                try:
                    result = future.result()
                except Exception as err:
                    raise WorkerError(f"job {index + 1} failed in a worker: {err!r}") from err
                yield result
        except BaseException:  # a failed job, or the caller stopped early
            for future in running:
                future.cancel()
            raise


def _on_ray(
    function: Callable[[J], R], jobs: Sequence[J], workers: int, address: str
) -> Iterator[R]:
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
        # Every job is submitted at once (the cluster schedules them); a result stays in Ray's
        # object store until its turn, and its reference is dropped once it is fetched.
        refs: list[Any] = [remote.remote(job) for job in jobs]
        for index in range(len(refs)):
            try:
                result = ray.get(refs[index])
            except Exception as err:
                raise WorkerError(f"job {index + 1} failed on Ray: {err}") from err
            refs[index] = None
            yield result
    finally:
        if started_here:
            ray.shutdown()
