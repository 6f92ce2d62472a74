"""The store job routes: jobs kept across restarts of the real web daemon, one job by id,
404s, and a job submitted in an app answered 409 while one for the plugin is pending."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Blueprint, Flask
from flask.testing import FlaskClient

from shared.paths import Paths
from tests.daemons import Instance, start_web
from tests.web_service.store.ops_daemons import MONO, OWNER, push_plugin
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import registry, registry_entry
from web_service.app import create_app
from web_service.envelope import Reply, ok
from web_service.settings import WebSettings
from web_service.store.app_jobs import stop_store_jobs, store_jobs, submit_job
from web_service.store.jobs import INTERRUPTED_MESSAGE, Report

JOBS = "/api/v3/plugins/store/jobs"
WAIT = 10.0

BASE = {"plugin_id": "clock", "step": "done", "message": "install finished",
        "result": {"version": "1.0.0"}, "error_code": None,
        "progress": {"bytes": 2048, "files_done": 3, "files_total": 3},
        "created_at": 1000.0, "started_at": 1001.0, "finished_at": 1002.0,
        "waiting_for": None}  # (answers only: computed, never read from the file)
STORED = [
    {**BASE, "id": "installClock", "kind": "install", "state": "done",
     "description": "install of clock"},
    {**BASE, "id": "failedTicker", "kind": "update", "plugin_id": "ticker", "state": "failed",
     "description": "update of ticker",
     "step": "downloading", "message": "the host did not give manifest.json",
     "error_code": "DOWNLOAD_FAILED", "result": None, "created_at": 1100.0},
    {**BASE, "id": "runningClock", "kind": "update", "state": "running",
     "description": "update of clock",
     "step": "installing requirements", "message": "", "result": None,
     "finished_at": None, "created_at": 1200.0},
]


def write_jobs(cache_dir: Path) -> None:
    (cache_dir / "store").mkdir(parents=True)
    (cache_dir / "store" / "jobs.json").write_text(json.dumps({"version": 1, "jobs": STORED}))


def test_jobs_on_disk_are_served_after_a_restart_and_interrupted_ones_failed(
        tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    write_jobs(instance.cache_dir)
    daemon, url = start_web(instance)
    try:
        answer = requests.get(url + JOBS, timeout=5)
        assert answer.status_code == 200
        jobs = answer.json()["data"]["jobs"]
        assert [j["id"] for j in jobs] == ["runningClock", "failedTicker", "installClock"]
        interrupted = jobs[0]
        assert interrupted["state"] == "failed" and interrupted["error_code"] == "INTERRUPTED"
        assert interrupted["message"] == INTERRUPTED_MESSAGE
        assert interrupted["step"] == "installing requirements"
        assert jobs[1] == STORED[1] and jobs[2] == STORED[0]
        assert "runningClock" in daemon.output() and INTERRUPTED_MESSAGE in daemon.output()

        one = requests.get(f"{url}{JOBS}/installClock", timeout=5).json()
        assert one["status"] == "success" and one["data"] == STORED[0]
        clock = requests.get(url + JOBS, params={"plugin_id": "clock"}, timeout=5).json()
        assert [j["id"] for j in clock["data"]["jobs"]] == ["runningClock", "installClock"]
        newest = requests.get(url + JOBS, params={"limit": "1"}, timeout=5).json()
        assert [j["id"] for j in newest["data"]["jobs"]] == ["runningClock"]
    finally:
        daemon.stop()

    daemon, url = start_web(instance)  # kept across restarts, and marked failed only once
    try:
        again = requests.get(f"{url}{JOBS}/runningClock", timeout=5).json()["data"]
        assert again == interrupted
        assert "runningClock" not in daemon.output()
    finally:
        assert daemon.stop() == 0  # the job runner does not hold the shutdown
    assert "ledpanel-web stopped" in daemon.output()


@pytest.mark.parametrize("job_id", ["noSuchJob001", "x", "..", "%2e%2e", "a" * 40,
                                    "bad%00idbadid", "semi;colon12"])
def test_an_unknown_or_malformed_job_id_is_a_404_envelope(app: Flask, client: FlaskClient,
                                                          job_id: str) -> None:
    answer = client.get(f"{JOBS}/{job_id}")
    assert answer.status_code == 404
    body = answer.get_json()
    assert body["status"] == "error" and body["error_code"] == "JOB_NOT_FOUND"
    assert "no store job" in body["message"]


@pytest.mark.parametrize(("query", "field"), [("limit=0", "limit"), ("limit=x", "limit"),
                                              ("limit=201", "limit")])
def test_a_bad_limit_is_refused(client: FlaskClient, query: str, field: str) -> None:
    body = client.get(f"{JOBS}?{query}").get_json()
    assert body["error_code"] == "INVALID_FIELD" and body["details"]["field"] == field


def test_a_plugin_id_that_is_not_one_plain_name_is_refused(client: FlaskClient) -> None:
    answer = client.get(f"{JOBS}?plugin_id=../clock")
    assert answer.status_code == 400
    assert answer.get_json()["error_code"] == "INVALID_PLUGIN_ID"


class Gate:
    """Work that reports a step, then waits until opened."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()

    def __call__(self, report: Report) -> dict[str, Any]:
        report({"step": "downloading", "bytes": 512, "files_done": 1, "files_total": 2})
        self.entered.set()
        assert self.opened.wait(WAIT)
        return {"update_status": "updated", "version": "2.0.0"}


GATES: dict[str, Gate] = {}
submit_bp = Blueprint("test_submit", __name__)


@submit_bp.get("/test-only/submit/<plugin_id>")
def _submit(plugin_id: str) -> Reply:
    """Start a job whose work is a test's gate (registered on test apps only)."""
    return ok(submit_job(None, "install", plugin_id, GATES[plugin_id]))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache",
                  plugins_dir_override=tmp_path / "plugin-repos")
    application = create_app(WebSettings(paths=paths))
    application.extensions["ledpanel"].store.ensure()
    application.register_blueprint(submit_bp)
    yield application
    for gate in GATES.values():
        gate.opened.set()
    GATES.clear()
    stop_store_jobs(application)
    assert not store_jobs(application).runner.running


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def wait_state(client: FlaskClient, job_id: str, states: tuple[str, ...]) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        job = client.get(f"{JOBS}/{job_id}").get_json()["data"]
        if job["state"] in states:
            return job
        time.sleep(0.02)
    raise AssertionError(f"job {job_id} never reached {states}")


def test_a_submitted_job_shows_progress_refuses_a_second_and_is_recorded(
        app: Flask, client: FlaskClient) -> None:
    assert not store_jobs(app).runner.running  # no thread until a job is submitted
    GATES["clock"] = gate = Gate()
    job = client.get("/test-only/submit/clock").get_json()["data"]
    assert job["state"] == "queued" and job["kind"] == "install"
    assert gate.entered.wait(WAIT)

    running = wait_state(client, job["id"], ("running",))
    assert running["step"] == "downloading"
    assert running["progress"] == {"bytes": 512, "files_done": 1, "files_total": 2}

    refused = client.get("/test-only/submit/clock")
    assert refused.status_code == 409
    body = refused.get_json()
    assert body["status"] == "error" and body["error_code"] == "JOB_RUNNING"
    assert body["details"] == {"job_id": job["id"]} and job["id"] in body["message"]

    gate.opened.set()
    done = wait_state(client, job["id"], ("done", "failed"))
    assert done["state"] == "done"
    assert done["result"] == {"update_status": "updated", "version": "2.0.0"}

    def recorded() -> list[dict[str, Any]]:
        return client.get("/api/v3/history?kind=store").get_json()["data"]["entries"]

    deadline = time.monotonic() + WAIT
    while not recorded() and time.monotonic() < deadline:
        time.sleep(0.02)
    [entry] = recorded()
    assert (entry["what"], entry["result"], entry["plugin_id"], entry["job_id"]) == (
        "install", "success", "clock", job["id"])
    assert entry["version"] == "2.0.0" and entry["update_status"] == "updated"


def test_a_queued_job_says_what_it_waits_behind(client: FlaskClient) -> None:
    GATES["clock"] = first = Gate()
    GATES["ticker"] = Gate()
    running = client.get("/test-only/submit/clock").get_json()["data"]
    assert first.entered.wait(WAIT)
    queued = client.get("/test-only/submit/ticker").get_json()["data"]
    assert queued["state"] == "queued"
    assert queued["waiting_for"] == {"job_id": running["id"], "description": "install of clock"}
    shown = client.get(f"{JOBS}/{queued['id']}").get_json()["data"]
    assert shown["step"] == "waiting for: install of clock"
    listed = {j["id"]: j for j in client.get(JOBS).get_json()["data"]["jobs"]}
    assert listed[queued["id"]]["waiting_for"]["job_id"] == running["id"]
    assert listed[running["id"]]["waiting_for"] is None
    first.opened.set()
    GATES["ticker"].opened.set()
    done = wait_state(client, queued["id"], ("done", "failed"))
    assert done["waiting_for"] is None and done["step"] != "waiting for: install of clock"


def test_a_repository_url_install_is_described_and_logged_by_its_url(
        client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    url = "http://127.0.0.1:9/acme/weather"
    with caplog.at_level("INFO", logger="web_service.store"):
        answer = client.post("/api/v3/plugins/install", json={"repo_url": url, "wait": 0})
        assert answer.status_code == 202, answer.get_json()
        job = answer.get_json()["data"]["job"]
        assert job["description"] == f"install from {url}"
        assert answer.get_json()["message"].startswith(f"install from {url} started")
        wait_state(client, job["id"], ("done", "failed"))
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("web_service.store")]
    assert f"store job {job['id']}: install from {url} queued" in lines
    assert not any("every plugin" in line for line in lines), lines


def test_a_trickling_repository_fails_early_and_the_queued_install_says_what_it_waits_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real web daemon, a 1 s rate window: one plugin's file trickles at 80 B/s, so its
    install fails as too slow within seconds; the install queued behind it names it while
    waiting, then runs."""
    monkeypatch.setenv("LEDPANEL_STORE_RATE_WINDOW", "1")
    with RepoHost() as host:
        for plugin_id in ("slowpoke", "quick"):
            push_plugin(host, plugin_id)
        host.serve("plugins.json", registry(*(
            registry_entry(plugin_id, host.repo_url(OWNER, MONO),
                           plugin_path=f"plugins/{plugin_id}")
            for plugin_id in ("slowpoke", "quick"))))
        host.drip["plugins/slowpoke/manager.py"] = 0.1  # 8 bytes each time
        monkeypatch.setenv("LEDPANEL_REGISTRY_URL", f"{host.url}/plugins.json")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        daemon, url = start_web(Instance(tmp_path))
        try:
            def start(plugin_id: str) -> dict[str, Any]:
                answer = requests.post(f"{url}/api/v3/plugins/install", timeout=10,
                                       json={"plugin_id": plugin_id, "wait": 0})
                assert answer.status_code == 202, answer.text
                return answer.json()["data"]["job"]

            slow = start("slowpoke")
            deadline = time.monotonic() + WAIT
            while requests.get(f"{url}{JOBS}/{slow['id']}", timeout=10).json()["data"][
                    "state"] == "queued" and time.monotonic() < deadline:
                time.sleep(0.02)
            started = time.monotonic()
            quick = start("quick")
            assert quick["waiting_for"] == {"job_id": slow["id"],
                                            "description": "install of slowpoke"}
            assert quick["step"] == "waiting for: install of slowpoke"

            def ended(job_id: str) -> dict[str, Any]:
                while time.monotonic() < started + 30:
                    job = requests.get(f"{url}{JOBS}/{job_id}", timeout=10).json()["data"]
                    if job["state"] in ("done", "failed"):
                        return job
                    time.sleep(0.05)
                raise AssertionError(f"job {job_id} did not end")

            failed = ended(slow["id"])
            assert failed["state"] == "failed" and failed["error_code"] == "DOWNLOAD_FAILED"
            assert failed["message"] == "manager.py: too slow (under 1 KiB/s for 1 s)"
            assert time.monotonic() - started < 15  # not the 60 s of the file's deadline
            assert ended(quick["id"])["state"] == "done"
            assert (tmp_path / "plugin-repos" / "quick" / "manifest.json").is_file()
            assert not (tmp_path / "plugin-repos" / "slowpoke").exists()
        finally:
            daemon.stop()
