"""The status page shows the plugins in safe mode, and Release brings one back."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from shared import bus as keys
from shared.bus import Bus
from tests.daemons import running, start_display
from tests.test_plugin_containment import make_instance, safe_mode, shown

pytestmark = pytest.mark.timeout(150)


def test_the_page_shows_safe_mode_and_release_loads_the_plugin_again(
        tmp_path: Path, page: Any, shoot: Any) -> None:
    instance = make_instance(tmp_path, "slow")
    display = start_display(instance)
    shown(instance, display, "slow")  # its display() takes 3 s: kill the daemon inside it
    time.sleep(0.5)
    os.kill(display.process.pid, signal.SIGKILL)
    display.process.wait(10)

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
        assert "released" in page.locator("#message").text_content()
        assert safe_mode(instance) == {}
        loaded = Bus(instance.cache_dir).read(keys.DISPLAY_STATE)["loaded_plugins"]
        assert "slow" in loaded
        shoot(page, "safe-mode-released")
