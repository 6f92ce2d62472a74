"""Adaptive layout with the shipped fonts: regions, tiers, ladder fits, images, drawing."""

from __future__ import annotations

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.fonts import FontManager
from shared.plugin_api.common import adaptive_layout as layout
from shared.plugin_api.common.adaptive_layout import (
    LADDER_ARCADE,
    LADDER_GRID,
    FontStep,
    LayoutContext,
    Region,
    draw_fitted_image,
    draw_fitted_text,
    fit_image,
    measure_font_crispness,
    measure_ink,
    media_row,
    scoreboard_regions,
)


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager()


def inside(inner: Region, outer: Region) -> bool:
    return (outer.x <= inner.x and inner.right <= outer.right
            and outer.y <= inner.y and inner.bottom <= outer.bottom)


def test_regions_carve_without_overlap_or_negative_sizes() -> None:
    panel = Region(0, 0, 128, 32)
    columns = panel.split_h(1, 2, 1, gap=2)
    assert [c.w for c in columns] == [31, 62, 31] and columns[2].right == 128
    rows = panel.split_v(3, 1, 1, gap=1)
    assert sum(r.h for r in rows) + 2 == 32 and rows[1].y == rows[0].bottom + 1
    assert panel.top_band(99) == panel and panel.bottom_band(8) == Region(0, 24, 128, 8)
    assert panel.middle(9, 8) == Region(0, 9, 128, 15)
    assert panel.inset(70) == Region(70, 70, 0, 0)
    assert panel.right_col(10) == Region(118, 0, 10, 32)
    assert panel.align_xy(20, 10, "right", "bottom") == (108, 22)
    assert panel.center_xy(20, 10) == (54, 11) and panel.offset(2, -1) == Region(2, -1, 128, 32)


@pytest.mark.parametrize("size", [(64, 32), (128, 32), (96, 48), (128, 64), (256, 64)])
def test_a_scoreboard_keeps_a_centre_column_and_full_width_bands(size: tuple[int, int]) -> None:
    width, height = size
    ctx = LayoutContext(width, height)
    bounds = Region(0, 0, width, height)
    regs = scoreboard_regions(bounds, ctx=ctx)
    assert regs.logo_slot <= min(height, width // 2)
    assert regs.center_col.w >= max(width * 0.25, 32 * ctx.scale) - 1
    assert regs.away_slot.right == regs.center_col.x and regs.center_col.right == regs.home_slot.x
    assert regs.status_band.w == regs.detail_band.w == width
    assert regs.score_area.y == regs.status_band.bottom
    assert regs.score_area.bottom == regs.detail_band.y
    assert regs.score_box.w > regs.score_area.w and regs.score_box.y == regs.score_area.y
    for region in (regs.away_slot, regs.home_slot, regs.score_box, regs.bottom_left,
                   regs.bottom_right):
        assert inside(region, bounds)


def test_the_classic_card_keeps_its_classic_geometry() -> None:
    regs = scoreboard_regions(Region(0, 0, 128, 32))
    assert (regs.logo_slot, regs.status_band.h, regs.detail_band.h) == (32, 9, 8)
    art = media_row(Region(0, 0, 128, 32))
    assert art.art == Region(0, 0, 32, 32) and art.body == Region(34, 0, 94, 32)


def test_tiers_and_scale_follow_the_panel() -> None:
    small, tall = LayoutContext(128, 32), LayoutContext(128, 64)
    assert (small.tier, small.width_tier, small.scale) == ("sm", "normal", 1.0)
    assert (tall.tier, tall.scale, tall.px(9)) == ("lg", 1.0, 9)
    assert LayoutContext(256, 64).px(9) == 18 and LayoutContext(64, 32).px(9, minimum=7) == 7
    assert small.by_tier({"sm": 10, "lg": 18}) == 10 and tall.by_tier({"sm": 10, "lg": 18}) == 18
    assert LayoutContext(64, 16).by_tier({"sm": 10}) == 10  # nothing below: the next above
    assert LayoutContext(300, 32).by_tier({"narrow": 1, "wide": 2}) == 2
    assert small.is_wide_short and not tall.is_wide_short


def test_every_ladder_step_is_a_shipped_font(fonts: FontManager) -> None:
    for step in (*LADDER_GRID, *LADDER_ARCADE):
        info = fonts.lookup(step.family)
        assert info is not None, step
        assert info.native_size in (None, step.size_px), step


def test_fit_text_takes_the_largest_step_that_fits(fonts: FontManager) -> None:
    ctx = LayoutContext(128, 32, fonts)
    roomy = ctx.fit_text("12:45", Region(0, 0, 128, 32))
    tight = ctx.fit_text("12:45", (30, 8))
    assert roomy.fits and tight.fits
    assert roomy.size_px > tight.size_px and roomy.height <= 32 and tight.width <= 30
    larger = [s for s in LADDER_GRID if s.size_px > roomy.size_px]
    assert all(not ctx.fit_text("12:45", (128, 32), ladder=(s,), ellipsis=False).fits
               for s in larger)
    arcade = ctx.fit_text("12:45", (128, 32), ladder=LADDER_ARCADE)
    assert (arcade.family, arcade.size_px) == ("press_start", 24)


def test_text_too_wide_for_every_step_is_shortened_with_an_ellipsis(fonts: FontManager) -> None:
    ctx = LayoutContext(64, 32, fonts)
    fit = ctx.fit_text("Tampa Bay Buccaneers at Kansas City Chiefs", (40, 10))
    assert fit.fits and fit.text.endswith("…") and fit.width <= 40
    raw = ctx.fit_text("Tampa Bay Buccaneers at Kansas City Chiefs", (40, 10), ellipsis=False)
    assert not raw.fits and raw.size_px == LADDER_GRID[-1].size_px
    assert ctx.ellipsize("WWWW", ctx.font_manager.get_font("4x6", 6), 1) == ""


def test_proportional_fit_targets_the_scaled_size(fonts: FontManager) -> None:
    big = LayoutContext(256, 64, fonts)
    fit = big.fit_text_proportional("7-3", (200, 60), base_size_px=8, ladder=LADDER_ARCADE)
    assert (fit.size_px, fit.fits) == (16, True)  # 8 px at the design size, scale 2
    small = LayoutContext(32, 16, fonts)
    floor = small.fit_text_proportional("7-3", (32, 16), base_size_px=8, ladder=LADDER_ARCADE)
    assert floor.size_px == 8  # below every step: the smallest


def test_lines_and_rows_fit_the_box_height(fonts: FontManager) -> None:
    ctx = LayoutContext(128, 32, fonts)
    lines = ctx.fit_lines(["Lakers 101", "Celtics 99", "Final"], (128, 32))
    assert lines.fits and 3 * lines.line_height + 2 <= 32 and lines.text == "Lakers 101"
    rows = ctx.font_for_rows(4, 32)
    assert rows.fits and 4 * rows.line_height <= 32
    assert rows.size_px >= ctx.font_for_rows(4, 24).size_px
    with pytest.raises(ValueError, match="at least one FontStep"):
        ctx.fit_text("x", (10, 10), ladder=())


def test_fits_are_cached_and_the_cache_is_bounded(fonts: FontManager) -> None:
    ctx = LayoutContext(128, 32, fonts)
    first = ctx.fit_text("same", (60, 10))
    assert ctx.fit_text("same", (60, 10)) is first
    for n in range(layout.TEXT_CACHE_MAX + 50):
        ctx.fit_text(str(n), (60, 10), ladder=(FontStep("5x7", 7),))
    assert len(ctx._fits) == layout.TEXT_CACHE_MAX
    fonts.clear_cache()  # new font objects: no stale fit is handed out
    assert ctx.fit_text("same", (60, 10)) is not first


def test_images_fit_by_mode_as_new_rgba_images() -> None:
    source = Image.new("RGB", (100, 50), (9, 9, 9))
    assert fit_image(source, (32, 32)).image.size == (32, 16)
    assert fit_image(source, (32, 32), mode="cover").image.size == (32, 32)
    assert fit_image(source, (64, 10), mode="fill_height").image.size == (20, 10)
    assert fit_image(source, (7, 9), mode="stretch").image.size == (7, 9)
    assert fit_image(source, (400, 400), upscale=False).image.size == (100, 50)
    padded = Image.new("RGBA", (40, 40))
    padded.paste((255, 0, 0, 255), (10, 10, 20, 30))
    inked = fit_image(padded, (40, 40), crop_to_ink=True, resample=layout.RESAMPLE_NEAREST)
    assert inked.source_size == (10, 20) and inked.image.size == (20, 40)
    assert fit_image(Image.new("RGBA", (5, 5)), (9, 9), crop_to_ink=True).is_empty
    same = Image.new("RGBA", (8, 8), (1, 2, 3, 255))
    copy = fit_image(same, (8, 8)).image
    same.putpixel((0, 0), (0, 0, 0, 0))
    assert copy is not same and copy.getpixel((0, 0)) == (1, 2, 3, 255)
    with pytest.raises(ValueError, match="unknown fit mode"):
        fit_image(source, (8, 8), mode="zoom")


def test_image_fits_are_cached_per_key_and_bounded() -> None:
    ctx = LayoutContext(128, 32)
    logo = Image.new("RGBA", (64, 64), (255, 255, 255, 255))
    fit = ctx.fit_image(logo, Region(0, 0, 32, 32), mode="fill_height", cache_key="logo:KC")
    assert ctx.fit_image(logo.copy(), (32, 32), mode="fill_height", cache_key="logo:KC") is fit
    for n in range(layout.IMAGE_CACHE_MAX + 5):
        ctx.fit_image(logo, (n + 1, 8), cache_key=n)
    assert len(ctx._images) == layout.IMAGE_CACHE_MAX


def test_fitted_text_and_images_land_inside_their_box(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(128, 32), font_manager=fonts)
    ctx = LayoutContext(128, 32, fonts)
    box = Region(40, 4, 60, 20)
    fit = ctx.fit_text("42", box)
    draw_fitted_text(display, fit, box, valign="top")
    lit = display.image.getbbox()
    assert lit is not None
    assert lit[1] == box.y  # the ink's top, not the em box's, is aligned
    assert box.x <= lit[0] and lit[2] <= box.right and lit[3] <= box.bottom
    display.clear()
    logo = fit_image(Image.new("RGBA", (10, 10), (0, 255, 0, 255)), (8, 8))
    assert draw_fitted_image(display, logo, Region(2, 2, 8, 8)) == (2, 2)
    assert display.image.getbbox() == (2, 2, 10, 10)


def test_bitmap_fonts_are_crisp_and_off_grid_ttf_sizes_are_not(fonts: FontManager) -> None:
    assert measure_font_crispness(fonts.get_font("5x7", 7)) == 0.0
    assert measure_font_crispness(fonts.get_font("press_start", 8)) == 0.0
    assert measure_font_crispness(fonts.get_font("press_start", 11)) > 0.05
    width, height, baseline, y_offset = measure_ink("Ay", fonts.get_font("press_start", 8))
    assert (width, height) == (16, 8) and baseline == 8 - y_offset
