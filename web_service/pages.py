"""HTML pages. Until the full web UI lands this is a status page with the live preview."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from shared.version import CORE_VERSION
from web_service import sign_in

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    """Render the status page."""
    return render_template("status.html", version=CORE_VERSION)


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
