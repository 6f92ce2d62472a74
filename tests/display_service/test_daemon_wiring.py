"""What the daemon wires together at start: fonts for plugins, Vegas mode, double-sided."""

from __future__ import annotations

import base64
import io
import json
import textwrap
import time
from pathlib import Path

from PIL import Image

from shared.bus.core import Bus
from tests.daemons import ROOT, Instance, start_display

PLUGIN = textwrap.dedent('''
    import json
    from pathlib import Path

    from shared.plugin_api.base_plugin import BasePlugin


    class Probe(BasePlugin):
        def update(self):
            pass

        def display(self, force_clear=False):
            fonts = self.plugin_manager.font_manager
            report = {"fonts": fonts is not None,
                      "native_5x7": fonts.get_native_bdf_size("5x7") if fonts else None,
                      "width": self.display_manager.width}
            Path(__file__).with_name("report.json").write_text(json.dumps(report))
            self.display_manager.draw_text("hi", x=0, y=0)
            self.display_manager.draw.rectangle((20, 0, 27, 7), fill=(255, 0, 255))
            self.display_manager.update_display()
            return True
''')


MAGENTA = (255, 0, 255)


def _instance(tmp_path: Path, **config_overrides: object) -> Instance:
    instance = Instance(tmp_path)
    directory = instance.plugins_dir / "probe"
    directory.mkdir(parents=True)
    (directory / "manifest.json").write_text(json.dumps({
        "id": "probe", "name": "Probe", "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": "Probe", "display_modes": ["probe"],
        "compatible_versions": [">=3.0.0"]}))
    (directory / "manager.py").write_text(PLUGIN)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["probe"] = {"enabled": True}
    for dotted, value in config_overrides.items():
        *parents, leaf = dotted.split("__")
        node = config
        for part in parents:
            node = node[part]
        node[leaf] = value
    instance.write_config(config)
    return instance


def _state(instance: Instance, predicate) -> dict:
    state = Bus(instance.cache_dir).wait_for(
        "display_state", lambda s: bool(s and predicate(s)), timeout=20)
    assert state and predicate(state), state
    return state


def test_plugins_get_the_shared_font_manager(tmp_path: Path) -> None:
    instance = _instance(tmp_path)
    display = start_display(instance)
    try:
        report_file = instance.plugins_dir / "probe" / "report.json"
        _state(instance, lambda s: s.get("first_frame_ms") is not None)
        report = json.loads(report_file.read_text())
    finally:
        assert display.stop() == 0, display.output()
    assert report["fonts"] is True
    assert report["native_5x7"] == 7


def _magenta_columns(frame: dict) -> frozenset[int]:
    image = Image.open(io.BytesIO(base64.b64decode(frame["png_base64"]))).convert("RGB")
    return frozenset(x for x in range(image.width) for y in range(image.height)
                     if image.getpixel((x, y)) == MAGENTA)


def test_vegas_mode_scrolls_the_plugins_content_across_the_panel(tmp_path: Path) -> None:
    instance = _instance(tmp_path, vegas_scroll__enabled=True)
    display = start_display(instance)
    bus = Bus(instance.cache_dir)
    try:
        state = _state(instance, lambda s: s.get("showing") == "full_screen")
        assert state["mode"] == "vegas"
        bus.publish("preview_viewer", {"until": time.time() + 30})
        seen: dict[int, frozenset[int]] = {}  # preview frame serial -> magenta columns
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            frame = bus.read("preview_frame")
            if frame and frame["frame"] not in seen:
                seen[frame["frame"]] = _magenta_columns(frame)
                if len({columns for columns in seen.values() if columns}) >= 2:
                    break
            time.sleep(0.05)
    finally:
        assert display.stop() == 0, display.output()
    showing = [columns for columns in seen.values() if columns]
    assert showing, f"the probe's magenta never reached the panel in {len(seen)} frames"
    assert len(set(showing)) >= 2, "the probe's content did not move"


def test_double_sided_halves_the_drawing_surface(tmp_path: Path) -> None:
    instance = _instance(tmp_path, display__double_sided=True)
    display = start_display(instance)
    try:
        state = _state(instance, lambda s: s.get("first_frame_ms") is not None)
        report = json.loads((instance.plugins_dir / "probe" / "report.json").read_text())
    finally:
        assert display.stop() == 0, display.output()
    hardware = Bus(instance.cache_dir).read("hardware_status")
    full_width = hardware["effective_size"]["width"]
    assert state["width"] == report["width"] == full_width // 2


def test_orientation_turns_the_drawing_surface(tmp_path: Path) -> None:
    instance = _instance(tmp_path, orientation=90, display__double_sided=True)
    display = start_display(instance)
    try:
        state = _state(instance, lambda s: s.get("first_frame_ms") is not None)
        report = json.loads((instance.plugins_dir / "probe" / "report.json").read_text())
    finally:
        assert display.stop() == 0, display.output()
    hardware = Bus(instance.cache_dir).read("hardware_status")
    panel = hardware["effective_size"]
    # plugins draw on a half of the chain (double-sided), turned on its side
    assert (state["width"], state["height"]) == (panel["height"], panel["width"] // 2)
    assert report["width"] == state["width"]
    assert hardware["drawing_size"] == {"width": state["width"], "height": state["height"]}


def test_vegas_mode_turned_on_by_a_hand_edit_while_running_takes_the_panel(
        tmp_path: Path) -> None:
    instance = _instance(tmp_path)  # off at start: the ticker is not even built
    display = start_display(instance)
    try:
        _state(instance, lambda s: s.get("showing") == "rotation")
        config_file = instance.config_dir / "config.json"
        config = json.loads(config_file.read_text())
        config["vegas_scroll"]["enabled"] = True
        config_file.write_text(json.dumps(config))
        state = _state(instance, lambda s: s.get("showing") == "full_screen")
        assert state["mode"] == "vegas"
    finally:
        assert display.stop() == 0, display.output()
