"""``display.double_sided``: two back-to-back panels on one chain show the same picture.

The chain's first half faces one way and its second half the other. Plugins draw on a
surface half the chain's width; every frame is copied into both halves before it is
pushed, so each side reads normally from its own front. Mounting a side upside down or
mirrored is what ``display.hardware.pixel_mapper_config`` is for.

The setting is read when the display service starts (like the other panel settings);
``wrap_double_sided`` is applied to the backend before the display manager is built,
inside the orientation (``display_service.matrix.orientation.wrap_backend``), so a turned
picture is what both halves show.
A chain too narrow to halve (odd width) is used as a single panel, with a warning.
"""

from __future__ import annotations

import logging
from typing import Any

from PIL import Image

from display_service.matrix.protocol import MatrixBackend
from display_service.matrix.wrapper import BackendWrapper

logger = logging.getLogger(__name__)


def double_sided(config: dict[str, Any]) -> bool:
    """Return the config's ``display.double_sided`` (anything but true means off)."""
    display = config.get("display")
    return isinstance(display, dict) and display.get("double_sided") is True


class DoubleSidedBackend(BackendWrapper):
    """A backend of half the chain's width whose frames appear on both halves."""

    def __init__(self, backend: MatrixBackend) -> None:
        super().__init__(backend)
        self._canvas = Image.new("RGB", (backend.width, backend.height))

    @property
    def width(self) -> int:
        return self.inner.width // 2

    def show(self, image: Image.Image) -> None:
        """Push ``image`` (half the chain wide) to both halves of the chain."""
        half = image if image.mode == "RGB" else image.convert("RGB")
        self._canvas.paste(half, (0, 0))
        self._canvas.paste(half, (self.width, 0))
        self.inner.show(self._canvas)


def wrap_double_sided(backend: MatrixBackend, config: dict[str, Any]) -> MatrixBackend:
    """Return ``backend`` halved and mirrored when the config asks for double-sided."""
    if not double_sided(config):
        return backend
    if backend.width < 2 or backend.width % 2:
        logger.warning("display.double_sided: a %d px wide chain cannot be split in two "
                       "equal halves; showing it as one panel", backend.width)
        return backend
    return DoubleSidedBackend(backend)
