"""Errors raised while reading, validating or loading plugins."""

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
