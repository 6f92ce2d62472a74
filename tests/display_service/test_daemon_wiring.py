"""What the daemon wires together at start: fonts for plugins, Vegas mode, double-sided."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from shared.bus import Bus
from tests.daemons import ROOT, Instance, start_display

PLUGIN = textwrap.dedent('''
    import json
    from pathlib import Path

    from shared.plugin_system.base_plugin import BasePlugin


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
            self.display_manager.update_display()
            return True
''')


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
        _state(instance, lambda s: s.get("frames_pushed"))
        report = json.loads(report_file.read_text())
    finally:
        assert display.stop() == 0, display.output()
    assert report["fonts"] is True
    assert report["native_5x7"] == 7


def test_vegas_mode_takes_over_the_panel_when_enabled(tmp_path: Path) -> None:
    instance = _instance(tmp_path, vegas_scroll__enabled=True)
    display = start_display(instance)
    try:
        first = _state(instance, lambda s: s.get("showing") == "full_screen")
        _state(instance, lambda s: s["frames_pushed"] > first["frames_pushed"] + 5)
    finally:
        assert display.stop() == 0, display.output()


def test_double_sided_halves_the_drawing_surface(tmp_path: Path) -> None:
    instance = _instance(tmp_path, display__double_sided=True)
    display = start_display(instance)
    try:
        state = _state(instance, lambda s: s.get("frames_pushed"))
        report = json.loads((instance.plugins_dir / "probe" / "report.json").read_text())
    finally:
        assert display.stop() == 0, display.output()
    hardware = Bus(instance.cache_dir).read("hardware_status")
    full_width = hardware["effective_size"]["width"]
    assert state["width"] == report["width"] == full_width // 2
