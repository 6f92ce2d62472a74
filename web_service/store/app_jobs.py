"""The web app's store jobs: one ``JobStore`` and one ``JobRunner`` per app.

``install_store_jobs`` opens the jobs file at app creation (a job an earlier process
left unfinished is marked interrupted then); the runner's thread starts with the first
submitted job, so start-up never waits on it and an app that runs no job has no thread.
``stop_store_jobs`` ends it when the daemon stops (bounded). Routes that start a long
store operation call ``submit_job``; ``web_service.api.store_jobs`` serves the jobs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, current_app

from web_service.history import HISTORY_KEY, WebHistory
from web_service.services import EXTENSION_KEY, WebServices
from web_service.store.jobs import JobConflict, JobRunner, JobStore, Work, describe, store_dir

logger = logging.getLogger(__name__)

JOBS_KEY = "ledpanel.store_jobs"
STOP_TIMEOUT = 5.0


@dataclass(frozen=True)
class StoreJobs:
    """One app's job store and the runner of its jobs."""

    store: JobStore
    runner: JobRunner


def install_store_jobs(app: Flask) -> None:
    """Keep the store's jobs in ``app`` (after ``install_history``: finished jobs are
    recorded in its history)."""
    web: WebServices = app.extensions[EXTENSION_KEY]
    history = cast(WebHistory | None, app.extensions.get(HISTORY_KEY))
    store = JobStore(store_dir(web.settings.paths.cache_dir))
    runner = JobRunner(store, history.writer if history is not None else None)
    app.extensions[JOBS_KEY] = StoreJobs(store, runner)


def store_jobs(app: Flask | None = None) -> StoreJobs:
    """Return the store jobs of ``app`` (the current app when None)."""
    return cast(StoreJobs, (app or current_app).extensions[JOBS_KEY])


def submit_job(app: Flask | None, kind: str, plugin_id: str | None,
               work: Work, *, source: str | None = None) -> dict[str, Any]:
    """Queue ``work`` as a store job of ``app`` (None: the current app) and return the job.

    Raises ``JobConflict`` (409 ``JOB_RUNNING``, ``details.job_id`` the pending job) when
    a job for the same plugin, or another update of every plugin, is queued or running.
    ``source`` (a repository URL) is named in the job's description.
    """
    jobs = store_jobs(app)
    try:
        job = jobs.store.submit(kind, plugin_id, work, source=source)
    except JobConflict as err:
        logger.info("store: %s refused: job %s is pending",
                    describe(kind, plugin_id, source), err.job_id)
        raise
    jobs.runner.start()
    return job


def stop_store_jobs(app: Flask, timeout: float = STOP_TIMEOUT) -> None:
    """Stop the app's job runner, waiting at most ``timeout`` seconds for a running job."""
    jobs = app.extensions.get(JOBS_KEY)
    if isinstance(jobs, StoreJobs):
        jobs.runner.stop(timeout)
