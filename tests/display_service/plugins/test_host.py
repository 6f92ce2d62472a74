"""The guarded plugin calls in ``host.py``."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from display_service.plugins.host import call_display


def test_call_display_passes_the_mode_only_to_plugins_that_take_it() -> None:
    class WithMode:
        def display(self, force_clear: bool = False, display_mode: str = "") -> str:
            return display_mode

    class WithoutMode:
        def display(self, force_clear: bool = False) -> bool:
            return force_clear

    assert call_display(WithMode(), "m", False) == "m"
    assert call_display(WithoutMode(), "m", True) is True


def test_call_display_keeps_no_reloaded_plugin_class_alive() -> None:
    def make_class() -> type:
        # What a reload does: a fresh class (from a fresh module) every time.
        def display(self: Any, force_clear: bool = False) -> bool:
            return True

        return type("Reloaded", (), {"display": display})

    cls = make_class()
    assert call_display(cls(), "m", False) is True
    gone = weakref.ref(cls)
    del cls
    gc.collect()
    assert gone() is None
