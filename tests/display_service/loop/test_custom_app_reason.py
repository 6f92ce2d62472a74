"""The status's reason names a custom app on the panel and where it was pushed from."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import display_service.loop.render_loop  # noqa: F401  (installs the clause, as the daemon does)
from display_service.loop.custom_app_reason import install
from display_service.loop.reason import Scene, reason


def loop_holding(**apps: str) -> Any:
    plugin = SimpleNamespace(apps={name: SimpleNamespace(source=source)
                                   for name, source in apps.items()})
    return SimpleNamespace(plugins=SimpleNamespace(instances={"custom-apps": plugin}))


def test_a_custom_app_in_the_rotation_is_named_with_its_source() -> None:
    scene = Scene("rotation", "custom-apps", "custom-door", slot=2, slots=3,
                  loop=loop_holding(door="mqtt"))
    assert reason(scene) == "rotation: slot 2 of 3; custom app door pushed over MQTT"
    scene = Scene("on_demand", "custom-apps", "custom-door", loop=loop_holding(door="http"))
    assert reason(scene) == "on demand until stopped; custom app door pushed over HTTP"


def test_other_modes_and_apps_the_plugin_does_not_hold_add_nothing() -> None:
    plain = Scene("rotation", "clock", "clock", slot=1, slots=3, loop=loop_holding())
    assert reason(plain) == "rotation: slot 1 of 3"
    fallback = Scene("rotation", "custom-apps", "custom-apps", slot=1, slots=1,
                     loop=loop_holding())
    assert reason(fallback) == "rotation: slot 1 of 1"
    odd = Scene("rotation", "custom-apps", "custom-x", slot=1, slots=1,
                loop=SimpleNamespace(plugins=SimpleNamespace(instances={"custom-apps": 5})))
    assert reason(odd) == "rotation: slot 1 of 1"
    sourceless = Scene("rotation", "custom-apps", "custom-x", slot=1, slots=1,
                       loop=loop_holding(x="somewhere"))
    assert reason(sourceless) == "rotation: slot 1 of 1; custom app x"


def test_installing_twice_adds_the_clause_once() -> None:
    install()
    install()
    scene = Scene("rotation", "custom-apps", "custom-door", slot=1, slots=1,
                  loop=loop_holding(door="http"))
    assert reason(scene).count("custom app door") == 1
