"""Auto-update setup on the real web daemon: run at start, after a General save and after a
raw-editor save that change ``auto_update``, and not after an unrelated save; the route
and the General tab say when the next run is."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import requests

from tests.daemons import Daemon, Instance, start_web

ROUTE = "/api/v3/plugins/store/auto-update"
MAIN = "/api/v3/config/main"
RAW = "/api/v3/config/raw/main"
ARMED = "automatic plugin updates: next run"
OFF = "automatic plugin updates are off"


def base_config(**auto_update: Any) -> dict[str, Any]:
    return {"timezone": "Europe/Berlin",
            "auto_update": {"enabled": False, "day": "sunday", "time": "03:00", **auto_update}}


def route(url: str) -> dict[str, Any]:
    answer = requests.get(url + ROUTE, timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


def wait_for_line(daemon: Daemon, text: str, count: int, timeout: float = 5) -> None:
    deadline = time.monotonic() + timeout
    while daemon.output().count(text) < count:
        assert time.monotonic() < deadline, f"{text!r} x{count} not logged:\n{daemon.output()}"
        time.sleep(0.05)


def test_setup_runs_at_start_and_after_each_save_that_changes_auto_update(
        tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config(base_config())
    daemon, url = start_web(instance)
    try:
        wait_for_line(daemon, OFF, 1)
        state = route(url)
        assert state == {"enabled": False, "day": "sunday", "time": "03:00",
                         "timezone": "Europe/Berlin", "next_run": None, "problem": None,
                         "last_run": {"at": None, "summary": None}}

        # The General form sends the fields it changed, nested, as JSON.
        saved = requests.post(url + MAIN, json={"auto_update": {
            "enabled": True, "day": "friday", "time": "04:30"}}, timeout=5)
        assert saved.status_code == 200, saved.text
        wait_for_line(daemon, ARMED, 1)
        assert "next run friday " in daemon.output()
        assert " 04:30 (Europe/Berlin)" in daemon.output()
        state = route(url)
        assert state["enabled"] is True and (state["day"], state["time"]) == ("friday", "04:30")
        friday = state["next_run"]
        assert friday.endswith(("T04:30:00+01:00", "T04:30:00+02:00")), friday

        # The raw editor replaces the whole file: the same setup runs.
        raw = json.loads(requests.get(url + RAW, timeout=5).json()["data"]["content"])
        raw["auto_update"]["day"] = "tuesday"
        raw["auto_update"]["time"] = "22:15"
        saved = requests.post(url + RAW, json=raw, timeout=5)
        assert saved.status_code == 200, saved.text
        assert "auto_update" in saved.json()["data"]["changed_sections"]
        wait_for_line(daemon, ARMED, 2)
        assert "next run tuesday " in daemon.output()
        state = route(url)
        assert state["day"] == "tuesday" and state["next_run"] != friday
        assert "T22:15:00+01:00" in state["next_run"] or "T22:15:00+02:00" in state["next_run"]

        # A save of something else leaves the timer as it is: no setup, no log line.
        saved = requests.post(url + MAIN, json={"display": {"use_short_date_format": True}},
                              timeout=5)
        assert saved.status_code == 200, saved.text
        raw = json.loads(requests.get(url + RAW, timeout=5).json()["data"]["content"])
        raw["location"] = {**raw.get("location", {}), "city": "Leipzig"}
        assert requests.post(url + RAW, json=raw, timeout=5).status_code == 200
        time.sleep(0.5)
        assert daemon.output().count(ARMED) == 2 and daemon.output().count(OFF) == 1

        # Switching it off through the raw editor: the timer stops, said once.
        raw["auto_update"]["enabled"] = False
        assert requests.post(url + RAW, json=raw, timeout=5).status_code == 200
        wait_for_line(daemon, OFF, 2)
        assert route(url)["next_run"] is None

        general = requests.get(url + "/v3/partials/general", timeout=5)
        assert general.status_code == 200
        assert "Next automatic update: none (automatic updates are off)" in general.text
        raw["auto_update"].update(enabled=True, day="monday", time="06:45")
        assert requests.post(url + RAW, json=raw, timeout=5).status_code == 200
        general = requests.get(url + "/v3/partials/general", timeout=5)
        assert "Next automatic update: monday " in general.text
        assert " 06:45 (Europe/Berlin)" in general.text
    finally:
        daemon.stop()


def test_a_stored_day_or_time_that_cannot_be_read_is_off_with_a_warning(
        tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config(base_config(enabled=True, day="funday", time="25:00"))
    daemon, url = start_web(instance)
    try:
        wait_for_line(daemon, "automatic plugin updates are off", 1)
        assert "WARNING" in daemon.output() and "'funday' is not a day of the week" in (
            daemon.output())
        state = route(url)
        assert state["enabled"] is False and state["next_run"] is None
        assert "funday" in state["problem"]
        assert requests.get(url + "/api/v3/health", timeout=5).status_code == 200
    finally:
        daemon.stop()


def test_a_backup_restore_that_replaces_auto_update_runs_setup(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config(base_config(enabled=True, day="friday", time="04:30"))
    daemon, url = start_web(instance)
    try:
        wait_for_line(daemon, ARMED, 1)
        backup = requests.get(url + "/api/v3/backup/download", timeout=10)
        assert backup.status_code == 200
        saved = requests.post(url + MAIN, json={"auto_update": {"day": "monday"}}, timeout=5)
        assert saved.status_code == 200, saved.text
        wait_for_line(daemon, ARMED, 2)
        assert route(url)["day"] == "monday"

        restored = requests.post(url + "/api/v3/backup/restore", timeout=10,
                                 files={"backup_file": ("backup.zip", backup.content)})
        assert restored.status_code == 200, restored.text
        assert "auto_update" in restored.json()["data"]["config"]["changed_sections"]
        wait_for_line(daemon, ARMED, 3)
        assert daemon.output().rsplit(ARMED, 1)[1].startswith(" friday ")
        assert route(url)["day"] == "friday"
    finally:
        daemon.stop()
