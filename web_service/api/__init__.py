"""REST API blueprints, one module per resource, all under /api/v3."""

from __future__ import annotations

import importlib

from flask import Flask, request
from flask.globals import request_ctx

from web_service.envelope import Reply, ok

API_PREFIX = "/api/v3"


# Every blueprint module, in registration order (the order routes are matched in).
BLUEPRINTS = (
    "index", "health", "auth", "system", "config", "schedules", "display", "plugins",
    "safe_mode", "errors", "plugin_actions", "plugin_assets", "plugin_calendar",
    "of_the_day", "fonts", "cache", "history", "logs", "backup", "store", "notify",
    "store_jobs", "auto_update", "store_ops", "system_actions", "system_update", "wifi",
    "starlark", "starlark_repository", "display_control", "custom_apps", "mqtt", "openapi",
    "metrics", "skins",
)


def register_api(app: Flask) -> None:
    """Register every API blueprint on ``app``."""
    app.before_request(_answer_options)
    for name in BLUEPRINTS:
        module = importlib.import_module(f"web_service.api.{name}")
        app.register_blueprint(module.bp, url_prefix=API_PREFIX)
    from web_service.api.metrics import text_bp  # /metrics: where Prometheus scrapes

    app.register_blueprint(text_bp)


def _answer_options() -> Reply | None:
    """``OPTIONS`` on an API route: the envelope like every other API answer, listing the
    methods the route takes (also in ``Allow``). Runs after the guard's checks; a path no
    route matches is left to the 404 envelope."""
    if request.method != "OPTIONS" or request.url_rule is None:
        return None
    adapter = request_ctx.url_adapter
    if adapter is None or not (request.path == API_PREFIX
                               or request.path.startswith(f"{API_PREFIX}/")):
        return None
    methods = sorted(adapter.allowed_methods())
    reply = ok({"methods": methods}, f"{request.path} takes {', '.join(methods)}")
    reply[0].headers["Allow"] = ", ".join(methods)
    return reply
