"""Every described route: the per-resource tables joined into one."""

from __future__ import annotations

import importlib

from web_service.openapi.route_doc import RouteDoc

# One module of routes per resource family (``routes_<name>``).
FAMILIES = ("system", "auth", "wifi", "config", "display", "plugins", "store", "files",
            "starlark", "mqtt", "metrics", "skins")


def all_routes() -> dict[tuple[str, str], RouteDoc]:
    """Every route of every family, keyed by (method, Werkzeug rule)."""
    routes: dict[tuple[str, str], RouteDoc] = {}
    for family in FAMILIES:
        module = importlib.import_module(f"web_service.openapi.routes_{family}")
        for key, route in module.ROUTES.items():
            if key in routes:
                raise ValueError(f"{key} is described twice (routes_{family})")
            routes[key] = route
    return routes
