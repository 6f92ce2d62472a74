"""REST API blueprints, one module per resource, all under /api/v3."""

from __future__ import annotations

from flask import Flask, request
from flask.globals import request_ctx

from web_service.envelope import Reply, ok

API_PREFIX = "/api/v3"


def register_api(app: Flask) -> None:
    """Register every API blueprint on ``app``."""
    app.before_request(_answer_options)
    from web_service.api import (
        auth,
        backup,
        cache,
        config,
        display,
        errors,
        fonts,
        health,
        history,
        index,
        logs,
        notify,
        of_the_day,
        plugin_actions,
        plugin_assets,
        plugin_calendar,
        plugins,
        safe_mode,
        schedules,
        store,
        system,
    )

    for module in (index, health, auth, system, config, schedules, display, plugins,
                   safe_mode, errors, plugin_actions, plugin_assets, plugin_calendar,
                   of_the_day, fonts, cache, history, logs, backup, store, notify):
        app.register_blueprint(module.bp, url_prefix=API_PREFIX)
    from web_service.api import store_jobs

    app.register_blueprint(store_jobs.bp, url_prefix=API_PREFIX)
    from web_service.api import auto_update

    app.register_blueprint(auto_update.bp, url_prefix=API_PREFIX)
    from web_service.api import store_ops

    app.register_blueprint(store_ops.bp, url_prefix=API_PREFIX)
    from web_service.api import system_actions

    app.register_blueprint(system_actions.bp, url_prefix=API_PREFIX)
    from web_service.api import system_update

    app.register_blueprint(system_update.bp, url_prefix=API_PREFIX)
    from web_service.api import wifi

    app.register_blueprint(wifi.bp, url_prefix=API_PREFIX)
    from web_service.api import starlark

    app.register_blueprint(starlark.bp, url_prefix=API_PREFIX)
    from web_service.api import starlark_repository

    app.register_blueprint(starlark_repository.bp, url_prefix=API_PREFIX)
    from web_service.api import display_control

    app.register_blueprint(display_control.bp, url_prefix=API_PREFIX)
    from web_service.api import custom_apps

    app.register_blueprint(custom_apps.bp, url_prefix=API_PREFIX)


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
