"""A backend that changes the picture on its way to another backend.

Wrappers (double-sided, orientation) pass brightness, clear and close through and
change only the surface size and ``show``.
"""

from __future__ import annotations

from PIL import Image

from display_service.matrix.protocol import MatrixBackend


class BackendWrapper:
    """Pass everything through to ``inner``; subclasses override size and ``show``."""

    def __init__(self, backend: MatrixBackend) -> None:
        self.inner = backend
        self.name = backend.name
        self.matrix = getattr(backend, "matrix", None)

    @property
    def width(self) -> int:
        return self.inner.width

    @property
    def height(self) -> int:
        return self.inner.height

    @property
    def brightness(self) -> int:
        return self.inner.brightness

    @brightness.setter
    def brightness(self, value: int) -> None:
        self.inner.brightness = value

    def show(self, image: Image.Image) -> None:
        self.inner.show(image)

    def clear(self) -> None:
        self.inner.clear()

    def close(self) -> None:
        self.inner.close()
