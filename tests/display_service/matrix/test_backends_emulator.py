"""Emulator mode with the real RGBMatrixEmulator package (raw adapter, temporary dirs)."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from display_service.matrix.emulator_backend import emulator_config
from display_service.matrix.select import open_backend

# Not importorskip: importing the package writes emulator_config.json into the cwd.
pytestmark = pytest.mark.skipif(importlib.util.find_spec("RGBMatrixEmulator") is None,
                                reason="the emulator extra is not installed")


def config(**hardware: Any) -> dict[str, Any]:
    base = {"rows": 32, "cols": 64, "chain_length": 2, "parallel": 1,
            "hardware_mapping": "vendor-hat", "pixel_mapper_config": ""}
    return {"brightness": 50, "display": {"hardware": {**base, **hardware}}}


def test_emulator_shows_frames_at_the_effective_size(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    cwd = os.getcwd()
    backend, status = open_backend(config(pixel_mapper_config="Rotate:90"),
                                   force_headless=False, emulator=True,
                                   board_reader=lambda: None, workdir=tmp_path / "emu")
    assert os.getcwd() == cwd  # started from its own directory, then put back
    assert backend.name == "emulator" and status["ok"] is True and status["cause"] is None
    assert (backend.width, backend.height) == (32, 128)
    assert status["effective_size"] == {"width": 32, "height": 128}
    written = json.loads((tmp_path / "emu" / "emulator_config.json").read_text())
    assert written == emulator_config("raw")
    assert not [r for r in caplog.records if "missing key" in r.getMessage()]

    backend.show(Image.new("RGB", (32, 128), (200, 100, 40)))
    pixels = backend.last_pixels()  # type: ignore[attr-defined]
    assert pixels.shape == (128, 32, 3)
    assert tuple(pixels[5, 5]) == (100, 50, 20)  # brightness 50 applied at swap
    backend.brightness = 100
    assert tuple(backend.last_pixels()[5, 5]) == (200, 100, 40)  # type: ignore[attr-defined]


def test_emulator_mode_only_warns_about_refused_settings(tmp_path: Path) -> None:
    backend, status = open_backend(config(parallel=3, hardware_mapping="vendor_hat"),
                                   force_headless=False, emulator=True,
                                   board_reader=lambda: None, workdir=tmp_path)
    assert backend.name == "emulator" and status["ok"] is True
    settings = {w["setting"] for w in status["warnings"]}
    assert settings == {"display.hardware.hardware_mapping"}
    assert all(w["severity"] == "warning" for w in status["warnings"])
    assert (backend.width, backend.height) == (128, 96)


def test_config_key_selects_the_emulator(tmp_path: Path) -> None:
    cfg = config()
    cfg["display"]["emulator"] = True
    backend, status = open_backend(cfg, force_headless=False, board_reader=lambda: None,
                                   workdir=tmp_path)
    assert backend.name == "emulator" and status["backend"] == "emulator"


def test_missing_emulator_is_a_library_cause_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "RGBMatrixEmulator", None)
    backend, status = open_backend(config(), force_headless=False, emulator=True,
                                   board_reader=lambda: None, workdir=tmp_path)
    assert backend.name == "headless" and status["cause"] == "library"
    assert "RGBMatrixEmulator" in status["error"] and "emulator" in status["hint"]


def test_unknown_adapter_is_refused_before_the_emulator_starts(tmp_path: Path) -> None:
    cfg = config()
    cfg["display"]["emulator_adapter"] = "tkinter"
    backend, status = open_backend(cfg, force_headless=False, emulator=True,
                                   board_reader=lambda: None, workdir=tmp_path)
    assert backend.name == "headless" and status["cause"] == "library"
    assert "tkinter" in status["error"]
