"""The port-80 answer while the setup access point is up.

Phones test for internet access with plain HTTP on port 80, and the web daemon listens
on its own port (5000 by default), so the monitor answers port 80 on the access point's
address while the access point is up: every request is sent to the WiFi tab on the web
daemon's port. The web daemon answers the same probe paths itself
(``web_service.wifi.captive``) for a phone that reaches it directly.

Binding port 80 needs ``CAP_NET_BIND_SERVICE`` (the monitor's unit grants it); without
it, or with the port taken, the monitor says so once and carries on without it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from web_service.wifi.network import AP_ADDRESS

logger = logging.getLogger("ledpanel.wifi_monitor")

PORTAL_PORT = 80
REQUEST_TIMEOUT = 10.0


def setup_url(web_port: int) -> str:
    netloc = AP_ADDRESS if web_port == PORTAL_PORT else f"{AP_ADDRESS}:{web_port}"
    return f"http://{netloc}/#wifi"


class _Handler(BaseHTTPRequestHandler):
    server_version = "ledpanel-setup"
    timeout = REQUEST_TIMEOUT
    target: Callable[[], str] = staticmethod(lambda: setup_url(5000))

    def _send(self) -> None:
        body = b"The panel's setup page is at " + self.target().encode("ascii") + b"\n"
        self.send_response(302)
        self.send_header("Location", self.target())
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = do_HEAD = do_POST = _send  # noqa: N815 - http.server's names

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return  # a phone probes often: nothing worth a journal line


class PortalRedirect:
    """Started while the access point is up, stopped when it closes."""

    def __init__(self, host: str, port: int, web_port: Callable[[], int]) -> None:
        self.host, self.port, self.web_port = host, port, web_port
        self._server: ThreadingHTTPServer | None = None
        self._said_failure = False

    @property
    def running(self) -> bool:
        return self._server is not None

    def follow(self, ap_up: bool) -> None:
        """Start or stop to match the access point."""
        if ap_up and self._server is None:
            self._start()
        elif not ap_up and self._server is not None:
            self.stop()

    def _start(self) -> None:
        web_port = self.web_port
        handler = type("Handler", (_Handler,), {
            "target": staticmethod(lambda: setup_url(web_port()))})
        try:
            server = ThreadingHTTPServer((self.host, self.port), handler)
        except OSError as err:
            if not self._said_failure:
                logger.warning("cannot answer phones on %s:%s (%s); they reach the setup "
                               "page at %s", self.host, self.port, err.strerror,
                               setup_url(web_port()))
                self._said_failure = True
            return
        server.daemon_threads = True
        self._server = server
        threading.Thread(target=server.serve_forever, name="portal-redirect",
                         daemon=True).start()
        logger.info("answering phones on %s:%s", self.host, self.port)

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
