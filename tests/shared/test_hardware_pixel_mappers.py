"""Size after the matrix library's pixel mappers, and malformed mappers as problems."""

from __future__ import annotations

import pytest

from shared.hardware import (
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
    ((64, 64, 2, 2), "Remap:256,64|0,0|64,0|128,0e|192,0w", (256, 64)),
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
    assert requested_size({"rows": "x", "cols": True, "chain_length": 0}) == (64, 32)
