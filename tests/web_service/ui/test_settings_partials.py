"""The settings tabs render the stored values, escaped, through the Flask app."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

from tests.web_service.conftest import WebEnv

HOSTILE = '"><script>alert(1)</script>'


def store(web: WebEnv, change: dict[str, Any]) -> None:
    """Write ``change`` (top-level keys, nested sections replaced key by key) to config.json."""
    config = web.config()
    for key, value in change.items():
        if isinstance(value, dict) and isinstance(config.get(key), dict):
            for inner, item in value.items():
                if isinstance(item, dict) and isinstance(config[key].get(inner), dict):
                    config[key][inner].update(item)
                else:
                    config[key][inner] = item
        else:
            config[key] = value
    web.paths.config_file.write_text(json.dumps(config))


def render(web: WebEnv, tab: str) -> str:
    answer = web.client.get(f"/v3/partials/{tab}")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    text = answer.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in text
    return text


def tag(text: str, name: str) -> str:
    """The opening tag of the input or select named ``name``."""
    found = re.search(r'<(?:input|select)[^>]*\bname="' + re.escape(name) + r'"[^>]*>', text)
    assert found, f"no field {name}"
    return found.group(0)


def value_of(text: str, name: str) -> str:
    found = re.search(r'\bvalue="([^"]*)"', tag(text, name))
    assert found, f"{name} has no value"
    return html.unescape(found.group(1))


def checked(text: str, name: str) -> bool:
    return re.search(r"\schecked\b", tag(text, name)) is not None


def selected(text: str, name: str) -> list[str]:
    start = text.index(tag(text, name))
    body = text[start:text.index("</select>", start)]
    return [html.unescape(v) for v in re.findall(r'<option value="([^"]*)" selected', body)]


def test_general_shows_the_stored_values_escaped(web: WebEnv) -> None:
    store(web, {"timezone": "Europe/Berlin",
                "location": {"city": HOSTILE, "state": "", "country": "007", "latitude": 52.5,
                             "longitude": None},
                "display": {"use_short_date_format": False},
                "auto_update": {"enabled": False, "day": "friday", "time": "04:30"},
                "web": {"port": 8080}})
    text = render(web, "general")
    assert selected(text, "timezone") == ["Europe/Berlin"]
    assert "America/New_York" in text  # the server lists every zone
    assert value_of(text, "location.city") == HOSTILE
    assert value_of(text, "location.state") == ""
    assert value_of(text, "location.country") == "007"
    assert value_of(text, "location.latitude") == "52.5"
    assert value_of(text, "location.longitude") == ""
    assert not checked(text, "display.use_short_date_format")
    assert not checked(text, "auto_update.enabled")
    assert selected(text, "auto_update.day") == ["friday"]
    assert value_of(text, "auto_update.time") == "04:30"
    assert value_of(text, "web.port") == "8080"
    assert 'min="1"' in tag(text, "web.port") and 'max="65535"' in tag(text, "web.port")

    store(web, {"display": {"use_short_date_format": True}, "auto_update": {"enabled": True}})
    text = render(web, "general")
    assert checked(text, "display.use_short_date_format") and checked(text, "auto_update.enabled")


def test_a_stored_unknown_timezone_stays_selected_with_a_warning(web: WebEnv) -> None:
    store(web, {"timezone": "Mars/Olympus"})
    text = render(web, "general")
    assert selected(text, "timezone") == ["Mars/Olympus"]
    assert "not a known zone" in text


def test_display_shows_every_hardware_setting_with_the_rules_limits(web: WebEnv) -> None:
    store(web, {"brightness": 42,
                "display": {"hardware": {"rows": 16, "hardware_mapping": "regular", "parallel": 2,
                                         "pixel_mapper_config": HOSTILE, "panel_type": "",
                                         "inverse_colors": False, "show_refresh_rate": True,
                                         "led_rgb_sequence": "BGR", "scan_mode": 1},
                            "runtime": {"gpio_slowdown": 2}},
                "orientation": 180})
    text = render(web, "display")
    assert value_of(text, "brightness") == "42"
    assert value_of(text, "display.hardware.rows") == "16"
    assert 'min="8"' in tag(text, "display.hardware.rows")
    assert 'max="64"' in tag(text, "display.hardware.rows")
    assert value_of(text, "display.hardware.parallel") == "2"
    assert 'max="3"' in tag(text, "display.hardware.parallel")  # regular has 3 outputs
    assert selected(text, "display.hardware.hardware_mapping") == ["regular"]
    assert value_of(text, "display.hardware.pixel_mapper_config") == HOSTILE
    assert value_of(text, "display.hardware.panel_type") == ""
    assert not checked(text, "display.hardware.inverse_colors")
    assert checked(text, "display.hardware.show_refresh_rate")
    assert selected(text, "display.hardware.led_rgb_sequence") == ["BGR"]
    assert selected(text, "display.hardware.scan_mode") == ["1"]
    assert selected(text, "orientation") == ["180"]
    assert value_of(text, "display.runtime.gpio_slowdown") == "2"


def test_display_shows_the_several_panels_settings(web: WebEnv) -> None:
    store(web, {"sync": {"role": "follower", "group": "hall", "leader": "kitchen",
                         "follower_position": "right", "wall": "none"}})
    text = render(web, "display")
    assert selected(text, "sync.role") == ["follower"]
    assert value_of(text, "sync.group") == "hall"
    assert value_of(text, "sync.leader") == "kitchen"
    assert selected(text, "sync.follower_position") == ["right"]
    assert selected(text, "sync.wall") == ["none"]
    for name in ("pwm_bits", "pwm_lsb_nanoseconds", "pwm_dither_bits", "row_address_type",
                 "multiplexing", "limit_refresh_rate_hz", "cols", "chain_length",
                 "disable_hardware_pulsing"):
        tag(text, f"display.hardware.{name}")
    assert 'max="11"' in tag(text, "display.hardware.pwm_bits")


def test_a_stored_unknown_mapping_is_shown_selected_with_a_warning(web: WebEnv) -> None:
    store(web, {"display": {"hardware": {"hardware_mapping": "adafruit-hat"}}})
    text = render(web, "display")
    assert selected(text, "display.hardware.hardware_mapping") == ["adafruit-hat"]
    assert "kept as stored" in text
    assert 'class="sf-warning"' in text


@pytest.mark.parametrize("stored", [["adafruit-hat"], {"name": "regular"}, 5, None])
def test_a_stored_mapping_that_is_no_name_is_shown_with_a_warning(
        web: WebEnv, stored: object) -> None:
    store(web, {"display": {"hardware": {"hardware_mapping": stored}}})
    text = render(web, "display")
    assert "kept as stored" in text and "must be a mapping name" in text
    assert 'class="sf-warning"' in text
    assert "max=" not in tag(text, "display.hardware.parallel")  # no mapping, no limit


ODD_VALUES = [["a", 1], {"a": {"b": 1}}, None, 10**30, -1e308, ""]
KEYS_PER_TAB = {
    "general": ["timezone", "location", "location.city", "location.latitude", "web.port",
                "web.allowed_hosts", "web.sign_in", "web.sign_in.session_days",
                "auto_update.day", "plugin_system", "sync.follower_position"],
    "display": ["display", "display.hardware", "display.hardware.rows",
                "display.hardware.hardware_mapping", "display.hardware.parallel",
                "display.hardware.led_rgb_sequence", "display.hardware.brightness",
                "display.runtime", "display.runtime.gpio_slowdown", "brightness",
                "orientation", "display.emulator"],
    "durations": ["display_durations", "clock", "ticker"],
    "schedule": ["schedule", "schedule.days", "schedule.days.monday",
                 "schedule.days.monday.start_time", "schedule.mode", "dim_schedule",
                 "dim_schedule.dim_brightness", "dim_schedule.days.sunday.enabled"],
    "vegas": ["vegas_scroll", "vegas_scroll.scroll_speed", "vegas_scroll.separator_color",
              "vegas_scroll.font_family", "vegas_scroll.plugin_order",
              "vegas_scroll.excluded_plugins", "vegas_scroll.default_vegas_mode"],
}


@pytest.mark.parametrize("tab", sorted(KEYS_PER_TAB))
def test_every_settings_tab_renders_whatever_a_hand_edit_stored(web: WebEnv, tab: str) -> None:
    """A list, object, null, huge number or empty text in place of any of the tab's values
    (or whole sections) is shown, never a failed tab."""
    original = web.config()
    for key in KEYS_PER_TAB[tab]:
        for odd in ODD_VALUES:
            config = json.loads(json.dumps(original))
            *parents, last = key.split(".")
            section = config
            for name in parents:
                section = section.setdefault(name, {})
            section[last] = odd
            web.paths.config_file.write_text(json.dumps(config))
            answer = web.client.get(f"/v3/partials/{tab}")
            text = answer.get_data(as_text=True)
            assert answer.status_code == 200 and "data-partial-error" not in text, (key, odd)


def test_durations_show_each_plugins_durations(web: WebEnv) -> None:
    store(web, {"display_durations": {"clock": 12.5, "gone": 30},
                "clock": {"enabled": True,
                          "dynamic_duration": {"enabled": True, "max_duration_seconds": 90}}})
    text = render(web, "durations")
    assert value_of(text, "display_durations.clock") == "12.5"
    assert value_of(text, "display_durations.ticker") == ""
    assert checked(text, "clock.dynamic_duration.enabled")
    assert not checked(text, "ticker.dynamic_duration.enabled")
    assert value_of(text, "clock.dynamic_duration.max_duration_seconds") == "90"
    assert value_of(text, "display_durations.gone") == "30"  # kept, not dropped


def test_schedule_shows_power_and_dim_per_day(web: WebEnv) -> None:
    store(web, {"schedule": {"enabled": True, "mode": "per-day",
                             "days": {"monday": {"enabled": False, "start_time": "09:15",
                                                 "end_time": "17:45"}}},
                "dim_schedule": {"enabled": False, "dim_brightness": 12, "start_time": "21:00"}})
    text = render(web, "schedule")
    power = text[text.index('id="power-form"'):text.index('id="dim-form"')]
    dim = text[text.index('id="dim-form"'):]
    assert checked(power, "enabled") and selected(power, "mode") == ["per-day"]
    assert not checked(power, "days.monday.enabled")
    assert value_of(power, "days.monday.start_time") == "09:15"
    assert value_of(power, "days.monday.end_time") == "17:45"
    assert checked(power, "days.tuesday.enabled")
    assert not checked(dim, "enabled") and selected(dim, "mode") == ["global"]
    assert value_of(dim, "dim_brightness") == "12"
    assert value_of(dim, "start_time") == "21:00"
    assert 'name="dim_brightness"' not in power


def test_vegas_shows_every_key_the_display_reads(web: WebEnv) -> None:
    store(web, {"vegas_scroll": {"enabled": False, "separator": HOSTILE,
                                 "separator_color": [255, 0, 16],
                                 "plugin_order": ["clock", "ticker"],
                                 "excluded_plugins": [], "scroll_delay": 0.05,
                                 "live_interrupt": False, "font_family": ""}})
    text = render(web, "vegas")
    assert not checked(text, "vegas_scroll.enabled")
    assert value_of(text, "vegas_scroll.separator") == HOSTILE
    assert value_of(text, "vegas_scroll.separator_color") == "#ff0010"
    assert value_of(text, "vegas_scroll.plugin_order") == "clock, ticker"
    assert value_of(text, "vegas_scroll.excluded_plugins") == ""
    assert value_of(text, "vegas_scroll.scroll_delay") == "0.05"
    assert not checked(text, "vegas_scroll.live_interrupt")
    assert checked(text, "vegas_scroll.include_new_plugins")
    for key in ("scroll_speed", "frame_based_scrolling", "vegas_min_cycle_duration",
                "vegas_max_cycle_duration", "dynamic_cycle_duration", "separator_padding",
                "background_color", "default_vegas_mode", "default_panel_count",
                "static_hold_duration", "buffer_ahead", "live_priority"):
        tag(text, f"vegas_scroll.{key}")


def test_the_config_editor_has_its_textarea(web: WebEnv) -> None:
    text = render(web, "config-editor")
    assert 'id="raw-config"' in text and "data-raw-editor" in text


def test_a_config_that_does_not_parse_gives_the_friendly_fragment(web: WebEnv) -> None:
    web.paths.config_file.write_text("{ not json")
    answer = web.client.get("/v3/partials/display")
    assert answer.status_code == 409
    assert "Traceback" not in answer.get_data(as_text=True)


def test_a_colour_or_time_the_browser_cannot_show_is_drawn_as_stored_text(
        web: WebEnv) -> None:
    store(web, {"vegas_scroll": {"separator_color": "red", "background_color": [300, 0, 0]},
                "auto_update": {"time": "7:00"}})
    vegas = render(web, "vegas")
    for name, value in (("vegas_scroll.separator_color", "red"),
                        ("vegas_scroll.background_color", "[300, 0, 0]")):
        assert 'type="text"' in tag(vegas, name)
        assert value_of(vegas, name) == value
    general = render(web, "general")
    assert 'type="text"' in tag(general, "auto_update.time")
    assert value_of(general, "auto_update.time") == "7:00"
    store(web, {"vegas_scroll": {"separator_color": [1, 2, 3]}, "auto_update": {"time": "07:00"}})
    assert 'type="color"' in tag(render(web, "vegas"), "vegas_scroll.separator_color")
    assert 'type="time"' in tag(render(web, "general"), "auto_update.time")


def test_a_hand_edited_short_time_shows_in_the_schedule_time_inputs(web: WebEnv) -> None:
    # "7:05" is accepted by the display; a time input shows only "07:05" (blank otherwise).
    store(web, {"schedule": {"enabled": True, "mode": "per-day", "start_time": "7:05",
                             "end_time": "22:00",
                             "days": {"monday": {"enabled": True, "start_time": "6:30",
                                                 "end_time": "9:00"}}}})
    power = render(web, "schedule")
    power = power[power.index('id="power-form"'):power.index('id="dim-form"')]
    assert value_of(power, "start_time") == "07:05"
    assert value_of(power, "days.monday.start_time") == "06:30"
    assert value_of(power, "days.monday.end_time") == "09:00"
