"""Temperature and throttling: a fake thermal zone and a fake vcgencmd first on PATH;
anything odd from either reads as None, never an error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fake_commands import fake_command, path_with
from web_service.metrics import pi_health


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    pi_health.forget()
    yield
    pi_health.forget()


def use_vcgencmd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output: str,
                 code: int = 0) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake_command(bin_dir, "vcgencmd", output=output, exit_code=code)
    monkeypatch.setenv("PATH", path_with(bin_dir, keep_system=False))
    return bin_dir


def test_throttled_flags_now_and_since_boot(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    use_vcgencmd(tmp_path, monkeypatch, "throttled=0x20002\n")
    found = pi_health.throttling()
    assert found is not None and found["raw"] == 0x20002
    assert found["now"] == {"under_voltage": False, "frequency_capped": True,
                            "throttled": False, "soft_temp_limit": False}
    assert found["since_boot"]["frequency_capped"] is True
    assert found["since_boot"]["under_voltage"] is False


@pytest.mark.parametrize(("output", "code"), [("throttled=zz\n", 0), ("", 0),
                                              ("throttled=0x0\n", 1), ("x" * 5000, 0)])
def test_odd_answers_read_as_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  output: str, code: int) -> None:
    use_vcgencmd(tmp_path, monkeypatch, output, code)
    assert pi_health.throttling() is None


def test_no_vcgencmd_is_none_and_answers_are_kept_a_while(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert pi_health.throttling() is None
    bin_dir = use_vcgencmd(tmp_path, monkeypatch, "throttled=0x0\n")
    assert pi_health.throttling() is None  # kept: no process per scrape
    pi_health.forget()
    assert pi_health.throttling() is not None
    assert pi_health.throttling() is not None
    assert len((bin_dir / "vcgencmd.calls").read_text().splitlines()) == 1


@pytest.mark.parametrize(("text", "expected"), [("48500\n", 48.5), ("garbage", None),
                                                ("", None)])
def test_temperature_from_the_thermal_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           text: str, expected: float | None) -> None:
    thermal = tmp_path / "temp"
    thermal.write_text(text)
    monkeypatch.setenv("LEDPANEL_THERMAL_FILE", str(thermal))
    assert pi_health.pi_health()["cpu_temperature_c"] == expected
