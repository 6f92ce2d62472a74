"""Web UI Info plugin: valid manifest and schema, loads enabled by default, draws in bounds."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from jsonschema.validators import validator_for
from PIL import Image, ImageDraw

from shared.bus.core import WEB_STATE, Bus
from shared.bus.daemon_lock import WEB, DaemonLock
from shared.config.prepare import prepare_plugin_config, validate_plugin_config
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager
from shared.plugin_system.manifest import manifest_errors, store_errors

PLUGIN_DIR = Path(__file__).resolve().parent.parent
SIZES = [(64, 32), (128, 32), (32, 16), (16, 8), (192, 64), (64, 64), (256, 128)]


class FakeDisplayManager:
    """A drawing surface with the display manager's real attributes, no hardware."""

    def __init__(self, width: int = 64, height: int = 32) -> None:
        self.width = width
        self.height = height
        self.matrix = None
        self.image = Image.new("RGB", (width, height))
        self.draw = ImageDraw.Draw(self.image)
        self.updates = 0
        self.clears = 0

    def clear(self) -> None:
        self.clears += 1
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = ImageDraw.Draw(self.image)

    def update_display(self) -> None:
        self.updates += 1


def load(tmp_path: Path, config: dict[str, Any], size: tuple[int, int] = (64, 32)) -> Any:
    """Load the plugin the way the display daemon does, from its real folder."""
    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache",
                  plugins_dir_override=PLUGIN_DIR.parent)
    manager = PluginManager(paths, config, display_manager=FakeDisplayManager(*size))
    manager.load_enabled()
    assert "web-ui-info" not in manager.load_errors
    return manager.instances["web-ui-info"]


def module_of(plugin: Any) -> ModuleType:
    return sys.modules[type(plugin).__module__]


def lit_pixels(image: Image.Image) -> int:
    return sum(1 for value in image.convert("L").tobytes() if value > 40)


def test_manifest_is_valid_for_the_core_and_the_store() -> None:
    manifest = json.loads((PLUGIN_DIR / "manifest.json").read_text(encoding="utf-8"))
    assert manifest_errors(manifest) == []
    assert store_errors(manifest) == []
    assert manifest["display_modes"] == ["web-ui-info"]
    assert manifest["default_duration"] == 10


def test_config_schema_is_valid_and_its_defaults_validate() -> None:
    schema = json.loads((PLUGIN_DIR / "config_schema.json").read_text(encoding="utf-8"))
    validator_for(schema).check_schema(schema)
    prepared = prepare_plugin_config({}, schema)
    assert prepared == {"title": "Web UI", "show_hostname": True, "show_ip": True,
                        "title_color": [0, 160, 255], "text_color": [255, 255, 255]}
    assert validate_plugin_config(prepared, schema) == []
    assert validate_plugin_config({"text_color": [300, 0, 0]}, schema) != []


def test_loads_enabled_by_default_and_can_be_disabled(tmp_path: Path) -> None:
    plugin = load(tmp_path, {})
    assert plugin.config["title"] == "Web UI"
    assert plugin.display_duration == 10.0

    paths = Paths(root=tmp_path, config_dir=tmp_path, cache_dir=tmp_path / "cache",
                  plugins_dir_override=PLUGIN_DIR.parent)
    manager = PluginManager(paths, {"web-ui-info": {"enabled": False}})
    assert "web-ui-info" not in manager.load_enabled()


@pytest.mark.parametrize("size", SIZES)
def test_draws_within_the_panel_without_hardware(tmp_path: Path, size: tuple[int, int]) -> None:
    plugin = load(tmp_path, {}, size)
    panel = plugin.display_manager
    assert panel.matrix is None

    assert plugin.display(force_clear=True) is True

    assert panel.updates == 1
    assert lit_pixels(panel.image) > 0
    width, height = size
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for line in plugin.current_lines(width, height):
        left, top, right, bottom = measure.textbbox((line.x, line.y), line.text, font=line.font)
        assert 0 <= left and right <= width, (size, line.text)
        assert 0 <= top and bottom <= height, (size, line.text)


@pytest.fixture
def web_running(tmp_path: Path) -> Any:
    """Act as a web daemon on the plugin's bus: hold its lock and say where it listens."""
    held: list[DaemonLock] = []

    def listen(host: str, port: int) -> None:
        cache = tmp_path / "cache"
        cache.mkdir(exist_ok=True)
        if not held:
            held.append(DaemonLock.acquire(cache, WEB))
        Bus(cache).publish(WEB_STATE, {"service": "running", "pid": os.getpid(),
                                       "host": host, "port": port})

    yield listen
    for lock in held:
        lock.release()


def texts(plugin: Any, size: tuple[int, int] = (192, 64)) -> list[str]:
    return [line.text for line in plugin.current_lines(*size)]


def test_shows_the_port_the_web_really_listens_on(tmp_path: Path, web_running: Any) -> None:
    plugin = load(tmp_path, {"web": {"port": 8080}}, (192, 64))
    web_running("0.0.0.0", 5123)  # not web.port: a --port flag won
    hostname, primary, _port = plugin._where()
    assert texts(plugin)[0] == "Web UI"
    assert texts(plugin)[-1] == f"{primary or hostname}:5123"


def test_a_web_bound_to_loopback_is_shown_as_localhost(tmp_path: Path, web_running: Any) -> None:
    plugin = load(tmp_path, {}, (192, 64))
    web_running("127.0.0.1", 5000)
    assert texts(plugin) == ["Web UI", "localhost:5000"]
    web_running("192.0.2.7", 8000)
    assert texts(plugin)[-1] == "192.0.2.7:8000"


def test_says_so_while_the_web_is_not_running(tmp_path: Path) -> None:
    plugin = load(tmp_path, {"web": {"port": 8080}}, (192, 64))
    assert texts(plugin) == ["Web UI", "not running"]


def test_an_older_host_without_web_address_gets_the_configured_port(tmp_path: Path) -> None:
    plugin = load(tmp_path, {"web": {"port": 8080}}, (192, 64))

    class OlderManager:
        config_manager = plugin.plugin_manager.config_manager

    plugin.plugin_manager = OlderManager()
    assert texts(plugin)[-1].endswith(":8080")


def test_without_ip_shows_host_name_with_port(tmp_path: Path, web_running: Any) -> None:
    plugin = load(tmp_path, {"web-ui-info": {"show_ip": False, "title": "Panel"}}, (192, 64))
    web_running("0.0.0.0", 5000)
    hostname = plugin._where()[0]
    assert texts(plugin) == ["Panel", f"{hostname}:5000"]


def test_config_change_redraws_with_the_new_title(tmp_path: Path) -> None:
    plugin = load(tmp_path, {}, (192, 64))
    plugin.display()
    plugin.on_config_change({"title": "Reach me", "show_ip": True})
    assert plugin.current_lines(192, 64)[0].text == "Reach me"


def test_address_helpers(tmp_path: Path) -> None:
    module = module_of(load(tmp_path, {}))
    address = module.primary_ipv4()
    assert address is None or not address.startswith("127.")
    assert module.web_port({"web": {"port": 8123}}) == 8123
    assert module.web_port({"web": {"port": "80"}}) == 5000
    assert module.web_port({}) == 5000
    lines = module.info_lines("T", "host", None, 5000)
    assert lines == [("T", 1), ("host:5000", 0)]
    assert module.info_lines("T", "host", "10.0.0.2", None) == [("T", 1), ("not running", 0)]
    assert module.shown_address("::", "10.0.0.2") == "10.0.0.2"
    assert module.shown_address("::1", "10.0.0.2") == "localhost"
    assert module.shown_address("10.0.0.9", "10.0.0.2") == "10.0.0.9"


def test_narrow_panels_keep_the_address_first(tmp_path: Path) -> None:
    module = module_of(load(tmp_path, {}))
    lines = module.info_lines("Web UI", "raspberrypi", "192.168.100.200", 5000)
    placed = module.layout(lines, 64, 8)
    assert [p.text for p in placed] == ["192.168.100.200:5000"]
