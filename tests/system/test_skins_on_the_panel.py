"""Skins on the real panel: the display daemon (headless) runs the fixture scoreboard with
a skin, the web daemon saves the choice, the preview shows which look drew each mode.

The built-in look is a red bar on top; ``half`` draws a blue one for live and upcoming
and returns False for recent; ``neon`` a green one; ``flaky`` raises in live.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import requests

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.plugin_api.skins.manifest import SKINS_DIR_ENV
from tests.daemons import ROOT, Instance, running, start_display
from tests.display_service.helpers import wait_until
from tests.system.test_community_plugins import frame
from tests.system.test_plugin_containment import safe_mode

pytestmark = [pytest.mark.timeout(240), pytest.mark.daemons]

FIXTURE = Path(__file__).parents[1] / "skin_fixture"
PLUGIN = "skin-scoreboard"
RED, GREEN, BLUE = (200, 0, 0), (0, 200, 0), (0, 0, 200)


def _instance(base: Path, skin: str) -> Instance:
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    shutil.copytree(FIXTURE / "plugins" / PLUGIN, instance.plugins_dir / PLUGIN)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config[PLUGIN] = {"enabled": True, "skin": skin, "skin_options": {"upcoming_seconds": 0.2}}
    config["web-ui-info"] = {"enabled": False}
    instance.write_config(config)
    return instance


def _bar_shows(instance: Instance, url: str, mode: str, color: tuple[int, int, int]) -> None:
    """Show ``mode`` on demand; wait until the preview's top bar has ``color``."""
    answer = requests.post(f"{url}/api/v3/display/on-demand/start", json={
        "plugin_id": PLUGIN, "mode": f"skin_scoreboard_{mode}", "pinned": True}, timeout=10)
    assert answer.status_code == 200, answer.text
    bus = Bus(instance.cache_dir)

    def shown() -> bool:
        state = bus.read(keys.DISPLAY_STATE) or {}
        if state.get("mode") != f"skin_scoreboard_{mode}":
            return False
        image = frame(url)
        return image is not None and image.getpixel((10, 1)) == color

    wait_until(shown, timeout=30)


def test_a_skin_draws_its_modes_and_the_built_in_look_fills_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SKINS_DIR_ENV, str(FIXTURE / "skins"))
    instance = _instance(tmp_path, "half")
    with running(instance) as (display, _web, url):
        _bar_shows(instance, url, "live", BLUE)
        _bar_shows(instance, url, "recent", RED)  # the skin returned False
        _bar_shows(instance, url, "upcoming", BLUE)
        wait_until(lambda: "over the 150 ms render budget" in display.output(), timeout=30)

        answer = requests.post(f"{url}/api/v3/plugins/config", json={
            "plugin_id": PLUGIN, "config": {"skin": "neon", "skin_options": {}}}, timeout=10)
        assert answer.status_code == 200, answer.text
        _bar_shows(instance, url, "live", GREEN)
        _bar_shows(instance, url, "recent", GREEN)


def test_a_raising_skin_is_disabled_and_never_fails_the_plugin(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SKINS_DIR_ENV, str(FIXTURE / "skins"))
    instance = _instance(tmp_path, "flaky")
    with running(instance) as (display, _web, url):
        _bar_shows(instance, url, "live", RED)
        wait_until(lambda: "disabled for this session" in display.output(), timeout=30)
        assert display.output().count("disabled for this session") == 1
        installed = requests.get(f"{url}/api/v3/plugins/installed", timeout=10).json()["data"]
        record = next(p for p in installed if p["id"] == PLUGIN)
        assert not record.get("runtime_errors"), record
        assert not record.get("safe_mode"), record


def test_a_hung_skin_is_contained_as_its_plugin_would_be(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skins = tmp_path / "skins"
    shutil.copytree(FIXTURE / "skins" / "neon", skins / "hung")
    manifest = json.loads((skins / "hung" / "skin.json").read_text())
    (skins / "hung" / "skin.json").write_text(json.dumps({**manifest, "id": "hung"}))
    (skins / "hung" / "skin.py").write_text(
        "import time\n\nfrom src.skin_system import ScoreboardSkin\n\n\n"
        "class NeonSkin(ScoreboardSkin):\n"
        "    def render_live(self, ctx, game):\n        time.sleep(600)\n")
    monkeypatch.setenv(SKINS_DIR_ENV, str(skins))
    instance = _instance(tmp_path / "instance", "hung")
    display = start_display(instance, "--hang-seconds", "1.5")
    try:
        wait_until(lambda: PLUGIN in safe_mode(instance), timeout=60)
        assert display.process.poll() is None  # started afresh in place, without the plugin
    finally:
        display.stop()
