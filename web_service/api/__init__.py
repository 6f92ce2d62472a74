"""REST API blueprints, one module per resource, all under /api/v3."""

from __future__ import annotations

from flask import Flask

API_PREFIX = "/api/v3"


def register_api(app: Flask) -> None:
    """Register every API blueprint on ``app``."""
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
                   of_the_day, fonts, cache, history, logs, backup, store):
        app.register_blueprint(module.bp, url_prefix=API_PREFIX)
    from web_service.api import store_jobs

    app.register_blueprint(store_jobs.bp, url_prefix=API_PREFIX)
    from web_service.api import auto_update

    app.register_blueprint(auto_update.bp, url_prefix=API_PREFIX)
    from web_service.api import store_ops

    app.register_blueprint(store_ops.bp, url_prefix=API_PREFIX)
