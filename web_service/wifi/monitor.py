"""``ledpanel-wifi-monitor``: opens the setup access point when the panel has had no
network for a while, and closes it when a known Wi-Fi network is in range again.

It reads ``auto_enable_ap_mode`` once, at start (off: it exits at once); the web
restarts the unit when the setting changes. Timing, chosen so it never flaps:

- it looks every ``CHECK_INTERVAL`` seconds;
- it opens the access point only after ``OPEN_AFTER`` seconds without any connection,
  counted from the first look that saw none (NetworkManager's own retries of a known
  network come first);
- it closes an access point it opened only once a saved network has been in range for
  ``CLOSE_AFTER`` seconds in a row, and never before the access point has been up for
  ``MIN_AP_TIME`` seconds (time for a phone to join and send a password);
- when closing did not bring the panel online (a saved network in range whose password
  changed), the next access point waits twice as long for a saved network before it
  closes, up to ``MAX_BACKOFF`` times; any connection resets that;
- an access point someone opened by hand (POST /wifi/ap/enable) while it watched is left
  alone; one already up when it starts (it was restarted) is taken as its own.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from shared.bus.web_address import published_web_address
from shared.paths import resolve_paths
from web_service.wifi import network, nmcli, settings_file
from web_service.wifi.portal_redirect import PORTAL_PORT, PortalRedirect

logger = logging.getLogger("ledpanel.wifi_monitor")

CHECK_INTERVAL = 15.0
OPEN_AFTER = 90.0
CLOSE_AFTER = 30.0
MIN_AP_TIME = 180.0
DEFAULT_WEB_PORT = 5000
MAX_BACKOFF = 64  # close_after * 64: 32 minutes
OPEN, CLOSE = "open", "close"


@dataclass(frozen=True)
class Observation:
    """One look at the network: connected anywhere, our access point up, a saved network
    in range (only looked for while our access point is up)."""

    online: bool
    ap_up: bool
    known_in_range: bool = False


@dataclass(frozen=True)
class Timing:
    interval: float = CHECK_INTERVAL
    open_after: float = OPEN_AFTER
    close_after: float = CLOSE_AFTER
    min_ap_time: float = MIN_AP_TIME


class Decider:
    """The monitor's decisions from successive observations; the clock is injected."""

    def __init__(self, clock: Callable[[], float], timing: Timing = Timing()) -> None:
        self.clock = clock
        self.timing = timing
        self.offline_since: float | None = None
        self.in_range_since: float | None = None
        self.opened_at: float | None = None  # set while the access point is ours
        self.closed_unanswered = False  # closed, and not online since
        self.backoff = 1
        self.started = False

    def step(self, seen: Observation) -> str | None:
        """Return OPEN, CLOSE or None (nothing to do) for what was just seen."""
        now = self.clock()
        if not self.started:
            self.started = True
            if seen.ap_up:  # up before a restart of ours: ours, counted from now
                self.opened_at = now
        if seen.ap_up:
            self.offline_since = None
            return self._while_up(seen, now)
        self.opened_at = self.in_range_since = None
        if seen.online:
            self.offline_since, self.closed_unanswered, self.backoff = None, False, 1
            return None
        if self.offline_since is None:
            self.offline_since = now
        if now - self.offline_since >= self.timing.open_after:
            if self.closed_unanswered:
                self.backoff = min(self.backoff * 2, MAX_BACKOFF)
            self.opened_at, self.offline_since, self.closed_unanswered = now, None, False
            return OPEN
        return None

    def _while_up(self, seen: Observation, now: float) -> str | None:
        if self.opened_at is None:  # opened by hand: not ours to close
            return None
        if not seen.known_in_range:
            self.in_range_since = None
            return None
        if self.in_range_since is None:
            self.in_range_since = now
        if (now - self.in_range_since >= self.timing.close_after * self.backoff
                and now - self.opened_at >= self.timing.min_ap_time):
            self.opened_at = self.in_range_since = None
            self.closed_unanswered = True
            return CLOSE
        return None

    @property
    def ours(self) -> bool:
        return self.opened_at is not None


def observe(ours: bool) -> Observation:
    """Ask NetworkManager; scan for saved networks only while our access point is up."""
    found = network.devices()
    device = network.wifi_device(found)
    ap_up = device is not None and device.connection == network.AP_NAME
    in_range = False
    if ap_up and ours:
        saved = set(network.saved_networks())
        in_range = any(n["ssid"] in saved for n in network.scan(rescan=True))
    return Observation(network.online(found), ap_up, in_range)


def act(decision: str | None) -> None:
    if decision == OPEN:
        logger.warning("no network for a while: opening the setup access point %r "
                       "(join it and open http://%s)", network.AP_NAME, network.AP_ADDRESS)
        network.enable_ap()
    elif decision == CLOSE:
        logger.warning("a saved network is in range: closing the setup access point")
        network.disable_ap()


def run(decider: Decider, stop: threading.Event, portal: PortalRedirect | None = None) -> None:
    """Look, decide and act every interval until ``stop`` is set; keep the port-80
    answer (``portal``) up exactly while the access point is."""
    try:
        while True:
            try:
                seen = observe(decider.ours)
                decision = decider.step(seen)
                act(decision)
                if portal is not None:
                    portal.follow(decision == OPEN or (seen.ap_up and decision != CLOSE))
            except nmcli.WifiUnavailable:
                raise
            except nmcli.WifiCommandFailed as err:  # NetworkManager busy: look again later
                logger.warning("%s", err.message)
            if stop.wait(decider.timing.interval):
                return
    finally:
        if portal is not None:
            portal.stop()


def web_port(cache_dir: Path) -> Callable[[], int]:
    """The running web daemon's port as it published it (5000 when it has not)."""
    def port() -> int:
        address = published_web_address(cache_dir)
        value = address.get("port") if address else None
        return value if isinstance(value, int) and value > 0 else DEFAULT_WEB_PORT
    return port


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ledpanel-wifi-monitor", description=__doc__.split(
        "\n")[0])
    parser.add_argument("--config-dir", help="the folder holding wifi_config.json")
    parser.add_argument("--interval", type=float, default=CHECK_INTERVAL)
    parser.add_argument("--open-after", type=float, default=OPEN_AFTER)
    parser.add_argument("--close-after", type=float, default=CLOSE_AFTER)
    parser.add_argument("--min-ap-time", type=float, default=MIN_AP_TIME)
    parser.add_argument("--portal-host", default=network.AP_ADDRESS,
                        help="the address phones' port-80 probes are answered on")
    parser.add_argument("--portal-port", type=int, default=PORTAL_PORT,
                        help="0: do not answer probes")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    paths = resolve_paths(config_dir=args.config_dir)
    path = paths.wifi_config_file
    try:
        enabled = settings_file.auto_enable(path)
    except Exception as err:  # an unreadable file: say so, do nothing
        logger.error("cannot read %s (%s); the setup access point stays off", path, err)
        return 0
    if not enabled:
        logger.info("%s is false: the setup access point is not opened automatically",
                    settings_file.AUTO_KEY)
        return 0
    stop = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    timing = Timing(args.interval, args.open_after, args.close_after, args.min_ap_time)
    logger.info("watching the network every %g s", timing.interval)
    try:
        portal = (PortalRedirect(args.portal_host, args.portal_port, web_port(paths.cache_dir))
                  if args.portal_port else None)
        run(Decider(time.monotonic, timing), stop, portal)
    except nmcli.WifiUnavailable as err:
        logger.error("%s", err.message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
