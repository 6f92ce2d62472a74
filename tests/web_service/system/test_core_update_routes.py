"""The core update's routes on a real install checkout: version, git-info, check-update,
starting an update (sudo faked under systemd; the real updater detached on a
development run) and its state."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from shared.core_update import state as files
from shared.paths import Paths
from shared.version import CORE_VERSION
from tests.fake_commands import calls, fake_command
from tests.shared.core_update.repos import Repos, git, make_repos
from web_service.app import create_app
from web_service.settings import WebSettings

SUDOERS = Path(__file__).resolve().parents[3] / "systemd" / "ledpanel.sudoers"


@pytest.fixture
def repos(tmp_path: Path) -> Repos:
    return make_repos(tmp_path)


@pytest.fixture
def client(repos: Repos, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FlaskClient]:
    for name, value in repos.env().items():
        if name.startswith(("LEDPANEL_", "GIT_")) or name == "PATH":
            monkeypatch.setenv(name, value)
    paths = Paths(root=repos.install, config_dir=tmp_path / "config", cache_dir=repos.cache,
                  plugins_dir_override=repos.install / "plugin-repos")
    app = create_app(WebSettings(paths=paths, ack_timeout=0.5))
    yield app.test_client()


def test_version_names_the_release_and_the_commit(client: FlaskClient, repos: Repos) -> None:
    data = client.get("/api/v3/system/version").get_json()["data"]
    assert data == {"version": CORE_VERSION, "commit": repos.head(), "supervisor": "systemd"}


def test_git_info_hides_credentials_in_the_remote(client: FlaskClient, repos: Repos) -> None:
    git(repos.install, "remote", "set-url", "origin", "https://me:s3cret@example.invalid/x.git")
    (repos.install / "core.py").write_text("edited\n")
    answer = client.get("/api/v3/system/git-info")
    data = answer.get_json()["data"]
    assert data["remote_url"] == "https://example.invalid/x.git"
    assert "s3cret" not in answer.get_data(as_text=True)
    assert (data["branch"], data["commit"], data["upstream"]) == ("main", repos.head(),
                                                                  "origin/main")
    assert data["local_changes"] == ["core.py"]


def test_check_update_lists_commits_and_leaves_the_checkout_as_it_was(
        client: FlaskClient, repos: Repos) -> None:
    repos.release("second", {"core.py": "VERSION = 2\n"})
    newest = repos.release("third", {"pyproject.toml": "[project]\nname = 'y'\n"})
    before = {p: p.stat().st_mtime_ns for p in (repos.install / ".git").rglob("*")}
    data = client.get("/api/v3/system/check-update").get_json()["data"]
    assert [c["subject"] for c in data["commits"]] == ["third", "second"]
    assert data["latest"] == newest and data["update_available"] is True
    assert data["dependency_files_changed"] == ["pyproject.toml"]
    after = {p: p.stat().st_mtime_ns for p in (repos.install / ".git").rglob("*")}
    assert after == before  # no object, ref or FETCH_HEAD written


def test_check_update_without_the_remote_is_an_envelope(client: FlaskClient,
                                                        repos: Repos) -> None:
    git(repos.install, "remote", "set-url", "origin", str(repos.origin) + "-gone")
    answer = client.get("/api/v3/system/check-update")
    body = answer.get_json()
    assert answer.status_code == 502 and body["error_code"] == "GIT_ERROR"
    assert "check the network" in body["message"]


def test_starting_goes_through_sudo_to_the_unit_once(client: FlaskClient, repos: Repos) -> None:
    fake_command(repos.bin, "sudo")
    answer = client.post("/api/v3/system/update", json={"stash": True})
    assert answer.status_code == 202, answer.get_json()
    assert calls(repos.bin, "sudo") == [
        ["-n", str(repos.bin / "systemctl"), "start", "--no-block", "ledpanel-update.service"]]
    request = files.read_request(repos.cache)
    assert (request["trigger"], request["stash"]) == ("button", True)
    shown = client.get("/api/v3/system/update").get_json()["data"]
    assert shown["running"] is True and shown["phase"] == "starting"
    again = client.post("/api/v3/system/update", json={})
    assert again.status_code == 409 and again.get_json()["error_code"] == "UPDATE_RUNNING"


def test_a_refused_sudo_answers_its_output_and_ends_the_update(client: FlaskClient,
                                                               repos: Repos) -> None:
    fake_command(repos.bin, "sudo", exit_code=1, output="sudo: a password is required\n")
    answer = client.post("/api/v3/system/update", json={})
    body = answer.get_json()
    assert answer.status_code == 503 and body["error_code"] == "UPDATE_NOT_STARTED"
    assert "a password is required" in body["message"]
    assert client.get("/api/v3/system/update").get_json()["data"]["result"] == "failed"


def test_a_bad_body_is_refused_with_an_envelope(client: FlaskClient) -> None:
    answer = client.post("/api/v3/system/update", json={"stash": "yes"})
    assert answer.status_code == 400 and answer.get_json()["error_code"] == "INVALID_FIELD"


def test_on_a_development_run_the_real_updater_runs_detached(
        client: FlaskClient, repos: Repos, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDPANEL_SUPERVISOR", "dev")
    new = repos.release("second", {"core.py": "VERSION = 2\n"})
    assert client.post("/api/v3/system/update", json={}).status_code == 202
    deadline = time.monotonic() + 60
    shown = client.get("/api/v3/system/update").get_json()["data"]
    while shown["running"] and time.monotonic() < deadline:
        time.sleep(0.1)  # polling for the verdict, as the page does
        shown = client.get("/api/v3/system/update").get_json()["data"]
    assert shown["result"] == "updated", shown
    assert repos.head() == new
    assert "restart skipped" in shown["message"]


def test_not_a_checkout_cannot_update(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDPANEL_SUPERVISOR", "systemd")
    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "c")
    app = create_app(WebSettings(paths=paths, ack_timeout=0.5))
    answer = app.test_client().post("/api/v3/system/update", json={})
    assert answer.status_code == 409 and answer.get_json()["error_code"] == "NOT_A_CHECKOUT"


@pytest.mark.parametrize("junk", ["fifo", "garbage", "folder", "huge"])
def test_a_state_file_that_is_no_state_reads_as_none(client: FlaskClient, repos: Repos,
                                                     junk: str) -> None:
    path = repos.cache / "core_update" / "state.json"
    path.parent.mkdir(parents=True)
    if junk == "fifo":
        os.mkfifo(path)
    elif junk == "folder":
        path.mkdir()
    else:
        path.write_text("{" if junk == "garbage" else '{"message": "' + "x" * 100_000 + '"}')
    answer = client.get("/api/v3/system/update")
    assert answer.status_code == 200
    assert answer.get_json()["data"]["result"] is None
