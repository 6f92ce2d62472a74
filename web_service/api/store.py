"""The plugin store's catalogue: registry list and search, repository host status and
the store sources. Only these routes (and the store jobs) reach the registry's hosts."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from web_service.api.requests import body_object, query_text
from web_service.envelope import Reply, ok
from web_service.services import services
from web_service.store.host_status import api_token, host_status
from web_service.store.registry.catalog import current_registry
from web_service.store.registry.search import categories, search
from web_service.store.registry.sources import (
    api_token_for,
    api_url,
    plan_add_source,
    plan_remove_source,
    sources,
    token_refusal,
)

bp = Blueprint("store", __name__)

_TRUE = ("1", "true", "yes", "on")


@bp.get("/plugins/store/list")
def store_list() -> Reply:
    """List registry entries matching ``query`` (every word) and ``category``.

    Answered from the cache while it is fresh; ``refresh=1`` fetches the sources now.
    ``stale`` is true when a source could not be reached (``warnings`` say which);
    ``refreshing`` when another request is fetching the sources (this answer is the cache).
    """
    svc = services()
    query = query_text("query")
    category = query_text("category")
    refresh = request.args.get("refresh", "").strip().lower() in _TRUE
    view = current_registry(svc).entries(refresh=refresh)
    installed = {record["id"]: record.get("version") for record in svc.catalog.installed()}
    return ok({"plugins": search(view.plugins, query, category, installed),
               "stale": view.stale, "refreshing": view.refreshing, "warnings": view.warnings,
               "fetched_at": view.fetched_at, "categories": categories(view.plugins)})


@bp.get("/plugins/store/github-status")
def github_status() -> Reply:
    """Return the repository host's reachability, token flags (never the token), quota.

    ``token_used`` is false, with ``token_note`` saying why, when a token is configured
    but the API URL in force may not receive it (see ``sources.token_refusal``).
    """
    svc = services()
    config = svc.store.main_snapshot().data
    secrets = svc.store.load_secrets()
    token = api_token_for(config, secrets)
    answer = host_status(api_url(config), token)
    configured = api_token(secrets) is not None
    answer["token_configured"] = configured
    answer["token_used"] = token is not None
    answer["token_note"] = token_refusal(config) if configured and token is None else None
    return ok(answer)


@bp.get("/plugins/store/sources")
def list_sources() -> Reply:
    """List the store sources: the registry (not removable), then the user's."""
    config = services().store.main_snapshot().data
    return ok({"sources": [source.as_dict() for source in sources(config)],
               "repository_api_url": api_url(config)})


@bp.post("/plugins/store/sources")
def add_source() -> Reply:
    """Add a registry index or a single plugin's repository as a store source."""
    body = body_object()
    _save(lambda main: plan_add_source(main, body))
    return list_sources()[0], 200


@bp.delete("/plugins/store/sources")
def remove_source() -> Reply:
    """Remove a source the user added (the registry in force cannot be removed)."""
    body = body_object()
    _save(lambda main: plan_remove_source(main, body))
    return list_sources()[0], 200


def _save(change: Any) -> None:
    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        return change(main), secrets, ["plugin_system"]

    services().save_config(plan)
