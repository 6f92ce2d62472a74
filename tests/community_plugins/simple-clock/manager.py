"""
Simple clock plugin: shows the time and the date.
"""
import logging
from datetime import datetime

import pytz

from src.plugin_system.base_plugin import BasePlugin

logger = logging.getLogger(__name__)


class SimpleClockPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        tz_name = config.get("timezone") or plugin_manager.config_manager.get_timezone()
        try:
            self.timezone = pytz.timezone(tz_name)
        except pytz.UnknownTimeZoneError:
            self.timezone = pytz.utc
        self.time_format = config.get("time_format", "%H:%M")
        self.display_duration = config.get("display_duration", 15)
        self.current_time = None

    def update(self):
        self.current_time = datetime.now(self.timezone)

    def display(self, force_clear=False):
        if self.current_time is None:
            self.update()
        self.display_manager.clear()
        self.display_manager.draw_text(self.current_time.strftime(self.time_format),
                                       y=4, color=(255, 255, 255), centered=True)
        self.display_manager.draw_text(self.current_time.strftime("%a %d %b"),
                                       y=20, color=(0, 160, 255), small_font=True,
                                       centered=True)
        self.display_manager.update_display()
