"""A small scoreboard whose live, recent and upcoming screens a skin may draw."""

from PIL import ImageDraw

from src.plugin_system.base_plugin import BasePlugin
from src.skin_system import SkinRunner, build_context

BUILT_IN = (200, 0, 0)  # the built-in look: a red bar on top


class SkinScoreboard(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.skins = SkinRunner.from_config(plugin_id, config, self.logger)
        self.game = {"home_abbr": config.get("home", "HOM"), "away_abbr": config.get("away", "AWY"),
                     "home_score": 3, "away_score": 1, "status_text": "Q4"}

    def update(self):
        pass

    def on_config_change(self, new_config):
        super().on_config_change(new_config)
        self.skins = SkinRunner.from_config(self.plugin_id, new_config, self.logger)

    def display(self, force_clear=False, display_mode=None):
        mode = (display_mode or "skin_scoreboard_live").rsplit("_", 1)[-1]
        ctx = build_context(self, self.game)
        if self.skins.render(mode, ctx, self.game):
            self.display_manager.image.paste(ctx.canvas, (0, 0))
        else:
            self.display_manager.clear()
            draw = ImageDraw.Draw(self.display_manager.image)
            draw.rectangle((0, 0, self.display_manager.width - 1, 3), fill=BUILT_IN)
            draw.text((1, 6), f"{mode[:3]} {self.game['away_score']}-{self.game['home_score']}",
                      fill=(255, 255, 255))
        self.display_manager.update_display()
        return True
