"""Scripted Apps plugin: manifest and schema, modes from the apps folder, renders off the
render thread with the real worker, frames fitted to the panel, errors and backoff, the
bus record and previews, each app's own duration."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.bus.core import STARLARK_APPS, Bus
from shared.config.prepare import schema_problem, validate_plugin_config
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager
from shared.plugin_system.manifest import manifest_errors, store_errors
from shared.starlark.installed.folder import AppsFolder, apps_root
from shared.starlark.installed.package import from_folder_files
from shared.starlark.installed.render_status import preview_path
from tests.display_service.helpers import wait_until

PLUGIN_DIR = Path(__file__).resolve().parent.parent
SAMPLES = PLUGIN_DIR.parent.parent / "tests" / "shared" / "starlark" / "apps"
RED, GREEN, BLACK = (255, 0, 0), (0, 255, 0), (0, 0, 0)

# A red pixel at (3, 2) on black: where it lands tells how the frame was fitted.
DOT = '''load("render.star", "render")

def main(config):
    return render.Root(child = render.Padding(pad = (3, 2, 0, 0),
                       child = render.Box(width = 1, height = 1, color = "#f00")))
'''
# Fills the canvas green; says its canvas size through its frame's width.
FILL = '''load("render.star", "canvas", "render")

def main(config):
    return render.Root(child = render.Box(color = config.get("color", "#0f0")))
'''
# Blue when the app is told it draws at twice the size, else green.
TWICE = FILL.replace('config.get("color", "#0f0")', '"#00f" if canvas.is2x() else "#0f0"')
BROKEN = 'def main(config)\n    return 1\n'


def install(base: Path, app_id: str, files: dict[str, bytes]) -> None:
    AppsFolder(apps_root(paths_for(base))).install(from_folder_files(files, app_id))


def install_sample(base: Path, name: str) -> None:
    folder = SAMPLES / name
    files = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    install(base, name, files)


def paths_for(base: Path) -> Paths:
    return Paths(root=base, config_dir=base / "config", cache_dir=base / "cache",
                 plugins_dir_override=PLUGIN_DIR.parent, assets_dir_override=base / "assets")


@pytest.fixture
def loaded(tmp_path: Path) -> Iterator[Any]:
    """Load the plugin as the display does (real display manager, headless panel)."""
    made: list[PluginManager] = []

    def load(config: dict[str, Any], size: tuple[int, int] = (64, 32)) -> Any:
        display = DisplayManager(HeadlessMatrix(*size))
        display.bind_render_thread()
        manager = PluginManager(paths_for(tmp_path), {"web-ui-info": {"enabled": False},
                                                      "starlark-apps": config},
                                display_manager=display)
        manager.load_enabled()
        assert "starlark-apps" not in manager.load_errors, manager.load_errors
        made.append(manager)
        return manager.instances["starlark-apps"]

    yield load
    for manager in made:
        manager.unload_all()


def rendered(plugin: Any, app_id: str, timeout: float = 30) -> Any:
    return wait_until(lambda: plugin.renders.state(app_id), timeout=timeout)


def record(tmp_path: Path) -> dict[str, Any]:
    return Bus(tmp_path / "cache").read(STARLARK_APPS) or {}


def failed_times(plugin: Any, app_id: str, count: int) -> Any:
    state = plugin.renders.state(app_id)
    return state if state is not None and state.errors == count else None


def module_of(plugin: Any, name: str) -> ModuleType:
    return sys.modules[type(plugin).__module__.rsplit(".", 1)[0] + "." + name]


def test_manifest_and_schema_are_valid_and_the_design_section_passes() -> None:
    manifest = json.loads((PLUGIN_DIR / "manifest.json").read_text(encoding="utf-8"))
    assert manifest_errors(manifest) == [] and store_errors(manifest) == []
    assert manifest["display_modes"] == ["starlark-apps"] and manifest["enabled_by_default"]
    schema = json.loads((PLUGIN_DIR / "config_schema.json").read_text(encoding="utf-8"))
    assert schema_problem(schema) is None
    section = {"enabled": True, "render_interval": 300, "render_seconds": 3, "scale": "2x",
               "repository": "https://github.com/tronbyt/apps",
               "apps": {"clock": {"enabled": True, "duration": 15, "revision": 1764226000123,
                                  "config": {"color": "#f00"}}}}
    assert validate_plugin_config(section, schema) == []
    bads: list[dict[str, Any]] = [
        {"render_interval": 10}, {"render_seconds": 31}, {"scale": "3x"},
        {"apps": {"clock": {"duration": 4}}}, {"apps": {"clock": {"config": {"a": 1}}}},
        {"apps": {"Bad Id": {}}}]
    for bad in bads:
        assert validate_plugin_config(bad, schema) != [], bad


def test_no_apps_means_no_modes_and_nothing_to_show(loaded: Any) -> None:
    plugin = loaded({})
    assert plugin.modes == []
    assert plugin.display(force_clear=True, display_mode="starlark-apps") is False


def test_installed_enabled_apps_are_modes_in_id_order(tmp_path: Path, loaded: Any) -> None:
    for app_id in ("zeta", "alpha", "off"):
        install(tmp_path, app_id, {f"{app_id}.star": FILL.encode()})
    plugin = loaded({"apps": {"off": {"enabled": False}}})
    assert plugin.modes == ["starlark-alpha", "starlark-zeta"]
    plugin.on_config_change({"apps": {"zeta": {"enabled": False}}})
    assert plugin.modes == ["starlark-alpha", "starlark-off"]


def test_an_app_renders_off_the_render_thread_and_shows(tmp_path: Path, loaded: Any) -> None:
    install(tmp_path, "dot", {"dot.star": DOT.encode()})
    plugin = loaded({})
    assert plugin.renders.state("dot") is None  # loading did not wait for a render
    assert plugin.display(force_clear=True, display_mode="starlark-dot") is False
    state = rendered(plugin, "dot")
    assert state.error is None and state.frames == 1
    assert plugin.display(force_clear=True, display_mode="starlark-dot") is True
    panel = plugin.display_manager.backend.last_frame
    assert panel.getpixel((3, 2)) == RED and panel.getpixel((4, 2)) == BLACK
    assert plugin.needs_high_fps is False
    entry = wait_until(lambda: (e := record(tmp_path).get("apps", {}).get("dot"))
                       and e["rendered_at"] and e)
    assert entry["frames"] == 1 and entry["error"] is None and entry["errors"] == 0
    assert entry["scale"] == "magnify x1" and entry["held"] is False
    assert record(tmp_path)["runtime"].startswith("ledpanel-starlark")
    with Image.open(wait_until(lambda: (p := preview_path(tmp_path / "cache", "dot")).exists()
                               and p)) as preview:
        assert preview.format == "WEBP" and preview.size == (64, 32)
    assert preview_path(tmp_path / "cache", "dot").stat().st_mode & 0o777 == 0o664  # the web's
    # Nothing else due for 300 s: the worker (some 50 MB) is stopped, the thread waits.
    wait_until(lambda: not plugin.renders.worker_running())
    assert plugin.renders.running()


@pytest.mark.parametrize(("panel", "scale", "dots"), [
    ((128, 64), "magnify", [(6, 4), (7, 5)]),
    ((96, 48), "magnify", [(19, 10)]),
    ((192, 64), "magnify", [(38, 4), (39, 5)]),
    ((128, 64), "none", [(35, 18)]),
])
def test_frames_are_fitted_to_the_panel_by_whole_pixels(
        tmp_path: Path, loaded: Any, panel: tuple[int, int], scale: str,
        dots: list[tuple[int, int]]) -> None:
    install(tmp_path, "dot", {"dot.star": DOT.encode()})
    plugin = loaded({"scale": scale}, panel)
    rendered(plugin, "dot")
    assert plugin.display(force_clear=True, display_mode="starlark-dot") is True
    frame = plugin.display_manager.backend.last_frame
    assert frame.size == panel
    red = {(x, y) for x in range(panel[0]) for y in range(panel[1])
           if frame.getpixel((x, y)) == RED}
    low, high = dots[0], dots[-1]
    assert red == {(x, y) for x in range(low[0], high[0] + 1) for y in range(low[1], high[1] + 1)}
    assert len(frame.getcolors() or []) == 2  # red and black, nothing else
    with Image.open(wait_until(lambda: (p := preview_path(tmp_path / "cache", "dot")).exists()
                               and p)) as preview:
        assert preview.size == panel


def test_2x_renders_at_128x64_where_the_app_supports_it(tmp_path: Path, loaded: Any) -> None:
    manifest = b'id: big\nname: Big\nfileName: big.star\nsupports2x: true\n'
    install(tmp_path, "big", {"big.star": TWICE.encode(), "manifest.yaml": manifest})
    install(tmp_path, "small", {"small.star": FILL.encode()})
    plugin = loaded({"scale": "2x"}, (128, 64))
    assert rendered(plugin, "big").size == (128, 64)
    assert rendered(plugin, "small").size == (64, 32)
    entry = wait_until(lambda: (e := record(tmp_path).get("apps", {}).get("small"))
                       and e["rendered_at"] and e)
    assert entry["scale"] == "magnify x2"
    assert record(tmp_path)["apps"]["big"]["scale"] == "2x"
    assert record(tmp_path)["apps"]["big"]["width"] == 128
    assert plugin.display(force_clear=True, display_mode="starlark-big") is True
    frame = plugin.display_manager.backend.last_frame
    assert frame.getpixel((0, 0)) == frame.getpixel((127, 63)) == (0, 0, 255)  # is2x() true
    scaling = module_of(plugin, "scaling")
    assert scaling.render_size("2x", (96, 48), True) == (64, 32)
    assert scaling.render_size("magnify", (128, 64), True) == (64, 32)


def test_a_broken_app_fails_alone_and_backs_off(tmp_path: Path, loaded: Any) -> None:
    install(tmp_path, "broken", {"broken.star": BROKEN.encode()})
    install(tmp_path, "dot", {"dot.star": DOT.encode()})
    plugin = loaded({"render_interval": 30})
    state = rendered(plugin, "broken")
    assert state.errors == 1 and state.error and "\n" not in state.error
    assert plugin.display(force_clear=True, display_mode="starlark-broken") is False
    assert rendered(plugin, "dot").error is None
    assert plugin.display(force_clear=True, display_mode="starlark-dot") is True
    for count in (2, 3, 4):  # retries due now: the count goes on, then the wait doubles
        plugin.renders.state("broken").next_render_at = 0
        plugin.renders._wake.set()
        state = wait_until(functools.partial(failed_times, plugin, "broken", count))
    assert state.backoff_s == 120
    entry = wait_until(lambda: record(tmp_path)["apps"]["broken"]["errors"] == 4
                       and record(tmp_path)["apps"]["broken"])
    assert entry["held"] is True and entry["backoff_s"] == 120 and entry["error"]
    assert 110 < entry["next_render_at"] - record(tmp_path)["updated_at"] <= 120


def test_backoff_doubles_and_is_capped(loaded: Any) -> None:
    app_state = module_of(loaded({}), "app_state")
    assert app_state.retry_after(1, 300) == (300, None)
    assert app_state.retry_after(2, 300) == (300, None)
    assert app_state.retry_after(3, 300) == (600, 600)
    assert app_state.retry_after(4, 300) == (1200, 1200)
    assert app_state.retry_after(9, 300) == (3600, 3600)
    assert app_state.retry_after(5, 86400) == (86400, 86400)


def test_a_revision_bump_renders_again_and_a_removed_app_goes(tmp_path: Path,
                                                              loaded: Any) -> None:
    install(tmp_path, "fill", {"fill.star": FILL.encode()})
    plugin = loaded({"apps": {"fill": {"revision": 1}}})
    first = rendered(plugin, "fill")
    plugin.on_config_change({"apps": {"fill": {"revision": 2, "config": {"color": "#f00"}}}})
    again = wait_until(lambda: (s := plugin.renders.state("fill")) is not first and s)
    assert again.rendered_at >= first.rendered_at
    assert plugin.display(force_clear=True, display_mode="starlark-fill") is True
    assert plugin.display_manager.backend.last_frame.getpixel((10, 10)) == RED
    wait_until(lambda: preview_path(tmp_path / "cache", "fill").exists())
    AppsFolder(apps_root(paths_for(tmp_path))).remove("fill")
    plugin.on_config_change({})
    assert plugin.modes == []
    wait_until(lambda: not preview_path(tmp_path / "cache", "fill").exists())
    assert plugin.display(display_mode="starlark-fill") is False


def test_an_animation_plays_at_its_own_delay_and_asks_for_fast_frames(
        tmp_path: Path, loaded: Any) -> None:
    install_sample(tmp_path, "seasonclock")
    plugin = loaded({})
    state = rendered(plugin, "seasonclock")
    assert state.error is None and state.frames > 1
    assert plugin.display(force_clear=True, display_mode="starlark-seasonclock") is True
    assert plugin.needs_high_fps is True
    panel = plugin.display_manager
    assert panel.is_currently_scrolling() and panel.frame_interval == pytest.approx(0.04)
    plugin._slot_started = time.monotonic() - 0.045  # halfway through frame 0
    assert plugin.display(display_mode="starlark-seasonclock") is True
    pushed = panel.frames_pushed
    assert plugin.display(display_mode="starlark-seasonclock") is True  # the same frame
    assert panel.frames_pushed == pushed
    plugin._slot_started = time.monotonic() - 0.135  # halfway through frame 1
    assert plugin.display(display_mode="starlark-seasonclock") is True
    assert panel.frames_pushed == pushed + 1
    assert panel.backend.last_frame.tobytes() == plugin.renders.shown(
        "seasonclock").image(1).tobytes()
    manager = sys.modules[type(plugin).__module__]
    assert manager.frame_index(0.0, 90, 30) == 0
    assert manager.frame_index(0.089, 90, 30) == 0
    assert manager.frame_index(0.091, 90, 30) == 1
    assert manager.frame_index(2.71, 90, 30) == 0  # loops after 30 x 90 ms
    assert manager.frame_index(5.0, 0, 3) == 100 % 3  # no delay given: pixlet's 50 ms


def test_each_app_keeps_its_slot_for_its_own_duration(tmp_path: Path, loaded: Any) -> None:
    for app_id in ("one", "two"):
        install(tmp_path, app_id, {f"{app_id}.star": FILL.encode()})
    plugin = loaded({"apps": {"one": {"duration": 5}, "two": {"duration": 40}}})
    assert plugin.supports_dynamic_duration() is True
    assert plugin.get_dynamic_duration_cap() == 40
    rendered(plugin, "one")
    plugin.reset_cycle_state()
    assert plugin.is_cycle_complete() is False  # not shown yet
    assert plugin.display(force_clear=True, display_mode="starlark-one") is True
    assert plugin.is_cycle_complete() is False
    plugin._slot_started -= 5.0  # five seconds on
    assert plugin.is_cycle_complete() is True
    rendered(plugin, "two")
    plugin.reset_cycle_state()
    assert plugin.display(display_mode="starlark-two") is True
    plugin._slot_started -= 5.0
    assert plugin.is_cycle_complete() is False


# 40 frames of 500 ms (20 s); with show_full_animation the app asks to be seen through.
LONG = '''load("render.star", "render")

def main(config):
    frames = [render.Box(color = "#f00" if i % 2 else "#0f0") for i in range(40)]
    return render.Root(delay = 500, show_full_animation = {full},
                       child = render.Animation(children = frames))
'''


def test_an_app_showing_its_full_animation_keeps_its_slot_until_it_played(
        tmp_path: Path, loaded: Any) -> None:
    install(tmp_path, "whole", {"whole.star": LONG.format(full="True").encode()})
    install(tmp_path, "part", {"part.star": LONG.format(full="False").encode()})
    plugin = loaded({"apps": {"whole": {"duration": 5}, "part": {"duration": 5}}})
    assert rendered(plugin, "whole").frames == 40 and rendered(plugin, "part").frames == 40
    assert plugin.get_dynamic_duration_cap() == 20.0
    for app_id, lasts in (("whole", 20.0), ("part", 5.0)):
        plugin.reset_cycle_state()
        assert plugin.display(force_clear=True, display_mode=f"starlark-{app_id}") is True
        plugin._slot_started -= lasts - 0.5
        assert plugin.is_cycle_complete() is False, app_id
        plugin._slot_started -= 1.0
        assert plugin.is_cycle_complete() is True, app_id


def test_unloading_stops_the_thread_and_its_worker(tmp_path: Path, loaded: Any) -> None:
    install(tmp_path, "dot", {"dot.star": DOT.encode()})
    plugin = loaded({"apps": {"dot": {"revision": 1}}})
    rendered(plugin, "dot")
    assert plugin.renders.running()
    thread = plugin.renders._thread
    plugin.on_disable()
    plugin.on_enable()  # at once: a new thread, the old one ends by itself
    assert plugin.renders.running() and plugin.renders._thread is not thread
    wait_until(lambda: not thread.is_alive(), timeout=10)
    first = plugin.renders.state("dot")
    plugin.on_config_change({"apps": {"dot": {"revision": 2}}})
    wait_until(lambda: (s := plugin.renders.state("dot")) is not first and s, timeout=30)
    plugin.cleanup()
    wait_until(lambda: not plugin.renders._thread.is_alive(), timeout=10)
    assert not plugin.renders.running() and not plugin.renders.worker_running()


def test_an_app_that_breaks_on_reinstall_stops_showing(tmp_path: Path, loaded: Any) -> None:
    install(tmp_path, "dot", {"dot.star": DOT.encode()})
    plugin = loaded({"apps": {"dot": {"revision": 1}}})
    assert rendered(plugin, "dot").error is None
    assert plugin.display(force_clear=True, display_mode="starlark-dot") is True
    install(tmp_path, "dot", {"dot.star": BROKEN.encode()})
    plugin.on_config_change({"apps": {"dot": {"revision": 2}}})
    wait_until(lambda: (s := plugin.renders.state("dot")) is not None and s.error)
    assert plugin.display(force_clear=True, display_mode="starlark-dot") is False
    assert plugin.needs_high_fps is False


def test_an_app_skipping_its_turn_is_passed_over_without_an_error(tmp_path: Path,
                                                                  loaded: Any) -> None:
    install(tmp_path, "quiet", {"quiet.star": b"def main(config):\n    return []\n"})
    plugin = loaded({})
    state = rendered(plugin, "quiet")
    assert state.skipped is True and state.error is None and state.errors == 0
    assert plugin.display(force_clear=True, display_mode="starlark-quiet") is False
    entry = wait_until(lambda: record(tmp_path).get("apps", {}).get("quiet"))
    assert entry["skipped"] is True and entry["error"] is None and entry["frames"] == 0
    assert entry["rendered_at"] is not None


def test_without_apps_the_display_never_loads_the_runtime(tmp_path: Path) -> None:
    """The interpreter and the render package (some 20 MB) come with the first render."""
    script = f"""
import sys
from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.paths import Paths
from shared.plugin_system.manager import PluginManager
base = __import__("pathlib").Path({str(tmp_path)!r})
paths = Paths(root=base, config_dir=base / "config", cache_dir=base / "cache",
              plugins_dir_override=__import__("pathlib").Path({str(PLUGIN_DIR.parent)!r}),
              assets_dir_override=base / "assets")
manager = PluginManager(paths, {{"web-ui-info": {{"enabled": False}}}},
                        display_manager=DisplayManager(HeadlessMatrix(64, 32)))
manager.load_enabled()
plugin = manager.instances["starlark-apps"]
plugin.update()
assert plugin.display(display_mode="starlark-apps") is False
print(sorted(m for m in sys.modules if m.startswith(("shared.starlark.runtime", "starlark"))))
manager.unload_all()
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=PLUGIN_DIR.parent.parent,
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
