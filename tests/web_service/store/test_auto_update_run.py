"""The weekly automatic update running on the real daemons: a slot that came due fires,
waits while an on-demand session is active and runs once it ends, updating the
plugins from a loopback repository host with one log line and history entry per plugin;
a run missed while the web was down runs at its next start (less than 24 h late) or is
given up (more); a restart never runs a slot twice."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests

from tests.daemons import Daemon, Instance, start_web
from tests.display_service.helpers import wait_until
from tests.web_service.conftest import write_plugin
from tests.web_service.store.ops_daemons import ops_stack, push_plugin, serve_registry
from tests.web_service.store.repo_host import RepoHost
from web_service.store.auto_schedule import read_schedule

ROUTE = "/api/v3/plugins/store/auto-update"
CHECK_ENV = "LEDPANEL_AUTO_UPDATE_CHECK_SECONDS"
BERLIN = ZoneInfo("Europe/Berlin")
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def slot_fields(moment: datetime) -> dict[str, str]:
    return {"day": DAYS[moment.weekday()], "time": f"{moment:%H:%M}"}


def auto_update(url: str) -> dict[str, Any]:
    answer = requests.get(url + ROUTE, timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


def update_all_jobs(url: str) -> list[dict[str, Any]]:
    jobs = requests.get(url + "/api/v3/plugins/store/jobs", timeout=5).json()["data"]["jobs"]
    return [j for j in jobs if j["kind"] == "update_all"]


def logged(daemon: Daemon, text: str, timeout: float) -> None:
    wait_until(lambda: text in daemon.output(), timeout=timeout)


def test_a_due_run_waits_for_on_demand_then_updates_each_plugin_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHECK_ENV, "0.2")
    with RepoHost() as host:
        for plugin_id in ("clock", "weather"):
            push_plugin(host, plugin_id, version="1.0.0")
        serve_registry(host, "clock", "weather")
        with ops_stack(tmp_path, host) as stack:
            for plugin_id in ("clock", "weather"):
                assert stack.run("install", {"plugin_id": plugin_id})["state"] == "done"
            push_plugin(host, "weather", version="1.1.0", colour=(0, 0, 255))
            started = requests.post(f"{stack.url}/api/v3/display/on-demand/start",
                                    json={"plugin_id": "clock", "pinned": True}, timeout=10)
            assert started.status_code == 200, started.text
            wait_until(lambda: stack.state().get("on_demand", {}).get("state") == "active",
                       timeout=20)

            # The web stops; meanwhile the weekly slot passes (a minute ago, armed before
            # it): the web starts with it due, with the display's session still active.
            stack.web.stop()
            slot = (datetime.now(BERLIN) - timedelta(minutes=1)).replace(second=0,
                                                                        microsecond=0)
            config = {**stack.config(), "timezone": "Europe/Berlin",
                      "auto_update": {"enabled": True, **slot_fields(slot)}}
            stack.instance.write_config(config)
            arm(stack.instance, config, slot)
            stack.web, stack.url = start_web(stack.instance)
            try:
                assert auto_update(stack.url)["next_run"] == slot.isoformat()  # due now

                logged(stack.web, "an on-demand session is active; waiting", timeout=90)
                time.sleep(1)  # several checks while the session lasts: nothing starts
                assert update_all_jobs(stack.url) == []
                assert auto_update(stack.url)["last_run"] == {"at": None, "summary": None}

                stopped = requests.post(f"{stack.url}/api/v3/display/on-demand/stop", json={},
                                        timeout=10)
                assert stopped.status_code == 200, stopped.text
                logged(stack.web, "auto update: finished:", timeout=60)
                output = stack.web.output()
                assert "auto update: weather updated 1.0.0 -> 1.1.0" in output
                assert "auto update: clock up to date" in output
                assert json.loads((stack.instance.plugins_dir / "weather" / "manifest.json")
                                  .read_text())["version"] == "1.1.0"

                last = auto_update(stack.url)["last_run"]
                assert last["summary"] == "1 updated, 1 up to date"
                assert datetime.fromisoformat(last["at"]) >= slot
                jobs = update_all_jobs(stack.url)
                assert len(jobs) == 1 and jobs[0]["state"] == "done"
                assert jobs[0]["message"] == "automatic update: 1 updated, 1 up to date"

                def store_history() -> dict[str, Any]:
                    return requests.get(f"{stack.url}/api/v3/history",
                                        params={"kind": "store"}, timeout=5).json()["data"]

                # The job's own entry is written once it ends, just after its log line.
                wait_until(lambda: any(e["what"] == "update_all"
                                       for e in store_history()["entries"]), timeout=30)
                history = store_history()
                per_plugin = {e["plugin_id"]: e for e in history["entries"]
                              if e["what"] == "auto_update"}
                assert per_plugin["weather"]["update_status"] == "updated"
                assert per_plugin["weather"]["version"] == "1.1.0"
                assert per_plugin["clock"]["update_status"] == "up_to_date"
                assert per_plugin["weather"]["job_id"] == jobs[0]["id"]
                assert any(e["what"] == "update_all" and e["job_id"] == jobs[0]["id"]
                           for e in history["entries"])

                # A restart within the same week: the slot is not run again.
                stack.web.stop()
                web, url = start_web(stack.instance)
                try:
                    logged(web, "automatic plugin updates: next run", timeout=10)
                    time.sleep(1.5)
                    assert "auto update: the run of" not in web.output()
                    assert len(update_all_jobs(url)) == 1
                    assert auto_update(url)["last_run"] == last
                    assert auto_update(url)["next_run"] == (slot + timedelta(days=7)).isoformat()
                finally:
                    web.stop()
            finally:
                stack.web.stop()  # this test's own web, started above


def arm(instance: Instance, config: dict[str, Any], slot: datetime) -> None:
    """Say the schedule was set an hour before ``slot`` and last week's slot was run."""
    store = instance.cache_dir / "store"
    store.mkdir(parents=True, exist_ok=True)
    (store / "auto_update.json").write_text(json.dumps({
        "version": 1, "armed_key": read_schedule(config).key,
        "armed_at": slot.timestamp() - 3600, "handled": slot.timestamp() - 7 * 86400}))


def start_with_missed_slot(base: Path, late: timedelta) -> Instance:
    """An instance whose weekly slot passed ``late`` ago, armed before it, not run yet."""
    instance = Instance(base)
    write_plugin(instance.plugins_dir, "clock")
    slot = (datetime.now(UTC) - late).replace(second=0, microsecond=0)
    config = {"timezone": "UTC", "auto_update": {"enabled": True, **slot_fields(slot)}}
    instance.write_config(config)
    arm(instance, config, slot)
    return instance


def test_a_run_missed_while_down_runs_at_start_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHECK_ENV, "0.2")
    instance = start_with_missed_slot(tmp_path, timedelta(hours=3))
    web, url = start_web(instance)
    try:
        logged(web, "auto update: finished:", timeout=30)
        assert "auto update: clock local only" in web.output()
        last = auto_update(url)["last_run"]
        assert last["summary"] == "1 local only"
    finally:
        web.stop()
    web, url = start_web(instance)
    try:
        logged(web, "automatic plugin updates: next run", timeout=10)
        time.sleep(1)
        assert "auto update:" not in web.output()
        assert auto_update(url)["last_run"] == last
        assert len(update_all_jobs(url)) == 1
    finally:
        web.stop()


def test_a_run_missed_by_more_than_a_day_waits_for_next_week(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHECK_ENV, "0.2")
    instance = start_with_missed_slot(tmp_path, timedelta(hours=25))
    web, url = start_web(instance)
    try:
        logged(web, "was missed while the service was down", timeout=10)
        time.sleep(0.5)
        assert update_all_jobs(url) == []
        state = auto_update(url)
        assert state["last_run"] == {"at": None, "summary": None}
        assert datetime.fromisoformat(state["next_run"]) > datetime.now(UTC)
    finally:
        web.stop()


def test_the_weekly_run_stops_before_the_next_plugin_when_on_demand_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CHECK_ENV, "0.2")
    ids = ("alpha", "beta", "gamma")
    with RepoHost() as host:
        for plugin_id in ids:
            push_plugin(host, plugin_id, version="1.0.0")
        serve_registry(host, *ids)
        with ops_stack(tmp_path, host) as stack:
            for plugin_id in ids:
                assert stack.run("install", {"plugin_id": plugin_id})["state"] == "done"
                push_plugin(host, plugin_id, version="2.0.0")
            stack.web.stop()
            # A slot three hours ago, not run yet: the web runs it as it starts.
            slot = (datetime.now(UTC) - timedelta(hours=3)).replace(second=0, microsecond=0)
            config = {**stack.config(), "timezone": "UTC",
                      "auto_update": {"enabled": True, **slot_fields(slot)}}
            stack.instance.write_config(config)
            arm(stack.instance, config, slot)
            host.delay["/api/repos/"] = 2.0  # the first plugin's update takes seconds
            web, url = start_web(stack.instance)
            try:
                logged(web, "store: updating 3 plugins (auto_update)", timeout=30)
                started = requests.post(f"{url}/api/v3/display/on-demand/start",
                                        json={"plugin_id": "gamma", "pinned": True},
                                        timeout=10)
                assert started.status_code == 200, started.text
                logged(web, "auto update: finished:", timeout=60)
            finally:
                host.delay.clear()
                web.stop()
            output = web.output()
            assert "the automatic update stops before beta" in output
            assert "auto update: alpha updated 1.0.0 -> 2.0.0" in output
            assert "auto update: beta skipped: on-demand session started" in output
            assert "auto update: gamma skipped: on-demand session started" in output
            assert "auto update: finished: 1 updated, 2 skipped" in output
            for plugin_id, version in (("alpha", "2.0.0"), ("beta", "1.0.0"),
                                       ("gamma", "1.0.0")):
                manifest = stack.instance.plugins_dir / plugin_id / "manifest.json"
                assert json.loads(manifest.read_text())["version"] == version, plugin_id
