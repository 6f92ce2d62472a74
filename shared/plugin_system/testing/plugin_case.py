"""``PluginTestCase``: the existing system's unittest base class for a plugin's tests.

``setUp`` gives ``display_manager`` (a ``MockDisplayManager`` of 128x32),
``cache_manager``, ``config_manager``, ``plugin_manager`` (the mocks), ``plugin_config``
(``{"enabled": True, "display_duration": 15.0}``) and ``plugin_id`` (``test-plugin``);
``tearDown`` resets the mocks. ``create_plugin_instance(cls, plugin_id=None,
config=None)`` builds a plugin on them; the ``assert_*`` helpers check what it did.
"""

from __future__ import annotations

import unittest
from typing import Any

from shared.plugin_system.testing.mocks import (
    MockCacheManager,
    MockConfigManager,
    MockDisplayManager,
    MockPluginManager,
)


class PluginTestCase(unittest.TestCase):
    """A unittest case with mock managers and helpers for one plugin."""

    display_manager: Any
    plugin_config: dict[str, Any]

    def setUp(self) -> None:
        """Make fresh mocks, the default config and id."""
        self.display_manager = MockDisplayManager(width=128, height=32)
        self.cache_manager = MockCacheManager()
        self.config_manager = MockConfigManager()
        self.plugin_manager = MockPluginManager()
        self.plugin_config = {"enabled": True, "display_duration": 15.0}
        self.plugin_id = "test-plugin"

    def tearDown(self) -> None:
        """Reset the mocks."""
        for mock in (self.display_manager, self.cache_manager, self.config_manager,
                     self.plugin_manager):
            reset = getattr(mock, "reset", None)
            if reset is not None:
                reset()

    def create_plugin_instance(self, plugin_class: type, plugin_id: str | None = None,
                               config: dict[str, Any] | None = None) -> Any:
        """Return ``plugin_class`` built on the mocks (this case's id and config by default)."""
        return plugin_class(plugin_id=plugin_id or self.plugin_id,
                            config=config or dict(self.plugin_config),
                            display_manager=self.display_manager,
                            cache_manager=self.cache_manager,
                            plugin_manager=self.plugin_manager)

    def assert_plugin_initialized(self, plugin: Any) -> None:
        """Assert the plugin holds this case's id, config and managers."""
        self.assertIsNotNone(plugin)
        self.assertEqual(plugin.plugin_id, self.plugin_id)
        self.assertEqual(plugin.config, self.plugin_config)
        self.assertIs(plugin.display_manager, self.display_manager)
        self.assertIs(plugin.cache_manager, self.cache_manager)
        self.assertIs(plugin.plugin_manager, self.plugin_manager)

    def assert_display_cleared(self) -> None:
        """Assert ``clear()`` was called."""
        self.assertTrue(self.display_manager.clear_called, "display was not cleared")

    def assert_display_updated(self) -> None:
        """Assert ``update_display()`` was called."""
        self.assertTrue(self.display_manager.update_called, "display was not updated")

    def assert_text_drawn(self, text: str | None = None) -> None:
        """Assert some text (``text``, when given) was drawn."""
        texts = [c["text"] for c in self.display_manager.draw_calls if c["type"] == "text"]
        self.assertGreater(len(texts), 0, "No text was drawn")
        if text is not None:
            self.assertIn(text, texts, f"Text {text!r} not found in drawn texts: {texts}")

    def assert_image_drawn(self) -> None:
        """Assert an image was drawn."""
        images = [c for c in self.display_manager.draw_calls if c["type"] == "image"]
        self.assertGreater(len(images), 0, "No image was drawn")

    def assert_cache_get(self, key: str | None = None) -> None:
        """Assert ``cache_manager.get`` was called (for ``key``, when given)."""
        keys = [c["key"] for c in self.cache_manager.get_calls]
        self.assertGreater(len(keys), 0, "cache.get was not called")
        if key is not None:
            self.assertIn(key, keys, f"Key {key!r} not found in cache.get calls: {keys}")

    def assert_cache_set(self, key: str | None = None) -> None:
        """Assert ``cache_manager.set`` was called (for ``key``, when given)."""
        keys = [c["key"] for c in self.cache_manager.set_calls]
        self.assertGreater(len(keys), 0, "cache.set was not called")
        if key is not None:
            self.assertIn(key, keys, f"Key {key!r} not found in cache.set calls: {keys}")

    def get_mock_config(self, **overrides: Any) -> dict[str, Any]:
        """Return this case's config with ``overrides`` laid over it."""
        return {**self.plugin_config, **overrides}
