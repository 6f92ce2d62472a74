"""PluginManager's start queue: the display loads the plugin it shows first, the rest after."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from shared.paths import Paths
from shared.plugin_system.manager import PluginManager

MakePlugin = Callable[..., Path]


def test_the_queue_follows_the_rotation_order_and_load_first_stops_at_the_first_loaded(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    for plugin_id in ("alpha", "beta", "gamma", "off"):
        make_plugin(plugins_dir, plugin_id)
    make_plugin(plugins_dir, "broken", code="raise RuntimeError('boom at import')\n")
    make_plugin(plugins_dir, "bad-json", manifest_text="{ not json")
    config = {p: {"enabled": True} for p in ("alpha", "beta", "gamma", "broken", "bad-json")}
    config["off"] = {"enabled": False}
    config["rotation_order"] = ["broken", "gamma"]
    plugins = PluginManager(paths, config)

    plugins.queue_enabled()
    assert plugins.loading == ["broken", "gamma", "alpha", "beta"]
    assert list(plugins.load_errors) == ["bad-json"]  # a broken folder is told at once

    assert plugins.load_first() == ["gamma"]  # "broken" failed: the next one is shown first
    assert sorted(plugins.instances) == ["gamma"]
    assert "broken" in plugins.load_errors
    assert plugins.loading == ["alpha", "beta"]

    assert plugins.load_next(1) == ["alpha"]
    assert plugins.load_now("beta") == ["beta"]
    assert plugins.loading == []
    assert sorted(plugins.instances) == ["alpha", "beta", "gamma"]


def test_the_restored_on_demands_plugin_comes_first_and_safe_mode_is_not_queued(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    for plugin_id in ("alpha", "beta", "held"):
        make_plugin(plugins_dir, plugin_id)
    plugins = PluginManager(paths, {p: {"enabled": True} for p in ("alpha", "beta", "held")})
    plugins.blocked = {"held": "it crashed the display"}

    plugins.queue_enabled(first="beta")

    assert plugins.loading == ["beta", "alpha"]
    assert plugins.load_errors == {"held": "in safe mode: it crashed the display"}
    assert plugins.load_first() == ["beta"]


def test_a_reload_before_the_queue_is_done_loads_the_rest_at_once(
    paths: Paths, plugins_dir: Path, make_plugin: MakePlugin
) -> None:
    for plugin_id in ("alpha", "beta", "gamma"):
        make_plugin(plugins_dir, plugin_id)
    config = {p: {"enabled": True} for p in ("alpha", "beta", "gamma")}
    plugins = PluginManager(paths, config)
    plugins.queue_enabled()
    plugins.load_first()

    changed = plugins.apply_config({**config, "gamma": {"enabled": False}})

    assert changed == ["beta"]
    assert sorted(plugins.instances) == ["alpha", "beta"]
    assert plugins.loading == []
