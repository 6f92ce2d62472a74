"""GET /api/v3/openapi.json: the OpenAPI 3.1 description of this API (plain JSON)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from web_service.openapi.document import description

bp = Blueprint("openapi", __name__)


@bp.get("/openapi.json")
def openapi_json() -> Response:
    """The OpenAPI 3.1 description of /api/v3, the document itself (not in the envelope)."""
    return jsonify(description(current_app._get_current_object()))  # type: ignore[attr-defined]
