"""The default health check after a core update, on the real daemons: both answer and
the display renders frames; a daemon that goes away inside the window is unhealthy."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from shared.bus.core import Bus
from shared.core_update import health
from tests.daemons import Instance, running
from tests.shared.core_update.repos import ROOT
from tests.web_service.conftest import write_plugin


@pytest.fixture(autouse=True)
def _default_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(health.COMMAND_ENV, raising=False)


def test_both_daemons_up_and_rendering_is_healthy(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    write_plugin(instance.plugins_dir, "clock")
    instance.write_config({"clock": {"enabled": True}})
    with running(instance):
        assert health.check(ROOT, instance.cache_dir, start_timeout=30, window=1.5) is None
        state = Bus(instance.cache_dir).read("display_state")
        assert state["loaded_plugins"] == ["clock"] and state["first_frame_ms"] is not None


def test_a_display_that_goes_away_in_the_window_is_a_failure(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    found: list[str | None] = []
    with running(instance) as (display, _web, _url):
        assert health.check(ROOT, instance.cache_dir, start_timeout=30, window=0) is None
        checking = threading.Thread(target=lambda: found.append(health.check(
            ROOT, instance.cache_dir, start_timeout=2, window=120)))
        checking.start()
        display.stop()
        checking.join(30)
    assert not checking.is_alive()
    assert found and found[0] is not None and "display" in found[0]


def test_nothing_running_is_not_healthy(tmp_path: Path) -> None:
    reason = health.check(ROOT, tmp_path / "cache", start_timeout=0, window=0)
    assert reason is not None and "display service is not running" in reason
