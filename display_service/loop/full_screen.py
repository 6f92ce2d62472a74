"""The seam for a full-screen mode that replaces the rotation (the Vegas ticker).

The render loop takes an optional ``FullScreenMode``. While ``active()`` is True and
neither an on-demand request nor live content is shown, the loop calls ``render``
instead of drawing rotation entries; the rotation keeps its clock but is not drawn.
The power schedule still blanks the panel, and brightness, config reloads and
requests are applied between two of its frames like between any others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class FullScreenMode(Protocol):
    """A mode that draws the whole panel itself instead of the rotation."""

    def configure(self, config: dict[str, Any]) -> None:
        """Take a (re)loaded config."""

    def active(self) -> bool:
        """Return True while the mode replaces the rotation."""

    def render(self, now: float, force: bool) -> float:
        """Draw and present one frame on the render thread; return when the next is due.

        ``now`` and the return value are on the loop's monotonic clock; ``force`` is True
        for the first frame after something else was shown.
        """


class LazyMode:
    """A full-screen mode built, and its code imported, when a config first turns it on.

    Most panels never use the mode; building it at start would cost every start its
    import. ``wanted(config)`` says whether a config turns it on; ``build(config)``
    returns the mode. Until then it is inactive; afterwards every call (and any other
    attribute, such as ``status``) goes to the mode.
    """

    def __init__(self, wanted: Callable[[dict[str, Any]], bool],
                 build: Callable[[dict[str, Any]], FullScreenMode]) -> None:
        self._wanted = wanted
        self._build = build
        self.mode: FullScreenMode | None = None

    def configure(self, config: dict[str, Any]) -> None:
        if self.mode is None:
            if not self._wanted(config):
                return
            self.mode = self._build(config)
        self.mode.configure(config)

    def active(self) -> bool:
        return self.mode is not None and self.mode.active()

    def render(self, now: float, force: bool) -> float:
        assert self.mode is not None, "render() while inactive"
        return self.mode.render(now, force)

    def __getattr__(self, name: str) -> Any:
        mode = self.__dict__.get("mode")
        if mode is None:
            raise AttributeError(name)
        return getattr(mode, name)
