"""``orientation``: the panel is mounted turned, so every frame is turned before it goes out.

``orientation`` is 0, 90, 180 or 270: how far, clockwise, the picture plugins draw is
turned on its way to the panel, the same direction as the library's ``Rotate:<deg>``
pixel mapper. For 90 and 270 plugins draw on a surface with width and height swapped
(a 128x32 panel mounted upright is a 32x128 surface); 180 keeps the size; 0 changes
nothing. The matrix library never reads the setting: the turn is one Pillow transpose
per pushed frame, done here.

Order with ``display.double_sided``: the orientation wraps the double-sided backend, so
it turns what plugins draw, and each side of the chain gets the turned picture.
Turning the whole chain first and halving it afterwards would split the turned chain
across the wrong axis.

The setting is read when the display service starts, like the other panel settings.
An invalid stored value (the web refuses to save one) is used as 0, with a warning in
the hardware status record (``display_service.matrix.select``), never as a reason to
fall back from a real panel.
"""

from __future__ import annotations

import logging
from typing import Any

from PIL import Image

from display_service.matrix.double_sided import wrap_double_sided
from display_service.matrix.protocol import MatrixBackend
from display_service.matrix.wrapper import BackendWrapper
from shared.hardware.rules import ORIENTATION, ORIENTATIONS

logger = logging.getLogger(__name__)

# Pillow's transposes turn counter-clockwise; these turn the picture clockwise.
_CLOCKWISE = {
    90: Image.Transpose.ROTATE_270,
    180: Image.Transpose.ROTATE_180,
    270: Image.Transpose.ROTATE_90,
}


def orientation(config: dict[str, Any]) -> int:
    """Return the config's ``orientation`` in degrees; anything invalid counts as 0."""
    value = config.get(ORIENTATION, 0)
    if isinstance(value, int) and not isinstance(value, bool) and value in ORIENTATIONS:
        return value
    return 0


class OrientationBackend(BackendWrapper):
    """A backend whose surface is the panel turned by ``degrees`` (90, 180 or 270)."""

    def __init__(self, backend: MatrixBackend, degrees: int) -> None:
        if degrees not in _CLOCKWISE:
            raise ValueError(f"orientation must be 90, 180 or 270 here, got {degrees!r}")
        super().__init__(backend)
        self.degrees = degrees
        self._turn = _CLOCKWISE[degrees]

    @property
    def width(self) -> int:
        return self.inner.height if self.degrees in (90, 270) else self.inner.width

    @property
    def height(self) -> int:
        return self.inner.width if self.degrees in (90, 270) else self.inner.height

    def show(self, image: Image.Image) -> None:
        """Turn ``image`` (the surface's size) clockwise and push it to the panel."""
        frame = image if image.mode == "RGB" else image.convert("RGB")
        self.inner.show(frame.transpose(self._turn))


def wrap_orientation(backend: MatrixBackend, config: dict[str, Any]) -> MatrixBackend:
    """Return ``backend`` turned as ``orientation`` says (unchanged for 0 or invalid)."""
    degrees, raw = orientation(config), config.get(ORIENTATION)
    if raw is not None and (isinstance(raw, bool) or raw != degrees):
        logger.warning("orientation %r is not 0, 90, 180 or 270; the picture is not turned",
                       raw)
    if degrees == 0:
        return backend
    return OrientationBackend(backend, degrees)


def wrap_backend(backend: MatrixBackend, config: dict[str, Any],
                 status: dict[str, Any] | None = None) -> MatrixBackend:
    """Return the surface plugins draw on: double-sided first, then the orientation.

    When ``status`` (the hardware status record) is given, its ``drawing_size`` is set
    to that surface's size.
    """
    surface = wrap_orientation(wrap_double_sided(backend, config), config)
    if status is not None:
        status["drawing_size"] = {"width": surface.width, "height": surface.height}
    return surface
