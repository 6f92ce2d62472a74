"""One error hierarchy for the whole product.

Each error carries an ``error_code`` and an HTTP ``status`` so the web daemon's single
error handler can render it as the JSON envelope; the display daemon logs them.
"""

from __future__ import annotations

from typing import Any


class LedpanelError(Exception):
    """Base of every error the product raises on purpose."""

    error_code = "INTERNAL_ERROR"
    status = 500

    def __init__(
        self,
        message: str,
        *,
        error_code: str | None = None,
        status: int | None = None,
        details: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if error_code is not None:
            self.error_code = error_code
        if status is not None:
            self.status = status
        self.details = details


class ValidationError(LedpanelError):
    """Input that breaks a rule: bad JSON, wrong type, out-of-range value."""

    error_code = "VALIDATION_ERROR"
    status = 400


class NotFoundError(LedpanelError):
    """A named thing (plugin, partial, key) does not exist."""

    error_code = "NOT_FOUND"
    status = 404


class ConfigError(LedpanelError):
    """The config files cannot be read or written."""

    error_code = "CONFIG_ERROR"
    status = 500


class ConfigFileInvalid(ConfigError):
    """A config file on disk does not parse or is not a JSON object.

    Not a failure of the server: the file must be fixed (the raw config editor, a hand
    edit or a backup), so it answers 409 naming the file, line and column.
    """

    error_code = "CONFIG_INVALID_JSON"
    status = 409


class AtomicWriteError(LedpanelError):
    """A file could not be replaced atomically; the old content is untouched."""

    error_code = "WRITE_FAILED"
    status = 500


class CacheDirError(LedpanelError):
    """The bus directory is missing and cannot be created, or is not writable."""

    error_code = "CACHE_DIR_UNWRITABLE"
    status = 500


# Errors raised while reading, validating or loading plugins. A ``PluginError`` as such
# is the server's problem (500). A problem with a file the plugin ships (its manifest,
# its config schema) is the plugin's fault, not the server's: those subclasses carry a
# 4xx status, so a request that runs into a broken plugin is answered with the plugin
# and the file named, never with a 500.


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
