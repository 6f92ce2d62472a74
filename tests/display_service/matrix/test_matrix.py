"""Headless matrix and backend selection."""

from __future__ import annotations

import sys

import pytest
from PIL import Image

from display_service.matrix.headless import HeadlessMatrix
from display_service.matrix.protocol import MatrixBackend
from display_service.matrix.select import open_backend

CONFIG = {"display": {"hardware": {"rows": 32, "cols": 64, "chain_length": 2, "parallel": 2}}}


def test_headless_keeps_a_copy_of_the_last_frame() -> None:
    matrix = HeadlessMatrix(4, 2)
    assert isinstance(matrix, MatrixBackend)
    frame = Image.new("RGB", (4, 2), (1, 2, 3))
    matrix.show(frame)
    frame.putpixel((0, 0), (200, 200, 200))
    assert matrix.last_frame is not None
    assert matrix.last_frame.getpixel((0, 0)) == (1, 2, 3)
    assert matrix.frames_pushed == 1
    matrix.clear()
    assert matrix.last_frame.getpixel((1, 1)) == (0, 0, 0)


def test_headless_brightness_is_clamped() -> None:
    matrix = HeadlessMatrix(4, 2, brightness=0)
    assert matrix.brightness == 1
    matrix.brightness = 250
    assert matrix.brightness == 100


def test_forced_headless_reports_cause_forced_and_sizes() -> None:
    backend, status = open_backend(CONFIG, force_headless=True)
    assert (backend.width, backend.height) == (128, 64)
    assert status["cause"] == "forced"
    assert status["ok"] is True and status["hint"] is None  # asked for: not a failure
    assert status["requested_size"] == status["effective_size"] == {"width": 128, "height": 64}


def test_missing_binding_reports_cause_library_with_a_rebuild_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "rgbmatrix", None)  # import raises ImportError
    backend, status = open_backend({}, force_headless=False)
    assert backend.name == "headless"
    assert (backend.width, backend.height) == (128, 32)  # the template's geometry
    assert status["cause"] == "library"
    assert "rgbmatrix module not available" in status["error"]
    assert "scripts/install --from matrix" in status["hint"]
    assert "-m pip install" in status["hint"] and "make build-python" not in status["hint"]


def test_bad_hardware_values_fall_back_to_defaults() -> None:
    config = {"display": {"hardware": {"rows": "x", "cols": True, "chain_length": 0}}}
    backend, status = open_backend(config, force_headless=True)
    assert (backend.width, backend.height) == (128, 32)
    assert [w["setting"] for w in status["warnings"]] == [
        "display.hardware.rows", "display.hardware.cols", "display.hardware.chain_length"]


def test_emulator_and_headless_flags_are_parsed() -> None:
    from display_service.__main__ import parse_args

    assert parse_args(["--emulator"]).emulator is True
    assert parse_args([]).emulator is False and parse_args(["--headless"]).headless is True


def test_forced_headless_does_not_read_the_board() -> None:
    def board() -> str:
        raise AssertionError("board read with --headless")

    _backend, status = open_backend(CONFIG, force_headless=True, board_reader=board)
    assert status["cause"] == "forced" and status["warnings"] == []
