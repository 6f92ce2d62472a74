"""Plugin store jobs: the recent ones, and one by id (progress, state, result).

The jobs themselves are ``web_service.store.jobs``; the app's store is
``web_service.store.app_jobs``.
"""

from __future__ import annotations

from flask import Blueprint, request

from shared.errors import NotFoundError
from shared.ids import require_plain_segment
from web_service.api.query import query_int
from web_service.envelope import Reply, ok
from web_service.store.app_jobs import store_jobs
from web_service.store.jobs import KEEP_FINISHED, is_job_id

bp = Blueprint("store_jobs", __name__)

DEFAULT_LIMIT = 20


@bp.get("/plugins/store/jobs")
def listed() -> Reply:
    """List the recent store jobs, newest first."""
    limit = query_int("limit", DEFAULT_LIMIT, 1, KEEP_FINISHED * 2)
    plugin_id = request.args.get("plugin_id") or None
    if plugin_id is not None:
        require_plain_segment(plugin_id)
    return ok({"jobs": store_jobs().store.jobs(plugin_id=plugin_id, limit=limit)})


@bp.get("/plugins/store/jobs/<job_id>")
def one(job_id: str) -> Reply:
    """Return one store job: its step, progress, state and result."""
    job = store_jobs().store.get(job_id) if is_job_id(job_id) else None
    if job is None:
        shown = job_id if is_job_id(job_id) else repr(job_id[:40])
        raise NotFoundError(f"there is no store job {shown} (only the {KEEP_FINISHED} most "
                            "recent finished jobs are kept)", error_code="JOB_NOT_FOUND")
    return ok(job)
