"""End to end: a community-style plugin installed from the loopback repository host
through the API is shown by the running display on demand, updated (the panel changes
colour in the same session) and uninstalled, and neither daemon is restarted."""

from __future__ import annotations

import base64
import io
import time
from pathlib import Path

import pytest
import requests
from PIL import Image

from tests.display_service.helpers import wait_until
from tests.web_service.store.ops_daemons import ops_stack, push_plugin, serve_registry
from tests.web_service.store.repo_host import RepoHost

pytestmark = pytest.mark.timeout(300)

RED, GREEN = (255, 0, 0), (0, 200, 0)
PLUGIN = "sunset-board"


def preview_color(url: str) -> tuple[int, int, int] | None:
    data = requests.get(f"{url}/api/v3/display/preview", timeout=5).json()["data"]
    if not data or not data.get("png_base64"):
        return None
    image = Image.open(io.BytesIO(base64.b64decode(data["png_base64"]))).convert("RGB")
    return image.getpixel((1, 1))  # type: ignore[return-value]


def test_install_show_update_and_uninstall_without_a_restart(tmp_path: Path) -> None:
    with RepoHost() as host:
        push_plugin(host, PLUGIN, colour=RED)
        serve_registry(host, PLUGIN)
        with ops_stack(tmp_path, host) as stack:
            pids = (stack.display.process.pid, stack.web.process.pid)
            assert stack.state()["pid"] == pids[0]

            listed = requests.get(f"{stack.url}/api/v3/plugins/store/list", timeout=10,
                                  params={"query": "sunset"}).json()["data"]["plugins"]
            assert [entry["id"] for entry in listed] == [PLUGIN]
            installed = stack.run("install", {"plugin_id": PLUGIN})
            assert installed["state"] == "done", installed
            assert installed["result"]["display"]["result"] == "loaded"
            assert PLUGIN in stack.installed_ids()

            answer = requests.post(f"{stack.url}/api/v3/display/on-demand/start",
                                   json={"plugin_id": PLUGIN, "pinned": True}, timeout=10)
            assert answer.status_code == 200, answer.text
            wait_until(lambda: stack.state().get("plugin_id") == PLUGIN
                       and preview_color(stack.url) == RED, timeout=30)

            push_plugin(host, PLUGIN, colour=GREEN, version="1.1.0")
            updated = stack.run("update", {"plugin_id": PLUGIN})
            assert updated["state"] == "done", updated
            assert updated["result"]["update_status"] == "updated"
            assert updated["result"]["version"] == "1.1.0"
            assert updated["result"]["display"]["result"] == "reloaded"
            wait_until(lambda: preview_color(stack.url) == GREEN, timeout=30)
            assert stack.state().get("plugin_id") == PLUGIN

            removed = stack.run("uninstall", {"plugin_id": PLUGIN})
            assert removed["state"] == "done", removed
            assert removed["result"]["display"]["result"] == "unloaded"
            assert PLUGIN not in stack.installed_ids()
            wait_until(lambda: PLUGIN not in stack.state()["loaded_plugins"]
                       and stack.state().get("plugin_id") != PLUGIN, timeout=30)
            time.sleep(2.5)  # a rotation slot: it does not come back
            assert stack.state().get("plugin_id") != PLUGIN

            assert (stack.display.process.pid, stack.web.process.pid) == pids
            assert stack.display.process.poll() is None and stack.web.process.poll() is None
            assert stack.state()["pid"] == pids[0]
        assert "Traceback" not in stack.display.output()
        assert "Traceback" not in stack.web.output()
