"""GET /api/v3/metrics (the envelope) and GET /metrics (Prometheus text, outside /api/v3).

Both are read-only (the ``read`` scope). With sign-in on, both need it like every other
route: a Prometheus server sends an API token (``Authorization: Bearer``, its
``authorization`` setting); without one, ``/metrics`` answers 401 rather than the sign-in
page's redirect.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from web_service.envelope import Reply, ok
from web_service.metrics.collect import collect
from web_service.metrics.prometheus import CONTENT_TYPE, render
from web_service.services import services

bp = Blueprint("metrics", __name__)
# Registered without the API prefix: the path Prometheus scrapes by default.
text_bp = Blueprint("metrics_text", __name__)
TEXT_PATH = "/metrics"


@bp.get("/metrics")
def metrics() -> Reply:
    """Every figure of both daemons as JSON."""
    return ok(collect(services(), current_app))


@text_bp.get(TEXT_PATH)
def metrics_text() -> Response:
    """Every figure of both daemons in Prometheus text exposition format 0.0.4."""
    text = render(collect(services(), current_app))
    response = Response(text, status=200, content_type=CONTENT_TYPE)
    response.headers["Cache-Control"] = "no-store"
    return response
