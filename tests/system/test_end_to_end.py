"""Both daemons as real subprocesses over temp dirs, talking over the bus and loopback HTTP."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import Instance, running

pytestmark = pytest.mark.timeout(120)

PLUGIN_CODE = '''
import json
from pathlib import Path

from PIL import ImageDraw

from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    modes = {modes!r}

    def update(self):
        pass

    def display(self, force_clear=False):
        draw = ImageDraw.Draw(self.display_manager.image)
        draw.rectangle((0, 0, 3, 3), fill=(255, 0, 0))
        self.display_manager.update_display()
        return True

    def on_config_change(self, new_config):
        super().on_config_change(new_config)
        out = Path(__file__).with_name("seen_config.json")
        out.write_text(json.dumps(new_config))
'''


def _plugin(instance: Instance, plugin_id: str, modes: list[str]) -> Path:
    directory = instance.plugins_dir / plugin_id
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": plugin_id, "name": plugin_id, "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": "Plugin", "display_modes": modes,
        "compatible_versions": [">=3.0.0"]}))
    (directory / "config_schema.json").write_text(json.dumps({
        "type": "object", "properties": {
            "enabled": {"type": "boolean", "default": False},
            "message": {"type": "string", "default": "hi"}}}))
    (directory / "manager.py").write_text(PLUGIN_CODE.format(modes=modes))
    return directory


def _write_config(instance: Instance, durations: dict[str, float]) -> None:
    template = json.loads(Path("config/config.template.json").read_text())
    template["display_durations"] = durations
    template["alpha"] = {"enabled": True}
    template["beta"] = {"enabled": True}
    instance.write_config(template)


@pytest.fixture
def instance(tmp_path: Path) -> Instance:
    inst = Instance(tmp_path)
    _plugin(inst, "alpha", ["alpha_one", "alpha_two"])
    _plugin(inst, "beta", ["beta"])
    _write_config(inst, {"alpha": 30, "beta": 30})
    return inst


def _wait(predicate, timeout=10.0, interval=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("condition not met in time")


def test_on_demand_round_trip_and_rotation_resumes(instance: Instance):
    # Rotation: alpha_one, alpha_two (1 s each), then beta for 600 s. The on-demand
    # interrupts beta, so a rotation that restarted from the top (or moved on to the
    # next entry) on stop would show alpha_one, not beta.
    _write_config(instance, {"alpha": 1, "beta": 600})
    bus = Bus(instance.cache_dir)
    with running(instance) as (display, web, url):
        status = _wait(lambda: (s := requests.get(f"{url}/api/v3/system/status").json()["data"])
                       ["display"]["service"] == "running" and s["display"]["plugin_id"] and s)
        assert status["hardware"]["cause"] == "forced"
        seen = _wait(lambda: (s := bus.read(keys.DISPLAY_STATE))["plugin_id"] == "beta" and s,
                     timeout=60)
        before = (seen["plugin_id"], seen["mode"])
        assert before == ("beta", "beta")

        response = requests.post(f"{url}/api/v3/display/on-demand/start",
                                 json={"plugin_id": "alpha", "mode": "alpha_two",
                                       "pinned": True})
        assert response.status_code == 200, response.text
        data = response.json()["data"]
        assert (data["state"], data["service"], data["plugin_id"]) == ("active", "running", "alpha")

        state = bus.read(keys.DISPLAY_STATE)
        assert state["on_demand"]["request_id"] == data["request_id"]
        assert state["on_demand"]["state"] == "active"
        assert bus.read(keys.DISPLAY_ON_DEMAND_CONFIG)["plugin_id"] == "alpha"
        showing = _wait(lambda: (s := bus.read(keys.DISPLAY_STATE))["plugin_id"] == "alpha" and s)
        assert showing["mode"] == "alpha_two"
        assert bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST) == []  # consumed

        response = requests.post(f"{url}/api/v3/display/on-demand/stop", json={})
        assert response.status_code == 200, response.text
        stop = response.json()["data"]
        assert stop["state"] in ("stopped", "idle")
        assert stop["current"] == {"plugin_id": "beta", "mode": "beta"}
        assert bus.read(keys.DISPLAY_ON_DEMAND_CONFIG) is None
        resumed = _wait(lambda: (s := bus.read(keys.DISPLAY_STATE))["on_demand"]["state"]
                        == stop["state"] and s["on_demand"]["plugin_id"] is None and s)
        assert (resumed["plugin_id"], resumed["mode"]) == before
    assert display.process.returncode == 0, display.output()
    assert web.process.returncode == 0, web.output()


def test_saved_plugin_config_reaches_the_running_plugin(instance: Instance):
    seen = instance.plugins_dir / "alpha" / "seen_config.json"
    bus = Bus(instance.cache_dir)
    with running(instance) as (_display, _web, url):
        _wait(lambda: (bus.read(keys.DISPLAY_STATE) or {}).get("plugin_id"))
        response = requests.post(f"{url}/api/v3/plugins/config",
                                 json={"plugin_id": "alpha", "message": "hello wall"})
        assert response.status_code == 200, response.text
        change = bus.read(keys.CONFIG_CHANGED)
        _wait(lambda: (bus.read(keys.DISPLAY_STATE) or {}).get("config_seq") == change["seq"])
        config = json.loads(_wait(lambda: seen.exists() and seen.read_text()))
        assert config["message"] == "hello wall"
        assert config["enabled"] is True


def test_on_demand_for_an_unknown_plugin_is_refused_without_a_request(instance: Instance):
    bus = Bus(instance.cache_dir)
    with running(instance) as (_display, _web, url):
        response = requests.post(f"{url}/api/v3/display/on-demand/start",
                                 json={"plugin_id": "gamma"})
        assert response.status_code == 400
        assert response.json()["error_code"] == "UNKNOWN_PLUGIN"
        assert bus.pending(keys.DISPLAY_ON_DEMAND_REQUEST) == []
