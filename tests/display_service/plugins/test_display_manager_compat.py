"""The display manager surface plugins for the existing system use, on every backend,
and the managers a plugin reaches from inside the real display daemon."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from display_service.matrix.orientation import wrap_backend
from display_service.matrix.select import open_backend
from display_service.plugins.display_manager import DisplayManager
from shared.paths import Paths
from shared.plugin_api.base_plugin import BasePlugin
from shared.plugin_api.cache.manager import CacheManager
from shared.plugin_system.manager import PluginManager
from tests.daemons import ROOT, Instance, start_display
from tests.display_service import fake_rgbmatrix
from tests.display_service.helpers import wait_until
from tests.hostile_plugins import install

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
HAS_EMULATOR = importlib.util.find_spec("RGBMatrixEmulator") is not None


def config(brightness: int = 60, **hardware: Any) -> dict[str, Any]:
    base = {"rows": 32, "cols": 64, "chain_length": 2, "parallel": 1,
            "hardware_mapping": "vendor-hat", "pixel_mapper_config": ""}
    return {"brightness": brightness,
            "display": {"hardware": {**base, **hardware}, "runtime": {"gpio_slowdown": 3}}}


def shown(backend: Any) -> Image.Image:
    """Return the frame on the panel, read back from the backend itself."""
    inner = getattr(backend, "inner", backend)
    if hasattr(inner, "last_frame"):
        return inner.last_frame
    if hasattr(inner, "last_pixels"):
        return Image.fromarray(inner.last_pixels())
    return inner._matrix.active.pixels


@pytest.fixture(params=["headless", "fallback", "rgbmatrix", "rgbmatrix-rotated", "emulator"])
def display(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
            tmp_path: Path) -> Iterator[tuple[DisplayManager, str]]:
    kind = request.param
    settings = config()
    if kind == "emulator" and not HAS_EMULATOR:
        pytest.skip("the emulator extra is not installed")
    if kind.startswith("rgbmatrix"):
        fake_rgbmatrix.install(monkeypatch)
    if kind == "rgbmatrix-rotated":
        settings["orientation"] = 90
    if kind == "fallback":
        settings = config(parallel=7)  # refused by the rules: the headless fallback
    monkeypatch.chdir(tmp_path)  # the emulator writes its config into the cwd
    backend, status = open_backend(
        settings, force_headless=kind == "headless", emulator=kind == "emulator",
        board_reader=lambda: PI4 if kind.startswith("rgbmatrix") else None,
        workdir=tmp_path / "emu")
    expected = {"headless": "headless", "fallback": "headless", "emulator": "emulator"}
    assert backend.name == expected.get(kind, "rgbmatrix")
    assert status["ok"] is (kind != "fallback")
    surface = wrap_backend(backend, settings)
    yield DisplayManager(surface), kind
    surface.close()


def test_matrix_is_an_object_with_the_panel_size_and_brightness(
    display: tuple[DisplayManager, str],
) -> None:
    manager, kind = display
    matrix = manager.matrix
    assert matrix is not None
    size = (32, 128) if kind == "rgbmatrix-rotated" else (128, 32)
    assert (matrix.width, matrix.height) == (manager.width, manager.height) == size
    assert manager.image.size == size and manager.image.mode == "RGB"
    assert matrix.brightness == manager.backend.brightness == 60

    manager.bind_render_thread()
    matrix.brightness = 30  # applied on the render thread, before the next frame
    assert manager.backend.brightness == 60
    manager.process_deferred_updates()
    assert matrix.brightness == manager.backend.brightness == 30
    matrix.brightness = 500
    manager.process_deferred_updates()
    assert matrix.brightness == 100


def test_every_drawing_call_plugins_make_reaches_the_panel(
    display: tuple[DisplayManager, str],
) -> None:
    manager, kind = display
    manager.bind_render_thread()
    assert isinstance(manager.draw, ImageDraw.ImageDraw)
    assert manager.extra_small_font.size == 7
    assert manager.small_font.size == 8 and manager.regular_font.size == 8
    assert manager.get_font_height(manager.extra_small_font) == 7
    width = manager.get_text_width("12:45", manager.small_font)
    assert 0 < width < manager.width

    manager.clear()
    manager.draw.rectangle((0, 0, 1, 1), fill=(0, 0, 255))
    manager.draw_text("12:45", x=None, y=10, color=(255, 0, 0), small_font=True,
                      font=None, centered=True)
    manager.draw_text("A", 2, 2, (0, 255, 0), False, manager.extra_small_font, False)
    manager.update_display()
    frame = shown(manager.backend)
    pixels = manager.image.load()
    assert pixels is not None
    assert pixels[0, 0] == (0, 0, 255)
    reds = [(x, y) for x in range(manager.width) for y in range(manager.height)
            if pixels[x, y] == (255, 0, 0)]
    assert reds and min(y for _x, y in reds) >= 10
    assert abs(min(x for x, _y in reds) - (manager.width - width) // 2) <= 1
    assert any(pixels[x, y] == (0, 255, 0) for x in range(2, 8) for y in range(2, 9))
    assert manager.frames_pushed == 1
    assert frame.getbbox() is not None  # the panel itself shows the drawing

    manager.clear()
    manager.update_display()
    assert manager.frames_pushed == 2 and shown(manager.backend).getbbox() is None


def test_scrolling_state_deferred_work_and_refresh_rate(
    display: tuple[DisplayManager, str],
) -> None:
    manager, _kind = display
    assert isinstance(manager.refresh_hz, float) and manager.refresh_hz > 0
    assert manager.is_currently_scrolling() is False
    manager.set_scrolling_state(True, frame_hold=3)
    assert manager.is_currently_scrolling() is True
    assert manager.frame_interval == pytest.approx(3 / manager.refresh_hz)
    manager.set_scrolling_state(False)
    assert manager.is_currently_scrolling() is False

    ran: list[str] = []
    manager.defer_update(lambda: ran.append("late"), priority=5)
    manager.defer_update(lambda: ran.append("first"))
    manager.defer_update(lambda: ran.append("early"), priority=-1)
    assert ran == []
    assert manager.process_deferred_updates() == 3
    assert ran == ["early", "first", "late"]
    assert manager.process_deferred_updates() == 0


class Probe(BasePlugin):
    def update(self) -> None:
        return None

    def display(self, force_clear: bool = False) -> bool:
        return True


def test_plugin_manager_hands_out_fonts_and_config(tmp_path: Path) -> None:
    display = DisplayManager(open_backend(config(), force_headless=True)[0])
    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache")
    settings = {"timezone": "America/Chicago", "probe": {"enabled": True}}
    cache = CacheManager(paths.cache_dir)
    plugins = PluginManager(paths, settings, display_manager=display, cache_manager=cache)
    plugin = Probe("probe", {}, display, cache, plugins)

    assert plugins.font_manager is display.font_manager
    assert plugin._get_font_manager() is display.font_manager
    assert plugins.config_manager.get_timezone() == "America/Chicago"
    assert cache.config_manager is plugins.config_manager
    loaded = cache.config_manager.load_config()
    assert loaded == settings and loaded is not settings
    loaded["timezone"] = "changed"
    assert plugins.config_manager.get_timezone() == "America/Chicago"


PROBE_PLUGIN = '''
import json
import os
from pathlib import Path

from shared.plugin_api.base_plugin import BasePlugin

HERE = Path(__file__).parent


class Plugin(BasePlugin):
    def __init__(self, *args):
        super().__init__(*args)
        self.deferred_ran = False
        self.report = {}

    def update(self):
        cache = self.cache_manager
        cache.set("../../escape/" + "k" * 300, {"v": 1})
        self.report["cache_round_trip"] = cache.get("../../escape/" + "k" * 300,
                                                    max_age=60) == {"v": 1}
        self.report["cache_strategy"] = cache.get_cached_data_with_strategy(
            "../../escape/" + "k" * 300, "weather") == {"v": 1}
        self.report["cache_hit_rate"] = cache.get_cache_metrics()["cache_hit_rate"]
        self.report["cache_timezone"] = cache.config_manager.get_timezone()

    def display(self, force_clear=False):
        dm = self.display_manager
        fonts = self._get_font_manager()
        self.report.update(
            matrix=[dm.matrix.width, dm.matrix.height, dm.matrix.brightness],
            size=[dm.width, dm.height], image=list(dm.image.size),
            fonts_shared=fonts is not None and fonts is self.plugin_manager.font_manager
            and fonts is dm.font_manager,
            timezone=self.plugin_manager.config_manager.get_timezone(),
            config_has_display="display" in self.plugin_manager.config_manager.load_config(),
            extra_small=dm.extra_small_font.size, refresh_hz=dm.refresh_hz,
            deferred_ran=self.deferred_ran,
        )
        dm.set_scrolling_state(True, frame_hold=2)
        self.report["scrolling"] = dm.is_currently_scrolling()
        dm.defer_update(lambda: setattr(self, "deferred_ran", True), priority=0)
        dm.clear()
        dm.draw_text("HI", y=4, color=(255, 255, 0), small_font=True, centered=True)
        dm.update_display()
        tmp = HERE / "report.tmp"
        tmp.write_text(json.dumps(self.report))
        os.replace(tmp, HERE / "report.json")
        return True
'''


def test_a_plugin_in_the_real_daemon_reaches_every_manager(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    settings = json.loads((ROOT / "config" / "config.template.json").read_text())
    settings["timezone"] = "Europe/Oslo"
    settings["probe"] = {"enabled": True}
    install(instance.plugins_dir, "probe", PROBE_PLUGIN)
    instance.write_config(copy.deepcopy(settings))
    hardware = settings["display"]["hardware"]
    size = [hardware["cols"] * hardware["chain_length"], hardware["rows"] * hardware["parallel"]]
    report_file = instance.plugins_dir / "probe" / "report.json"

    def report() -> dict[str, Any]:
        try:
            found = json.loads(report_file.read_text())
        except (OSError, ValueError):
            return {}
        return found if found.get("deferred_ran") and "cache_timezone" in found else {}

    daemon = start_display(instance)
    try:
        found = wait_until(report, timeout=30)
    finally:
        assert daemon.stop() == 0, daemon.output()
    assert found["matrix"][:2] == found["size"] == found["image"] == size
    assert 1 <= found["matrix"][2] <= 100
    assert found["fonts_shared"] is True and found["extra_small"] == 7
    assert found["timezone"] == found["cache_timezone"] == "Europe/Oslo"
    assert found["config_has_display"] is True and found["refresh_hz"] > 0
    assert found["scrolling"] is True
    assert found["cache_round_trip"] is True and found["cache_strategy"] is True
    assert 0 < found["cache_hit_rate"] <= 1
    cache_files = list((instance.cache_dir / "plugins").iterdir())
    assert len(cache_files) == 1 and cache_files[0].name.startswith("key-")
    assert json.loads(cache_files[0].read_text())["owner"] == "probe"
    assert not (instance.cache_dir / "escape").exists()
    assert not (tmp_path / "escape").exists()
    assert "Traceback" not in daemon.output()
    assert os.path.isfile(report_file)
