"""Running many independent jobs (simulated sessions, arena deals) in parallel: here, in local
worker processes, or on a Ray cluster (an adapter; the core never imports it).

Every job carries its own seed, so the results do not depend on where or in which order the jobs
ran: :func:`run_jobs` returns them in the order of the jobs, identical to a serial run, and
:func:`iter_jobs` hands them over one by one in that order, so that a long run can fold each
result into a total (or write it out) and drop it: its memory then does not grow with the jobs.
The jobs may be any iterable, a generator too: they are read only as they are handed out, so a
run of a billion jobs starts at once and holds only the few in flight.

- ``workers=1`` and no Ray address: in this process, one after the other.
- ``workers=N``: ``N`` local processes (``concurrent.futures``, the ``spawn`` start method, so a
  job sees nothing of this process but its arguments); at most :data:`WINDOW` jobs per worker
  are handed out ahead of the next result to return, so finished results never pile up here.
  The workers leave Ctrl-C (SIGINT, which a terminal sends to every process of the command) to
  this process: when the caller stops early (Ctrl-C, a failed job, a loop left), the jobs not
  started are cancelled and the workers are stopped at once (SIGTERM: a job's own clean-up, such
  as killing the bot programs it started, runs first), not waited for.
- ``ray_address``: Ray (``pip install 'guobiao[ray]'``). ``"local"`` starts a one-machine Ray
  instance with ``workers`` CPUs (what the tests use: Ray 2.60 no longer has a ``local_mode``);
  ``"auto"`` or ``"ray://host:10001"`` joins a running cluster (docs/distributed.md). At most
  :data:`WINDOW` jobs per CPU of the cluster are submitted ahead of the next result to return;
  the tasks still pending are cancelled when the caller stops early.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from concurrent.futures import Future, ProcessPoolExecutor
from types import FrameType
from typing import Any, Final, NoReturn, TypeVar

__all__ = ["WINDOW", "WorkerError", "iter_jobs", "run_jobs"]

J = TypeVar("J")
R = TypeVar("R")

WINDOW: Final = 4
"""Jobs handed to each local worker process (or Ray CPU) ahead of the next result to return."""

_STOP_GRACE: Final = 5.0
"""Seconds a stopped worker has for its job's clean-up before it is killed."""


class WorkerError(RuntimeError):
    """Ray is missing or unreachable, or a job failed in a worker (the message says which)."""


def run_jobs(
    function: Callable[[J], R],
    jobs: Iterable[J],
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
    jobs: Iterable[J],
    *,
    workers: int = 1,
    ray_address: str | None = None,
) -> Iterator[R]:
    """``function(job)`` for each job, yielded in the order of the jobs as soon as it and every
    earlier one are done, computed as :func:`run_jobs` says. The jobs are read as they are handed
    out and only the results not yet yielded are held here (at most ``WINDOW`` per worker, or
    per Ray CPU), so a caller that folds each result into a total runs in flat memory, however
    many jobs there are.

    A failed job raises :class:`WorkerError` naming it (serially: the job's own exception)
    when its turn comes; the jobs still waiting are then cancelled and the workers stopped, as
    when the caller stops early (Ctrl-C, or a loop left)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if ray_address is not None:
        return _on_ray(function, jobs, workers, ray_address)
    if workers == 1 or (isinstance(jobs, Sized) and len(jobs) <= 1):
        return map(function, jobs)
    return _in_processes(function, jobs, workers)


# -- local processes ---------------------------------------------------------------------------


class _Stopped(SystemExit):
    """Raised in a worker by SIGTERM: the job unwinds (its ``finally`` blocks run), then the
    worker ends quietly (a ``SystemExit``: no traceback)."""


def _worker_stopped(signum: int, frame: FrameType | None) -> NoReturn:
    # Once: a second SIGTERM (the pool's own, when it sees another worker end) must not break
    # into the clean-up this one starts.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Stopped(128 + signum)


def _worker_ignores_interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C (or SIGHUP) in a worker: nothing. The parent decides (a handler rather than
    SIG_IGN, so that the programs a job starts do not inherit an ignored signal)."""


def _worker_started() -> None:
    signal.signal(signal.SIGINT, _worker_ignores_interrupt)
    if hasattr(signal, "SIGHUP"):  # the terminal closed: the parent decides, as for Ctrl-C
        signal.signal(signal.SIGHUP, _worker_ignores_interrupt)
    signal.signal(signal.SIGTERM, _worker_stopped)


def _call(function: Callable[[J], R], job: J) -> R:
    """``function(job)`` in a worker; stopped (SIGTERM) mid-job, the worker exits once the job
    has unwound, instead of reporting it and taking the next job from its queue."""
    try:
        return function(job)
    except _Stopped as stopped:
        os._exit(stopped.code if isinstance(stopped.code, int) else 1)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now (SIGTERM, then SIGKILL after :data:`_STOP_GRACE` seconds), rather
    than wait for the jobs they are running; the pool then fails the jobs not done (no future is
    cancelled here: Python 3.11's pool cannot fail a cancelled one, a traceback in its thread)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(_STOP_GRACE)
            if process.is_alive():
                process.kill()
                process.join()
    pool.shutdown(wait=True)


def _in_processes(function: Callable[[J], R], jobs: Iterable[J], workers: int) -> Iterator[R]:
    context = multiprocessing.get_context("spawn")
    ahead = WINDOW * workers
    source = iter(jobs)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_started)
    running: deque[Future[R]] = deque()
    finished = False
    try:
        index = 0
        while True:
            for job in itertools.islice(source, ahead - len(running)):
                running.append(pool.submit(_call, function, job))
            if not running:
                break
            future = running.popleft()
            try:
                result = future.result()
            except Exception as err:
                raise WorkerError(f"job {index + 1} failed in a worker: {err!r}") from err
            index += 1
            yield result
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # a failed job, Ctrl-C, or the caller stopped early
            _stop(pool)


# -- Ray ---------------------------------------------------------------------------------------


def _on_ray(
    function: Callable[[J], R], jobs: Iterable[J], workers: int, address: str
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
    pending: deque[Any] = deque()
    try:
        remote = ray.remote(function)
        cpus = int(ray.cluster_resources().get("CPU", workers))  # type: ignore[no-untyped-call]
        ahead = WINDOW * max(workers, cpus, 1)
        source = iter(jobs)
        index = 0
        while True:
            # The cluster schedules what is submitted; a result stays in Ray's object store
            # until its turn, and its reference is dropped once it is fetched.
            for job in itertools.islice(source, ahead - len(pending)):
                pending.append(remote.remote(job))
            if not pending:
                break
            ref = pending.popleft()
            try:
                result = ray.get(ref)
            except Exception as err:
                raise WorkerError(f"job {index + 1} failed on Ray: {err}") from err
            del ref
            index += 1
            yield result
    finally:
        for ref in pending:  # stopped early: the tasks not fetched are not wanted
            with contextlib.suppress(Exception):
                ray.cancel(ref)
        pending.clear()
        if started_here:
            ray.shutdown()
