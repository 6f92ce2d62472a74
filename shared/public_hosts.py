"""checked_session: requests that reach public hosts only, unless the operator allowed more.

Every request and every redirect hop of a session from ``checked_session()`` resolves
the host name itself, refuses the connection when any address the name resolves to is
not a public unicast address (loopback, ``0.0.0.0``, private ranges, link-local, CGNAT
``100.64/10``, multicast, reserved, unique-local ``fc00::/7``, ``fe80::/10``, and
IPv4-mapped IPv6 forms of these), and then connects to exactly the addresses that were
checked, so a name that resolves differently a moment later (DNS rebinding) cannot slip
through. At most ``MAX_REDIRECTS`` hops are followed.

An allow list (an environment variable the caller names) is a comma list of ``host`` or
``host:port`` (``[::1]:8080`` for IPv6): a request to a listed host (any port for a bare
host, only that port otherwise) is not checked. The host is matched as written in the
URL, so allowing ``localhost`` does not allow ``127.0.0.1``. A LAN mirror and the tests
use it. The store (``LEDPANEL_STORE_ALLOW_HOSTS``) and scripted apps' ``http.star``
(``LEDPANEL_APPS_ALLOW_HOSTS``) each have their own.

Residual: when the environment sets a proxy for a URL, the destination is checked by
resolving the name here, but the proxy resolves it again itself.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import socket
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from requests.utils import select_proxy
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NameResolutionError, NewConnectionError

MAX_REDIRECTS = 5

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
#: Makes the exception a refused request raises: (host, port, address, reason).
Refusal = Callable[[str, int, str, str], Exception]


class HostRefused(Exception):
    """A destination that is not a public address and not on the allow list."""

    def __init__(self, host: str, port: int, address: str, reason: str) -> None:
        resolved = "" if address == host.strip("[]") else f" (it resolves to {address})"
        super().__init__(f"{host}{resolved} is {reason}")
        self.host, self.port, self.address, self.reason = host, port, address, reason


def allowed(host: str, port: int | None, env_name: str,
            env: Mapping[str, str] | None = None) -> bool:
    """Whether the operator listed ``host`` (any port) or ``host:port`` in ``env_name``."""
    env = os.environ if env is None else env
    host = host.strip("[]").lower()
    for item in env.get(env_name, "").split(","):
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
    """Say what kind of address this is when it must not be fetched from."""
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


def check_destination(host: str, port: int, env_name: str, refuse: Refusal = HostRefused
                      ) -> list[str] | None:
    """Return the checked addresses of ``host`` to connect to, or None when the operator
    allowed the host; raise ``refuse(...)`` when any address is not public, and
    ``socket.gaierror`` when the name does not resolve."""
    if allowed(host, port, env_name):
        return None
    found = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in found:
        text = str(sockaddr[0]).split("%", 1)[0]
        reason = why_refused(ipaddress.ip_address(text))
        if reason is not None:
            raise refuse(host, port, text, reason)
        if text not in addresses:
            addresses.append(text)
    return addresses


def checked_session(env_name: str, refuse: Refusal = HostRefused) -> requests.Session:
    """A requests session whose every request and redirect hop is checked."""
    adapter = _CheckedAdapter(env_name, refuse)
    session = requests.Session()
    session.max_redirects = MAX_REDIRECTS
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class _CheckedConnection(HTTPConnection):
    """A connection that checks where it goes and connects to the checked addresses."""

    env_name = ""
    refuse: Refusal = HostRefused

    def _new_conn(self) -> socket.socket:
        name = self._dns_host
        try:
            addresses = check_destination(name, self.port, self.env_name, type(self).refuse)
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


@functools.lru_cache(maxsize=8)
def _pool_classes(env_name: str, refuse: Refusal) -> dict[str, type]:
    """The pool classes of one allow list and refusal, made once per process."""
    settings = {"env_name": env_name, "refuse": staticmethod(refuse)}
    return {
        "http": type("_Pool", (HTTPConnectionPool,), {"ConnectionCls": type(
            "_Conn", (_CheckedConnection,), settings)}),
        "https": type("_Pool", (HTTPSConnectionPool,), {"ConnectionCls": type(
            "_Conn", (_CheckedHTTPSConnection,), settings)}),
    }


class _CheckedAdapter(HTTPAdapter):
    def __init__(self, env_name: str, refuse: Refusal) -> None:
        self.env_name, self.refuse = env_name, refuse
        self.pools = _pool_classes(env_name, refuse)
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = self.pools

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any
             ) -> requests.Response:
        if select_proxy(str(request.url), kwargs.get("proxies") or {}):
            parts = urlsplit(str(request.url))
            port = parts.port or (443 if parts.scheme == "https" else 80)
            try:
                check_destination(parts.hostname or "", port, self.env_name, self.refuse)
            except socket.gaierror:
                pass  # only the proxy can resolve it (see the residual above)
        return super().send(request, *args, **kwargs)
