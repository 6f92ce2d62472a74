"""No file in the bus folder takes the daemons down: real daemons, real files.

FIFOs, folders and symlinks in place of every bus file either daemon reads; the bus
folder deleted and made again; temp files of killed writers; a display killed while
an on-demand request is shown.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import DISPLAY, WEB, lock_holder
from tests.daemons import Daemon, Instance, running, start_display, start_web
from tests.display_service.helpers import wait_until as wait_for
from tests.system.test_no_lost_changes import make_instance, running_state, state

pytestmark = pytest.mark.timeout(180)

# Every bus file one of the daemons reads (the queued requests are planted apart).
READ_KEYS = (keys.DISPLAY_STATE, keys.HARDWARE_STATUS, keys.CONFIG_CHANGED,
             keys.PREVIEW_VIEWER, keys.PREVIEW_FRAME, keys.DISPLAY_ON_DEMAND_CONFIG,
             keys.PLUGIN_ERRORS, keys.PLUGIN_SAFE_MODE, keys.WEB_STATE)
QUEUED = f"{keys.DISPLAY_ON_DEMAND_REQUEST}@{1:020d}-hostile.json"


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "inside.json").write_text("{}")


def _symlink_to_fifo(path: Path) -> None:
    target = path.parent.parent / f"{path.name}.fifo"
    if not target.exists():
        os.mkfifo(target)
    path.symlink_to(target)


PLANT: dict[str, Callable[[Path], None]] = {
    "fifo": _fifo, "folder": _folder, "symlink": _symlink_to_fifo}


def plant(cache_dir: Path, kind: str, names: list[str]) -> list[Path]:
    planted = []
    for name in names:
        path = cache_dir / name
        for _ in range(20):  # a running daemon may write the file again in between
            if path.is_file() or path.is_symlink():
                path.unlink(missing_ok=True)
            try:
                PLANT[kind](path)
                break
            except FileExistsError:
                continue
        else:
            raise AssertionError(f"could not plant a {kind} at {path}")
        planted.append(path)
    return planted


def remove(paths: list[Path]) -> None:
    """Remove what is still hostile (a daemon may have written a real file over it)."""
    for path in paths:
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            path.unlink(missing_ok=True)
        elif path.is_dir():
            shutil.rmtree(path)


def delete_folder(path: Path) -> None:
    """``rm -rf``, again while a daemon writing into it makes it "not empty"."""
    for _ in range(50):
        try:
            shutil.rmtree(path)
            return
        except OSError:
            time.sleep(0.01)
    raise AssertionError(f"{path} could not be deleted")


def status(url: str) -> dict[str, Any]:
    answer = requests.get(f"{url}/api/v3/system/status", timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


def start_pinned(url: str, **extra: Any) -> requests.Response:
    return requests.post(f"{url}/api/v3/display/on-demand/start",
                         json={"plugin_id": "still", "pinned": True, **extra}, timeout=10)


def assert_panel_works(instance: Instance, display: Daemon, url: str) -> None:
    """The display answers an on-demand request and the web says it runs and shows it."""
    started = start_pinned(url)
    assert started.status_code == 200, started.text
    assert started.json()["data"]["state"] == "active"
    report = status(url)["display"]
    assert report["service"] == "running" and report["pid"] == display.process.pid
    assert report["showing"] == "on_demand" and report["plugin_id"] == "still"


@pytest.mark.parametrize("kind", sorted(PLANT))
def test_hostile_files_in_place_of_bus_files_leave_both_daemons_answering(
        tmp_path: Path, kind: str) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        names = [f"{key}.json" for key in READ_KEYS] + [QUEUED]
        planted = plant(instance.cache_dir, kind, names)
        for _ in range(3):  # the web reads every one of them for these
            started = time.monotonic()
            status(url)
            assert requests.get(f"{url}/api/v3/display/preview", timeout=5).status_code == 200
            assert time.monotonic() - started < 5
        # The display reads the queue (and config_changed, preview_viewer on their events).
        # Its heartbeat may write display_state.json over the planted file at any moment
        # (a rename replaces a FIFO or a link): then plant it again, until the status is
        # read while the hostile file is in place.
        state_file = instance.cache_dir / "display_state.json"

        def listed_while_planted() -> bool:
            if state_file.is_file() and not state_file.is_symlink():
                plant(instance.cache_dir, kind, [state_file.name])
            return "display_state.json" in status(url)["bus"]["problems"]

        wait_for(listed_while_planted, timeout=30)
        answer = requests.post(f"{url}/api/v3/display/on-demand/stop", json={}, timeout=10)
        assert answer.status_code in (200, 202), answer.text
        status(url)
        assert display.process.poll() is None and web.process.poll() is None
        remove(planted)
        wait_for(lambda: "display_state.json" not in status(url)["bus"]["problems"])
        wait_for(lambda: lock_holder(instance.cache_dir, DISPLAY) == display.process.pid)
        assert_panel_works(instance, display, url)
        assert "bus: ignoring" in web.output() and "display_state.json" in web.output()
        assert "Traceback" not in display.output() + web.output()


@pytest.mark.parametrize("kind", sorted(PLANT))
def test_the_display_starts_with_hostile_files_in_place_of_bus_files(
        tmp_path: Path, kind: str) -> None:
    instance = make_instance(tmp_path)
    instance.cache_dir.mkdir(parents=True)
    names = [f"{key}.json" for key in READ_KEYS if key != keys.DISPLAY_STATE] + [QUEUED]
    planted = plant(instance.cache_dir, kind, names)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        assert status(url)["display"]["service"] == "running"
        remove(planted)
        assert_panel_works(instance, display, url)
        # A record it could not write at start is written once the way is clear.
        wait_for(lambda: status(url)["hardware"] is not None, timeout=10)
        assert "Traceback" not in display.output() + web.output()


def test_a_bus_folder_deleted_and_made_again_is_followed(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        delete_folder(instance.cache_dir)
        instance.cache_dir.mkdir(exist_ok=True)  # unless the display was quicker
        wait_for(lambda: lock_holder(instance.cache_dir, DISPLAY) == display.process.pid,
                 timeout=30)
        wait_for(lambda: status(url)["display"]["service"] == "running", timeout=30)
        # Written again into the new folder (the state may be written a moment before).
        wait_for(lambda: status(url)["hardware"] is not None, timeout=10)
        # The web follows too: its lock and where it listens are in the new folder.
        wait_for(lambda: lock_holder(instance.cache_dir, WEB) == web.process.pid, timeout=30)
        wait_for(lambda: (Bus(instance.cache_dir).read(keys.WEB_STATE) or {}).get("pid")
                 == web.process.pid, timeout=30)
        assert_panel_works(instance, display, url)


def test_a_bus_folder_deleted_for_good_is_made_again(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        delete_folder(instance.cache_dir)
        wait_for(lambda: lock_holder(instance.cache_dir, DISPLAY) == display.process.pid,
                 timeout=30)
        assert_panel_works(instance, display, url)


def _aged(path: Path, seconds: float = 120) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"half": ')
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_temp_files_of_killed_writers_are_removed_at_start(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    cache = instance.cache_dir
    old = [_aged(cache / ".tmp" / ".display_state.json.k1ll3d.tmp"),
           _aged(cache / ".config_changed.json.k1ll3d.tmp"),
           _aged(instance.config_dir / ".config.json.k1ll3d.tmp")]
    fresh = _aged(cache / ".tmp" / ".preview_viewer.json.wr1t1ng.tmp", seconds=0)
    display = start_display(instance)
    try:
        running_state(instance, display)
        assert [p for p in old if p.exists()] == []
        assert fresh.exists()  # may be another daemon's write in progress
    finally:
        display.stop()


def _restart_killed(instance: Instance, display: Daemon) -> Daemon:
    display.process.kill()
    display.process.wait(5)
    return start_display(instance)


def _on_demand(instance: Instance) -> dict[str, Any]:
    return state(instance).get("on_demand") or {}


def test_a_pinned_on_demand_survives_a_killed_display(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    web, url = start_web(instance)
    display = start_display(instance)
    try:
        running_state(instance, display)
        assert start_pinned(url).json()["data"]["state"] == "active"
        record = json.loads((instance.cache_dir / "display_on_demand_config.json").read_text())
        display = _restart_killed(instance, display)
        running_state(instance, display)
        wait_for(lambda: _on_demand(instance).get("state") == "active")
        assert _on_demand(instance)["pinned"] is True
        report = status(url)["display"]
        assert report["showing"] == "on_demand" and report["plugin_id"] == "still"
        assert report["on_demand"]["request_id"] == record["request_id"]
        assert "on-demand resumed after a restart" in display.output()
        # It is still an ordinary on-demand: a stop ends it.
        stopped = requests.post(f"{url}/api/v3/display/on-demand/stop", json={}, timeout=10)
        assert stopped.json()["data"]["state"] == "stopped"
        assert not (instance.cache_dir / "display_on_demand_config.json").exists()
    finally:
        display.stop()
        web.stop()


def test_a_timed_on_demand_keeps_its_end_across_a_killed_display(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    web, url = start_web(instance)
    display = start_display(instance)
    try:
        running_state(instance, display)
        started = start_pinned(url, pinned=False, duration=300)
        assert started.json()["data"]["state"] == "active", started.text
        ends_at = wait_for(lambda: _on_demand(instance).get("ends_at"))
        display = _restart_killed(instance, display)
        running_state(instance, display)
        wait_for(lambda: _on_demand(instance).get("state") == "active")
        assert abs(_on_demand(instance)["ends_at"] - ends_at) < 2
    finally:
        display.stop()
        web.stop()


def test_a_timed_on_demand_that_ran_out_while_down_ends_cleanly(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    web, url = start_web(instance)
    display = start_display(instance)
    try:
        running_state(instance, display)
        assert start_pinned(url, pinned=False, duration=2).json()["data"]["state"] == "active"
        display.process.kill()
        display.process.wait(5)
        time.sleep(2.5)
        display = start_display(instance)
        running_state(instance, display)
        report = status(url)["display"]
        assert report["showing"] == "rotation" and report["on_demand"]["state"] == "idle"
        assert not (instance.cache_dir / "display_on_demand_config.json").exists()
        assert "ran out while the display was down" in display.output()
    finally:
        display.stop()
        web.stop()


def test_an_on_demand_whose_plugin_is_gone_after_a_restart_is_ended_with_the_reason(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    web, url = start_web(instance)
    display = start_display(instance)
    try:
        running_state(instance, display)
        assert start_pinned(url).json()["data"]["state"] == "active"
        display.process.kill()
        display.process.wait(5)
        config = json.loads((instance.config_dir / "config.json").read_text())
        config["still"]["enabled"] = False
        instance.write_config(config)
        display = start_display(instance)
        # No plugin left to draw: wait for the state, not for a first frame.
        wait_for(lambda: state(instance).get("pid") == display.process.pid)
        on_demand = status(url)["display"]["on_demand"]
        assert on_demand["state"] == "error"
        assert "not resumed after a restart" in on_demand["error"]
        assert "still" in on_demand["error"]
        assert not (instance.cache_dir / "display_on_demand_config.json").exists()
    finally:
        display.stop()
        web.stop()
