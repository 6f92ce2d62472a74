"""A symlink in place of a config file is never followed: real web daemon, real links.

The raw editor, the settings, a save and the status would otherwise read (and show)
whatever the link points at. Each answer is the JSON envelope with an ``error_code``
saying what is in the file's place; the target is neither shown nor changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.daemons import Daemon, Instance, start_web
from tests.web_service.conftest import write_plugin

pytestmark = [pytest.mark.timeout(120), pytest.mark.daemons]

SECRET = "target-text-that-must-not-leak"


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[Instance, str, Path]]:
    instance = Instance(tmp_path)
    write_plugin(instance.plugins_dir, "clock")
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps({"leak": SECRET}))
    daemon: Daemon
    daemon, url = start_web(instance)
    try:
        yield instance, url, target
    finally:
        daemon.stop()


def _link(path: Path, target: Path) -> None:
    path.unlink(missing_ok=True)
    path.symlink_to(target)


def _refused(answer: requests.Response, name: str) -> None:
    assert answer.status_code == 409, answer.text
    body = answer.json()
    assert body["status"] == "error" and body["error_code"], body
    assert name in body["message"] and "symlink" in body["message"], body
    assert SECRET not in answer.text


@pytest.mark.parametrize("name", ["config.json", "config_secrets.json"])
def test_a_symlinked_config_file_is_refused_by_every_reader_and_never_written_through(
        web: tuple[Instance, str, Path], name: str) -> None:
    instance, url, target = web
    before = target.read_bytes()
    _link(instance.config_dir / name, target)
    api = f"{url}/api/v3"
    if name == "config.json":  # the settings shown never hold secrets
        _refused(requests.get(f"{api}/config/raw/main", timeout=10), name)
        _refused(requests.get(f"{api}/config/main", timeout=10), name)
    _refused(requests.post(f"{api}/config/main", json={"brightness": 41}, timeout=10), name)
    config = requests.get(f"{api}/system/status", timeout=10).json()["data"]["config"]
    assert not config["ok"] and any(
        name in problem["message"] and "symlink" in problem["message"]
        for problem in config["problems"]), config
    assert SECRET not in json.dumps(config)
    assert target.read_bytes() == before and (instance.config_dir / name).is_symlink()


def test_the_raw_editor_replaces_a_symlinked_config_with_a_file_leaving_the_target(
        web: tuple[Instance, str, Path]) -> None:
    instance, url, target = web
    before = target.read_bytes()
    config_file = instance.config_dir / "config.json"
    _link(config_file, target)
    answer = requests.post(f"{url}/api/v3/config/raw/main", json={"brightness": 42},
                           timeout=10)
    assert answer.status_code == 200, answer.text
    assert not config_file.is_symlink() and json.loads(config_file.read_text())["brightness"] == 42
    assert target.read_bytes() == before
    assert not any(SECRET in p.read_text(errors="replace")
                   for p in (instance.config_dir / "backups").glob("*") if p.is_file())


def test_a_symlinked_sign_in_file_is_not_read(web: tuple[Instance, str, Path]) -> None:
    instance, url, target = web
    target.write_text(json.dumps({"enabled": True, "password": {"hash": SECRET}}))
    _link(instance.config_dir / "sign_in.json", target)
    _refused(requests.get(f"{url}/api/v3/auth/status", timeout=10), "sign_in.json")
