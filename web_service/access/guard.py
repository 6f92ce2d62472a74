"""The one check in front of every route: Host allow-list, then cross-site refusal.

Every request, pages and API alike, passes ``CHECKS`` in order before its view runs;
the first refusal answers (the JSON envelope under ``/api/``, a short HTML page
elsewhere) and the view never runs. No route re-implements a check. Sign-in
(``sign_in.refusal``) runs third: after the host (a rebinding page must not even
learn that a sign-in exists) and after cross-site (a session cookie is what a
cross-site request would abuse).

The Host rules come from ``web.host_check`` and ``web.allowed_hosts`` in config.json,
read through the store's snapshot only for a name the built-in rules do not serve
(one ``stat``; a save applies to the next request).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask, Response, current_app, render_template, request

from shared import host_names
from shared.errors import ConfigError
from web_service.access import cross_site, page_token, sign_in
from web_service.access.page_token import MAX_FORM_FIELDS
from web_service.envelope import error
from web_service.services import EXTENSION_KEY, WebServices, services
from web_service.wifi import captive

logger = logging.getLogger(__name__)

GUARD_KEY = "ledpanel.guard"
API_PATH = "/api/"
MAX_HOSTS_SEEN = 64


@dataclass(frozen=True)
class Refusal:
    """One refused request: the HTTP status, the envelope's code and message, hints."""

    status: int
    error_code: str
    message: str
    details: dict[str, Any]
    title: str
    hints: tuple[str, ...] = ()


@dataclass
class Guard:
    """One app's guard state: the page token and the Host rules last read."""

    token: str
    # Served under any settings: IP literals, localhost, local suffixes, this device.
    builtin: host_names.HostRules = field(default_factory=host_names.HostRules)
    # Host values ``builtin`` serves, as seen: the rules are fixed for the app's life.
    _builtin_seen: dict[str, bool] = field(default_factory=dict, repr=False)
    # (the ``web`` section, its rules): recomputed only when the section changes.
    _rules: tuple[Any, host_names.HostRules] | None = field(default=None, repr=False)

    def builtin_allows(self, host: str) -> bool:
        """Return whether the built-in rules serve the ``Host:`` value ``host``."""
        allowed = self._builtin_seen.get(host)
        if allowed is None:
            allowed = host_names.is_allowed(host, self.builtin)
            if len(self._builtin_seen) < MAX_HOSTS_SEEN:  # bounded: any client picks names
                self._builtin_seen[host] = allowed
        return allowed

    def host_rules(self) -> host_names.HostRules:
        """Return the Host rules of config.json as stored now.

        A config file that cannot be read keeps the rules last read (the defaults
        before any), so the page that shows the problem still answers.
        """
        try:
            web = services().store.main_snapshot().data.get("web")
        except ConfigError:
            cached = self._rules
            return cached[1] if cached is not None else host_names.HostRules()
        cached = self._rules
        if cached is not None and cached[0] == web:
            return cached[1]
        rules = host_names.rules_from(web)
        self._rules = (copy.deepcopy(web), rules)  # one assignment: threads see old or new
        return rules


def install_guard(app: Flask) -> None:
    """Run ``CHECKS`` before every request of ``app``; give pages the token."""
    web: WebServices = app.extensions[EXTENSION_KEY]
    config_dir = web.settings.paths.config_dir
    app.extensions[GUARD_KEY] = Guard(page_token.load_or_create(config_dir))
    app.before_request(_guard)

    @app.context_processor
    def _token() -> dict[str, str]:
        return {"page_token": _state().token, "token_header": page_token.TOKEN_HEADER,
                "token_field": page_token.TOKEN_FIELD}


def check_host() -> Refusal | None:
    """Refuse a ``Host:`` name outside the allow-list (DNS rebinding)."""
    host = request.headers.get("Host", "")
    if not host:  # HTTP/1.0 without Host: the server's own address is used
        return None
    # Names served whatever the settings say need no config read (most requests).
    guard = _state()
    if guard.builtin_allows(host) or host_names.is_allowed(
            host, guard.host_rules()):
        return None
    if captive.allows(request.path):  # a phone's probe while the setup access point is up
        return None
    name = (host_names.split_host(host) or host)[:100]
    port = host_names.host_port(host) or 5000
    example = (f"curl -X POST http://<device IP address>:{port}/api/v3/config/main "
               f"-H 'Content-Type: application/json' "
               f"-d '{{\"web\": {{\"allowed_hosts\": [\"{name}\"]}}}}'")
    logger.warning("refused Host %r (not in the allow-list; web.allowed_hosts adds names)", name)
    return Refusal(
        403, "HOST_NOT_ALLOWED",
        f"this panel does not answer to the name {name!r}: a name it does not know may be a "
        "DNS-rebinding attack. To use this name, add it to web.allowed_hosts in config.json "
        "(or turn the check off with web.host_check: false)",
        {"host": name, "setting": "web.allowed_hosts", "example": example},
        "Unknown host name",
        (f"Open the panel by its IP address, or by a name ending in .local, then add "
         f"{name!r} to web.allowed_hosts in config.json (the raw config editor), or run:",
         example))


def check_cross_site() -> Refusal | None:
    """Refuse a state-changing request another site's page made a browser send."""
    if cross_site.is_safe(request.method):  # most requests: nothing of the body is looked at
        return None
    found = cross_site.refusal(
        request.method, dict(request.headers.items()), request.headers.get("Host", ""),
        json_body=request.mimetype == "application/json", has_body=_has_body(),
        token_sent=token_sent())
    if found is None:
        return None
    logger.warning("refused %s %s: cross-site (%s, Origin %r)", request.method, request.path,
                   found.reason, request.headers.get("Origin"))
    return Refusal(403, "CROSS_SITE_REFUSED", found.message, {"reason": found.reason},
                   "Request refused")


# In order; the first refusal answers. Sign-in goes last (see the module docstring).
CHECKS: tuple[Callable[[], Refusal | None], ...] = (check_host, check_cross_site)


def _guard() -> Response | tuple[Response, int] | None:
    for check in CHECKS:
        refusal = check()
        if refusal is not None:
            return _render(refusal)
    return sign_in.refusal(request)


def _render(refusal: Refusal) -> Response | tuple[Response, int]:
    if request.path.startswith(API_PATH) or request.path.rstrip("/") == API_PATH.rstrip("/"):
        return error(refusal.message, refusal.error_code, refusal.status, refusal.details)
    html = render_template("refused.html", refusal=refusal)
    return Response(html, status=refusal.status, mimetype="text/html")


def _has_body() -> bool:
    if (request.content_length or 0) > 0:
        return True
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def token_sent() -> bool:
    """Return whether the current request carries our pages' token (header or field)."""
    token = _state().token
    if page_token.matches(request.headers.get(page_token.TOKEN_HEADER), token):
        return True
    if request.mimetype == "multipart/form-data":
        return page_token.matches(request.form.get(page_token.TOKEN_FIELD), token)
    if request.mimetype == "application/x-www-form-urlencoded":
        # Read through the cached body: the views decode it again in its own charset.
        text = request.get_data(cache=True).decode("latin-1")
        try:
            pairs = parse_qsl(text, max_num_fields=MAX_FORM_FIELDS)
        except ValueError:  # too many fields: no form of ours
            return False
        sent = [value for key, value in pairs if key == page_token.TOKEN_FIELD]
        return len(sent) == 1 and page_token.matches(sent[0], token)
    return False


def _state() -> Guard:
    guard: Guard = current_app.extensions[GUARD_KEY]
    return guard

