"""Slow clients (issue 16): /api/v3/health from a second address while one address floods.

The web daemon runs alone on loopback. ``--slow`` connections (150 by default) from
127.0.0.1 each send ``GET / HTTP/1.1`` and one header line, then either nothing more
(``--mode silent``) or one more header line every ``--every`` seconds (``--mode
trickle``), for ``--hold`` seconds. Meanwhile a client bound to 127.0.0.2 asks for
/api/v3/health ``--requests`` times over a fresh connection each (as a phone on the LAN
would), one a ``--gap`` seconds, each given ``TIMEOUT`` s. Printed: the health latency
(median, max), how many requests timed out, and how many of the slow connections the
server still held at the end (the rest it closed).
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from tests.daemons import Instance, start_web

TIMEOUT = 5.0


def _health_ms(port: int) -> float | None:
    """One health request from 127.0.0.2 on a new connection: its latency, None on timeout."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT,
                                      source_address=("127.0.0.2", 0))
    try:
        conn.request("GET", "/api/v3/health")
        conn.getresponse().read()
    except OSError:
        return None
    finally:
        conn.close()
    return (time.perf_counter() - started) * 1000


def _open_slow(port: int, count: int) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), 5)
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:
            pass  # closed by the server already
        socks.append(sock)
    return socks


def _trickle(socks: list[socket.socket], every: float, stop: threading.Event) -> None:
    while not stop.wait(every):
        for sock in socks:
            try:
                sock.sendall(b"X-Slow: yes\r\n")
            except OSError:
                pass


def _still_open(socks: list[socket.socket]) -> int:
    """How many of ``socks`` the server has not closed (a closed one reads empty)."""
    held = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            held += sock.recv(1) != b""
        except BlockingIOError:
            held += 1
        except OSError:
            pass
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=150)
    parser.add_argument("--mode", choices=("silent", "trickle"), default="trickle")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between lines")
    parser.add_argument("--hold", type=float, default=30.0)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--gap", type=float, default=0.2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as base:
        web, url = start_web(Instance(Path(base)))
        port = urlsplit(url).port or 0
        stop = threading.Event()
        socks: list[socket.socket] = []
        try:
            _health_ms(port)  # warm
            socks = _open_slow(port, args.slow)
            if args.mode == "trickle":
                threading.Thread(target=_trickle, args=(socks, args.every, stop),
                                 daemon=True).start()
            samples = []
            ends = time.monotonic() + args.hold
            while len(samples) < args.requests and time.monotonic() < ends:
                samples.append(_health_ms(port))
                time.sleep(args.gap)
            answered = [each for each in samples if each is not None]
            held = _still_open(socks)
        finally:
            stop.set()
            for sock in socks:
                sock.close()
            web.stop()
    print(f"{args.slow} {args.mode} connections from 127.0.0.1; health from 127.0.0.2: "
          f"{len(answered)}/{len(samples)} answered"
          + (f", median {statistics.median(answered):.1f} ms, max {max(answered):.1f} ms"
             if answered else "")
          + f"; {len(samples) - len(answered)} timed out ({TIMEOUT:.0f} s); "
          f"slow connections still open at the end: {held}")


if __name__ == "__main__":
    main()
