"""Image: PNG, JPEG, GIF or WebP bytes an app passes, animated ones frame by frame.

Each frame of an animated GIF or WebP is one widget frame, shown
``hold_frames`` frames long, and the frames repeat when a parent asks for more
than there are; an animated PNG shows its first frame, as in the app format.
Given only ``width`` or only ``height`` the other follows the aspect ratio
(rounded down); scaling is nearest-neighbour, as pixel art needs. ``delay`` is
the first frame's duration in milliseconds as the GIF or WebP states it (0 for
PNG and JPEG), for apps that read it; an app may also set it.

Limits, checked before the pixels are decoded, and again for the scaled size
before scaling: each side at most ``MAX_SIDE`` (4096) pixels, at most
``MAX_FRAMES`` (1000) frames, and at most ``MAX_TOTAL_PIXELS`` (2**24, 16 M)
pixels over all frames together, so one image holds at most 64 MB decoded.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image as PILImage
from PIL import ImageSequence, UnidentifiedImageError

from shared.starlark.render.errors import WidgetError
from shared.starlark.render.image_cache import DECODED
from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import int_arg

MAX_SIDE = 4096
MAX_FRAMES = 1000
MAX_TOTAL_PIXELS = 1 << 24
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
ANIMATED = ("GIF", "WEBP")


def _open(src: bytes) -> PILImage.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            image = PILImage.open(io.BytesIO(src), formats=FORMATS)
    except (UnidentifiedImageError, PILImage.DecompressionBombError,
            PILImage.DecompressionBombWarning, OSError, ValueError) as err:
        raise WidgetError("Image", "src", f"is not a PNG, JPEG, GIF or WebP image ({err})") \
            from None
    return image


def _frame_total(image: PILImage.Image) -> int:
    """How many frames are shown: GIF and WebP animate; a PNG shows its first frame only."""
    return int(getattr(image, "n_frames", 1)) if image.format in ANIMATED else 1


def _check_limits(image: PILImage.Image) -> int:
    """The frame count of ``image``, after refusing one over the limits."""
    _check_sides(*image.size)
    frames = _frame_total(image)
    _check_count(*image.size, frames)
    return frames


def _check_sides(width: int, height: int) -> None:
    if width > MAX_SIDE or height > MAX_SIDE:
        raise WidgetError("Image", "src", f"is {width}x{height} pixels; the limit is "
                          f"{MAX_SIDE} on each side")


def _check_count(width: int, height: int, frames: int) -> None:
    if frames > MAX_FRAMES:
        raise WidgetError("Image", "src", f"has {frames} frames; the limit is {MAX_FRAMES}")
    if width * height * frames > MAX_TOTAL_PIXELS:
        raise WidgetError("Image", "src", f"has {width * height * frames} pixels over its "
                          f"frames; the limit is {MAX_TOTAL_PIXELS}")


def _rgba(frame: PILImage.Image) -> PILImage.Image:
    """``frame`` as 8-bit RGBA; 16-bit grey is scaled down, not clipped to white."""
    if frame.mode.startswith("I;16") or frame.mode == "I":
        frame = frame.point(lambda value: value / 256).convert("L")
    return frame.convert("RGBA")


def decode_frames(src: bytes) -> tuple[list[PILImage.Image], int]:
    """The RGBA frames of ``src`` and its first frame's duration in milliseconds."""
    image = _open(src)
    with image:
        frames = _check_limits(image)
        decoded: list[PILImage.Image] = []
        delay = 0
        try:
            for frame in ImageSequence.Iterator(image):
                decoded.append(_rgba(frame))
                if len(decoded) == 1 and image.format in ANIMATED:
                    # WebP states a frame's duration only once the frame is read.
                    delay = int(frame.info.get("duration", 0) or 0)
                if len(decoded) == frames:
                    break
        except (OSError, ValueError, SyntaxError) as err:
            raise WidgetError("Image", "src", f"cannot be decoded ({err})") from None
    return decoded, delay


def scaled_size(size: tuple[int, int], width: int, height: int,
                frames: int = 1) -> tuple[int, int]:
    """The size to scale to: both given, or one given and the other kept in ratio."""
    old_width, old_height = size
    if not width and not height:
        return size
    new_width = max(width or int(height * (old_width / old_height)), 1)
    new_height = max(height or int(width * (old_height / old_width)), 1)
    argument = "width" if width else "height"
    if new_width > MAX_SIDE or new_height > MAX_SIDE:
        raise WidgetError("Image", argument, f"scales the image to {new_width}x{new_height}; "
                          f"the limit is {MAX_SIDE} on each side")
    if new_width * new_height * frames > MAX_TOTAL_PIXELS:
        raise WidgetError("Image", argument, f"scales the image's {frames} frames to "
                          f"{new_width * new_height * frames} pixels; the limit is "
                          f"{MAX_TOTAL_PIXELS}")
    return new_width, new_height


def _src_bytes(src: object) -> bytes:
    """``src`` as bytes; a string is taken as bytes carried one per character (Latin-1)."""
    if isinstance(src, str):
        try:
            return _src_bytes(src.encode("latin-1"))
        except UnicodeEncodeError:
            return _src_bytes(src.encode("utf-8"))
    if not isinstance(src, (bytes, bytearray)) or not src:
        raise WidgetError("Image", "src", "must be the image's bytes")
    return bytes(src)


class Image(Widget):
    """A still or animated picture from the bytes an app read or fetched."""

    def __init__(self, src: object = None, width: object = None, height: object = None,
                 delay: object = None, hold_frames: object = None) -> None:
        data = _src_bytes(src)
        width_arg = int_arg("Image", "width", width, minimum=0)
        height_arg = int_arg("Image", "height", height, minimum=0)
        self.hold_frames = max(int_arg("Image", "hold_frames", hold_frames), 1)
        frames, self.delay = DECODED.get(data, decode_frames)
        _check_sides(*frames[0].size)  # again: a kept picture skipped the checks of decoding
        _check_count(*frames[0].size, len(frames))
        self.delay = int_arg("Image", "delay", delay, default=self.delay, minimum=0)
        target = scaled_size(frames[0].size, width_arg, height_arg, len(frames))
        if target != frames[0].size:
            frames = [frame.resize(target, PILImage.Resampling.NEAREST) for frame in frames]
        self.frames = frames

    def frame_image(self, frame: int) -> PILImage.Image:
        """The picture shown at widget frame ``frame``."""
        return self.frames[(frame // self.hold_frames) % len(self.frames)]

    def size(self, bounds: Bounds, frame: int) -> Bounds:
        image = self.frame_image(frame)
        return Bounds(min(image.width, bounds.width), min(image.height, bounds.height))

    def paint(self, canvas: Canvas, bounds: Bounds, frame: int) -> None:
        canvas.paste(self.frame_image(frame), 0, 0)

    def frame_count(self, bounds: Bounds) -> int:
        return len(self.frames) * self.hold_frames
