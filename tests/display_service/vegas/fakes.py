"""Plugins with Vegas hooks, a fake clock and a content source, for the Vegas tests."""

from __future__ import annotations

from typing import Any

from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from display_service.vegas import Segment
from shared.plugin_api.base_plugin import BasePlugin

WIDTH, HEIGHT = 64, 16


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def display_manager(width: int = WIDTH, height: int = HEIGHT) -> DisplayManager:
    """Return a real display manager over a headless panel."""
    return DisplayManager(HeadlessMatrix(width, height))


def solid(width: int, color: tuple[int, int, int], height: int = HEIGHT) -> Image.Image:
    return Image.new("RGB", (width, height), color)


class FillPlugin(BasePlugin):
    """Its display() fills the surface with ``color``; no Vegas hooks."""

    def __init__(self, plugin_id: str, color: tuple[int, int, int] = (255, 0, 0),
                 config: dict[str, Any] | None = None, dm: Any = None) -> None:
        super().__init__(plugin_id, config or {"enabled": True}, dm or display_manager(),
                         None, None)
        self.color = color
        self.displays = 0

    def update(self) -> None:
        pass

    def display(self, force_clear: bool = False) -> bool | None:
        self.displays += 1
        if force_clear:
            self.display_manager.clear()
        dm = self.display_manager
        dm.draw.rectangle((0, 0, dm.width - 1, dm.height - 1), fill=self.color)
        dm.update_display()
        return True


class ContentPlugin(FillPlugin):
    """get_vegas_content() returns ``content`` (an image, a list, or None)."""

    def __init__(self, plugin_id: str, content: Any, color: tuple[int, int, int] = (255, 0, 0),
                 mode: str | None = None, content_type: str | None = None,
                 config: dict[str, Any] | None = None) -> None:
        super().__init__(plugin_id, color, config)
        self.content = content
        self.mode = mode
        self.content_type = content_type

    def get_vegas_content(self) -> Any:
        return self.content() if callable(self.content) else self.content

    def get_vegas_display_mode(self) -> str | None:
        return self.mode

    def get_vegas_content_type(self) -> str | None:
        return self.content_type


class RaisingPlugin(FillPlugin):
    """get_vegas_content() raises."""

    def get_vegas_content(self) -> Any:
        raise RuntimeError("feed down")


class EmptyPlugin(FillPlugin):
    """display() has nothing to show."""

    def display(self, force_clear: bool = False) -> bool | None:
        self.displays += 1
        return False


class CountingSource:
    """A content source returning fixed segments and counting the calls."""

    def __init__(self, segments: list[Segment]) -> None:
        self.segments = segments
        self.calls = 0

    def __call__(self) -> list[Segment]:
        self.calls += 1
        return list(self.segments)


def vegas_config(**overrides: Any) -> dict[str, Any]:
    """Return a config whose ``vegas_scroll`` section is the template's plus overrides."""
    section: dict[str, Any] = {
        "enabled": True, "scroll_speed": 50, "scroll_delay": 0.02,
        "frame_based_scrolling": False, "vegas_min_cycle_duration": 0,
        "vegas_max_cycle_duration": 300, "dynamic_cycle_duration": True,
        "separator": "", "separator_padding": 0, "background_color": [0, 0, 0],
        "buffer_ahead": 2, "static_hold_duration": 5,
    }
    section.update(overrides)
    return {"vegas_scroll": section}
