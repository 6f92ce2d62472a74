"""An in-memory panel: development mode, the fallback when no hardware is usable, tests."""

from __future__ import annotations

from PIL import Image

from display_service.matrix.protocol import clamp_brightness


class HeadlessMatrix:
    """Keep a copy of the last frame pushed and count the frames."""

    name = "headless"

    def __init__(self, width: int, height: int, brightness: int = 100) -> None:
        self._width = int(width)
        self._height = int(height)
        self._brightness = clamp_brightness(brightness)
        self.last_frame: Image.Image | None = None
        self.frames_pushed = 0
        self.closed = False

    @property
    def width(self) -> int:
        return self._width

    @property
    def height(self) -> int:
        return self._height

    @property
    def brightness(self) -> int:
        return self._brightness

    @brightness.setter
    def brightness(self, value: int) -> None:
        self._brightness = clamp_brightness(value, self._brightness)

    def show(self, image: Image.Image) -> None:
        """Keep a copy of ``image`` as the frame on the panel."""
        frame = image.convert("RGB") if image.mode != "RGB" else image.copy()
        if frame.size != (self._width, self._height):
            canvas = Image.new("RGB", (self._width, self._height))
            canvas.paste(frame, (0, 0))
            frame = canvas
        self.last_frame = frame
        self.frames_pushed += 1

    def clear(self) -> None:
        """Blank the panel."""
        self.last_frame = Image.new("RGB", (self._width, self._height))

    def close(self) -> None:
        self.closed = True
