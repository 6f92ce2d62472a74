"""The rotation follows ``rotation_order``: the rule, and the real daemons after a save."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import requests

from display_service.control.rotation import build_entries
from shared.bus import core as keys
from shared.bus.core import Bus
from shared.config.rotation_order import effective_order
from tests.daemons import ROOT, Instance, running

PLUGIN_CODE = '''
from shared.plugin_api.base_plugin import BasePlugin


class Plugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        self.display_manager.image.putpixel((0, 0), (255, 0, 0))
        self.display_manager.update_display()
        return True
'''
PLUGINS = ("alpha", "beta", "gamma")


def _order(ids, order) -> list[str]:
    built = build_entries(ids, lambda p: [f"{p}_a", f"{p}_b"], lambda _p: 5, order=order)
    return list(dict.fromkeys(e.plugin_id for e in built))


def test_listed_plugins_come_first_in_their_order_and_the_rest_follow_sorted() -> None:
    assert _order(["delta", "alpha", "gamma", "beta"], ["gamma", "beta"]) == [
        "gamma", "beta", "alpha", "delta"]
    built = build_entries(["a", "b"], lambda p: [f"{p}1", f"{p}2"], lambda _p: 5, order=["b"])
    assert [e.key for e in built] == [("b", "b1"), ("b", "b2"), ("a", "a1"), ("a", "a2")]


def test_no_order_or_an_empty_one_is_the_sorted_order() -> None:
    assert _order(["c", "a", "b"], None) == ["a", "b", "c"]
    assert _order(["c", "a", "b"], []) == ["a", "b", "c"]


def test_listed_ids_that_are_not_loaded_are_skipped() -> None:
    assert _order(["b", "a"], ["gone", "b", "also-gone"]) == ["b", "a"]
    assert _order([], ["a"]) == []


@pytest.mark.parametrize("garbage", [
    "b,a", 7, {"b": 1}, True, [None, 3, ["b"], {"b": 1}], ["b", "b", "a", "b"],
])
def test_a_hand_edited_order_that_breaks_the_rules_never_breaks_the_rotation(garbage) -> None:
    shown = _order(["a", "b", "c"], garbage)
    assert sorted(shown) == ["a", "b", "c"]
    if isinstance(garbage, list) and "b" in garbage:
        assert shown == ["b", "a", "c"]
    elif not isinstance(garbage, list) or not any(isinstance(g, str) for g in garbage):
        assert shown == ["a", "b", "c"]
    assert effective_order(["a", "b"], garbage) == _order(["a", "b"], garbage)


# -- the real daemons ----------------------------------------------------------------------


def three_plugins(tmp_path: Path) -> Instance:
    """An instance with plugins alpha, beta and gamma, enabled, shown 1 s each."""
    instance = Instance(tmp_path)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    for plugin_id in PLUGINS:
        directory = instance.plugins_dir / plugin_id
        directory.mkdir(parents=True)
        (directory / "manifest.json").write_text(json.dumps({
            "id": plugin_id, "name": plugin_id.title(), "version": "1.0.0",
            "author": "tests", "entry_point": "manager.py", "class_name": "Plugin",
            "display_modes": [plugin_id], "compatible_versions": [">=3.0.0"]}))
        (directory / "manager.py").write_text(PLUGIN_CODE)
        config[plugin_id] = {"enabled": True}
    config["display_durations"] = dict.fromkeys(PLUGINS, 1)
    instance.write_config(config)
    return instance


def _shown_in_turn(bus: Bus, count: int, timeout: float = 30.0) -> list[str]:
    """Return the next ``count`` plugins the display starts showing, in turn."""
    seen: list[str] = []
    last = (bus.read(keys.DISPLAY_STATE) or {}).get("plugin_id")
    deadline = time.monotonic() + timeout
    while len(seen) < count and time.monotonic() < deadline:
        now = (bus.read(keys.DISPLAY_STATE) or {}).get("plugin_id")
        if now and now != last:
            seen.append(now)
            last = now
        time.sleep(0.02)
    assert len(seen) == count, f"only saw {seen} in {timeout} s"
    return seen


def _cycle_from(seen: list[str], first: str) -> list[str]:
    start = seen.index(first)
    return seen[start:start + len(PLUGINS)]


@pytest.mark.timeout(180)
def test_the_running_display_follows_a_saved_rotation_order(tmp_path: Path) -> None:
    instance = three_plugins(tmp_path)
    bus = Bus(instance.cache_dir)
    with running(instance) as (_display, _web, url):
        assert _cycle_from(_shown_in_turn(bus, 6), "alpha") == ["alpha", "beta", "gamma"]

        response = requests.post(f"{url}/api/v3/config/main",
                                 json={"rotation_order": ["gamma", "uninstalled", "beta"]},
                                 timeout=10)
        assert response.status_code == 200, response.text
        seq = bus.read(keys.CONFIG_CHANGED)["seq"]
        deadline = time.monotonic() + 30
        while (bus.read(keys.DISPLAY_STATE) or {}).get("config_seq") != seq:
            assert time.monotonic() < deadline, "the display did not take the saved config"
            time.sleep(0.05)

        # Listed first (gamma, beta), the rest after (alpha): the turn order of three
        # plugins is reversed, which no restart point of the sorted order gives.
        assert _cycle_from(_shown_in_turn(bus, 6), "gamma") == ["gamma", "beta", "alpha"]
