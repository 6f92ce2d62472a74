"""The rotation order on the Durations & Rotation tab, in a real browser against real daemons.

Up and Down move a plugin's row (the first row's Up and the last row's Down are
disabled, again after every move); a save stores the shown order, a reload shows it again,
and the stored ids of plugins that are not installed are kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.test_web_ui_shell import DESKTOP, PHONE, Watch, open_tab
from tests.daemons import running
from tests.display_service.test_rotation_order import three_plugins
from tests.system.test_no_lost_changes import running_state, stored

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def instance(tmp_path: Any) -> Any:
    made = three_plugins(tmp_path)
    config = stored(made)
    config["rotation_order"] = ["uninstalled"]
    made.write_config(config)
    return made


@pytest.fixture
def url(instance: Any) -> Iterator[str]:
    with running(instance) as (display, _web, address):
        running_state(instance, display)
        yield address


def rows(panel: Any) -> list[str]:
    return panel.locator("[data-rotation-rows] > [data-plugin]").evaluate_all(
        "els => els.map((el) => el.dataset.plugin)")


def edges_disabled(panel: Any) -> list[str]:
    """Return the labels of the disabled move buttons, in page order."""
    return panel.locator("[data-rotation-rows] button[data-move]:disabled").evaluate_all(
        "els => els.map((el) => el.getAttribute('aria-label'))")


@pytest.mark.parametrize("name,viewport", [("desktop", DESKTOP), ("phone", PHONE)],
                         ids=["desktop", "phone"])
def test_moving_a_plugin_up_saves_the_order_and_a_reload_shows_it(
        browser: Any, url: str, instance: Any, shoot: Any, name: str,
        viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    watch = Watch(page)
    page.goto(url)
    panel = open_tab(page, "durations", phone=name == "phone")
    assert rows(panel) == ["alpha", "beta", "gamma"]
    assert edges_disabled(panel) == ["Move Alpha up", "Move Gamma down"]

    up = panel.get_by_role("button", name="Move Gamma up")
    up.click()
    assert rows(panel) == ["alpha", "gamma", "beta"]
    assert edges_disabled(panel) == ["Move Alpha up", "Move Beta down"]
    up.click()
    assert edges_disabled(panel) == ["Move Gamma up", "Move Beta down"]
    assert up.is_disabled()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Move Gamma down"
    panel.get_by_role("button", name="Move Alpha down").click()
    assert rows(panel) == ["gamma", "beta", "alpha"]
    assert panel.get_by_role("button", name="Move Alpha down").is_disabled()
    assert edges_disabled(panel) == ["Move Gamma up", "Move Alpha down"]
    panel.get_by_role("button", name="Move Beta down").click()
    assert rows(panel) == ["gamma", "alpha", "beta"]
    assert "Beta is now number 3 of 3" in panel.locator("[data-order-note]").text_content()
    assert up.is_visible() and up.bounding_box()["width"] < viewport["width"]
    shoot(page, f"{name}-moved")

    panel.locator('form[data-settings-form] button[type="submit"]').click()
    status = panel.locator(".sf-status")
    status.filter(has_text="aved").wait_for(timeout=10_000)
    assert status.text_content() == "Saved."
    assert stored(instance)["rotation_order"] == ["gamma", "alpha", "beta", "uninstalled"]

    # Saved again without a move: nothing changed, nothing sent.
    panel.locator('form[data-settings-form] button[type="submit"]').click()
    status.filter(has_text="Nothing changed").wait_for(timeout=10_000)

    page.reload()
    panel = open_tab(page, "durations", phone=name == "phone")
    assert rows(panel) == ["gamma", "alpha", "beta"]
    page.wait_for_timeout(300)
    shoot(page, f"{name}-reloaded")
    assert watch.problems == []
    context.close()
