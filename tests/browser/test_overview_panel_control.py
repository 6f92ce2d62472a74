"""The Overview's Next and power buttons, and the reason line, in a real browser against
the real daemons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.browser.test_overview_tab import wait_rows
from tests.daemons import ROOT, Instance, running
from tests.display_service.test_daemon import add_plugin

pytestmark = pytest.mark.timeout(120)


def make_instance(base: Path) -> Instance:
    instance = Instance(base)
    add_plugin(instance.plugins_dir, "alpha", "AlphaPlugin", ["alpha_one", "alpha_two"])
    add_plugin(instance.plugins_dir, "beta", "BetaPlugin", ["beta_main"])
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config.update(alpha={"enabled": True}, beta={"enabled": True},
                  display_durations={"alpha": 600, "beta": 600})
    instance.write_config(config)
    return instance


def test_next_and_panel_off_and_on_from_the_overview(tmp_path: Path, page: Any,
                                                     shoot: Any) -> None:
    instance = make_instance(tmp_path)
    bus = Bus(instance.cache_dir)
    with running(instance) as (display, _web, url):
        page.goto(url)
        found = wait_rows(page, lambda r: r.get("Why") == "rotation: slot 1 of 3", 15)
        assert "alpha_one" in found["Panel"], found
        assert page.text_content("#panel-power") == "Panel off"
        shoot(page, "rotation")

        page.click("#next-entry")
        found = wait_rows(page, lambda r: r.get("Why") == "rotation: slot 2 of 3")
        assert "alpha_two" in found["Panel"], found
        assert page.text_content("#panel-message") == "showing alpha / alpha_two"
        assert (bus.read(keys.DISPLAY_STATE) or {}).get("mode") == "alpha_two"

        page.click("#panel-power")
        found = wait_rows(page, lambda r: r.get("Why") == "panel off: turned off by hand")
        assert found["Panel"] == "panel off (turned off by hand)"
        page.wait_for_function(
            "document.getElementById('panel-power').textContent === 'Panel on'")
        assert page.text_content("#panel-message") == "panel off"
        assert page.text_content("#preview-empty") == "The panel is off (turned off by hand)."
        assert (bus.read(keys.DISPLAY_STATE) or {}).get("power") == "off", display.output()
        shoot(page, "off-by-hand")

        page.click("#panel-power")
        found = wait_rows(page, lambda r: r.get("Why") == "rotation: slot 2 of 3")
        page.wait_for_function(
            "document.getElementById('panel-power').textContent === 'Panel off'")
        assert (bus.read(keys.DISPLAY_STATE) or {}).get("power") == "on"
