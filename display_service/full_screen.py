"""The seam for a full-screen mode that replaces the rotation (the Vegas ticker).

The render loop takes an optional ``FullScreenMode``. While ``active()`` is True and
neither an on-demand request nor live content is shown, the loop calls ``render``
instead of drawing rotation entries; the rotation keeps its clock but is not drawn.
The power schedule still blanks the panel, and brightness, config reloads and
requests are applied between two of its frames like between any others.
"""

from __future__ import annotations

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
