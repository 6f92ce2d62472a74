"""The display stops the plugins' background fetch service when it stops."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from shared.plugin_api.background import data as background_data
from shared.plugin_api.cache.manager import CacheManager
from tests.display_service.helpers import (
    ColorPlugin,
    FakeHost,
    make_display,
    running_loop,
    wait_until,
)
from tests.shared.loopback_http import fixed, serving


class FetchingPlugin(ColorPlugin):
    """Hands one scoreboard fetch to the background service, as sports boards do."""

    url = ""
    cache: CacheManager | None = None

    def update(self) -> None:
        super().update()
        service = background_data.get_background_service(self.cache)
        self.request_id = service.submit_fetch_request("nfl", 2026, self.url,
                                                       cache_key="scores")


def workers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("background-data-")]


def test_stopping_the_display_stops_the_background_service(tmp_path: Path) -> None:
    background_data.shutdown_background_service()
    body = json.dumps({"events": []}).encode()
    with serving({"/scores": fixed(200, "application/json", body)}) as srv:
        display = make_display()
        plugin = FetchingPlugin("scores", {"enabled": True}, display)
        plugin.url, plugin.cache = srv.url("/scores"), CacheManager(tmp_path / "cache")
        host: Any = FakeHost({"scores": plugin})
        with running_loop(tmp_path, display, host, {"scores": {"enabled": True}}):
            wait_until(lambda: srv.hits["/scores"] >= 1, timeout=10)
            assert workers()
        assert background_data._service is None
        wait_until(lambda: not workers(), timeout=5)
