"""strip_pixels: a strip's pixels as a read-only (height, width, 3) array, numpy or not."""

from __future__ import annotations

import subprocess
import sys

import pytest
from PIL import Image

from shared.plugin_api.common import strip_pixels as module
from shared.plugin_api.common.strip_pixels import strip_pixels
from tests.daemons import ROOT


def image() -> Image.Image:
    picture = Image.new("RGB", (5, 3), (10, 20, 30))
    picture.putpixel((4, 2), (200, 100, 50))
    return picture


def test_a_numpy_array_when_the_process_uses_numpy() -> None:
    numpy = pytest.importorskip("numpy")
    pixels = strip_pixels(image())
    assert isinstance(pixels, numpy.ndarray)
    assert pixels.shape == (3, 5, 3) and pixels.dtype == numpy.uint8
    assert pixels[2, 4].tolist() == [200, 100, 50]
    assert not pixels.flags.writeable


def test_a_memoryview_of_the_same_shape_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module, "numpy_module", lambda: None)  # as on a Pi without numpy
    pixels = strip_pixels(image().convert("RGBA"))
    assert isinstance(pixels, memoryview)
    assert pixels.shape == (3, 5, 3) and pixels.readonly
    assert [pixels[2, 4, c] for c in range(3)] == [200, 100, 50]


def test_numpy_is_never_imported_for_it() -> None:
    # A fresh interpreter: reading the pixels must not pay for importing numpy.
    code = ("import sys\n"
            "from PIL import Image\n"
            "from shared.plugin_api.common.strip_pixels import strip_pixels\n"
            "pixels = strip_pixels(Image.new('RGB', (4, 2)))\n"
            "print(type(pixels).__name__, 'numpy' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60, check=True)
    assert result.stdout.split() == ["memoryview", "False"]
