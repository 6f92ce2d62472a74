"""Installed apps as the web answers and changes them: install, replace, remove, settings.

An install puts the package in the apps folder (``AppsFolder.install``) and THEN saves
the app's config entry with a new ``revision`` (so the display renders it again); a
removal removes the folder and then the entry. One lock orders the web's changes, so
two requests never interleave a folder change with another's save.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from shared.bus.core import Bus
from shared.config.store import ConfigStore
from shared.errors import LedpanelError, NotFoundError, ValidationError
from shared.ids import require_plain_segment
from shared.paths import Paths
from shared.starlark.installed.app_ids import mode_of, valid_app_id
from shared.starlark.installed.folder import AppsFolder, InstalledApp, apps_root
from shared.starlark.installed.package import Package
from web_service.starlark import config_entry as entries
from web_service.starlark.status import empty_record, has_preview, render_records

API_BASE = "/api/v3/starlark"
_CHANGES = threading.Lock()
# What an app's answer carries of the display's render record (render_status.py).
_RECORD_KEYS = ("rendered_at", "render_ms", "frames", "delay_ms", "error", "errors",
                "next_render_at", "held", "backoff_s", "skipped", "width", "height", "scale")


class _Settings(Protocol):
    @property
    def paths(self) -> Paths: ...


class _Catalog(Protocol):
    def schema_reader(self) -> Callable[[str], dict[str, Any] | None]: ...

    def lazy_plugin_ids(self) -> Any: ...


class WebServices(Protocol):
    """What these functions use of ``web_service.services.WebServices`` (not imported:
    the services reach this package's imports through the catalog and the store)."""

    @property
    def settings(self) -> _Settings: ...

    @property
    def store(self) -> ConfigStore: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def catalog(self) -> _Catalog: ...

    def save_config(self, plan: Any) -> Any: ...


def folder_of(svc: WebServices) -> AppsFolder:
    return AppsFolder(apps_root(svc.settings.paths))


def require_app_id(value: object) -> str:
    """An app id from a request, or the project's 400 for a bad id."""
    text = require_plain_segment(value, "app_id")
    if not valid_app_id(text):
        raise ValidationError(f"app_id {text[:80]!r} is not an app id: 1 to 64 lower-case "
                              "letters, digits, _ and -, starting with a letter or digit",
                              error_code="INVALID_PLUGIN_ID", details={"field": "app_id"})
    return text


def installed_app(svc: WebServices, app_id: str) -> InstalledApp:
    """The installed app, or 404 ``APP_NOT_FOUND``."""
    app = folder_of(svc).get(require_app_id(app_id))
    if app is None:
        raise NotFoundError(f"app {app_id!r} is not installed", error_code="APP_NOT_FOUND",
                            details={"app_id": app_id})
    return app


def app_answers(svc: WebServices) -> list[dict[str, Any]]:
    """Every installed app as the routes answer it."""
    section = entries.section_of(svc.store.main_snapshot().data)
    records = render_records(svc.bus)
    return [app_answer(svc, app, section, records) for app in folder_of(svc).apps()]


def app_answer(svc: WebServices, app: InstalledApp, section: dict[str, Any] | None = None,
               records: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """One app: what its folder says, its entry's enabled and duration, its last render."""
    if section is None:
        section = entries.section_of(svc.store.main_snapshot().data)
    record = (records if records is not None else render_records(svc.bus)).get(app.id)
    entry = entries.entry_of(section, app.id)
    shown = has_preview(svc.settings.paths.cache_dir, app.id)
    record = record or empty_record()
    return {
        "id": app.id, "name": app.name, "summary": app.summary, "category": app.category,
        "author": app.author, "source": app.source, "installed_at": app.installed_at,
        "supports2x": app.supports2x, "enabled": entry["enabled"],
        "duration": entry["duration"], "revision": entry["revision"],
        "mode": mode_of(app.id), "problem": app.problem,
        **{key: record[key] for key in _RECORD_KEYS},
        "preview_url": (f"{API_BASE}/apps/{app.id}/preview?v={record['rendered_at'] or 0}"
                        if shown else None),
    }


def install(svc: WebServices, package: Package, *, source: str,
            replace: bool) -> tuple[InstalledApp, dict[str, Any]]:
    """Install ``package`` and save its entry (a new revision); 409 ``APP_EXISTS`` when
    the app is installed and ``replace`` is false. Returns the app and its entry."""
    folder = folder_of(svc)
    with _CHANGES:
        existed = package.app_id in folder.ids()
        if existed and not replace:
            raise LedpanelError(f"app {package.app_id!r} is installed already; send "
                                "replace: true to replace it", error_code="APP_EXISTS",
                                status=409, details={"app_id": package.app_id})
        try:
            app = folder.install(package, source=source)
        except OSError as err:
            raise LedpanelError(f"app {package.app_id!r} could not be installed: {err}",
                                error_code="INSTALL_FAILED", status=500) from err
        try:
            entry = save_entry(svc, app.id, lambda stored: {
                **stored, "revision": entries.new_revision(stored["revision"])})
        except BaseException:
            if not existed:  # a new app whose entry was refused is not left behind
                folder.remove(app.id)
            raise
    return app, entry


def remove(svc: WebServices, app_id: str) -> None:
    """Remove an installed app's folder, then its entry (404 when it is not installed)."""
    installed_app(svc, app_id)
    with _CHANGES:
        if not folder_of(svc).remove(app_id):
            raise NotFoundError(f"app {app_id!r} is not installed",
                                error_code="APP_NOT_FOUND", details={"app_id": app_id})
        save_entry(svc, app_id, lambda stored: None)


def change_settings(svc: WebServices, app_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """Apply a checked PATCH body to the app's entry, save it and return the new entry."""
    installed_app(svc, app_id)
    patch = entries.checked_patch(body)
    with _CHANGES:
        return save_entry(svc, app_id, lambda stored: entries.patched_entry(stored, patch))


def save_entry(svc: WebServices, app_id: str, change: entries.EntryChange
               ) -> dict[str, Any]:
    """Save one app's entry as ``change`` makes it from the stored one (None removes it)
    through the config save path; return the new entry ({} when removed)."""
    made: list[dict[str, Any]] = []
    svc.save_config(entries.section_plan(entries.with_entry(app_id, change, made),
                                         svc.catalog.schema_reader(),
                                         svc.catalog.lazy_plugin_ids()))
    return made[-1] if made else {}
