import time

from src.plugin_system.base_plugin import BasePlugin

QUOTES = ["Stay curious", "Ship it", "Less is more"]


class CachedQuotesPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.cache_key = "cached_quotes_today"
        self.quote = None

    def update(self):
        cached = self.cache_manager.get_cached_data_with_strategy(self.cache_key, "default")
        if cached is None:
            cached = self.cache_manager.get(self.cache_key, max_age=3600)
        if cached is None:
            cached = {"quote": QUOTES[int(time.time()) % len(QUOTES)], "at": time.time()}
            self.cache_manager.set(self.cache_key, cached)
        self.quote = cached["quote"]
        metrics = self.cache_manager.get_cache_metrics()
        self.logger.debug("cache hit rate %s", metrics.get("cache_hit_rate"))

    def display(self, force_clear=False):
        if self.quote is None:
            self.update()
        self.display_manager.clear()
        self.display_manager.draw_text(self.quote, y=12, small_font=True, centered=True,
                                       color=(255, 255, 0))
        self.display_manager.update_display()
