"""HTML pages. Until the full web UI lands this is a status page with the live preview."""

from __future__ import annotations

from flask import Blueprint, render_template

from shared.version import CORE_VERSION

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    """Render the status page."""
    return render_template("status.html", version=CORE_VERSION)
