"""GET /health."""

from __future__ import annotations

from flask import Blueprint

from shared.version import CORE_VERSION
from web_service.envelope import Reply, ok

bp = Blueprint("health", __name__)


@bp.get("/health")
def health() -> Reply:
    """Answer that the web service is up."""
    return ok({"status": "ok", "version": CORE_VERSION})
