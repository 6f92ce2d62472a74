"""A custom app pushed over HTTP shows in the web UI like a plugin mode, in a real browser
against real daemons: the Overview names it while the panel shows it, and the plugin's
tab offers it for on-demand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests

from tests.browser.test_overview_tab import wait_rows
from tests.browser.test_web_ui_shell import Watch
from tests.daemons import running
from tests.system.test_custom_apps_daemons import make_instance

pytestmark = pytest.mark.timeout(180)


def test_a_pushed_app_is_named_on_the_overview_and_offered_in_its_plugins_tab(
        tmp_path: Path, page: Any, shoot: Any) -> None:
    instance = make_instance(tmp_path)
    with running(instance) as (_display, _web, url):
        response = requests.post(f"{url}/api/v3/custom/doorbell",
                                 json={"text": "Ding dong", "icon": "bell", "duration": 30},
                                 timeout=20)
        assert response.status_code == 200, response.text
        watch = Watch(page)
        page.goto(url)
        wait_rows(page, lambda r: r.get("Panel") == "showing Custom Apps / custom-doorbell",
                  timeout=30)
        shoot(page, "overview-custom-app")
        page.goto(f"{url}/#plugin-custom-apps")
        tab = page.locator('#tab-plugin-custom-apps [data-partial="plugin"]')
        tab.wait_for()
        options = tab.locator("select option").all_text_contents()
        assert "custom-doorbell" in options, options
        shoot(page, "custom-apps-tab")
        assert watch.problems == []
