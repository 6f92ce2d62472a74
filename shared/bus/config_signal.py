"""``config_changed``: how a process that saved config.json tells the display at once.

The web and the MQTT bridge both save through the config store and then publish this
record; the display watches config.json too, so a signal that cannot be written only
delays the reload until the file event.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from shared.bus import core as keys
from shared.bus.core import Bus


def announce_config_change(bus: Bus, sections: Iterable[str]) -> dict[str, Any]:
    """Publish ``{seq, sections, saved_at}`` under ``config_changed``; return it."""
    change = {"seq": time.time_ns(), "sections": sorted(sections), "saved_at": time.time()}
    bus.publish(keys.CONFIG_CHANGED, change)
    return change
