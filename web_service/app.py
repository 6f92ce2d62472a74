"""create_app(settings): the web daemon's Flask application factory."""

from __future__ import annotations

import logging

from flask import Flask

from web_service.access.guard import install_guard
from web_service.access.page_policy import install_page_policy
from web_service.api import register_api
from web_service.envelope import install_error_handlers
from web_service.history import install_history
from web_service.metrics.route_timings import install_route_timings
from web_service.rate_limit.gate import install_rate_limits
from web_service.services import EXTENSION_KEY, WebServices
from web_service.settings import WebSettings
from web_service.store.app_jobs import install_store_jobs
from web_service.store.auto_update import install_auto_update
from web_service.streams.routes import install_streams
from web_service.url_rules import DeferredBuildRule

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 2 * 1024 * 1024


def create_app(settings: WebSettings | None = None) -> Flask:
    """Build a web app for ``settings``; every instance has its own services."""
    settings = settings or WebSettings()
    app = Flask(__name__)
    app.url_rule_class = DeferredBuildRule
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[EXTENSION_KEY] = WebServices.build(settings)
    install_error_handlers(app)
    install_route_timings(app)  # first: the guard's refusals are timed too
    install_guard(app)
    install_rate_limits(app)  # after the guard: refused requests never count
    install_page_policy(app)
    register_api(app)
    install_history(app)
    install_store_jobs(app)
    install_auto_update(app)
    install_streams(app)
    from web_service.ui import pages

    app.register_blueprint(pages.bp)
    from web_service.wifi import captive

    app.register_blueprint(captive.bp)
    return app
