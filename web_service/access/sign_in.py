"""Optional sign-in: who a request comes from, and the one refusal when nobody signed in.

``web_service.access.guard`` calls ``refusal(request)`` for every request, after its host and
cross-site checks: no route checks sign-in itself. With ``web.sign_in.enabled`` off
(the default) it refuses nothing, as the interface specification asks. With it on
(and a password or token stored, see ``in_force``), a request needs a browser
session (the ``ledpanel_session`` cookie, set by ``POST /api/v3/auth/sign-in``) or an
API token (``Authorization: Bearer <token>``) whose scope covers the request
(``web_service.access.scopes``, else 403 ``TOKEN_SCOPE``);
without one an API request gets 401 and a page is redirected to the sign-in page.
The sign-in page and routes, static files and ``GET /api/v3/health`` stay open.

Whether sign-in is in force is asked on every request, so its answer is kept with what
it was read from (the sign-in file's identity, ``shared.files.file_key``, and
config.json's snapshot) and worked out again as soon as either changed: a sign-in
switched on, by a save or a hand edit, refuses the very next request.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import quote

from flask import Request, Response, current_app, g, redirect

from shared.errors import LedpanelError
from shared.files.file_key import FileKey, file_key, settled
from shared.sign_in.settings import NO_PASSWORD_ADVICE, SignInSettings, sign_in_settings
from shared.sign_in.store import CredentialStore, Identity
from web_service.access import scopes
from web_service.access.sign_in_throttle import Throttle
from web_service.envelope import error
from web_service.services import services

logger = logging.getLogger(__name__)

EXTENSION_KEY = "ledpanel_sign_in"
COOKIE_NAME = "ledpanel_session"
PAGE = "/sign-in"
API_PREFIX = "/api/v3"
OPEN_PATHS = frozenset({PAGE, f"{API_PREFIX}/health", f"{API_PREFIX}/auth/status",
                        f"{API_PREFIX}/auth/sign-in", f"{API_PREFIX}/auth/sign-out",
                        "/favicon.ico"})
OPEN_PREFIXES = ("/static/",)
# Outside the API but read by machines: refused with 401, never redirected to sign in.
ANSWERED_401 = frozenset({"/metrics"})


@dataclass
class SignIn:
    """One web app's sign-in state: the credential file and the failure counts."""

    credentials: CredentialStore
    throttle: Throttle = field(default_factory=Throttle)
    # (sign-in file identity, config.json snapshot, in force): ``in_force``'s last answer.
    last_in_force: tuple[FileKey, Any, bool] | None = field(default=None, repr=False)


def sign_in() -> SignIn:
    """Return the current app's sign-in state (made on first use)."""
    state = current_app.extensions.get(EXTENSION_KEY)
    if state is None:
        state = current_app.extensions.setdefault(
            EXTENSION_KEY, SignIn(CredentialStore(services().settings.paths)))
    return cast(SignIn, state)


def settings() -> SignInSettings:
    """Return ``web.sign_in`` as config.json says now.

    While config.json cannot be read, sign-in is on exactly when a password is stored:
    a broken file never opens a device whose owner set a password (what was read
    before may predate the save that switched sign-in on).
    """
    try:
        return sign_in_settings(services().store.main_snapshot().data)
    except LedpanelError:
        return SignInSettings(enabled=_password_set(sign_in()))


def in_force() -> bool:
    """Return whether requests need a session or token now.

    Only when sign-in is on and a password or token exists: without either nobody could
    get in, so sign-in is not in force (the sign-in page and ``/auth/status`` say so).
    That also spares every request of a default install the config read: one ``stat``
    of the absent sign-in file is all it costs. An unreadable sign-in file counts as
    holding credentials (``refusal`` then answers with its problem). The answer is
    reused while the sign-in file and config.json are the ones it was read from.
    """
    state = sign_in()
    try:
        info = os.stat(state.credentials.path)
    except FileNotFoundError:
        return False
    except OSError:  # there but not to be looked at: reading it will say why
        return _in_force_now(state, settings())
    try:
        snapshot = services().store.main_snapshot()
    except LedpanelError:  # config.json unusable: settings() decides, afresh each time
        return _in_force_now(state, settings())
    key = file_key(info)
    last = state.last_in_force
    if last is not None and last[0] == key and last[1] is snapshot:
        return last[2]
    answer = _in_force_now(state, sign_in_settings(snapshot.data))
    if settled(info):
        state.last_in_force = (key, snapshot, answer)  # one assignment: threads see old or new
    return answer


def _in_force_now(state: SignIn, current: SignInSettings) -> bool:
    if not current.enabled:
        return False
    try:
        return state.credentials.has_credentials()
    except LedpanelError:
        return True


def identify(request: Request) -> Identity | None:
    """Return who sent ``request``: a valid Bearer token, else a live session, else None.

    A request that sends a Bearer token is judged by the token alone.
    """
    credentials = sign_in().credentials
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        return credentials.token_identity(value.strip())
    session_id = request.cookies.get(COOKIE_NAME)
    return credentials.session_identity(session_id) if session_id else None


def refusal(request: Request) -> Response | None:
    """Return the answer refusing ``request`` for want of sign-in, or None to let it on."""
    if _is_open(request.path) or not in_force():
        return None
    try:
        identity = identify(request)
    except LedpanelError as err:  # the sign-in file is unreadable: nobody gets in
        logger.error("sign-in refused: %s", err.message)
        return _envelope(err.message, err.error_code, err.status)
    if identity is not None:
        g.ledpanel_identity = identity
        beyond = scopes.refusal_message(identity, request.method, request.path)
        if beyond is not None:
            logger.warning("refused %s %s: token %r has scope %r", request.method,
                           request.path, identity.name, identity.scope)
            return _envelope(beyond, "TOKEN_SCOPE", 403)
        return None
    if request.path in ANSWERED_401 or request.path == API_PREFIX or request.path.startswith(
            f"{API_PREFIX}/"):
        return _unauthorized(request)
    target = request.full_path if request.query_string else request.path
    return cast(Response, redirect(f"{PAGE}?next={quote(target, safe='/')}", code=303))


def current_identity() -> Identity | None:
    """Return who the guard let this request on as (None when sign-in is off)."""
    return cast("Identity | None", g.get("ledpanel_identity"))


def safe_next(target: str | None) -> str:
    """Return ``target`` if it is a path on this site, else ``/`` (no open redirect)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def _unauthorized(request: Request) -> Response:
    if request.headers.get("Authorization", "").lower().startswith("bearer"):
        message, code = ("the API token is not valid (mistyped or revoked); make one with "
                         "POST /api/v3/auth/tokens or `ledpanel sign-in token create`",
                         "TOKEN_INVALID")
    elif not _password_set(sign_in()):
        message, code = f"sign-in is on but no password is set; {NO_PASSWORD_ADVICE}", \
            "SIGN_IN_REQUIRED"
    else:
        message, code = ("sign in first: POST /api/v3/auth/sign-in, or send "
                         "'Authorization: Bearer <token>'", "SIGN_IN_REQUIRED")
    response = _envelope(message, code, 401)
    response.headers["WWW-Authenticate"] = 'Bearer realm="ledpanel"'
    return response


def _envelope(message: str, code: str, status: int) -> Response:
    response, _ = error(message, code, status)
    response.status_code = status
    return response


def _is_open(path: str) -> bool:
    return path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)


def _password_set(state: SignIn) -> bool:
    try:
        return state.credentials.password_set()
    except LedpanelError:
        return True  # an unreadable file: assume the owner meant to sign in
