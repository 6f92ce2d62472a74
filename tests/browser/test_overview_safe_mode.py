"""The Overview tab shows the plugins in safe mode, and Release brings one back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.bus import core as keys
from shared.bus.core import Bus
from tests.daemons import running
from tests.system.test_plugin_containment import killed_inside_slow, safe_mode

pytestmark = pytest.mark.timeout(150)


def test_the_overview_shows_safe_mode_and_release_loads_the_plugin_again(
        tmp_path: Path, page: Any, shoot: Any) -> None:
    instance = killed_inside_slow(tmp_path)

    with running(instance) as (display, _web, url):
        page.goto(url)
        page.wait_for_selector("#safe-mode:not([hidden])", timeout=30_000)
        entry = page.locator("#safe-mode-list li")
        assert entry.count() == 1
        assert entry.get_attribute("data-plugin") == "slow"
        assert "during its display() call" in entry.locator(".reason").text_content()
        shoot(page, "safe-mode")

        entry.locator("button", has_text="Release").click()
        page.wait_for_selector("#safe-mode", state="hidden", timeout=15_000)
        # The answer's words come after the refresh that hid the list.
        page.locator("#message", has_text="released").wait_for(timeout=10_000)
        assert safe_mode(instance) == {}
        loaded = Bus(instance.cache_dir).read(keys.DISPLAY_STATE)["loaded_plugins"]
        assert "slow" in loaded
        shoot(page, "safe-mode-released")
