"""Whether an installed plugin has an update: ``check_update``.

``local_only`` exactly when one of these holds (checked in this order):

1. the plugin folder is a symlink, or contains ``.git`` (a development checkout);
2. its id is in no registry (``entry`` is None) and it has no record of an install
   from a repository URL: copied in by hand, or installed from a registry that no
   longer lists it;
3. it has no readable ``.ledpanel-store.json`` record (copied in by hand) and its
   manifest version cannot be compared with the registry's ``latest_version``.

A plugin copied in by hand that a registry lists (one brought over from the existing
system) is compared by version only: a newer ``latest_version`` is
``update_available``, and the update installs the registry's copy, with a record.

Otherwise the installed plugin is compared with the remote, first rule that applies:

1. the plugin folder's tree id: one recursive tree listing of the repository gives the
   git id of the plugin folder (the whole repository's root tree when ``plugin_path``
   is ""), which changes exactly when the plugin's files change (a monorepo's head
   commit changes for every plugin); compared when the record and the listing both
   have it. A record without it (installed from the ZIP archive) while the listing has
   it is ``update_available``: the reinstall records the id, so the next check compares;
2. the manifest version: the registry's ``latest_version`` against the installed
   version (``packaging.version``; a leading ``v`` is dropped; an unreadable version
   skips this rule);
3. ``last_updated``: the registry entry's against the one recorded at install.

When no rule applies (a repository-URL install while the API is unreachable) the check
fails with ``DOWNLOAD_FAILED``. Repository tags and releases are never read.

``listing_cache`` (optional, a dict kept by the caller for one run) lists each
(repository, branch) once however many of its plugins are checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from web_service.store.errors import StoreError
from web_service.store.install.folders import installed_version, read_record

if TYPE_CHECKING:  # requests and packaging load with the first check, not at start
    import requests
    from packaging.version import Version


@dataclass(frozen=True)
class UpdateCheck:
    status: str  # "update_available" | "up_to_date" | "local_only"
    reason: str
    remote: dict[str, Any] = field(default_factory=dict)


def check_update(plugin_folder: Path, entry: dict[str, Any] | None, *, api_url: str,
                 token: str | None = None, session: requests.Session | None = None,
                 listing_cache: dict[Any, Any] | None = None) -> UpdateCheck:
    """Compare an installed plugin with its registry entry or repository."""
    folder = Path(plugin_folder)
    if not folder.is_symlink() and not folder.is_dir():
        raise StoreError(f"{folder.name} is not installed", "NOT_INSTALLED")
    local = local_only_reason(folder, entry)
    if local is not None:
        return UpdateCheck("local_only", local)
    record = read_record(folder)
    if record is None:
        assert entry is not None
        return _by_version_only(folder, entry)
    remote = _remote(entry if entry is not None else record, entry)
    if isinstance(remote["repo"], str):
        from web_service.store.install.download import folder_tree_sha  # loads requests

        remote["tree_sha"] = folder_tree_sha(remote["repo"], str(remote["branch"]),
                                             str(remote["plugin_path"]), api_url=api_url,
                                             token=token, session=session,
                                             listing_cache=listing_cache)
        if remote["tree_sha"] is not None:
            if not isinstance(record.get("tree_sha"), str):
                return UpdateCheck("update_available", "installed from the archive; the "
                                   "folder id is now known", remote)
            if remote["tree_sha"] != record["tree_sha"]:
                return UpdateCheck("update_available", "the plugin's files changed", remote)
            return UpdateCheck("up_to_date", "the plugin's files are unchanged", remote)
    installed = installed_version(folder) or record.get("version")
    newer = _newer(remote["latest_version"], installed)
    if newer is not None:
        if newer:
            return UpdateCheck("update_available",
                               f"version {remote['latest_version']} > {installed}", remote)
        return UpdateCheck("up_to_date", f"version {installed} is the latest", remote)
    recorded, latest = record.get("last_updated"), remote["last_updated"]
    if isinstance(latest, str) and latest:
        if latest != recorded:
            return UpdateCheck("update_available",
                               f"last updated {latest} (installed {recorded})", remote)
        return UpdateCheck("up_to_date", f"last updated {latest}, as installed", remote)
    raise StoreError(f"{folder.name}: cannot tell whether an update exists (the "
                     "repository host did not answer)", "DOWNLOAD_FAILED")


def local_only_reason(folder: Path, entry: dict[str, Any] | None) -> str | None:
    """Return why a plugin folder is local only (see the module docstring), else None."""
    if folder.is_symlink():
        return "a development link"
    if (folder / ".git").exists():
        return "a development checkout (.git)"
    record = read_record(folder)
    if entry is None and (record is None or record.get("source") != "repo_url"):
        return "in no registry" if record is not None else "not installed by the store " \
            "and in no registry"
    if record is None and _newer(entry.get("latest_version") if entry else None,
                                 installed_version(folder)) is None:
        return "not installed by the store, and no version to compare with the registry's"
    return None


def _by_version_only(folder: Path, entry: dict[str, Any]) -> UpdateCheck:
    """A plugin copied in by hand that a registry lists: compared by version alone."""
    installed, latest = installed_version(folder), entry.get("latest_version")
    remote = _remote(entry, entry)
    if _newer(latest, installed):
        return UpdateCheck("update_available", f"copied in by hand; the registry has "
                           f"version {latest} > {installed}", remote)
    return UpdateCheck("up_to_date", f"copied in by hand; version {installed} is the "
                       "registry's latest", remote)


def _remote(source: dict[str, Any], entry: dict[str, Any] | None) -> dict[str, Any]:
    """Where the plugin comes from (``source``: the entry, else the record) and what the
    registry says of it; ``tree_sha`` is filled in when a listing gives it."""
    return {"repo": source.get("repo"), "branch": source.get("branch") or "main",
            "plugin_path": source.get("plugin_path") or "",
            "latest_version": entry.get("latest_version") if entry else None,
            "last_updated": entry.get("last_updated") if entry else None,
            "tree_sha": None}


def _newer(latest: Any, installed: Any) -> bool | None:
    """Return whether ``latest`` is newer than ``installed``; None when either is unreadable."""
    mine, theirs = _version(installed), _version(latest)
    if mine is None or theirs is None:
        return None
    return theirs > mine


def _version(text: Any) -> Version | None:
    from packaging.version import InvalidVersion, Version  # on the first check only

    if not isinstance(text, str) or not text.strip() or len(text) > 100:
        return None
    try:
        return Version(text.strip().lstrip("vV"))
    except InvalidVersion:
        return None
