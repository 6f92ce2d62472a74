"""Sign-in routes: status, sign-in and sign-out, the password, API tokens.

Which requests need a signed-in caller is decided in one place, ``web_service.access.sign_in``
(called by the guard); these views never check it themselves.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from flask import Blueprint, Response, request

from shared.errors import LedpanelError, ValidationError
from shared.sign_in.settings import NO_PASSWORD_ADVICE
from web_service.access.sign_in import (
    COOKIE_NAME,
    current_identity,
    identify,
    in_force,
    settings,
    sign_in,
)
from web_service.api.requests import body_object
from web_service.envelope import Reply, error, ok

logger = logging.getLogger(__name__)

bp = Blueprint("auth", __name__)


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
    _check_password(password)
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
    """Set the password (``current_password`` is required once one is set)."""
    body = body_object()
    password = _password_field(body, "password")
    credentials = sign_in().credentials
    if credentials.password_set():
        _check_password(_password_field(body, "current_password"))
    credentials.set_password(password)  # signs every browser out
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
    """Make an API token; the answer carries it once, it cannot be shown again."""
    listing, token = sign_in().credentials.create_token(body_object().get("name"))
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


def _check_password(password: str) -> None:
    """Raise 429 while this client is throttled, 401 when ``password`` is wrong."""
    state = sign_in()
    client = request.remote_addr or "unknown"
    wait = state.throttle.wait_seconds(client)
    if wait > 0:
        logger.warning("sign-in: %s is refused for %.0f s more (too many wrong passwords)",
                       client, wait)
        raise _RateLimited(math.ceil(wait))
    if not state.credentials.verify_password(password):
        state.throttle.failed(client)
        logger.warning("sign-in: wrong password from %s", client)
        raise LedpanelError("wrong password", error_code="WRONG_PASSWORD", status=401)


class _RateLimited(LedpanelError):
    error_code = "RATE_LIMITED"
    status = 429

    def __init__(self, seconds: int) -> None:
        super().__init__(f"too many wrong passwords; try again in {seconds} s",
                         details={"retry_after": seconds})


@bp.errorhandler(_RateLimited)
def _rate_limited(err: _RateLimited) -> Reply:
    reply = error(err.message, err.error_code, err.status, err.details)
    reply[0].headers["Retry-After"] = str(err.details["retry_after"])
    return reply


def _set_cookie(response: Response, session_id: str, expires_at: float) -> None:
    response.set_cookie(COOKIE_NAME, session_id, expires=expires_at, path="/", httponly=True,
                        samesite="Lax", secure=request.is_secure)

