"""BasePlugin's capability pieces: dynamic duration and live priority defaults."""

from __future__ import annotations

from typing import Any

import pytest

from shared.plugin_api.base_plugin import BasePlugin
from shared.plugin_api.duration import DurationMixin
from shared.plugin_api.live_priority import LivePriorityMixin


class Minimal(BasePlugin):
    def update(self) -> None:
        pass

    def display(self, force_clear: bool = False) -> bool:
        return True


def make(config: dict[str, Any]) -> Minimal:
    return Minimal("demo", config, None, None, None)


def test_base_plugin_is_composed_of_the_capability_pieces() -> None:
    assert issubclass(BasePlugin, DurationMixin)
    assert issubclass(BasePlugin, LivePriorityMixin)


@pytest.mark.parametrize(("setting", "expected"), [
    ({"enabled": True}, True), ({"enabled": False}, False), (True, True), (False, False),
    (None, False), ({"enabled": "yes"}, False),
])
def test_dynamic_duration_follows_the_config(setting: Any, expected: bool) -> None:
    config = {} if setting is None else {"dynamic_duration": setting}
    assert make(config).supports_dynamic_duration() is expected


def test_dynamic_duration_cap_comes_from_max_duration_seconds() -> None:
    assert make({"dynamic_duration": {"enabled": True, "max_duration_seconds": 90}}
                ).get_dynamic_duration_cap() == 90.0
    for bad in (0, -5, "60", True, float("nan")):
        plugin = make({"dynamic_duration": {"enabled": True, "max_duration_seconds": bad}})
        assert plugin.get_dynamic_duration_cap() is None
    assert make({}).get_dynamic_duration_cap() is None


def test_a_cycle_completes_when_marked_and_starts_over_on_reset() -> None:
    plugin = make({"dynamic_duration": {"enabled": True}})
    assert plugin.is_cycle_complete() is False
    plugin.mark_cycle_complete()
    assert plugin.is_cycle_complete() is True
    plugin.reset_cycle_state()
    assert plugin.is_cycle_complete() is False


def test_live_priority_defaults() -> None:
    plugin = make({"live_priority": True})
    assert plugin.has_live_priority() is True
    assert plugin.has_live_content() is False
    assert plugin.get_live_modes() == []
    assert make({}).has_live_priority() is False
    assert make({"live_priority": "true"}).has_live_priority() is False
