"""Clients that hold connections open on purpose never blind the web for others."""

from __future__ import annotations

import http.client
import selectors
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from urllib.parse import urlsplit

import pytest

from tests.daemons import Instance, start_web, wait_http
from web_service.connection_guard import HEADER_SECONDS, PER_ADDRESS

SLOW = 150
OTHER_ADDRESS = "127.0.0.2"


@pytest.fixture
def web(tmp_path):
    daemon, url = start_web(Instance(tmp_path))
    try:
        yield urlsplit(url).port
    finally:
        daemon.stop()


def _health(port: int, timeout: float) -> int:
    """Ask for /api/v3/health from the second loopback address; its status code."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(OTHER_ADDRESS, 0))
    try:
        conn.request("GET", "/api/v3/health")
        return conn.getresponse().status
    finally:
        conn.close()


@contextmanager
def _slow_connections(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections from 127.0.0.1 that start a request and never finish it."""
    with ExitStack() as stack:
        held = []
        for _ in range(count):
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), 5))
            try:
                sock.sendall(b"GET / HTTP/1.1\r\n")
            except OSError:  # already closed by the server: the guard at work
                pass
            held.append(sock)
        yield held


def _wait_closed(socks: list[socket.socket], want: int, timeout: float) -> int:
    """Wait until the server has closed ``want`` of ``socks`` (or the time is up)."""
    closed = 0
    with selectors.DefaultSelector() as selector:
        for sock in socks:
            selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while closed < want and time.monotonic() < deadline:
            for key, _ in selector.select(deadline - time.monotonic()):
                try:
                    data = key.fileobj.recv(4096)  # type: ignore[union-attr]
                except OSError:
                    data = b""
                if not data:
                    selector.unregister(key.fileobj)
                    closed += 1
    return closed


def test_a_flood_of_slow_connections_leaves_room_for_another_address(web):
    assert _health(web, 5) == 200  # warm: the first answer pays for imports
    with _slow_connections(web, SLOW) as socks:
        # The server closes what one address holds beyond its share, at once.
        closed = _wait_closed(socks, SLOW - PER_ADDRESS, 10)
        started = time.monotonic()
        assert _health(web, 1.0) == 200
        assert time.monotonic() - started < 1.0
        assert closed >= SLOW - PER_ADDRESS
    # Their connections closed, the flooding address is served again.
    wait_http(f"http://127.0.0.1:{web}/api/v3/health", 10)


def test_a_request_trickling_its_headers_is_cut_off_after_the_header_bound(web):
    with ExitStack() as stack:
        trickling = stack.enter_context(socket.create_connection(("127.0.0.1", web), 5))
        silent = stack.enter_context(socket.create_connection(("127.0.0.1", web), 5))
        started = time.monotonic()
        trickling.sendall(b"GET /api/v3/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        cut_off = None
        while time.monotonic() - started < HEADER_SECONDS + 10:
            # One more header line a second keeps the connection busy, never finished.
            if _wait_closed([trickling], 1, 1.0):
                cut_off = time.monotonic() - started
                break
            try:
                trickling.sendall(b"X-Slow: yes\r\n")
            except OSError:
                cut_off = time.monotonic() - started
                break
        assert cut_off is not None, "the trickling client was never cut off"
        assert HEADER_SECONDS - 1 <= cut_off <= HEADER_SECONDS + 6
        # A client that sends nothing at all is on the same clock.
        assert _wait_closed([silent], 1, 5) == 1
