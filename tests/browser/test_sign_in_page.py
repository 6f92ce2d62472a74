"""Signing in through the page in a real browser, against the real web daemon."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web_service.sign_in_helpers import PASSWORD, running_web, switch_on

pytestmark = pytest.mark.timeout(120)


def test_a_browser_signs_in_through_the_page_and_out_again(tmp_path: Path, page: Any,
                                                           shoot: Any) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        page.goto(f"{url}/")
        assert page.url == f"{url}/sign-in?next=/"
        page.fill("#password", "not the password")
        page.click("button[type=submit]")
        page.wait_for_function(
            "document.getElementById('message').textContent === 'wrong password'")
        shoot(page, "wrong-password")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{url}/")
        page.wait_for_selector("#display dt")  # the Overview read the API
        shoot(page, "signed-in")
        cookies = {c["name"]: c for c in page.context.cookies()}
        assert cookies["ledpanel_session"]["httpOnly"]
        assert cookies["ledpanel_session"]["sameSite"] == "Lax"
        assert page.evaluate("document.cookie") == ""  # scripts cannot read it
        status = page.evaluate(
            "fetch('/api/v3/system/status').then((r) => r.status)")
        assert status == 200
        page.goto(f"{url}/sign-in")
        assert page.is_visible("#sign-out")
        page.click("#sign-out")
        page.wait_for_url(f"{url}/sign-in")
        page.wait_for_selector("#sign-in-form")
        assert page.evaluate("fetch('/api/v3/system/status').then((r) => r.status)") == 401
        shoot(page, "signed-out")


def test_a_tab_opened_after_the_session_ended_goes_to_the_sign_in_page(
        tmp_path: Path, page: Any) -> None:
    with running_web(tmp_path) as (_, url):
        switch_on(url)
        page.goto(f"{url}/")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{url}/")
        page.wait_for_selector("#display dt")
        # The session ends elsewhere (another tab signed out): the cookie is gone.
        page.context.clear_cookies()
        page.wait_for_function("document.getElementById('header-state').textContent"
                               ".startsWith('signed out')", timeout=10_000)
        page.click('.tab-bar [data-tab="plugin-manager"]')
        page.wait_for_url(f"{url}/sign-in?next=*")
        page.wait_for_selector("#sign-in-form")
        assert page.locator("#tab-plugin-manager").count() == 0  # not drawn inside a tab
        # Signing in again returns to the tab that was asked for.
        assert page.get_attribute("#sign-in-form", "data-next") == "/#plugin-manager"
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_selector('#tab-plugin-manager [data-partial="plugin-manager"]')
