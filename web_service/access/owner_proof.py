"""What proves a request comes from someone who may set the first password, make API
tokens or take the secrets off the device, even while sign-in is off.

With sign-in off the API is open, so "may change settings" alone proves nothing: any
client on the network may. These few acts outlast the moment (a password chosen by a
stranger locks the owner out once sign-in goes on, a token made by one lets them back
in, secrets once sent cannot be taken back), so they need more:

- ``signed_in_admin``: a browser session or an ``admin`` API token (``ledpanel sign-in``
  on the device needs neither: it writes the sign-in file itself);
- ``from_owner_page``: the page token our own pages send (``X-Ledpanel-Token``), which
  another site's page cannot read.
"""

from __future__ import annotations

from flask import Request

from shared.errors import LedpanelError
from web_service.access import sign_in
from web_service.access.guard import token_sent


def signed_in_admin(request: Request) -> bool:
    """Return whether ``request`` carries a live session or an ``admin`` API token."""
    identity = sign_in.current_identity()
    if identity is None:
        try:
            identity = sign_in.identify(request)
        except LedpanelError:  # an unreadable sign-in file proves nothing
            return False
    return identity is not None and identity.scope == "admin"


def from_owner_page() -> bool:
    """Return whether the current request carries the page token (our own pages send it)."""
    return token_sent()


def may_act_as_owner(request: Request) -> bool:
    """Return whether ``request`` proves it may set the first password or take secrets."""
    return from_owner_page() or signed_in_admin(request)
