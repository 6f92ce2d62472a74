"""Cross-site refusal: what tells a browser request sent by another site's page apart.

The API stays open to every client that sends no browser headers (curl, scripts,
home-automation tools): they work exactly as before. A browser says where a request
comes from in ``Origin`` and ``Sec-Fetch-Site``; a state-changing request that another
site's page made it send is refused. A page on any site can also make a browser send a
form or ``text/plain`` body without asking first (no CORS preflight), so non-JSON
bodies from a browser need the token our own pages carry (``page_token``). Pure
functions of the request's headers: no Flask.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from shared.host_names import host_port, split_host

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class CrossSite:
    """Why a request was refused: ``reason`` is ``origin``, ``fetch_site`` or ``token``."""

    reason: str
    message: str


def is_safe(method: str) -> bool:
    """Return whether ``method`` changes nothing, so no cross-site check applies to it."""
    return method.upper() in SAFE_METHODS


def from_browser(headers: Mapping[str, str]) -> bool:
    """Return whether a browser sent the request (it says where from; curl does not)."""
    return any(name.lower() == "origin" or name.lower().startswith("sec-fetch-")
               for name in headers)


def same_origin(origin: str, host_header: str) -> bool:
    """Return whether ``Origin`` names the host the request was sent to.

    Ports are compared only when ``Host:`` carries one: behind a reverse proxy that
    ends TLS the page is ``https://name`` while the request reaching us says ``name``.
    """
    if origin == "null":  # sandboxed frames, file: pages, redirects across sites
        return False
    try:
        parts = urlsplit(origin)
        origin_port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return False
    name = split_host(host_header)
    if not parts.hostname or name is None or parts.hostname.rstrip(".") != name:
        return False
    port = host_port(host_header)
    return port is None or port == origin_port


def refusal(method: str, headers: Mapping[str, str], host_header: str, *,
            json_body: bool, has_body: bool, token_sent: bool) -> CrossSite | None:
    """Return why a request must be refused as cross-site, or None when it may run.

    ``json_body``: the body is declared ``application/json`` (a browser sends that to
    another site only after a preflight this service never grants); ``token_sent``: the
    request carries our pages' token.
    """
    if is_safe(method) or not from_browser(headers):
        return None
    lower = {name.lower(): value for name, value in headers.items()}
    origin = lower.get("origin")
    site = (lower.get("sec-fetch-site") or "").lower()
    same = origin is not None and same_origin(origin, host_header)
    if origin is not None and not same:
        return CrossSite("origin", f"refused: a page at {origin[:100]} asked the browser to "
                         "send this request; only this panel's own pages (and clients that "
                         "are not browsers, such as curl) may change it")
    if site == "cross-site" or (site == "same-site" and not same):
        return CrossSite("fetch_site", f"refused: the browser says a page on another site "
                         f"({site}) sent this request; only this panel's own pages (and "
                         "clients that are not browsers, such as curl) may change it")
    if has_body and not json_body and not token_sent:
        return CrossSite("token", "refused: a browser may send a form or text body only from "
                         "this panel's own pages, which carry a token; send JSON "
                         "(Content-Type: application/json) or use the panel's pages")
    return None
