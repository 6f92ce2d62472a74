"""Where the store may fetch from: public hosts only, unless the operator allowed more.

Every store request (registry and source fetches, tree listings, raw files, archives,
the host status) goes through a session from ``store_session()``: the checked session
of ``shared.public_hosts`` (every hop's addresses checked, then connected to exactly;
its docstring has the rules). ``LEDPANEL_STORE_ALLOW_HOSTS`` (the web daemon's
environment) is the store's allow list; a LAN mirror and the tests use it. A refused
request raises the store's ``HOST_REFUSED`` error, which says how to allow the host.
"""

from __future__ import annotations

from collections.abc import Mapping

import requests

from shared import public_hosts
from web_service.store.errors import StoreError

ALLOW_ENV = "LEDPANEL_STORE_ALLOW_HOSTS"
MAX_REDIRECTS = public_hosts.MAX_REDIRECTS


def allowed(host: str, port: int | None, env: Mapping[str, str] | None = None) -> bool:
    """Whether the operator listed ``host`` (any port) or ``host:port``."""
    return public_hosts.allowed(host, port, ALLOW_ENV, env)


def refusal(host: str, port: int, address: str, reason: str) -> StoreError:
    """The error naming the refused host and how the operator allows it."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    resolved = "" if address == host.strip("[]") else f" (it resolves to {address})"
    return StoreError(
        f"the store does not fetch from {shown}{resolved}: {reason}. To allow it (a LAN "
        f"mirror, for example), add {shown}:{port} to {ALLOW_ENV} in the web service's "
        "environment and restart it", "HOST_REFUSED",
        details={"host": host, "port": port, "address": address})


def store_session() -> requests.Session:
    """A requests session whose every request and redirect hop is checked."""
    return public_hosts.checked_session(ALLOW_ENV, refusal)
