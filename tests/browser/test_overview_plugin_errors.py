"""The Overview tab lists the plugins that fail, and drops them when the display stops."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.daemons import running
from tests.web_service.api.test_plugin_errors_api import ERROR, FAILING, make_instance

pytestmark = pytest.mark.timeout(120)


def listed(page: Any) -> list[dict[str, str]]:
    """Return the rows of the page's plugin error list, as shown."""
    return page.evaluate("""() => [...document.querySelectorAll("#plugin-error-list li")]
        .map((li) => ({
            id: li.querySelector("strong").textContent,
            count: li.querySelector(".count").textContent,
            last: li.querySelector(".last-error").textContent,
        }))""")


def test_the_overview_lists_a_failing_plugin_with_its_count_and_last_error(
        tmp_path: Path, page: Any, shoot: Any) -> None:
    instance = make_instance(tmp_path, ("failing", FAILING))
    with running(instance) as (display, _web, url):
        page.goto(url)
        page.wait_for_selector("#plugin-errors:not([hidden])", timeout=30_000)
        rows = listed(page)
        assert [row["id"] for row in rows] == ["failing"]
        assert rows[0]["count"].endswith(("failure", "failures"))
        assert int(rows[0]["count"].split()[0]) >= 1
        assert rows[0]["last"] == f"display(): {ERROR}"
        assert page.is_visible("text=Plugin errors")
        shoot(page, "plugin-errors")
        display.stop()
        # A stopped display's errors are not current: the list goes away.
        page.wait_for_selector("#plugin-errors", state="hidden", timeout=15_000)
        assert listed(page) == []
        shoot(page, "display-stopped")
