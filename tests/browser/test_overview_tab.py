"""The Overview tab in a real browser against real daemons: it says what the panel shows."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.daemons import start_display, start_web
from tests.system.test_no_lost_changes import make_instance, running_state

pytestmark = pytest.mark.timeout(120)


def rows(page: Any) -> dict[str, str]:
    """Return the Overview's Panel card rows, label to text ({} until the tab loaded)."""
    return page.evaluate("""() => {
        const list = document.getElementById("display");
        const out = {};
        if (!list) return out;
        for (const dt of list.querySelectorAll("dt")) out[dt.textContent] =
            dt.nextElementSibling.textContent;
        return out;
    }""")


def wait_rows(page: Any, check: Any, timeout: float = 10.0) -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while True:
        found = rows(page)
        if check(found):
            return found
        assert time.monotonic() < deadline, found
        page.wait_for_timeout(200)


def schedule_off_now(config_file: Path) -> None:
    """Set a power schedule whose on-window starts two hours from now (UTC)."""
    config = json.loads(config_file.read_text())
    hour = time.gmtime().tm_hour
    config["timezone"] = "UTC"
    config["schedule"].update(enabled=True, mode="global", start_time=f"{(hour + 2) % 24:02d}:00",
                              end_time=f"{(hour + 3) % 24:02d}:00")
    config_file.write_text(json.dumps(config, indent=2))


def test_the_overview_says_the_panel_is_off_and_never_shows_a_stale_picture(
        tmp_path: Path, page: Any, shoot: Any) -> None:
    instance = make_instance(tmp_path)
    schedule_off_now(instance.config_dir / "config.json")
    display = start_display(instance)
    web, url = start_web(instance)
    try:
        page.goto(url)  # the panel is off: no first frame to wait for
        found = wait_rows(page, lambda r: r.get("Panel") == "panel off (power schedule)")
        assert found["Display service"].startswith("running (pid ")
        assert found["Hardware"].startswith("headless 128x32 (no panel attached")
        assert found["Config"] == "ok"
        assert "still" not in found["Panel"]
        assert not page.is_visible("#preview")
        assert page.text_content("#preview-empty") == "The panel is off (power schedule)."
        # The header, on every tab, says the same: never "showing X" over a black panel.
        assert page.text_content("#header-state") == "panel off (power schedule)"
        assert page.get_attribute("#header-state", "data-tone") == "off"
        shoot(page, "panel-off")
        display.process.kill()
        display.process.wait(5)
        found = wait_rows(page, lambda r: r.get("Display service") == "not running")
        assert found["Panel"] == "not running"
        assert "Frames/s" not in found and "On-demand" not in found
        assert not page.is_visible("#preview")
        assert page.text_content("#preview-empty") == (
            "No live picture: the display service is not running.")
        assert page.text_content("#header-state") == "display service not running"
        shoot(page, "display-down")
    finally:
        web.stop()
        display.stop()


def test_the_overview_shows_a_config_file_that_does_not_parse(tmp_path: Path, page: Any,
                                                          shoot: Any) -> None:
    instance = make_instance(tmp_path)
    display = start_display(instance)
    web, url = start_web(instance)
    try:
        running_state(instance, display)
        page.goto(url)
        wait_rows(page, lambda r: r.get("Panel") == "showing Still")  # its name, no mode
        page.wait_for_selector("#preview", state="visible")
        assert page.get_attribute("#preview", "src").startswith("data:image/png;base64,")
        shoot(page, "showing")
        (instance.config_dir / "config.json").write_text('{\n  "brightness": 50,\n}\n')
        found = wait_rows(page, lambda r: r.get("Config", "ok") != "ok")
        assert "trailing comma before the end of the object at line 2, column 19" in (
            found["Config"])
        assert found["Panel"] == "showing Still"  # the panel carries on
        shoot(page, "config-broken")
    finally:
        web.stop()
        display.stop()
