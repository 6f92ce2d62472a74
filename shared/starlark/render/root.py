"""Root and render_frames: an app's widget tree turned into the frames a panel shows.

The tree is painted once per frame, from its top-left corner, on black. As in the
app format, only its first ``max_frames`` frames are painted and the rest dropped.
Its frame count is checked before anything is drawn, so a runaway tree (more than
``refuse_over`` frames) is refused at once instead of after minutes of counting work.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from shared.starlark.render.errors import TooManyFrames
from shared.starlark.render.widget import Bounds, Canvas, Widget
from shared.starlark.render.widget_args import bool_arg, int_arg, widget_arg

DEFAULT_DELAY_MS = 50
DEFAULT_MAX_FRAMES = 2000  # the app format's own default cap: frames past it are dropped
DEFAULT_REFUSE_OVER = 8000  # a tree with more frames is a runaway, refused before painting
_BLACK = (0, 0, 0, 255)


class Root:
    """The top of an app's tree: its child, frame delay and how long the frames stay valid."""

    def __init__(self, child: object = None, delay: object = None, max_age: object = None,
                 show_full_animation: object = None) -> None:
        self.child: Widget = widget_arg("Root", "child", child)
        # A delay of 0 means the default, as in the app format.
        self.delay = int_arg("Root", "delay", delay, minimum=0) or DEFAULT_DELAY_MS
        self.max_age = int_arg("Root", "max_age", max_age, minimum=0)
        self.show_full_animation = bool_arg("Root", "show_full_animation", show_full_animation)


@dataclass
class Frames:
    """Painted frames (RGB, all the same size) and the milliseconds each is shown;
    ``show_full_animation``: the app asks to be shown until its animation has played
    through once, however short its slot."""

    images: list[Image.Image]
    delay_ms: int
    show_full_animation: bool = False


def render_frames(root: Root, width: int = 64, height: int = 32,
                  max_frames: int = DEFAULT_MAX_FRAMES,
                  refuse_over: int = DEFAULT_REFUSE_OVER) -> Frames:
    """Paint the first ``max_frames`` frames of ``root`` at ``width`` x ``height``.

    A tree with more than ``refuse_over`` frames is refused before any is painted.
    """
    bounds = Bounds(width, height)
    count = root.child.frame_count(bounds)
    if count > refuse_over:
        raise TooManyFrames(count, refuse_over)
    shown = max(1, min(count, max_frames))
    images = [_paint(root.child, bounds, frame) for frame in range(shown)]
    return Frames(images=images, delay_ms=root.delay,
                  show_full_animation=root.show_full_animation is True)


def _paint(child: Widget, bounds: Bounds, frame: int) -> Image.Image:
    canvas = Canvas(bounds.width, bounds.height)
    canvas.fill(0, 0, bounds.width, bounds.height, _BLACK)
    with canvas.at(0, 0, bounds):
        child.paint(canvas, bounds, frame)
    return canvas.image.convert("RGB")
