"""The JSON-file bus between the daemons: one directory, one ``<key>.json`` per message.

This is the only code that touches bus files. Writes are atomic; reads always go to
disk, so no reader can hold a stale copy. Changes are noticed through watchdog
(inotify where it works, a polling observer otherwise); watch callbacks run on the
observer's thread and should only set flags.

Anyone who can write the directory can put anything in it, so a read takes only a
regular file of at most ``MAX_BYTES``, without blocking (``shared.files.regular_file``):
a FIFO, a directory, a symlink, a device, an oversized or unparsable file, or one holding a
number out of range (``shared.files.jsontext.parse_bounded``: NaN, 1e400, 400 digits)
reads as absent, is logged (once per file and kind, then at most every ``REPORT_EVERY``
seconds) and is listed by ``Bus.problems()`` until it is gone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from shared.bus.upkeep import (
    CLAIM_PREFIX,
    QUEUE_SEP,
    STALE_TEMP_AFTER,
    clean_up,
    describe,
    reports,
)
from shared.errors import AtomicWriteError
from shared.files.jsonfile import atomic_write_json
from shared.files.jsontext import parse_bounded
from shared.files.regular_file import kind_of, read_regular

logger = logging.getLogger(__name__)

# Keys (file names without .json). Direction in comments.
DISPLAY_ON_DEMAND_REQUEST = "display_on_demand_request"  # web -> display
DISPLAY_ON_DEMAND_CONFIG = "display_on_demand_config"  # display: active on-demand
DISPLAY_STATE = "display_state"  # display -> web: heartbeat and state
HARDWARE_STATUS = "hardware_status"  # display -> web
CONFIG_CHANGED = "config_changed"  # web -> display: {seq, sections}
PREVIEW_FRAME = "preview_frame"  # display -> web, only while a viewer is present
PREVIEW_VIEWER = "preview_viewer"  # web -> display: viewer heartbeat
PLUGIN_ERRORS = "plugin_errors"  # display -> web: recent plugin failures
# In plugin_errors, the display's acknowledgement of a clear request (never a plugin id).
PLUGIN_ERRORS_CLEARED = ".cleared"
WEB_STATE = "web_state"  # web -> display: where the web listens (host, port), at start
PLUGIN_SAFE_MODE = "plugin_safe_mode"  # display -> web: plugins kept out, and why
PLUGIN_SAFE_MODE_RELEASE = "plugin_safe_mode_release"  # web -> display (queued requests)
PLUGIN_ERRORS_CLEAR = "plugin_errors_clear"  # web -> display (queued requests)
FONTS_CHANGED = "fonts_changed"  # web -> display: {seq, change, family}; rescan the fonts
# web -> display (queued requests): {plugin_id, change}; a plugin folder was installed,
# updated or uninstalled (shared.plugin_system.changes)
PLUGINS_CHANGED = "plugins_changed"
# web or the MQTT bridge -> display (queued requests, shared.bus.display_control):
# {"action": "next"} or {"action": "power", "on": bool}, with request_id, source and
# requested_at; each outcome is in display_state's ``requests.<request_id>``
DISPLAY_CONTROL = "display_control"
# display: the panel turned on or off by hand, kept across a restart
# ({"on": bool, "until": wall time or null, "set_at", "request_id", "source"})
DISPLAY_POWER = "display_power"
# display (the starlark-apps plugin) -> web: each scripted app's last render
# (shared.starlark.installed.render_status has the record's shape)
STARLARK_APPS = "starlark_apps"
# mqtt (the bridge, mqtt_service) -> web: the broker connection: {state: connected,
# connecting, disabled or an error sentence; since; broker: "host:port" or None}
MQTT_STATE = "mqtt_state"
# web or mqtt -> display (queued requests, shared.notify.requests): {"action": "add",
# "id", "notification", "source"} or {"action": "dismiss", "id", "source"}
NOTIFY_REQUEST = "notify_request"
# display -> web and mqtt: {"queue": [...], "recent": [...]}, the notifications waiting
# or showing and the last finished (display_service.notify.record has the shape)
NOTIFICATIONS = "notifications"
# web or mqtt -> display (queued requests, taken by the custom-apps plugin):
# {action: "set"|"remove", name, app (checked: shared.notify.custom_fields), source,
# requested_at}
CUSTOM_APP_REQUEST = "custom_app_request"
# display (the custom-apps plugin) -> web and mqtt: the custom apps it holds (no pixels)
# and the outcome of its last requests (shared.notify.custom_record has the shape)
CUSTOM_APPS = "custom_apps"

# web -> display: someone reads the metrics ({"until": wall time, "written_at": wall
# time}); the display publishes display_metrics only while it lasts, so an idle panel
# nobody scrapes writes nothing
METRICS_VIEWER = "metrics_viewer"
# display -> web: the render loop's figures (display_service.loop.metrics has the shape;
# web_service.metrics.display_record reads it as untrusted), at most every few seconds
DISPLAY_METRICS = "display_metrics"

_SUFFIX = ".json"
_TMP_DIR = ".tmp"
_QUEUE_SEP = QUEUE_SEP

# The largest bus file read; the biggest real one, a preview frame, is far smaller.
MAX_BYTES = 1 << 20


def new_request_id() -> str:
    """Return a fresh, unique request id."""
    import uuid  # only the web makes requests: the display does not pay for the import

    return uuid.uuid4().hex


class Bus:
    """Publish, read and watch bus keys in one directory."""

    def __init__(self, directory: Path, *, keep_published: bool = False) -> None:
        self.directory = Path(directory)
        # With keep_published, the last value published per key, for ``republish``.
        self._kept: dict[str, dict[str, Any]] | None = {} if keep_published else None
        self._unwritten: set[str] = set()  # kept keys whose last write failed
        self._kept_lock = threading.Lock()

    def path(self, key: str) -> Path:
        if not key or "/" in key or _QUEUE_SEP in key or key.startswith("."):
            raise ValueError(f"invalid bus key {key!r}")
        return self.directory / f"{key}{_SUFFIX}"

    def publish(self, key: str, data: dict[str, Any]) -> None:
        """Write ``data`` under ``key`` atomically (group-writable, for both daemons)."""
        # The temp file lives in a subfolder: a rename within the watched folder is an
        # inotify move pair, which watchdog may hold for up to 0.5 s to match its halves;
        # a rename in from elsewhere is a single event, delivered at once.
        if self._kept is None:
            self._write(key, data)
            return
        with self._kept_lock:  # a republish never writes over a newer value
            self._kept[key] = data
            self._unwritten.add(key)
            self._write(key, data)
            self._unwritten.discard(key)

    def _write(self, key: str, data: dict[str, Any]) -> None:
        atomic_write_json(self.path(key), data, mode=0o664, compact=True,
                          tmp_dir=self._tmp_dir())

    def republish(self, *, failed_only: bool = False) -> list[str]:
        """Write again every key this process published and did not remove (the bus folder
        was made anew), or only those whose last write failed (a folder stood in a
        file's place); return the keys written. Needs ``keep_published``."""
        written = []
        with self._kept_lock:
            for key, data in (self._kept or {}).items():
                if failed_only and key not in self._unwritten:
                    continue
                try:
                    self._write(key, data)
                except AtomicWriteError as err:
                    if not failed_only:
                        logger.error("bus: cannot write %s again: %s", key, err)
                else:
                    self._unwritten.discard(key)
                    written.append(key)
        if failed_only and written:
            logger.info("bus: wrote %s again after a failed write", ", ".join(written))
        return written

    def read(self, key: str) -> dict[str, Any] | None:
        """Return the current value of ``key`` from disk, or None if absent or unreadable."""
        return self._load(self.path(key))

    def problems(self) -> dict[str, str]:
        """Return the bus files read as absent because of what they are, by file name."""
        return reports.current(self.directory)

    def _load(self, path: Path, shown: Path | None = None) -> dict[str, Any] | None:
        """Read ``path``; problems are reported under ``shown`` (default: ``path``)."""
        shown = shown or path
        try:
            data = parse_bounded(read_regular(path, MAX_BYTES, follow_symlinks=False)
                                 .decode("utf-8"))
        except FileNotFoundError:
            reports.clear(shown)
            return None
        except (OSError, ValueError, RecursionError) as err:
            # OSError: not a regular file, too large, unreadable; ValueError: not JSON
            # or not UTF-8; RecursionError: nested deeper than the parser goes.
            reports.report(shown, describe(err))
            return None
        if not isinstance(data, dict):
            reports.report(shown, f"holds JSON {type(data).__name__}, not an object")
            return None
        reports.clear(shown)
        return data

    def _tmp_dir(self) -> Path:
        """Return the temp folder, or the bus folder itself when ``.tmp`` is not a folder."""
        tmp = self.directory / _TMP_DIR
        try:
            mode = os.lstat(tmp).st_mode
        except FileNotFoundError:
            try:
                tmp.mkdir()
            except FileExistsError:  # made by the other daemon just now
                return self._tmp_dir() if tmp.is_dir() else self.directory
            except OSError:  # no bus folder (the write makes it) or not writable
                return self.directory
            return tmp
        except OSError:
            return self.directory
        if stat.S_ISDIR(mode):
            reports.clear(tmp)
            return tmp
        reports.report(tmp, f"{kind_of(mode)}, not a folder; temp files go to the bus folder")
        return self.directory

    def remove(self, key: str) -> None:
        """Delete ``key``; absent is fine."""
        with self._kept_lock:
            if self._kept is not None:
                self._kept.pop(key, None)
                self._unwritten.discard(key)
            try:
                os.unlink(self.path(key))
            except FileNotFoundError:
                pass

    # -- commands: a queue of files, one per request ---------------------------
    #
    # A command is never overwritten by the next one and never deleted unread: each is
    # its own file ``<key>@<time_ns>-<request_id>.json``, and the consumer claims a file
    # by renaming it aside before reading it, so two consumers cannot both act on it.

    def request(self, key: str, payload: dict[str, Any]) -> str:
        """Queue a command under ``key`` with a fresh ``request_id``; return that id."""
        self.path(key)  # validates the key
        request_id = new_request_id()
        name = f"{key}{_QUEUE_SEP}{time.time_ns():020d}-{request_id}{_SUFFIX}"
        atomic_write_json(self.directory / name,
                          {**payload, "request_id": request_id, "requested_at": time.time()},
                          mode=0o664, compact=True, tmp_dir=self._tmp_dir())
        return request_id

    def pending(self, key: str) -> list[dict[str, Any]]:
        """Return the queued commands under ``key``, oldest first, without consuming them."""
        found = []
        for path in self._queued(key):
            data = self._load(path)
            if data is not None:
                found.append(data)
        return found

    def take_all(self, key: str) -> list[dict[str, Any]]:
        """Consume and return every queued command under ``key``, oldest first."""
        queued = self._queued(key)
        claimed_dir = self._tmp_dir() if queued else self.directory
        taken = []
        for path in queued:
            # Claim by hard link + unlink, not rename: a rename out of the watched folder
            # is a lone inotify move event that watchdog holds back for 0.5 s, delaying
            # every event behind it. Whoever's unlink succeeds owns the command.
            claimed = claimed_dir / (f"{CLAIM_PREFIX}{os.getpid()}-{threading.get_ident()}-"
                                     f"{path.name}")
            try:
                os.link(path, claimed)
            except FileNotFoundError:  # already consumed
                continue
            except OSError as err:  # a directory cannot be linked: leave it, say so
                reports.report(path, describe(err, path))
                continue
            try:
                os.unlink(path)
            except FileNotFoundError:  # another consumer won
                os.unlink(claimed)
                continue
            data = self._load(claimed, shown=path)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(claimed)
            reports.clear(path)  # logged if bad; consumed either way
            if data is not None:
                taken.append(data)
        return taken

    def remove_stale_temp_files(self, older_than: float = STALE_TEMP_AFTER) -> int:
        """Clean up after writers and consumers that were killed; return the files handled.

        Temp files (``.<name>.*.tmp``) older than ``older_than`` are deleted. A command
        claimed by a process that no longer runs was never acted on: it goes back into
        the queue, where its age decides (the display ignores stale requests).
        """
        handled = 0
        cutoff = time.time() - older_than
        for folder in (self.directory, self.directory / _TMP_DIR):
            try:
                names = os.listdir(folder)
            except OSError:  # absent, or .tmp is not a folder
                continue
            for name in names[:10_000]:  # bounded: nobody leaves more behind
                handled += clean_up(folder / name, self.directory, cutoff)
        if handled:
            logger.info("bus: cleaned up %d files left by killed writers in %s", handled,
                        self.directory)
        return handled

    def _queued(self, key: str) -> list[Path]:
        prefix = f"{key}{_QUEUE_SEP}"
        try:
            names = os.listdir(self.directory)
        except FileNotFoundError:
            return []
        return [self.directory / name for name in sorted(names)
                if name.startswith(prefix) and name.endswith(_SUFFIX)]

    def watch(self, keys: Iterable[str], callback: Callable[[str], None]) -> BusWatcher:
        """Start watching ``keys``; ``callback(key)`` runs on every change or removal."""
        watcher = BusWatcher(self.directory, set(keys), callback)
        watcher.start()
        return watcher

    def wait_for(
        self,
        key: str,
        predicate: Callable[[dict[str, Any] | None], bool],
        timeout: float,
    ) -> dict[str, Any] | None:
        """Block until ``predicate(read(key))`` holds or ``timeout`` passes; return the value.

        Waiters share one watch of the directory, started at the first wait and kept for
        the life of the process, so a wait neither starts nor stops an observer.
        """
        changed = threading.Event()
        shared = _SharedWatch.of(self.directory)
        shared.subscribe(key, changed)
        try:
            deadline = time.monotonic() + timeout
            while True:
                value = self.read(key)
                if predicate(value):
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return value
                changed.wait(min(remaining, 0.25))
                changed.clear()
        finally:
            shared.unsubscribe(key, changed)


class _SharedWatch:
    """One long-lived watch per directory, waking the threads in ``Bus.wait_for``."""

    _instances: dict[Path, _SharedWatch] = {}
    _instances_lock = threading.Lock()

    def __init__(self, directory: Path) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[threading.Event]] = {}
        self._watcher = BusWatcher(directory, None, self._changed)
        self._watcher.start()

    @classmethod
    def of(cls, directory: Path) -> _SharedWatch:
        key = Path(directory).resolve()
        with cls._instances_lock:
            found = cls._instances.get(key)
            if found is None:
                found = cls._instances[key] = cls(key)
            return found

    def subscribe(self, key: str, event: threading.Event) -> None:
        with self._lock:
            self._waiters.setdefault(key, set()).add(event)

    def unsubscribe(self, key: str, event: threading.Event) -> None:
        with self._lock:
            waiting = self._waiters.get(key)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._waiters[key]

    def _changed(self, key: str) -> None:
        with self._lock:
            events = list(self._waiters.get(key, ()))
        for event in events:
            event.set()


def watch_directory(directory: Path, names: Iterable[str],
                    callback: Callable[[str], None]) -> BusWatcher:
    """Watch ``<name>.json`` files of any directory (the config files) like bus keys."""
    watcher = BusWatcher(Path(directory), set(names), callback)
    watcher.start()
    return watcher


class _Handler:
    """Watchdog event handler (duck-typed: watchdog calls ``dispatch``)."""

    def __init__(self, keys: set[str] | None, callback: Callable[[str], None]) -> None:
        self.keys = keys  # None: every key
        self.callback = callback

    def dispatch(self, event: Any) -> None:
        if event.is_directory or event.event_type in ("opened", "closed_no_write"):
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            name = os.path.basename(os.fsdecode(raw)) if raw else ""
            key = name[: -len(_SUFFIX)].split(_QUEUE_SEP, 1)[0] if name.endswith(_SUFFIX) else ""
            if key and (self.keys is None or key in self.keys):
                try:
                    self.callback(key)
                except Exception:  # a watcher must survive its callback
                    logger.exception("bus watch callback failed for %s", name)


class _StoppedEmitterFilter(logging.Filter):
    """Drop watchdog's error for an inotify read that returns after its watch stopped.

    Stopping an observer while its emitter waits in a read makes watchdog log
    "queue_events() called when the thread is inactive": the watch is gone, nothing is
    lost, and an operator should not see an ERROR for a clean stop.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return "called when the thread is inactive" not in record.getMessage()


_QUIET = _StoppedEmitterFilter()


class BusWatcher:
    """A running watch on some keys; inotify first, a polling observer as fallback."""

    def __init__(self, directory: Path, keys: set[str] | None,
                 callback: Callable[[str], None]) -> None:
        self.directory = directory
        self.handler = _Handler(keys, callback)
        self.observer: Any = None
        self.polling = False

    def start(self) -> None:
        # Imported here, not at module level: processes that only publish never pay for it.
        from watchdog.observers import Observer
        from watchdog.observers.polling import PollingObserver

        logging.getLogger("watchdog.observers.inotify").addFilter(_QUIET)  # once: a set
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            self.observer = self._started(Observer())
        except OSError as err:  # inotify watch limit, unsupported filesystem
            logger.warning("bus: inotify unavailable (%s); polling %s", err, self.directory)
            self.observer = self._started(PollingObserver(timeout=0.05))
            self.polling = True

    def _started(self, observer: Any) -> Any:
        observer.daemon = True
        observer.schedule(self.handler, str(self.directory), recursive=False)
        observer.start()
        return observer

    def restart(self) -> None:
        """Watch the folder again (it was deleted and made anew: the old watch is dead)."""
        self.stop()
        self.start()

    def stop(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(timeout=2)
            self.observer = None
