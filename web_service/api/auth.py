"""Sign-in routes: status, sign-in and sign-out, the password, API tokens.

Which requests need a signed-in caller is decided in one place, ``web_service.access.sign_in``
(called by the guard); these views never check it themselves.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, request

from shared.errors import LedpanelError, ValidationError
from shared.sign_in.settings import NO_PASSWORD_ADVICE
from web_service.access import owner_proof
from web_service.access.password_check import RateLimited, check_password
from web_service.access.sign_in import (
    COOKIE_NAME,
    current_identity,
    identify,
    in_force,
    settings,
    sign_in,
)
from web_service.access.switch_on import set_first_password
from web_service.api.requests import body_object
from web_service.envelope import Reply, error, ok

logger = logging.getLogger(__name__)

bp = Blueprint("auth", __name__)
MINT_REFUSED = ("API tokens are made only while signed in (POST /api/v3/auth/sign-in, or "
                "the Sign-in section of the General tab) or with an admin token, or on the "
                "device with `ledpanel sign-in token create <name> --scope <scope>`")


@bp.get("/auth/status")
def status() -> Reply:
    """Say whether sign-in is on, a password is set and this caller is signed in."""
    state = sign_in()
    identity = identify(request)
    return ok({"enabled": settings().enabled, "in_force": in_force(),
               "password_set": state.credentials.password_set(),
               "signed_in": identity is not None,
               "method": identity.method if identity else None,
               "token_name": identity.name if identity else None,
               "expires_at": identity.expires_at if identity else None})


@bp.post("/auth/sign-in")
def sign_in_route() -> Reply:
    """Check the password and start a browser session (the ``ledpanel_session`` cookie)."""
    password = _password_field(body_object(), "password")
    state = sign_in()
    if not state.credentials.password_set():
        raise LedpanelError(f"no password is set; {NO_PASSWORD_ADVICE}",
                            error_code="SIGN_IN_NO_PASSWORD", status=409)
    check_password(password)
    session_id, expires_at = state.credentials.begin_session(settings().session_seconds)
    logger.info("sign-in: a browser at %s signed in", request.remote_addr)
    reply = ok({"expires_at": expires_at}, "Signed in")
    _set_cookie(reply[0], session_id, expires_at)
    return reply


@bp.post("/auth/sign-out")
def sign_out() -> Reply:
    """End this browser's session and delete its cookie."""
    session_id = request.cookies.get(COOKIE_NAME)
    if session_id:
        sign_in().credentials.end_session(session_id)
    reply = ok(None, "Signed out")
    reply[0].delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="Lax")
    return reply


@bp.post("/auth/password")
def set_password() -> Reply:
    """Set the password (``current_password`` is required once one is set; the first one
    only from our pages or a signed-in admin, see ``web_service.access.switch_on``)."""
    body = body_object()
    password = _password_field(body, "password")
    credentials = sign_in().credentials
    if credentials.password_set():
        check_password(_password_field(body, "current_password"))
        credentials.set_password(password)  # signs every browser out
    else:
        set_first_password(request, credentials, password)
    logger.info("sign-in: the password was set from %s", request.remote_addr)
    reply = ok(None, "Password set; every browser session was signed out")
    identity = current_identity()
    if identity is not None and identity.method == "session":  # keep this browser in
        session_id, expires_at = credentials.begin_session(settings().session_seconds)
        _set_cookie(reply[0], session_id, expires_at)
    return reply


@bp.get("/auth/tokens")
def list_tokens() -> Reply:
    """List the API tokens by id, name and creation time (never the tokens)."""
    return ok({"tokens": sign_in().credentials.tokens()})


@bp.post("/auth/tokens")
def create_token() -> Reply:
    """Make an API token (a session or an admin token only); the answer carries it once,
    it cannot be shown again."""
    if not owner_proof.signed_in_admin(request):
        raise LedpanelError(MINT_REFUSED, error_code="ADMIN_REQUIRED", status=403)
    body = body_object()
    listing, token = sign_in().credentials.create_token(body.get("name"), body.get("scope"))
    logger.info("sign-in: API token %r made from %s", listing["name"], request.remote_addr)
    return ok({**listing, "token": token},
              "Token created: copy it now, it is not shown again", status=201)


@bp.delete("/auth/tokens/<token_id>")
def revoke_token(token_id: str) -> Reply:
    """Revoke an API token (by id, or by name); it is refused from the next request on."""
    revoked = sign_in().credentials.revoke_token(token_id)
    logger.info("sign-in: API token %r revoked from %s", revoked["name"], request.remote_addr)
    return ok(revoked, "Token revoked")


def _password_field(body: dict[str, Any], name: str) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value:
        raise ValidationError(f"{name} is required (a string)", error_code="INVALID_FIELD",
                              details={"field": name})
    return value


@bp.app_errorhandler(RateLimited)
def _rate_limited(err: RateLimited) -> Reply:
    reply = error(err.message, err.error_code, err.status, err.details)
    reply[0].headers["Retry-After"] = str(err.details["retry_after"])
    return reply


def _set_cookie(response: Response, session_id: str, expires_at: float) -> None:
    response.set_cookie(COOKIE_NAME, session_id, expires=expires_at, path="/", httponly=True,
                        samesite="Lax", secure=request.is_secure)

