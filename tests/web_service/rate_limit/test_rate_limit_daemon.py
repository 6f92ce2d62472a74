"""Rate limits on the real web daemon over loopback HTTP (docs/API.md, "Rate limits").

The loopback exemption is switched off in the config these tests start with (every
client here is 127.0.0.1); the window is shortened through the environment so that the
reset is seen within seconds. Each test uses its own route group: the counts of one
client outlive a test in the one daemon the module shares.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import requests

from tests.daemons import ROOT, Daemon, Instance, start_web

pytestmark = pytest.mark.timeout(180)

WINDOW = 4  # seconds (LEDPANEL_RATE_LIMIT_WINDOW)
API = "/api/v3"
JSON = {"Content-Type": "application/json"}


def _config(limits: dict[str, Any]) -> dict[str, Any]:
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["web"]["rate_limits"].update(limits)
    return config


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Daemon, str]]:
    instance = Instance(Path(tmp_path_factory.mktemp("ratelimit")))
    instance.write_config(_config({
        "exempt_loopback": False,
        "per_minute": {"store": 2, "uploads": 2, "backup": 3, "renders": 1,
                       "apps_repository": 2, "checks": 3}}))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LEDPANEL_RATE_LIMIT_WINDOW", str(WINDOW))
        daemon, url = start_web(instance)
    try:
        yield daemon, url
    finally:
        daemon.stop()


def _mqtt_test(url: str, **headers: str) -> requests.Response:
    # The body is refused by the view (no host): cheap, and counted before the view runs.
    return requests.post(f"{url}{API}/mqtt/test", json={}, headers=headers, timeout=10)


def test_one_request_past_the_limit_is_answered_429_with_retry_after_and_the_envelope(web):
    _daemon, url = web
    answers = [_mqtt_test(url) for _ in range(4)]
    assert [answer.status_code for answer in answers] == [400, 400, 400, 429]
    refused = answers[-1]
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= WINDOW + 1
    body = refused.json()
    assert body["status"] == "error" and body["data"] is None
    assert body["error_code"] == "RATE_LIMITED"
    assert f"retry in {wait} seconds" in body["message"]
    assert body["details"] == {"group": "checks", "per_minute": 3, "retry_after": wait,
                               "setting": "web.rate_limits.per_minute.checks"}
    # ...and it is the answer the served description gives for this route's 429.
    described = requests.get(f"{url}{API}/openapi.json", timeout=10).json()
    operation = described["paths"][f"{API}/mqtt/test"]["post"]
    assert operation["x-rate-limit-group"] == "checks"
    jsonschema.validate(body, operation["responses"]["429"]["content"]["application/json"]
                        ["schema"])
    assert "Retry-After" in operation["responses"]["429"]["headers"]
    # The refused call is in the operation history like every other refused change.
    history = requests.get(f"{url}{API}/history", params={"limit": 50}, timeout=10).json()
    refused_entries = [entry for entry in history["data"]["entries"]
                       if entry.get("error_code") == "RATE_LIMITED"]
    assert [(entry["path"], entry["status"], entry["client"]) for entry in refused_entries] == [
        (f"{API}/mqtt/test", 429, "127.0.0.1")]
    # The limit resets, within the wait it named (tried meanwhile: a refused try is no hit).
    deadline = time.monotonic() + wait + 3
    while (answer := _mqtt_test(url)).status_code == 429:
        assert time.monotonic() < deadline, "the limit did not reset within Retry-After"
        time.sleep(0.2)
    assert answer.status_code == 400


def test_routes_of_one_group_share_its_count_and_other_groups_keep_theirs(web):
    _daemon, url = web
    first = requests.get(f"{url}{API}/backup/pre-restore/none.zip", timeout=10)
    second = requests.get(f"{url}{API}/backup/download", timeout=30)
    assert first.status_code != 429 and second.status_code != 429
    third = requests.get(f"{url}{API}/backup/pre-restore/none.zip", timeout=10)
    assert third.status_code != 429
    assert requests.get(f"{url}{API}/backup/download", timeout=30).status_code == 429
    store = requests.post(f"{url}{API}/plugins/uninstall", json={}, timeout=10)
    assert store.status_code == 400  # the store group still has its own allowance


def test_the_pages_own_polling_is_never_limited(web):
    _daemon, url = web
    assert requests.get(f"{url}{API}/starlark/apps/none", timeout=10).status_code != 429
    assert requests.get(f"{url}{API}/starlark/apps/none", timeout=10).status_code == 429
    for _ in range(6):  # past every group's number, within one window
        for path in ("/system/status", "/health", "/display/preview", "/plugins/installed",
                     "/plugins/store/jobs", "/system/update", "/errors/summary", "/mqtt",
                     "/fonts/preview?font=press-start&text=a"):
            assert requests.get(f"{url}{API}{path}", timeout=10).status_code != 429, path
    # The stats stream the Overview holds open (its own busy rule answers 503, never 429).
    with requests.get(f"{url}/stream/stats", stream=True, timeout=10) as stream:
        assert stream.status_code == 200
        assert next(stream.iter_lines())  # the first event arrives


def test_a_refused_cross_site_request_does_not_spend_the_allowance(web):
    _daemon, url = web
    for _ in range(5):
        refused = requests.post(f"{url}{API}/plugins/install", json={},
                                headers={"Origin": "http://evil.example"}, timeout=10)
        assert refused.status_code == 403
        assert refused.json()["error_code"] == "CROSS_SITE_REFUSED"
        wrong_host = requests.post(f"{url}{API}/plugins/install", json={},
                                   headers={"Host": "rebind.example.com"}, timeout=10)
        assert wrong_host.json()["error_code"] == "HOST_NOT_ALLOWED"
    assert requests.post(f"{url}{API}/plugins/install", json={}, timeout=10).status_code == 400


def test_a_forwarded_address_header_is_not_trusted(web):
    _daemon, url = web
    # A new address named on every request (waitress drops X-Forwarded-For and Forwarded
    # by itself; X-Real-IP reaches the app, which must not read it either).
    answers = [requests.post(f"{url}{API}/starlark/repository/install", json={}, timeout=30,
                             headers={"X-Forwarded-For": f"10.0.0.{n}",
                                      "X-Real-IP": f"10.0.1.{n}", "Forwarded": f"for=10.0.2.{n}"})
               for n in range(3)]
    assert [answer.status_code for answer in answers] == [400, 400, 429]  # one client


def test_a_saved_change_applies_to_the_next_request(web):
    _daemon, url = web
    assert requests.post(f"{url}{API}/fonts/upload", timeout=10).status_code != 429
    assert requests.post(f"{url}{API}/fonts/upload", timeout=10).status_code != 429
    assert requests.post(f"{url}{API}/fonts/upload", timeout=10).status_code == 429
    saved = requests.post(f"{url}{API}/config/main", headers=JSON, timeout=10, data=json.dumps(
        {"web": {"rate_limits": {"exempt_addresses": ["127.0.0.0/8"]}}}))
    assert saved.status_code == 200, saved.text
    assert requests.post(f"{url}{API}/fonts/upload", timeout=10).status_code != 429
    refused = requests.post(f"{url}{API}/config/main", headers=JSON, timeout=10, data=json.dumps(
        {"web": {"rate_limits": {"exempt_addresses": ["not an address"]}}}))
    assert refused.status_code == 400
    assert refused.json()["details"]["field"] == "web.rate_limits.exempt_addresses"


def test_loopback_clients_are_exempt_by_default(tmp_path: Path) -> None:
    instance = Instance(tmp_path)
    instance.write_config(_config({"per_minute": {"checks": 1}}))
    daemon, url = start_web(instance)
    try:
        assert all(_mqtt_test(url).status_code == 400 for _ in range(4))
        turned_on = requests.post(f"{url}{API}/config/main", headers=JSON, timeout=10,
                                  data=json.dumps({"web": {"rate_limits": {
                                      "exempt_loopback": False}}}))
        assert turned_on.status_code == 200, turned_on.text
        assert [_mqtt_test(url).status_code for _ in range(2)] == [400, 429]
        # The limiter's memory store keeps no thread that holds the daemon up.
        started = time.monotonic()
        assert daemon.stop() == 0
        assert time.monotonic() - started < 8
    finally:
        daemon.stop()
