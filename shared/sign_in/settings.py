"""The ``web.sign_in`` settings of config.json and the one rule for switching sign-in on.

Sign-in is off unless ``web.sign_in.enabled`` is true. A save through the API that
switches it on carries the password in the same request (``PASSWORD_FIELD``, never
stored in config.json): it must match the stored one, or becomes the first one
(``web_service.access.switch_on``). Any other save that switches it on while no password
is stored is refused, since nobody could sign in afterwards. A hand edit
that does so anyway: with no password and no token stored sign-in is not in force
(nobody could get in; the sign-in page and ``/auth/status`` say so); with tokens but
no password, tokens work and the sign-in page says to run ``ledpanel sign-in password``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.errors import LedpanelError

DEFAULT_SESSION_DAYS = 30
PASSWORD_FIELD = "web.sign_in.password"
NO_PASSWORD_ADVICE = ("set a password first: in the Sign-in card of the General tab, or "
                      "run `ledpanel sign-in password` on the device")


@dataclass(frozen=True)
class SignInSettings:
    """What ``web.sign_in`` asks for."""

    enabled: bool = False
    session_days: float = DEFAULT_SESSION_DAYS

    @property
    def session_seconds(self) -> float:
        return self.session_days * 86400


def sign_in_settings(config: Any) -> SignInSettings:
    """Return the sign-in settings of a config (defaults for anything missing or odd)."""
    web = config.get("web") if isinstance(config, dict) else None
    section = web.get("sign_in") if isinstance(web, dict) else None
    if not isinstance(section, dict):
        return SignInSettings()
    days: float = DEFAULT_SESSION_DAYS
    stored = section.get("session_days")
    if isinstance(stored, int | float) and not isinstance(stored, bool) and 1 <= stored <= 365:
        days = float(stored)
    return SignInSettings(enabled=section.get("enabled") is True, session_days=days)


def switches_on(before: Any, after: Any) -> bool:
    """Return whether a save from ``before`` to ``after`` switches sign-in on."""
    return sign_in_settings(after).enabled and not sign_in_settings(before).enabled


def check_switch_on(before: Any, after: Any, password_set: Callable[[], bool],
                    switch_on: Callable[[], None] | None = None) -> None:
    """Check a save that switches sign-in on, under the config lock.

    ``switch_on``: the request's own step (the API's saves: the password it carries is
    checked, or set when none is stored; it raises to refuse). Without one (a restore)
    the save is refused while no password is stored, since nobody could sign in.
    """
    if not switches_on(before, after):
        return
    if switch_on is not None:
        switch_on()
    elif not password_set():
        raise LedpanelError(f"web.sign_in.enabled cannot be turned on without a password; "
                            f"{NO_PASSWORD_ADVICE}", error_code="SIGN_IN_NO_PASSWORD",
                            status=409, details={"field": "web.sign_in.enabled"})
