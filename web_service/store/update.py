"""The work of the store's update jobs: one plugin, or every installed plugin.

An update asks ``check_update`` (``web_service.store.update_status``: the exact ``local_only``
condition is there and in docs/PLUGINS.md); ``up_to_date`` and ``local_only`` touch
nothing, ``update_available`` re-installs from the recorded source (the registry entry,
or the record's repository for a ``repo_url`` install) in the plugins folder it is in,
under a folder named for its id (a folder named otherwise is removed after the swap). A
plugin copied in by hand that a registry lists is replaced by the registry's copy only
when the user asks: the weekly run leaves it alone (``local_only``).

The automatic weekly run (source ``auto_update``) never runs during an on-demand
session: it checks before each plugin and stops at the first one it finds a session
active, reporting the rest as skipped (the next slot or a manual run does them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

from flask import Flask

from shared.bus.display_status import RUNNING, display_report
from shared.errors import LedpanelError
from web_service.services import EXTENSION_KEY, WebServices
from web_service.store.errors import StoreError
from web_service.store.install.folders import InstallSource, read_record, uninstall_plugin
from web_service.store.jobs import Report, Work
from web_service.store.registry.catalog import RegistryUnavailable, current_registry
from web_service.store.update_status import check_update
from web_service.store.work import (
    StoreContext,
    after_swap,
    install_into,
    registry_source,
    store_context,
)

logger = logging.getLogger(__name__)

MAX_PLUGINS = 500
AUTO_SOURCE = "auto_update"
ON_DEMAND_SKIP = "on-demand session started"
EntryOf = Callable[[str], dict[str, Any] | None]


def update_work(svc: WebServices, plugin_id: str) -> Work:
    """Return the work updating ``plugin_id`` when it changed (the user asked: the
    registry is read afresh; the answer says when only the cache could be used)."""

    def work(report: Report) -> dict[str, Any]:
        ctx = store_context(svc)
        lookup = RegistryLookup(svc, fresh=True)
        result = update_plugin(ctx, plugin_id, lookup, report)
        if lookup.note is not None:
            result["registry_note"] = lookup.note
            result["message"] = f"{result['message']}; {lookup.note}"
        return result

    return work


def update_plugin(ctx: StoreContext, plugin_id: str, entry_of: EntryOf,
                  report: Report, listing_cache: dict[Any, Any] | None = None, *,
                  replace_hand_copied: bool = True) -> dict[str, Any]:
    """Update one plugin if it changed; return ``{plugin_id, update_status, message...}``.

    ``listing_cache`` (one dict for a whole run) lists each repository once. With
    ``replace_hand_copied`` False (the weekly run), a plugin copied in by hand (no store
    record) is left alone as ``local_only``: its folder is replaced only when asked.
    """
    folder = ctx.folder_of(plugin_id)
    if folder is None:
        raise StoreError(f"{plugin_id} is not installed", "NOT_INSTALLED")
    record = read_record(folder) if not folder.is_symlink() else None
    if record is None and not replace_hand_copied:
        reason = "copied in by hand: updated only when you ask (its Update button)"
        logger.info("%s: local_only (%s)", plugin_id, reason)
        return {"plugin_id": plugin_id, "update_status": "local_only", "reason": reason,
                "message": f"{plugin_id} is local only, not updated ({reason})"}
    entry = None
    if not folder.is_symlink() and (record is None or record.get("source") != "repo_url"):
        report({"step": "reading the registry"})
        entry = entry_of(plugin_id)
    report({"step": "checking for an update"})
    check = check_update(folder, entry, api_url=ctx.api_url, token=ctx.token,
                         listing_cache=listing_cache)
    if check.status != "update_available":
        said = ("is up to date" if check.status == "up_to_date"
                else "is local only, not updated")
        logger.info("%s: %s (%s)", plugin_id, check.status, check.reason)
        return {"plugin_id": plugin_id, "update_status": check.status,
                "reason": check.reason, "message": f"{plugin_id} {said} ({check.reason})"}
    if entry is not None:
        source = registry_source(entry, plugin_id)
    else:
        assert record is not None  # local_only otherwise
        source = _recorded_source(record, plugin_id)
    result = install_into(ctx, source, folder.parent, report)
    if folder.name != result["plugin_id"] and not folder.is_symlink():
        # The update went to the folder named for the id; the old one would repeat it.
        warnings = result["warnings"]
        before = len(warnings)
        after_swap(plugin_id, warnings, lambda: uninstall_plugin(folder.name, [folder.parent]),
                   None, f"the old folder {folder.name}/ is still there; remove it by hand")
        if len(warnings) == before:
            logger.info("%s: moved from %s/ to %s/", plugin_id, folder.name,
                        result["plugin_id"])
        else:
            result["message"] += f"; but {warnings[-1]}"
    return {**result, "update_status": "updated", "reason": check.reason}


def update_all_plugins(app: Flask, *, source: str, report: Report | None = None
                       ) -> list[dict[str, Any]]:
    """Update every installed plugin, one after the other; never raises for one plugin.

    ``source`` says who asked (``"manual"``, ``"auto_update"``), for the log. Returns one
    entry per plugin: ``{plugin_id, update_status, ...}``, ``{plugin_id, error,
    error_code}`` or, for the automatic run stopped by an on-demand session,
    ``{plugin_id, skipped}``.
    """
    svc = cast(WebServices, app.extensions[EXTENSION_KEY])
    ctx = store_context(svc)
    ids = ctx.installed_ids()[:MAX_PLUGINS]
    logger.info("store: updating %d plugins (%s)", len(ids), source)
    entry_of = RegistryLookup(svc, fresh=source != AUTO_SOURCE)
    listings: dict[Any, Any] = {}  # a monorepo is listed once for all its plugins
    outcomes: list[dict[str, Any]] = []
    for index, plugin_id in enumerate(ids):
        if source == AUTO_SOURCE and on_demand_active(svc):
            logger.info("store: an on-demand session started; the automatic update stops "
                        "before %s (%d plugins left for the next run)", plugin_id,
                        len(ids) - index)
            outcomes.extend({"plugin_id": left, "skipped": ON_DEMAND_SKIP}
                            for left in ids[index:])
            break
        if report is not None:
            report({"step": f"updating {plugin_id}", "files_done": index,
                    "files_total": len(ids)})
        try:
            result = update_plugin(ctx, plugin_id, entry_of, report or _ignore, listings,
                                   replace_hand_copied=source != AUTO_SOURCE)
            outcomes.append({"plugin_id": plugin_id, "update_status": result["update_status"],
                             "version": result.get("version"),
                             "previous_version": result.get("previous_version")})
        except LedpanelError as err:
            logger.warning("%s: update failed (%s): %s", plugin_id, err.error_code,
                           err.message)
            outcomes.append({"plugin_id": plugin_id, "error": err.message,
                             "error_code": err.error_code})
        except Exception:  # isolation boundary: one plugin's failure ends only its update
            logger.exception("%s: update failed unexpectedly", plugin_id)
            outcomes.append({"plugin_id": plugin_id, "error": "the update failed "
                             "unexpectedly; the web service log has the details",
                             "error_code": "INTERNAL"})
    return outcomes


def on_demand_active(svc: WebServices) -> bool:
    """Return whether the running display is in an on-demand session."""
    report = display_report(*svc.display.state())
    on_demand = report.get("on_demand") or {}
    return report["service"] == RUNNING and on_demand.get("state") == "active"


class RegistryLookup:
    """Registry entries by id, the registry read once (on the first lookup).

    ``fresh`` (an update the user asked for) fetches the sources even when the cache is
    young; when they cannot be reached the cache is used and ``note`` says so. The
    weekly run takes the cache while it is fresh. An unreachable registry with no cache
    gives None for every id (the check then says ``local_only``).
    """

    def __init__(self, svc: WebServices, *, fresh: bool) -> None:
        self.svc = svc
        self.fresh = fresh
        self.note: str | None = None
        self._by_id: dict[str, dict[str, Any]] | None = None

    def __call__(self, plugin_id: str) -> dict[str, Any] | None:
        if self._by_id is None:
            self._by_id = self._read()
        return self._by_id.get(plugin_id)

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            view = current_registry(self.svc).entries(refresh=self.fresh)
        except RegistryUnavailable as err:
            logger.warning("store: the registry cannot be read (%s)", err.message)
            self.note = f"the registry could not be read ({err.message})"
            return {}
        if self.fresh and (view.stale or view.refreshing):
            when = f" of {view.fetched_at}" if view.fetched_at else ""
            self.note = (f"the registry could not be reached, so its cached list{when} was "
                         f"used ({'; '.join(view.warnings[:2]) or 'no answer'})")
            logger.warning("store: %s", self.note)
        return dict(view.by_id)


def _recorded_source(record: dict[str, Any], plugin_id: str) -> InstallSource:
    """Return the source a ``repo_url`` install recorded."""
    return InstallSource(repo=str(record.get("repo") or ""), plugin_id=plugin_id,
                         branch=str(record.get("branch") or "main"),
                         plugin_path=str(record.get("plugin_path") or ""), kind="repo_url")


def _ignore(progress: dict[str, Any]) -> None:
    return None
