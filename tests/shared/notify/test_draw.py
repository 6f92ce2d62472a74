"""Cards painted on real display managers (headless panels) at the sizes panels come in."""

from __future__ import annotations

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.notify.draw import Card, boxes, render
from shared.notify.icons import BUILTIN_NAMES, builtin_icon

SIZES = [(16, 16), (32, 16), (64, 32), (64, 64), (128, 32), (128, 64), (256, 32), (256, 64),
         (512, 32), (256, 128)]  # long chains and stacked rows of panels too
RED = (255, 0, 0)


def panel(width: int, height: int) -> DisplayManager:
    return DisplayManager(HeadlessMatrix(width, height))


def lit_columns(image: Image.Image, left: int, right: int, color: tuple[int, int, int]) -> set[int]:
    """Return the columns in [left, right) holding a pixel of exactly ``color``."""
    found = set()
    for x in range(left, right):
        for y in range(image.height):
            if image.getpixel((x, y)) == color:
                found.add(x)
                break
    return found


def test_every_builtin_icon_is_eight_by_eight_with_lit_pixels() -> None:
    assert {"bell", "door", "info", "warning", "check", "mail", "alarm"} <= set(BUILTIN_NAMES)
    for name in BUILTIN_NAMES:
        icon = builtin_icon(name)
        assert icon is not None and icon.size == (8, 8) and icon.mode == "RGBA"
        assert icon.getchannel("A").getbbox() is not None
    assert builtin_icon("nope") is None


@pytest.mark.parametrize("size", SIZES)
def test_short_text_sits_right_of_the_icon_at_every_size(size: tuple[int, int]) -> None:
    width, height = size
    display = panel(width, height)
    icon = builtin_icon("bell")
    painted = render(Card("Hi", RED, icon), display, 0.0)
    icon_box, text_box = boxes(width, height, True)
    assert icon_box is not None and painted.icon_box == icon_box
    image = display.image
    # the bell's yellow lies inside the icon box and nowhere else
    yellow = lit_columns(image, 0, width, (255, 200, 0))
    assert yellow and max(yellow) < icon_box.right
    # the red text lies inside the text box
    red = lit_columns(image, 0, width, RED)
    assert red and min(red) >= text_box.x
    assert not painted.scrolling


@pytest.mark.parametrize("size", [(64, 32), (128, 32), (256, 64)])
def test_icon_scales_by_a_whole_factor(size: tuple[int, int]) -> None:
    width, height = size
    display = panel(width, height)
    render(Card("x", RED, builtin_icon("info")), display, 0.0)
    side = min(height, width // 2)
    factor = side // 8
    ink = display.image.crop((0, 0, side, height)).getbbox()
    assert ink is not None
    assert (ink[2] - ink[0], ink[3] - ink[1]) == (8 * factor, 8 * factor)


def test_text_without_icon_uses_the_whole_panel() -> None:
    display = panel(128, 32)
    render(Card("OK", RED), display, 0.0)
    red = lit_columns(display.image, 0, 128, RED)
    assert red and min(red) > 40 and max(red) < 88  # centred


@pytest.mark.parametrize("size", [(16, 16), (64, 32), (128, 32), (256, 64)])
def test_long_text_scrolls_and_counts_passes(size: tuple[int, int]) -> None:
    width, height = size
    display = panel(width, height)
    card = Card("The front door was unlocked by the garden key " * 3, RED, builtin_icon("door"))
    first = render(card, display, 0.5)
    assert first.scrolling and first.passes == 0 and first.pass_seconds > 0
    at_first = lit_columns(display.image, 0, width, RED)
    render(card, display, 1.0)
    at_second = lit_columns(display.image, 0, width, RED)
    assert at_first != at_second  # the text moved
    _icon, text_box = boxes(width, height, True)
    assert at_second and min(at_second) >= text_box.x  # never over the icon
    done = render(card, display, first.pass_seconds * 2 + 0.01)
    assert done.passes == 2


def test_same_card_same_time_same_pixels() -> None:
    one, two = panel(64, 32), panel(64, 32)
    card = Card("a message long enough to scroll past", RED, builtin_icon("mail"))
    render(card, one, 3.2)
    render(card, two, 3.2)
    assert one.image.tobytes() == two.image.tobytes()


def test_a_large_icon_is_shrunk_into_its_box() -> None:
    display = panel(32, 16)
    big = Image.new("RGBA", (32, 32), (0, 0, 255, 255))
    render(Card("x", RED, big), display, 0.0)
    ink = display.image.crop((0, 0, 16, 16)).getbbox()
    assert ink is not None and ink[2] - ink[0] <= 16
    assert lit_columns(display.image, 16, 32, (0, 0, 255)) == set()
