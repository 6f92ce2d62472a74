"""The Overview's Performance card in a real browser against both real daemons: the
frame rate, the slowest plugin, the temperature from a fake thermal zone, and the line."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bench.common import demo_instance
from tests.daemons import running

pytestmark = pytest.mark.timeout(120)


def card(page: Any) -> dict[str, str]:
    return page.evaluate("""() => {
        const out = {};
        for (const dt of document.querySelectorAll("#metrics dt"))
            out[dt.textContent] = dt.nextElementSibling.textContent;
        return out;
    }""")


def test_the_overview_shows_frame_rate_slowest_plugin_temperature_and_a_line(
        tmp_path: Path, page: Any, shoot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    thermal = tmp_path / "temp"
    thermal.write_text("51234\n")
    monkeypatch.setenv("LEDPANEL_THERMAL_FILE", str(thermal))
    instance = demo_instance(tmp_path / "panel", plugins=1)
    with running(instance) as (_display, _web, url):
        page.goto(url)
        deadline = time.monotonic() + 60
        while True:  # a reading every 5 s: the line needs two
            found = card(page)
            readings = page.get_attribute("#fps-chart", "data-readings") or "0"
            if (found.get("Slowest plugin", "").startswith("demo0 (") and int(readings) >= 2):
                break
            assert time.monotonic() < deadline, (found, readings)
            page.wait_for_timeout(250)
        assert found["Temperature"] == "51.2 °C"
        assert found["Frame rate"].endswith(" frames/s")
        points = page.get_attribute("#fps-chart polyline", "points") or ""
        assert len(points.split()) >= 2
        shoot(page, "performance")
