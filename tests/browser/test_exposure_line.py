"""The Overview's "open to your network" line in a real browser: shown while sign-in is
off and the web listens on every interface, dismissed for good in this browser, and its
link leads to the Sign-in card, where the owner switches sign-in on with a password and
then makes a token with a scope."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests
from waitress import create_server

from shared.paths import resolve_paths
from tests.daemons import Instance, wait_http
from tests.web_service.sign_in_helpers import PASSWORD, TIMEOUT, stored
from web_service.app import create_app
from web_service.settings import WebSettings

pytestmark = pytest.mark.timeout(180)


@contextmanager
def web_told_it_listens_everywhere(tmp_path: Path) -> Iterator[tuple[Instance, str]]:
    """The real web app, told it listens on every interface (as the unit starts it), served
    on a loopback port: nothing here listens beyond loopback, and the line depends only on
    where the app believes it listens."""
    instance = Instance(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    paths = resolve_paths(config_dir=instance.config_dir, cache_dir=instance.cache_dir,
                          plugins_dir=instance.plugins_dir)
    app = create_app(WebSettings(paths=paths, host="0.0.0.0", port=port))
    server = create_server(app, host="127.0.0.1", port=port, threads=4)
    thread = threading.Thread(target=server.run, name="web", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{url}/api/v3/health", 15)
        yield instance, url
    finally:
        server.close()
        thread.join(10)


def test_the_line_shows_dismisses_and_leads_to_sign_in(tmp_path: Path, page: Any,
                                                       shoot: Any) -> None:
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(str(err)))
    with web_told_it_listens_everywhere(tmp_path) as (instance, url):
        page.goto(f"{url}/")
        line = page.locator("#exposure-warning")
        line.wait_for(state="visible", timeout=15_000)
        assert "run as root" in line.inner_text()
        shoot(page, "open-to-the-network")
        line.locator("[data-exposure-dismiss]").click()
        line.wait_for(state="hidden")
        page.reload()
        page.wait_for_selector("#display dt")
        assert not page.locator("#exposure-warning").is_visible()  # remembered
        # Dismissed for another listening address only: the line is back.
        page.evaluate("localStorage.setItem('ledpanel.exposureDismissed', '10.0.0.9:5000')")
        page.reload()
        line.wait_for(state="visible", timeout=15_000)

        line.locator("[data-sign-in-link]").click()
        card = page.locator("#sign-in-settings")
        card.wait_for(state="visible", timeout=15_000)
        page.wait_for_function("(() => { const r = document.getElementById("
                               "'sign-in-settings').getBoundingClientRect();"
                               " return r.top >= 0 && r.top < window.innerHeight; })()")
        assert page.url.endswith("#general")
        shoot(page, "sign-in-card")
        # The first password, chosen in the owner's browser, switches sign-in on.
        card.locator("[data-si-switch-on] input[name=password]").fill(PASSWORD)
        card.locator("[data-si-switch-on] input[name=again]").fill(PASSWORD)
        card.locator("[data-si-switch-on] button[type=submit]").click()
        page.wait_for_url(f"{url}/sign-in?next=**", timeout=15_000)
        assert stored(instance)["password"]["scheme"] == "scrypt"
        assert requests.get(f"{url}/api/v3/config/main", timeout=TIMEOUT).status_code == 401

        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(lambda address: "/sign-in" not in address)
        page.goto(f"{url}/#general")
        card.wait_for(state="visible", timeout=15_000)
        assert not page.locator("#exposure-warning").count()  # sign-in is in force now
        mint = card.locator("[data-si-mint]")
        mint.locator("input[name=name]").fill("home-assistant")
        mint.locator("select[name=scope]").select_option("control")
        mint.locator("button[type=submit]").click()
        token = card.locator("[data-si-token-value]")
        token.wait_for(state="visible", timeout=10_000)
        card.locator("[data-si-tokens] li[data-token='home-assistant']").wait_for()
        assert "control" in card.locator("[data-si-tokens]").inner_text()
        shoot(page, "token-made")
        bearer = {"Authorization": f"Bearer {token.inner_text()}"}
        assert requests.get(f"{url}/api/v3/config/main", headers=bearer,
                            timeout=TIMEOUT).status_code == 200
        assert requests.post(f"{url}/api/v3/config/main", json={"brightness": 5},
                             headers=bearer, timeout=TIMEOUT).status_code == 403
    assert problems == []
