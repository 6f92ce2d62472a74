"""Long store operations (install, update, uninstall, update-all) as jobs.

A request submits a job and answers at once with its id; one runner thread runs the
jobs one at a time, in the order they were submitted, so two installs never run pip at
the same time. A job's progress, state and result are kept in ``<cache_dir>/store/
jobs.json`` (``web_service.store.jobs_file``), so they outlive a restart: a job the previous
process left queued or running is marked failed (``INTERRUPTED``) when the store is
opened. At most one queued or running job per plugin, and one ``update_all``, exist at
a time: another is refused with ``JobConflict`` (409 ``JOB_RUNNING``).

Times are Unix time in seconds (floats). The work of a job is a function
``work(report) -> dict``; ``report({"step", "bytes", "files_done", "files_total"})``
updates the job's progress (any key may be left out), written to the file at most every
``save_interval`` seconds and at every change of step. What ``work`` returns becomes the
job's ``result``; an error carrying an ``error_code`` (``StoreError``, ``LedpanelError``)
fails the job with its message and code, anything else with ``INTERNAL`` and a generic
message (the traceback goes to the log only).
"""

from __future__ import annotations

import copy
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.errors import LedpanelError
from shared.history import ERROR, STORE, SUCCESS, HistoryWriter
from shared.ids import is_plain_segment
from web_service.store.jobs_file import (
    DONE,
    FAILED,
    JOBS_FILE,
    KINDS,
    QUEUED,
    RUNNING,
    describe,
    is_job_id,
    jsonable,
    read_jobs,
    valid_progress,
    write_jobs,
)

logger = logging.getLogger(__name__)

__all__ = ["DONE", "FAILED", "KINDS", "QUEUED", "RUNNING", "JobConflict", "JobRunner",
           "JobStore", "Report", "Work", "describe", "is_job_id"]

Report = Callable[[dict[str, Any]], None]
Work = Callable[[Report], dict[str, Any]]

STORE_DIR = "store"
KEEP_FINISHED = 100
SAVE_INTERVAL = 0.5
INTERRUPTED = "INTERRUPTED"
INTERRUPTED_MESSAGE = "stopped by a restart of the web service before it finished"
INTERNAL = "INTERNAL"
UPDATE_ALL = "update_all"


def store_dir(cache_dir: Path) -> Path:
    """Return the store's cache and state folder of the instance using ``cache_dir``."""
    return cache_dir / STORE_DIR


class JobConflict(LedpanelError):
    """A job for the same plugin (or another update of every plugin) is queued or running."""

    error_code = "JOB_RUNNING"
    status = 409

    def __init__(self, job: dict[str, Any]) -> None:
        super().__init__(f"an {job['description']} is already {job['state']} (job "
                         f"{job['id']}); wait for it to finish",
                         details={"job_id": job["id"]})
        self.job_id: str = job["id"]


class JobStore:
    """Every job of one instance, in memory and in ``<directory>/jobs.json``; thread-safe."""

    def __init__(self, directory: Path, *, keep: int = KEEP_FINISHED,
                 save_interval: float = SAVE_INTERVAL,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = directory / JOBS_FILE
        self.keep = keep
        self.save_interval = save_interval
        self._clock = clock
        self._lock = threading.Condition()
        self._write_lock = threading.Lock()
        self._jobs: dict[str, dict[str, Any]] = {j["id"]: j for j in read_jobs(self.path)}
        self._pending: deque[tuple[str, Work]] = deque()
        self._active: str | None = None
        self._saved_at = 0.0
        self.recover()

    def recover(self) -> int:
        """Mark failed the jobs a stopped process left queued or running; return how many."""
        now = self._clock()
        with self._lock:
            ours = {job_id for job_id, _ in self._pending} | {self._active}
            stale = [j for j in self._jobs.values()
                     if j["state"] in (QUEUED, RUNNING) and j["id"] not in ours]
            for job in stale:
                job.update(state=FAILED, message=INTERRUPTED_MESSAGE, error_code=INTERRUPTED,
                           finished_at=now)
                logger.warning("store job %s: %s %s", job["id"], job["description"],
                               INTERRUPTED_MESSAGE)
        if stale:
            self._save()
        return len(stale)

    def submit(self, kind: str, plugin_id: str | None, work: Work, *,
               source: str | None = None) -> dict[str, Any]:
        """Queue ``work`` as a job of ``kind`` on ``plugin_id`` (from ``source``, a
        repository URL, when given) and return the job; raise ``JobConflict`` when one
        for the same plugin (or update-all) is pending."""
        if kind not in KINDS:
            raise ValueError(f"unknown job kind {kind!r}")
        if plugin_id is not None and not is_plain_segment(plugin_id):
            raise ValueError(f"plugin id {plugin_id!r} is not a plain name")
        with self._lock:
            for job in self._jobs.values():
                if job["state"] in (QUEUED, RUNNING) and (
                        (plugin_id is not None and job["plugin_id"] == plugin_id)
                        or (kind == UPDATE_ALL and job["kind"] == UPDATE_ALL)):
                    raise JobConflict(job)
            job_id = secrets.token_urlsafe(9)  # 12 characters
            job = {"id": job_id, "kind": kind, "plugin_id": plugin_id, "state": QUEUED,
                   "description": describe(kind, plugin_id, source), "step": "queued",
                   "progress": valid_progress(None), "message": "",
                   "result": None, "error_code": None, "created_at": self._clock(),
                   "started_at": None, "finished_at": None}
            self._jobs[job_id] = job
            self._trim()
            self._pending.append((job_id, work))
            self._lock.notify_all()
            answer = self._shown(job)
        logger.info("store job %s: %s queued", job_id, job["description"])
        self._save()
        return answer

    def get(self, job_id: str) -> dict[str, Any] | None:
        """Return the job ``job_id``, or None when there is none."""
        with self._lock:
            job = self._jobs.get(job_id)
            return self._shown(job) if job is not None else None

    def jobs(self, *, plugin_id: str | None = None, limit: int = KEEP_FINISHED
             ) -> list[dict[str, Any]]:
        """Return up to ``limit`` jobs, newest first, only ``plugin_id``'s when given."""
        with self._lock:
            found = [j for j in reversed(self._jobs.values())
                     if plugin_id is None or j["plugin_id"] == plugin_id]
            return [self._shown(job) for job in found[:max(0, limit)]]

    def _shown(self, job: dict[str, Any]) -> dict[str, Any]:
        """A copy of ``job`` as answers show it: a queued job names the job it waits
        behind in ``waiting_for`` and its step (called under the lock)."""
        shown = copy.deepcopy(job)
        shown["waiting_for"] = None
        if job["state"] == QUEUED:
            ahead = self._jobs.get(self._active) if self._active is not None else None
            if ahead is None:  # none running yet: the first queued before it
                ahead = next((self._jobs[i] for i, _ in self._pending
                              if i != job["id"] and i in self._jobs), None)
                if ahead is not None and ahead["created_at"] > job["created_at"]:
                    ahead = None
            if ahead is not None:
                shown["waiting_for"] = {"job_id": ahead["id"],
                                        "description": ahead["description"]}
                shown["step"] = f"waiting for: {ahead['description']}"
        return shown

    def take(self, timeout: float, stop: threading.Event | None = None
             ) -> tuple[str, Work] | None:
        """Return the next queued job's id and work, waiting up to ``timeout`` seconds;
        None at once when ``stop`` is set (and ``wake`` was called)."""
        with self._lock:
            self._lock.wait_for(lambda: bool(self._pending) or (stop is not None
                                                                and stop.is_set()), timeout)
            if not self._pending or (stop is not None and stop.is_set()):
                return None
            return self._pending.popleft()

    def wake(self) -> None:
        """Wake the threads waiting in ``take`` to look at their ``stop`` event."""
        with self._lock:
            self._lock.notify_all()

    def run(self, job_id: str, work: Work) -> dict[str, Any]:
        """Run the queued job ``job_id`` on this thread and return it finished."""
        with self._lock:
            job = self._jobs[job_id]
            job.update(state=RUNNING, step="starting", started_at=self._clock())
            self._active = job_id
        logger.info("store job %s: %s started", job_id, job["description"])
        self._save()
        try:
            outcome: dict[str, Any] = {"state": DONE, "step": "done",
                                       "result": jsonable(work(self._reporter(job_id)))}
            result = outcome["result"] or {}
            outcome["message"] = (result["message"] if isinstance(result.get("message"), str)
                                  else f"{job['kind']} finished")
        except Exception as err:  # isolation boundary: one job's failure ends only it
            outcome = {"state": FAILED, **_failure(job_id, job["kind"], err)}
        except BaseException as err:  # SystemExit and the like: the job must not stay running
            self._finish(job, {"state": FAILED, **_failure(job_id, job["kind"], err)})
            raise
        return self._finish(job, outcome)

    def _finish(self, job: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            job.update(outcome, finished_at=self._clock())
            self._active = None
            finished = copy.deepcopy(job)
        self._save()
        level = logging.INFO if finished["state"] == DONE else logging.WARNING
        logger.log(level, "store job %s: %s %s: %s", job["id"], finished["description"],
                   finished["state"], finished["message"])
        return finished

    def _reporter(self, job_id: str) -> Report:
        def report(progress: dict[str, Any]) -> None:
            if not isinstance(progress, dict):
                return
            with self._lock:
                job = self._jobs.get(job_id)
                if job is None or job["state"] != RUNNING:
                    return
                merged = valid_progress({**job["progress"], **progress})
                step = progress.get("step")
                step = step[:100] if isinstance(step, str) else job["step"]
                new_step = step != job["step"]
                job.update(progress=merged, step=step)
                due = new_step or self._clock() - self._saved_at >= self.save_interval
            if due:
                self._save()
        return report

    def _trim(self) -> None:
        """Drop the oldest finished jobs past ``keep`` (called under the lock)."""
        finished = [j["id"] for j in self._jobs.values() if j["state"] in (DONE, FAILED)]
        for job_id in finished[:max(0, len(finished) - self.keep)]:
            del self._jobs[job_id]

    def _save(self) -> None:
        # The snapshot is taken inside the write lock: an older state never lands last.
        with self._write_lock:
            with self._lock:
                snapshot = copy.deepcopy(list(self._jobs.values()))
                self._saved_at = self._clock()
            write_jobs(self.path, snapshot)


def _failure(job_id: str, kind: str, err: BaseException) -> dict[str, Any]:
    """Return the message and error code a failed job shows for ``err``."""
    code = getattr(err, "error_code", None)
    if isinstance(code, str) and code:  # StoreError, or any LedpanelError the work raised
        message = getattr(err, "message", None)
        return {"message": message if isinstance(message, str) else str(err),
                "error_code": code}
    logger.error("store job %s: %s failed unexpectedly", job_id, kind, exc_info=err)
    return {"message": f"the {kind} failed unexpectedly; the web service log has the details",
            "error_code": INTERNAL}


class JobRunner:
    """Run a store's jobs on one worker thread, one at a time in submit order, and record
    each finished job in the operation history (kind ``store``)."""

    def __init__(self, store: JobStore, history: HistoryWriter | None = None, *,
                 poll: float = 0.5) -> None:
        self.store = store
        self.history = history
        self.poll = poll
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    @property
    def running(self) -> bool:
        """True while the worker thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start the worker thread (once; later calls do nothing while it runs)."""
        with self._start_lock:
            if self.running:
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="store-jobs", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> bool:
        """Stop the worker after its current job; wait up to ``timeout`` seconds. Return
        True when it stopped (a job still running is marked interrupted at next start)."""
        self._stop.set()
        self.store.wake()
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        if thread.is_alive():
            logger.warning("store jobs: a job is still running at shutdown; it will show as "
                           "interrupted after the restart")
            return False
        return True

    def _loop(self) -> None:
        while not self._stop.is_set():  # each wait is bounded by ``poll``
            item = self.store.take(self.poll, self._stop)
            if item is not None:
                self.run_one(*item)

    def run_one(self, job_id: str, work: Work) -> dict[str, Any]:
        """Run one job now, on this thread, and record it in the history."""
        finished = self.store.run(job_id, work)
        if self.history is not None:
            result = finished["result"] or {}
            self.history.record(
                STORE, finished["kind"], SUCCESS if finished["state"] == DONE else ERROR,
                plugin_id=finished["plugin_id"], job_id=finished["id"],
                error_code=finished["error_code"], version=_short(result.get("version")),
                update_status=_short(result.get("update_status")),
                detail=finished["message"] or None)
        return finished


def _short(value: Any) -> str | None:
    return value[:100] if isinstance(value, str) else None
