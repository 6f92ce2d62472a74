"""The strip: placing, composing the visible window, dropping and trimming."""

from __future__ import annotations

from typing import Any

from display_service.vegas.settings import read_settings
from display_service.vegas.strip import SEPARATOR, Segment, Strip, render_separator
from tests.display_service.vegas.fakes import HEIGHT, solid, vegas_config

RED, GREEN, BLUE, BG = (255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 7)


def _strip() -> Strip:
    strip = Strip(16, HEIGHT, BG)
    for width, color in ((5, RED), (3, GREEN), (20, BLUE)):
        strip.append(Segment(solid(width, color), "p"), 1, 0)
    return strip


def _row(strip: Strip, x: int) -> list[Any]:
    image = strip.compose(x)
    assert image.size == (16, HEIGHT)
    return [image.getpixel((col, 0)) for col in range(16)]


def test_compose_places_each_boundary_at_its_pixel() -> None:
    strip = _strip()  # red [0, 5), green [5, 8), blue [8, 28)
    assert _row(strip, 0) == [RED] * 5 + [GREEN] * 3 + [BLUE] * 8
    assert _row(strip, 4) == [RED] + [GREEN] * 3 + [BLUE] * 12
    assert _row(strip, 20) == [BLUE] * 8 + [BG] * 8  # past the tail: background
    assert _row(strip, -3) == [BG] * 3 + [RED] * 5 + [GREEN] * 3 + [BLUE] * 5


def test_drop_before_forgets_segments_scrolled_past() -> None:
    strip = _strip()
    strip.drop_before(7)
    assert [p.x for p in strip.placed] == [5, 8]
    strip.drop_before(8)
    assert [p.x for p in strip.placed] == [8]
    assert strip.segments_held == 1 and strip.pixels_held == 20 * HEIGHT


def test_trim_after_cuts_the_straddling_segment_and_removes_the_rest() -> None:
    strip = _strip()
    removed, trimmed = strip.trim_after(6)
    assert [p.x for p in removed] == [8]
    assert trimmed is not None and trimmed.x == 5 and trimmed.width == 1
    assert strip.tail == 6
    assert _row(strip, 0) == [RED] * 5 + [GREEN] + [BG] * 10
    strip.append(Segment(solid(4, BLUE), "q"), 2, 0)
    assert _row(strip, 0) == [RED] * 5 + [GREEN] + [BLUE] * 4 + [BG] * 6


def test_separator_is_text_between_padding_or_a_blank_gap() -> None:
    text = render_separator(read_settings(vegas_config(separator="|", separator_padding=3)),
                            HEIGHT, None)
    assert text is not None and text.mode == SEPARATOR and text.image.height == HEIGHT
    assert text.image.getbbox() is not None
    blank = render_separator(read_settings(vegas_config(separator="", separator_padding=4)),
                             HEIGHT, None)
    assert blank is not None and blank.width == 8 and blank.image.getbbox() is None
    assert render_separator(read_settings(vegas_config(separator="", separator_padding=0)),
                            HEIGHT, None) is None
