"""Plugin store operations: install (from the registry, a repository URL or an uploaded
ZIP), update, uninstall, each run as a store job.

A request checks its body (ids traversal-proof, URLs http(s)) before anything touches
disk, submits a job and answers ``202`` with the job at once, or ``200`` with the job's
result when it finished within ``wait`` seconds (a job that failed within it answers
its error). The work is ``web_service.store.work`` and ``web_service.store.update``.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from flask import Blueprint, request
from flask.sansio.blueprints import BlueprintSetupState

from shared.errors import ValidationError
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
from web_service.store.install.archive import check_upload
from web_service.store.install.upload import MAX_UPLOAD_BYTES, save_upload, shown_name
from web_service.store.jobs import DONE, FAILED, Work, store_dir
from web_service.store.update import update_work
from web_service.store.work import install_work, repo_url_source, uninstall_work, upload_work

bp = Blueprint("store_ops", __name__)
logger = logging.getLogger(__name__)
UPLOAD_ENDPOINT = "store_ops.install_upload"
_FORM_OVERHEAD = 64 * 1024  # the multipart wrapping around the ZIP (boundaries, fields)


def _raise_cap() -> None:
    """A plugin ZIP may be larger than the app's request cap: this route alone takes up
    to ``MAX_UPLOAD_BYTES`` (first of the request hooks, so every form parse sees it)."""
    if request.endpoint == UPLOAD_ENDPOINT:
        request.max_content_length = MAX_UPLOAD_BYTES + _FORM_OVERHEAD


@bp.record_once
def _install_cap(state: BlueprintSetupState) -> None:
    state.app.before_request_funcs.setdefault(None, []).insert(0, _raise_cap)

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


@bp.post("/plugins/install/upload")
def install_upload() -> Reply:
    """Install a plugin from an uploaded ZIP of its folder (multipart ``plugin_zip``,
    ``wait``): checked at once as a store archive is (a bad ZIP answers 400), then
    installed by a store job like any other install."""
    part = request.files.get("plugin_zip")
    if part is None or not part.filename:
        raise ValidationError("no ZIP in the upload (multipart field 'plugin_zip')",
                              error_code="NO_FILES", details={"field": "plugin_zip"})
    wait = _wait(body_object())
    svc = services()
    name = shown_name(part.filename)
    try:
        archive = save_upload(part.stream, store_dir(svc.settings.paths.cache_dir))
    except StoreError as err:  # too large: removed already
        return error(f"{name}: {err.message}", err.error_code, 400, err.details)
    try:
        files = check_upload(archive)
    except StoreError as err:
        archive.unlink(missing_ok=True)
        return error(f"{name}: {err.message}", err.error_code, 400, err.details)
    except BaseException:
        archive.unlink(missing_ok=True)
        raise
    logger.info("store: %s uploaded (%d files)", name, files)
    # From here the job owns the file (its work removes it); an install with no id yet
    # is never refused as a duplicate, so the submit cannot leave it behind.
    return _run("install", None, upload_work(svc, archive, name), wait,
                source=f"the uploaded {name}")


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
