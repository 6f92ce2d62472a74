"""Store jobs: submit, progress, persistence, conflicts, failures, recovery after a kill."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.history import HistoryReader, HistoryWriter
from web_service.store.jobs import (
    INTERRUPTED_MESSAGE,
    JobConflict,
    JobRunner,
    JobStore,
    Report,
)

WAIT = 10.0  # seconds any job of these tests may take at most


@pytest.fixture
def store_error() -> Callable[[str, str], Exception]:
    """The installer's error type, ``web_service.store.errors.StoreError(message, error_code)``."""
    return pytest.importorskip("web_service.store.errors").StoreError


def wait_for(check: Callable[[], Any], timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("timed out waiting")


def finished(store: JobStore, job_id: str) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        job = store.get(job_id)
        return job if job is not None and job["state"] in ("done", "failed") else None
    return wait_for(done)


def run_next(store: JobStore) -> dict[str, Any]:
    """Run the next queued job on this thread (no runner)."""
    item = store.take(1.0)
    assert item is not None
    return store.run(*item)


def on_disk(directory: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((directory / "jobs.json").read_text())
    return {job["id"]: job for job in data["jobs"]}


def saved(directory: Path, job_id: str) -> dict[str, Any]:
    """Return the job as the file holds it once it is saved finished (the runner writes
    the file just after the job's state changes in memory)."""
    return wait_for(lambda: (job := on_disk(directory).get(job_id)) is not None
                    and job["state"] in ("done", "failed") and job)


class Gate:
    """A work function that reports, then waits until it is opened."""

    def __init__(self, result: dict[str, Any] | None = None) -> None:
        self.opened = threading.Event()
        self.entered = threading.Event()
        self.result = result or {"update_status": "updated", "version": "1.2.0"}

    def __call__(self, report: Report) -> dict[str, Any]:
        report({"step": "downloading", "bytes": 100, "files_done": 1, "files_total": 4})
        self.entered.set()
        assert self.opened.wait(WAIT)
        return self.result


@pytest.fixture
def jobs_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "store"


@pytest.fixture
def runner(jobs_dir: Path) -> Iterator[JobRunner]:
    history = HistoryWriter(jobs_dir.parent / "history", "web")
    job_runner = JobRunner(JobStore(jobs_dir), history, poll=0.05)
    job_runner.start()
    yield job_runner
    assert job_runner.stop(WAIT)


def test_a_job_runs_reports_progress_and_keeps_its_result(runner: JobRunner,
                                                          jobs_dir: Path) -> None:
    gate = Gate()
    job = runner.store.submit("install", "clock", gate)
    assert job["state"] == "queued" and len(job["id"]) == 12
    assert gate.entered.wait(WAIT)

    running = runner.store.get(job["id"])
    assert running is not None and running["state"] == "running"
    assert running["step"] == "downloading"
    assert running["progress"] == {"bytes": 100, "files_done": 1, "files_total": 4}
    assert on_disk(jobs_dir)[job["id"]]["step"] == "downloading"  # a new step is saved

    gate.opened.set()
    done = finished(runner.store, job["id"])
    assert done["state"] == "done" and done["error_code"] is None
    assert done["result"] == {"update_status": "updated", "version": "1.2.0"}
    assert done["created_at"] <= done["started_at"] <= done["finished_at"]
    assert {**saved(jobs_dir, job["id"]), "waiting_for": None} == done
    assert JobStore(jobs_dir).get(job["id"]) == done  # read back by a new process


def test_progress_is_saved_at_each_step_and_not_more_often_than_the_interval(
        jobs_dir: Path) -> None:
    now = [1000.0]
    store = JobStore(jobs_dir, save_interval=0.5, clock=lambda: now[0])
    seen: list[dict[str, Any]] = []

    def work(report: Report) -> dict[str, Any]:
        report({"step": "downloading", "bytes": 10})
        report({"bytes": 20, "files_done": 1})  # same step, no time passed: not saved
        seen.append(on_disk(jobs_dir)[job["id"]]["progress"])
        now[0] += 0.6
        report({"bytes": 30})  # the interval passed: saved
        seen.append(on_disk(jobs_dir)[job["id"]]["progress"])
        report({"step": "checking", "bytes": 40})  # a new step: saved at once
        seen.append(on_disk(jobs_dir)[job["id"]])
        return {}

    job = store.submit("update", "clock", work)
    run_next(store)
    assert seen[0] == {"bytes": 10, "files_done": 0, "files_total": None}
    assert seen[1] == {"bytes": 30, "files_done": 1, "files_total": None}
    assert seen[2]["step"] == "checking" and seen[2]["progress"]["bytes"] == 40


def test_malformed_progress_is_ignored_field_by_field(jobs_dir: Path) -> None:
    store = JobStore(jobs_dir)

    def work(report: Report) -> dict[str, Any]:
        report({"step": "downloading", "bytes": 5, "files_total": 3})
        report({"bytes": -1, "files_done": "two", "files_total": True, "step": 7})
        report("not a dict")  # type: ignore[arg-type]
        return {}

    job = store.submit("install", "clock", work)
    run_next(store)
    done = store.get(job["id"])
    assert done is not None and done["step"] == "done"
    assert done["progress"] == {"bytes": 0, "files_done": 0, "files_total": None}


def test_a_second_job_for_one_plugin_is_refused_while_the_first_is_pending(
        runner: JobRunner) -> None:
    gate = Gate()
    first = runner.store.submit("install", "clock", gate)
    assert gate.entered.wait(WAIT)
    queued = runner.store.submit("install", "ticker", lambda report: {})
    for kind in ("install", "update", "uninstall"):
        with pytest.raises(JobConflict) as refused:
            runner.store.submit(kind, "clock", lambda report: {})
        assert refused.value.job_id == first["id"]
        assert refused.value.status == 409 and refused.value.error_code == "JOB_RUNNING"
        assert refused.value.details == {"job_id": first["id"]}
    with pytest.raises(JobConflict) as refused:  # queued counts too
        runner.store.submit("uninstall", "ticker", lambda report: {})
    assert refused.value.job_id == queued["id"]

    every = runner.store.submit("update_all", None, lambda report: {})
    with pytest.raises(JobConflict) as refused:
        runner.store.submit("update_all", None, lambda report: {})
    assert refused.value.job_id == every["id"]

    gate.opened.set()
    finished(runner.store, every["id"])
    again = runner.store.submit("update", "clock", lambda report: {"update_status": "up_to_date"})
    assert finished(runner.store, again["id"])["state"] == "done"


def test_jobs_run_one_at_a_time_in_submit_order(runner: JobRunner) -> None:
    events: list[str] = []

    def step(name: str) -> Callable[[Report], dict[str, Any]]:
        def work(report: Report) -> dict[str, Any]:
            events.append(f"{name} start")
            time.sleep(0.05)
            events.append(f"{name} end")
            return {}
        return work

    ids = [runner.store.submit("install", name, step(name))["id"] for name in "abc"]
    for job_id in ids:
        finished(runner.store, job_id)
    assert events == ["a start", "a end", "b start", "b end", "c start", "c end"]


def test_a_store_error_fails_the_job_with_its_message_and_code(
        runner: JobRunner, jobs_dir: Path, store_error: Callable[[str, str], Exception]) -> None:
    def work(report: Report) -> dict[str, Any]:
        report({"step": "downloading"})
        raise store_error("the host did not give manifest.json", "DOWNLOAD_FAILED")

    job = finished(runner.store, runner.store.submit("install", "clock", work)["id"])
    assert job["state"] == "failed" and job["error_code"] == "DOWNLOAD_FAILED"
    assert job["message"] == "the host did not give manifest.json"
    assert job["step"] == "downloading"  # where it failed
    assert job["result"] is None
    assert saved(jobs_dir, job["id"])["error_code"] == "DOWNLOAD_FAILED"


def test_an_unexpected_error_is_internal_with_a_generic_message(
        runner: JobRunner, caplog: pytest.LogCaptureFixture) -> None:
    def work(report: Report) -> dict[str, Any]:
        raise RuntimeError("secret detail at /home/pi")

    with caplog.at_level(logging.ERROR, logger="web_service.store.jobs"):
        job = finished(runner.store, runner.store.submit("update", "clock", work)["id"])
    assert job["state"] == "failed" and job["error_code"] == "INTERNAL"
    assert "secret" not in job["message"] and "log" in job["message"]
    assert any("secret detail" in (r.exc_text or "") for r in caplog.records)


def test_each_finished_job_is_one_history_entry(
        runner: JobRunner, jobs_dir: Path, store_error: Callable[[str, str], Exception]) -> None:
    ok = runner.store.submit("update", "clock",
                             lambda report: {"update_status": "updated", "version": "2.0.0"})
    def refused(report: Report) -> dict[str, Any]:
        raise store_error("refused", "UNSAFE_ARCHIVE")

    bad = runner.store.submit("install", "ticker", refused)
    finished(runner.store, ok["id"])
    finished(runner.store, bad["id"])

    reader = HistoryReader(jobs_dir.parent / "history")  # recorded just after the job ends
    entries = wait_for(lambda: len(found := reader.entries(limit=10, kind="store")[0]) == 2
                       and found)
    assert [(e["what"], e["result"], e["plugin_id"], e["job_id"]) for e in entries] == [
        ("install", "error", "ticker", bad["id"]), ("update", "success", "clock", ok["id"])]
    assert entries[0]["error_code"] == "UNSAFE_ARCHIVE" and entries[0]["detail"] == "refused"
    assert entries[1]["version"] == "2.0.0" and entries[1]["update_status"] == "updated"


def test_jobs_left_unfinished_by_a_killed_process_are_marked_interrupted(
        jobs_dir: Path) -> None:
    jobs_dir.mkdir(parents=True)
    base = {"plugin_id": "clock", "step": "downloading", "message": "", "result": None,
            "error_code": None, "created_at": 1000.0, "started_at": 1001.0,
            "progress": {"bytes": 5, "files_done": 1, "files_total": 2}, "finished_at": None}
    jobs = [{**base, "id": "doneJob00001", "kind": "install", "state": "done",
             "finished_at": 1002.0, "result": {"version": "1.0.0"}},
            {**base, "id": "runningJob01", "kind": "update", "state": "running"},
            {**base, "id": "queuedJob001", "kind": "update_all", "plugin_id": None,
             "state": "queued", "started_at": None}]
    (jobs_dir / "jobs.json").write_text(json.dumps({"version": 1, "jobs": jobs}))

    store = JobStore(jobs_dir)
    for job_id in ("runningJob01", "queuedJob001"):
        job = store.get(job_id)
        assert job is not None and job["state"] == "failed"
        assert job["error_code"] == "INTERRUPTED" and job["message"] == INTERRUPTED_MESSAGE
        assert job["finished_at"] is not None
        assert on_disk(jobs_dir)[job_id]["state"] == "failed"
    assert store.get("doneJob00001") == {**jobs[0], "description": "install of clock",
                                         "waiting_for": None}
    assert [j["id"] for j in store.jobs()] == ["queuedJob001", "runningJob01", "doneJob00001"]
    store.submit("update", "clock", lambda report: {})  # no longer blocks the plugin


@pytest.mark.parametrize("content", [b"{not json", b"\xff\xfe", b"[]",
                                     b'{"version": 2, "jobs": []}', b'{"jobs": {}}'])
def test_an_unusable_jobs_file_is_set_aside_and_the_store_starts_empty(
        jobs_dir: Path, content: bytes, caplog: pytest.LogCaptureFixture) -> None:
    jobs_dir.mkdir(parents=True)
    (jobs_dir / "jobs.json").write_bytes(content)
    with caplog.at_level(logging.WARNING):
        store = JobStore(jobs_dir)
    assert store.jobs() == []
    assert (jobs_dir / "jobs.json.bad").read_bytes() == content
    assert any("set aside" in r.getMessage() for r in caplog.records)
    job = store.submit("install", "clock", lambda report: {})
    assert list(on_disk(jobs_dir)) == [job["id"]]


def test_a_directory_in_place_of_the_jobs_file_is_set_aside(jobs_dir: Path) -> None:
    (jobs_dir / "jobs.json").mkdir(parents=True)
    store = JobStore(jobs_dir)
    assert store.jobs() == [] and (jobs_dir / "jobs.json.bad").is_dir()
    store.submit("install", "clock", lambda report: {})
    assert len(on_disk(jobs_dir)) == 1


def test_malformed_jobs_are_dropped_one_by_one(jobs_dir: Path) -> None:
    jobs_dir.mkdir(parents=True)
    good = {"id": "goodJob00001", "kind": "install", "plugin_id": "clock", "state": "done",
            "step": "done", "progress": {"bytes": 1, "files_done": 1, "files_total": 1},
            "message": "install finished", "result": {}, "error_code": None,
            "created_at": 1.5, "started_at": 2, "finished_at": 3}
    bad = [{**good, "id": "../../etc"}, {**good, "id": "badKind00001", "kind": "format"},
           {**good, "id": "badPlugin001", "plugin_id": "../x"},
           {**good, "id": "badState0001", "state": "paused"},
           {**good, "id": "badTime00001", "created_at": "yesterday"},
           {**good, "id": "goodJob00001"}, "a string", None]
    (jobs_dir / "jobs.json").write_text(json.dumps({"version": 1, "jobs": [good, *bad]}))
    store = JobStore(jobs_dir)
    assert [j["id"] for j in store.jobs()] == ["goodJob00001"]


def test_fields_of_the_wrong_type_are_reset_not_trusted(jobs_dir: Path) -> None:
    jobs_dir.mkdir(parents=True)
    odd = {"id": "oddFields001", "kind": "install", "plugin_id": None, "state": "done",
           "step": ["x"], "progress": {"bytes": "many", "files_total": -1}, "message": 5,
           "result": [1], "error_code": "lower", "created_at": 10, "started_at": True,
           "finished_at": "later"}
    (jobs_dir / "jobs.json").write_text(json.dumps({"version": 1, "jobs": [odd]}))
    assert JobStore(jobs_dir).get("oddFields001") == {
        "id": "oddFields001", "kind": "install", "plugin_id": None, "state": "done",
        "description": "install from a repository URL", "waiting_for": None, "step": "",
        "progress": {"bytes": 0, "files_done": 0, "files_total": None},
        "message": "", "result": None, "error_code": None, "created_at": 10,
        "started_at": None, "finished_at": None}


def test_only_the_newest_finished_jobs_are_kept(jobs_dir: Path) -> None:
    store = JobStore(jobs_dir, keep=3)
    ids = []
    for number in range(5):
        job = store.submit("install", f"plugin{number}", lambda report: {})
        run_next(store)
        ids.append(job["id"])
    pending = store.submit("install", "plugin9", lambda report: {})
    assert [j["id"] for j in store.jobs()] == [pending["id"], *reversed(ids[2:])]
    assert set(on_disk(jobs_dir)) == {pending["id"], *ids[2:]}
    assert [j["id"] for j in store.jobs(plugin_id="plugin4", limit=5)] == [ids[4]]
    assert len(store.jobs(limit=2)) == 2


def test_stop_is_bounded_while_a_job_still_runs(jobs_dir: Path) -> None:
    job_runner = JobRunner(JobStore(jobs_dir), poll=0.05)
    assert job_runner.stop(0.1)  # never started
    job_runner.start()
    gate = Gate()
    job = job_runner.store.submit("install", "clock", gate)
    assert gate.entered.wait(WAIT)
    began = time.monotonic()
    assert not job_runner.stop(0.2)
    assert time.monotonic() - began < 2
    gate.opened.set()
    assert finished(job_runner.store, job["id"])["state"] == "done"
    wait_for(lambda: not job_runner.running)
    job_runner.start()  # a stopped runner starts again
    again = job_runner.store.submit("update", "clock", lambda report: {})
    assert finished(job_runner.store, again["id"])["state"] == "done"
    assert job_runner.stop(WAIT)


def test_an_unwritable_folder_keeps_jobs_in_memory(tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be")
    store = JobStore(blocker / "store")
    with caplog.at_level(logging.WARNING):
        job = store.submit("install", "clock", lambda report: {"version": "1.0.0"})
        run_next(store)
    done = store.get(job["id"])
    assert done is not None and done["state"] == "done"
    assert any("kept in memory" in r.getMessage() for r in caplog.records)


def test_bad_kinds_and_plugin_ids_are_refused(jobs_dir: Path) -> None:
    store = JobStore(jobs_dir)
    with pytest.raises(ValueError):
        store.submit("reinstall", "clock", lambda report: {})
    with pytest.raises(ValueError):
        store.submit("install", "../clock", lambda report: {})
    assert store.jobs() == []


def test_a_job_that_exits_the_thread_is_failed_not_left_running(jobs_dir: Path) -> None:
    store = JobStore(jobs_dir)

    def work(report: Report) -> dict[str, Any]:
        raise SystemExit(3)

    job = store.submit("install", "clock", work)
    with pytest.raises(SystemExit):
        run_next(store)
    failed = store.get(job["id"])
    assert failed is not None and failed["state"] == "failed"
    assert failed["error_code"] == "INTERNAL"
    assert on_disk(jobs_dir)[job["id"]]["state"] == "failed"
    store.submit("install", "clock", lambda report: {})  # the plugin is free again
