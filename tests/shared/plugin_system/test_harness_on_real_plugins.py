"""The harness on the bundled web-UI-info plugin and on every community plugin the
compatibility tests run, copied unchanged into a temporary folder.

What it finds is recorded here: all of it warnings (the plugins work on a panel;
http-weather's update() raises while its server is unreachable, a warning as in the
existing system's harness, and its display() still draws).
A plugin added to tests/community_plugins needs its line in ``FOUND``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shared.plugin_system.testing import DEFAULT_TEST_SIZES, run_harness
from tests.daemons import ROOT

COMMUNITY = ROOT / "tests" / "community_plugins"
SIZES = [(64, 32), (96, 48), (128, 64)]
HEIGHT_WARNING = {("scale_up", "warning", "128x64", "height")}
# plugin -> {(check, severity, size, what)}
FOUND: dict[str, set[tuple[str, str, str, str | None]]] = {
    "cached-quotes": HEIGHT_WARNING,
    "countdown": {("bounds", "warning", "64x32", "off_panel"), *HEIGHT_WARNING},
    "file-actions": HEIGHT_WARNING,
    # no server: update() raises, display() still draws
    "http-weather": {("update_error", "warning", s, "ConnectionError")
                     for s in ("64x32", "96x48", "128x64")},
    "multi-mode": set(),
    "scoreboard": set(),
    "simple-clock": HEIGHT_WARNING,
    "slideshow": set(),
    # it scrolls in from the right edge: its first frame is black
    "text-scroller": {("empty_claimed", "warning", s, None) for s in ("64x32", "96x48",
                                                                      "128x64")},
}


def _summary(plugin: Path) -> tuple[bool, set[tuple[str, str, str, str | None]]]:
    report = run_harness(plugin, sizes=SIZES)
    return report.failed, {
        (f.check, f.severity, f.details["size"],
         f.details.get("kind") or f.details.get("axis") or f.details.get("error_class"))
        for f in report.findings}


def test_every_community_plugin_has_its_findings_recorded() -> None:
    assert sorted(p.name for p in COMMUNITY.iterdir() if p.is_dir()) == sorted(FOUND)


@pytest.mark.parametrize("name", sorted(FOUND))
def test_the_harness_on_a_community_plugin_finds_what_is_recorded(tmp_path: Path,
                                                                  name: str) -> None:
    plugin = shutil.copytree(COMMUNITY / name, tmp_path / name)
    failed, found = _summary(plugin)
    assert found == FOUND[name]
    assert failed == any(severity == "error" for _c, severity, _s, _w in found)


def test_the_bundled_web_ui_info_plugin_passes_at_every_default_size(tmp_path: Path) -> None:
    plugin = shutil.copytree(ROOT / "plugin-repos" / "web-ui-info", tmp_path / "web-ui-info",
                             ignore=shutil.ignore_patterns("__pycache__"))
    report = run_harness(plugin, sizes=DEFAULT_TEST_SIZES)
    assert report.renders == len(DEFAULT_TEST_SIZES) and not report.failed
    # Its text block keeps its width on 256-wide panels (design 64x32): a warning.
    assert [(f.check, f.details["size"], f.details["axis"]) for f in report.findings] == [
        ("scale_up", "256x32", "width"), ("scale_up", "256x128", "width")]
