"""The mqtt routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import ANY_OBJECT

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/mqtt"): RouteDoc(errors={409: ("CONFIG_INVALID_JSON",)}),
    ("POST", "/api/v3/mqtt"): RouteDoc(
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "UNKNOWN_FIELD",
            ),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
        body=ANY_OBJECT,
    ),
    ("POST", "/api/v3/mqtt/test"): RouteDoc(
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "UNKNOWN_FIELD",
            )
        },
        body=ANY_OBJECT,
    ),
}
