"""Install, update and uninstall through the API of the real daemons, from a loopback
repository host: the folder, its record, the config, the display's answer, the job."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.web_service.store.ops_daemons import (
    MONO,
    OWNER,
    OpsStack,
    ops_stack,
    push_plugin,
    serve_registry,
)
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.sample_plugins import plugin_files
from web_service.store.install.folders import read_record

pytestmark = pytest.mark.timeout(300)

IDS = ("alpha", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa", "lambda")


@pytest.fixture(scope="module")
def ops(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpsStack]:
    with RepoHost() as host:
        for plugin_id in IDS:
            push_plugin(host, plugin_id)
        serve_registry(host, *IDS)
        with ops_stack(tmp_path_factory.mktemp("ops"), host) as stack:
            yield stack


def test_install_by_id_enables_the_plugin_and_the_display_loads_it(ops: OpsStack) -> None:
    answer = ops.post("install", {"plugin_id": "alpha", "wait": 60})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    data = body["data"]
    assert body["message"] == "alpha 1.0.0 installed"
    assert data["display"]["result"] == "loaded"
    assert data["version"] == "1.0.0" and data["change"] == "installed"
    folder = ops.instance.plugins_dir / "alpha"
    record = read_record(folder)
    assert record is not None and record["source"] == "registry"
    assert record["plugin_path"] == "plugins/alpha"
    assert record["tree_sha"] == ops.host.tree_sha(OWNER, MONO, "plugins/alpha")
    assert ops.config()["alpha"] == {"enabled": True}
    assert "alpha" in ops.state()["loaded_plugins"]
    assert "alpha" in ops.installed_ids()

    job = ops.job(data["job_id"])
    assert job["state"] == "done" and job["kind"] == "install"
    assert job["progress"]["files_total"] >= 3 and job["progress"]["bytes"] > 0
    history = requests.get(f"{ops.url}/api/v3/history", timeout=10,
                           params={"kind": "store", "plugin_id": "alpha"}).json()["data"]
    assert any(entry.get("job_id") == data["job_id"] and entry["result"] == "success"
               for entry in history["entries"])


def test_install_keeps_an_existing_config_section(ops: OpsStack) -> None:
    config = ops.config()
    config["iota"] = {"enabled": False, "display_duration": 7}
    (ops.instance.config_dir / "config.json").write_text(json.dumps(config, indent=2))
    job = ops.run("install", {"plugin_id": "iota"})
    assert job["state"] == "done", job
    assert job["result"]["config_added"] is False
    assert ops.config()["iota"] == {"enabled": False, "display_duration": 7}


def test_install_by_repository_url_monorepo_folder_and_whole_repository(
        ops: OpsStack) -> None:
    push_plugin(ops.host, "beta")
    url = f"{ops.host.repo_url(OWNER, MONO)}/tree/main/plugins/beta"
    job = ops.run("install", {"repo_url": url})
    assert job["state"] == "done", job
    record = read_record(ops.instance.plugins_dir / "beta")
    assert record is not None
    assert (record["source"], record["plugin_path"]) == ("repo_url", "plugins/beta")

    ops.host.push(OWNER, "gamma-plugin", plugin_files("gamma"))
    job = ops.run("install", {"repo_url": ops.host.repo_url(OWNER, "gamma-plugin")})
    assert job["state"] == "done", job
    assert job["result"]["display"]["result"] == "loaded"
    record = read_record(ops.instance.plugins_dir / "gamma")
    assert record is not None and record["plugin_path"] == ""
    assert record["tree_sha"] == ops.host.tree_sha(OWNER, "gamma-plugin")

    # The repository changed: the update follows the recorded repository.
    ops.host.push(OWNER, "gamma-plugin", plugin_files("gamma", version="2.0.0"))
    job = ops.run("update", {"plugin_id": "gamma"})
    assert job["state"] == "done", job
    assert job["result"]["update_status"] == "updated"
    assert job["result"]["version"] == "2.0.0"


def test_a_config_broken_by_hand_makes_the_install_a_warning_not_a_failure(
        ops: OpsStack) -> None:
    path = ops.instance.config_dir / "config.json"
    good = path.read_text()
    path.write_text('{"plugin_system": ')
    try:
        job = ops.run("install", {
            "repo_url": f"{ops.host.repo_url(OWNER, MONO)}/tree/main/plugins/kappa"})
    finally:
        path.write_text(good)
    assert job["state"] == "done", job
    result = job["result"]
    assert result["config_added"] is False
    assert len(result["warnings"]) == 1 and "Config Editor" in result["warnings"][0]
    assert job["message"].startswith("kappa 1.0.0 installed, but it was not enabled")
    assert read_record(ops.instance.plugins_dir / "kappa") is not None
    assert "kappa" not in ops.config()


def test_update_answers_each_update_status(ops: OpsStack) -> None:
    assert ops.run("install", {"plugin_id": "delta"})["state"] == "done"

    answer = ops.post("update", {"plugin_id": "delta", "wait": 60})
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["update_status"] == "up_to_date"
    assert answer.json()["message"].startswith("delta is up to date")

    push_plugin(ops.host, "delta", version="1.1.0", colour=(0, 200, 0),
                extra={"helper.py": b"X = 1\n"})
    answer = ops.post("update", {"plugin_id": "delta", "wait": 60})
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["update_status"] == "updated"
    assert (data["previous_version"], data["version"]) == ("1.0.0", "1.1.0")
    assert answer.json()["message"] == "delta updated 1.0.0 → 1.1.0"
    assert data["display"]["result"] == "reloaded"
    assert (ops.instance.plugins_dir / "delta" / "helper.py").is_file()

    handmade = ops.instance.plugins_dir / "handmade"
    handmade.mkdir()
    for name, content in plugin_files("handmade").items():
        (handmade / name).write_bytes(content)
    answer = ops.post("update", {"plugin_id": "handmade", "wait": 60})
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["update_status"] == "local_only"
    assert sorted(p.name for p in handmade.iterdir()) == sorted(plugin_files("handmade"))


def test_a_hand_copied_plugin_the_registry_lists_updates_from_it(ops: OpsStack) -> None:
    # Brought over from the existing system: no store record, an older version.
    copied = ops.instance.plugins_dir / "lambda"
    copied.mkdir()
    for name, content in plugin_files("lambda", version="0.9.0").items():
        (copied / name).write_bytes(content)
    answer = ops.post("update", {"plugin_id": "lambda", "wait": 60})
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert (data["update_status"], data["previous_version"], data["version"]) == (
        "updated", "0.9.0", "1.0.0")
    assert read_record(copied)["source"] == "registry"  # found by the tree id from now on
    answer = ops.post("update", {"plugin_id": "lambda", "wait": 60})
    assert answer.json()["data"]["update_status"] == "up_to_date"


def test_uninstall_keeps_the_config_unless_asked(ops: OpsStack) -> None:
    assert ops.run("install", {"plugin_id": "eps"})["state"] == "done"
    job = ops.run("uninstall", {"plugin_id": "eps"})
    assert job["state"] == "done", job
    assert job["result"]["display"]["result"] == "unloaded"
    assert not (ops.instance.plugins_dir / "eps").exists()
    assert "eps" not in ops.state()["loaded_plugins"]
    assert "eps" not in ops.installed_ids()
    assert ops.config()["eps"] == {"enabled": True}

    assert ops.run("install", {"plugin_id": "eps"})["state"] == "done"
    secrets_file = ops.instance.config_dir / "config_secrets.json"
    secrets_file.write_text(json.dumps({**ops.secrets(), "eps": {"api_key": "k"}}))
    job = ops.run("uninstall", {"plugin_id": "eps", "remove_config": True})
    assert job["state"] == "done", job
    assert job["result"]["config_removed"] is True
    assert "eps" not in ops.config()
    assert "eps" not in ops.secrets()

    answer = ops.post("uninstall", {"plugin_id": "eps", "wait": 30})
    assert answer.status_code == 404
    assert answer.json()["error_code"] == "NOT_INSTALLED"


def test_install_falls_back_to_the_archive_when_rate_limited(ops: OpsStack) -> None:
    ops.host.rate_limited = True
    try:
        job = ops.run("install", {"plugin_id": "zeta"})
    finally:
        ops.host.rate_limited = False
    assert job["state"] == "done", job
    assert ops.host.asked(f"/{OWNER}/{MONO}/archive/refs/heads/main.zip") >= 1
    assert (ops.instance.plugins_dir / "zeta" / "manager.py").is_file()


def test_a_failed_dependency_install_keeps_the_previous_version_running(
        ops: OpsStack) -> None:
    assert ops.run("install", {"plugin_id": "eta"})["state"] == "done"
    folder = ops.instance.plugins_dir / "eta"
    before = sorted((p.name, p.read_bytes()) for p in folder.iterdir() if p.is_file())
    push_plugin(ops.host, "eta", version="2.0.0", requirements="Flask<1\n")
    answer = ops.post("update", {"plugin_id": "eta", "wait": 60})
    assert answer.status_code == 500, answer.text
    assert answer.json()["error_code"] == "DEPENDENCIES_FAILED"
    job = ops.job(answer.json()["details"]["job_id"])
    assert job["state"] == "failed" and job["error_code"] == "DEPENDENCIES_FAILED"
    assert sorted((p.name, p.read_bytes()) for p in folder.iterdir() if p.is_file()) == before
    assert "eta" in ops.state()["loaded_plugins"]
    assert not [p for p in ops.instance.plugins_dir.iterdir() if p.name.startswith(".store")]


def test_a_second_operation_on_one_plugin_is_refused_while_the_first_runs(
        ops: OpsStack) -> None:
    ops.host.delay[f"/api/repos/{OWNER}/{MONO}/git/trees"] = 3.0
    try:
        first = ops.post("install", {"plugin_id": "theta", "wait": 0})
        assert first.status_code == 202, first.text
        second = ops.post("install", {"plugin_id": "theta", "wait": 0})
        assert second.status_code == 409, second.text
        assert second.json()["error_code"] == "JOB_RUNNING"
        assert second.json()["details"]["job_id"] == first.json()["data"]["job_id"]
    finally:
        ops.host.delay.clear()
    assert ops.finished(first.json()["data"]["job_id"])["state"] == "done"


@pytest.mark.parametrize("bad", ["../x", "a/b", "/etc", "a\x00b", ".hidden", "..", 5])
@pytest.mark.parametrize("route", ["install", "update", "uninstall"])
def test_an_id_that_is_no_plain_name_is_refused_before_anything(
        ops: OpsStack, route: str, bad: object) -> None:
    before = sorted(str(p) for p in ops.instance.plugins_dir.parent.rglob("*")
                    if "cache" not in p.parts)
    answer = ops.post(route, {"plugin_id": bad})
    assert answer.status_code == 400, answer.text
    expected = "MISSING_PLUGIN_ID" if bad == 5 else "INVALID_PLUGIN_ID"
    assert answer.json()["error_code"] == expected
    assert sorted(str(p) for p in ops.instance.plugins_dir.parent.rglob("*")
                  if "cache" not in p.parts) == before


@pytest.mark.parametrize("body", [{"repo_url": "file:///etc/passwd"},
                                  {"repo_url": "https://example.invalid/a/b", "branch": ".."},
                                  {"repo_url": "https://example.invalid/a/b",
                                   "plugin_path": "../up"},
                                  {"plugin_id": "alpha", "wait": 61}])
def test_a_bad_install_body_is_one_clear_error(ops: OpsStack, body: dict) -> None:
    answer = ops.post("install", body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["status"] == "error" and answer.json()["message"]


def test_an_id_in_no_registry_is_not_found(ops: OpsStack) -> None:
    answer = ops.post("install", {"plugin_id": "nowhere", "wait": 30})
    assert answer.status_code == 404, answer.text
    assert answer.json()["error_code"] == "PLUGIN_NOT_FOUND"
    assert not (ops.instance.plugins_dir / "nowhere").exists()


def test_installed_list_is_instant_and_never_asks_the_host_offline(tmp_path: Path) -> None:
    with RepoHost() as host:
        serve_registry(host)
        with ops_stack(tmp_path, host) as stack:
            assert requests.get(f"{stack.url}/", timeout=10).status_code in (200, 302)
            assert stack.installed_ids() is not None
            assert host.requests == []  # page and list loads never reach the store's host
            host.__exit__(None, None, None)  # the host goes away while the daemons run
            answer = requests.get(f"{stack.url}/api/v3/plugins/installed", timeout=10)
            assert answer.status_code == 200
            assert answer.elapsed.total_seconds() < 1.0
            assert host.requests == []
