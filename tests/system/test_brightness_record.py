"""The hardware record in the status shows the brightness in force, not the one at start."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.daemons import running
from tests.display_service.helpers import wait_until as wait_for
from tests.system.test_hostile_bus import status
from tests.system.test_no_lost_changes import make_instance, running_state

pytestmark = [pytest.mark.timeout(60), pytest.mark.daemons]


def _shown_brightness(url: str) -> object:
    hardware = status(url).get("hardware") or {}
    return hardware.get("settings", {}).get("display", {}).get("hardware", {}).get("brightness")


def test_the_status_shows_a_saved_brightness_once_the_display_applied_it(
        tmp_path: Path) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        before = _shown_brightness(url)
        assert isinstance(before, int) and before != 40
        saved = requests.post(f"{url}/api/v3/config/main",
                              json={"display": {"hardware": {"brightness": 40}}}, timeout=10)
        assert saved.status_code == 200, saved.text
        wait_for(lambda: "brightness 40" in display.output(), timeout=10)
        wait_for(lambda: _shown_brightness(url) == 40, timeout=10)
        # Still a live setting: the save did not ask for a restart of the display.
        assert "restart" not in saved.json().get("message", "").lower()
