"""Fixtures for plugin-system tests: real plugin folders in a temp dir, a fake panel."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image, ImageDraw

from shared.paths import Paths

DEFAULT_CODE = """
from shared.plugin_api.base_plugin import BasePlugin


class {class_name}(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        return True
"""


def write_plugin(
    directory: Path,
    plugin_id: str,
    *,
    class_name: str = "DemoPlugin",
    code: str | None = None,
    manifest_overrides: dict[str, Any] | None = None,
    schema: dict[str, Any] | None = None,
    files: dict[str, str] | None = None,
    dir_name: str | None = None,
    manifest_text: str | None = None,
) -> Path:
    """Write a plugin folder; a ``None`` value in ``manifest_overrides`` removes that key."""
    plugin_dir = Path(directory) / (dir_name or plugin_id)
    plugin_dir.mkdir(parents=True)
    manifest: dict[str, Any] = {
        "id": plugin_id,
        "name": f"{plugin_id} plugin",
        "version": "1.0.0",
        "author": "tests",
        "entry_point": "manager.py",
        "class_name": class_name,
        "compatible_versions": [">=3.0.0"],
        "display_modes": [plugin_id],
    }
    for key, value in (manifest_overrides or {}).items():
        if value is None:
            manifest.pop(key, None)
        else:
            manifest[key] = value
    text = manifest_text if manifest_text is not None else json.dumps(manifest, indent=2)
    (plugin_dir / "manifest.json").write_text(text, encoding="utf-8")
    source = code if code is not None else DEFAULT_CODE.format(class_name=class_name)
    (plugin_dir / "manager.py").write_text(textwrap.dedent(source), encoding="utf-8")
    for name, content in (files or {}).items():
        target = plugin_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(content), encoding="utf-8")
    if schema is not None:
        (plugin_dir / "config_schema.json").write_text(json.dumps(schema), encoding="utf-8")
    return plugin_dir


class FakeDisplayManager:
    """A drawing surface with the display manager's real attributes, no hardware."""

    def __init__(self, width: int = 64, height: int = 32) -> None:
        self.width = width
        self.height = height
        # As on every real backend: plugins read matrix.width without a None check.
        self.matrix = SimpleNamespace(width=width, height=height, brightness=100)
        self.image = Image.new("RGB", (width, height))
        self.draw = ImageDraw.Draw(self.image)
        self.updates = 0

    def clear(self) -> None:
        self.image = Image.new("RGB", (self.width, self.height))
        self.draw = ImageDraw.Draw(self.image)

    def update_display(self) -> None:
        self.updates += 1


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    """Paths of an isolated instance; ``plugins/`` and ``plugin-repos/`` under tmp_path."""
    (tmp_path / "plugin-repos").mkdir()
    (tmp_path / "plugins").mkdir()
    return Paths(root=tmp_path, config_dir=tmp_path / "config", cache_dir=tmp_path / "cache")


@pytest.fixture
def plugins_dir(paths: Paths) -> Path:
    """The configured plugins directory (``plugin-repos``)."""
    return paths.plugins_dir()


@pytest.fixture
def make_plugin() -> Callable[..., Path]:
    """Return ``write_plugin(directory, plugin_id, ...)`` for writing plugin folders."""
    return write_plugin


@pytest.fixture
def display_manager() -> FakeDisplayManager:
    """A 64x32 fake panel running without hardware."""
    return FakeDisplayManager()
