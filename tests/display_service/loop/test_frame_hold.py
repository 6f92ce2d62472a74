"""The render loop paces a scrolling plugin by its frame hold, not by the refresh rate."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.display_service.helpers import ColorPlugin, FakeHost, make_display, running_loop


class Scroller(ColorPlugin):
    """Scrolls one pixel per call with the given frame hold."""

    def __init__(self, plugin_id: str, config: dict[str, Any], display_manager: Any,
                 hold: int) -> None:
        super().__init__(plugin_id, config, display_manager)
        self.hold = hold

    def display(self, force_clear: bool = False, display_mode: str | None = None) -> bool:
        self.display_manager.set_scrolling_state(True, frame_hold=self.hold)
        return super().display(force_clear, display_mode)


def _calls_per_second(tmp_path: Path, hold: int) -> float:
    display = make_display()
    display.refresh_hz = 100
    plugin = Scroller("scroll", {}, display, hold)
    with running_loop(tmp_path, display, FakeHost({"scroll": plugin}),
                      {"display_durations": {"scroll": 60}}):
        time.sleep(0.3)
        start_calls, started = plugin.displays, time.monotonic()
        time.sleep(1.0)
        return (plugin.displays - start_calls) / (time.monotonic() - started)


def test_frame_hold_slows_display_calls(tmp_path: Path) -> None:
    unheld = _calls_per_second(tmp_path / "a", hold=1)
    held = _calls_per_second(tmp_path / "b", hold=4)
    # 100 Hz vs 25 Hz nominal; a loaded machine may render fewer frames, never more.
    assert held <= 30
    assert unheld > 2 * held
