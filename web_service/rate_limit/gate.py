"""The check in front of the limited routes: after the guard, before the view.

Order (docs/API.md, "Rate limits"): connections are shared out per address first
(``connection_guard``), then every request passes the guard (Host allow-list, cross-site
refusal, sign-in; ``web_service.access.guard``) and only then is it counted here. A
request another site's page makes a browser send, or one that is not signed in, is
refused before it can use up the owner's allowance.

The client is ``request.remote_addr``: the web trusts no proxy header, so a client
cannot name another address to spend or escape a limit. An IPv6 client counts by its
/64, which one host may hold whole (as the connection guard counts it).
"""

from __future__ import annotations

import copy
import ipaddress
import logging
from typing import Any

from flask import Flask, Response, current_app, request

from shared.config.rate_limits import RateLimitSettings, settings_from
from shared.errors import ConfigError
from web_service.envelope import error
from web_service.rate_limit.counter import Counter, built_once
from web_service.rate_limit.groups import ENDPOINT_GROUPS, group_of
from web_service.services import services

logger = logging.getLogger(__name__)

STATE_KEY = "ledpanel.rate_limit"
ERROR_CODE = "RATE_LIMITED"


class RateLimitState:
    """One app's limiter: the settings last read and the counter, once needed."""

    def __init__(self) -> None:
        self.holder: dict[str, Counter] = {}
        self.warned = False
        self._read: tuple[Any, RateLimitSettings] | None = None

    def settings(self) -> RateLimitSettings:
        """Return the section as stored now (the last one read if the file is broken)."""
        try:
            web = services().store.main_snapshot().data.get("web")
        except ConfigError:
            return self._read[1] if self._read is not None else RateLimitSettings()
        section = web.get("rate_limits") if isinstance(web, dict) else None
        cached = self._read
        if cached is not None and cached[0] == section:
            return cached[1]
        found = settings_from(web)
        self._read = (copy.deepcopy(section), found)  # one assignment: threads see either
        return found


def install_rate_limits(app: Flask) -> None:
    """Count the limited routes of ``app``; call after ``install_guard`` (see above)."""
    app.extensions[STATE_KEY] = RateLimitState()
    app.before_request(_check)


def client_key() -> str:
    """Return who the current request counts for: its address, an IPv6 one by its /64."""
    address = (request.remote_addr or "").split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _check() -> tuple[Response, int] | None:
    group = group_of(request.endpoint, request.args)
    if group is None:
        return None
    state: RateLimitState = current_app.extensions[STATE_KEY]
    settings = state.settings()
    if not settings.enabled or settings.exempt(request.remote_addr):
        return None
    try:
        counter = built_once(state.holder, lambda: Counter(
            client_key, lambda: state.settings().per_minute,
            sorted(set(ENDPOINT_GROUPS.values()))))
    except ImportError as err:  # a broken install: serve unlimited rather than fail
        if not state.warned:
            state.warned = True
            logger.error("rate limits are off: Flask-Limiter cannot be imported (%s)", err)
        return None
    wait = counter.hit(group)
    if wait is None:
        return None
    return refusal(group, settings.per_minute[group], counter.window, wait)


def refusal(group: str, per_minute: int, window: int, wait: int) -> tuple[Response, int]:
    """The 429 answer: the envelope (pages too: only scripts hit a limit) and Retry-After."""
    span = "a minute" if window == 60 else f"in {window} seconds"
    logger.warning("rate limit: %s over %d requests %s to %s routes (%s)",
                   client_key(), per_minute, span, group, request.path[:200])
    reply = error(
        f"too many requests to the {group.replace('_', ' ')} routes from this address "
        f"(at most {per_minute} {span}); retry in {wait} seconds",
        ERROR_CODE, 429,
        {"group": group, "per_minute": per_minute, "retry_after": wait,
         "setting": f"web.rate_limits.per_minute.{group}"})
    reply[0].headers["Retry-After"] = str(wait)
    return reply
