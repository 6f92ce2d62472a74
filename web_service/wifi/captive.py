"""Captive portal answers: while the setup access point is up, the URLs phones and
laptops fetch to test for internet access redirect to the WiFi tab, so a phone that
joins the access point opens the setup page by itself.

Those requests carry the probe's own host name (``connectivitycheck.gstatic.com``,
``captive.apple.com``, ...), which the Host allow-list refuses; the guard lets them
through for these paths only, and only while the access point is up (``allows``).
Whether it is up is asked of NetworkManager at most once every ``AP_STATE_TTL`` seconds.
"""

from __future__ import annotations

import threading
import time

from flask import Blueprint, request
from werkzeug.utils import redirect
from werkzeug.wrappers import Response

from web_service.envelope import Reply, error
from web_service.wifi import network, nmcli

bp = Blueprint("captive", __name__)

# Android, Apple, Windows, Firefox and common Linux desktops.
PROBE_PATHS = frozenset({
    "/generate_204", "/gen_204", "/hotspot-detect.html", "/library/test/success.html",
    "/ncsi.txt", "/connecttest.txt", "/redirect", "/canonical.html", "/success.txt",
})
AP_STATE_TTL = 3.0
SETUP_FRAGMENT = "/#wifi"

_lock = threading.Lock()
_cached: tuple[float, bool] | None = None


def ap_is_up() -> bool:
    """Whether the setup access point is up (False when nmcli is missing or fails)."""
    global _cached
    with _lock:
        now = time.monotonic()
        if _cached is not None and now - _cached[0] < AP_STATE_TTL:
            return _cached[1]
        try:
            up = network.ap_active()
        except nmcli.WifiUnavailable:
            up = False
        except nmcli.WifiCommandFailed:
            up = False
        _cached = (now, up)
        return up


def forget_ap_state() -> None:
    """Drop the remembered state (after the routes open or close the access point)."""
    global _cached
    with _lock:
        _cached = None


def allows(path: str) -> bool:
    """Whether a request for ``path`` with a foreign Host header may be answered."""
    return path in PROBE_PATHS and ap_is_up()


def _probe() -> Response | Reply:
    if not ap_is_up():
        return error(f"there is nothing at {request.path}", "NOT_FOUND", 404)
    port = request.environ.get("SERVER_PORT") or "80"
    netloc = network.AP_ADDRESS if port == "80" else f"{network.AP_ADDRESS}:{port}"
    answer = redirect(f"http://{netloc}{SETUP_FRAGMENT}", code=302)
    answer.headers["Cache-Control"] = "no-store"
    return answer


for _path in sorted(PROBE_PATHS):
    bp.add_url_rule(_path, f"probe{_path.replace('/', '_').replace('.', '_')}", _probe)
