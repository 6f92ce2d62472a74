"""An idle panel writes nothing under its config and cache folders (the SD card on a Pi).

Both real daemons, one 1 Hz clock plugin; once the display publishes its steady frame
rate, every file under both folders is watched (inotify, and each file's time, size and
content at both ends: a page written through a memory map shows only there). The call
trail, rewritten around every plugin call, is in the runtime folder (a tmpfs) instead,
and a killed display still finds it there at its next start.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from bench.common import demo_instance
from bench.idle_writes import steady, written
from display_service.plugins.call_trail import TRAIL_FILE, trail_path
from shared.paths import resolve_paths
from tests.daemons import running, start_display

pytestmark = [pytest.mark.timeout(120), pytest.mark.daemons]

WINDOW = 15.0


def mapped_files(pid: int) -> list[str]:
    """Return the files ``pid`` has mapped: a page written through a shared mapping is
    written back by the kernel about every 30 s, a write the short window may not see."""
    lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    return sorted({line.split(maxsplit=5)[5] for line in lines if len(line.split()) == 6})


def test_idle_daemons_write_no_file_under_the_config_and_cache_folders(tmp_path: Path) -> None:
    instance = demo_instance(tmp_path, plugins=1)
    with running(instance) as (display, web, _url):
        steady(instance, display.process.pid)
        mapped = [path for path in mapped_files(display.process.pid)
                  if path.startswith((str(instance.config_dir), str(instance.cache_dir)))]
        assert mapped == [], f"mapped from the config or cache folder: {mapped}"
        files = written([instance.config_dir, instance.cache_dir], WINDOW)
        assert display.process.poll() is None and web.process.poll() is None
    assert files == [], "written while idle:\n" + "\n".join(files)


def test_the_call_trail_lives_in_the_runtime_folder_and_outlives_a_killed_display(
        tmp_path: Path) -> None:
    instance = demo_instance(tmp_path, plugins=1)
    paths = resolve_paths(config_dir=instance.config_dir, cache_dir=instance.cache_dir,
                          env={"LEDPANEL_RUNTIME_DIR": str(instance.runtime_dir)})
    trail = trail_path(paths)
    assert trail.parent == instance.runtime_dir
    display = start_display(instance)
    try:
        steady(instance, display.process.pid)
        assert trail.is_file()
        assert not list(instance.cache_dir.glob(f"{TRAIL_FILE}*"))
        os.kill(display.process.pid, signal.SIGKILL)
        display.process.wait(10)
        # What the next start reads: the dead process's page, not an empty file.
        left = json.loads(trail.read_bytes().rstrip(b" \0\n"))
        assert left["pid"] == display.process.pid and "calls" in left
    finally:
        display.stop()
