"""Live reload: a counter per plugin folder, raised whenever a file in it changes.

A watchdog observer follows the plugins directory (recursively); each event under
``<plugins_dir>/<folder>/`` raises that folder's counter, except bytecode
(``__pycache__``, ``.pyc``) which renders themselves write or remove, and a folder's own
"modified" (its listing changed; the files' own events say what changed). The page
polls the counter and renders again when it moves.
"""

from __future__ import annotations

import threading
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer


class ChangeCounter(FileSystemEventHandler):
    """Counts changes per plugin folder name."""

    def __init__(self, plugins_dir: Path) -> None:
        self.plugins_dir = plugins_dir.resolve()
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def version(self, folder: str) -> int:
        """Return how many changes the folder has seen since the server started."""
        with self._lock:
            return self._counts.get(folder, 0)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory and event.event_type == "modified":
            return  # a folder's listing changed: its files' own events say what changed
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            path = str(raw)
            if not path or "__pycache__" in path or path.endswith(".pyc"):
                continue
            try:
                parts = Path(path).resolve().relative_to(self.plugins_dir).parts
            except ValueError:
                continue
            if parts:
                with self._lock:
                    self._counts[parts[0]] = self._counts.get(parts[0], 0) + 1


def start_watching(plugins_dir: Path) -> tuple[ChangeCounter, object]:
    """Start an observer on ``plugins_dir``; return the counter and the observer."""
    counter = ChangeCounter(plugins_dir)
    observer = Observer()
    observer.schedule(counter, str(plugins_dir), recursive=True)
    observer.daemon = True
    observer.start()
    return counter, observer
