"""Image: PNG, JPEG, GIF and WebP bytes decoded, scaled, animated and limited."""

from __future__ import annotations

import pytest
from PIL import Image as PILImage

from shared.starlark.render import image as image_module
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.image import MAX_SIDE, Image
from shared.starlark.render.widget import Bounds
from tests.shared.starlark.render.pictures import encoded, paint

PANEL = Bounds(64, 32)  # the room frames are counted in, a 64x32 panel

RED = (255, 0, 0, 255)
BLUE = (0, 0, 255, 255)


def quartered(width: int = 4, height: int = 2) -> PILImage.Image:
    """Red on the left half, blue on the right, a transparent pixel top-left."""
    image = PILImage.new("RGBA", (width, height), RED)
    image.paste(BLUE, (width // 2, 0, width, height))
    image.putpixel((0, 0), (0, 0, 0, 0))
    return image


def test_png_is_drawn_pixel_for_pixel() -> None:
    widget = Image(src=encoded(quartered(), "PNG"))
    assert widget.size(Bounds(64, 32), 0) == Bounds(4, 2)
    assert widget.frame_count(PANEL) == 1
    assert widget.delay == 0
    image = paint(widget, 6, 3)
    assert image.getpixel((0, 0)) == (0, 0, 0, 0)
    assert [image.getpixel((x, 1)) for x in range(6)] == [RED, RED, BLUE, BLUE,
                                                           (0, 0, 0, 0), (0, 0, 0, 0)]


def test_png_given_as_latin1_text_is_decoded() -> None:
    data = encoded(quartered(), "PNG")
    assert Image(src=data.decode("latin-1")).size(Bounds(64, 32), 0) == Bounds(4, 2)


def test_sixteen_bit_grey_png_is_scaled_to_eight_bits() -> None:
    widget = Image(src=encoded(PILImage.new("I;16", (2, 2), 40000), "PNG"))
    assert paint(widget, 2, 2).getpixel((1, 1)) == (156, 156, 156, 255)


def test_jpeg_is_decoded() -> None:
    photo = PILImage.new("RGB", (16, 8), (250, 250, 250))
    widget = Image(src=encoded(photo, "JPEG", quality=95))
    assert widget.size(Bounds(64, 32), 0) == Bounds(16, 8)
    pixel = paint(widget, 16, 8).tobytes()[(4 * 16 + 8) * 4:(4 * 16 + 9) * 4]
    assert min(pixel[:3]) >= 245 and pixel[3] == 255


def test_still_webp_is_decoded_exactly_when_lossless() -> None:
    widget = Image(src=encoded(quartered(), "WEBP", lossless=True))
    image = paint(widget, 4, 2)
    assert image.getpixel((1, 1)) == RED
    assert image.getpixel((3, 0)) == BLUE


def test_width_alone_keeps_the_aspect_ratio_with_nearest_neighbour() -> None:
    widget = Image(src=encoded(quartered(4, 2), "PNG"), width=8)
    assert widget.size(Bounds(64, 32), 0) == Bounds(8, 4)
    image = paint(widget, 8, 4)
    assert [image.getpixel((x, 3)) for x in (0, 3, 4, 7)] == [RED, RED, BLUE, BLUE]
    assert image.getpixel((1, 1)) == (0, 0, 0, 0)
    assert image.getpixel((2, 2)) == RED


def test_height_alone_keeps_the_aspect_ratio_rounding_down() -> None:
    widget = Image(src=encoded(quartered(10, 3), "PNG"), height=5)
    assert widget.size(Bounds(64, 32), 0) == Bounds(16, 5)  # 5 * 10 / 3 = 16.7


def test_width_and_height_both_stretch() -> None:
    widget = Image(src=encoded(quartered(4, 2), "PNG"), width=2, height=6)
    assert widget.size(Bounds(64, 32), 0) == Bounds(2, 6)


def animation(fmt: str, **options: object) -> bytes:
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
    frames = [PILImage.new("RGB", (3, 2), colour) for colour in colours]
    return encoded(frames[0], fmt, save_all=True, append_images=frames[1:],
                   duration=[120, 80, 80], loop=0, **options)


@pytest.mark.parametrize(("fmt", "options"), [("GIF", {}), ("WEBP", {"lossless": True})])
def test_animated_image_has_one_frame_per_picture(fmt: str, options: dict[str, object]) -> None:
    widget = Image(src=animation(fmt, **options))
    assert widget.frame_count(PANEL) == 3
    assert widget.delay == 120
    seen = [paint(widget, 3, 2, frame).getpixel((1, 1)) for frame in range(4)]
    assert seen == [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 0, 0, 255)]


def test_gif_frames_are_composited_over_the_previous_one() -> None:
    first = PILImage.new("RGB", (4, 4), (255, 0, 0))
    second = PILImage.new("RGB", (4, 4), (255, 0, 0))
    second.paste((0, 0, 255), (1, 1, 3, 3))
    data = encoded(first, "GIF", save_all=True, append_images=[second], duration=50,
                   disposal=1)
    widget = Image(src=data)
    image = paint(widget, 4, 4, 1)
    assert image.getpixel((0, 0)) == (255, 0, 0, 255)
    assert image.getpixel((2, 2)) == (0, 0, 255, 255)


def test_animated_png_shows_its_first_frame_only() -> None:
    widget = Image(src=animation("PNG"))
    assert widget.frame_count(PANEL) == 1
    assert widget.delay == 0
    assert paint(widget, 3, 2, 1).getpixel((0, 0)) == (255, 0, 0, 255)


def test_still_gif_keeps_its_stated_duration() -> None:
    data = encoded(PILImage.new("RGB", (2, 2), (0, 9, 0)), "GIF", duration=70)
    widget = Image(src=data)
    assert (widget.frame_count(PANEL), widget.delay) == (1, 70)


def test_hold_frames_shows_each_picture_longer() -> None:
    widget = Image(src=animation("GIF"), hold_frames=2)
    assert widget.frame_count(PANEL) == 6
    seen = [paint(widget, 3, 2, frame).convert("RGB").getpixel((0, 0)) for frame in range(6)]
    assert seen == [(255, 0, 0), (255, 0, 0), (0, 255, 0), (0, 255, 0), (0, 0, 255),
                    (0, 0, 255)]


def test_animated_frames_are_scaled_too() -> None:
    widget = Image(src=animation("GIF"), height=4)
    assert [widget.size(Bounds(64, 32), frame) for frame in range(3)] == [Bounds(6, 4)] * 3


def test_image_larger_than_the_side_limit_is_refused() -> None:
    # A PNG that claims 5000x1 pixels decodes nothing before it is refused.
    data = encoded(PILImage.new("1", (MAX_SIDE + 1, 1)), "PNG")
    with pytest.raises(WidgetError, match=r"Image: src is 4097x1 pixels; the limit is 4096"):
        Image(src=data)


def test_too_many_pixels_over_all_frames_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each frame is within the limit; the three together are not.
    monkeypatch.setattr(image_module, "MAX_TOTAL_PIXELS", 2 * 3 * 2)
    with pytest.raises(WidgetError, match="has 18 pixels over its frames; the limit is 12"):
        Image(src=animation("GIF"))
    monkeypatch.setattr(image_module, "MAX_TOTAL_PIXELS", 18)
    assert Image(src=animation("GIF")).frame_count(PANEL) == 3


def test_scaling_past_the_side_limit_is_refused() -> None:
    with pytest.raises(WidgetError, match="Image: width scales the image to 5000x2500"):
        Image(src=encoded(quartered(4, 2), "PNG"), width=5000)


def test_scaling_many_frames_past_the_pixel_limit_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(image_module, "MAX_TOTAL_PIXELS", 100)
    assert Image(src=animation("GIF"), width=6).frame_count(PANEL) == 3  # 6x4 x 3 = 72
    with pytest.raises(WidgetError, match="Image: width scales the image's 3 frames to "
                                          "162 pixels; the limit is 100"):
        Image(src=animation("GIF"), width=9)  # 9x6 x 3


@pytest.mark.parametrize("data", [
    b"not an image at all",
    encoded(quartered(), "PNG")[:40],
    encoded(quartered(), "BMP"),
])
def test_undecodable_data_is_refused(data: bytes) -> None:
    with pytest.raises(WidgetError) as caught:
        Image(src=data)
    assert caught.value.argument == "src"


@pytest.mark.parametrize(("arguments", "argument"), [
    ({}, "src"),
    ({"src": b""}, "src"),
    ({"src": 12}, "src"),
    ({"width": "8"}, "width"),
    ({"height": -2}, "height"),
    ({"hold_frames": 1.0}, "hold_frames"),
])
def test_bad_argument_names_widget_and_argument(arguments: dict[str, object],
                                                argument: str) -> None:
    if argument != "src":
        arguments = {"src": encoded(quartered(), "PNG"), **arguments}
    with pytest.raises(WidgetError) as caught:
        Image(**arguments)
    assert (caught.value.widget, caught.value.argument) == ("Image", argument)
