"""What each API token scope may do: the one table, checked by the guard for every request.

- ``read``: looks only: GET, HEAD and OPTIONS (a backup comes without its secrets).
- ``control``: ``read``, plus driving the display: the ``CONTROL_ROUTES`` (on-demand start
  and stop, next, the panel on or off by hand, posting a notification) and
  ``CONTROL_PREFIXES`` (dismissing a notification; custom apps set and removed).
  Brightness and every other setting are config saves: ``admin``.
- ``admin``: everything a signed-in browser may do, making and revoking tokens included.

A browser session is ``admin``. Tokens made before scopes existed are ``admin``
(``shared.sign_in.store.LEGACY_SCOPE``), so scripts that used them keep working.
Pure functions of the method, the path and the identity: no Flask.
"""

from __future__ import annotations

from shared.sign_in.store import Identity

API_PREFIX = "/api/v3"
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CONTROL_ROUTES = frozenset({("POST", f"{API_PREFIX}/display/on-demand/start"),
                            ("POST", f"{API_PREFIX}/display/on-demand/stop"),
                            ("POST", f"{API_PREFIX}/display/next"),
                            ("POST", f"{API_PREFIX}/display/power"),
                            ("POST", f"{API_PREFIX}/notify")})
# (method, path prefix): routes with one name in the path after the prefix: dismissing
# a notification (DELETE /notify/<id>), custom apps set and removed (/custom/<name>).
CONTROL_PREFIXES = (("DELETE", f"{API_PREFIX}/notify/"), ("POST", f"{API_PREFIX}/custom/"),
                    ("DELETE", f"{API_PREFIX}/custom/"))
RANK = {"read": 0, "control": 1, "admin": 2}


def needed(method: str, path: str) -> str:
    """Return the least scope that may send ``method`` to ``path``."""
    method = method.upper()
    if method in READ_METHODS:
        return "read"
    if (method, path.rstrip("/")) in CONTROL_ROUTES:
        return "control"
    if any(method == m and path.startswith(p) and "/" not in path[len(p):].strip("/")
           for m, p in CONTROL_PREFIXES):
        return "control"
    return "admin"


def allows(identity: Identity, scope: str) -> bool:
    """Return whether ``identity`` may do what ``scope`` covers."""
    return RANK.get(identity.scope, -1) >= RANK[scope]


def refusal_message(identity: Identity, method: str, path: str) -> str | None:
    """Return why ``identity`` may not send ``method`` to ``path``, or None when it may."""
    scope = needed(method, path)
    if allows(identity, scope):
        return None
    return (f"the API token {identity.name!r} has the scope {identity.scope!r}, which may not "
            f"{method.upper()} {path[:200]} (that needs {scope!r}); make a token with that "
            "scope, or sign in")
