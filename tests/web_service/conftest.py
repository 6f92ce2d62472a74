"""Fixtures: a web app over temporary config, bus and plugin directories."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from shared.bus import core as keys
from shared.bus.core import Bus
from shared.bus.daemon_lock import DISPLAY, DaemonLock
from shared.config.hardware_rule import panel_settings
from shared.paths import Paths
from web_service.app import create_app
from web_service.settings import WebSettings

SCHEMA = {
    "type": "object",
    "properties": {
        "enabled": {"type": "boolean", "default": False},
        "interval": {"type": "integer", "minimum": 1, "default": 30},
        "title": {"type": "string", "default": "Hello"},
        "show_seconds": {"type": "boolean", "default": True},
        "dynamic_duration": {"type": "object", "properties": {
            "enabled": {"type": "boolean", "default": False},
            "max_duration_seconds": {"type": "integer", "default": 120}}},
        "api_key": {"type": "string", "x-secret": True, "default": ""},
    },
}


def write_plugin(plugins_dir: Path, plugin_id: str, *, modes: list[str] | None = None,
                 schema: dict[str, Any] | None = SCHEMA) -> Path:
    """Write a manifest-and-schema-only plugin (the web never imports plugin code)."""
    directory = plugins_dir / plugin_id
    directory.mkdir(parents=True)
    manifest = {"id": plugin_id, "name": plugin_id.title(), "version": "1.0.0",
                "author": "tests", "entry_point": "manager.py", "class_name": "Plugin",
                "compatible_versions": [">=3.0.0"], "display_modes": modes or [plugin_id],
                "icon": "fas fa-clock"}
    (directory / "manifest.json").write_text(json.dumps(manifest))
    (directory / "manager.py").write_text(
        "from shared.plugin_api.base_plugin import BasePlugin\n\n"
        "class Plugin(BasePlugin):\n"
        "    def update(self):\n        pass\n\n"
        "    def display(self, force_clear=False):\n        return True\n")
    if schema is not None:
        (directory / "config_schema.json").write_text(json.dumps(schema))
    return directory


@dataclass
class WebEnv:
    paths: Paths
    app: Flask
    client: FlaskClient
    bus: Bus
    display_lock: DaemonLock | None = None

    def start_display(self, **state: Any) -> None:
        """Act as a running display daemon: hold its lock, publish state and hardware.

        The hardware record's ``settings`` are the panel settings of the stored config,
        as a display started on it would publish them.
        """
        if self.display_lock is None:
            self.paths.cache_dir.mkdir(parents=True, exist_ok=True)
            self.display_lock = DaemonLock.acquire(self.paths.cache_dir, DISPLAY)
            self.bus.publish(keys.HARDWARE_STATUS, {
                "ok": True, "backend": "headless", "cause": "forced",
                "settings": panel_settings(self.config())})
        self.publish_state(**state)

    def publish_state(self, **state: Any) -> None:
        """Publish ``display_state`` as the running display (this process) would."""
        self.bus.publish(keys.DISPLAY_STATE, {"service": "running", "pid": os.getpid(),
                                              "on_demand": {"state": "idle"}, **state})

    def stop_display(self) -> None:
        if self.display_lock is not None:
            self.display_lock.release()
            self.display_lock = None

    def config(self) -> dict[str, Any]:
        return json.loads(self.paths.config_file.read_text())

    def secrets(self) -> dict[str, Any]:
        path = self.paths.secrets_file
        return json.loads(path.read_text()) if path.exists() else {}


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebEnv]:
    paths = Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache",
                  plugins_dir_override=tmp_path / "plugin-repos")
    write_plugin(paths.plugins_dir(), "clock", modes=["clock", "clock_big"])
    write_plugin(paths.plugins_dir(), "ticker", schema=None)
    app = create_app(WebSettings(paths=paths, ack_timeout=0.5))
    app.extensions["ledpanel"].store.ensure()
    env = WebEnv(paths, app, app.test_client(), Bus(paths.cache_dir))
    yield env
    env.stop_display()
