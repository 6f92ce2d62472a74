"""The WiFi tab in a real browser against the real web daemon, nmcli faked on PATH."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import Watch, open_tab
from tests.daemons import Instance, start_web
from tests.web_service.wifi.wifi_helpers import HOME, HOME_PASSWORD, FakeNmcli, use_fake_nmcli

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def served(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, FakeNmcli,
                                                                              Instance]]:
    fake = use_fake_nmcli(tmp_path, monkeypatch)
    monkeypatch.setenv("LEDPANEL_SUPERVISOR", "dev")
    instance = Instance(tmp_path / "instance")
    daemon, url = start_web(instance)
    try:
        yield url, fake, instance
    finally:
        daemon.stop()


def test_scan_connect_forget_and_the_access_point(page: Any, served: Any, shoot: Any) -> None:
    url, fake, instance = served
    watch = Watch(page)
    page.goto(url)
    tab = open_tab(page, "wifi")
    now = tab.locator("[data-wifi-now]")
    now.locator("[data-wifi-ssid]", has_text="not connected").wait_for()
    assert tab.locator("[data-wifi-auto]").is_checked()

    tab.locator("[data-wifi-scan]").click()
    rows = tab.locator("[data-wifi-network]")
    rows.nth(2).wait_for()
    assert rows.first.locator("td").first.inner_text() == HOME
    rows.first.locator("[data-wifi-pick]").click()
    assert tab.locator("[data-wifi-connect-ssid]").input_value() == HOME
    tab.locator("[data-wifi-connect-password]").fill(HOME_PASSWORD)
    tab.locator("[data-wifi-connect] button").click()
    tab.locator("[data-wifi-status]", has_text=f"connected to {HOME}").wait_for()
    now.locator("[data-wifi-ssid]", has_text=HOME).wait_for()
    assert now.locator("[data-wifi-signal]").inner_text() == "72%"
    assert tab.locator("[data-wifi-connect-password]").input_value() == ""
    assert HOME_PASSWORD not in page.content()
    assert fake.state()["active"] == HOME
    shoot(page, "connected")

    page.once("dialog", lambda dialog: dialog.accept())
    tab.locator("[data-wifi-forget]").click()
    now.locator("[data-wifi-ssid]", has_text="not connected").wait_for()
    assert fake.state()["saved"] == []

    tab.locator("[data-wifi-ap-toggle]", has_text="Open the access point").click()
    now.locator("[data-wifi-ap]", has_text="open (ledpanel-setup)").wait_for()
    assert tab.locator("[data-wifi-ap-note]").is_visible()
    assert fake.state()["active"] == "ledpanel-setup"
    tab.locator("[data-wifi-ap-toggle]", has_text="Close the access point").click()
    now.locator("[data-wifi-ap]", has_text="closed").wait_for()
    assert not tab.locator("[data-wifi-ap-note]").is_visible()

    tab.locator("[data-wifi-auto]").uncheck()
    tab.locator("[data-wifi-status]", has_text="saved").wait_for()
    saved = json.loads((instance.config_dir / "wifi_config.json").read_text())
    assert saved == {"auto_enable_ap_mode": False}
    assert not tab.locator("[data-wifi-auto]").is_checked()
    assert watch.problems == []


def test_a_wrong_password_is_said_plainly(page: Any, served: Any) -> None:
    url, fake, _instance = served
    watch = Watch(page)
    watch.expected_status.add(("/api/v3/wifi/connect", 502))
    page.goto(url)
    tab = open_tab(page, "wifi")
    tab.locator("[data-wifi-connect-ssid]").fill(HOME)
    tab.locator("[data-wifi-connect-password]").fill("wrong password!")
    tab.locator("[data-wifi-connect] button").click()
    status = tab.locator("[data-wifi-status].error")
    status.wait_for()
    assert "Secrets were required" in status.inner_text()
    assert "wrong password!" not in page.content()
    assert fake.state()["active"] is None
    assert [p for p in watch.problems if "502" not in p] == []


def test_without_networkmanager_the_tab_says_so_and_asks_nothing(
        page: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    daemon, url = start_web(Instance(tmp_path))
    try:
        watch = Watch(page)
        page.goto(url)
        tab = open_tab(page, "wifi")
        missing = tab.locator("[data-wifi-missing]")
        missing.wait_for()
        assert "needs NetworkManager" in missing.inner_text()
        assert tab.locator("[data-wifi-scan]").count() == 0
        assert not [r for r in watch.requests if "/api/v3/wifi/" in r]
        assert watch.problems == []
    finally:
        daemon.stop()
