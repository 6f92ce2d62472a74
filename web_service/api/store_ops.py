"""Plugin store operations: install, update, uninstall, each run as a store job.

A request checks its body (ids traversal-proof, URLs http(s)) before anything touches
disk, submits a job and answers ``202`` with the job at once, or ``200`` with the job's
result when it finished within ``wait`` seconds (a job that failed within it answers
its error). The work is ``web_service.store.work`` and ``web_service.store.update``.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint

from shared.ids import require_plain_segment
from web_service.api.requests import (
    body_object,
    invalid_field,
    is_form,
    optional_bool,
    optional_number,
)
from web_service.envelope import Reply, error, ok
from web_service.services import services
from web_service.store.app_jobs import store_jobs, submit_job
from web_service.store.errors import StoreError
from web_service.store.jobs import DONE, FAILED, Work
from web_service.store.update import update_work
from web_service.store.work import install_work, repo_url_source, uninstall_work

bp = Blueprint("store_ops", __name__)

DEFAULT_WAIT, MAX_WAIT = 2.0, 60.0
POLL = 0.05
# Codes a failed job can carry that are not the store's own (StoreError maps those).
_STATUS = {"PLUGIN_NOT_FOUND": 404, "INTERRUPTED": 500, "INTERNAL": 500,
           "REGISTRY_UNAVAILABLE": 503, "MISSING_PLUGIN_ID": 400}


@bp.post("/plugins/install")
def install() -> Reply:
    """Install a plugin by registry ``plugin_id``, or from ``repo_url`` (``branch``,
    ``plugin_path`` optional)."""
    body = body_object()
    wait = _wait(body)
    if body.get("repo_url") not in (None, ""):
        source = repo_url_source(body)
        return _run("install", source.plugin_id, install_work(services(), source, None), wait,
                    source=source.repo + (f"/tree/{source.branch}/{source.plugin_path}"
                                          if source.plugin_path else ""))
    plugin_id = require_plain_segment(body.get("plugin_id"))
    return _run("install", plugin_id, install_work(services(), None, plugin_id), wait)


@bp.post("/plugins/update")
def update() -> Reply:
    """Update a plugin when it changed; the result's ``update_status`` says what it did."""
    body = body_object()
    wait = _wait(body)
    plugin_id = require_plain_segment(body.get("plugin_id"))
    return _run("update", plugin_id, update_work(services(), plugin_id), wait)


@bp.post("/plugins/uninstall")
def uninstall() -> Reply:
    """Uninstall a plugin; its config and secrets are kept unless ``remove_config``."""
    body = body_object()
    wait = _wait(body)
    plugin_id = require_plain_segment(body.get("plugin_id"))
    remove = optional_bool(body, "remove_config", form=is_form(), default=False)
    return _run("uninstall", plugin_id, uninstall_work(services(), plugin_id, remove), wait)


def _run(kind: str, plugin_id: str | None, work: Work, wait: float, *,
         source: str | None = None) -> Reply:
    """Submit the job; answer with its result when it ends within ``wait`` seconds."""
    job = submit_job(None, kind, plugin_id, work, source=source)
    deadline = time.monotonic() + wait
    store = store_jobs().store
    while time.monotonic() < deadline:
        found = store.get(job["id"])
        if found is not None and found["state"] in (DONE, FAILED):
            job = found
            break
        time.sleep(POLL)
    if job["state"] == DONE:
        result: dict[str, Any] = job["result"] or {}
        return ok({**result, "job_id": job["id"], "job": job}, job["message"])
    if job["state"] == FAILED:
        code = job["error_code"] or "INTERNAL"
        return error(job["message"], code, _status(code), {"job_id": job["id"], "job": job})
    return ok({"job_id": job["id"], "job": job},
              f"{job['description']} started (job {job['id']})", 202)


def _wait(body: dict[str, Any]) -> float:
    value = optional_number(body, "wait", form=is_form())
    if value is None:
        return DEFAULT_WAIT
    if not 0 <= value <= MAX_WAIT:
        raise invalid_field("wait", f"must be from 0 to {MAX_WAIT:g} seconds")
    return float(value)


def _status(code: str) -> int:
    return _STATUS.get(code) or StoreError("", code).status
