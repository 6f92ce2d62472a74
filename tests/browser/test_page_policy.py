"""The web UI under its own Content-Security-Policy, in a real browser: every tab works
with no violation, and another origin cannot frame it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import DESKTOP, TABS, Watch, open_tab
from tests.daemons import running
from tests.system.test_no_lost_changes import make_instance, running_state

pytestmark = pytest.mark.timeout(240)

# Runs in each page before its own scripts (Playwright injects it; the policy does not
# apply to it): every violation the browser reports is kept for the test to read.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ` +
                           `${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("LEDPANEL_STREAM_HEARTBEAT", "0.3")
    instance = make_instance(tmp_path)
    with running(instance) as (display, _web, url):
        running_state(instance, display)
        yield url


def test_every_tab_works_under_the_policy_with_no_violation(browser: Any, served: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    watch = Watch(page)  # console errors, script errors, failed requests
    policy_words: list[str] = []
    page.on("console", lambda m: "Content Security Policy" in m.text
            and policy_words.append(m.text))
    try:
        answer = page.goto(served)
        assert answer is not None and "frame-ancestors 'self'" in (
            answer.headers["content-security-policy"])
        page.wait_for_selector("#display dt")
        for key in TABS:
            panel = open_tab(page, key)
            assert panel.locator("[data-partial-error]").count() == 0, key
        assert page.evaluate("window.__violations") == []
        assert page.locator("#header-state").inner_text() != "loading…"  # Alpine at work
        assert policy_words == []
        assert watch.problems == []
        # The other page the UI has: sign-in (its own script, no Alpine). Leaving the UI
        # aborts whatever poll it had in flight: the page's problems were read above.
        page.goto(f"{served}/sign-in")
        page.wait_for_load_state("load")
        assert page.evaluate("window.__violations") == []
        assert policy_words == []
        assert [p for p in watch.problems if "net::ERR_ABORTED" not in p] == []
    finally:
        context.close()


def test_another_origin_cannot_frame_the_ui(browser: Any, served: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        # about:blank with an iframe: an origin that is not the panel's. The browser
        # refuses to draw the UI in it and says why in the console.
        with page.expect_console_message(lambda m: "frame-ancestors" in m.text,
                                         timeout=15_000) as refusal:
            page.set_content(f'<iframe id="ui" src="{served}/" width="800" height="600">'
                             "</iframe>")
        assert "has been blocked" in refusal.value.text
        assert page.frame_locator("#ui").locator(".tab-bar").count() == 0
    finally:
        context.close()
