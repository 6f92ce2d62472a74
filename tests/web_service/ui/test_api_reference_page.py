"""The API reference page through the Flask app: it loads only the panel's own files, the
viewer those files name is vendored with its licence, and the description it points at
is the one the API serves."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web_service.conftest import WebEnv

VENDOR = Path(__file__).resolve().parents[3] / "web_service" / "static" / "vendor"


def test_the_page_loads_the_vendored_viewer_and_the_served_description(web: WebEnv) -> None:
    page = web.client.get("/api-reference")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    loaded = re.findall(r'(?:src|href)="([^"]+)"', text)
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in loaded
    assert "/static/api_reference.js" in loaded
    for url in loaded:
        assert url.startswith("/"), url  # nothing from another host
        answer = web.client.get(url)
        assert answer.status_code == 200, url
        answer.close()
    described = re.search(r'data-description="([^"]+)"', text)
    assert described is not None
    description = web.client.get(described.group(1)).get_json()
    assert description["openapi"].startswith("3.1")
    assert "<script>" not in text  # the policy allows no inline script


def test_the_base_page_links_the_reference(web: WebEnv) -> None:
    text = web.client.get("/").get_data(as_text=True)
    assert 'href="/api-reference"' in text


def test_the_viewer_is_vendored_with_its_licence_and_provenance() -> None:
    assert "Apache License" in (VENDOR / "swagger-ui" / "LICENSE").read_text()
    assert "swagger-ui-dist@" in (VENDOR / "README.md").read_text()
