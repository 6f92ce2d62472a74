"""Allowed values of non-numeric core settings: one table for every save path.

The numeric ranges are in ``limits``; this table holds the settings whose text must be
one of a few words or a time of day, and ``display.double_sided``, which the raw editor
would otherwise store as any JSON value. JSON and form saves of POST /config/main check
each value they set (``coerce.coerce_value``); the raw editor checks every value its
replacement changes (``limits.value_errors``); the schedule routes check whole
schedule sections with ``shared.schedules.section_problems``, which uses the same rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shared.config.lookup import path_lookup
from shared.config.rate_limits import exempt_addresses_problem, per_minute_problem
from shared.config.rotation_order import KEY as ROTATION_ORDER
from shared.config.rotation_order import order_problem
from shared.config.store_urls import sources_problem, url_problem
from shared.errors import ValidationError
from shared.host_names import host_name_problem
from shared.mqtt.settings import topic_name
from shared.paths import ROOT
from shared.schedules import MODES, normalize_mode, parse_time

FOLLOWER_POSITIONS = ("none", "left", "right")
SYNC_ROLES = ("standalone", "leader", "follower")
WALL_SIDES = ("none", "left", "right", "both")
# RGBMatrixEmulator's outputs the display can open (display.emulator_adapter).
EMULATOR_ADAPTERS = ("raw", "browser")

Rule = Callable[[Any], "str | None"]  # returns what is wrong, or None


def _one_of(*allowed: str) -> Rule:
    def rule(value: Any) -> str | None:
        if isinstance(value, str) and value in allowed:
            return None
        return f"must be one of {', '.join(allowed)}"
    return rule


def _mode(value: Any) -> str | None:
    return None if normalize_mode(value) == value else f"must be one of {', '.join(MODES)}"


def _time_of_day(value: Any) -> str | None:
    try:
        parse_time(value)
    except ValueError as err:
        return str(err)
    return None


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _timezone(value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return "must be an IANA time zone name such as Europe/Berlin"
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        return "is not a known time zone (use a name such as Europe/Berlin or UTC)"
    return None


def _host_names(value: Any) -> str | None:
    if not isinstance(value, list):
        return "must be a list of host names such as [\"panel.example.com\"]"
    for index, entry in enumerate(value):
        problem = (host_name_problem(entry) if isinstance(entry, str)
                   else "must be text (a host name)")
        if problem is not None:
            return f"item {index} ({str(entry)[:60]!r}) {problem}"
    return None


def _topic_safe(empty_allowed: bool) -> Rule:
    def rule(value: Any) -> str | None:
        if isinstance(value, str) and (value == "" and empty_allowed or (
                value and topic_name(value) == value)):
            return None
        what = "empty or " if empty_allowed else ""
        return (f"must be {what}a name of lower-case letters, digits, _ and - "
                "(at most 64 characters)")
    return rule


# Where plugin code may live: these folders of the install tree, or folders inside them.
# Not any folder of the tree: config/ and the cache hold files the web writes.
PLUGIN_HOMES = ("plugin-repos", "plugins")


def _inside_install_tree(value: Any) -> str | None:
    # The display runs as root and imports code from here: a save must not be able to
    # point it at any directory, only at the plugin folders of the install tree.
    if not isinstance(value, str):
        return None  # the template's type rule names that
    if not value.strip():
        return "must name a folder inside the install tree, such as plugin-repos"
    root = ROOT.resolve()
    try:
        resolved = (root / value).resolve()  # symlinks followed: no escaping through one
    except (OSError, RuntimeError, ValueError):
        return "is not a usable path"
    homes = [(root / home).resolve() for home in PLUGIN_HOMES]
    if not any(resolved == home or resolved.is_relative_to(home) for home in homes):
        return (f"must be plugin-repos or plugins of the install tree {root}, or a folder "
                "inside one of them (symlinks resolved)")
    return None


# Dotted path (``*`` matches one key) -> rule.
RULES: dict[str, Rule] = {
    "sync.follower_position": _one_of(*FOLLOWER_POSITIONS),
    "sync.role": _one_of(*SYNC_ROLES),
    "sync.group": _topic_safe(empty_allowed=False),
    "sync.leader": _topic_safe(empty_allowed=True),
    "sync.wall": _one_of(*WALL_SIDES),
    "display.double_sided": _boolean,
    "display.emulator_adapter": _one_of(*EMULATOR_ADAPTERS),
    "timezone": _timezone,
    "vegas_scroll.enabled": _boolean,
    "vegas_scroll.frame_based_scrolling": _boolean,
    "vegas_scroll.default_vegas_mode": _one_of("scroll", "fixed", "static"),
    "plugin_system.plugins_directory": _inside_install_tree,
    "plugin_system.registry_url": url_problem,
    "plugin_system.repository_api_url": url_problem,
    "plugin_system.store_sources": sources_problem,
    "web.sign_in.enabled": _boolean,
    "web.host_check": _boolean,
    "notifications.critical_wakes_panel": _boolean,
    "web.allowed_hosts": _host_names,
    "web.rate_limits.enabled": _boolean,
    "web.rate_limits.exempt_loopback": _boolean,
    "web.rate_limits.exempt_addresses": exempt_addresses_problem,
    "web.rate_limits.per_minute": per_minute_problem,
    ROTATION_ORDER: order_problem,
}
for _section in ("schedule", "dim_schedule"):
    RULES[f"{_section}.mode"] = _mode
    for _key in ("start_time", "end_time"):
        RULES[f"{_section}.{_key}"] = _time_of_day
        RULES[f"{_section}.days.*.{_key}"] = _time_of_day


def rule_for(name: str) -> Rule | None:
    """Return the rule of a dotted path, or None when it has none."""
    return path_lookup(RULES, name)


def check_value(name: str, value: Any) -> None:
    """Raise ValidationError naming the setting when ``value`` is not allowed there."""
    rule = rule_for(name)
    problem = rule(value) if rule is not None else None
    if problem is not None:
        # A list or object is named by the problem itself (which item, which key).
        got = f" (got {value!r})" if isinstance(value, str | bool | int | float) else ""
        raise ValidationError(f"{name} {problem}{got}", error_code="INVALID_FIELD",
                              details={"field": name})
