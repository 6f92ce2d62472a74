from PIL import Image, ImageDraw

from src.common.scroll_helper import ScrollHelper
from src.plugin_system.base_plugin import BasePlugin


class TextScrollerPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.text = config.get("text", "Hello from the community")
        self.color = tuple(config.get("color", [0, 255, 0]))
        self.scroll_helper = ScrollHelper(display_manager.width, display_manager.height,
                                          self.logger)
        self.scroll_helper.set_scroll_speed(config.get("scroll_speed", 40))
        self.scroll_helper.set_scroll_delay(config.get("scroll_delay", 0.02))
        self.needs_high_fps = True

    def update(self):
        pass

    def _build(self):
        dm = self.display_manager
        width = dm.get_text_width(self.text, dm.regular_font)
        image = Image.new("RGB", (width + dm.width * 2, dm.height))
        draw = ImageDraw.Draw(image)
        y = (dm.height - dm.get_font_height(dm.regular_font)) // 2
        draw.text((dm.width, y), self.text, font=dm.regular_font, fill=self.color)
        self.scroll_helper.set_scrolling_image(image)

    def display(self, force_clear=False):
        if self.scroll_helper.cached_image is None or force_clear:
            self._build()
            self.scroll_helper.reset_scroll()
        self.display_manager.set_scrolling_state(True)
        self.scroll_helper.update_scroll_position()
        visible = self.scroll_helper.get_visible_portion()
        if visible is not None:
            self.display_manager.image.paste(visible, (0, 0))
            self.display_manager.update_display()
        if self.scroll_helper.is_scroll_complete():
            self.display_manager.set_scrolling_state(False)
            self.scroll_helper.reset_scroll()
