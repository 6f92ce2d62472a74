"""HTML pages: the web UI's base page (its tabs are in ``partials``) and sign-in."""

from __future__ import annotations

import logging

from flask import Blueprint, Response, redirect, render_template, request, url_for

from shared.errors import LedpanelError
from shared.version import CORE_VERSION
from web_service.access import sign_in
from web_service.services import services
from web_service.ui import partials, starlark_form

logger = logging.getLogger(__name__)

# Where the OpenAPI description of /api/v3 is served (web_service/openapi/).
DESCRIPTION_URL = "/api/v3/openapi.json"

bp = Blueprint("pages", __name__)
bp.register_blueprint(partials.bp)  # the tabs are served beside the page that shows them
bp.register_blueprint(starlark_form.bp)  # a scripted app's settings form


@bp.get("/")
@bp.get("/v3")
def index() -> str:
    """Render the base page: header, tab bar, and one empty panel per tab."""
    try:
        plugins, plugins_problem = partials.installed_plugins(), None
        icons = services().catalog.icons()
    except LedpanelError as err:  # a broken config file: the page is where to see it
        logger.warning("base page without plugin tabs: %s", err.message)
        plugins, plugins_problem, icons = [], err.message, {}
    return render_template("base.html", version=CORE_VERSION,
                           tabs=partials.tab_bar(plugins, icons),
                           plugins_problem=plugins_problem)


@bp.get("/api-reference")
def api_reference() -> str:
    """Render the API reference: the vendored viewer over the served OpenAPI description."""
    return render_template("api_reference.html", version=CORE_VERSION,
                           description_url=DESCRIPTION_URL)


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Send browsers that ask for /favicon.ico to our icon."""
    return redirect(url_for("static", filename="favicon.svg"), 301)  # type: ignore[return-value]


@bp.get(sign_in.PAGE)
def sign_in_page() -> str:
    """Render the sign-in page (or, when signed in, where to go and how to sign out)."""
    identity = sign_in.identify(request)
    return render_template(
        "sign_in.html", version=CORE_VERSION, enabled=sign_in.settings().enabled,
        in_force=sign_in.in_force(),
        password_set=sign_in.sign_in().credentials.password_set(),
        signed_in=identity is not None and identity.method == "session",
        expires_at=identity.expires_at if identity else None,
        next=sign_in.safe_next(request.args.get("next")))
