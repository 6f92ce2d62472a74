from src.plugin_system.base_plugin import BasePlugin

COLORS = {"mm_scores": (255, 0, 0), "mm_standings": (0, 255, 0), "mm_news": (0, 0, 255)}


class MultiModePlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.modes = ["mm_scores", "mm_standings", "mm_news"]
        self.shown = []

    def update(self):
        pass

    def display(self, display_mode=None, force_clear=False):
        mode = display_mode or self.modes[0]
        self.shown.append(mode)
        dm = self.display_manager
        dm.clear()
        dm.draw.rectangle((0, 0, dm.width - 1, dm.height - 1), outline=COLORS[mode])
        dm.draw_text(mode.split("_", 1)[1].upper(), y=12, small_font=True, centered=True)
        dm.update_display()
