"""A loopback HTTP server for the download helpers' tests: routes, hit counts, concurrency."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# A route answers (status, content type, body), or writes the answer itself and returns None.
Route = Callable[[BaseHTTPRequestHandler], "tuple[int, str, bytes] | None"]


@dataclass
class Server:
    base: str
    routes: dict[str, Route]
    hits: Counter[str] = field(default_factory=Counter)
    release: threading.Event = field(default_factory=threading.Event)
    running: int = 0
    most_running: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str) -> str:
        return self.base + path


def _handler(server: Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            path = self.path.split("?", 1)[0]
            with server.lock:
                server.hits[path] += 1
                server.running += 1
                server.most_running = max(server.most_running, server.running)
            try:
                route = server.routes.get(path)
                answer = route(self) if route else (404, "text/plain", b"no such route")
                if answer is not None:
                    status, kind, body = answer
                    self.send_response(status)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up, as the tests of limits expect
            finally:
                with server.lock:
                    server.running -= 1

        def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
            length = self.headers.get("Content-Length", "0")
            self.rfile.read(int(length) if length.isdigit() else 0)  # the body, unused
            self.do_GET()

        def log_message(self, *_args: Any) -> None:
            pass

    return Handler


@contextmanager
def serving(routes: dict[str, Route]) -> Iterator[Server]:
    """Serve ``routes`` on 127.0.0.1 (a free port) for the block."""
    server = Server("", routes)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(server))
    httpd.daemon_threads = True
    httpd.block_on_close = False
    server.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.release.set()  # ends the routes that hold a request open
        httpd.shutdown()
        httpd.server_close()


def hold(server: Server, seconds: float) -> Route:
    """A route that answers nothing for ``seconds`` (or until the server stops)."""

    def route(_handler: BaseHTTPRequestHandler) -> tuple[int, str, bytes]:
        server.release.wait(seconds)
        return 200, "application/json", b'{"events": []}'

    return route


def drip(server: Server, seconds: float) -> Route:
    """A route that sends its headers, then one byte every 0.1 s for ``seconds``."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "image/png")
        handler.end_headers()
        end = time.monotonic() + seconds
        while time.monotonic() < end and not server.release.wait(0.1):
            handler.wfile.write(b"x")
            handler.wfile.flush()
        return None

    return route


def stream(body: bytes) -> Route:
    """A route that sends ``body`` without a Content-Length (it ends when the server closes)."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "image/png")
        handler.end_headers()
        handler.wfile.write(body)
        return None

    return route


def fixed(status: int, kind: str, body: bytes) -> Route:
    """A route that always gives the same answer."""
    return lambda _handler: (status, kind, body)


def late(server: Server, seconds: float, body: bytes) -> Route:
    """A route that answers ``body`` as a PNG after ``seconds`` (or when the server stops)."""

    def route(_handler: BaseHTTPRequestHandler) -> tuple[int, str, bytes]:
        server.release.wait(seconds)
        return 200, "image/png", body

    return route
