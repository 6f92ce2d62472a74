"""Switching sign-in on through the API: the save carries the password in the same request.

A save (``POST /config/main``, JSON or form, or the raw editor's ``POST /config/raw/main``)
that switches ``web.sign_in.enabled`` on must carry ``web.sign_in.password``
(``PASSWORD_FIELD``), else it is refused with 400 naming that field. When a password is
stored the carried one must match it (the wrong-password limit counts it); when none is
stored it becomes the first password, and only a request that may set one
(``owner_proof``) may do that. The password is taken out of the body before the save, so
config.json never holds it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Request

from shared.errors import LedpanelError, ValidationError
from shared.sign_in.settings import PASSWORD_FIELD
from shared.sign_in.store import CredentialStore
from web_service.access import owner_proof
from web_service.access.password_check import check_password
from web_service.access.sign_in import sign_in

logger = logging.getLogger(__name__)

FIRST_PASSWORD_REFUSED = (
    "the first password can be set only from this panel's own pages in a browser, by a "
    "signed-in admin, or on the device with `ledpanel sign-in password`")


def take_password(body: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """Return ``body`` without the sign-in password it carries, and that password.

    It may come as the form's flat ``web.sign_in.password`` or nested in JSON,
    ``{"web": {"sign_in": {"password": ...}}}``; an empty one counts as none.
    """
    body = dict(body)
    value = body.pop(PASSWORD_FIELD, None)
    web = body.get("web")
    section = web.get("sign_in") if isinstance(web, dict) else None
    if isinstance(web, dict) and isinstance(section, dict) and "password" in section:
        section = dict(section)
        value = section.pop("password")
        body["web"] = {**web, "sign_in": section}
    if value is None or value == "":
        return body, None
    if not isinstance(value, str):
        raise ValidationError(f"{PASSWORD_FIELD} must be a string", error_code="INVALID_FIELD",
                              details={"field": PASSWORD_FIELD})
    return body, value


def set_first_password(request: Request, credentials: CredentialStore, password: str) -> None:
    """Store the first password, if ``request`` may set one; else refuse with 403."""
    if not owner_proof.may_act_as_owner(request):
        logger.warning("sign-in: refused a first password from %s (no page token, not "
                       "signed in)", request.remote_addr)
        raise LedpanelError(FIRST_PASSWORD_REFUSED, error_code="FIRST_PASSWORD_REFUSED",
                            status=403)
    credentials.set_password(password)


def step(request: Request, password: str | None) -> Callable[[], None]:
    """Return the check a save that switches sign-in on runs under the config lock."""
    def run() -> None:
        if password is None:
            raise ValidationError(
                f"switching sign-in on needs the password in the same request: send "
                f"{PASSWORD_FIELD} (the stored one, or the first one to set)",
                error_code="SIGN_IN_PASSWORD_REQUIRED", details={"field": PASSWORD_FIELD})
        credentials = sign_in().credentials
        if credentials.password_set():
            check_password(password)
        else:
            set_first_password(request, credentials, password)
            logger.info("sign-in: the first password was set from %s", request.remote_addr)
    return run
