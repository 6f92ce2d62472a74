"""The ``web.rate_limits`` section: how many requests a client may make to the web's
expensive routes each minute, and which clients are never limited.

Read tolerantly (``settings_from``: a hand edit that got a value wrong falls back to its
default, never stops the web), checked strictly on save (``values.RULES``,
``limits.LIMITS``). Which routes belong to which group is the web's own table
(``web_service.rate_limit.groups``); the names and default numbers live here, where the
save checks and the web both reach them.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# Group -> requests per minute per client address, by default.
DEFAULT_PER_MINUTE: dict[str, int] = {
    "store": 30,            # store install, update, uninstall, registry refresh, host status
    "uploads": 10,          # plugin ZIP, font, scripted-app uploads
    "backup": 10,           # backup download and restore
    "renders": 30,          # what runs a scripted app's code in the web's worker
    "apps_repository": 10,  # the scripted apps repository: install, refresh
    "checks": 10,           # system update check, MQTT connection test
}
MAX_PER_MINUTE = 10_000
MAX_EXEMPT_ADDRESSES = 64


@dataclass(frozen=True)
class RateLimitSettings:
    """The section as the web applies it."""

    enabled: bool = True
    exempt_loopback: bool = True
    exempt_networks: tuple[Network, ...] = ()
    per_minute: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_PER_MINUTE))

    def exempt(self, address: str | None) -> bool:
        """Return whether the client at ``address`` is never limited."""
        try:
            ip = ipaddress.ip_address((address or "").split("%", 1)[0])
        except ValueError:
            return False  # no usable address (a Unix socket): limited like any other
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if self.exempt_loopback and ip.is_loopback:
            return True
        return any(ip.version == net.version and ip in net for net in self.exempt_networks)


def settings_from(web: Any) -> RateLimitSettings:
    """Return the settings of the ``web`` section ``web`` (any value: read as untrusted)."""
    section = web.get("rate_limits") if isinstance(web, dict) else None
    if not isinstance(section, dict):
        return RateLimitSettings()
    enabled = section.get("enabled", True)
    loopback = section.get("exempt_loopback", True)
    return RateLimitSettings(
        enabled=enabled if isinstance(enabled, bool) else True,
        exempt_loopback=loopback if isinstance(loopback, bool) else True,
        exempt_networks=_networks(section.get("exempt_addresses")),
        per_minute=_numbers(section.get("per_minute")))


def _networks(value: Any) -> tuple[Network, ...]:
    if not isinstance(value, list):
        return ()
    found = []
    for entry in value[:MAX_EXEMPT_ADDRESSES]:
        if isinstance(entry, str) and network_problem(entry) is None:
            found.append(ipaddress.ip_network(entry.strip(), strict=False))
    return tuple(found)


def _numbers(value: Any) -> dict[str, int]:
    numbers = dict(DEFAULT_PER_MINUTE)
    if isinstance(value, dict):
        for group, number in value.items():
            if (group in numbers and isinstance(number, int) and not isinstance(number, bool)
                    and 1 <= number <= MAX_PER_MINUTE):
                numbers[group] = number
    return numbers


def network_problem(entry: str) -> str | None:
    """Return what is wrong with one exempt address (an IP address or a network)."""
    try:
        ipaddress.ip_network(entry.strip(), strict=False)
    except ValueError:
        return "must be an IP address or a network such as 192.168.1.0/24"
    return None


def exempt_addresses_problem(value: Any) -> str | None:
    """The save rule of ``web.rate_limits.exempt_addresses``."""
    if not isinstance(value, list):
        return "must be a list of IP addresses or networks such as [\"192.168.1.0/24\"]"
    if len(value) > MAX_EXEMPT_ADDRESSES:
        return f"may hold at most {MAX_EXEMPT_ADDRESSES} entries"
    for index, entry in enumerate(value):
        problem = (network_problem(entry) if isinstance(entry, str)
                   else "must be text (an IP address or network)")
        if problem is not None:
            return f"item {index} ({str(entry)[:60]!r}) {problem}"
    return None


def per_minute_problem(value: Any) -> str | None:
    """The save rule of ``web.rate_limits.per_minute``: known group names only."""
    if not isinstance(value, dict):
        return "must be an object of route group -> requests per minute"
    unknown = sorted(str(name)[:40] for name in value if name not in DEFAULT_PER_MINUTE)
    if unknown:
        return (f"names unknown route groups {', '.join(unknown)} (known: "
                f"{', '.join(DEFAULT_PER_MINUTE)})")
    for name, number in value.items():
        if not isinstance(number, int) or isinstance(number, bool):
            return f"{name} must be a whole number of requests per minute"
    return None
