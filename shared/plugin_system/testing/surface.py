"""The device's own drawing surface, reached by name at run time.

The harness renders a plugin on the very ``DisplayManager`` the display daemon gives
plugins (over its headless backend) and calls ``display()`` the way the render loop
does (``call_display``). Those live in ``display_service``; ``shared`` has no
import-time dependency on a daemon (the layer contract), so they are imported by name
when a render starts, as ``compat`` serves ``src.display_manager``. The harness is a
developer tool: nothing on the web's side calls it.
"""

from __future__ import annotations

import importlib
from typing import Any

DISPLAY_MANAGER_MODULE = "display_service.plugins.display_manager"
HEADLESS_MODULE = "display_service.matrix.headless"
HOST_MODULE = "display_service.plugins.host"


def headless_display_manager(width: int, height: int) -> Any:
    """Return the device's DisplayManager over an in-memory panel of ``width`` x ``height``."""
    manager = importlib.import_module(DISPLAY_MANAGER_MODULE)
    headless = importlib.import_module(HEADLESS_MODULE)
    return manager.DisplayManager(headless.HeadlessMatrix(width, height))


def call_display(plugin: Any, mode: str, force_clear: bool) -> Any:
    """Call ``plugin.display`` as the render loop does (``display_mode`` when it takes one)."""
    return importlib.import_module(HOST_MODULE).call_display(plugin, mode, force_clear)
