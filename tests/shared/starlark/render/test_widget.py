"""Canvas.fill: an opaque rectangle replaces what is under it, a translucent one blends."""

from __future__ import annotations

from PIL import Image

from shared.starlark.render.widget import Bounds, Canvas

# Under the fills: opaque, translucent and fully transparent pixels side by side.
_UNDER = [(200, 10, 10, 255), (10, 200, 10, 128), (0, 0, 0, 0), (10, 10, 200, 1),
          (90, 90, 90, 254), (255, 255, 255, 255)]


def _canvas() -> Canvas:
    canvas = Canvas(len(_UNDER), 3)
    for x, colour in enumerate(_UNDER):
        for y in range(3):
            canvas.image.putpixel((x, y), colour)
    return canvas


def _blended(colour: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> Image.Image:
    """What alpha-compositing ``colour`` over ``box`` of the same start gives, done directly."""
    expected = _canvas().image
    patch = Image.new("RGBA", (box[2] - box[0], box[3] - box[1]), colour)
    expected.alpha_composite(patch, (box[0], box[1]))
    return expected


def test_opaque_fill_gives_exactly_what_alpha_compositing_gives() -> None:
    for colour in [(255, 0, 0, 255), (1, 2, 3, 255), (0, 0, 0, 255)]:
        canvas = _canvas()
        canvas.fill(1, 1, 4, 1, colour)
        assert canvas.image.tobytes() == _blended(colour, (1, 1, 5, 2)).tobytes()


def test_translucent_fill_blends_over_what_is_there() -> None:
    for colour in [(255, 0, 0, 128), (0, 255, 0, 1), (9, 9, 9, 254)]:
        canvas = _canvas()
        canvas.fill(0, 0, 6, 3, colour)
        assert canvas.image.tobytes() == _blended(colour, (0, 0, 6, 3)).tobytes()


def test_opaque_fill_keeps_to_the_offset_and_clip() -> None:
    canvas = Canvas(6, 3)
    with canvas.at(2, 1, Bounds(2, 1)):
        canvas.fill(-1, 0, 10, 10, (255, 0, 0, 255))
    painted = [(x, y) for y in range(3) for x in range(6)
               if canvas.image.getpixel((x, y)) == (255, 0, 0, 255)]
    assert painted == [(2, 1), (3, 1)]
    assert canvas.image.getpixel((1, 1)) == (0, 0, 0, 0)


def test_fully_transparent_fill_changes_nothing() -> None:
    canvas = _canvas()
    canvas.fill(0, 0, 6, 3, (255, 0, 0, 0))
    assert canvas.image.tobytes() == _canvas().image.tobytes()


def test_many_one_pixel_opaque_fills_draw_a_checkerboard() -> None:
    canvas = Canvas(4, 2)
    for y in range(2):
        for x in range(4):
            if (x + y) % 2 == 0:
                canvas.fill(x, y, 1, 1, (255, 255, 255, 255))
    alpha = canvas.image.getchannel("A").tobytes()
    rows = ["".join("#" if alpha[y * 4 + x] else "." for x in range(4)) for y in range(2)]
    assert rows == ["#.#.", ".#.#"]
