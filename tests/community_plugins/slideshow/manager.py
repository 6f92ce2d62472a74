import os
import time

from PIL import Image

from src.plugin_system.base_plugin import BasePlugin


class SlideshowPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.image_dir = os.path.join(os.path.dirname(__file__), "images")
        self.interval = config.get("slide_seconds", 2)
        self.images = []
        self.index = 0
        self.last_switch = 0

    def update(self):
        width = self.display_manager.matrix.width
        height = self.display_manager.matrix.height
        loaded = []
        for name in sorted(os.listdir(self.image_dir)):
            if name.lower().endswith((".png", ".jpg", ".gif")):
                with Image.open(os.path.join(self.image_dir, name)) as img:
                    loaded.append(img.convert("RGB").resize((width, height)))
        self.images = loaded

    def display(self, force_clear=False):
        if not self.images:
            self.update()
        if not self.images:
            return False
        if time.time() - self.last_switch > self.interval:
            self.index = (self.index + 1) % len(self.images)
            self.last_switch = time.time()
        self.display_manager.image.paste(self.images[self.index], (0, 0))
        self.display_manager.update_display()
        return True
