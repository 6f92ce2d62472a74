"""The adaptive layout's formulas, each checked against numbers worked out by hand from
the specification's text ("Plugin-facing interfaces" and the limits table)."""

from __future__ import annotations

import importlib

import pytest
from PIL import Image, ImageDraw

from display_service.matrix.headless import HeadlessMatrix
from display_service.plugins.display_manager import DisplayManager
from shared.fonts import FontManager
from shared.plugin_api import compat
from shared.plugin_api.common import adaptive_layout, image_fit
from shared.plugin_api.common.adaptive_layout import (
    LADDER_ARCADE,
    LADDER_GRID,
    FontStep,
    LayoutContext,
    Region,
    fit_image,
    measure_font_crispness,
    media_row,
    scoreboard_regions,
)

SMALL = (FontStep("4x6", 6),)  # one cheap step: cache tests measure hundreds of texts


@pytest.fixture(scope="module")
def fonts() -> FontManager:
    return FontManager({})


# fit_text_proportional: target = base_size_px * scale (scale defaults to the context's,
# min(width / design_w, height / design_h)); the nearest rung at or below the target,
# capped to what fits the box, floored at the smallest rung.
@pytest.mark.parametrize(
    ("panel", "base", "scale", "expected"),
    [
        ((256, 64), 8, None, 16),  # scale min(2, 2) = 2: target 16, a rung
        ((256, 32), 8, None, 8),  # scale min(2, 1) = 1: the smaller ratio wins
        ((384, 96), 10, None, 24),  # scale 3: target 30, nearest rung below is 24
        ((128, 32), 8, 2.5, 16),  # an explicit scale: target 20 -> 16
        ((128, 32), 4, None, 8),  # target 4 is below every rung: floored at 8
    ],
)
def test_proportional_fit_picks_the_nearest_rung_at_or_below_the_target(
    fonts: FontManager, panel: tuple[int, int], base: int, scale: float | None, expected: int
) -> None:
    ctx = LayoutContext(*panel, fonts)
    fit = ctx.fit_text_proportional("7", (400, 100), base_size_px=base, ladder=LADDER_ARCADE,
                                    scale=scale)
    assert (fit.size_px, fit.fits) == (expected, True)


def test_proportional_fit_takes_its_arguments_in_the_spec_order(fonts: FontManager) -> None:
    ctx = LayoutContext(128, 32, fonts)
    # text, box, base_size_px, ladder, scale: 8 * 3 = 24
    assert ctx.fit_text_proportional("7", (400, 100), 8, LADDER_ARCADE, 3).size_px == 24


def test_proportional_fit_walks_by_size_whatever_the_ladder_order(fonts: FontManager) -> None:
    ascending = tuple(reversed(LADDER_ARCADE))
    fit = LayoutContext(256, 64, fonts).fit_text_proportional(
        "7", (400, 100), base_size_px=12, ladder=ascending)
    assert fit.size_px == 24  # target 24: not the first rung at or below it (8)


def test_proportional_fit_is_capped_to_what_fits_the_box(fonts: FontManager) -> None:
    ctx = LayoutContext(256, 64, fonts)  # target 8 * 2 = 16
    # "77" is 16 px wide per press_start 8 px step: a 20-px box takes only the 8 px step.
    fit = ctx.fit_text_proportional("77", (20, 20), base_size_px=8, ladder=LADDER_ARCADE)
    assert (fit.size_px, fit.width, fit.fits) == (8, 16, True)


# scoreboard_regions: logo_slot = min(height, width // 2), narrowed so a centre column of
# reserve = max(width * min_center_fraction, min_center_design_px * scale) stays free;
# the bleed widens only the score's fit box; the status and detail bands are full width.
@pytest.mark.parametrize(
    ("panel", "scale", "slot", "center"),
    [
        ((128, 32), 1.0, 32, 64),  # reserve max(32, 32) = 32: min(32, 64) stands
        ((64, 32), 0.5, 24, 16),  # reserve max(16, 16) = 16: (64 - 16) // 2 = 24 < 32
        ((96, 48), 0.75, 36, 24),  # reserve max(24, 24) = 24: (96 - 24) // 2 = 36 < 48
        ((192, 48), 1.5, 48, 96),  # reserve max(48, 48) = 48: min(48, 96) stands
        ((256, 64), 2.0, 64, 128),  # reserve max(64, 64) = 64
    ],
)
def test_scoreboard_logo_slots_leave_the_reserved_centre(
    panel: tuple[int, int], scale: float, slot: int, center: int
) -> None:
    ctx = LayoutContext(*panel)
    assert ctx.scale == scale
    regs = scoreboard_regions(Region(0, 0, *panel), ctx=ctx)
    assert (regs.logo_slot, regs.center_col.w) == (slot, center)
    assert regs.away_slot == Region(0, 0, slot, panel[1])
    assert regs.home_slot == Region(panel[0] - slot, 0, slot, panel[1])


def test_scoreboard_reserve_takes_the_larger_of_fraction_and_design_pixels() -> None:
    bounds = Region(0, 0, 128, 32)
    # fraction 0.6: reserve max(76.8, 32) = 76.8, slot (128 - 76.8) // 2 = 25.
    by_fraction = scoreboard_regions(bounds, min_center_fraction=0.6)
    assert (by_fraction.logo_slot, by_fraction.center_col.w) == (25, 78)
    # design px 80 at scale 1: reserve max(32, 80) = 80, slot (128 - 80) // 2 = 24.
    by_pixels = scoreboard_regions(bounds, min_center_design_px=80)
    assert (by_pixels.logo_slot, by_pixels.center_col.w) == (24, 80)
    # scale 2 doubles the design pixels: 256 wide, reserve max(64, 40 * 2) = 80 -> 88.
    scaled = scoreboard_regions(Region(0, 0, 256, 64), ctx=LayoutContext(256, 64),
                                min_center_design_px=40)
    assert (scaled.logo_slot, scaled.center_col.w) == (64, 128)
    wider = scoreboard_regions(Region(0, 0, 256, 64), ctx=LayoutContext(256, 64),
                               min_center_design_px=80)
    assert (wider.logo_slot, wider.center_col.w) == (48, 160)  # reserve 160: (256-160)//2


def test_the_bleed_widens_only_the_score_box() -> None:
    regs = scoreboard_regions(Region(0, 0, 128, 32), score_bleed_fraction=0.5)
    bleed = int(32 * 0.5)  # slot 32
    assert regs.score_area == Region(32, 9, 64, 15)  # centre column minus 9 + 8 band rows
    assert regs.score_box == Region(32 - bleed, 9, 64 + 2 * bleed, 15)
    assert regs.center_col == Region(32, 0, 64, 32)  # the bleed leaves the column alone
    assert regs.away_slot.w == regs.home_slot.w == 32
    assert regs.status_band == Region(0, 0, 128, 9) and regs.detail_band == Region(0, 24, 128, 8)
    none = scoreboard_regions(Region(0, 0, 128, 32), score_bleed_fraction=0.0)
    assert none.score_box == none.score_area


def test_media_row_is_art_left_and_text_right() -> None:
    ctx = LayoutContext(256, 64)  # the 2 px design gap at scale 2 is 4 px
    row = media_row(Region(0, 0, 256, 64), ctx=ctx)
    assert row.art == Region(0, 0, 64, 64)
    assert row.body == Region(68, 0, 188, 64) and row.body.right == 256
    halves = media_row(Region(10, 4, 100, 20), square=False, gap=0)
    assert halves.art == Region(10, 4, 50, 20) and halves.body == Region(60, 4, 50, 20)


# fit_image: contain, cover, fill_height, stretch; upscales by default; a new image.
@pytest.mark.parametrize(
    ("mode", "size", "scale"),
    [
        ("contain", (40, 20), 2.0),  # 20x10 into 40x40: limited by the width
        ("cover", (40, 40), 4.0),  # scaled to 80x40, the overhang cropped
        ("fill_height", (40, 20), 2.0),  # as tall as the box unless that is too wide
        ("stretch", (40, 40), 2.0),
    ],
)
def test_fit_image_modes(mode: str, size: tuple[int, int], scale: float) -> None:
    result = fit_image(Image.new("RGB", (20, 10), (200, 0, 0)), (40, 40), mode=mode)
    assert (result.image.size, (result.width, result.height), result.scale) == (size, size, scale)
    assert result.image.mode == "RGBA" and result.mode == mode


def test_fit_image_takes_its_arguments_in_the_spec_order() -> None:
    logo = Image.new("RGBA", (20, 20))
    logo.paste((255, 255, 255, 255), (5, 5, 15, 15))  # ink 10x10 inside transparent padding
    # img, box, mode, crop_to_ink, anchor, resample, upscale
    result = fit_image(logo, (40, 30), "cover", True, "top", image_fit.RESAMPLE_NEAREST, True)
    assert (result.mode, result.source_size, result.image.size, result.scale) == (
        "cover", (10, 10), (40, 30), 4.0)
    assert fit_image(logo, (40, 30), "contain", False, "center", None, False).scale == 1.0


def test_fill_height_fills_the_height_of_a_wide_box() -> None:
    result = fit_image(Image.new("RGB", (10, 10)), (100, 30), mode="fill_height")
    assert result.image.size == (30, 30)


def test_fit_image_upscales_unless_told_not_to_and_never_returns_the_source() -> None:
    source = Image.new("RGBA", (16, 16), (0, 0, 255, 255))
    kept = fit_image(source, (64, 64), upscale=False)
    assert kept.image.size == (16, 16) and kept.scale == 1.0
    assert kept.image is not source
    source.putpixel((0, 0), (255, 255, 255, 255))  # the caller changes its image later
    assert kept.image.getpixel((0, 0)) == (0, 0, 255, 255)
    assert fit_image(source, (64, 64)).image.size == (64, 64)


def test_the_text_fit_cache_is_an_lru_of_512(fonts: FontManager) -> None:
    assert adaptive_layout.TEXT_CACHE_MAX == 512
    ctx = LayoutContext(128, 32, fonts)
    first = ctx.fit_text("0", (60, 10), ladder=SMALL)
    second = ctx.fit_text("1", (60, 10), ladder=SMALL)
    for n in range(2, 512):
        ctx.fit_text(str(n), (60, 10), ladder=SMALL)
    assert ctx.fit_text("0", (60, 10), ladder=SMALL) is first  # used: now the newest
    ctx.fit_text("512", (60, 10), ladder=SMALL)  # the 513th entry evicts the oldest: "1"
    assert ctx.fit_text("0", (60, 10), ladder=SMALL) is first
    assert ctx.fit_text("1", (60, 10), ladder=SMALL) is not second


def test_the_image_fit_cache_is_an_lru_of_64() -> None:
    assert adaptive_layout.IMAGE_CACHE_MAX == 64
    ctx = LayoutContext(128, 32)
    logo = Image.new("RGBA", (8, 8), (0, 255, 0, 255))
    held = [ctx.fit_image(logo, (16, 16), cache_key=f"logo:{n}") for n in range(64)]
    assert ctx.fit_image(logo, (16, 16), cache_key="logo:0") is held[0]
    ctx.fit_image(logo, (16, 16), cache_key="logo:64")  # evicts logo:1, the oldest
    assert ctx.fit_image(logo, (16, 16), cache_key="logo:0") is held[0]
    assert ctx.fit_image(logo, (16, 16), cache_key="logo:1") is not held[1]


def grey_share(font: object, sample: str) -> float:
    """The spec's crispness: the share of ink-box pixels neither pure black nor white."""
    canvas = Image.new("L", (250, 60))
    ImageDraw.Draw(canvas).text((2, 2), sample, font=font, fill=255)  # type: ignore[arg-type]
    box = canvas.getbbox()
    assert box is not None
    values = list(canvas.crop(box).tobytes())
    return sum(1 for v in values if v not in (0, 255)) / len(values)


def test_crispness_is_the_grey_share_of_the_ink_box(fonts: FontManager) -> None:
    blurred = fonts.get_font("press_start", 11)
    assert measure_font_crispness(blurred, "Ay0") == grey_share(blurred, "Ay0") > 0.0
    for step in (*LADDER_GRID, *LADDER_ARCADE):  # bitmap fonts, and the TTF on its grid
        font = fonts.get_font(step.family, step.size_px)
        assert measure_font_crispness(font, "Hi 42") == 0.0, step


EXPECTED_LAYOUT_NAMES = {
    "Region", "FontStep", "FitResult", "LayoutContext", "LADDER_GRID", "LADDER_ARCADE",
    "DEFAULT_DESIGN_SIZE", "ELLIPSIS", "measure_ink", "font_line_height",
    "measure_font_crispness", "draw_fitted_text", "ScoreboardRegions", "scoreboard_regions",
    "MediaRow", "media_row", "LADDER_DEFAULT", "TIER_ORDER", "WIDTH_TIER_ORDER",
}
EXPECTED_IMAGE_NAMES = {
    "FIT_MODES", "ImageFitResult", "fit_image", "draw_fitted_image", "RESAMPLE_LANCZOS",
    "RESAMPLE_NEAREST",
}


def test_the_names_plugins_import_are_all_there() -> None:
    compat.install()
    src_layout = importlib.import_module("src.adaptive_layout")
    src_images = importlib.import_module("src.adaptive_images")
    src_common = importlib.import_module("src.common")
    assert src_layout is adaptive_layout and src_images is image_fit
    assert EXPECTED_LAYOUT_NAMES <= set(adaptive_layout.__all__)
    for name in EXPECTED_LAYOUT_NAMES | EXPECTED_IMAGE_NAMES:
        assert getattr(src_common, name) is getattr(adaptive_layout, name), name
    for name in EXPECTED_IMAGE_NAMES:
        assert getattr(src_images, name) is getattr(adaptive_layout, name), name
    assert image_fit.FIT_MODES == ("contain", "cover", "fill_height", "stretch")
    assert adaptive_layout.DEFAULT_DESIGN_SIZE == (128, 32)


def test_the_context_draws_a_fit_with_its_ink_aligned_in_the_box(fonts: FontManager) -> None:
    display = DisplayManager(HeadlessMatrix(64, 32), font_manager=fonts)
    ctx = LayoutContext(64, 32, fonts)
    box = Region(32, 16, 32, 16)
    fit = ctx.fit_text("7", box)
    ctx.draw_fitted_text(display, fit, box, align="right", valign="bottom")
    left, top, right, bottom = display.image.getbbox() or (0, 0, 0, 0)
    # The ink rows end on the bottom edge; the glyph box (the ink lies within it) on the
    # right edge.
    assert (top, bottom) == (32 - fit.height, 32)
    assert 64 - fit.width <= left < right <= 64 and fit.width <= 12


def test_cache_info_counts_hits_and_misses(fonts: FontManager) -> None:
    ctx = LayoutContext(64, 32, fonts)
    logo = Image.new("RGBA", (8, 8))
    for _ in range(3):
        ctx.fit_text("12:45", (64, 16))
        ctx.fit_image(logo, (16, 16), cache_key="logo")
    ctx.fit_text("12:46", (64, 16))
    assert ctx.cache_info() == {"text": {"hits": 2, "misses": 2, "size": 2},
                                "image": {"hits": 2, "misses": 1, "size": 1}}
