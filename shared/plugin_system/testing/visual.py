"""``VisualTestDisplayManager``: real pixels, and the calls a plugin made, for its tests.

The existing system's name and constructor (``width=128, height=32``). It is the
device's own display manager over an in-memory panel (so fonts, text measures and
drawing are the device's), recording as ``MockDisplayManager`` does: ``clear_called``,
``update_called`` and ``draw_calls`` (``{"type": "text", "text", "x", "y", "color",
"font"}`` and ``{"type": "image", "image", "x", "y"}``). ``draw_image(image, x, y)``
pastes onto the canvas; ``get_image()`` is a copy of the canvas as drawn so far,
``save_snapshot(path)`` saves it as a PNG and ``get_image_base64()`` gives that PNG in
base64.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from PIL import Image

from shared.plugin_system.testing.surface import headless_display_manager

_OWN = ("_inner", "clear_called", "update_called", "draw_calls")


class VisualTestDisplayManager:
    """The device's display manager over an in-memory panel, recording its calls."""

    def __init__(self, width: int = 128, height: int = 32) -> None:
        object.__setattr__(self, "_inner", headless_display_manager(width, height))
        self.clear_called = False
        self.update_called = False
        self.draw_calls: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self._inner, name, value)

    def clear(self) -> None:
        """Record the call; start a black canvas."""
        self.clear_called = True
        self._inner.clear()

    def update_display(self) -> None:
        """Record the call; present the canvas."""
        self.update_called = True
        self._inner.update_display()

    def draw_text(self, text: str, x: int | None = None, y: int | None = None,
                  color: Any = (255, 255, 255), small_font: bool = False, font: Any = None,
                  centered: bool = False) -> None:
        """Record the call; draw the text as the device does."""
        self.draw_calls.append({"type": "text", "text": text, "x": x, "y": y, "color": color,
                                "font": font})
        fill = tuple(color) if isinstance(color, list) else color
        self._inner.draw_text(text, x, y, fill, small_font, font, centered)

    def draw_image(self, image: Image.Image, x: int, y: int) -> None:
        """Record the call; paste ``image`` with its top-left corner at (x, y)."""
        self.draw_calls.append({"type": "image", "image": image, "x": x, "y": y})
        self._inner.image.paste(image, (x, y))

    def get_image(self) -> Image.Image:
        """Return a copy of the canvas."""
        return self._inner.image.copy()

    def save_snapshot(self, path: str) -> None:
        """Save the canvas as a PNG at ``path``."""
        self.get_image().save(path, format="PNG")

    def get_image_base64(self) -> str:
        """Return the canvas as a base64 PNG."""
        return png_base64(self.get_image())

    def reset(self) -> None:
        """Forget the calls and blank the canvas."""
        self.clear_called = self.update_called = False
        self.draw_calls = []
        self._inner.clear()


def png_base64(image: Image.Image) -> str:
    """Return ``image`` as a PNG in base64."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")
