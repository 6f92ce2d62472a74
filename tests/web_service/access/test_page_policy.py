"""Every answer says the UI may not be framed by another site, and what pages may load:
pages, partials, API answers, static files, errors and refusals (real daemon, real HTTP)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.daemons import Daemon, Instance, start_web


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    daemon: Daemon
    daemon, url = start_web(Instance(Path(tmp_path_factory.mktemp("policy"))))
    try:
        yield url
    finally:
        daemon.stop()


def _policy(csp: str) -> dict[str, list[str]]:
    directives = (part.split() for part in csp.split(";") if part.strip())
    return {words[0]: words[1:] for words in directives}


@pytest.mark.parametrize(("path", "headers", "status"), [
    ("/", {}, 200),
    ("/v3/partials/overview", {}, 200),
    ("/static/app.js", {}, 200),
    ("/api/v3/health", {}, 200),
    ("/api/v3/no-such-route", {}, 404),
    ("/no-such-page", {}, 404),
    ("/", {"Host": "evil.example"}, 403),  # the guard's refusal page
    ("/api/v3/health", {"Host": "evil.example"}, 403),
])
def test_every_answer_refuses_framing_by_another_site(web, path, headers, status):
    answer = requests.get(web + path, headers=headers, timeout=10)
    assert answer.status_code == status
    assert answer.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    policy = _policy(answer.headers["Content-Security-Policy"])
    assert policy["frame-ancestors"] == ["'self'"]
    # Scripts only from the panel itself: no inline script can run.
    assert "'unsafe-inline'" not in policy["script-src"]
    assert policy["object-src"] == ["'none'"]


TEMPLATES = Path(__file__).resolve().parents[3] / "web_service" / "templates"
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


def test_no_template_holds_a_script_the_policy_would_refuse():
    templates = sorted(TEMPLATES.rglob("*.html"))
    assert len(templates) > 10
    for template in templates:
        text = template.read_text(encoding="utf-8")
        assert not INLINE_SCRIPT.search(text), f"inline <script> in {template.name}"
        assert not EVENT_HANDLER.search(text), f"inline event handler in {template.name}"
        assert "javascript:" not in text.lower(), f"javascript: URL in {template.name}"
