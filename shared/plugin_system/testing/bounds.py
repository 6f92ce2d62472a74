"""``BoundsCheckingDisplayManager``: the device's display manager, recording draws that
fall outside the panel.

It wraps the real ``DisplayManager`` (``surface``). Every drawing call made through
``draw`` (the object ``draw_text`` uses too) or through an ``ImageDraw.Draw(image)``
the plugin makes itself (Pillow asks the image for its drawing object), and every
``image.paste``, is measured before it runs: a call whose box starts at a negative
coordinate or reaches past the right or bottom edge is recorded in ``problems`` as a
``bounds`` finding naming the call and its box (left, top, right, bottom; right and
bottom exclusive); ``check_overflow()`` gives the box round all of them. The call still
runs, as on the device. Direct pixel writes (``putpixel``, ``load()``) are not seen.
Everything else (``width``, ``height``, ``matrix``, fonts, ``update_display``,
scrolling) is the real manager's. The existing system's signature works too: defaults of
128x32, ``overflow_extent`` (accepted; no padding is needed when every draw is
measured), ``get_image()``/``declared_image()`` (the canvas), ``save_snapshot(path)``,
``get_image_base64()`` and ``draw_image(image, x, y)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw

from shared.plugin_system.testing.findings import WARNING, Finding
from shared.plugin_system.testing.surface import headless_display_manager
from shared.plugin_system.testing.visual import png_base64

Box = tuple[int, int, int, int]
MAX_PROBLEMS = 200
_SHAPES = {"rectangle", "rounded_rectangle", "ellipse", "arc", "chord", "pieslice"}
_POINTS = {"line", "point", "polygon"}
_INNER = ("_inner", "problems", "_seen")


class BoundsCheckingDisplayManager:
    """A real headless display manager whose draws are checked against the panel."""

    def __init__(self, width: int = 128, height: int = 32,
                 overflow_extent: tuple[int, int] | None = None) -> None:
        # ``overflow_extent`` is the existing system's padding size: every draw is
        # measured here, so no padding is needed and it is accepted only.
        del overflow_extent
        object.__setattr__(self, "_inner", headless_display_manager(width, height))
        object.__setattr__(self, "problems", [])
        object.__setattr__(self, "_seen", set())
        self._watch()

    @property
    def inner(self) -> Any:
        """The wrapped device display manager."""
        return self._inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _INNER:
            object.__setattr__(self, name, value)
            return
        setattr(self._inner, name, value)
        if name in ("image", "draw"):
            self._watch()

    def clear(self) -> None:
        """Start a fresh canvas (the real ``clear``), still watched."""
        self._inner.clear()
        self._watch()

    def blank(self) -> None:
        self._inner.blank()
        self._watch()

    def check_overflow(self) -> Box | None:
        """Return the box round every recorded out-of-panel draw, or None when there is none."""
        boxes = [p.details["box"] for p in self.problems]
        if not boxes:
            return None
        return (min(b[0] for b in boxes), min(b[1] for b in boxes),
                max(b[2] for b in boxes), max(b[3] for b in boxes))

    def get_image(self) -> Image.Image:
        """Return a copy of the canvas as drawn so far (the existing system's name)."""
        return self._inner.image.copy()

    declared_image = get_image

    def save_snapshot(self, path: str) -> None:
        """Save the canvas as a PNG at ``path``."""
        self.get_image().save(path, format="PNG")

    def get_image_base64(self) -> str:
        """Return the canvas as a base64 PNG."""
        return png_base64(self.get_image())

    def draw_image(self, image: Image.Image, x: int, y: int) -> None:
        """Paste ``image`` with its top-left corner at (x, y) (checked like any paste)."""
        self._inner.image.paste(image, (x, y))

    def last_frame(self) -> Image.Image | None:
        """Return the frame last presented on the panel, or None."""
        frame = self._inner.backend.last_frame
        return frame.copy() if frame is not None else None

    def _watch(self) -> None:
        inner = self._inner
        if isinstance(inner.image, Image.Image) and not isinstance(inner.image, _CheckedImage):
            inner.image.__class__ = _CheckedImage
        if isinstance(inner.image, _CheckedImage):
            inner.image._ledpanel_record = self.record
        if not isinstance(inner.draw, _CheckedDraw):
            object.__setattr__(inner, "draw", _CheckedDraw(inner.draw, self.record))

    def record(self, call: str, box: Box | None) -> None:
        """Record ``call`` drawing over ``box`` when the box leaves the panel."""
        if box is None:
            return
        kind = outside(box, self._inner.width, self._inner.height)
        if kind is None or (call, box) in self._seen or len(self.problems) >= MAX_PROBLEMS:
            return
        self._seen.add((call, box))
        self.problems.append(Finding(
            "bounds", WARNING,
            f"{call} at {box} leaves the {self._inner.width}x{self._inner.height} panel ({kind})",
            {"call": call, "box": list(box), "kind": kind}))


def outside(box: Box, width: int, height: int) -> str | None:
    """Return ``negative`` or ``off_panel`` when ``box`` leaves a panel, else None."""
    left, top, right, bottom = box
    if left < 0 or top < 0:
        return "negative"
    if right > width or bottom > height:
        return "off_panel"
    return None


class _CheckedImage(Image.Image):
    """The canvas image: ``paste`` reports its target box first."""

    _ledpanel_record: Callable[[str, Box | None], None] | None = None

    def paste(self, im: Any, box: Any = None, mask: Any = None) -> None:
        record = self._ledpanel_record
        if record is not None:
            record("image.paste", paste_box(im, box))
        super().paste(im, box, mask)

    def getdraw(self, mode: str | None = None) -> Any:
        """What ``ImageDraw.Draw(image)`` returns for this image: a checked drawing object."""
        draw = ImageDraw.ImageDraw(self, mode)
        record = self._ledpanel_record
        return _CheckedDraw(draw, record) if record is not None else draw


def paste_box(im: Any, box: Any) -> Box | None:
    """Return the box ``Image.paste(im, box)`` covers, or None when it is the whole image."""
    if isinstance(box, tuple | list) and len(box) == 4:
        return (int(box[0]), int(box[1]), int(box[2]), int(box[3]))
    if isinstance(box, tuple | list) and len(box) == 2 and isinstance(im, Image.Image):
        x, y = int(box[0]), int(box[1])
        return (x, y, x + im.width, y + im.height)
    return None


class _CheckedDraw:
    """An ``ImageDraw`` whose drawing calls report their box first."""

    def __init__(self, draw: Any, record: Callable[[str, Box | None], None]) -> None:
        self._draw = draw
        self._record = record

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._draw, name)
        if not callable(target) or name not in (_SHAPES | _POINTS | {"text", "bitmap"}):
            return target

        def checked(*args: Any, **kwargs: Any) -> Any:
            self._record(f"draw.{name}", self._box(name, args, kwargs))
            return target(*args, **kwargs)

        return checked

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("_draw", "_record"):
            object.__setattr__(self, name, value)
        else:
            setattr(self._draw, name, value)

    def _box(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Box | None:
        xy: Any = args[0] if args else kwargs.get("xy")
        try:
            if name == "text":
                return self._text_box(xy, args, kwargs)
            if name == "bitmap":
                bitmap: Any = args[1] if len(args) > 1 else kwargs.get("bitmap")
                x, y = int(xy[0]), int(xy[1])
                return (x, y, x + bitmap.width, y + bitmap.height)
            points = flat_points(xy)
        except (TypeError, ValueError, IndexError, AttributeError):
            return None
        if not points:
            return None
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return (int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1)

    def _text_box(self, xy: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Box | None:
        text = args[1] if len(args) > 1 else kwargs.get("text", "")
        if not text:
            return None
        font = args[3] if len(args) > 3 else kwargs.get("font")
        extra = {k: kwargs[k] for k in ("anchor", "spacing", "align", "stroke_width")
                 if k in kwargs}
        left, top, right, bottom = self._draw.textbbox(
            (xy[0], xy[1]), text, font=font, **extra)
        if right <= left or bottom <= top:
            return None
        return (int(left), int(top), int(right), int(bottom))


def flat_points(xy: Any) -> list[tuple[float, float]]:
    """Return the points of an ImageDraw ``xy`` ([(x, y), ...] or [x0, y0, x1, y1, ...])."""
    items = list(xy)
    if items and isinstance(items[0], tuple | list):
        return [(float(p[0]), float(p[1])) for p in items]
    return [(float(items[i]), float(items[i + 1])) for i in range(0, len(items) - 1, 2)]
