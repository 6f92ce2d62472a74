"""BasePlugin: constructor surface, config changes, display duration precedence."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from shared.plugin_api.base_plugin import BasePlugin


class ManifestSource:
    """The part of the plugin manager BasePlugin reads: manifests by plugin id."""

    def __init__(self, manifests: dict[str, dict[str, Any]]) -> None:
        self.manifests = manifests
        self.font_manager = None

    def get_manifest(self, plugin_id: str) -> dict[str, Any] | None:
        return self.manifests.get(plugin_id)


class Minimal(BasePlugin):
    def update(self) -> None:
        pass

    def display(self, force_clear: bool = False) -> bool:
        return True


class WithClassDefault(Minimal):
    default_duration = 25


def make(config: dict[str, Any], manifest: dict[str, Any] | None = None,
         cls: type[Minimal] = Minimal) -> Minimal:
    return cls("demo", config, None, None, ManifestSource({"demo": manifest or {}}))


def test_constructor_sets_the_plugin_facing_attributes() -> None:
    source = ManifestSource({})
    plugin = Minimal("demo", {"enabled": False}, "dm", "cache", source)

    assert (plugin.plugin_id, plugin.display_manager, plugin.cache_manager) == (
        "demo", "dm", "cache")
    assert plugin.plugin_manager is source
    assert plugin.config == {"enabled": False}
    assert plugin.enabled is False
    assert isinstance(plugin.logger, logging.Logger)
    assert plugin.logger.name == "plugin.demo"
    assert make({}).enabled is True


def test_update_and_display_are_abstract() -> None:
    class Incomplete(BasePlugin):
        def update(self) -> None:
            pass

    with pytest.raises(TypeError):
        Incomplete("x", {}, None, None, None)  # type: ignore[abstract]


def test_on_config_change_replaces_config_and_enabled() -> None:
    plugin = make({"enabled": True, "a": 1})
    plugin.on_config_change({"enabled": False, "b": 2})
    assert plugin.config == {"enabled": False, "b": 2}
    assert plugin.enabled is False


@pytest.mark.parametrize(
    ("config", "manifest", "cls", "expected"),
    [
        ({"display_duration": 30}, {"default_duration": 10}, WithClassDefault, 30.0),
        ({}, {"default_duration": 10}, WithClassDefault, 10.0),
        ({}, {}, WithClassDefault, 25.0),
        ({}, {}, Minimal, 15.0),
        ({"display_duration": 0}, {"default_duration": "x"}, Minimal, 15.0),
        ({"display_duration": True}, {}, Minimal, 15.0),
    ],
)
def test_display_duration_precedence(
    config: dict[str, Any], manifest: dict[str, Any], cls: type[Minimal], expected: float
) -> None:
    plugin = make(config, manifest, cls)
    assert plugin.get_display_duration() == expected
    assert plugin.display_duration == expected


def test_duration_works_without_a_plugin_manager() -> None:
    assert Minimal("demo", {}, None, None, None).display_duration == 15.0


def test_lifecycle_hooks_have_safe_defaults() -> None:
    plugin = make({})
    assert plugin.validate_config() is True
    plugin.on_disable()
    assert plugin.enabled is False
    plugin.on_enable()
    assert plugin.enabled is True
    plugin.cleanup()
    assert plugin._get_font_manager() is None


@pytest.mark.parametrize(("assigned", "expected"), [
    (30, 30.0), (12.5, 12.5), ("45", 45.0), (" 7.5 ", 7.5),
    (True, 20.0), (0, 20.0), (-3, 20.0), ("soon", 20.0), (None, 20.0), (float("nan"), 20.0),
])
def test_a_duration_the_plugin_assigns_comes_first_when_it_is_a_positive_number(
        assigned: Any, expected: float) -> None:
    # Community plugins set self.display_duration in __init__; garbage falls through.
    plugin = make({"display_duration": 20})
    plugin.display_duration = assigned
    assert plugin.get_display_duration() == expected
    assert plugin.display_duration == expected


def test_a_display_duration_class_attribute_counts_too() -> None:
    class Fixed(Minimal):
        display_duration = 45

    assert make({"display_duration": 20}, cls=Fixed).get_display_duration() == 45.0


@pytest.mark.parametrize(("configured", "expected"), [
    ("12.5", 12.5), (" 30 ", 30.0), ("0", 15.0), ("soon", 15.0), ({"s": 5}, 15.0),
    (False, 15.0), (None, 15.0),
])
def test_the_configs_duration_counts_as_numeric_text_too(configured: Any, expected: float) -> None:
    assert make({"display_duration": configured}).get_display_duration() == expected


@pytest.mark.parametrize(("config", "valid"), [
    ({}, True), ({"display_duration": 20}, True), ({"display_duration": 7.5}, True),
    ({"display_duration": "12.5"}, True),
    ({"display_duration": 0}, False), ({"display_duration": -5}, False),
    ({"display_duration": True}, False), ({"display_duration": False}, False),
    ({"display_duration": "soon"}, False), ({"display_duration": None}, False),
    ({"display_duration": float("inf")}, False),
])
def test_validate_config_agrees_with_get_display_duration(
    config: dict[str, Any], valid: bool, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="plugin.demo"):
        assert make(config).validate_config() is valid
    assert ("display_duration must be a positive number of seconds" in caplog.text) is not valid


def test_a_cycle_is_complete_at_once_while_dynamic_duration_is_off() -> None:
    assert make({"enabled": True}).is_cycle_complete() is True
    assert make({"dynamic_duration": {"enabled": False}}).is_cycle_complete() is True
    assert make({"dynamic_duration": False}).is_cycle_complete() is True
    plugin = make({"dynamic_duration": {"enabled": True}})
    assert plugin.is_cycle_complete() is False
    plugin.mark_cycle_complete()
    assert plugin.is_cycle_complete() is True
