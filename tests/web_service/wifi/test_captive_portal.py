"""Captive portal answers through the real web daemon: phones' probes redirect to the
WiFi tab while the setup access point is up, and are refused or 404 otherwise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from tests.daemons import Instance, start_web
from tests.web_service.wifi.wifi_helpers import use_fake_nmcli

pytestmark = pytest.mark.daemons
PROBES = ["/generate_204", "/gen_204", "/hotspot-detect.html", "/library/test/success.html",
          "/ncsi.txt", "/connecttest.txt", "/redirect", "/canonical.html", "/success.txt"]
FOREIGN = ["connectivitycheck.gstatic.com", "captive.apple.com", "www.msftconnecttest.com",
           "detectportal.firefox.com", "nmcheck.gnome.org"]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("captive")
    with pytest.MonkeyPatch.context() as patch:
        use_fake_nmcli(base, patch)
        daemon, url = start_web(Instance(base / "instance"))
    try:
        yield url
    finally:
        daemon.stop()


def probe(url: str, path: str, host: str) -> requests.Response:
    return requests.get(f"{url}{path}", headers={"Host": host}, allow_redirects=False,
                        timeout=30)


def set_ap(url: str, up: bool) -> None:
    answer = requests.post(f"{url}/api/v3/wifi/ap/{'enable' if up else 'disable'}", json={},
                           timeout=30)
    assert answer.status_code == 200, answer.text


def test_while_the_access_point_is_up_every_probe_lands_on_the_wifi_tab(web):
    set_ap(web, True)
    port = web.rsplit(":", 1)[1]
    for path in PROBES:
        for host in FOREIGN:
            answer = probe(web, path, host)
            assert answer.status_code == 302, (path, host, answer.text)
            assert answer.headers["Location"] == f"http://10.42.0.1:{port}/#wifi"
            assert answer.headers["Cache-Control"] == "no-store"


def test_a_foreign_host_is_still_refused_outside_the_probe_paths(web):
    set_ap(web, True)
    for path in ("/", "/api/v3/config/main", "/generate_204/x", "/v3/partials/wifi"):
        answer = probe(web, path, "connectivitycheck.gstatic.com")
        assert answer.status_code == 403, path


def test_without_the_access_point_probes_are_refused_or_not_found(web):
    set_ap(web, False)
    for path in PROBES:
        assert probe(web, path, "connectivitycheck.gstatic.com").status_code == 403
        own = probe(web, path, "127.0.0.1")
        assert own.status_code == 404 and own.json()["error_code"] == "NOT_FOUND"
