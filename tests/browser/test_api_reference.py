"""The API reference page in a real browser: reached from the header, drawn by the vendored
viewer from the served description, under the UI's own Content-Security-Policy, asking
nothing of any host but the panel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_page_policy import RECORD_VIOLATIONS
from tests.browser.test_web_ui_shell import DESKTOP, Watch
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield url


def test_the_header_link_opens_the_reference_drawn_from_the_served_description(
        browser: Any, served: str, shoot: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    watch = Watch(page)
    try:
        page.goto(served)
        page.wait_for_selector("#display dt")
        page.get_by_role("link", name="API", exact=True).click()
        page.wait_for_url(f"{served}/api-reference")
        title = page.wait_for_selector(".swagger-ui .info .title")
        assert "ledpanel" in title.inner_text()
        health = page.locator(".opblock-summary-path", has_text="/health").first
        health.wait_for()
        health.click()  # an operation opens with its answers
        page.locator(".opblock-body .responses-wrapper").first.wait_for()
        assert page.evaluate("window.__violations") == []
        shoot(page, "reference")
        assert watch.problems == []
        assert all(url.startswith(served) for url in watch.requests), watch.requests
        assert f"{served}/api/v3/openapi.json" in watch.requests
        assert page.locator(".try-out__btn").count() == 0  # a reference, not a client
    finally:
        context.close()
