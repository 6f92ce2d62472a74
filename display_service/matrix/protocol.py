"""The surface every matrix backend offers the render loop."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from PIL import Image


@runtime_checkable
class MatrixBackend(Protocol):
    """A panel the render thread pushes whole frames to.

    Only the render thread calls these methods. ``brightness`` is a percentage, 1-100;
    backends clamp out-of-range values instead of raising.
    """

    name: str

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def brightness(self) -> int: ...

    @brightness.setter
    def brightness(self, value: int) -> None: ...

    def show(self, image: Image.Image) -> None:
        """Push ``image`` (RGB, the panel's size) as the next full frame."""

    def clear(self) -> None:
        """Blank the panel."""

    def close(self) -> None:
        """Release the panel; no call is made after this."""


def clamp_brightness(value: object, default: int = 100) -> int:
    """Return ``value`` as an int in 1-100, or ``default`` when it is not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return max(1, min(100, int(value)))
