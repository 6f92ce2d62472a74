"""No change is ever lost, and one copy of each daemon runs: real daemons, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import DISPLAY, lock_holder
from tests.daemons import ROOT, Daemon, Instance, running, start_display, start_web
from tests.display_service.helpers import wait_until as wait_for
from tests.hostile_plugins import STILL

pytestmark = pytest.mark.timeout(180)


def make_instance(base: Path) -> Instance:
    """An instance with one static plugin, ``still``, enabled."""
    instance = Instance(base)
    directory = instance.plugins_dir / "still"
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": "still", "name": "Still", "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": "Plugin", "display_modes": ["still"],
        "compatible_versions": [">=3.0.0"], "update_interval": 3600}))
    (directory / "config_schema.json").write_text(json.dumps({
        "type": "object", "properties": {"enabled": {"type": "boolean", "default": False},
                                         "interval": {"type": "integer", "minimum": 1}}}))
    (directory / "manager.py").write_text(STILL)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["still"] = {"enabled": True}
    instance.write_config(config)
    return instance


def state(instance: Instance) -> dict[str, Any]:
    return Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}


def running_state(instance: Instance, display: Daemon) -> dict[str, Any]:
    """Wait until the display runs and has drawn; return its state."""
    return wait_for(lambda: (s := state(instance)).get("pid") == display.process.pid
                    and s.get("first_frame_ms") is not None and s)


def stored(instance: Instance) -> dict[str, Any]:
    return json.loads((instance.config_dir / "config.json").read_text())


def test_a_second_copy_of_either_daemon_exits_at_once_naming_the_first(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        second = subprocess.run(
            [sys.executable, "-m", "display_service", "--headless", *instance.dir_flags()],
            cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert second.returncode == 3
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pid {display.process.pid}" in lines[0]
        assert "already running" in lines[0]
        second_web = subprocess.run(
            [sys.executable, "-m", "web_service", "--host", "127.0.0.1", "--port", "0",
             *instance.dir_flags()], cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert second_web.returncode == 3 and f"pid {web.process.pid}" in second_web.stderr
        # The first copies carry on, and nobody marked the display stopped.
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        assert status["display"]["service"] == "running"
        assert status["display"]["pid"] == display.process.pid
        assert status["web"]["port"] == int(url.rsplit(":", 1)[1])  # where it really listens
        assert status["web"]["pid"] == web.process.pid
        assert lock_holder(instance.cache_dir, DISPLAY) == display.process.pid


def test_a_killed_display_reads_as_not_running_at_once(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        display.process.kill()
        display.process.wait(5)
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        assert status["display"]["service"] == "not_running"
        assert status["display"]["plugin_id"] is None and status["display"]["fps"] is None
        assert status["display"]["summary"] == "not running"


@pytest.mark.parametrize("delay", [None, 0.0, 0.05, 0.15, 0.3])
def test_a_save_or_request_at_any_moment_of_start_up_reaches_the_panel(
        tmp_path: Path, delay: float | None) -> None:
    """``None``: save the moment hardware_status.json appears (the display is loading)."""
    instance = make_instance(tmp_path)
    web, url = start_web(instance)
    display = start_display(instance)
    try:
        if delay is None:
            wait_for(lambda: (instance.cache_dir / "hardware_status.json").exists())
        else:
            time.sleep(delay)
        answer = requests.post(f"{url}/api/v3/config/main", json={"brightness": 37}, timeout=5)
        assert answer.status_code == 200, answer.text
        started = requests.post(f"{url}/api/v3/display/on-demand/start",
                                json={"plugin_id": "still", "pinned": True}, timeout=10)
        assert started.status_code in (200, 202), started.text
        running_state(instance, display)
        wait_for(lambda: state(instance).get("brightness") == 37)
        wait_for(lambda: (state(instance).get("on_demand") or {}).get("state") == "active")
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        assert status["display"]["brightness"] == 37
        assert status["display"]["showing"] == "on_demand"
    finally:
        display.stop()
        web.stop()


def test_a_save_while_the_display_is_down_is_used_at_the_next_start(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    web, url = start_web(instance)
    try:
        requests.post(f"{url}/api/v3/config/main", json={"brightness": 21}, timeout=5)
        display = start_display(instance)
        try:
            running_state(instance, display)
            assert state(instance)["brightness"] == 21
        finally:
            display.stop()
    finally:
        web.stop()


def _edit_in_place(path: Path, change: Any) -> None:
    """Rewrite a file the way nano or vi with backupcopy does: same inode, new bytes."""
    text = path.read_text()
    data = change(json.loads(text)) if callable(change) else change
    with open(path, "r+", encoding="utf-8") as handle:
        handle.seek(0)
        handle.truncate()
        handle.write(data if isinstance(data, str) else json.dumps(data, indent=2))


def test_hand_edits_of_config_json_reach_the_panel_and_bad_ones_are_reported(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    config_file = instance.config_dir / "config.json"
    display = start_display(instance)
    web, url = start_web(instance)

    def status() -> dict[str, Any]:
        return requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]

    try:
        running_state(instance, display)
        _edit_in_place(config_file, lambda c: {**c, "brightness": 55})
        wait_for(lambda: state(instance).get("brightness") == 55)
        # A rule broken by hand: kept off the panel and reported everywhere.
        _edit_in_place(config_file, lambda c: {**c, "brightness": 500})
        problem = wait_for(lambda: state(instance).get("config_problem"))
        assert "brightness" in problem and "not applied" in problem
        assert state(instance)["brightness"] == 55
        assert not status()["config"]["ok"]
        # Text that does not parse: the web names line and column, the panel carries on.
        _edit_in_place(config_file, '{\n  "brightness": 60,\n}\n')
        wait_for(lambda: "not valid JSON" in (state(instance).get("config_problem") or ""))
        answer = requests.get(f"{url}/api/v3/config/main", timeout=5)
        assert answer.status_code == 409
        body = answer.json()
        assert body["error_code"] == "CONFIG_INVALID_JSON"
        assert (body["details"]["line"], body["details"]["column"]) == (2, 19)
        posted = requests.post(f"{url}/api/v3/config/main", json={"brightness": 5}, timeout=5)
        assert posted.status_code == 409 and posted.json()["error_code"] == "CONFIG_INVALID_JSON"
        problems = status()["config"]["problems"]
        assert any(p.get("line") == 2 and p["source"] == "file" for p in problems)
        assert state(instance)["brightness"] == 55
        # Fixed: applied, and every problem is gone.
        config = json.loads((ROOT / "config" / "config.template.json").read_text())
        config["display"]["hardware"]["brightness"] = 60
        _edit_in_place(config_file, {**config, "still": {"enabled": True}, "brightness": 60})
        wait_for(lambda: state(instance).get("brightness") == 60
                 and state(instance).get("config_problem") is None)
        assert status()["config"] == {"ok": True, "file": str(config_file), "problems": []}
    finally:
        web.stop()
        display.stop()


def test_either_brightness_key_changes_the_panel_and_reads_back_as_one(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, web, url):
        running_state(instance, display)
        answer = requests.post(f"{url}/api/v3/config/main",
                               json={"display": {"hardware": {"brightness": 33}}}, timeout=5)
        assert answer.status_code == 200, answer.text
        wait_for(lambda: state(instance).get("brightness") == 33)
        config = requests.get(f"{url}/api/v3/config/main", timeout=5).json()["data"]
        assert config["brightness"] == config["display"]["hardware"]["brightness"] == 33
        both = requests.post(f"{url}/api/v3/config/main", json={
            "brightness": 40, "display": {"hardware": {"brightness": 41}}}, timeout=5)
        assert both.status_code == 400 and "one setting" in both.json()["message"]
        # By hand, the hardware key only: the panel follows and the file is made whole.
        _edit_in_place(instance.config_dir / "config.json",
                       lambda c: {**c, "display": {**c["display"], "hardware": {
                           **c["display"]["hardware"], "brightness": 44}}})
        wait_for(lambda: state(instance).get("brightness") == 44)
        wait_for(lambda: stored(instance)["brightness"] == 44)
        assert stored(instance)["display"]["hardware"]["brightness"] == 44


def test_an_idle_display_writes_nothing(tmp_path: Path) -> None:
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    instance = make_instance(tmp_path)
    display = start_display(instance)
    writes: list[str] = []

    class Count(FileSystemEventHandler):
        def on_any_event(self, event: Any) -> None:
            if event.event_type not in ("opened", "closed_no_write"):
                writes.append(f"{event.event_type} {event.src_path}")

    observer = Observer()
    try:
        running_state(instance, display)
        time.sleep(8)  # the first frame-rate windows (1 s, then 5 s) settle into the state
        for directory in (instance.cache_dir, instance.config_dir):
            observer.schedule(Count(), str(directory), recursive=True)
        observer.start()
        time.sleep(4)
        assert writes == []
        assert display.process.poll() is None
    finally:
        observer.stop()
        observer.join(5)
        display.stop()


def test_shutdown_after_requests_is_clean_and_silent(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    display = start_display(instance)
    web, url = start_web(instance)
    running_state(instance, display)
    for _ in range(3):
        requests.post(f"{url}/api/v3/display/on-demand/start", json={"plugin_id": "still"},
                      timeout=5)
        requests.post(f"{url}/api/v3/display/on-demand/stop", json={}, timeout=5)
    assert web.stop() == 0 and display.stop() == 0
    for daemon in (web, display):
        assert " ERROR " not in daemon.output() and "Traceback" not in daemon.output(), \
            daemon.output()
    assert os.path.exists(instance.cache_dir / "display_state.json")
    assert state(instance)["service"] == "stopped"


def test_a_fifo_in_place_of_config_json_is_reported_and_blocks_nothing(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    config_file = instance.config_dir / "config.json"
    with running(instance) as (display, web, url):
        running_state(instance, display)
        config_file.unlink()
        os.mkfifo(config_file)
        problem = wait_for(lambda: state(instance).get("config_problem"))
        assert "not a regular file" in problem
        answer = requests.get(f"{url}/api/v3/config/main", timeout=5)
        assert answer.status_code == 409 and "not a regular file" in answer.json()["message"]
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        assert status["display"]["service"] == "running" and not status["config"]["ok"]


def test_the_display_side_reads_the_address_the_web_really_listens_on(tmp_path: Path) -> None:
    """What web-ui-info shows: ``plugin_manager.web_address()`` in another process."""
    instance = make_instance(tmp_path)
    web, url = start_web(instance)  # --port 0: a port nobody configured
    try:
        script = ("import sys, json; from pathlib import Path; "
                  "from shared.paths import Paths; from shared.plugin_system.manager import "
                  "PluginManager; p = Paths(root=Path('.'), config_dir=Path(sys.argv[1]), "
                  "cache_dir=Path(sys.argv[2]), plugins_dir_override=Path(sys.argv[3])); "
                  "print(json.dumps(PluginManager(p, {}).web_address()))")
        answer = subprocess.run([sys.executable, "-c", script, str(instance.config_dir),
                                 str(instance.cache_dir), str(instance.plugins_dir)],
                                cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert json.loads(answer.stdout) == {"host": "127.0.0.1",
                                             "port": int(url.rsplit(":", 1)[1])}
    finally:
        web.stop()
