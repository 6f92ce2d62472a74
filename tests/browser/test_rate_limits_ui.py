"""The web UI is never limited by the rate limits: every tab, opened and opened again,
with the Overview's polling running, against daemons whose every group allows one
request a minute and whose loopback exemption is off (the browser is on loopback)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.config.rate_limits import DEFAULT_PER_MINUTE
from tests.browser.test_web_ui_shell import DESKTOP, TABS, Watch, open_tab
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state

pytestmark = pytest.mark.timeout(240)

STATUS_POLLS = 3  # the Overview's status poll seen this many times after the tabs


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.3")
    instance = make_instance(tmp_path)
    config = json.loads((instance.config_dir / "config.json").read_text())
    config["web"]["rate_limits"].update(
        exempt_loopback=False, per_minute=dict.fromkeys(DEFAULT_PER_MINUTE, 1))
    instance.write_config(config)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield url


def test_no_tab_and_no_poll_of_the_web_ui_is_limited(browser: Any, served: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    limited: list[str] = []
    page.on("response", lambda r: r.status == 429 and limited.append(r.url))
    page.goto(served)
    for _round in range(2):
        for key in TABS:
            open_tab(page, key)
            page.wait_for_load_state("networkidle")
    open_tab(page, "overview")
    seen = len([url for url in watch.requests if url.endswith("/api/v3/system/status")])
    page.wait_for_function(  # the status poll runs on: wait for the next few, not a time
        """([seen, more]) => performance.getEntriesByType("resource").filter(
             e => e.name.endsWith("/api/v3/system/status")).length >= seen + more""",
        arg=[seen, STATUS_POLLS], timeout=30_000)
    assert limited == []
    assert watch.problems == []
    context.close()
