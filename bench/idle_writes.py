"""Files written per minute under the config and cache folders while both daemons idle.

Target (issue 16): 0. On a Pi both folders are on the SD card, whose every write wears it
and costs a flash erase; an idle panel should not write at all. Both real daemons run
as subprocesses over a temporary directory with one clock-like demo plugin
(``bench.common``; more would rotate, and each switch is a state written), headless,
with the runtime folder on a tmpfs stand-in as systemd's ``RuntimeDirectory=`` gives it.
Once the display draws at its steady rate and the web answers, a settling spell passes,
then every file under the config and cache folders is watched for the window: inotify
events (a write, a new file, a rename, a removal) and, at both ends, each file's
modification time, size and content (a page written through a memory map shows only
there). A file counts once however often it changed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.common import demo_instance
from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import Instance, running

SECONDS = 60.0
SETTLE = 5.0
_LIMIT = 1 << 20  # content compared up to this many bytes (bus and config files are small)


def snapshot(folders: Iterable[Path]) -> dict[Path, tuple[int, int, str]]:
    """Return ``(mtime_ns, size, content digest)`` of every regular file under ``folders``."""
    found: dict[Path, tuple[int, int, str]] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            try:
                info = os.lstat(path)
                if not path.is_file() or path.is_symlink():
                    continue
                with path.open("rb") as handle:
                    digest = hashlib.sha256(handle.read(_LIMIT)).hexdigest()
            except OSError:  # gone in between: the events say so
                continue
            found[path] = (info.st_mtime_ns, info.st_size, digest)
    return found


class _Changes:
    """Watchdog handler (duck-typed) noting every path written, made, moved or removed."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self._lock = threading.Lock()

    def dispatch(self, event: Any) -> None:
        if event.is_directory or event.event_type in ("opened", "closed_no_write"):
            return
        with self._lock:
            for raw in (event.src_path, getattr(event, "dest_path", "")):
                if raw:
                    self.paths.add(os.fsdecode(raw))


@contextmanager
def watching(folders: Iterable[Path]) -> Iterator[_Changes]:
    """Collect the paths changed under ``folders`` (recursively) while the block runs."""
    from watchdog.observers import Observer

    changes = _Changes()
    observer = Observer()
    for folder in folders:
        observer.schedule(changes, str(folder), recursive=True)
    observer.start()
    try:
        yield changes
    finally:
        observer.stop()
        observer.join(timeout=5)


def written(folders: list[Path], seconds: float) -> list[str]:
    """Return the files written under ``folders`` during the next ``seconds``, sorted."""
    before = snapshot(folders)
    with watching(folders) as changes:
        time.sleep(seconds)
    after = snapshot(folders)
    changed = {str(path) for path in before.keys() | after.keys()
               if before.get(path) != after.get(path)}
    return sorted(changed | changes.paths)


def steady(instance: Instance, display_pid: int, timeout: float = 30) -> None:
    """Wait until the display drew and publishes the steady frame rate of one 1 Hz clock
    (the rate measured over its first seconds moves, and each move is a state written)."""
    state = Bus(instance.cache_dir).wait_for(
        keys.DISPLAY_STATE, lambda s: bool(s and s.get("pid") == display_pid
                                           and s.get("first_frame_ms") is not None
                                           and s.get("fps") == 1.0), timeout)
    if not state or state.get("fps") != 1.0:
        raise SystemExit(f"the display did not reach a steady 1 frame/s: {state}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS,
                        help=f"the window watched (default {SECONDS:g})")
    parser.add_argument("--settle", type=float, default=SETTLE,
                        help=f"the wait after start-up before watching (default {SETTLE:g})")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        instance = demo_instance(Path(tmp), plugins=1)
        with running(instance) as (display, _web, _url):
            steady(instance, display.process.pid)
            time.sleep(args.settle)  # a benchmark, not a test: late start-up writes end here
            files = written([instance.config_dir, instance.cache_dir], args.seconds)
        per_minute = len(files) * 60 / args.seconds
        print(f"idle files written per minute: {per_minute:g} "
              f"({len(files)} in {args.seconds:g} s under the config and cache folders)")
        for path in files:
            print(f"  {os.path.relpath(path, tmp)}")


if __name__ == "__main__":
    main()
