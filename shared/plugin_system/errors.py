"""Errors raised while reading, validating or loading plugins.

A ``PluginError`` as such is the server's problem (500). A problem with a file the
plugin ships (its manifest, its config schema) is the plugin's fault, not the
server's: those subclasses carry a 4xx status, so a request that runs into a broken
plugin is answered with the plugin and the file named, never with a 500.
"""

from __future__ import annotations

from shared.errors import LedpanelError


class PluginError(LedpanelError):
    """A plugin cannot be found, read, imported or instantiated."""

    error_code = "PLUGIN_ERROR"
    status = 500


class ManifestError(PluginError):
    """A plugin's manifest.json is unreadable or breaks the manifest rules."""

    error_code = "INVALID_MANIFEST"
    status = 400


class PluginSchemaError(PluginError):
    """A plugin's config_schema.json cannot be read, is not a JSON object or is not a
    valid JSON Schema. ``details``: ``plugin_id`` and, where known, ``file``."""

    error_code = "INVALID_PLUGIN_SCHEMA"
    status = 422
