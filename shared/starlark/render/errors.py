"""WidgetError: a widget given an argument it cannot use, named in one line."""

from __future__ import annotations


class WidgetError(ValueError):
    """``render.Text(font="nope")`` and the like: the message names widget and argument."""

    def __init__(self, widget: str, argument: str, problem: str) -> None:
        super().__init__(f"{widget}: {argument} {problem}")
        self.widget = widget
        self.argument = argument


class TooManyFrames(WidgetError):
    """A tree with more frames than ``render_frames`` was told to allow, refused before painting."""

    def __init__(self, count: int, allowed: int) -> None:
        super().__init__("Root", "child", f"has {count} frames, more than the {allowed} allowed")
        self.count = count
        self.allowed = allowed
