"""The Overview's system buttons in a real browser, under the real development supervisor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.daemons import Instance
from tests.dev_run import dev_run, plain_config, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.daemons, pytest.mark.timeout(180)]

# Records every state the action line and the buttons go through, so a state that
# lasts only while the request runs is seen however short it is.
RECORD = """() => {
  window.__seen = [];
  const line = document.getElementById("system-action-state");
  const note = () => window.__seen.push({
    running: line.dataset.running, text: line.textContent,
    disabled: [...document.querySelectorAll("#system-actions button")].every((b) => b.disabled),
    busy: [...document.querySelectorAll("#system-actions button[aria-busy=true]")]
      .map((b) => b.dataset.action)});
  new MutationObserver(note).observe(document.getElementById("system-control"),
    { attributes: true, subtree: true, childList: true, characterData: true });
}"""


def open_overview(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#system-actions button[data-action='stop_display']")
    page.wait_for_function("() => document.getElementById('header-state')?.textContent"
                           ".startsWith('showing') || document.getElementById('header-state')"
                           "?.textContent.startsWith('panel')")


def state(page: Any) -> str:
    return page.text_content("#system-action-state") or ""


def test_stop_and_start_show_their_state_and_the_panel_follows(
        tmp_path: Path, page: Any, shoot: Any) -> None:
    instance = Instance(tmp_path)
    plain_config(instance)
    with dev_run(instance) as run:
        open_overview(page, run.url)
        page.evaluate(RECORD)
        page.click("#system-actions button[data-action='stop_display']")
        page.wait_for_function("() => document.getElementById('system-action-state')"
                               ".textContent === 'display stopped'")
        running = [s for s in page.evaluate("window.__seen") if s["running"] == "stop_display"]
        assert running, "no state shown while the action ran"
        assert running[0]["text"] == "Stopping the display…"
        assert running[0]["disabled"] and running[0]["busy"] == ["stop_display"]
        page.wait_for_function("() => document.getElementById('header-state').textContent"
                               " === 'display service not running'")
        shoot(page, "stopped")
        page.click("#system-actions button[data-action='start_display']")
        page.wait_for_function("() => document.getElementById('system-action-state')"
                               ".textContent === 'display started'")
        page.wait_for_function("() => document.getElementById('header-state').textContent"
                               " !== 'display service not running'", timeout=30000)
        assert not page.is_disabled("#system-actions button[data-action='stop_display']")


def test_reboot_asks_first_and_a_dev_run_refuses_it(tmp_path: Path, page: Any,
                                                    shoot: Any) -> None:
    instance = Instance(tmp_path)
    plain_config(instance)
    with dev_run(instance) as run:
        open_overview(page, run.url)
        page.click("#system-actions button[data-action='reboot_system']")
        assert page.is_visible("#system-confirm")
        assert page.text_content("#system-confirm h3") == "Reboot the Raspberry Pi?"
        shoot(page, "confirm")
        page.click("#system-confirm-no")
        assert not page.is_visible("#system-confirm")
        assert state(page) == ""  # nothing was sent

        page.click("#system-actions button[data-action='shutdown_system']")
        assert page.text_content("#system-confirm-yes") == "Shut down"
        page.click("#system-confirm-yes")
        page.wait_for_function("() => document.getElementById('system-action-state')"
                               ".classList.contains('error')")
        assert "not available on a development run" in state(page)


def test_restart_web_reconnects_and_says_how_long_it_took(tmp_path: Path, page: Any,
                                                         shoot: Any) -> None:
    instance = Instance(tmp_path)
    plain_config(instance)
    with dev_run(instance) as run:
        before = wait_for(run.status, "the status")["web"]["pid"]
        open_overview(page, run.url)
        page.evaluate(RECORD)
        page.click("#system-actions button[data-action='restart_web_service']")
        page.wait_for_function("() => /^The web service is back in \\d+ s\\.$/.test("
                               "document.getElementById('system-action-state').textContent)",
                               timeout=60000)
        texts = [s["text"] for s in page.evaluate("window.__seen")]
        assert any(t.endswith("Waiting for the web service…") for t in texts), texts
        after = wait_for(run.status, "the status")["web"]["pid"]
        assert after != before
        assert "ledpanel: web restarted on request" in run.lines
        shoot(page, "back")
