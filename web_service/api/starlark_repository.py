"""The apps repository: browse and search its index, install an app from it, refresh it.

Only these routes reach the repository's host (through the store's host rules). The
index is built in the background (``web_service.starlark.repository_index``); an answer
shows what is indexed so far and ``indexing`` says how far it got. The repository
modules (and ``requests`` with them) are imported on first use: the web starts without.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, request

from web_service.api.requests import (
    body_object,
    invalid_field,
    is_form,
    optional_bool,
    query_text,
)
from web_service.envelope import Reply, ok
from web_service.services import services
from web_service.starlark import apps
from web_service.starlark.repository_search import MAX_PAGE, categories, page_of, search

if TYPE_CHECKING:
    from web_service.starlark.repository_source import Place

bp = Blueprint("starlark_repository", __name__)
PREFIX = "/starlark/repository"


@bp.get(PREFIX)
def browse() -> Reply:
    """List the repository's apps matching ``q`` and ``category``, a page at a time."""
    return _answer(refresh=False)


@bp.post(f"{PREFIX}/refresh")
def refresh() -> Reply:
    """Forget the kept index and list the repository again; answers its first page."""
    body_object()
    return _answer(refresh=True)


@bp.post(f"{PREFIX}/install")
def install() -> Reply:
    """Install (``replace``: reinstall) an app of the repository by ``app_id``."""
    svc = services()
    body = body_object()
    app_id = apps.require_app_id(body.get("app_id"))
    replace = optional_bool(body, "replace", form=is_form(), default=False)
    from web_service.starlark.repository_install import install_from_repository

    app = install_from_repository(svc, _place(), app_id, replace=replace)
    return ok(apps.app_answer(svc, app), f"app {app.id} installed from the repository", 201)


def _place() -> Place:
    from web_service.starlark.repository_source import place_of

    store = services().store
    return place_of(store.main_snapshot().data, store.load_secrets())


def _answer(*, refresh: bool) -> Reply:
    svc = services()
    query, category, page = query_text("q"), query_text("category"), _page()
    place = _place()
    from web_service.starlark.repository_index import index_for

    snapshot = index_for(svc.settings.paths.cache_dir).snapshot(place, refresh=refresh)
    found = search(snapshot.entries, query, category)
    installed = set(apps.folder_of(svc).ids())
    shown, pages = page_of(found, page, installed)
    data: dict[str, Any] = {
        "repository": place.ref.url, "branch": place.branch, "apps": shown,
        "total": len(found), "page": page, "pages": pages,
        "categories": categories(snapshot.entries), "cached_at": snapshot.fetched_at,
        "indexing": snapshot.progress.as_dict(), "warning": snapshot.warning}
    return ok(data, snapshot.warning or "")


def _page() -> int:
    text = request.args.get("page", "1").strip() or "1"
    if not text.isdigit() or not 1 <= int(text[:6]) <= MAX_PAGE:
        raise invalid_field("page", f"must be a whole number from 1 to {MAX_PAGE}")
    return int(text)
