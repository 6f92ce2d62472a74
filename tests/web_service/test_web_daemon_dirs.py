"""The web daemon names its directories to the programs it starts (plugin action scripts)."""

from __future__ import annotations

import json
from pathlib import Path

import requests

from tests.daemons import Instance, start_web
from tests.web_service.conftest import write_plugin

SHOW_DIRS = (
    "import json, os\n"
    "names = ['LEDPANEL_CONFIG_DIR', 'LEDPANEL_CACHE_DIR', 'LEDPANEL_PLUGINS_DIR']\n"
    "print(json.dumps({'status': 'success', 'dirs': {n: os.environ.get(n) for n in names}}))\n"
)


def test_an_action_script_sees_the_web_daemons_directories(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    plugin_dir = write_plugin(instance.plugins_dir, "clock")
    (plugin_dir / "dirs.py").write_text(SHOW_DIRS)
    manifest = json.loads((plugin_dir / "manifest.json").read_text())
    manifest["web_ui_actions"] = [{"id": "dirs", "type": "script", "script": "dirs.py"}]
    (plugin_dir / "manifest.json").write_text(json.dumps(manifest))
    web, url = start_web(instance)
    try:
        answer = requests.post(f"{url}/api/v3/plugins/action", timeout=30,
                               json={"plugin_id": "clock", "action_id": "dirs"})
    finally:
        web.stop()
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["dirs"] == {
        "LEDPANEL_CONFIG_DIR": str(instance.config_dir.resolve()),
        "LEDPANEL_CACHE_DIR": str(instance.cache_dir.resolve()),
        "LEDPANEL_PLUGINS_DIR": str(instance.plugins_dir.resolve()),
    }
