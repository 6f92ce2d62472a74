"""Fit an image into a box: the image side of the adaptive layout.

Modes: ``contain`` (whole image, letterboxed), ``cover`` (fills the box, the overhang
cropped; ``anchor="top"`` keeps the top, for faces), ``fill_height`` (as tall as the
box unless that makes it wider than the box), ``stretch`` (exactly the box). Unlike
Pillow's ``thumbnail`` this scales up as well as down (``upscale=False`` turns that
off), so images grow on bigger panels. The result is always a new RGBA image: never
the caller's object, so a cached fit and its source can change independently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

RESAMPLE_LANCZOS = Image.Resampling.LANCZOS  # photos, logos
RESAMPLE_NEAREST = Image.Resampling.NEAREST  # pixel art, flags, sprites
FIT_MODES = ("contain", "cover", "fill_height", "stretch")


@dataclass(frozen=True)
class ImageFitResult:
    """A fitted RGBA image, its size, the scale applied and the mode used."""

    image: Image.Image
    width: int
    height: int
    scale: float
    mode: str
    source_size: tuple[int, int]

    @property
    def is_empty(self) -> bool:
        """Return True when nothing is to be drawn (zero-sized box or blank image)."""
        return self.width <= 0 or self.height <= 0


def box_size(box: Any) -> tuple[int, int]:
    """Return (w, h) of a Region (anything with ``w`` and ``h``) or a (w, h) pair."""
    if hasattr(box, "w") and hasattr(box, "h"):
        return (int(box.w), int(box.h))
    w, h = box
    return (int(w), int(h))


def fit_image(
    img: Image.Image,
    box: Any,
    mode: str = "contain",
    crop_to_ink: bool = False,
    anchor: str = "center",
    resample: Any = None,
    upscale: bool = True,
) -> ImageFitResult:
    """Return ``img`` fitted into ``box`` (a Region or (w, h)) by ``mode``.

    The arguments may be given by position in the specification's order (``img, box,
    mode, crop_to_ink, anchor, resample, upscale``). ``crop_to_ink`` first trims fully
    transparent borders (logos often carry wide padding). ``resample`` defaults to
    ``RESAMPLE_LANCZOS``. An unknown ``mode`` raises ValueError naming the modes.
    """
    if mode not in FIT_MODES:
        raise ValueError(f"unknown fit mode {mode!r}: use one of {', '.join(FIT_MODES)}")
    box_w, box_h = box_size(box)
    work = img.convert("RGBA") if img.mode != "RGBA" else img.copy()
    if crop_to_ink:
        ink = work.getchannel("A").getbbox()
        if ink is None:
            return _empty(mode, img.size)
        work = work.crop(ink)
    src_w, src_h = work.size
    if box_w <= 0 or box_h <= 0 or src_w <= 0 or src_h <= 0:
        return _empty(mode, (src_w, src_h))
    filt = RESAMPLE_LANCZOS if resample is None else resample
    if mode == "stretch":
        out = work.resize((box_w, box_h), filt)
        return ImageFitResult(out, box_w, box_h, box_w / src_w, mode, (src_w, src_h))
    if mode == "cover":
        scale = max(box_w / src_w, box_h / src_h)
    elif mode == "fill_height":
        scale = min(box_h / src_h, box_w / src_w)
    else:
        scale = min(box_w / src_w, box_h / src_h)
    if not upscale:
        scale = min(scale, 1.0)
    size = (max(1, round(src_w * scale)), max(1, round(src_h * scale)))
    out = work if size == work.size else work.resize(size, filt)
    if mode == "cover":
        out = _crop_overhang(out, box_w, box_h, anchor)
    return ImageFitResult(out, out.width, out.height, scale, mode, (src_w, src_h))


def _crop_overhang(image: Image.Image, box_w: int, box_h: int, anchor: str) -> Image.Image:
    """Crop what sticks out of the box: centred, or keeping the top for ``anchor="top"``."""
    w, h = min(box_w, image.width), min(box_h, image.height)
    left = (image.width - w) // 2
    top = 0 if anchor == "top" else (image.height - h) // 2
    return image.crop((left, top, left + w, top + h))


def _empty(mode: str, source_size: tuple[int, int]) -> ImageFitResult:
    return ImageFitResult(Image.new("RGBA", (1, 1)), 0, 0, 0.0, mode, source_size)


def draw_fitted_image(
    display_manager: Any,
    ifit: ImageFitResult,
    box: Any,
    *,
    align: str = "center",
    valign: str = "center",
    offset: tuple[int, int] = (0, 0),
) -> tuple[int, int] | None:
    """Paste a fitted image onto ``display_manager.image``, aligned in ``box``.

    Returns the top-left corner used, or None when nothing was drawn (an empty fit or
    no canvas). The image's own alpha is the paste mask.
    """
    canvas = getattr(display_manager, "image", None)
    if ifit is None or ifit.is_empty or canvas is None:
        return None
    if hasattr(box, "align_xy"):
        x, y = box.align_xy(ifit.width, ifit.height, align, valign)
    else:
        box_w, box_h = box_size(box)
        x, y = (box_w - ifit.width) // 2, (box_h - ifit.height) // 2
    x, y = x + int(offset[0]), y + int(offset[1])
    canvas.paste(ifit.image, (x, y), ifit.image)
    return (x, y)
