"""Plugins written for the existing system run unmodified: nine of them, real daemons.

Each plugin of ``tests/community_plugins`` is copied unchanged into ``plugin-repos/``;
the real display daemon (headless) and web daemon run them. Each is listed as
installed (one starts disabled and is switched on through the API), they rotate, each
is shown on demand with a frame that is not blank in the preview, the web-UI action of
one runs, and at the end none has a load error or a recorded failure.
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests
from PIL import Image

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, running
from tests.display_service.helpers import wait_until

pytestmark = pytest.mark.timeout(240)

SOURCE = Path(__file__).parents[1] / "community_plugins"
PLUGINS = sorted(p.name for p in SOURCE.iterdir() if (p / "manifest.json").is_file())
WEATHER = {"temp": 21, "summary": "Sunny"}
SWITCHED_ON_LATER = "countdown"  # starts disabled; the user enables it through the API


def _logo(color: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (40, 40), (*color, 255)).save(out, "PNG")
    return out.getvalue()


SCOREBOARD = {"events": [{"competitors": [
    {"homeAway": "home", "id": 12, "abbreviation": "KC", "score": 24},
    {"homeAway": "away", "id": 33, "abbreviation": "BUF", "score": 21}]}]}
ANSWERS: dict[str, tuple[str, bytes]] = {
    "/weather": ("application/json", json.dumps(WEATHER).encode()),
    "/scoreboard": ("application/json", json.dumps(SCOREBOARD).encode()),
    "/standings": ("application/json", json.dumps({"leader": "KC 11-2"}).encode()),
    "/logos/KC.png": ("image/png", _logo((200, 0, 0))),
    "/logos/BUF.png": ("image/png", _logo((0, 0, 200))),
}


class _Services(BaseHTTPRequestHandler):
    """The weather API, the scores API and the logo host the plugins call."""

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        kind, body = ANSWERS.get(self.path.partition("?")[0], ("text/plain", b""))
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture
def services() -> Iterator[str]:
    """A loopback stand-in for the web services the plugins call; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Services)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def make_instance(base: Path, services_url: str, switched_off: str | None = SWITCHED_ON_LATER,
                  duration: int | None = 2) -> Instance:
    instance = Instance(base)
    instance.plugins_dir.mkdir(parents=True)
    for plugin_id in PLUGINS:
        shutil.copytree(SOURCE / plugin_id, instance.plugins_dir / plugin_id)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id in PLUGINS:
        config[plugin_id] = {"enabled": plugin_id != switched_off}
        if duration is not None:
            config.setdefault("display_durations", {})[plugin_id] = duration
    config["http-weather"]["api_url"] = f"{services_url}/weather"
    config["scoreboard"]["base_url"] = services_url
    config["web-ui-info"] = {"enabled": False}
    instance.write_config(config)
    return instance


def frame(url: str) -> Image.Image | None:
    """Return the preview's latest frame (asking for it marks a viewer present)."""
    data = requests.get(f"{url}/api/v3/display/preview", timeout=5).json()["data"]
    if not data.get("png_base64"):
        return None
    return Image.open(io.BytesIO(base64.b64decode(data["png_base64"]))).convert("RGB")


def shows(instance: Instance, url: str, plugin_id: str, mode: str | None = None) -> None:
    """Run ``plugin_id`` on demand; wait until the panel shows it with something drawn."""
    body: dict[str, Any] = {"plugin_id": plugin_id, "pinned": True}
    if mode:
        body["mode"] = mode
    answer = requests.post(f"{url}/api/v3/display/on-demand/start", json=body, timeout=10)
    assert answer.status_code == 200, answer.text
    bus = Bus(instance.cache_dir)

    def drawn() -> bool:
        state = bus.read(keys.DISPLAY_STATE) or {}
        if state.get("plugin_id") != plugin_id or (mode and state.get("mode") != mode):
            return False
        image = frame(url)
        return image is not None and image.getbbox() is not None

    wait_until(drawn, timeout=20)


def test_community_plugins_run_unmodified_with_zero_errors(
        tmp_path: Path, services: str) -> None:
    assert len(PLUGINS) >= 9
    instance = make_instance(tmp_path, services)
    with running(instance) as (display, _web, url):
        installed = requests.get(f"{url}/api/v3/plugins/installed", timeout=10).json()["data"]
        by_id = {p["id"]: p for p in installed}
        assert set(PLUGINS) <= set(by_id)
        assert by_id[SWITCHED_ON_LATER]["enabled"] is False
        answer = requests.post(f"{url}/api/v3/plugins/toggle", json={
            "plugin_id": SWITCHED_ON_LATER, "enabled": True}, timeout=10)
        assert answer.status_code == 200, answer.text
        wait_until(lambda: set(PLUGINS) <= set(
            (Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}).get("loaded_plugins", [])),
            timeout=30)
        # They rotate with each other (and each plugin's turn draws something).
        seen: set[str] = set()

        def rotated() -> bool:
            seen.add((Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}).get("plugin_id"))
            return len(seen & set(PLUGINS)) >= 3

        wait_until(rotated, timeout=30)
        # The web-UI action runs from the plugin's folder; the plugin shows its result.
        answer = requests.post(f"{url}/api/v3/plugins/action", json={
            "plugin_id": "file-actions", "action_id": "set-message",
            "params": {"message": "HI PANEL"}}, timeout=30)
        assert answer.status_code == 200, answer.text
        assert answer.json()["data"] == {"status": "success",
                                         "message": "message set to HI PANEL", "length": 8}
        assert (instance.plugins_dir / "file-actions" / "message.txt").read_text() == "HI PANEL"
        for plugin_id in PLUGINS:
            shows(instance, url, plugin_id)
        for mode in ("mm_standings", "mm_news"):
            shows(instance, url, "multi-mode", mode)
        requests.post(f"{url}/api/v3/display/on-demand/stop", json={}, timeout=10)

        state = Bus(instance.cache_dir).read(keys.DISPLAY_STATE) or {}
        assert state.get("load_errors") == {}, state.get("load_errors")
        errors = Bus(instance.cache_dir).read(keys.PLUGIN_ERRORS) or {}
        assert {p: e for p, e in errors.items() if p in PLUGINS} == {}
        assert display.process.poll() is None
    assert "Traceback" not in display.output()
    # The sports board's team logos were downloaded into its folder, real images.
    for team, color in (("KC", (200, 0, 0)), ("BUF", (0, 0, 200))):
        with Image.open(instance.plugins_dir / "scoreboard" / "logos" / f"{team}.png") as logo:
            assert logo.convert("RGB").getpixel((5, 5)) == color
    # Its scores came through the background service, its standings through APIHelper.
    cached = instance.cache_dir / "plugins"
    assert "BUF" in next(cached.glob("scoreboard_nfl_*.json")).read_text()
    assert "KC 11-2" in (cached / "standings.json").read_text()
