from datetime import datetime, timedelta

from src.plugin_system.base_plugin import BasePlugin


class CountdownPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.label = config.get("label", "LAUNCH")
        target = config.get("target")
        self.target = datetime.fromisoformat(target) if target else datetime.now() + timedelta(
            days=3, hours=4)
        fonts = self._get_font_manager()
        self.font = fonts.get_font("press_start", 8) if hasattr(fonts, "get_font") else None
        self.font = self.font or display_manager.regular_font

    def update(self):
        pass

    def display(self, force_clear=False):
        left = max(self.target - datetime.now(), timedelta(0))
        text = f"{left.days}d {left.seconds // 3600}h {left.seconds % 3600 // 60}m"
        dm = self.display_manager
        dm.clear()
        x = max(0, (dm.width - dm.get_text_width(text, self.font)) // 2)
        dm.draw_text(self.label, y=2, color=(255, 128, 0), small_font=True, centered=True)
        dm.draw_text(text, x=x, y=16, color=(255, 255, 255), font=self.font)
        dm.update_display()
