"""Whether this web service is open to the network: sign-in off while it listens on an
address other devices reach. The Overview warns about it (the specification's default
is an open API, so the owner must at least know the risk).
"""

from __future__ import annotations

import ipaddress

from shared.errors import LedpanelError
from web_service.access import sign_in
from web_service.services import services

# Bind addresses that mean "every interface".
ANY_ADDRESS = frozenset({"", "0.0.0.0", "::", "*"})


def beyond_loopback(host: str) -> bool:
    """Return whether a server bound to ``host`` is reachable from other devices."""
    name = host.strip().strip("[]").lower()
    if name in ANY_ADDRESS:
        return True
    if name == "localhost" or name.endswith(".localhost"):
        return False
    try:
        return not ipaddress.ip_address(name).is_loopback
    except ValueError:  # a host name: it names some interface, take it as reachable
        return True


def listening_address() -> tuple[str, int]:
    """Return the (host, port) this web service is bound to (as asked, before binding)."""
    svc = services()
    listening = svc.listening or {"host": svc.settings.host, "port": svc.settings.port}
    return str(listening.get("host", "")), int(listening.get("port") or 0)


def open_to_network() -> bool:
    """Return whether sign-in is not in force while the web listens beyond loopback."""
    host, _ = listening_address()
    if not beyond_loopback(host):
        return False
    try:
        return not sign_in.in_force()
    except LedpanelError:
        return False
