"""The apps repository's index: every app's manifest, cached on disk, built in the background.

One tree listing of the branch names every ``<folder>/<id>/manifest.yaml`` with its git
blob id. Manifests are kept by that id in ``<cache>/starlark-apps/repository/manifests/``,
so a later index fetches only the ones that changed; the listing itself is kept in
``index.json`` and used for ``FRESH_FOR`` seconds without asking the host. The first
index of a thousand apps is slow on a Pi, so the manifests are read (from the cache, or
``WORKERS`` at a time from the host) by a background thread, and the index answers what
it has so far with its progress. Files read back from the cache are untrusted: bounded,
checked against their blob id, and anything unusable is fetched again.
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.files.jsonfile import atomic_write_bytes, atomic_write_json
from shared.files.regular_file import read_regular
from shared.starlark.installed.app_ids import valid_app_id
from shared.starlark.installed.folder import PLUGIN_ID
from shared.starlark.installed.manifest_yaml import parse_manifest
from web_service.starlark import repository_source as source
from web_service.store.destinations import store_session

logger = logging.getLogger(__name__)

FRESH_FOR = 3600.0
WORKERS = 4
MAX_INDEX_BYTES = 4 * 1024 * 1024
_TEXT = 500


def repository_dir(cache_dir: Path) -> Path:
    return cache_dir / PLUGIN_ID / "repository"


@dataclass
class Progress:
    """How far the manifests are read: ``done`` of ``total``, ``failed`` of them."""

    done: int = 0
    total: int = 0
    failed: int = 0
    running: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"done": self.done, "total": self.total, "failed": self.failed,
                "running": self.running}


@dataclass
class Snapshot:
    """What the index holds now."""

    entries: list[dict[str, Any]]
    listed: set[str]
    fetched_at: float | None
    progress: Progress
    warning: str | None = None


@dataclass
class _State:
    place_key: str = ""
    listing: list[source.Listed] = field(default_factory=list)
    fetched_at: float | None = None
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    progress: Progress = field(default_factory=Progress)
    warning: str | None = None
    generation: int = 0
    asked_at: float | None = None  # the last listing asked for (FRESH_FOR counts from it)


class RepositoryIndex:
    """One cache folder's index of the apps repository (module docstring)."""

    def __init__(self, cache_dir: Path) -> None:
        self.folder = repository_dir(cache_dir)
        self._lock = threading.Lock()
        self._refreshing = threading.Lock()
        self._state = _State()

    def snapshot(self, place: source.Place, *, refresh: bool = False) -> Snapshot:
        """The index for ``place``: listed again when asked, stale or never listed.

        A listing that fails raises ``RepositoryError`` unless an older one is kept (the
        answer then carries a ``warning``).
        """
        if refresh:
            self.forget()
        with self._refreshing:
            if self._needs_listing(place):
                self._list(place)
        with self._lock:
            state = self._state
            progress = Progress(**vars(state.progress))
            return Snapshot([state.entries[k] for k in sorted(state.entries)],
                            {item.app_id for item in state.listing}, state.fetched_at,
                            progress, state.warning)

    def forget(self) -> None:
        """Forget the kept listing (the manifests stay: they are kept by content)."""
        with self._lock:
            self._state = _State(generation=self._state.generation + 1)
        (self.folder / "index.json").unlink(missing_ok=True)

    def _needs_listing(self, place: source.Place) -> bool:
        with self._lock:
            state = self._state
        if state.place_key != place.key or state.fetched_at is None:
            if self._load_kept(place):
                return False
            return True
        asked = state.asked_at or state.fetched_at
        return time.time() - asked > FRESH_FOR and not state.progress.running

    def _load_kept(self, place: source.Place, max_age: float = FRESH_FOR,
                   warning: str | None = None) -> bool:
        """Use ``index.json`` when it is for this place and at most ``max_age`` old."""
        try:
            kept = json.loads(read_regular(self.folder / "index.json", MAX_INDEX_BYTES,
                                           follow_symlinks=False))
            fetched_at = float(kept["fetched_at"])
            listing = [source.Listed(str(i), str(s), int(n)) for i, s, n in kept["listing"]
                       if valid_app_id(i) and len(str(s)) == 40]
        except (OSError, ValueError, KeyError, TypeError):
            return False
        if kept.get("place") != place.key or not 0 <= time.time() - fetched_at <= max_age:
            return False
        self._start(place, listing, fetched_at, warning)
        return True

    def _list(self, place: source.Place) -> None:
        try:
            with store_session() as session:
                listing = source.listing(session, place)
        except source.RepositoryError as err:
            self._keep_older(place, err)
            return
        fetched_at = time.time()
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_json(self.folder / "index.json", {
            "place": place.key, "fetched_at": fetched_at,
            "listing": [[item.app_id, item.sha, item.size] for item in listing]})
        self._start(place, listing, fetched_at, None)

    def _keep_older(self, place: source.Place, err: source.RepositoryError) -> None:
        """The listing failed: keep the index there is (with a warning), else raise."""
        with self._lock:
            state = self._state
            if state.place_key == place.key and state.listing:
                state.warning = _kept_words(state.fetched_at, err.message)
                state.asked_at = time.time()  # ask the host again after FRESH_FOR
                return
        if not self._load_kept(place, float("inf"), err.message):
            raise err

    def _start(self, place: source.Place, listing: list[source.Listed], fetched_at: float,
               warning: str | None) -> None:
        with self._lock:
            old = self._state
            same = old.place_key == place.key
            entries = {i.app_id: old.entries[i.app_id] for i in listing
                       if same and i.app_id in old.entries
                       and old.entries[i.app_id].get("_sha") == i.sha}
            self._state = _State(place.key, listing, fetched_at, entries,
                                 Progress(len(entries), len(listing), 0, True),
                                 warning and _kept_words(fetched_at, warning),
                                 old.generation + 1, time.time() if warning else fetched_at)
            generation = self._state.generation
        missing = [item for item in listing if item.app_id not in entries]
        threading.Thread(target=self._fill, args=(place, missing, generation),
                         name="apps-repository-index", daemon=True).start()

    def _fill(self, place: source.Place, missing: list[source.Listed], generation: int) -> None:
        """Read each missing manifest (cache, else host) into the index."""
        try:
            with store_session() as session, ThreadPoolExecutor(
                    WORKERS, thread_name_prefix="apps-repository") as pool:
                for listed, entry in zip(missing, pool.map(
                        lambda item: self._entry(session, place, item), missing),
                                         strict=True):
                    if not self._add(generation, listed, entry):
                        return
        except Exception:  # a bug here must not leave the index "running" for ever
            logger.exception("apps repository index failed")
        finally:
            with self._lock:
                if self._state.generation == generation:
                    self._state.progress.running = False

    def _add(self, generation: int, listed: source.Listed,
             entry: dict[str, Any] | None) -> bool:
        with self._lock:
            state = self._state
            if state.generation != generation:
                return False
            state.progress.done += 1
            if entry is None:
                state.progress.failed += 1
            else:
                state.entries[listed.app_id] = entry
            return True

    def _entry(self, session: Any, place: source.Place,
               listed: source.Listed) -> dict[str, Any] | None:
        data = self._kept_manifest(listed)
        if data is None:
            try:
                data = source.manifest_bytes(session, place, listed)
            except source.RepositoryError as err:
                logger.info("apps repository: %s", err.message)
                return None
            manifests = self.folder / "manifests"
            manifests.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(manifests / f"{listed.sha}.yaml", data)
        return entry_of(listed, parse_manifest(data))

    def _kept_manifest(self, listed: source.Listed) -> bytes | None:
        try:
            data = read_regular(self.folder / "manifests" / f"{listed.sha}.yaml",
                                source.MAX_MANIFEST_BYTES, follow_symlinks=False)
        except (OSError, ValueError):
            return None
        return data if source.blob_sha(data) == listed.sha else None


def entry_of(listed: source.Listed, manifest: dict[str, Any]) -> dict[str, Any]:
    """An app as the repository routes list it, from its manifest."""

    def text(key: str) -> str:
        value = manifest.get(key)
        return value.strip()[:_TEXT] if isinstance(value, str) else ""

    tags = manifest.get("tags")
    return {"id": listed.app_id, "name": text("name") or listed.app_id,
            "summary": text("summary"), "description": text("desc"),
            "category": text("category").lower(), "author": text("author"),
            "tags": [t[:60] for t in tags if isinstance(t, str)][:20]
            if isinstance(tags, list) else [],
            "supports2x": manifest.get("supports2x") is True, "_sha": listed.sha}


def _kept_words(fetched_at: float | None, why: str) -> str:
    when = "earlier" if fetched_at is None else time.strftime(
        "%Y-%m-%d %H:%M UTC", time.gmtime(fetched_at))
    return f"showing the index of {when}: {why}"



_INDEXES: dict[str, RepositoryIndex] = {}
_INDEXES_LOCK = threading.Lock()


def index_for(cache_dir: Path) -> RepositoryIndex:
    """The one index of a cache folder in this process."""
    with _INDEXES_LOCK:
        return _INDEXES.setdefault(str(cache_dir), RepositoryIndex(cache_dir))


def clear_downloads(cache_dir: Path) -> None:
    shutil.rmtree(repository_dir(cache_dir) / "downloads", ignore_errors=True)
