"""Keep the web answering while some clients hold connections open on purpose.

waitress serves every connection from one loop and stops accepting once its
``connection_limit`` is reached; a client that opens connections and never finishes a
request fills that limit and blinds the UI for everyone. This layer sits where waitress
accepts a connection (its server's ``channel_class``) and adds three bounds:

- at most ``PER_ADDRESS`` connections from one client address (loopback included; an
  IPv6 client by its /64, the block one host can pick addresses from); one more is
  closed at once, so the rest of the ``CONNECTION_LIMIT`` stays free for others; and
  once the server is crowded (``RESERVE`` left) only addresses holding fewer than
  ``FEW`` may open more, so a handful of greedy addresses cannot fill it either;
- a request's headers must arrive within ``HEADER_SECONDS`` of its first byte (of the
  connection being opened, for a client that sends nothing), however slowly they trickle;
- its body within ``BODY_BASE_SECONDS`` plus its declared length at ``BODY_MIN_RATE``.

A connection past a bound is closed; connections between requests (keep-alive) are left
to waitress's own idle timeout.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer

logger = logging.getLogger(__name__)

CONNECTION_LIMIT = 200  # waitress's own limit: it stops accepting there
GUARDED_LIMIT = 190  # ours, below it, so waitress keeps accepting (and we choose)
PER_ADDRESS = 24
RESERVE = 60  # the last connections, kept for addresses that hold fewer than FEW
FEW = 6  # what one browser opens to one server at most
HEADER_SECONDS = 10.0
BODY_BASE_SECONDS = 30.0
BODY_MIN_RATE = 64 * 1024  # bytes per second a body must keep up on average
UNKNOWN_BODY_BYTES = 64 * 1024 * 1024  # a chunked body: as long as the largest upload
_WARN_EVERY = 60.0  # seconds between two warnings about one address
_WARNED_KEPT = 1024


class ConnectionGuard:
    """Count the open connections per client address; say whether one more may open.

    One more is refused when its address already holds ``per_address``, when ``limit``
    are open in all, or, once fewer than ``reserve`` are left, when its address already
    holds ``few`` (a browser's worth): the last ones are kept for addresses with few.
    """

    def __init__(self, per_address: int = PER_ADDRESS, limit: int = GUARDED_LIMIT,
                 reserve: int = RESERVE, few: int = FEW) -> None:
        self.per_address, self.limit, self.reserve, self.few = per_address, limit, reserve, few
        self._open: dict[str, int] = {}
        self._total = 0
        self._warned: dict[str, float] = {}
        self._lock = threading.Lock()

    def admit(self, address: str) -> bool:
        """Count one more connection from ``address``; False (uncounted) when refused."""
        with self._lock:
            count = self._open.get(address, 0)
            why = self._refusal(count)
            if why is None:
                self._open[address] = count + 1
                self._total += 1
                return True
            now = time.monotonic()
            warn = now - self._warned.get(address, -_WARN_EVERY) >= _WARN_EVERY
            if warn:
                if len(self._warned) >= _WARNED_KEPT:  # many addresses refused: forget
                    self._warned.clear()
                self._warned[address] = now
        if warn:
            logger.warning("closing new connections from %s: %s", address, why)
        return False

    def _refusal(self, count: int) -> str | None:
        if count >= self.per_address:
            return f"it holds {count}, the most one address may"
        if self._total >= self.limit:
            return f"{self._total} connections are open, the most the web serves"
        if self._total >= self.limit - self.reserve and count >= self.few:
            return (f"{self._total} connections are open and it holds {count}; the rest "
                    "are kept for addresses with fewer")
        return None

    def release(self, address: str) -> None:
        """One connection from ``address`` closed."""
        with self._lock:
            count = self._open.get(address, 0) - 1
            if count < 0:
                return
            self._total -= 1
            if count > 0:
                self._open[address] = count
            else:
                del self._open[address]
                self._warned.pop(address, None)

    def open_count(self, address: str) -> int:
        with self._lock:
            return self._open.get(address, 0)


class GuardedChannel(HTTPChannel):
    """waitress's channel with a deadline on the request being received."""

    guard: ConnectionGuard

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any,
                 map: dict[int, Any] | None = None) -> None:  # noqa: A002 - waitress's name
        self._counted_as: str | None = _address(addr)
        self._began: float | None = time.monotonic()  # a silent client is on the clock too
        try:
            super().__init__(server, sock, addr, adj, map=map)
        except BaseException:
            self._release()
            raise

    def received(self, data: bytes) -> bool:
        if self.request is None:
            self._began = time.monotonic()
        done = super().received(data)
        if self.request is None:  # nothing half-received: between requests
            self._began = None
        return bool(done)

    def readable(self) -> bool:
        # waitress asks every open channel this on each turn of its loop (at least once a
        # second), which makes it the place to notice a request that is too slow.
        if self._began is not None and self._overdue(time.monotonic() - self._began):
            self.will_close = True  # waitress closes it on this turn (writable says so)
            return False
        return bool(super().readable())

    def _overdue(self, elapsed: float) -> bool:
        request = self.request
        if request is None or not request.headers_finished:
            return elapsed > HEADER_SECONDS
        length = UNKNOWN_BODY_BYTES if request.chunked else request.content_length
        return elapsed > HEADER_SECONDS + BODY_BASE_SECONDS + length / BODY_MIN_RATE

    def del_channel(self, map: dict[int, Any] | None = None) -> None:  # noqa: A002
        super().del_channel(map)
        self._release()

    def _release(self) -> None:
        if self._counted_as is not None:
            self.guard.release(self._counted_as)
            self._counted_as = None


def _address(addr: Any) -> str:
    """The client address a connection counts against: the host part of its peer, an
    IPv6 one by its /64 (one host may use any address in it)."""
    host = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
    if ":" not in host:
        return host
    try:
        found = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return str(found.ipv4_mapped)
    return str(ipaddress.ip_network(f"{found}/64", strict=False))


def channel_factory(guard: ConnectionGuard) -> Callable[..., GuardedChannel | None]:
    """What a waitress server calls for each accepted connection: a guarded channel, or
    the connection closed when its address already holds its share."""
    channel_class = type("LedpanelChannel", (GuardedChannel,), {"guard": guard})

    def open_channel(server: Any, sock: Any, addr: Any, adj: Any,
                     map: dict[int, Any] | None = None) -> GuardedChannel | None:  # noqa: A002
        if not guard.admit(_address(addr)):
            sock.close()
            return None
        return channel_class(server, sock, addr, adj, map=map)  # it releases its count

    return open_channel


def guard_servers(socket_map: dict[int, Any], guard: ConnectionGuard) -> int:
    """Put ``guard`` in front of every waitress server in ``socket_map``; how many."""
    servers = [each for each in socket_map.values() if isinstance(each, BaseWSGIServer)]
    for server in servers:
        server.channel_class = channel_factory(guard)
    return len(servers)
