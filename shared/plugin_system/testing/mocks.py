"""Recording stand-ins for the managers a plugin is given, for plugin unit tests.

The existing system's names and behaviour: ``MockDisplayManager(width=128, height=32)``
records ``clear``/``update_display`` (``clear_called``, ``update_called``) and
``draw_text``/``draw_image`` calls (``draw_calls``, dicts with ``type`` ``text`` or
``image``) without drawing; ``MockCacheManager`` is an in-memory cache honouring
``max_age`` that records ``get_calls``, ``set_calls`` and ``delete_calls``;
``MockConfigManager(config)`` serves and records ``load_config``/``save_config``;
``MockPluginManager`` serves ``plugins`` and ``plugin_manifests``. Each has ``reset()``.
"""

from __future__ import annotations

import time
from typing import Any

from PIL import Image


class MockDisplayManager:
    """A display manager that records what a plugin asked it to draw."""

    def __init__(self, width: int = 128, height: int = 32) -> None:
        self.width = self.display_width = width
        self.height = self.display_height = height
        self.image = Image.new("RGB", (width, height))
        self.clear_called = False
        self.update_called = False
        self.draw_calls: list[dict[str, Any]] = []

    def clear(self) -> None:
        """Record the call and start a black canvas."""
        self.clear_called = True
        self.image = Image.new("RGB", (self.width, self.height))

    def update_display(self) -> None:
        """Record the call."""
        self.update_called = True

    def draw_text(self, text: str, x: int, y: int, color: tuple[int, int, int] = (255, 255, 255),
                  font: Any = None) -> None:
        """Record a text draw."""
        self.draw_calls.append({"type": "text", "text": text, "x": x, "y": y, "color": color,
                                "font": font})

    def draw_image(self, image: Image.Image, x: int, y: int) -> None:
        """Record an image draw."""
        self.draw_calls.append({"type": "image", "image": image, "x": x, "y": y})

    def reset(self) -> None:
        """Forget the calls and blank the canvas."""
        self.clear_called = self.update_called = False
        self.draw_calls = []
        self.image = Image.new("RGB", (self.width, self.height))


class MockCacheManager:
    """An in-memory cache that records its calls."""

    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}
        self._stored_at: dict[str, float] = {}
        self.get_calls: list[dict[str, Any]] = []
        self.set_calls: list[dict[str, Any]] = []
        self.delete_calls: list[str] = []

    def get(self, key: str, max_age: float | None = None) -> Any:
        """Return the value of ``key``, or None when absent or older than ``max_age`` s."""
        self.get_calls.append({"key": key, "max_age": max_age})
        if key not in self._cache:
            return None
        if max_age is not None and time.time() - self._stored_at.get(key, 0.0) > max_age:
            return None
        return self._cache[key]

    def set(self, key: str, value: Any, ttl: float | None = None) -> None:
        """Store ``value`` under ``key`` now."""
        self.set_calls.append({"key": key, "value": value, "ttl": ttl})
        self._cache[key] = value
        self._stored_at[key] = time.time()

    def delete(self, key: str) -> None:
        """Drop ``key`` if present."""
        self.delete_calls.append(key)
        self._cache.pop(key, None)
        self._stored_at.pop(key, None)

    def reset(self) -> None:
        """Empty the cache and forget the calls."""
        self._cache.clear()
        self._stored_at.clear()
        self.get_calls, self.set_calls, self.delete_calls = [], [], []


class MockConfigManager:
    """A config manager over a dict, recording loads and saves."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        self._config: dict[str, Any] = config or {}
        self.load_config_calls: list[dict[str, Any]] = []
        self.save_config_calls: list[dict[str, Any]] = []

    def load_config(self) -> dict[str, Any]:
        """Return a copy of the config."""
        self.load_config_calls.append({})
        return dict(self._config)

    def save_config(self, config: dict[str, Any]) -> None:
        """Replace the config with a copy of ``config``."""
        self.save_config_calls.append(config)
        self._config = dict(config)

    def get_config(self, key: str, default: Any = None) -> Any:
        """Return one top-level value."""
        return self._config.get(key, default)

    def set_config(self, key: str, value: Any) -> None:
        """Set one top-level value."""
        self._config[key] = value

    def reset(self) -> None:
        """Empty the config and forget the calls."""
        self._config = {}
        self.load_config_calls, self.save_config_calls = [], []


class MockPluginManager:
    """A plugin manager over ``plugins`` and ``plugin_manifests`` dicts."""

    def __init__(self) -> None:
        self.plugins: dict[str, Any] = {}
        self.plugin_manifests: dict[str, dict[str, Any]] = {}
        self.get_plugin_calls: list[str] = []
        self.get_all_plugins_calls: list[dict[str, Any]] = []

    def get_plugin(self, plugin_id: str) -> Any:
        """Return the instance of ``plugin_id``, or None."""
        self.get_plugin_calls.append(plugin_id)
        return self.plugins.get(plugin_id)

    def get_all_plugins(self) -> dict[str, Any]:
        """Return a copy of the instances by id."""
        self.get_all_plugins_calls.append({})
        return dict(self.plugins)

    def get_plugin_info(self, plugin_id: str) -> dict[str, Any]:
        """Return the manifest with ``loaded`` and, when loaded, ``runtime_info``."""
        info = dict(self.plugin_manifests.get(plugin_id, {}))
        plugin = self.plugins.get(plugin_id)
        info["loaded"] = plugin is not None
        if plugin is not None:
            info["runtime_info"] = getattr(plugin, "get_info", dict)()
        return info

    def reset(self) -> None:
        """Forget the plugins and the calls."""
        self.plugins.clear()
        self.plugin_manifests.clear()
        self.get_plugin_calls, self.get_all_plugins_calls = [], []
