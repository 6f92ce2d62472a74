"""The ticker: composition, frame identity, cycles, idle pacing, bounded memory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from display_service.vegas import Segment, VegasTicker, collect_segments
from display_service.vegas.ticker import EMPTY_RETRY
from tests.display_service.vegas.fakes import (
    HEIGHT,
    WIDTH,
    ContentPlugin,
    CountingSource,
    FakeClock,
    FillPlugin,
    solid,
    vegas_config,
)

RED, GREEN, BLUE, WHITE, BLACK = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0)


def _segment(width: int, color: tuple[int, int, int], plugin_id: str = "p",
             mode: str = "scroll") -> Segment:
    return Segment(solid(width, color), plugin_id, mode)


def _gradient(width: int, plugin_id: str = "g") -> Segment:
    image = Image.new("RGB", (width, HEIGHT))
    for x in range(width):
        image.paste((x % 256, 0, 0), (x, 0, x + 1, HEIGHT))
    return Segment(image, plugin_id)


def _ticker(source: Callable[[], list[Segment]], clock: FakeClock, **vegas: Any) -> VegasTicker:
    return VegasTicker(vegas_config(**vegas), WIDTH, HEIGHT, source, clock)


def _at_pixel(clock: FakeClock, start: float, x: int, speed: float = 50) -> float:
    """Set the clock to when strip pixel ``x`` is at the panel's left edge."""
    clock.now = start + (x + WIDTH) / speed + 1e-4
    return clock.now


def _run(ticker: VegasTicker, clock: FakeClock, seconds: float, step: float = 0.02) -> None:
    for _ in range(round(seconds / step)):
        clock.advance(step)
        ticker.frame()


def test_content_enters_from_the_right_and_boundaries_land_at_the_right_x() -> None:
    clock = FakeClock()
    start = clock.now
    source = CountingSource([_segment(40, RED, "a"), _segment(30, GREEN, "b"),
                             _segment(50, BLUE, "c")])
    ticker = _ticker(source, clock)
    assert ticker.frame().getbbox() is None  # blank: the strip starts past the right edge
    clock.advance(0.02)
    first = ticker.frame()
    assert first.getpixel((WIDTH - 1, 0)) == RED and first.getpixel((WIDTH - 2, 0)) == BLACK
    _at_pixel(clock, start, 10)  # strip: a [0, 40), b [40, 70), c [70, 120)
    image = ticker.frame()
    assert [image.getpixel((col, 5)) for col in (0, 29, 30, 59, 60, 63)] == [
        RED, RED, GREEN, GREEN, BLUE, BLUE]


def test_separator_sits_between_plugins_not_between_one_plugins_items() -> None:
    clock = FakeClock()
    start = clock.now
    source = CountingSource([_segment(10, RED, "a"), _segment(10, RED, "a"),
                             _segment(10, GREEN, "b")])
    ticker = _ticker(source, clock, separator="", separator_padding=2)  # a 4 px blank gap
    _at_pixel(clock, start, 0)
    image = ticker.frame()
    assert [image.getpixel((col, 5)) for col in (19, 20, 23, 24)] == [RED, BLACK, BLACK, GREEN]


def test_text_separator_is_drawn_in_its_colour() -> None:
    clock = FakeClock()
    source = CountingSource([_segment(10, RED, "a"), _segment(10, GREEN, "b")])
    ticker = _ticker(source, clock, separator="|", separator_padding=3,
                     separator_color=[1, 2, 250])
    _at_pixel(clock, clock.now, 0)
    image = ticker.frame()
    between: set[Any] = {image.getpixel((col, row)) for col in range(10, 30)
                         for row in range(HEIGHT)}
    assert GREEN in between
    assert any(r < 5 and g < 5 and b > 200 for r, g, b in between)  # the separator's blue


def test_same_image_object_until_a_pixel_moves() -> None:
    clock = FakeClock()
    ticker = _ticker(CountingSource([_segment(200, RED)]), clock)
    clock.advance(0.5)
    first = ticker.frame()
    assert ticker.frame() is first
    clock.advance(0.015)  # 0.75 px: still the same whole pixel
    assert ticker.frame() is first
    due = ticker.next_frame_due()
    assert due == pytest.approx(clock.now + 0.005, abs=1e-6)
    clock.now = due
    assert ticker.frame() is not first


def test_frame_based_ticker_moves_one_step_per_scroll_delay() -> None:
    clock = FakeClock()
    start = clock.now
    ticker = _ticker(CountingSource([_gradient(250)]), clock, frame_based_scrolling=True,
                     scroll_speed=100, scroll_delay=0.02)  # 2 px per 20 ms
    clock.now = start + (WIDTH + 20) / 100 * 1.0 + 0.001  # 42 frames: strip pixel 20
    assert ticker.frame().getpixel((0, 0)) == (20, 0, 0)
    clock.now += 0.018  # 42.95 frames
    assert ticker.frame().getpixel((0, 0)) == (20, 0, 0)
    clock.now += 0.001
    assert ticker.frame().getpixel((0, 0)) == (22, 0, 0)


def test_static_segment_holds_still_at_the_left_edge() -> None:
    clock = FakeClock()
    start = clock.now
    source = CountingSource([_segment(64, RED, "a"), _segment(WIDTH, GREEN, "s", "static"),
                             _segment(200, BLUE, "b")])
    ticker = _ticker(source, clock, static_hold_duration=2)
    _at_pixel(clock, start, 64)  # the static segment fills the panel
    held = ticker.frame()
    assert held.getpixel((0, 0)) == GREEN and held.getpixel((WIDTH - 1, 0)) == GREEN
    clock.advance(1.9)
    assert ticker.frame() is held
    assert ticker.next_frame_due() == pytest.approx(start + 128 / 50 + 2.0, abs=1e-3)
    clock.advance(0.2)
    moved = ticker.frame()
    assert moved is not held and moved.getpixel((WIDTH - 1, 0)) == BLUE


def test_short_content_repeats_until_the_minimum_cycle_duration() -> None:
    clock = FakeClock()
    source = CountingSource([_segment(60, RED, "a"), _segment(60, GREEN, "b")])  # 2.4 s
    ticker = _ticker(source, clock, vegas_min_cycle_duration=6)
    _run(ticker, clock, 7.0)  # the first pixel showed at 0.02 s
    assert ticker.cycles_started == 1  # 3 passes make 7.2 s >= 6 s
    _run(ticker, clock, 0.5)
    assert ticker.cycles_started == 2 and source.calls == 2


def test_without_a_minimum_each_pass_is_a_cycle() -> None:
    clock = FakeClock()
    source = CountingSource([_segment(60, RED, "a"), _segment(60, GREEN, "b")])
    ticker = _ticker(source, clock, vegas_min_cycle_duration=0)
    _run(ticker, clock, 9.5)
    assert ticker.cycles_started == 4  # 2.4 s each, from 0.02 s: 0.02, 2.42, 4.82, 7.22
    _run(ticker, clock, 0.2)
    assert ticker.cycles_started == 5


def test_long_cycle_is_cut_at_the_maximum_and_the_next_follows() -> None:
    clock = FakeClock()
    lists = iter([[_segment(2000, RED, "a")], [_segment(100, GREEN, "b")]])
    calls: list[float] = []

    def source() -> list[Segment]:
        calls.append(clock.now)
        return next(lists, [_segment(100, WHITE, "c")])

    ticker = _ticker(source, clock, vegas_max_cycle_duration=5)
    _run(ticker, clock, 5.0)  # the first pixel showed at 0.02 s: not cut yet
    assert ticker.frame().getpixel((WIDTH - 1, 0)) == RED
    _run(ticker, clock, 0.1)
    image = ticker.frame()
    assert image.getpixel((WIDTH - 1, 0)) == GREEN and image.getpixel((0, 0)) == RED
    assert ticker.cycles_started == 2
    _run(ticker, clock, WIDTH / 50)
    assert ticker.frame().getpixel((0, 0)) == GREEN  # the cut red never comes back


def test_fixed_cycle_repeats_up_to_the_maximum_when_not_dynamic() -> None:
    clock = FakeClock()
    source = CountingSource([_segment(50, RED, "a")])  # 1 s per pass
    ticker = _ticker(source, clock, dynamic_cycle_duration=False,
                     vegas_min_cycle_duration=1, vegas_max_cycle_duration=4)
    _run(ticker, clock, 3.9)
    assert ticker.cycles_started == 1
    _run(ticker, clock, 0.5)
    assert ticker.cycles_started == 2


def test_empty_content_shows_blank_and_is_asked_again_rarely() -> None:
    clock = FakeClock()
    source = CountingSource([])
    ticker = _ticker(source, clock)
    _run(ticker, clock, 10.0)
    assert ticker.frame().getbbox() is None
    assert 2 <= source.calls <= 10.0 / EMPTY_RETRY + 2
    source.segments = [_segment(30, RED, "late")]
    _run(ticker, clock, EMPTY_RETRY + (WIDTH + 30) / 50)
    assert RED in {ticker.frame().getpixel((c, 0)) for c in range(WIDTH)}


def _paced(ticker: VegasTicker, clock: FakeClock, until: float) -> list[tuple[float, Any]]:
    """Draw frames only when ``next_frame_due`` says, like the render loop; return them."""
    frames = []
    while clock.now < until:
        frames.append((clock.now, ticker.frame()))
        clock.now = max(clock.now + 1e-9, ticker.next_frame_due())
    return frames


@pytest.mark.parametrize("frame_based", [False, True])
def test_a_blank_ticker_sleeps_until_the_source_is_asked_again(frame_based: bool) -> None:
    clock = FakeClock()
    source = CountingSource([])
    ticker = _ticker(source, clock, frame_based_scrolling=frame_based)
    start = clock.now
    frames = _paced(ticker, clock, start + 10.0)
    assert all(image.getbbox() is None for _at, image in frames)
    assert len(frames) <= 10.0 / EMPTY_RETRY + 3  # not 50 a second
    assert 2 <= source.calls <= 10.0 / EMPTY_RETRY + 2
    source.segments = [_segment(30, RED, "late")]
    asked_at = clock.now
    frames = _paced(ticker, clock, asked_at + EMPTY_RETRY + 1.0)
    first = next((at, image) for at, image in frames if image.getbbox() is not None)
    assert first[0] <= asked_at + EMPTY_RETRY + 0.1  # asked again at the gap's end
    image = first[1]  # it enters at the right edge: no pixel of it was skipped
    assert image.getpixel((WIDTH - 1, 0)) == RED and image.getpixel((WIDTH - 2, 0)) == BLACK


def test_after_the_content_the_ticker_stops_waking_every_pixel() -> None:
    clock = FakeClock()
    source = CountingSource([_segment(30, RED, "once")])
    ticker = _ticker(source, clock)
    start = clock.now
    frames = _paced(ticker, clock, start + 3.0)  # (64 + 30) px at 50 px/s: gone at 1.9 s
    source.segments = []
    frames += _paced(ticker, clock, start + 13.0)
    shown = [at for at, image in frames if image.getbbox() is not None]
    assert len(shown) >= 90  # every pixel of the content was drawn
    after = [at for at, _image in frames if at > shown[-1]]
    assert len(after) <= 10.0 / EMPTY_RETRY + 4


def test_failing_source_does_not_stop_the_ticker() -> None:
    clock = FakeClock()

    def source() -> list[Segment]:
        raise RuntimeError("no")

    ticker = _ticker(source, clock)
    _run(ticker, clock, 1.0)
    assert ticker.frame().getbbox() is None


def test_reset_starts_over_with_fresh_content() -> None:
    clock = FakeClock()
    source = CountingSource([_segment(100, RED, "a")])
    ticker = _ticker(source, clock, vegas_min_cycle_duration=60)
    _run(ticker, clock, 5.0)
    assert source.calls == 1
    ticker.reset()
    assert ticker.frame().getbbox() is None
    assert source.calls == 2


def test_reconfigure_changes_speed_and_separator_without_a_jump() -> None:
    clock = FakeClock()
    start = clock.now
    ticker = _ticker(CountingSource([_gradient(250)]), clock)
    _at_pixel(clock, start, 20)
    before = ticker.frame()
    ticker.reconfigure(vegas_config(scroll_speed=100, background_color=[0, 0, 9]))
    after = ticker.frame()
    assert after is not before and after.getpixel((0, 0)) == (20, 0, 0)
    clock.advance(0.1)
    assert ticker.frame().getpixel((0, 0)) == (30, 0, 0)


def test_memory_stays_bounded_over_100000_frames_with_five_plugins() -> None:
    clock = FakeClock()
    tick = [0]

    def fresh(width: int, color: tuple[int, int, int]) -> Callable[[], Image.Image]:
        def make() -> Image.Image:
            tick[0] += 1
            return solid(width + tick[0] % 7, color)  # new images every cycle
        return make

    plugins: dict[str, Any] = {
        "image": ContentPlugin("image", fresh(150, RED)),
        "list": ContentPlugin("list", lambda: [solid(80, GREEN) for _ in range(3)]),
        "none": ContentPlugin("none", None, color=BLUE),
        "plain": FillPlugin("plain", color=WHITE),
        "alert": ContentPlugin("alert", None, color=(9, 9, 9), mode="static"),
    }
    config = {**vegas_config(vegas_min_cycle_duration=20, separator=" | ",
                             separator_padding=4, static_hold_duration=1)}
    ticker = VegasTicker(config, WIDTH, HEIGHT,
                         lambda: collect_segments(plugins, config, WIDTH, HEIGHT), clock)
    most_segments = most_pixels = 0
    for _ in range(100_000):
        clock.advance(0.02)
        ticker.frame()
        most_segments = max(most_segments, ticker.segments_held)
        most_pixels = max(most_pixels, ticker.pixels_held)
    content_pixels = (150 + 7 + 3 * 80 + 3 * WIDTH) * HEIGHT
    assert ticker.cycles_started > 50  # 2,000 s of scrolling, new content each cycle
    assert most_segments <= 7 + 12  # one cycle's list plus what is on or near the panel
    assert most_pixels <= 2 * content_pixels + 4 * WIDTH * HEIGHT


def test_source_segments_of_another_height_or_mode_are_fitted() -> None:
    clock = FakeClock()
    odd = Segment(Image.new("RGBA", (30, HEIGHT // 2), (0, 255, 0, 255)), "odd")
    ticker = _ticker(CountingSource([odd, "junk"]), clock)  # type: ignore[list-item]
    _at_pixel(clock, clock.now, 0)
    image = ticker.frame()
    assert image.getpixel((0, HEIGHT // 2)) == GREEN and image.getpixel((0, 0)) == BLACK
