"""Our rules refuse every option set the matrix library refuses, so it never sees one.

On options it refuses, the library returns no matrix and (older bindings) the next
call crashes the process; nothing can probe the object first. So the rules are the
only guard, and these tests hold them to the fake library, whose checks mirror the
library's own limits (FACTS.md), not our rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from display_service.matrix.rgbmatrix_backend import RGBMatrixBackend, build_options
from display_service.matrix.select import open_backend
from shared.hardware import MAPPINGS, check_hardware_settings, errors
from tests.display_service import fake_rgbmatrix

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
BASE: dict[str, Any] = {
    "rows": 32, "cols": 64, "chain_length": 2, "parallel": 1,
    "hardware_mapping": "regular", "pixel_mapper_config": "", "row_address_type": 0,
    "multiplexing": 0, "panel_type": "", "pwm_bits": 11, "pwm_lsb_nanoseconds": 130,
    "pwm_dither_bits": 0, "scan_mode": 0, "led_rgb_sequence": "RGB", "brightness": 90,
    "disable_hardware_pulsing": False, "inverse_colors": False, "show_refresh_rate": False,
    "limit_refresh_rate_hz": 100,
}

# (hardware changes, runtime): each an option set the library refuses.
REFUSED: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"rows": 7}, {}), ({"rows": 6}, {}), ({"rows": 66}, {}), ({"rows": 0}, {}),
    ({"rows": 100000}, {}), ({"rows": 33}, {}),
    ({"cols": 15}, {}), ({"cols": 0}, {}), ({"cols": -64}, {}),
    ({"chain_length": 0}, {}), ({"chain_length": -1}, {}),
    ({"parallel": 0}, {}), ({"parallel": 4}, {}),
    ({"parallel": 2, "hardware_mapping": "vendor-hat"}, {}),
    ({"parallel": 2, "hardware_mapping": "vendor-hat-pwm"}, {}),
    ({"parallel": 3, "hardware_mapping": "regular-gen1"}, {}),
    ({"parallel": 2, "hardware_mapping": "classic-gen1"}, {}),
    ({"parallel": 7, "hardware_mapping": "compute-module"}, {}),
    ({"hardware_mapping": "vendor_hat"}, {}), ({"hardware_mapping": "adafruit_hat"}, {}),
    ({"hardware_mapping": ""}, {}),
    ({"brightness": 0}, {}), ({"brightness": 101}, {}),
    ({"pwm_bits": 0}, {}), ({"pwm_bits": 12}, {}),
    ({"scan_mode": -1}, {}), ({"scan_mode": 2}, {}),
    ({"pwm_lsb_nanoseconds": 49}, {}), ({"pwm_lsb_nanoseconds": 3001}, {}),
    ({"pwm_dither_bits": -1}, {}), ({"pwm_dither_bits": 3}, {}),
    ({"row_address_type": -1}, {}), ({"row_address_type": 6}, {}),
    ({"multiplexing": -1}, {}),
    ({"led_rgb_sequence": "RG"}, {}), ({"led_rgb_sequence": "RRB"}, {}),
    ({"led_rgb_sequence": "RGBX"}, {}), ({"led_rgb_sequence": ""}, {}),
    ({}, {"gpio_slowdown": -2}), ({}, {"gpio_slowdown": 11}),
    ({"chain_length": 1, "pixel_mapper_config": "Remap:100000,100000|0,0n"}, {}),
    ({"chain_length": 1, "pixel_mapper_config": "Remap:9000,9000|0,0n"}, {}),
    ({"pixel_mapper_config": "Rotate:90;Remap:1,100000000|0,0n|0,32n"}, {}),
]


def library_options(binding: Any, hardware: dict[str, Any], runtime: dict[str, Any]) -> Any:
    """Fill the fake's options as given, bypassing our rules and name translation."""
    options = binding.RGBMatrixOptions()
    for name, value in {**hardware, **runtime}.items():
        if name == "hardware_mapping" and value in MAPPINGS:
            value = MAPPINGS[value].library_name
        setattr(options, name, value)
    return options


@pytest.fixture
def binding(monkeypatch: pytest.MonkeyPatch) -> Any:
    return fake_rgbmatrix.install(monkeypatch)


def on(board: str | None) -> Any:
    return lambda: board


@pytest.mark.parametrize(("changes", "runtime"), REFUSED)
def test_every_option_set_the_library_refuses_is_refused_by_our_rules(
        binding: Any, changes: dict[str, Any], runtime: dict[str, Any]) -> None:
    hardware = {**BASE, **changes}
    reason = fake_rgbmatrix.library_failure(library_options(binding, hardware, runtime))
    assert reason, "the case must be one the library refuses"
    assert errors(check_hardware_settings(hardware, runtime, board=PI4)), reason
    # ... so the daemon falls back before the library is reached, and keeps running.
    config = {"display": {"hardware": hardware, "runtime": runtime}}
    backend, status = open_backend(config, force_headless=False, board_reader=on(PI4))
    assert binding.made == [] and status["cause"] == "settings"
    assert backend.name == "headless"


# option: (values the library takes, values it refuses alone or in some combination)
CANDIDATES: dict[str, tuple[list[Any], list[Any]]] = {
    "rows": ([8, 16, 32, 64, 10], [6, 7, 33, 66, 0, -2]),
    "cols": ([16, 32, 64, 128], [15, 0, -16]),
    "chain_length": ([1, 2, 4, 255], [0, -1]),
    "parallel": ([1, 2, 3, 6], [0, 4, 7]),
    "hardware_mapping": (list(MAPPINGS), ["adafruit-hat", "vendor_hat", ""]),
    "brightness": ([1, 50, 100], [0, 101]),
    "pwm_bits": ([1, 11], [0, 12]),
    "scan_mode": ([0, 1], [2, -1]),
    "pwm_lsb_nanoseconds": ([50, 130, 3000], [49, 3001]),
    "pwm_dither_bits": ([0, 2], [3, -1]),
    "row_address_type": ([0, 5], [6, -1]),
    "multiplexing": ([0, 3, 17], [-1]),
    "led_rgb_sequence": (["RGB", "BGR", "rbg"], ["RG", "RRB", "RGBX", ""]),
    "pixel_mapper_config": (["", "Rotate:90", "Remap:64,64|0,0n|0,32n", "U-mapper"],
                            ["Remap:100000,100000|0,0n", "Remap:9000,9000|0,0n|0,32n"]),
    "gpio_slowdown": ([-1, 0, 3, 10], [-2, 11]),
}


def _sample(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return an option set: each option usable or missing, then 0-2 of them broken."""
    chosen = {name: rng.choice(good) for name, (good, _bad) in CANDIDATES.items()
              if rng.random() < 0.9}
    for name in rng.sample(sorted(CANDIDATES), rng.choice([0, 0, 1, 1, 2])):
        chosen[name] = rng.choice(CANDIDATES[name][1])
    runtime = {"gpio_slowdown": chosen.pop("gpio_slowdown")} if "gpio_slowdown" in chosen \
        else {}
    return chosen, runtime


def test_a_random_option_set_our_rules_pass_always_starts_the_library(binding: Any) -> None:
    rng = random.Random(7)
    passed = refused_by_library = 0
    for _ in range(5000):
        hardware, runtime = _sample(rng)
        failure = fake_rgbmatrix.library_failure(library_options(binding, hardware, runtime))
        refused_by_library += failure is not None
        if errors(check_hardware_settings(hardware, runtime, board=PI4)):
            continue
        passed += 1
        assert failure is None, (hardware, runtime, failure)
        backend = RGBMatrixBackend.open(hardware, runtime, board=PI4, binding=binding)
        assert backend.width > 0 and backend.height > 0
    assert binding.refused == []
    # the sample has both sides in it, or the property says little
    assert passed > 500 and refused_by_library > 1500, (passed, refused_by_library)


def test_build_options_gives_the_library_what_the_rules_passed(binding: Any) -> None:
    options = build_options(binding, BASE, {"gpio_slowdown": 3})
    assert fake_rgbmatrix.library_failure(options) is None
