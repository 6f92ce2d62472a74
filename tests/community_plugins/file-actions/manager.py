import os

from src.plugin_system.base_plugin import BasePlugin


class FileActionsPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.path = os.path.join(os.path.dirname(__file__), "message.txt")
        self.message = "no message"

    def update(self):
        if os.path.exists(self.path):
            with open(self.path) as handle:
                self.message = handle.read().strip() or "no message"

    def display(self, force_clear=False):
        self.update()
        self.display_manager.clear()
        self.display_manager.draw_text(self.message, y=12, small_font=True, centered=True,
                                       color=(255, 0, 255))
        self.display_manager.update_display()
