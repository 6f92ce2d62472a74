"""A real browser for the web UI: Debian's Chromium driven by Playwright.

``scripts/test`` installs Chromium (``apt-get install chromium``) when it is missing; the
Playwright package's own browser download is never used. Screenshots of each test go to
``$LEDPANEL_SCREENSHOTS`` when it is set (to look at them), else to the test's temp dir.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]


@pytest.fixture(autouse=True)
def store_on_loopback(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Point the daemons' plugin store at a loopback host with an empty registry: the
    Plugin Store tab reads the registry when it opens, and no test reaches the internet.
    A store test sets its own host over this one."""
    from tests.web_service.store.repo_host import RepoHost

    with RepoHost() as host:
        host.serve("plugins.json", {"version": "1.0.0", "plugins": []})
        monkeypatch.setenv("LEDPANEL_REGISTRY_URL", f"{host.url}/plugins.json")
        monkeypatch.setenv("LEDPANEL_REPOSITORY_API_URL", host.api_url)
        yield


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), "Chromium is missing: run scripts/test (it installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def shoot(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Return ``shoot(page, name)``: save a full-page screenshot, return its path."""
    target = Path(os.environ.get("LEDPANEL_SCREENSHOTS") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = target / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
