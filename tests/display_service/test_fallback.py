"""The real display daemon falls back to running without hardware, and says why."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from shared.bus.core import Bus
from tests.daemons import Daemon, Instance, start_display

REFUSED = {"display": {"hardware": {"hardware_mapping": "vendor-hat", "parallel": 3,
                                    "rows": 32, "cols": 64, "chain_length": 2}}}


def status_of(bus: Bus, daemon: Daemon, after: float = 0.0) -> dict[str, Any]:
    status = bus.wait_for("hardware_status", lambda s: bool(s) and s["at"] > after, 15)
    assert status, daemon.output()
    return status


def still_running(bus: Bus, daemon: Daemon) -> None:
    pid = daemon.process.pid
    state = bus.wait_for("display_state", lambda s: bool(s and s.get("pid") == pid), 15)
    assert state and state["pid"] == daemon.process.pid, daemon.output()
    assert daemon.process.poll() is None, daemon.output()


def test_refused_settings_fall_back_with_cause_settings(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config(REFUSED)
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance, headless=False)
    try:
        status = status_of(bus, daemon)
        still_running(bus, daemon)
        assert status["ok"] is False and status["backend"] == "headless"
        assert status["cause"] == "settings" and status["hint"] is None
        assert "display.hardware.parallel" in status["error"]
        assert status["requested_size"] == status["effective_size"] == {"width": 128,
                                                                         "height": 96}
    finally:
        assert daemon.stop() == 0
    assert "hardware: settings fallback" in daemon.output()


@pytest.mark.skipif(importlib.util.find_spec("rgbmatrix") is not None,
                    reason="the matrix binding is installed here")
def test_missing_library_falls_back_with_cause_library_and_a_hint(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config({"display": {"hardware": {"pixel_mapper_config": "Rotate:90"}}})
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance, headless=False)
    try:
        status = status_of(bus, daemon)
        still_running(bus, daemon)
        assert status["cause"] == "library"
        assert "rgbmatrix module not available" in status["error"]
        assert "scripts/install --from matrix" in status["hint"]
        assert status["effective_size"] == {"width": 32, "height": 128}
    finally:
        assert daemon.stop() == 0


def test_status_is_rewritten_on_every_start(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config(REFUSED)
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance)
    try:
        first = status_of(bus, daemon)
        still_running(bus, daemon)
        assert first["cause"] == "forced" and first["hint"] is None
    finally:
        assert daemon.stop() == 0
    daemon = start_display(instance, headless=False)
    try:
        second = status_of(bus, daemon, after=first["at"])
        still_running(bus, daemon)
        assert second["cause"] == "settings"
    finally:
        assert daemon.stop() == 0


@pytest.mark.skipif(importlib.util.find_spec("RGBMatrixEmulator") is None,
                    reason="the emulator extra is not installed")
def test_emulator_flag_runs_the_emulator_and_only_warns(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config(REFUSED)
    bus = Bus(instance.cache_dir)
    daemon = start_display(instance, "--emulator", headless=False)
    try:
        status = status_of(bus, daemon)
        still_running(bus, daemon)
        assert status["ok"] is True and status["backend"] == "emulator"
        assert status["cause"] is None
        assert [w["setting"] for w in status["warnings"]] == ["display.hardware.parallel"]
        assert (instance.cache_dir / "emulator" / "emulator_config.json").exists()
    finally:
        assert daemon.stop() == 0
