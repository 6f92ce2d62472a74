"""Which plugins join the ticker, in which order, and what each contributes."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from PIL import Image

from display_service.vegas import CaptureSurface, SlowContentError, collect_segments
from display_service.vegas.content import MAX_SEGMENT_WIDTH, ordered_plugin_ids
from display_service.vegas.settings import read_settings
from tests.display_service.vegas.fakes import (
    HEIGHT,
    WIDTH,
    ContentPlugin,
    EmptyPlugin,
    FillPlugin,
    RaisingPlugin,
    solid,
)


def _config(sections: dict[str, dict[str, Any]], **vegas: Any) -> dict[str, Any]:
    return {"vegas_scroll": vegas, **sections}


def _ids(plugins: dict[str, Any], config: dict[str, Any]) -> list[str]:
    return ordered_plugin_ids(plugins, config, read_settings(config))


def test_plugins_are_ordered_by_vegas_order_then_id() -> None:
    plugins = {pid: FillPlugin(pid) for pid in ("zeta", "alpha", "mid", "beta")}
    config = _config({"zeta": {"vegas_order": -1}, "mid": {"vegas_order": 2},
                      "alpha": {}, "beta": {"vegas_order": 0}})
    assert _ids(plugins, config) == ["zeta", "alpha", "beta", "mid"]


def test_vegas_include_false_and_disabled_plugins_are_left_out() -> None:
    plugins = {pid: FillPlugin(pid) for pid in ("a", "b", "c", "d")}
    config = _config({"a": {"vegas_include": False}, "b": {"enabled": False},
                      "c": {"vegas_include": True}, "d": {}})
    assert _ids(plugins, config) == ["c", "d"]


def test_plugin_order_and_excluded_plugins_refine_the_order() -> None:
    plugins = {pid: FillPlugin(pid) for pid in ("a", "b", "c", "d")}
    config = _config({}, plugin_order=["c", "a"], excluded_plugins=["d"])
    assert _ids(plugins, config) == ["c", "a", "b"]
    config["vegas_scroll"]["include_new_plugins"] = False
    assert _ids(plugins, config) == ["c", "a"]


def test_vegas_content_image_list_and_none() -> None:
    plugins = {
        "one": ContentPlugin("one", solid(30, (1, 1, 1))),
        "many": ContentPlugin("many", [solid(10, (2, 2, 2)), "not an image", solid(12, (3, 3, 3))]),
        "none": ContentPlugin("none", None, color=(4, 4, 4)),
    }
    segments = collect_segments(plugins, _config({}), WIDTH, HEIGHT)
    assert [(s.plugin_id, s.width, s.image.getpixel((0, 0))) for s in segments] == [
        ("many", 10, (2, 2, 2)), ("many", 12, (3, 3, 3)),
        ("none", WIDTH, (4, 4, 4)),  # no content: the display() capture, one panel wide
        ("one", 30, (1, 1, 1)),
    ]
    assert all(s.mode == "scroll" for s in segments)


def test_display_capture_draws_on_a_surface_and_puts_the_display_manager_back() -> None:
    plugin = FillPlugin("clock", color=(9, 8, 7))
    real = plugin.display_manager
    pushed_before = real.frames_pushed
    [segment] = collect_segments({"clock": plugin}, _config({}), WIDTH, HEIGHT)
    assert plugin.display_manager is real
    assert real.frames_pushed == pushed_before  # nothing reached the panel
    assert segment.image.size == (WIDTH, HEIGHT)
    assert segment.image.getpixel((WIDTH - 1, HEIGHT - 1)) == (9, 8, 7)


def test_static_mode_captures_display_once_at_panel_size() -> None:
    plugin = ContentPlugin("alert", solid(300, (1, 1, 1)), color=(200, 0, 0), mode="static")
    [segment] = collect_segments({"alert": plugin}, _config({}), WIDTH, HEIGHT)
    assert segment.mode == "static" and segment.image.size == (WIDTH, HEIGHT)
    assert segment.image.getpixel((5, 5)) == (200, 0, 0)  # display(), not the vegas image
    assert plugin.displays == 1


def test_fixed_mode_centres_content_on_panel_count_widths() -> None:
    plugin = ContentPlugin("weather", solid(20, (0, 0, 255), height=8))
    config = _config({"weather": {"vegas_mode": "fixed", "vegas_panel_count": 2}},
                     background_color=[0, 40, 0])
    [segment] = collect_segments({"weather": plugin}, config, WIDTH, HEIGHT)
    assert segment.mode == "fixed" and segment.image.size == (2 * WIDTH, HEIGHT)
    left = (2 * WIDTH - 20) // 2
    assert segment.image.getpixel((left, 4)) == (0, 0, 255)
    assert segment.image.getpixel((left - 1, 4)) == (0, 40, 0)
    assert segment.image.getpixel((left, 3)) == (0, 40, 0)  # centred vertically


def test_mode_precedence_config_then_hooks_then_default() -> None:
    def mode_of(plugin: ContentPlugin, section: dict[str, Any], **vegas: Any) -> str:
        config = _config({plugin.plugin_id: section}, **vegas)
        [segment] = collect_segments({plugin.plugin_id: plugin}, config, WIDTH, HEIGHT)
        return segment.mode

    image = solid(10, (1, 1, 1))
    assert mode_of(ContentPlugin("p", image, mode="fixed_segment"), {"vegas_mode": "scroll"}) \
        == "scroll"
    assert mode_of(ContentPlugin("p", image, mode="fixed_segment"), {}) == "fixed"
    assert mode_of(ContentPlugin("p", image, content_type="static"), {}) == "fixed"
    assert mode_of(ContentPlugin("p", image, content_type="multi"), {},
                   default_vegas_mode="fixed") == "scroll"
    assert mode_of(ContentPlugin("p", image), {}, default_vegas_mode="fixed") == "fixed"


def test_content_type_none_leaves_the_plugin_out() -> None:
    plugins = {"quiet": ContentPlugin("quiet", solid(10, (1, 1, 1)), content_type="none")}
    assert collect_segments(plugins, _config({}), WIDTH, HEIGHT) == []


def test_a_raising_plugin_is_reported_and_skipped(caplog: pytest.LogCaptureFixture) -> None:
    plugins = {"bad": RaisingPlugin("bad"), "good": ContentPlugin("good", solid(5, (1, 2, 3)))}
    with caplog.at_level(logging.WARNING):
        segments = collect_segments(plugins, _config({}), WIDTH, HEIGHT)
    assert [s.plugin_id for s in segments] == ["good"]
    assert any(r.getMessage().startswith("bad: vegas content failed") for r in caplog.records)
    reported: list[tuple[str, str, str]] = []
    collect_segments(plugins, _config({}), WIDTH, HEIGHT,
                     on_error=lambda pid, where, err: reported.append((pid, where, str(err))))
    assert reported == [("bad", "vegas", "feed down")]


def test_a_plugin_with_nothing_to_show_adds_no_segment() -> None:
    plugins = {"empty": EmptyPlugin("empty"), "full": FillPlugin("full")}
    segments = collect_segments(plugins, _config({}), WIDTH, HEIGHT)
    assert [s.plugin_id for s in segments] == ["full"]


def test_images_are_made_rgb_panel_high_and_width_capped() -> None:
    rgba = Image.new("RGBA", (8, HEIGHT), (255, 0, 0, 0))
    tall = solid(6, (0, 255, 0), height=HEIGHT + 10)
    huge = solid(MAX_SEGMENT_WIDTH + 100, (0, 0, 255))
    plugins = {"a": ContentPlugin("a", [rgba, tall, huge])}
    config = _config({}, background_color=[5, 5, 5])
    segments = collect_segments(plugins, config, WIDTH, HEIGHT)
    assert all(s.image.mode == "RGB" and s.image.height == HEIGHT for s in segments)
    assert segments[0].image.getpixel((0, 0)) == (5, 5, 5)  # transparent over the background
    assert segments[1].image.getpixel((0, 0)) == (0, 255, 0)
    assert segments[2].width == MAX_SEGMENT_WIDTH


def test_capture_surface_offers_the_drawing_surface() -> None:
    surface = CaptureSurface(WIDTH, HEIGHT)
    # Plugins size their content from matrix without a None check, in Vegas too.
    assert (surface.matrix.width, surface.matrix.height) == (WIDTH, HEIGHT)
    assert surface.matrix.brightness == 100
    surface.draw_text("Hi", centered=True, small_font=True)
    assert surface.get_text_width("Hi", surface.small_font) > 0
    assert surface.get_font_height(surface.regular_font) > 0
    surface.set_scrolling_state(True, frame_hold=2)
    surface.update_display()
    assert surface.presented == 1 and surface.image.getbbox() is not None
    surface.clear()
    assert surface.image.getbbox() is None


class _Ticking:
    """A clock the plugins move: each ``get_vegas_content`` call costs its plugin's time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _timed(plugin_id: str, clock: _Ticking, seconds: float, calls: list[str]) -> ContentPlugin:
    def content() -> Image.Image:
        calls.append(plugin_id)
        clock.now += seconds
        return solid(10, (9, 9, 9))

    return ContentPlugin(plugin_id, content)


def test_skip_leaves_a_plugin_out_before_any_of_its_hooks_runs() -> None:
    calls: list[str] = []
    clock = _Ticking()
    plugins = {"busy": _timed("busy", clock, 0, calls), "ok": _timed("ok", clock, 0, calls)}
    segments = collect_segments(plugins, {}, WIDTH, HEIGHT, skip=lambda pid: pid == "busy")
    assert [s.plugin_id for s in segments] == ["ok"]
    assert calls == ["ok"]


def test_content_over_the_budget_is_kept_and_reported() -> None:
    calls: list[str] = []
    clock = _Ticking()
    plugins = {"quick": _timed("quick", clock, 0.1, calls),
               "slow": _timed("slow", clock, 0.8, calls)}
    slow: list[tuple[str, float]] = []
    segments = collect_segments(plugins, {}, WIDTH, HEIGHT, budget=0.5, clock=clock,
                                on_slow=lambda pid, seconds: slow.append((pid, seconds)))
    assert [s.plugin_id for s in segments] == ["quick", "slow"]
    assert slow == [("slow", pytest.approx(0.8))]
    failures: list[tuple[str, str, BaseException]] = []
    collect_segments(plugins, {}, WIDTH, HEIGHT, budget=0.5, clock=clock,
                     on_error=lambda *failure: failures.append(failure))
    assert [(pid, where) for pid, where, _err in failures] == [("slow", "vegas")]
    assert isinstance(failures[0][2], SlowContentError)
    assert "0.80 s" in str(failures[0][2])
