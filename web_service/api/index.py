"""GET /api/v3: the route index, built from the application's own route table."""

from __future__ import annotations

from flask import Blueprint, current_app

from web_service.envelope import Reply, ok

bp = Blueprint("index", __name__)

PREFIX = "/api/v3"


def api_routes() -> list[dict[str, str]]:
    """Return every API route as ``method``, ``path`` and the first line of its docstring."""
    routes = []
    for rule in current_app.url_map.iter_rules():
        if not (rule.rule == PREFIX or rule.rule.startswith(f"{PREFIX}/")):
            continue
        if rule.rule == f"{PREFIX}/":  # the same index, with a slash
            continue
        view = current_app.view_functions[rule.endpoint]
        summary = (view.__doc__ or "").strip().splitlines()
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            routes.append({"method": method, "path": rule.rule,
                           "summary": summary[0] if summary else ""})
    return sorted(routes, key=lambda r: (r["path"], r["method"]))


@bp.get("")
@bp.get("/")
def index() -> Reply:
    """List every route of the API (method, path, one line); docs/API.md has the rest."""
    return ok({"version": "v3", "routes": api_routes(), "documentation": "docs/API.md"})
