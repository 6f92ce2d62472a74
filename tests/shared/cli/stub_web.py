"""A local HTTP server standing in for the web daemon's API, for the ``ledpanel`` tests."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


def closed_port_url() -> str:
    """Return a loopback URL on which nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@dataclass
class StubWeb:
    """A local HTTP server standing in for the web daemon's API."""

    url: str
    routes: dict[tuple[str, str], tuple[int, dict[str, Any]]] = field(default_factory=dict)
    requests: list[tuple[str, str, Any]] = field(default_factory=list)


@pytest.fixture
def stub_web() -> Iterator[StubWeb]:
    stub = StubWeb(url="")

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            stub.requests.append((self.command, self.path, json.loads(raw) if raw else None))
            status, body = stub.routes.get(
                (self.command, self.path),
                (404, {"status": "error", "data": None, "message": "no route",
                       "error_code": "NOT_FOUND"}),
            )
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield stub
    server.shutdown()
    server.server_close()


def envelope(data: Any, message: str = "") -> dict[str, Any]:
    return {"status": "success", "data": data, "message": message, "error_code": None}
