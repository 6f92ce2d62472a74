"""Which ``Host:`` names the web service answers to (the DNS-rebinding allow-list).

A page on an attacker's site can point its own name at the panel's address (DNS
rebinding) and then read the panel's answers as if they were its own. The browser
still sends the attacker's name in ``Host:``, so answering only to names that cannot
be rebound from the internet stops it: IP literals, ``localhost``, the device's own
host name, the home-network suffixes below, and the names the user adds in
``web.allowed_hosts``. Pure functions: no Flask, no I/O but ``socket.gethostname``.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass, field

# Names under these suffixes are resolved on the home network (mDNS, the router's DNS),
# never by a public DNS server an attacker controls.
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".internal", ".home.arpa", ".localhost")

# One DNS label: letters, digits and hyphens, not starting or ending with a hyphen
# (underscores too: some routers hand them out).
_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")


def device_names() -> frozenset[str]:
    """Return this device's host name and its first label, lower case."""
    name = socket.gethostname().lower().rstrip(".")
    return frozenset(n for n in (name, name.split(".")[0]) if n)


@dataclass(frozen=True)
class HostRules:
    """The names to serve besides IP literals, ``localhost`` and the local suffixes
    (by default: this device's names)."""

    enabled: bool = True
    # Exact names, lower case, no trailing dot.
    names: frozenset[str] = field(default_factory=device_names)
    # ".example.com": that name and every name under it.
    suffixes: tuple[str, ...] = ()


def rules_from(web_section: object) -> HostRules:
    """Return the rules of a config's ``web`` section; bad entries are left out.

    The save rules refuse bad entries (``host_name_problem``); a hand-edited file may
    still hold them, and a bad entry must not open or close anything else.
    """
    section = web_section if isinstance(web_section, dict) else {}
    enabled = section.get("host_check", True) is not False
    names: set[str] = set(device_names())
    suffixes: list[str] = []
    extra = section.get("allowed_hosts")
    for entry in extra if isinstance(extra, list) else []:
        if not isinstance(entry, str) or host_name_problem(entry) is not None:
            continue
        name = entry.strip().lower().rstrip(".")
        if name.startswith("."):
            suffixes.append(name)
        else:
            names.add(name)
    return HostRules(enabled, frozenset(names), tuple(suffixes))


def host_name_problem(entry: str) -> str | None:
    """Return what is wrong with an ``allowed_hosts`` entry, or None when it is a name.

    An entry is a host name (``panel.example.com``), an IP address, or a leading dot
    and a domain (``.example.com``: the domain and every name under it). No scheme,
    port or path: the port is never compared.
    """
    text = entry.strip().lower()
    if not text:
        return "must not be empty"
    if "://" in text or "/" in text:
        return "must be a host name only, without http:// or a path"
    if _ip_literal(text.strip("[]")) is not None:
        return None
    if ":" in text:
        return "must be a host name without a port (the port is never compared)"
    name = text[1:] if text.startswith(".") else text
    labels = name.rstrip(".").split(".")
    if len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        return "must be a host name such as panel.example.com (letters, digits, hyphens, dots)"
    return None


def split_host(host_header: str) -> str | None:
    """Return the name or address of a ``Host:`` value without its port, lower case.

    ``[::1]:5000`` gives ``::1``, ``Panel.Local.:5000`` gives ``panel.local``; a value
    that is no host at all (``a:b:c``, an empty one) gives None.
    """
    text = host_header.strip().lower()
    if text.startswith("["):
        inside, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not _is_port(rest[1:] if rest[0] == ":" else "x")):
            return None
        return inside or None
    name, colon, port = text.partition(":")
    if colon and not _is_port(port):
        return None
    name = name.rstrip(".")
    return name or None


def host_port(host_header: str) -> int | None:
    """Return the port of a ``Host:`` value (``[::1]:5000`` gives 5000), None without one."""
    text = host_header.strip()
    tail = text.rpartition("]")[2] if text.startswith("[") else text
    _, colon, port = tail.partition(":")
    return int(port) if colon and _is_port(port) else None


def is_allowed(host_header: str, rules: HostRules) -> bool:
    """Return whether the service answers to ``host_header`` under ``rules``."""
    if not rules.enabled:
        return True
    name = split_host(host_header)
    if name is None:
        return False
    if _ip_literal(name) is not None:
        return True
    if name == "localhost" or name in rules.names:
        return True
    return _under(name, LOCAL_SUFFIXES) or _under(name, rules.suffixes)


def _under(name: str, suffixes: Iterable[str]) -> bool:
    return any(name.endswith(suffix) or name == suffix[1:] and suffix not in LOCAL_SUFFIXES
               for suffix in suffixes)


def _ip_literal(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.replace("%25", "%"))
    except ValueError:
        return None


def _is_port(text: str) -> bool:
    return re.fullmatch(r"[0-9]{1,5}", text) is not None
