"""A pytest plugin ``ledpanel plugin test`` loads: a plugin's own tests can import the
harness as ``src.plugin_system.testing`` (and the other ``src.*`` names)."""

from __future__ import annotations

from shared.plugin_api import compat

compat.install()
