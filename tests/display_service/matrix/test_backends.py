"""The real-binding backend against a fake ``rgbmatrix`` with the binding's surface."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image

from display_service.matrix.errors import MatrixLibraryError, MatrixSettingsRefused
from display_service.matrix.rgbmatrix_backend import RGBMatrixBackend, build_options
from display_service.matrix.select import open_backend
from tests.display_service import fake_rgbmatrix

PI4 = "Raspberry Pi 4 Model B Rev 1.4"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
HARDWARE: dict[str, Any] = {
    "rows": 32, "cols": 64, "chain_length": 2, "parallel": 1,
    "hardware_mapping": "vendor-hat", "pixel_mapper_config": "", "row_address_type": 0,
    "multiplexing": 0, "panel_type": "", "pwm_bits": 11, "pwm_lsb_nanoseconds": 130,
    "pwm_dither_bits": 0, "scan_mode": 0, "led_rgb_sequence": "RGB", "brightness": 90,
    "disable_hardware_pulsing": False, "inverse_colors": False, "show_refresh_rate": False,
    "limit_refresh_rate_hz": 100,
}


def config(brightness: int = 60, runtime: dict[str, Any] | None = None,
           **hardware: Any) -> dict[str, Any]:
    return {"brightness": brightness,
            "display": {"hardware": {**copy.deepcopy(HARDWARE), **hardware},
                        "runtime": runtime or {"gpio_slowdown": 3}}}


def on(board: str | None) -> Any:
    return lambda: board


@pytest.fixture
def binding(monkeypatch: pytest.MonkeyPatch) -> Any:
    return fake_rgbmatrix.install(monkeypatch)


def test_real_backend_opens_on_a_pi_with_every_option_mapped(binding: Any) -> None:
    backend, status = open_backend(config(), force_headless=False, board_reader=on(PI4))
    assert backend.name == "rgbmatrix"
    assert status["ok"] is True and status["cause"] is None and status["hint"] is None
    assert status["board"] == PI4
    assert status["effective_size"] == status["requested_size"] == {"width": 128, "height": 32}
    options = binding.made[0].options.as_dict()
    expected = {**HARDWARE, "hardware_mapping": "adafruit-hat", "gpio_slowdown": 3,
                "drop_privileges": False}
    assert options == expected


@pytest.mark.parametrize(("spec", "library"), [
    ("regular", "regular"), ("vendor-hat", "adafruit-hat"),
    ("vendor-hat-pwm", "adafruit-hat-pwm"), ("regular-gen1", "regular-pi1"),
    ("classic", "classic"), ("classic-gen1", "classic-pi1"),
    ("compute-module", "compute-module"),
])
def test_mapping_names_are_translated_at_the_boundary(binding: Any, spec: str,
                                                      library: str) -> None:
    options = build_options(binding, {"hardware_mapping": spec}, {})
    assert options.hardware_mapping == library


def test_frames_go_out_with_set_image_and_swap(binding: Any) -> None:
    backend, _ = open_backend(config(), force_headless=False, board_reader=on(PI4))
    matrix = binding.made[0]
    backend.show(Image.new("RGB", (128, 32), (10, 20, 30)))
    backend.show(Image.new("RGBA", (128, 32), (40, 50, 60, 255)))
    assert matrix.swaps == 2
    assert matrix.active.pixels.getpixel((5, 5)) == (40, 50, 60)
    backend.clear()
    assert matrix.cleared == 1 and matrix.active.pixels.getpixel((5, 5)) == (0, 0, 0)


def test_brightness_is_applied_at_start_and_repushes_the_frame(binding: Any) -> None:
    backend, _ = open_backend(config(brightness=60), force_headless=False,
                              board_reader=on(PI4))
    matrix = binding.made[0]
    assert matrix.options.brightness == 90  # the initial option is the hardware one
    assert backend.brightness == 60  # the running one is applied once it is open
    backend.show(Image.new("RGB", (128, 32), (1, 2, 3)))
    backend.brightness = 250
    assert matrix.brightness == 100 and matrix.swaps == 2


def test_refused_settings_never_reach_the_library(binding: Any) -> None:
    backend, status = open_backend(config(parallel=3), force_headless=False,
                                   board_reader=on(PI4))
    assert binding.made == []
    assert backend.name == "headless" and (backend.width, backend.height) == (128, 96)
    assert status["cause"] == "settings" and status["hint"] is None
    assert "display.hardware.parallel" in status["error"]
    assert status["problems"][0]["setting"] == "display.hardware.parallel"


def test_backend_open_checks_the_rules_itself(binding: Any) -> None:
    with pytest.raises(MatrixSettingsRefused, match="hardware_mapping"):
        RGBMatrixBackend.open({"hardware_mapping": "adafruit-hat"}, {}, board=PI4,
                              binding=binding)
    assert binding.made == []


def test_a_matrix_the_library_refused_crashes_on_any_use(binding: Any) -> None:
    # Older bindings hand back an object with no matrix behind it; its next use, even
    # reading width (the old "no matrix" guard), is a crash no except clause can catch.
    options = build_options(binding, {**HARDWARE, "rows": 7}, {})
    matrix = binding.RGBMatrix(options=options)
    assert fake_rgbmatrix.refusal_of(matrix) and binding.refused
    with pytest.raises(fake_rgbmatrix.LibraryCrash):
        _ = matrix.width
    with pytest.raises(fake_rgbmatrix.LibraryCrash):
        matrix.CreateFrameCanvas()
    with pytest.raises(fake_rgbmatrix.LibraryCrash):
        matrix.brightness = 50


def test_an_unknown_panel_type_is_not_a_refusal(binding: Any) -> None:
    # The library prints "Unknown panel type; typo?" and starts the panel anyway.
    backend, status = open_backend(config(panel_type="FM9999"), force_headless=False,
                                   board_reader=on(PI4))
    assert backend.name == "rgbmatrix" and status["ok"] is True
    assert binding.refused == []


def test_a_binding_that_returns_none_is_a_library_failure(monkeypatch) -> None:
    class Nothing(fake_rgbmatrix.RGBMatrix):
        def __new__(cls, options: Any = None) -> Any:
            return None

    fake_rgbmatrix.install(monkeypatch, RGBMatrix=Nothing)
    backend, status = open_backend(config(), force_headless=False, board_reader=on(PI4))
    assert backend.name == "headless" and status["cause"] == "library"
    assert "returned no matrix" in status["error"] and status["hint"]


def test_a_canvas_the_library_cannot_make_is_a_library_failure(monkeypatch) -> None:
    class NoCanvas(fake_rgbmatrix.RGBMatrix):
        def CreateFrameCanvas(self) -> Any:
            raise Exception("C++ CreateFrameCanvas failed")

    fake_rgbmatrix.install(monkeypatch, RGBMatrix=NoCanvas)
    backend, status = open_backend(config(), force_headless=False, board_reader=on(PI4))
    assert backend.name == "headless" and status["cause"] == "library"
    assert "CreateFrameCanvas failed" in status["error"]


def test_a_value_the_bindings_typed_setter_refuses_is_a_library_failure(monkeypatch) -> None:
    class Unsigned(fake_rgbmatrix.RGBMatrixOptions):
        __slots__ = ()

        def __setattr__(self, name: str, value: Any) -> None:
            if name == "gpio_slowdown" and value < 0:  # uint8_t in some bindings
                raise OverflowError("can't convert negative value to uint8_t")
            super().__setattr__(name, value)

    fake_rgbmatrix.install(monkeypatch, RGBMatrixOptions=Unsigned)
    backend, status = open_backend(config(runtime={"gpio_slowdown": -1}),
                                   force_headless=False, board_reader=on(PI4))
    assert backend.name == "headless" and status["cause"] == "library"
    assert "gpio_slowdown -1" in status["error"]
    assert "scripts/install --from matrix" in status["hint"]


def test_a_library_that_raises_on_start_is_a_library_failure(monkeypatch) -> None:
    class Exploding(fake_rgbmatrix.RGBMatrix):
        def __init__(self, options: Any = None) -> None:
            raise RuntimeError("cannot map /dev/mem")

    fake_rgbmatrix.install(monkeypatch, RGBMatrix=Exploding)
    _backend, status = open_backend(config(), force_headless=False, board_reader=on(PI4))
    assert status["cause"] == "library" and "cannot map /dev/mem" in status["error"]


def test_a_binding_without_an_option_asks_for_a_rebuild(monkeypatch) -> None:
    class OldOptions:
        __slots__ = tuple(n for n in fake_rgbmatrix.OPTION_NAMES if n != "pwm_dither_bits")

    binding = fake_rgbmatrix.install(monkeypatch, RGBMatrixOptions=OldOptions)
    with pytest.raises(MatrixLibraryError, match="pwm_dither_bits") as caught:
        build_options(binding, HARDWARE, {})
    assert "scripts/install --from matrix" in (caught.value.hint or "")


def test_the_binding_is_not_driven_off_a_pi(binding: Any) -> None:
    backend, status = open_backend(config(), force_headless=False, board_reader=on(None))
    assert binding.made == [] and backend.name == "headless"
    assert status["cause"] == "library" and "not a Raspberry Pi" in status["error"]
    assert "--emulator" in status["hint"]


def test_settings_outrank_a_missing_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "rgbmatrix", None)
    _backend, status = open_backend(config(hardware_mapping="vendor_hat"),
                                    force_headless=False, board_reader=on(PI4))
    assert status["cause"] == "settings" and status["hint"] is None
    assert "did you mean 'vendor-hat'" in status["error"]


def test_fifth_generation_board_refuses_unsupported_mappings(binding: Any) -> None:
    _backend, status = open_backend(config(hardware_mapping="regular-gen1"),
                                    force_headless=False, board_reader=on(PI5))
    assert status["cause"] == "settings" and "fifth-generation" in status["error"]


def test_fifth_generation_slowdown_guidance_is_a_warning(binding: Any) -> None:
    backend, status = open_backend(config(runtime={"gpio_slowdown": 4}),
                                   force_headless=False, board_reader=on(PI5))
    assert backend.name == "rgbmatrix" and status["ok"] is True
    assert [w["setting"] for w in status["warnings"]] == ["display.runtime.gpio_slowdown"]
    assert "start at 1" in status["warnings"][0]["message"]


def test_effective_size_follows_the_pixel_mappers(binding: Any) -> None:
    backend, status = open_backend(config(pixel_mapper_config="Rotate:90"),
                                   force_headless=False, board_reader=on(PI4))
    assert (backend.width, backend.height) == (32, 128)
    assert status["requested_size"] == {"width": 128, "height": 32}
    assert status["effective_size"] == {"width": 32, "height": 128}
    assert status["warnings"] == []


def test_fallback_canvas_has_the_effective_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "rgbmatrix", None)
    backend, status = open_backend(config(chain_length=4, pixel_mapper_config="U-mapper"),
                                   force_headless=False, board_reader=on(PI4))
    assert status["cause"] == "library"
    assert (backend.width, backend.height) == (128, 64)
    assert status["effective_size"] == {"width": 128, "height": 64}


@pytest.mark.parametrize(("setting", "value"), [("rows", 7), ("rows", 100000),
                                                ("cols", 100000), ("chain_length", 0)])
def test_a_refused_geometry_value_never_sizes_the_fallback_canvas(
        binding: Any, setting: str, value: int) -> None:
    backend, status = open_backend(config(**{setting: value}), force_headless=False,
                                   board_reader=on(PI4))
    assert binding.made == [] and status["cause"] == "settings"
    assert (backend.width, backend.height) == (128, 32)  # 64 x 2 by 32, the template's
    assert status["effective_size"] == status["requested_size"] == {"width": 128,
                                                                    "height": 32}
    warning = [w for w in status["warnings"] if w["setting"] == f"display.hardware.{setting}"]
    assert warning and "default" in warning[0]["message"]


def test_a_huge_remap_falls_back_at_the_size_before_the_mappers(binding: Any) -> None:
    backend, status = open_backend(
        config(chain_length=1, pixel_mapper_config="Remap:100000,100000|0,0n"),
        force_headless=False, board_reader=on(PI4))
    assert binding.made == [] and status["cause"] == "settings"
    assert "display.hardware.pixel_mapper_config" in status["error"]
    assert (backend.width, backend.height) == (64, 32)


def test_panel_type_saved_in_the_config_is_applied_at_every_start(
        binding: Any, tmp_path: Any) -> None:
    """A panel that needs an init sequence (FM6127) keeps it across power cycles: the
    setting lives in config.json and each start reads it from there into the options."""
    from display_service.config_source import ConfigSource
    from shared.config.store import ConfigStore
    from shared.paths import resolve_paths

    paths = resolve_paths(config_dir=tmp_path / "config", cache_dir=tmp_path / "cache", env={})
    store = ConfigStore(paths, lock_timeout=5.0)
    ConfigSource(store).load_initial()  # the first start makes config.json from the template
    store.update(lambda main, secrets: ({**main, "display": {
        **main["display"], "hardware": {**main["display"]["hardware"],
                                        "panel_type": "FM6127"}}}, secrets))
    for start in range(2):  # a start, then the start after a power cycle
        config, problem, _added = ConfigSource(ConfigStore(paths)).load_initial()
        assert problem is None
        backend, status = open_backend(config, force_headless=False, board_reader=on(PI4))
        assert backend.name == "rgbmatrix"
        assert status["settings"]["display"]["hardware"]["panel_type"] == "FM6127"
        assert binding.made[start].options.as_dict()["panel_type"] == "FM6127"
