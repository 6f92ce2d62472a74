"""Size after the matrix library's pixel mappers, and malformed mappers as problems."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.hardware import (
    MAX_CANVAS_PIXELS,
    PixelMapperError,
    check_hardware_settings,
    effective_size,
    mapped_size,
    parse_pixel_mappers,
    requested_size,
)

SETTING = "display.hardware.pixel_mapper_config"


@pytest.mark.parametrize(("config", "size"), [
    ("", (128, 32)),
    ("Rotate:0", (128, 32)), ("Rotate:180", (128, 32)), ("Rotate:-180", (128, 32)),
    ("Rotate:90", (32, 128)), ("Rotate:270", (32, 128)), ("Rotate:-90", (32, 128)),
    ("Rotate", (128, 32)), ("rotate:90", (32, 128)),
    ("Mirror:H", (128, 32)), ("Mirror:V", (128, 32)), ("Mirror", (128, 32)),
    ("U-mapper", (64, 64)),
    ("V-mapper", (64, 64)), ("V-mapper:Z", (64, 64)),
    ("StackToRow", (128, 32)),
    ("Remap:64,64|0,0n|0,32s", (64, 64)),
    ("NoSuchMapper", (128, 32)), ("NoSuchMapper:3", (128, 32)),
])
def test_single_mapper_sizes(config: str, size: tuple[int, int]) -> None:
    # cols 64 x chain 2, rows 32 x parallel 1: input 128 x 32
    assert mapped_size(64, 32, 2, 1, config) == size


@pytest.mark.parametrize(("geometry", "config", "size"), [
    ((32, 16, 4, 1), "U-mapper", (64, 32)),           # (128 // 64) * 32, 2 * 16
    ((64, 32, 4, 2), "U-mapper", (128, 128)),         # (256 // 64) * 32, 2 * 64
    ((64, 32, 1, 3), "V-mapper", (192, 32)),          # 64 * 3 / 1, 96 * 1 / 3
    ((64, 32, 4, 2), "V-mapper:Z", (128, 128)),       # 256 * 2 / 4, 64 * 4 / 2
    ((64, 32, 1, 3), "StackToRow", (192, 32)),        # 64 * 3, 96 / 3
    ((64, 64, 2, 2), "Remap:256,64|0,0n|64,0n|128,0e|192,0w", (256, 64)),
])
def test_size_formulas_use_chain_and_parallel(
    geometry: tuple[int, int, int, int], config: str, size: tuple[int, int]
) -> None:
    assert mapped_size(*geometry, config) == size


@pytest.mark.parametrize(("config", "size"), [
    ("U-mapper;Rotate:90", (64, 128)),         # 256x32 -> 128x64 -> 64x128
    ("Rotate:90;Mirror:H", (32, 256)),
    ("Mirror:V;StackToRow", (256, 32)),
    (" U-mapper ; ; Rotate:180 ;", (128, 64)),  # blanks and empty entries are skipped
    ("Unknown;Rotate:270", (32, 256)),
])
def test_chains_apply_left_to_right(config: str, size: tuple[int, int]) -> None:
    assert mapped_size(64, 32, 4, 1, config) == size


@pytest.mark.parametrize(("config", "chain", "involves"), [
    ("Rotate:45", 2, {SETTING}),
    ("Rotate:ninety", 2, {SETTING}),
    ("Rotate:90.0", 2, {SETTING}),
    ("Mirror:X", 2, {SETTING}),
    ("V-mapper:Q", 2, {SETTING}),
    ("U-mapper", 3, {SETTING, "display.hardware.chain_length"}),
    ("U-mapper", 1, {SETTING, "display.hardware.chain_length"}),
    ("Remap:64", 2, {SETTING}),
    ("Remap:0,32|0,0|0,0", 2, {SETTING}),
    ("Remap:128,32|0,0", 2, {SETTING, "display.hardware.chain_length",
                             "display.hardware.parallel"}),
    ("Remap:128,32|0,0|a,b", 2, {SETTING}),
])
def test_malformed_mappers_raise(config: str, chain: int, involves: set[str]) -> None:
    with pytest.raises(PixelMapperError) as caught:
        mapped_size(64, 32, chain, 1, config)
    assert set(caught.value.involves) == involves


def test_u_mapper_on_a_narrow_chain_leaves_no_pixels() -> None:
    with pytest.raises(PixelMapperError, match="no pixels"):
        mapped_size(16, 16, 2, 1, "U-mapper")


def test_malformed_mapper_is_an_error_problem_naming_the_setting() -> None:
    found = check_hardware_settings({"pixel_mapper_config": "Rotate:45"}, {})
    assert [(p.setting, p.severity) for p in found] == [(SETTING, "error")]
    assert "multiple of 90" in found[0].message


def test_u_mapper_with_an_odd_chain_involves_the_chain() -> None:
    found = check_hardware_settings({"pixel_mapper_config": "U-mapper", "chain_length": 3}, {})
    assert found[0].setting == SETTING
    assert "display.hardware.chain_length" in found[0].involves


def test_unknown_mapper_is_a_warning() -> None:
    found = check_hardware_settings({"pixel_mapper_config": "Spiral;Rotate:90"}, {})
    assert [(p.setting, p.severity) for p in found] == [(SETTING, "warning")]
    assert "Spiral" in found[0].message


def test_parse_keeps_names_and_parameters() -> None:
    steps = parse_pixel_mappers("Remap:64,32|0,0;Mirror:V")
    assert [(s.name, s.param) for s in steps] == [("Remap", "64,32|0,0"), ("Mirror", "V")]


def test_requested_and_effective_sizes_from_a_hardware_section() -> None:
    hardware = {"rows": 32, "cols": 64, "chain_length": 2, "parallel": 1,
                "pixel_mapper_config": "Rotate:90"}
    assert requested_size(hardware) == (128, 32)
    assert effective_size(hardware) == (32, 128)
    assert effective_size({**hardware, "pixel_mapper_config": "Rotate:45"}) == (128, 32)
    # unusable values size the canvas with the template's geometry: 64 x 2 by 32 x 1
    assert requested_size({"rows": "x", "cols": True, "chain_length": 0}) == (128, 32)


# -- sizes are bounded (a Remap size is otherwise free, and every canvas allocates it) --

def test_a_huge_remap_is_refused_naming_the_setting() -> None:
    config = "Remap:100000,100000|0,0n"
    with pytest.raises(PixelMapperError, match="at most"):
        mapped_size(64, 32, 1, 1, config)
    found = check_hardware_settings(
        {"rows": 32, "cols": 64, "chain_length": 1, "parallel": 1,
         "pixel_mapper_config": config}, {})
    assert [(p.setting, p.severity) for p in found] == [(SETTING, "error")]
    # a malformed mapper sizes the canvas as if it were not there
    assert effective_size({"rows": 32, "cols": 64, "chain_length": 1,
                           "pixel_mapper_config": config}) == (64, 32)


def test_the_cap_is_the_largest_panel_the_geometry_rules_allow() -> None:
    assert MAX_CANVAS_PIXELS == 128 * 255 * 64 * 6
    assert mapped_size(128, 64, 255, 6, "") == (128 * 255, 64 * 6)
    for config in ("StackToRow", "V-mapper", "U-mapper", "Rotate:90", "Mirror:V"):
        width, height = mapped_size(128, 64, 254, 6, config)
        assert width * height <= MAX_CANVAS_PIXELS


@pytest.mark.parametrize(("config", "ok"), [
    ("Remap:64,32|0,0n", True),
    ("Remap:64,32|0,0s", True),
    ("Remap:32,64|0,0e", True),           # a 64x32 panel on its side is 32x64
    ("Remap:64,32|0,0w", False),          # ... which does not fit a 64x32 canvas
    ("Remap:64,32|1,0n", False),          # one column past the right edge
    ("Remap:64,32|0,-1n", False),         # above the top edge
    ("Remap:64,32|500,500x", True),       # a panel left out is not placed
    ("Remap:64,32|0,0", False),           # the library needs an orientation
    ("Remap:128,64|64,32N", True),        # orientation letters in either case
])
def test_each_remap_tile_lies_inside_the_declared_size(config: str, ok: bool) -> None:
    if ok:
        mapped_size(64, 32, 1, 1, config)
    else:
        with pytest.raises(PixelMapperError):
            mapped_size(64, 32, 1, 1, config)


def test_effective_size_is_bounded_for_any_hardware_section() -> None:
    rng = random.Random(20240611)
    values: list[Any] = [-1, 0, 1, 2, 7, 8, 16, 32, 64, 65, 128, 129, 255, 256, 100000,
                         "32", True, None, 3.5]
    mappers = ["", "Rotate:90", "U-mapper", "StackToRow", "V-mapper",
               "Remap:100000,100000|0,0n", "Remap:1,1000000000|0,0n;Rotate:90"]
    for _ in range(3000):
        hardware = {name: rng.choice(values)
                    for name in ("rows", "cols", "chain_length", "parallel")
                    if rng.random() < 0.9}
        hardware["pixel_mapper_config"] = rng.choice(mappers)
        requested, effective = requested_size(hardware), effective_size(hardware)
        assert requested[0] * requested[1] <= MAX_CANVAS_PIXELS, hardware
        assert 0 < effective[0] * effective[1] <= MAX_CANVAS_PIXELS, hardware
