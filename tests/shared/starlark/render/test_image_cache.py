"""DecodedPictures: a picture's bytes decode once, within a bound on the pixels kept."""

from __future__ import annotations

import io

import pytest
from PIL import Image as PILImage

from shared.starlark.render import image as image_module
from shared.starlark.render.errors import WidgetError
from shared.starlark.render.image import Image, decode_frames
from shared.starlark.render.image_cache import Decoded, DecodedPictures
from shared.starlark.render.widget import Bounds, Canvas


def _png(width: int, height: int, colour: tuple[int, int, int, int]) -> bytes:
    out = io.BytesIO()
    PILImage.new("RGBA", (width, height), colour).save(out, "PNG")
    return out.getvalue()


class _Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, src: bytes) -> Decoded:
        self.calls += 1
        return decode_frames(src)


def test_the_same_bytes_decode_once_and_give_the_same_pixels() -> None:
    cache, decode = DecodedPictures(max_pixels=100), _Counting()
    src = _png(3, 2, (10, 20, 30, 255))
    first, _ = cache.get(src, decode)
    second, _ = cache.get(src, decode)
    assert decode.calls == 1
    assert second[0].tobytes() == first[0].tobytes() == bytes([10, 20, 30, 255]) * 6


def test_the_oldest_pictures_go_first_when_the_pixels_pass_the_bound() -> None:
    cache, decode = DecodedPictures(max_pixels=12), _Counting()
    a, b, c = (_png(2, 2, (n, 0, 0, 255)) for n in (1, 2, 3))
    for src in (a, b, c, a):  # 4 + 4 + 4 pixels fill the bound; a is used again
        cache.get(src, decode)
    assert decode.calls == 3 and len(cache) == 3
    cache.get(_png(2, 2, (4, 0, 0, 255)), decode)  # b is now the oldest and goes
    cache.get(a, decode)
    cache.get(c, decode)
    assert decode.calls == 4
    cache.get(b, decode)
    assert decode.calls == 5 and len(cache) == 3


def test_a_picture_larger_than_the_bound_is_decoded_each_time() -> None:
    cache, decode = DecodedPictures(max_pixels=10), _Counting()
    src = _png(4, 4, (1, 1, 1, 255))
    cache.get(src, decode)
    cache.get(src, decode)
    assert decode.calls == 2 and len(cache) == 0


def test_bytes_that_cannot_be_decoded_fail_every_time() -> None:
    cache = DecodedPictures()
    for _ in range(2):
        with pytest.raises(WidgetError, match="cannot be decoded|not an image|Image"):
            cache.get(b"not a picture at all", decode_frames)
    assert len(cache) == 0


def test_image_widgets_of_one_picture_decode_it_once_and_draw_it_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    decode = _Counting()
    monkeypatch.setattr(image_module, "decode_frames", decode)
    src = _png(2, 1, (201, 7, 99, 255))  # a colour no other test uses: bytes not yet kept
    widgets = [Image(src=src), Image(src=src), Image(src=src, width=4)]
    assert decode.calls == 1
    canvas = Canvas(4, 3)
    for row, widget in enumerate(widgets):
        with canvas.at(0, row, Bounds(4, 1)):
            widget.paint(canvas, Bounds(4, 1), 0)
    rows = [[canvas.image.getpixel((x, y)) for x in range(4)] for y in range(3)]
    red, empty = (201, 7, 99, 255), (0, 0, 0, 0)
    assert rows == [[red, red, empty, empty], [red, red, empty, empty], [red] * 4]


def test_a_kept_picture_is_still_held_to_the_image_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    src = _png(3, 3, (77, 1, 2, 255))
    assert Image(src=src).frame_count(Bounds(64, 32)) == 1  # decoded and kept
    monkeypatch.setattr(image_module, "MAX_TOTAL_PIXELS", 8)
    with pytest.raises(WidgetError, match="has 9 pixels over its frames; the limit is 8"):
        Image(src=src)
    monkeypatch.setattr(image_module, "MAX_SIDE", 2)
    with pytest.raises(WidgetError, match="is 3x3 pixels; the limit is 2 on each side"):
        Image(src=src)
