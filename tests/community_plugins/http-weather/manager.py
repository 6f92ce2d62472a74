import requests

from src.plugin_system.base_plugin import BasePlugin


class HttpWeatherPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager, plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.api_url = config.get("api_url", "http://127.0.0.1:1/weather")
        self.weather = None

    def update(self):
        response = requests.get(self.api_url, timeout=5)
        response.raise_for_status()
        self.weather = response.json()
        self.cache_manager.set("http_weather_last", self.weather)

    def display(self, force_clear=False):
        if self.weather is None:
            return False
        self.display_manager.clear()
        self.display_manager.draw_text(f"{self.weather['temp']}C", y=4, centered=True,
                                       color=(255, 160, 0))
        self.display_manager.draw_text(self.weather["summary"], y=20, small_font=True,
                                       centered=True)
        self.display_manager.update_display()
        return True
