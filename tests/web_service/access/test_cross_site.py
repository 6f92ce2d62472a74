"""Cross-site refusal against the real web daemon: a page on another site changes nothing;
curl, scripts and the panel's own pages work as before."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.daemons import ROOT, Daemon, Instance, start_web

RAW = "/api/v3/config/raw/main"
MAIN = "/api/v3/config/main"
EVIL = "http://evil.example"


@dataclass
class Served:
    """A running web daemon over its own config directory."""

    instance: Instance
    daemon: Daemon
    url: str

    @property
    def config_file(self) -> Path:
        return self.instance.config_dir / "config.json"

    def config(self) -> dict:
        return json.loads(self.config_file.read_text())

    def post(self, path: str, **kwargs) -> requests.Response:
        return requests.post(f"{self.url}{path}", timeout=10, **kwargs)

    def get(self, path: str, **kwargs) -> requests.Response:
        return requests.get(f"{self.url}{path}", timeout=10, **kwargs)

    def page_token(self) -> str:
        found = re.search(r'<meta name="ledpanel-token" content="([^"]+)">', self.get("/").text)
        assert found, "the status page carries no token"
        return found.group(1)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    instance = Instance(tmp_path)
    instance.write_config(json.loads((ROOT / "config" / "config.template.json").read_text()))
    daemon, url = start_web(instance)
    try:
        yield Served(instance, daemon, url)
    finally:
        daemon.stop()


def refused(answer: requests.Response, reason: str) -> None:
    assert answer.status_code == 403, answer.text
    body = answer.json()
    assert body["status"] == "error" and body["error_code"] == "CROSS_SITE_REFUSED", body
    assert body["details"]["reason"] == reason
    assert body["message"].startswith("refused: ")


def test_cross_site_form_and_text_posts_to_the_raw_editor_change_nothing(served: Served) -> None:
    before = served.config_file.read_bytes()
    replacement = json.dumps({**served.config(), "brightness": 7})
    # What a hostile page's <form enctype="text/plain"> and <form> make a browser send.
    text = served.post(RAW, data=replacement, headers={
        "Origin": EVIL, "Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"})
    refused(text, "origin")
    form = served.post(RAW, data={replacement: ""}, headers={"Origin": EVIL})
    refused(form, "origin")
    # Browsers that send Sec-Fetch-Site but no Origin.
    refused(served.post(RAW, data=replacement, headers={
        "Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"}), "fetch_site")
    refused(served.post(RAW, data=replacement, headers={
        "Content-Type": "text/plain", "Sec-Fetch-Site": "same-site"}), "fetch_site")
    # Sandboxed frames and file: pages send "Origin: null".
    refused(served.post(MAIN, data={"brightness": "7"}, headers={"Origin": "null"}), "origin")
    # A page on another port of the same machine is another site too.
    other_port = served.url.rsplit(":", 1)[0] + ":1"
    refused(served.post(MAIN, json={"brightness": 7}, headers={"Origin": other_port}), "origin")
    assert served.config_file.read_bytes() == before
    assert "refused POST /api/v3/config/raw/main: cross-site" in served.daemon.output()


def test_clients_without_browser_headers_work_as_before(served: Served) -> None:
    replacement = json.dumps({**served.config(), "brightness": 7})
    answer = served.post(RAW, data=replacement, headers={"Content-Type": "text/plain"})
    assert answer.status_code == 200, answer.text
    assert served.config()["brightness"] == 7
    answer = served.post(MAIN, data={"brightness": "42"})  # a form, as curl -d sends it
    assert answer.status_code == 200, answer.text
    assert served.config()["brightness"] == 42
    answer = served.post(MAIN, json={"brightness": 43})
    assert answer.status_code == 200, answer.text
    assert served.config()["brightness"] == 43


def test_our_own_pages_token_lets_a_browser_send_forms_and_text(served: Served) -> None:
    token = served.page_token()
    own = {"Origin": served.url, "Sec-Fetch-Site": "same-origin"}
    # Without the token a same-origin form is refused (no form of ours lacks it).
    refused(served.post(MAIN, data={"brightness": "30"}, headers=own), "token")
    refused(served.post(RAW, data="{}", headers={**own, "Content-Type": "text/plain"}), "token")
    refused(served.post(MAIN, data={"brightness": "30", "csrf_token": "x" * 43},
                        headers=own), "token")
    assert served.config()["brightness"] != 30
    answer = served.post(MAIN, data={"brightness": "30", "csrf_token": token}, headers=own)
    assert answer.status_code == 200, answer.text
    assert served.config()["brightness"] == 30
    answer = served.post(MAIN, files={"brightness": (None, "31"), "csrf_token": (None, token)},
                         headers=own)  # multipart
    assert answer.status_code == 200, answer.text
    assert served.config()["brightness"] == 31
    replacement = json.dumps({**served.config(), "brightness": 32})
    answer = served.post(RAW, data=replacement, headers={
        **own, "Content-Type": "text/plain", "X-Ledpanel-Token": token})
    assert answer.status_code == 200, answer.text
    assert served.config()["brightness"] == 32
    # The token never becomes a setting.
    assert token not in served.config_file.read_text()


def test_a_browser_on_our_own_page_sends_json_without_a_token(served: Served) -> None:
    answer = served.post(MAIN, json={"brightness": 55}, headers={
        "Origin": served.url, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"})
    assert answer.status_code == 200, answer.text
    assert served.config()["brightness"] == 55
    answer = served.post("/api/v3/display/on-demand/stop", headers={"Origin": served.url})
    assert answer.status_code != 403, answer.text  # no body: nothing to forge


def test_reading_is_never_refused_as_cross_site(served: Served) -> None:
    headers = {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"}
    assert served.get(MAIN, headers=headers).status_code == 200
    assert requests.head(f"{served.url}/", headers=headers, timeout=5).status_code == 200
    answer = requests.options(f"{served.url}{MAIN}", headers=headers, timeout=5)
    assert answer.status_code == 200
    assert "Access-Control-Allow-Origin" not in answer.headers
