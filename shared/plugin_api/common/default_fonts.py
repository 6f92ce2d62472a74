"""The font manager the helpers use when a plugin hands them none.

Community plugins build ``TextHelper()`` and ``LayoutContext(w, h, font_manager)`` with
whatever they have; when that is nothing, one process-wide ``FontManager`` over the
shipped fonts serves them all, created on first use (scanning the font folder once).
"""

from __future__ import annotations

import threading

from shared.fonts import FontManager

_LOCK = threading.Lock()
_manager: FontManager | None = None


def default_font_manager() -> FontManager:
    """Return the process-wide FontManager over ``assets/fonts``."""
    global _manager
    with _LOCK:
        if _manager is None:
            _manager = FontManager()
        return _manager
