"""Fixtures of the ``ledpanel`` command's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared.cli.stub_web import stub_web  # noqa: F401 - a fixture, offered here


@pytest.fixture(autouse=True)
def empty_bus(tmp_path_factory: pytest.TempPathFactory,
              monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point the commands at an empty bus, so a daemon running in the checkout (or on the
    device) is never what a test talks to."""
    bus = tmp_path_factory.mktemp("empty-bus")
    monkeypatch.setenv("LEDPANEL_CACHE_DIR", str(bus))
    return bus
