"""No config file takes the daemons down: real daemons over hand-edited files."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.daemons import ROOT, Instance, running, start_display, start_web
from tests.display_service.helpers import wait_until as wait_for
from tests.system.test_no_lost_changes import make_instance, running_state, state, stored

pytestmark = pytest.mark.timeout(180)

GOOD_BACKUP = "config.json.backup.20260101_000000_000000"

# hand edit -> words the reported problem holds
HOSTILE_FILES = {
    "nan": ('"brightness": NaN', "NaN is not a JSON number"),
    "deep": ('"deep": ' + "[" * 700 + "]" * 700, "nested deeper than"),
    "digits": ('"brightness": ' + "9" * 4300, "integer with more than"),
    "huge": ('"padding": "' + "x" * (5 * 1024 * 1024) + '"', "is larger than"),
}


def template() -> dict[str, Any]:
    return json.loads((ROOT / "config" / "config.template.json").read_text())


def plant(instance: Instance, edit: str) -> Path:
    """Keep a good backup (brightness 33) and make config.json the hand edit."""
    good = {**template(), "still": {"enabled": True}, "brightness": 33}
    good["display"]["hardware"]["brightness"] = 33
    backups = instance.config_dir / "backups"
    backups.mkdir(parents=True, exist_ok=True)
    (backups / GOOD_BACKUP).write_text(json.dumps(good))
    config_file = instance.config_dir / "config.json"
    text = json.dumps({**template(), "still": {"enabled": True}}, indent=2)
    config_file.write_text(text[:-2] + ",\n  " + edit + "\n}\n")
    return config_file


@pytest.mark.parametrize("case", sorted(HOSTILE_FILES))
def test_a_hostile_config_file_runs_the_display_on_the_newest_good_backup(
        tmp_path: Path, case: str) -> None:
    edit, words = HOSTILE_FILES[case]
    instance = make_instance(tmp_path)
    config_file = plant(instance, edit)
    planted = config_file.read_bytes()
    with running(instance) as (display, _web, url):
        shown = running_state(instance, display)
        assert shown["brightness"] == 33, display.output()  # the backup's value
        assert words in shown["config_problem"] and GOOD_BACKUP in shown["config_problem"]
        answer = requests.get(f"{url}/api/v3/config/main", timeout=5)
        assert answer.status_code == 409, answer.text
        assert answer.json()["error_code"] == "CONFIG_INVALID_JSON"
        assert words in answer.json()["message"]
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        assert not status["config"]["ok"]
        assert any(words in p["message"] for p in status["config"]["problems"])
        time.sleep(0.5)
        assert display.process.poll() is None, display.output()
    assert "Traceback" not in display.output()
    assert config_file.read_bytes() == planted  # left for the user to fix


def test_a_hostile_hand_edit_while_running_is_reported_not_applied(tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    config_file = instance.config_dir / "config.json"
    with running(instance) as (display, _web, _url):
        running_state(instance, display)
        text = json.dumps(stored(instance), indent=2)
        for edit, words in HOSTILE_FILES.values():
            config_file.write_text(text[:-2] + ",\n  " + edit + "\n}\n")
            wait_for(lambda w=words: w in (state(instance).get("config_problem") or ""))
            assert display.process.poll() is None, display.output()


def test_the_raw_editor_replaces_a_file_that_cannot_be_used_and_keeps_a_copy(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    config_file = plant(instance, HOSTILE_FILES["nan"][0])
    bad = config_file.read_bytes()
    display = start_display(instance)
    web, url = start_web(instance)
    try:
        running_state(instance, display)
        assert requests.post(f"{url}/api/v3/config/main", json={"brightness": 40},
                             timeout=5).status_code == 409  # a partial save needs a file
        raw = requests.get(f"{url}/api/v3/config/raw/main", timeout=5).json()["data"]
        assert "NaN" in raw["content"]
        repaired = {**template(), "still": {"enabled": True}, "brightness": 44}
        repaired["display"]["hardware"]["brightness"] = 44
        answer = requests.post(f"{url}/api/v3/config/raw/main", data=json.dumps(repaired),
                               timeout=10, headers={"Content-Type": "application/json"})
        assert answer.status_code == 200, answer.text
        assert stored(instance)["brightness"] == 44
        backups = instance.config_dir / "backups"
        kept = sorted(backups.glob("config.json.bad.*"))
        assert [p.read_bytes() for p in kept] == [bad]
        # The good backups were not pushed out or joined by the bad file.
        assert sorted(p.name for p in backups.glob("config.json.backup.*")) == [GOOD_BACKUP]
        wait_for(lambda: state(instance).get("brightness") == 44
                 and state(instance).get("config_problem") is None)
        # A replacement that breaks a rule is still refused, and the file stays usable.
        config_file.write_text('{"brightness": ')
        answer = requests.post(f"{url}/api/v3/config/raw/main", timeout=10,
                               data=json.dumps({**repaired, "brightness": 500}),
                               headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and "brightness" in answer.json()["message"]
        assert config_file.read_text() == '{"brightness": '
    finally:
        web.stop()
        display.stop()


def test_the_plugins_directory_stays_in_the_install_tree_and_waits_for_a_restart(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        before = stored(instance)
        for outside in ("/tmp", "../..", str(tmp_path)):
            answer = requests.post(f"{url}/api/v3/config/main", timeout=5,
                                   json={"plugin_system": {"plugins_directory": outside}})
            assert answer.status_code == 400, answer.text
            assert answer.json()["details"]["field"] == "plugin_system.plugins_directory"
        assert stored(instance) == before
        answer = requests.post(f"{url}/api/v3/config/main", timeout=5,
                               json={"plugin_system": {"plugins_directory": "plugins"}})
        assert answer.status_code == 200, answer.text
        data = answer.json()["data"]
        assert data["restart_required"] is True
        assert "plugin_system.plugins_directory" in data["restart_settings"]
        status = requests.get(f"{url}/api/v3/system/status", timeout=5).json()["data"]
        assert status["hardware"]["restart_required"] is True
        assert display.process.poll() is None


def test_a_save_the_bus_cannot_announce_still_reaches_the_display_and_says_so(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        # Something that is no file stands where the signal is written: publishing fails.
        blocker = instance.cache_dir / "config_changed.json"
        blocker.unlink(missing_ok=True)
        (blocker / "inside").mkdir(parents=True)
        answer = requests.post(f"{url}/api/v3/config/main", json={"brightness": 41}, timeout=5)
        assert answer.status_code == 200, answer.text
        warnings = answer.json()["data"]["warnings"]
        assert [w["setting"] for w in warnings] == ["bus"]
        assert "not signalled" in warnings[0]["message"]
        assert stored(instance)["brightness"] == 41
        wait_for(lambda: state(instance).get("brightness") == 41)  # from the file itself


def test_a_save_that_fails_to_write_keeps_the_backups(tmp_path: Path, monkeypatch) -> None:
    import shared.config.store as store_module
    from shared.config.backups import list_backups
    from shared.config.store import ConfigStore
    from shared.errors import AtomicWriteError
    from shared.paths import Paths

    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache")
    store = ConfigStore(paths)
    store.ensure()
    for n in range(7):
        store.update(lambda main, secrets, n=n: ({**main, "brightness": 10 + n}, secrets))
    before = [(p.name, p.read_bytes()) for p in list_backups(paths)]
    assert len(before) == 5
    config = paths.config_file.read_bytes()
    real = store_module.atomic_write_json

    def failing(path: Path, data: Any, *args: Any, **kwargs: Any) -> None:
        if path == paths.config_file:
            raise AtomicWriteError(f"could not write {path}: No space left on device")
        real(path, data, *args, **kwargs)

    monkeypatch.setattr(store_module, "atomic_write_json", failing)
    with pytest.raises(AtomicWriteError):
        store.update(lambda main, secrets: ({**main, "brightness": 99}, secrets))
    assert [(p.name, p.read_bytes()) for p in list_backups(paths)] == before
    assert paths.config_file.read_bytes() == config
