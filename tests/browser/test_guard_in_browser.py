"""The request guard in a real browser: our status page works with it on, and a page on
another site cannot make the browser change the panel."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_overview_tab import wait_rows
from tests.daemons import start_display, start_web
from tests.display_service.helpers import wait_until as wait_for
from tests.system.test_no_lost_changes import make_instance, running_state, state

pytestmark = pytest.mark.timeout(120)


@contextmanager
def hostile_site(html: str) -> Iterator[str]:
    """Serve ``html`` at ``/`` from another origin (another loopback port); yield its URL."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_the_web_ui_works_with_the_guard_on(tmp_path: Path, page: Any, shoot: Any) -> None:
    instance = make_instance(tmp_path)
    display = start_display(instance)
    web, url = start_web(instance)
    refused: list[str] = []
    page.on("response", lambda r: refused.append(r.url) if r.status == 403 else None)
    try:
        running_state(instance, display)
        page.goto(url)
        wait_rows(page, lambda r: r.get("Display service", "").startswith("running"))
        page.select_option("#on-demand-plugin", "still")
        page.click("#start-on-demand")  # Run On-Demand: a JSON POST from our own page
        page.wait_for_function("document.getElementById('message').textContent !== ''")
        assert "refused" not in page.text_content("#message")
        wait_for(lambda: state(instance).get("on_demand", {}).get("state") == "active")
        page.click("#stop-on-demand")
        wait_for(lambda: state(instance).get("on_demand", {}).get("state") != "active")
        shoot(page, "overview-with-guard")
        assert refused == []
    finally:
        web.stop()
        display.stop()


def test_a_page_on_another_site_cannot_change_the_config(tmp_path: Path, page: Any) -> None:
    instance = make_instance(tmp_path)
    config_file = instance.config_dir / "config.json"
    web, url = start_web(instance)
    before = config_file.read_bytes()
    replacement = json.dumps({**json.loads(before), "brightness": 3})
    # The attack from the issue: a text/plain form whose one field spells the JSON file,
    # plus a no-cors fetch and a plain form to the other save routes.
    name, _, value = replacement.partition(":")
    html = f"""<!doctype html><body>
    <form id="raw" method="post" enctype="text/plain" action="{url}/api/v3/config/raw/main">
      <input type="hidden" name='{name}' value='{value}'></form>
    <script>
      fetch("{url}/api/v3/config/main", {{method: "POST", mode: "no-cors",
            headers: {{"Content-Type": "text/plain"}}, body: '{{"brightness": 4}}'}})
        .finally(() => document.getElementById("raw").submit());
    </script></body>"""
    try:
        with hostile_site(html) as site:
            with page.expect_navigation(url=f"{url}/api/v3/config/raw/main"):
                page.goto(site)
            answer = json.loads(page.inner_text("body"))
        assert answer["error_code"] == "CROSS_SITE_REFUSED", answer
        assert config_file.read_bytes() == before
        wait_for(lambda: web.output().count("cross-site (origin") >= 2)
    finally:
        web.stop()
