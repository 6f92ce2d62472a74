"""The config template: every core key of the spec, no legacy keys, documented."""

from __future__ import annotations

import re
from typing import Any

from shared.config.coerce import value_at
from shared.config.reserved import LEGACY_KEYS, RESERVED_KEYS, plugin_sections
from shared.config.template import load_template
from shared.paths import ROOT

SPEC_KEYS = [
    "display.hardware.rows",
    "display.hardware.cols",
    "display.hardware.chain_length",
    "display.hardware.parallel",
    "display.hardware.hardware_mapping",
    "display.hardware.pixel_mapper_config",
    "display.hardware.row_address_type",
    "display.hardware.multiplexing",
    "display.hardware.panel_type",
    "display.hardware.pwm_bits",
    "display.hardware.disable_hardware_pulsing",
    "display.hardware.inverse_colors",
    "display.hardware.show_refresh_rate",
    "display.hardware.limit_refresh_rate_hz",
    "display.runtime.gpio_slowdown",
    "display.use_short_date_format",
    "display.double_sided",
    "sync.follower_position",
    "orientation",
    "display_durations",
    "plugin_system.plugins_directory",
    "vegas_scroll.frame_based_scrolling",
    "vegas_scroll.scroll_delay",
    "vegas_scroll.scroll_speed",
    "vegas_scroll.vegas_min_cycle_duration",
    "vegas_scroll.vegas_max_cycle_duration",
    "vegas_scroll.live_priority",
    "auto_update.enabled",
    "dim_schedule.mode",
    "dim_schedule.days.monday",
    "schedule.days.sunday",
    "brightness",
    "location",
    "timezone",
]
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _leaves(node: Any, prefix: str = "") -> list[str]:
    if isinstance(node, dict) and node:
        return [leaf for k, v in node.items() for leaf in _leaves(v, f"{prefix}{k}.")]
    return [prefix[:-1]]


def test_template_has_every_core_key_of_the_spec() -> None:
    template = load_template()
    missing = [key for key in SPEC_KEYS if value_at(template, key.split(".")) is None]
    assert missing == []


def test_template_defaults_follow_the_spec() -> None:
    template = load_template()
    assert template["display"]["hardware"]["hardware_mapping"] == "vendor-hat"
    assert template["display"]["hardware"]["limit_refresh_rate_hz"] == 100
    assert template["display"]["runtime"]["gpio_slowdown"] == 3
    assert template["dim_schedule"]["mode"] == "global"
    assert template["plugin_system"]["plugins_directory"] == "plugin-repos"
    assert set(template["dim_schedule"]["days"]) == set(DAYS)
    assert set(template["schedule"]["days"]) == set(DAYS)


def test_template_carries_no_legacy_keys() -> None:
    template = load_template()
    for key in LEGACY_KEYS:
        assert value_at(template, key.split(".")) is None, key
    assert "target_fps" not in template


def test_every_top_level_template_key_is_reserved() -> None:
    template = load_template()
    assert set(template) <= RESERVED_KEYS
    assert plugin_sections(template) == {}


def test_every_template_key_is_documented() -> None:
    text = (ROOT / "docs" / "CONFIG.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z_][a-z0-9_.<>]*)`", text))
    day_pattern = re.compile(r"\.(" + "|".join(DAYS) + r")\.")
    undocumented = {
        day_pattern.sub(".<day>.", leaf)
        for leaf in _leaves(load_template())
        if day_pattern.sub(".<day>.", leaf) not in documented
    }
    assert undocumented == set()


def test_load_template_returns_an_independent_copy() -> None:
    first = load_template()
    first["brightness"] = -1
    assert load_template()["brightness"] != -1
