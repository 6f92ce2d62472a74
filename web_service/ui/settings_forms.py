"""What the settings tabs show: one field list per form, filled with the stored values.

Each ``*_context`` function returns the template context of one tab (General, Display,
Durations & Rotation, Schedule, Vegas). A ``Field`` carries its dotted config path (the
name the browser posts back), how to draw it, the stored value and the limits the
server enforces (``shared.config.limits`` and ``shared.hardware``), so the form refuses
what the server would refuse. Stored values the form does not know (an unknown
``hardware_mapping``, a timezone no longer listed) are kept as a selected option with a
warning, so a save of another field sends them back unchanged.
"""

from __future__ import annotations

import json
import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations
from typing import Any

from shared.config.limits import limit_for
from shared.config.rotation_order import effective_order
from shared.config.schedule_save import schedule_view
from shared.config.template import load_template
from shared.config.values import FOLLOWER_POSITIONS, SYNC_ROLES, WALL_SIDES
from shared.hardware.mappings import MAPPINGS, unknown_mapping_message
from shared.hardware.rules import HARDWARE, ORIENTATIONS, PANEL_RANGES, RUNTIME
from shared.schedules import parse_time
from web_service.store.auto_schedule import next_update_line

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MISSING = object()


@dataclass
class Field:
    """One input of a settings form."""

    name: str  # dotted config path, posted back as is
    label: str
    kind: str  # int, float, optional-float, bool, text, select, time, color, list, range
    value: Any = None
    minimum: float | None = None
    maximum: float | None = None
    step: str | None = None
    options: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    option_data: dict[str, int] = field(default_factory=dict)  # mapping -> outputs
    hint: str = ""
    warning: str = ""
    needs: str = ""  # name of the checkbox this field is used under (off: disabled)

    @property
    def text(self) -> str:
        """The value as an input shows it."""
        if self.value is None:
            return ""
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        if self.kind == "color":
            if self.fits_input:
                return _hex_color(self.value)
            return self.value if isinstance(self.value, str) else json.dumps(self.value)
        if self.kind == "list" and isinstance(self.value, list):
            return ", ".join(str(item) for item in self.value)
        return str(self.value)

    @property
    def fits_input(self) -> bool:
        """Whether the browser's colour or time input can show the stored value as it is.

        Such an input blackens or blanks what it cannot parse, and a save would store
        that; a value that does not fit is drawn in a text input instead.
        """
        if self.kind == "color":
            return isinstance(self.value, list) and len(self.value) == 3 and all(
                isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255
                for c in self.value)
        if self.kind == "time":
            return isinstance(self.value, str) and _HH_MM.fullmatch(self.value) is not None
        return True


_HH_MM = re.compile(r"\d{2}:\d{2}")


def _at(config: dict[str, Any], path: str, default: Any = None) -> Any:
    node: Any = config
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node


def _value(config: dict[str, Any], path: str) -> Any:
    """The stored value, else the template's."""
    found = _at(config, path, _MISSING)
    return _at(load_template(), path) if found is _MISSING else found


def _limited(name: str, label: str, config: dict[str, Any], kind: str = "int",
             hint: str = "", step: str | None = None) -> Field:
    limit = limit_for(name)
    low = high = None
    if limit is not None:
        low, high = limit.low, limit.high
        if limit.low_open and step is None:
            step = "any"
    return Field(name, label, kind, _value(config, name), low, high, step, hint=hint)


def _select(name: str, label: str, config: dict[str, Any], choices: list[tuple[str, str]],
            hint: str = "", unknown: str = "") -> Field:
    """A select; a stored value outside ``choices`` stays selected, with a warning."""
    value = _value(config, name)
    options = list(choices)
    warning = ""
    if str(value) not in {v for v, _ in options}:
        options.insert(0, (str(value), f"{value} (not a known value)"))
        warning = unknown or f"The stored value {value!r} is not one of the known values."
    return Field(name, label, "select", value, options=options, hint=hint, warning=warning)


def _hex_color(value: Any) -> str:
    if (isinstance(value, list) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) for c in value)):
        return "#" + "".join(f"{max(0, min(255, c)):02x}" for c in value)
    return "#000000"


@lru_cache(maxsize=1)
def timezones() -> tuple[str, ...]:
    """Every IANA zone name this system knows, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


def general_context(config: dict[str, Any], listening: int | None = None) -> dict[str, Any]:
    """The General tab: timezone, location, short dates, automatic update, web port.

    ``listening`` is the port this page was served from: when the stored port differs
    (``--port`` or ``LEDPANEL_WEB_PORT`` outrank it), the field says so.
    """
    zone = _value(config, "timezone")
    zone_field = _select("timezone", "Timezone", config, [(z, z) for z in timezones()],
                         unknown=f"The stored timezone {zone!r} is not a known zone; "
                                 "the panel uses UTC until you choose one.")
    days = [(day, day.capitalize()) for day in DAYS]
    day = _select("auto_update.day", "Update day", config, days)
    day.needs = "auto_update.enabled"
    fields = [
        zone_field,
        Field("location.city", "City", "text", _value(config, "location.city")),
        Field("location.state", "State or region", "text", _value(config, "location.state")),
        Field("location.country", "Country", "text", _value(config, "location.country")),
        Field("location.latitude", "Latitude", "optional-float",
              _value(config, "location.latitude"), -90, 90, "any", hint="blank: not set"),
        Field("location.longitude", "Longitude", "optional-float",
              _value(config, "location.longitude"), -180, 180, "any", hint="blank: not set"),
        Field("display.use_short_date_format", "Short date format (\"Mon 3/4\")", "bool",
              _value(config, "display.use_short_date_format")),
        Field("auto_update.enabled", "Update automatically every week", "bool",
              _value(config, "auto_update.enabled")),
        day,
        Field("auto_update.time", "Update time", "time", _value(config, "auto_update.time"),
              hint=next_update_line(config), needs="auto_update.enabled"),
        _limited("web.port", "Web port", config,
                 hint="takes effect when the web service restarts"),
    ]
    stored = _value(config, "web.port")
    if listening and stored != listening:
        fields[-1].hint += (f"; the web service listens on port {listening} now (set by "
                            "--port or LEDPANEL_WEB_PORT, which outrank this setting)")
    return {"fields": fields}


def display_context(config: dict[str, Any]) -> dict[str, Any]:
    """The Display tab: every panel setting, with the hardware rules' limits."""
    brightness = Field("brightness", "Brightness", "range",
                       _at(config, "brightness", _value(config, f"{HARDWARE}.brightness")),
                       1, 100, hint="applied at once")
    return {"brightness": brightness, "panel": _panel_fields(config),
            "timing": _timing_fields(config), "sync": _sync_fields(config)}


def _sync_fields(config: dict[str, Any]) -> list[Field]:
    """Several panels as one (docs/CONFIG.md, ``sync``): through the MQTT tab's broker."""
    def choices(names: tuple[str, ...]) -> list[tuple[str, str]]:
        return [(name, name) for name in names]

    return [
        _select("sync.role", "Role", config, choices(SYNC_ROLES),
                hint="a leader says what it shows; followers show it in step"),
        Field("sync.group", "Group", "text", _value(config, "sync.group"),
              hint="panels of one group follow each other (letters, digits, - and _)"),
        Field("sync.leader", "Leader to follow", "text", _value(config, "sync.leader"),
              hint="a follower's leader by name (its base topic's last part); empty: any"),
        _select("sync.follower_position", "Position beside the leader", config,
                choices(FOLLOWER_POSITIONS),
                hint="none: the same picture; left or right: its part of a wider one"),
        _select("sync.wall", "Leader's wall", config, choices(WALL_SIDES),
                hint="on a leader: the sides with a follower (read when the display starts)"),
    ]


def _mapping_field(config: dict[str, Any]) -> Field:
    """The hardware mapping select; each option carries its output count for the page."""
    mapping = _select(f"{HARDWARE}.hardware_mapping", "Hardware mapping", config,
                      [(name, f"{name} ({m.outputs} output{'s' if m.outputs > 1 else ''})")
                       for name, m in MAPPINGS.items()])
    if mapping.warning:
        mapping.warning = (unknown_mapping_message(mapping.value) + ". It is kept as stored "
                           "until you choose another mapping.")
    mapping.option_data = {name: m.outputs for name, m in MAPPINGS.items()}
    return mapping


def _panel_fields(config: dict[str, Any]) -> list[Field]:
    """The panel's geometry, wiring and orientation; parallel is capped by the mapping."""
    mapping = _mapping_field(config)

    def geometry(key: str, label: str, step: str | None = None) -> Field:
        low, high = PANEL_RANGES[key]
        return Field(f"{HARDWARE}.{key}", label, "int", _value(config, f"{HARDWARE}.{key}"),
                     low, high, step)

    stored_parallel = _value(config, f"{HARDWARE}.parallel")
    known = isinstance(mapping.value, str) and mapping.value in MAPPINGS  # a list: no name
    outputs = MAPPINGS[mapping.value].outputs if known else None
    sequences = ["".join(p) for p in permutations("RGB")]
    return [
        geometry("rows", "Rows per panel", "2"),
        geometry("cols", "Columns per panel"),
        geometry("chain_length", "Chain length"),
        Field(f"{HARDWARE}.parallel", "Parallel chains", "int", stored_parallel, 1,
              outputs, hint="at most the mapping's outputs"),
        mapping,
        _select(f"{HARDWARE}.led_rgb_sequence", "LED colour order", config,
                [(s, s) for s in sequences]),
        Field(f"{HARDWARE}.pixel_mapper_config", "Pixel mappers", "text",
              _value(config, f"{HARDWARE}.pixel_mapper_config"),
              hint="';'-separated, e.g. Rotate:90 or U-mapper"),
        Field(f"{HARDWARE}.panel_type", "Panel type", "text",
              _value(config, f"{HARDWARE}.panel_type"), hint="empty: none"),
        _select("orientation", "Orientation", config,
                [(str(o), f"{o}°") for o in ORIENTATIONS]),
        Field("display.double_sided", "Double-sided (two back-to-back panels)", "bool",
              _value(config, "display.double_sided")),
    ]


def _timing_fields(config: dict[str, Any]) -> list[Field]:
    """The panel's timing and driver options, and the emulator switch."""
    return [
        _limited(f"{HARDWARE}.pwm_bits", "PWM bits", config),
        _limited(f"{HARDWARE}.pwm_lsb_nanoseconds", "PWM LSB nanoseconds", config),
        _limited(f"{HARDWARE}.pwm_dither_bits", "PWM dither bits", config),
        _select(f"{HARDWARE}.scan_mode", "Scan mode", config,
                [("0", "0 progressive"), ("1", "1 interlaced")]),
        _limited(f"{HARDWARE}.row_address_type", "Row address type", config),
        _limited(f"{HARDWARE}.multiplexing", "Multiplexing", config, hint="0 = direct"),
        _limited(f"{HARDWARE}.limit_refresh_rate_hz", "Refresh rate limit (Hz)", config,
                 hint="0 = none"),
        _limited(f"{RUNTIME}.gpio_slowdown", "GPIO slowdown", config),
        Field(f"{HARDWARE}.disable_hardware_pulsing", "Disable hardware pulsing", "bool",
              _value(config, f"{HARDWARE}.disable_hardware_pulsing")),
        Field(f"{HARDWARE}.inverse_colors", "Inverse colours", "bool",
              _value(config, f"{HARDWARE}.inverse_colors")),
        Field(f"{HARDWARE}.show_refresh_rate", "Log the refresh rate", "bool",
              _value(config, f"{HARDWARE}.show_refresh_rate")),
        Field("display.emulator", "Emulator (no panel; hardware rules only warn)", "bool",
              _value(config, "display.emulator")),
        _select("display.emulator_adapter", "Emulator output", config,
                [("raw", "raw (in memory)"), ("browser", "browser (port 8888)")]),
    ]


def durations_context(config: dict[str, Any],
                      plugins: list[dict[str, Any]]) -> dict[str, Any]:
    """The Durations & Rotation tab: each installed plugin's durations, in rotation order.

    ``order`` is the ids as the form shows them; ``absent`` the stored
    ``rotation_order`` ids that are not installed, which a save sends back after them.
    """
    durations = config.get("display_durations")
    durations = durations if isinstance(durations, dict) else {}
    by_id = {str(plugin["id"]): plugin for plugin in plugins}
    stored_order = config.get("rotation_order")
    order = effective_order(by_id, stored_order)
    listed = stored_order if isinstance(stored_order, list) else []
    absent = [p for p in dict.fromkeys(p for p in listed if isinstance(p, str)) if p not in by_id]
    rows = []
    for plugin_id in order:
        plugin = by_id[plugin_id]
        section = config.get(plugin_id)
        section = section if isinstance(section, dict) else {}
        dynamic = section.get("dynamic_duration")
        dynamic = dynamic if isinstance(dynamic, dict) else {"enabled": dynamic is True}
        own = section.get("display_duration")
        own_text = "its default" if own is None else f"{own} s"
        rows.append({
            "id": plugin_id,
            "name": str(plugin.get("name") or plugin_id),
            "duration": Field(f"display_durations.{plugin_id}", "Seconds", "float",
                              durations.get(plugin_id), 1, None, "any",
                              hint=f"blank: the plugin's own ({own_text})"),
            "dynamic": Field(f"{plugin_id}.dynamic_duration.enabled", "Dynamic duration",
                             "bool", dynamic.get("enabled") is True),
            "max": Field(f"{plugin_id}.dynamic_duration.max_duration_seconds", "Longest (s)",
                         "float", dynamic.get("max_duration_seconds"), 1, None, "any",
                         hint="blank: the plugin's default (300 s if it has none)"),
        })
    extra = sorted(k for k in durations if k not in {row["id"] for row in rows})
    return {"plugins": rows,
            "others": [Field(f"display_durations.{k}", k, "float", durations[k], 1, None, "any")
                       for k in extra],
            "order": json.dumps(order + absent), "absent": json.dumps(absent)}


def schedule_context(config: dict[str, Any]) -> dict[str, Any]:
    """The Schedule tab: the power and dim schedules, global and per day."""
    return {"power": _input_times(schedule_view(config, "schedule")),
            "dim": _input_times(schedule_view(config, "dim_schedule")),
            "days": DAYS}


def _input_times(view: dict[str, Any]) -> dict[str, Any]:
    """Write the view's times as a time input shows them: ``7:05`` (a hand edit the
    display accepts) as ``07:05``, which is also how a save stores it. A time input
    shows anything else blank, and the save then names the field."""
    def shown(value: Any) -> Any:
        try:
            at = parse_time(value)
        except ValueError:
            return value
        return f"{at.hour:02d}:{at.minute:02d}"

    fixed = {k: shown(v) if k in ("start_time", "end_time") else v for k, v in view.items()}
    days = view.get("days")
    if isinstance(days, dict):
        fixed["days"] = {day: {k: shown(v) if k in ("start_time", "end_time") else v
                               for k, v in entry.items()} if isinstance(entry, dict) else entry
                         for day, entry in days.items()}
    return fixed


def vegas_context(config: dict[str, Any]) -> dict[str, Any]:
    """The Vegas tab: every ``vegas_scroll`` key the display reads."""
    v = "vegas_scroll"

    def flag(key: str, label: str, hint: str = "") -> Field:
        return Field(f"{v}.{key}", label, "bool", _value(config, f"{v}.{key}"), hint=hint)

    fields = [
        flag("enabled", "Vegas mode (all plugins as one continuous ticker)"),
        _limited(f"{v}.scroll_speed", "Scroll speed (px/s)", config),
        _limited(f"{v}.scroll_delay", "Seconds per frame", config, "float", step="0.001"),
        flag("frame_based_scrolling", "Frame-based scrolling (whole pixels per frame)"),
        flag("dynamic_cycle_duration", "Cycle length follows the content"),
        _limited(f"{v}.vegas_min_cycle_duration", "Shortest cycle (s)", config),
        _limited(f"{v}.vegas_max_cycle_duration", "Longest cycle (s)", config),
        Field(f"{v}.separator", "Separator", "text", _value(config, f"{v}.separator")),
        Field(f"{v}.separator_color", "Separator colour", "color",
              _value(config, f"{v}.separator_color")),
        _limited(f"{v}.separator_padding", "Separator padding (px)", config),
        Field(f"{v}.background_color", "Background colour", "color",
              _value(config, f"{v}.background_color")),
        Field(f"{v}.font_family", "Separator font", "text", _value(config, f"{v}.font_family"),
              hint="empty: the display's regular font"),
        Field(f"{v}.plugin_order", "Plugin order", "list", _value(config, f"{v}.plugin_order"),
              hint="plugin ids, comma-separated; unlisted plugins follow"),
        Field(f"{v}.excluded_plugins", "Excluded plugins", "list",
              _value(config, f"{v}.excluded_plugins"), hint="plugin ids, comma-separated"),
        flag("include_new_plugins", "New plugins join at the end"),
        _select(f"{v}.default_vegas_mode", "Default mode", config,
                [("scroll", "scroll"), ("fixed", "fixed"), ("static", "static")]),
        _limited(f"{v}.default_panel_count", "Default panel count", config),
        _limited(f"{v}.static_hold_duration", "Static hold (s)", config, "float", step="any"),
        _limited(f"{v}.buffer_ahead", "Segments rendered ahead", config),
        flag("live_priority", "Live content interrupts the ticker"),
        flag("live_interrupt", "Live content takes over at once",
             hint="off: it waits for the end of the cycle"),
    ]
    return {"fields": fields}


SETTINGS_TABS = frozenset({"general", "display", "durations", "schedule", "vegas"})


def settings_context(name: str, config: dict[str, Any],
                     plugins: Callable[[], list[dict[str, Any]]],
                     listening: int | None = None) -> dict[str, Any]:
    """Return the context of settings tab ``name`` (one of ``SETTINGS_TABS``)."""
    if name == "durations":
        return durations_context(config, plugins())
    if name == "general":
        return general_context(config, listening)
    builders: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
        "general": general_context, "display": display_context,
        "schedule": schedule_context, "vegas": vegas_context}
    return builders[name](config)
