"""What the Overview's open-to-the-network line and the General tab's Sign-in card show.

The line: ``exposure`` is set while sign-in is off and the web listens beyond loopback
(``web_service.access.exposure``); its ``key`` (the listening address) is what a
dismissal is remembered under in the browser, so the line comes back when the web
listens somewhere else. The card: sign-in's state as the API's ``/auth/status`` says it;
its script (``static/sign_in_settings.js``) does the rest through the API.
"""

from __future__ import annotations

from typing import Any

from flask import request

from shared.errors import LedpanelError
from web_service.access import exposure, owner_proof, sign_in


def access_context(name: str) -> dict[str, Any]:
    """Return the Overview's or the General tab's sign-in context; {} for other tabs."""
    if name == "overview":
        if not exposure.open_to_network():
            return {"exposure": None}
        host, port = exposure.listening_address()
        return {"exposure": {"key": f"{host}:{port}"}}
    if name == "general":
        return {"sign_in_card": _card()}
    return {}


def _card() -> dict[str, Any]:
    try:
        password_set = sign_in.sign_in().credentials.password_set()
    except LedpanelError:
        password_set = True
    return {"enabled": sign_in.settings().enabled, "in_force": sign_in.in_force(),
            "password_set": password_set,
            "signed_in": owner_proof.signed_in_admin(request)}
