"""The pixels of a scroll strip as an array: what ``ScrollHelper.cached_array`` answers.

Plugins written for the existing system read ``cached_array`` after building a strip,
mostly to check that one exists (``is None``). ledpanel draws from the Pillow image, so
the array is made only when asked for and is read-only: writing into it would not
change what the panel shows.

Shape ``(height, width, 3)``, one byte per colour channel: a numpy array when the
process has already imported numpy (a plugin that slices arrays imports numpy itself),
else a memoryview of the same shape. numpy is not a dependency of ledpanel and is never
imported here: that import takes a few hundred milliseconds on a Pi, and
``cached_array`` is read inside ``display()``, on the render thread.
"""

from __future__ import annotations

import sys
from typing import Any

from PIL import Image


def numpy_module() -> Any:
    """Return numpy when this process has already imported it, else None."""
    return sys.modules.get("numpy")


def strip_pixels(image: Image.Image) -> Any:
    """Return the RGB pixels of ``image``, read-only, shaped (height, width, 3)."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    numpy = numpy_module()
    if numpy is None:
        return memoryview(rgb.tobytes()).cast("B", (rgb.height, rgb.width, 3))
    array = numpy.asarray(rgb)
    array.flags.writeable = False
    return array
