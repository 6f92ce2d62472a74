"""GET /api/v3/openapi.json: the OpenAPI 3.1 description of this API (plain JSON)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from web_service.openapi.document import description_json

bp = Blueprint("openapi", __name__)


@bp.get("/openapi.json")
def openapi_json() -> Response:
    """The OpenAPI 3.1 description of /api/v3, the document itself (not in the envelope)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    return Response(description_json(app), mimetype="application/json")
