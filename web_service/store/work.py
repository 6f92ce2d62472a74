"""The work of the store's install and uninstall jobs (updates: ``store_update``).

Each ``*_work`` function checks what it can at once (raising before a job exists) and
returns the job's work ``work(report) -> result``, run later on the jobs thread, outside
any request: it holds the app's ``WebServices``, never ``current_app``. After a folder
changed the work adds or removes the plugin's config section through the one save path
(``WebServices.save_config``), tells the display (``plugin_notify``) and waits a bounded
time for its acknowledgement; a display that does not answer (stopped) is no failure.
Once the new folder is in place nothing turns the job into a failure: a config that
cannot be saved or a display that cannot be told becomes a warning in the result.

A plugin is found the way the catalog finds it (``discovery``: the manifest's id, so a
folder ``ledpanel-weather/`` holding id ``weather`` is ``weather``), in the configured
plugins directory, then the development one.
"""

from __future__ import annotations

import copy
import logging
import os
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.config.reserved import SECRETS_RESERVED, is_plugin_key
from shared.config.save_rules import changed_sections, plan_enabled_save
from shared.config.store import ConfigStore
from shared.errors import ConfigFileInvalid, LedpanelError, NotFoundError
from shared.ids import require_plain_segment
from shared.plugin_system.discovery import discover, plugins_dir_for
from web_service.plugin_notify import applied_outcome, notify_plugins_changed
from web_service.services import WebServices
from web_service.store.errors import StoreError
from web_service.store.install.folders import InstallSource, install_plugin, uninstall_plugin
from web_service.store.jobs import Report, Work
from web_service.store.registry.catalog import current_registry
from web_service.store.registry.sources import api_token_for, api_url
from web_service.store.repo_url import check_branch, check_plugin_path, parse_repo_url

logger = logging.getLogger(__name__)

ACK_TIMEOUT = 10.0
ACK_POLL = 0.1
_last_good: weakref.WeakKeyDictionary[ConfigStore, Mapping[str, Any]] = \
    weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class StoreContext:
    """Where and how the store works now: directories, API base, token."""

    services: WebServices
    plugins_dir: Path
    dev_dir: Path
    api_url: str
    token: str | None

    def dirs(self) -> list[Path]:
        """The directories the store updates and uninstalls in, configured one first."""
        return [self.plugins_dir] if self.dev_dir == self.plugins_dir \
            else [self.plugins_dir, self.dev_dir]

    def folder_of(self, plugin_id: str) -> Path | None:
        """Return the installed folder (or development link) of ``plugin_id``, or None.

        The folder discovery gives that id wins; a folder named ``plugin_id`` that
        discovery cannot read (no manifest, broken link) is still found, so it can be
        uninstalled.
        """
        for folder in self.dirs():
            found = [info for info in discover(folder, log=False) if info.id == plugin_id]
            if found:
                found.sort(key=lambda info: (bool(info.errors),
                                             info.directory.name != plugin_id))
                return found[0].directory
        for folder in self.dirs():
            path = folder / plugin_id
            if os.path.lexists(path):
                return path
        return None

    def installed_ids(self) -> list[str]:
        """Return the ids of the plugins in the store's directories (sorted, each once)."""
        return sorted({info.id for folder in self.dirs()
                       for info in discover(folder, log=False)})


def store_context(svc: WebServices) -> StoreContext:
    """Return the store's context from the config and secrets as they are now.

    A config.json that cannot be read (a hand edit in progress) does not stop the
    store: it works where the last good read said (the template before any), and
    without a token when the secrets cannot be read.
    """
    try:
        config: Mapping[str, Any] = svc.store.main_snapshot().data
        _last_good[svc.store] = config
    except ConfigFileInvalid as err:
        config = _last_good.get(svc.store) or svc.store.template()
        logger.warning("store: %s; using the plugins directory of the last good read",
                       err.message)
    try:
        token = api_token_for(config, svc.store.load_secrets())
    except ConfigFileInvalid as err:
        logger.warning("store: %s; working without the repository host token", err.message)
        token = None
    paths = svc.settings.paths
    return StoreContext(svc, plugins_dir_for(paths, dict(config)), paths.dev_plugins_dir,
                        api_url(config), token)


def registry_source(entry: dict[str, Any], plugin_id: str) -> InstallSource:
    """Return the install source of a registry entry."""
    return InstallSource(
        repo=str(entry.get("repo") or ""), plugin_id=plugin_id,
        branch=str(entry.get("branch") or "main"),
        plugin_path=str(entry.get("plugin_path") or ""),
        registry_url=entry.get("source") if isinstance(entry.get("source"), str) else None,
        latest_version=_text(entry.get("latest_version")),
        last_updated=_text(entry.get("last_updated")), kind="registry")


def find_entry(svc: WebServices, plugin_id: str) -> dict[str, Any]:
    """Return the registry entry of ``plugin_id``; raise 404 ``PLUGIN_NOT_FOUND``.

    An id the cached registry lacks is looked up once more in a fresh fetch (a plugin
    added to a registry since it was cached).
    """
    registry = current_registry(svc)
    entry = registry.find(plugin_id)
    if entry is None:
        entry = registry.entries(refresh=True).by_id.get(plugin_id)
    if entry is None:
        raise NotFoundError(f"{plugin_id} is in no plugin registry (see the Plugin Store's "
                            "sources)", error_code="PLUGIN_NOT_FOUND",
                            details={"plugin_id": plugin_id})
    return entry


def repo_url_source(body: dict[str, Any]) -> InstallSource:
    """Return the install source of a ``repo_url`` body (``branch``, ``plugin_path``,
    ``plugin_id`` optional); raise ``BAD_REPO_URL`` / ``INVALID_PLUGIN_ID`` (400)."""
    ref = parse_repo_url(body.get("repo_url"))
    branch = body.get("branch") or ref.branch or "main"
    plugin_path = body.get("plugin_path")
    plugin_path = ref.plugin_path if plugin_path in (None, "") else plugin_path
    plugin_id = body.get("plugin_id")
    return InstallSource(
        repo=ref.url, branch=check_branch(branch), plugin_path=check_plugin_path(plugin_path),
        plugin_id=None if plugin_id in (None, "") else require_plain_segment(plugin_id),
        kind="repo_url")


def install_work(svc: WebServices, source: InstallSource | None,
                 plugin_id: str | None) -> Work:
    """Return the work installing ``source``, or registry ``plugin_id`` when None."""

    def work(report: Report) -> dict[str, Any]:
        ctx = store_context(svc)
        report({"step": "resolving"})
        chosen = source if source is not None else registry_source(
            find_entry(svc, str(plugin_id)), str(plugin_id))
        return install_into(ctx, chosen, ctx.plugins_dir, report)

    return work


def upload_work(svc: WebServices, archive: Path, name: str) -> Work:
    """Return the work installing an uploaded plugin ZIP (already checked by
    ``archive.check_upload``); the ZIP is removed when the work ends, whatever happened."""
    source = InstallSource(repo=name, kind="upload", archive=archive)

    def work(report: Report) -> dict[str, Any]:
        try:
            ctx = store_context(svc)
            return install_into(ctx, source, ctx.plugins_dir, report)
        finally:
            archive.unlink(missing_ok=True)

    return work


def install_into(ctx: StoreContext, source: InstallSource, plugins_dir: Path,
                 report: Report) -> dict[str, Any]:
    """Install ``source`` into ``plugins_dir``, enable it when new, tell the display."""
    existed = source.plugin_id is not None and os.path.lexists(plugins_dir / source.plugin_id)
    report({"step": "downloading"})
    result = install_plugin(source, plugins_dir, api_url=ctx.api_url, token=ctx.token,
                            progress=report, also_dirs=ctx.dirs())
    existed = existed or result.previous_version is not None
    change = "updated" if existed else "installed"
    report({"step": "telling the display"})
    warnings: list[str] = []
    # The display is told first, then the config gets the plugin's section: saved first,
    # the config change alone would load the new folder and the change reload it again.
    display = after_swap(
        result.plugin_id, warnings, lambda: tell_display(ctx.services, result.plugin_id, change),
        {"display": None}, "the display was not told; restart it to load the new folder")
    enabled_now = after_swap(
        result.plugin_id, warnings, lambda: enable_if_new(ctx.services, result.plugin_id),
        False, "it was not enabled in the config; fix config.json (Config Editor), then "
               "enable it on its tab")
    shown = result.version or "(no version)"
    message = (f"{result.plugin_id} updated {result.previous_version or '?'} → {shown}"
               if existed else f"{result.plugin_id} {shown} installed")
    return {"plugin_id": result.plugin_id, "version": result.version,
            "previous_version": result.previous_version, "change": change,
            "config_added": enabled_now, "commit": result.record.get("commit"),
            "message": _with_warnings(message, warnings), "warnings": warnings, **display}


def after_swap(plugin_id: str, warnings: list[str], step: Any, fallback: Any,
               advice: str) -> Any:
    """Run one step after the folder changed; a failure becomes a warning, never an error.

    The folder is already in place, so the job must not say "failed": ``advice`` (what
    the user does now) and the error's message are appended to ``warnings``.
    """
    try:
        return step()
    except LedpanelError as err:
        logger.warning("%s: %s (%s)", plugin_id, advice, err.message)
        warnings.append(f"{advice} ({err.message})")
    except Exception:  # isolation boundary: the change is done, only this step failed
        logger.exception("%s: %s", plugin_id, advice)
        warnings.append(f"{advice} (the web service log has the details)")
    return fallback


def _with_warnings(message: str, warnings: list[str]) -> str:
    return message if not warnings else f"{message}, but {'; '.join(warnings)}"


def uninstall_work(svc: WebServices, plugin_id: str, remove_config: bool) -> Work:
    """Return the work uninstalling ``plugin_id`` (config section kept unless asked)."""

    def work(report: Report) -> dict[str, Any]:
        ctx = store_context(svc)
        report({"step": "removing"})
        folder = ctx.folder_of(plugin_id)
        if folder is None:
            raise StoreError(f"{plugin_id} is not installed", "NOT_INSTALLED")
        # By its folder name: a development link is unlinked, its target never touched.
        removed = uninstall_plugin(folder.name, [folder.parent])
        warnings: list[str] = []
        config_removed = after_swap(
            plugin_id, warnings, lambda: remove_sections(svc, plugin_id), False,
            "its configuration was not removed; remove its section in the Config Editor"
        ) if remove_config else False
        report({"step": "telling the display"})
        display = after_swap(
            plugin_id, warnings, lambda: tell_display(svc, plugin_id, "uninstalled"),
            {"display": None}, "the display was not told; restart it to unload the plugin")
        kept = "" if config_removed else "; its configuration is kept"
        return {"plugin_id": plugin_id, "removed_from": str(removed.parent),
                "config_removed": config_removed, "warnings": warnings,
                "message": _with_warnings(f"{plugin_id} uninstalled{kept}", warnings),
                **display}

    return work


def enable_if_new(svc: WebServices, plugin_id: str) -> bool:
    """Add ``{"enabled": true}`` for a plugin the config has no section for; return
    whether it did (an existing section is left as it was)."""
    if not is_plugin_key(plugin_id):
        return False
    added: list[bool] = []

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        if plugin_id in main:
            return main, secrets, []
        new_main, changed = plan_enabled_save(main, plugin_id, True)
        added.append(True)
        return new_main, secrets, changed

    svc.save_config(plan)
    if added:
        logger.info("%s: enabled in the config (it had no section)", plugin_id)
    return bool(added)


def remove_sections(svc: WebServices, plugin_id: str) -> bool:
    """Remove the plugin's config section and its secrets section; return whether any."""
    if not is_plugin_key(plugin_id):
        return False

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        new_main, new_secrets = copy.deepcopy(main), copy.deepcopy(secrets)
        new_main.pop(plugin_id, None)
        if plugin_id not in SECRETS_RESERVED:
            new_secrets.pop(plugin_id, None)
        return new_main, new_secrets, changed_sections(main, new_main, secrets, new_secrets)

    saved = svc.save_config(plan)
    if saved.changed:
        logger.info("%s: config and secrets sections removed", plugin_id)
    return bool(saved.changed)


def tell_display(svc: WebServices, plugin_id: str, change: str,
                 timeout: float = ACK_TIMEOUT) -> dict[str, Any]:
    """Tell the display about a changed plugin folder and wait (bounded) for its answer.

    Returns ``{"display": {result, detail}}``, or ``{"display": None, "display_note"}``
    when it did not answer (stopped: it applies the change when it starts).
    """
    try:
        request_id = notify_plugins_changed(svc, plugin_id, change)
    except LedpanelError as err:
        logger.warning("%s: the display was not told (%s); it sees the folder at its next "
                       "start", plugin_id, err.message)
        return {"display": None, "display_note": f"the display was not told: {err.message}"}
    outcome: dict[str, Any] | None = None
    if svc.display.service_state() in ("running", "starting"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            outcome = applied_outcome(svc, request_id)
            if outcome is not None and outcome.get("result") != "waiting":
                break
            time.sleep(ACK_POLL)
    if outcome is None:
        return {"display": None, "display_note": "the display did not answer (it may be "
                                                 "stopped); it applies the change when it "
                                                 "starts"}
    return {"display": {"result": outcome.get("result"), "detail": outcome.get("detail")}}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
