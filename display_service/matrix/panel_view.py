"""What plugins read as ``display_manager.matrix``: the panel's size and brightness.

Plugins written for the existing system read ``display_manager.matrix.width`` and
``.height`` without a None check, and some read or set ``brightness``. Every backend
(real, emulator, headless, the headless fallback) gives them this same small object,
sized like the drawing surface (after double-sided and orientation), never the
binding's own matrix object: frames reach the panel only through the render loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class _Surface(Protocol):
    """The display manager, as far as the view needs it."""

    backend: Any

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    def defer_update(self, fn: Callable[[], Any], priority: int = 0) -> None: ...


class PanelView:
    """``width``, ``height`` and ``brightness`` of the panel plugins draw on."""

    def __init__(self, surface: _Surface) -> None:
        self._surface = surface

    @property
    def width(self) -> int:
        """Panel width in pixels, as drawn (``display_manager.width``)."""
        return self._surface.width

    @property
    def height(self) -> int:
        """Panel height in pixels, as drawn (``display_manager.height``)."""
        return self._surface.height

    @property
    def brightness(self) -> int:
        """The brightness on the panel now, 1-100."""
        return int(self._surface.backend.brightness)

    @brightness.setter
    def brightness(self, value: int) -> None:
        """Set the brightness (clamped to 1-100) before the next frame.

        It holds until the next saved config sets the configured brightness again.
        Only the render thread touches the backend, so the change is queued for it.
        """
        backend = self._surface.backend

        def apply() -> None:
            backend.brightness = value

        self._surface.defer_update(apply, priority=-1)

    def __repr__(self) -> str:
        return f"PanelView({self.width}x{self.height}, brightness={self.brightness})"
