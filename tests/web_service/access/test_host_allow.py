"""The Host allow-list against the real web daemon: a rebinding name is refused on every
route, home-network names and addresses are served, a name the user adds is served
from the next request on, and one setting turns the check off."""

from __future__ import annotations

import socket

import pytest
import requests

from shared.host_names import is_allowed, rules_from, split_host
from tests.web_service.access import test_cross_site
from tests.web_service.access.test_cross_site import Served

MAIN = "/api/v3/config/main"
served = test_cross_site.served  # the same running web daemon fixture


def as_host(served: Served, host: str, path: str = "/api/v3/health") -> requests.Response:
    return requests.get(f"{served.url}{path}", headers={"Host": host}, timeout=10)


def save_web(served: Served, web: dict) -> requests.Response:
    return requests.post(f"{served.url}{MAIN}", json={"web": web}, timeout=10)


def test_an_unknown_name_is_refused_on_pages_and_api(served: Served) -> None:
    for path in ("/api/v3/health", "/api/v3/config/main", "/api/v3/nothing-here"):
        answer = as_host(served, "evil.example:5000", path)
        assert answer.status_code == 403, (path, answer.text)
        body = answer.json()
        assert body["error_code"] == "HOST_NOT_ALLOWED"
        assert body["details"]["host"] == "evil.example"
        assert "web.allowed_hosts" in body["message"] and "evil.example" in body["message"]
        assert '"allowed_hosts": ["evil.example"]' in body["details"]["example"]
    page = as_host(served, "evil.example", "/")
    assert page.status_code == 403
    assert page.headers["Content-Type"].startswith("text/html")
    assert "evil.example" in page.text and "web.allowed_hosts" in page.text
    assert "curl -X POST" in page.text and "ledpanel-token" not in page.text
    # A state-changing request under a rebound name is refused before it runs.
    before = served.config_file.read_bytes()
    answer = requests.post(f"{served.url}{MAIN}", json={"brightness": 9},
                           headers={"Host": "evil.example"}, timeout=10)
    assert answer.status_code == 403
    assert served.config_file.read_bytes() == before


def test_addresses_localhost_and_home_network_names_are_served(served: Served) -> None:
    device = socket.gethostname()
    for host in ("ledpanel.local", "LEDPANEL.LOCAL.", "192.168.1.5:5000", "[::1]", "[::1]:5000",
                 "localhost", "localhost:5000", "box.lan", "pi.home", "pi.internal",
                 "pi.home.arpa", device, f"{device.split('.')[0]}:5000"):
        answer = as_host(served, host)
        assert answer.status_code == 200, (host, answer.text)
    assert as_host(served, "192.168.1.5:5000", "/").status_code == 200


def test_an_added_name_is_served_from_the_next_request(served: Served) -> None:
    assert as_host(served, "panel.example.com").status_code == 403
    assert as_host(served, "a.b.example.org").status_code == 403
    answer = save_web(served, {"allowed_hosts": ["panel.example.com", ".example.org"]})
    assert answer.status_code == 200, answer.text
    assert served.config()["web"]["port"] == 5000  # the rest of the section is kept
    assert as_host(served, "panel.example.com:8443").status_code == 200
    assert as_host(served, "a.b.example.org").status_code == 200
    assert as_host(served, "example.org").status_code == 200
    assert as_host(served, "other.example.com").status_code == 403
    # Removed again: refused again, no restart.
    assert save_web(served, {"allowed_hosts": []}).status_code == 200
    assert as_host(served, "panel.example.com").status_code == 403
    # Text is read as a comma-separated list, as a form field sends it.
    assert save_web(served, {"allowed_hosts": "a.example, b.example"}).status_code == 200
    assert served.config()["web"]["allowed_hosts"] == ["a.example", "b.example"]
    assert as_host(served, "b.example").status_code == 200


@pytest.mark.parametrize("value", [["http://panel.example.com/"], ["panel.example.com:80"],
                                   ["bad name"], [""], [5], "ok.example, bad/name"])
def test_a_bad_allowed_hosts_value_is_refused_naming_it(served: Served, value: object) -> None:
    before = served.config_file.read_bytes()
    answer = save_web(served, {"allowed_hosts": value})
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error_code"] == "INVALID_FIELD"
    assert "web.allowed_hosts" in body["message"]
    assert served.config_file.read_bytes() == before


def test_the_off_switch_serves_any_name(served: Served) -> None:
    assert save_web(served, {"host_check": "maybe"}).status_code == 400
    assert save_web(served, {"host_check": False}).status_code == 200
    assert as_host(served, "evil.example").status_code == 200
    assert as_host(served, "evil.example", "/").status_code == 200
    assert save_web(served, {"host_check": True}).status_code == 200
    assert as_host(served, "evil.example").status_code == 403


def test_a_config_that_does_not_parse_keeps_the_names_last_read(served: Served) -> None:
    assert save_web(served, {"allowed_hosts": ["panel.example.com"]}).status_code == 200
    assert as_host(served, "panel.example.com").status_code == 200
    served.config_file.write_text('{"web": {"host_check": false},}')
    assert as_host(served, "panel.example.com").status_code == 200
    assert as_host(served, "evil.example").status_code == 403
    assert as_host(served, "192.168.1.5", "/").status_code == 200  # the page to repair it


def test_host_values_that_are_no_host_are_refused() -> None:
    rules = rules_from({})
    for host in ("::1", "a:b:c", "", "[::1", "[::1]x", "name:port", "evil.example",
                 "localhost:\u00b2", "localhost:\u0663"):
        assert not is_allowed(host, rules), host
    assert split_host("[FE80::1]:5000") == "fe80::1"
    assert is_allowed("anything", rules_from({"host_check": False}))
    # Bad entries from a hand edit open nothing.
    assert not is_allowed("x.com", rules_from({"allowed_hosts": ["x.com/", 5, "x.com:1"]}))


def test_a_port_of_non_ascii_digits_is_refused_not_a_failure(served: Served) -> None:
    for host in ("evil.example:\u00b2", "localhost:\u00b2", "localhost:\u00b9\u00b2"):
        answer = as_host(served, host)
        assert answer.status_code == 403, (host, answer.text)
        assert answer.json()["error_code"] == "HOST_NOT_ALLOWED"
