"""The words every consumer shows for the display and the hardware."""

from __future__ import annotations

from typing import Any

import pytest

from shared.bus.display_status import describe_hardware, display_report

RUNNING = {"service": "running", "pid": 7, "on_demand": {"state": "idle"}}


@pytest.mark.parametrize(("state", "summary"), [
    ({"showing": "rotation", "plugin_id": "clock", "mode": "big"}, "showing clock / big"),
    ({"showing": "off", "power": "off", "plugin_id": "clock"}, "panel off (power schedule)"),
    ({"showing": "live", "plugin_id": "score", "mode": "game", "dimmed": True},
     "showing score / game (live content), dimmed"),
    ({"showing": "on_demand", "plugin_id": "clock", "mode": "big"},
     "showing clock / big (on-demand)"),
    ({"showing": "full_screen", "plugin_id": None, "mode": "vegas"},
     "Vegas ticker (between plugins)"),
    ({"showing": "sync", "plugin_id": "clock", "mode": "big"},
     "showing clock / big (following its leader panel)"),
    ({"showing": "rotation", "plugin_id": None}, "panel blank (no plugin has anything to show)"),
])
def test_the_summary_says_what_the_panel_shows(state: dict[str, Any], summary: str) -> None:
    assert display_report({**RUNNING, **state}, 7)["summary"] == summary


def test_an_old_record_under_a_new_lock_is_starting() -> None:
    report = display_report({**RUNNING, "showing": "rotation", "plugin_id": "clock"}, 8)
    assert report["service"] == "starting" and report["summary"] == "starting"
    assert report["plugin_id"] is None


@pytest.mark.parametrize(("record", "words"), [
    ({"ok": True, "cause": "forced", "backend": "headless",
      "effective_size": {"width": 128, "height": 32}},
     "headless 128x32 (no panel attached; rendering into memory)"),
    ({"ok": False, "cause": "library", "backend": "headless", "error": "no rgbmatrix",
      "hint": "build it"}, "no panel output: matrix library unavailable: no rgbmatrix; build it"),
    ({"ok": False, "cause": "settings", "backend": "headless", "error": "rows 7"},
     "no panel output: panel settings refused: rows 7"),
    ({"ok": True, "cause": None, "backend": "emulator"}, "emulator (RGBMatrixEmulator)"),
    ({"ok": True, "cause": None, "backend": "rgbmatrix",
      "effective_size": {"width": 64, "height": 32}}, "panel 64x32 (rgbmatrix)"),
])
def test_headless_by_request_is_a_normal_state_not_a_fallback(record: dict[str, Any],
                                                              words: str) -> None:
    assert describe_hardware(record) == words


def test_load_warnings_pass_on_only_well_formed_lines_of_a_running_display() -> None:
    warnings = {"clock": ["pytz missing: UTC", 7, "", "x" * 400], "": ["no id"],
                "bad": "not a list", "none": [None], "p0": ["w"] * 20}
    report = display_report({**RUNNING, "load_warnings": warnings}, 7)
    assert report["load_warnings"] == {"clock": ["pytz missing: UTC", "x" * 300],
                                       "p0": ["w"] * 10}
    assert display_report({**RUNNING, "load_warnings": []}, 7)["load_warnings"] == {}
    # A display that is not running warns about nothing now.
    assert display_report({**RUNNING, "load_warnings": warnings}, None)["load_warnings"] is None


@pytest.mark.parametrize(("record", "block"), [
    ({"role": "follower", "state": "leader lost", "leader": "hall", "detail": "x" * 500,
      "switched_at": 12.5, "seq": 3, "evil": {"a": 1}},
     {"role": "follower", "name": None, "group": None, "position": None,
      "state": "leader lost", "leader": "hall", "detail": "x" * 200, "wall": None,
      "switched_at": 12.5}),
    ({"role": "boss"}, None),
    ("following", None),
    (None, None),
])
def test_the_sync_block_passes_on_only_what_it_knows(record: Any, block: Any) -> None:
    assert display_report({**RUNNING, "showing": "rotation", "sync": record}, 7)["sync"] == block
    assert display_report({**RUNNING, "sync": record}, None)["sync"] is None  # not running
