import os
import time
from datetime import datetime

from PIL import ImageDraw

from src.adaptive_layout import LayoutContext, Region, scoreboard_regions
from src.background_data_service import get_background_service
from src.cache_manager import CacheManager
from src.common import APIHelper, LogoHelper, TextHelper
from src.logo_downloader import LogoDownloader, download_missing_logo
from src.plugin_system.base_plugin import BasePlugin

from scoreboard_data import parse_games


class ScoreboardPlugin(BasePlugin):
    def __init__(self, plugin_id, config, display_manager, cache_manager: CacheManager,
                 plugin_manager):
        super().__init__(plugin_id, config, display_manager, cache_manager, plugin_manager)
        self.base_url = config.get("base_url", "http://127.0.0.1:1")
        self.league = config.get("league", "nfl")
        self.display_duration = 12
        width = self.display_manager.matrix.width
        height = self.display_manager.matrix.height
        self.logo_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logos")
        self.logos = LogoHelper(width, height, logger=self.logger)
        self.text = TextHelper(logger=self.logger)
        self.fonts = self.text.load_fonts()
        self.api = APIHelper(cache_manager=cache_manager, default_timeout=5, logger=self.logger)
        self.background = get_background_service(cache_manager)
        self.layout = LayoutContext(width, height)
        self.games = []
        self.standings = None
        self.request_id = None

    def _on_fetched(self, result):
        if result.success:
            self.games = parse_games(result.data)

    def update(self):
        year = datetime.now().year
        cache_key = f"scoreboard_{self.league}_{year}"
        self.request_id = self.background.submit_fetch_request(
            sport=self.league, year=year, url=f"{self.base_url}/scoreboard",
            cache_key=cache_key, timeout=5, max_retries=1, callback=self._on_fetched)
        deadline = time.time() + 5
        while not self.background.is_request_complete(self.request_id):
            if time.time() > deadline:
                break
            time.sleep(0.05)
        cached = self.cache_manager.get(cache_key, max_age=3600)
        if cached and not self.games:
            self.games = parse_games(cached)
        self.standings = self.api.get(f"{self.base_url}/standings", cache_key="standings",
                                      cache_ttl=600)
        for game in self.games:
            for team in (game["home"], game["away"]):
                name = LogoDownloader.normalize_abbreviation(team["abbr"])
                path = os.path.join(self.logo_dir, f"{name}.png")
                download_missing_logo(self.league, team["id"], team["abbr"], path,
                                      f"{self.base_url}/logos/{name}.png")

    def display(self, force_clear=False):
        if not self.games:
            return False
        game = self.games[0]
        width, height = self.display_manager.width, self.display_manager.height
        regions = scoreboard_regions(Region(0, 0, width, height), ctx=self.layout)
        self.display_manager.clear()
        image = self.display_manager.image
        for team, region in ((game["away"], regions.away_slot), (game["home"], regions.home_slot)):
            name = LogoDownloader.normalize_abbreviation(team["abbr"])
            logo = self.logos.load_logo(team["abbr"], os.path.join(self.logo_dir, f"{name}.png"),
                                        max_width=region.w, max_height=height)
            if logo is not None:
                image.paste(logo, (region.x, (height - logo.height) // 2), logo)
        draw = ImageDraw.Draw(image)
        score = f"{game['away']['score']}-{game['home']['score']}"
        font = self.fonts["score"]
        x = (width - self.text.get_text_width(score, font)) // 2
        self.text.draw_text_with_outline(draw, score, (x, height // 2 - 4), font,
                                         fill=(255, 255, 255))
        if self.standings:
            self.text.draw_text_with_outline(draw, self.standings.get("leader", ""), (x, 1),
                                             self.fonts["detail"], fill=(255, 200, 0))
        self.display_manager.update_display()
