"""The service manager's notification socket: ``READY=1``, ``WATCHDOG=1`` (stdlib only).

systemd (and ``scripts/dev``'s supervisor, which plays its part in development) passes
``NOTIFY_SOCKET`` and, when the unit sets ``WatchdogSec=``, ``WATCHDOG_USEC``: the
process must send ``WATCHDOG=1`` more often than that or it is killed and restarted.
Without the variables (a daemon started by hand, the tests) nothing is sent.
"""

from __future__ import annotations

import logging
import os
import re
import socket

logger = logging.getLogger(__name__)


class Notifier:
    """Sends datagrams to the service manager's socket."""

    def __init__(self, address: str, watchdog_usec: int | None) -> None:
        # A leading "@" names a socket in the abstract namespace.
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.watchdog_seconds = watchdog_usec / 1e6 if watchdog_usec else None
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self._failed = False

    def send(self, message: str) -> bool:
        """Send one message; a failure is logged once and otherwise ignored."""
        try:
            self._socket.sendto(message.encode(), self.address)
        except OSError as err:
            if not self._failed:
                logger.warning("cannot notify the service manager (%s): %s", self.address, err)
                self._failed = True
            return False
        self._failed = False
        return True


def from_env(environ: dict[str, str] | None = None) -> Notifier | None:
    """Return a notifier for this process when the service manager asked for one."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET", "")
    if not address or not (address.startswith("/") or address.startswith("@")):
        return None
    usec: int | None = None
    pid = env.get("WATCHDOG_PID")
    watchdog = env.get("WATCHDOG_USEC", "")
    if re.fullmatch(r"[0-9]{1,20}", watchdog) and (not pid or pid == str(os.getpid())):
        usec = int(env["WATCHDOG_USEC"]) or None
    return Notifier(address, usec)
