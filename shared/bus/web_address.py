"""Where the running web daemon listens, as it published it on the bus (``web_state``).

The web daemon writes its real host and port at start; the display (for plugins that
show the UI's address) and the ``ledpanel`` command (to find the daemon it talks to)
read it here. The record counts only while the daemon that wrote it still holds the web
lock on that bus, so a stale file from a stopped daemon is never believed.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any

from shared.bus.core import WEB_STATE, Bus
from shared.bus.daemon_lock import WEB, lock_holder

# Addresses that mean "every interface": a client reaches such a daemon on loopback.
_WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


def published_web_address(cache_dir: Path) -> dict[str, Any] | None:
    """Return ``{"host", "port"}`` of the web daemon running on this bus, else None."""
    holder = lock_holder(cache_dir, WEB)
    state = Bus(cache_dir).read(WEB_STATE) if holder is not None else None
    if not isinstance(state, dict) or state.get("service") != "running":
        return None
    if state.get("pid") != holder:
        return None
    host, port = state.get("host"), state.get("port")
    if not isinstance(host, str) or len(host) > 255:
        return None
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        return None
    return {"host": host, "port": port}


def client_url(address: dict[str, Any]) -> str:
    """Return the base URL a local client uses to reach ``address``."""
    host = _WILDCARDS.get(address["host"], address["host"])
    try:
        bracketed = ipaddress.ip_address(host).version == 6
    except ValueError:  # a name such as localhost
        bracketed = False
    return f"http://{f'[{host}]' if bracketed else host}:{address['port']}"
