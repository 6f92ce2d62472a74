"""OPTIONS on an API route answers the JSON envelope, like every other API answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.daemons import Daemon, Instance, start_web


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    daemon: Daemon
    daemon, url = start_web(Instance(Path(tmp_path_factory.mktemp("options"))))
    try:
        yield url
    finally:
        daemon.stop()


@pytest.mark.parametrize(("path", "methods"), [
    ("/api/v3/health", ["GET", "HEAD", "OPTIONS"]),
    ("/api/v3/plugins/config", ["GET", "HEAD", "OPTIONS", "POST"]),
    ("/api/v3/fonts/some-family", ["DELETE", "OPTIONS"]),
    ("/api/v3", ["GET", "HEAD", "OPTIONS"]),
])
def test_options_lists_the_methods_in_the_envelope_and_in_allow(web, path, methods):
    answer = requests.options(web + path, timeout=10)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("application/json")
    assert answer.json() == {"status": "success", "data": {"methods": methods},
                             "message": f"{path} takes {', '.join(methods)}",
                             "error_code": None}
    assert sorted(each.strip() for each in answer.headers["Allow"].split(",")) == methods


def test_options_on_no_route_is_the_404_envelope(web):
    answer = requests.options(f"{web}/api/v3/no-such-route", timeout=10)
    assert answer.status_code == 404
    assert answer.json()["error_code"] == "NOT_FOUND"
