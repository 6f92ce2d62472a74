"""Where the store may fetch from: public hosts only, unless the operator allowed more.

Every store request (registry and source fetches, tree listings, raw files, archives,
the host status) goes through a session from ``store_session()``. Its connections
resolve the host name themselves, refuse the connection when any address the name
resolves to is not a public unicast address (loopback, ``0.0.0.0``, private ranges,
link-local, CGNAT ``100.64/10``, multicast, reserved, unique-local ``fc00::/7``,
``fe80::/10``, and IPv4-mapped IPv6 forms of these), and then connect to exactly the
addresses that were checked, so a name that resolves differently a moment later (DNS
rebinding) cannot slip through. Redirects are followed by requests, each hop a new
request through the same connections, so every hop is checked; at most
``MAX_REDIRECTS`` hops are followed.

``LEDPANEL_STORE_ALLOW_HOSTS`` (the web daemon's environment) is a comma list of
``host`` or ``host:port`` (``[::1]:8080`` for IPv6): a request to a listed host (any
port for a bare host, only that port otherwise) is not checked. The host is matched
as written in the URL, so allowing ``localhost`` does not allow ``127.0.0.1``. A LAN
mirror and the tests use it.

Residual: when the environment sets a proxy for a URL, the destination is checked by
resolving the name here, but the proxy resolves it again itself.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from requests.utils import select_proxy
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NameResolutionError, NewConnectionError

from web_service.store.errors import StoreError

ALLOW_ENV = "LEDPANEL_STORE_ALLOW_HOSTS"
MAX_REDIRECTS = 5

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def allowed(host: str, port: int | None, env: Mapping[str, str] | None = None) -> bool:
    """Whether the operator listed ``host`` (any port) or ``host:port``."""
    env = os.environ if env is None else env
    host = host.strip("[]").lower()
    for item in env.get(ALLOW_ENV, "").split(","):
        entry = _entry(item.strip())
        if entry is not None and entry[0] == host and entry[1] in (None, port):
            return True
    return False


def _entry(item: str) -> tuple[str, int | None] | None:
    """Read one ``host``, ``host:port``, ``[v6]`` or ``[v6]:port``; None when malformed."""
    if not item:
        return None
    if item.startswith("["):
        host, _, rest = item[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ("" if not rest else "x")
    elif item.count(":") == 1:
        host, _, port = item.partition(":")
    else:  # a plain name, or a bare IPv6 address
        host, port = item, ""
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        return None
    return host.lower(), int(port) if port else None


def why_refused(address: IPAddress) -> str | None:
    """Say what kind of address this is when the store must not fetch from it."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    kinds = (("is_unspecified", "an unspecified address"), ("is_loopback", "a loopback address"),
             ("is_link_local", "a link-local address"), ("is_multicast", "a multicast address"),
             ("is_private", "a private network address"),
             ("is_reserved", "a reserved address"))
    for attribute, words in kinds:
        if getattr(address, attribute):
            return words
    return None if address.is_global else "not a public address"


def check_destination(host: str, port: int, env: Mapping[str, str] | None = None
                      ) -> list[str] | None:
    """Return the checked addresses of ``host`` to connect to, or None when the operator
    allowed the host; raise ``HOST_REFUSED`` when any address is not public, and
    ``socket.gaierror`` when the name does not resolve."""
    if allowed(host, port, env):
        return None
    found = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in found:
        text = str(sockaddr[0]).split("%", 1)[0]
        reason = why_refused(ipaddress.ip_address(text))
        if reason is not None:
            raise refusal(host, port, text, reason)
        if text not in addresses:
            addresses.append(text)
    return addresses


def refusal(host: str, port: int, address: str, reason: str) -> StoreError:
    """The error naming the refused host and how the operator allows it."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    resolved = "" if address == host.strip("[]") else f" (it resolves to {address})"
    return StoreError(
        f"the store does not fetch from {shown}{resolved}: {reason}. To allow it (a LAN "
        f"mirror, for example), add {shown}:{port} to {ALLOW_ENV} in the web service's "
        "environment and restart it", "HOST_REFUSED",
        details={"host": host, "port": port, "address": address})


class _CheckedConnection(HTTPConnection):
    """A connection that checks where it goes and connects to the checked addresses."""

    def _new_conn(self) -> socket.socket:
        name = self._dns_host
        try:
            addresses = check_destination(name, self.port)
        except socket.gaierror as err:
            raise NameResolutionError(self.host, self, err) from err
        if addresses is None:
            return super()._new_conn()
        failure: NewConnectionError | None = None
        try:
            for address in addresses:
                self._dns_host = address
                try:
                    return super()._new_conn()
                except NewConnectionError as err:
                    failure = err
        finally:
            self._dns_host = name
        assert failure is not None  # getaddrinfo never answers an empty list
        raise failure


class _CheckedHTTPSConnection(_CheckedConnection, HTTPSConnection):
    """The same for https: the certificate is still checked against the host name."""


class _CheckedPool(HTTPConnectionPool):
    ConnectionCls = _CheckedConnection


class _CheckedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _CheckedHTTPSConnection


class _CheckedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _CheckedPool,
                                                   "https": _CheckedHTTPSPool}

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any
             ) -> requests.Response:
        if select_proxy(str(request.url), kwargs.get("proxies") or {}):
            parts = urlsplit(str(request.url))
            port = parts.port or (443 if parts.scheme == "https" else 80)
            try:
                check_destination(parts.hostname or "", port)
            except socket.gaierror:
                pass  # only the proxy can resolve it (see the residual above)
        return super().send(request, *args, **kwargs)


def store_session() -> requests.Session:
    """A requests session whose every request and redirect hop is checked."""
    session = requests.Session()
    session.max_redirects = MAX_REDIRECTS
    adapter = _CheckedAdapter()
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
