"""The Wi-Fi routes through the real web daemon, with nmcli faked on PATH."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests import fake_commands
from tests.daemons import Instance, start_web
from tests.web_service.wifi.wifi_helpers import (
    CAFE,
    HOME,
    HOME_PASSWORD,
    OPEN_NET,
    FakeNmcli,
    base_state,
    use_fake_nmcli,
)

pytestmark = pytest.mark.daemons
MONITOR_UNIT = "ledpanel-wifi-monitor.service"


class Web:
    def __init__(self, url: str, fake: FakeNmcli, instance: Instance, calls: Path,
                 output: object) -> None:
        self.url, self.fake, self.instance, self.sudo_calls = url, fake, instance, calls
        self.output = output

    def get(self, path: str) -> requests.Response:
        return requests.get(f"{self.url}/api/v3{path}", timeout=30)

    def post(self, path: str, body: object = None) -> requests.Response:
        return requests.post(f"{self.url}/api/v3{path}", json=body or {}, timeout=60)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Web]:
    base = tmp_path_factory.mktemp("wifi-web")
    with pytest.MonkeyPatch.context() as patch:
        fake = use_fake_nmcli(base, patch)
        sudo_calls = base / "sudo-calls.jsonl"
        fake_commands.recorder(base / "bin", "sudo", sudo_calls, run_rest=True)
        fake_commands.recorder(base / "bin", "systemctl", sudo_calls)
        patch.setenv("LEDPANEL_SUPERVISOR", "systemd")
        instance = Instance(base / "instance")
        daemon, url = start_web(instance)
    try:
        yield Web(url, fake, instance, sudo_calls, daemon.output)
    finally:
        daemon.stop()


@pytest.fixture(autouse=True)
def fresh(web: Web) -> None:
    web.fake.state_file.write_text(json.dumps(base_state()))


def test_status_of_a_panel_with_no_network(web):
    answer = web.get("/wifi/status")
    assert answer.status_code == 200
    data = answer.json()["data"]
    assert data["device"] == "wlan0" and data["radio"] is True
    assert data["connected"] is False and data["ssid"] is None and data["signal"] is None
    assert data["ap_active"] is False and data["ap_ssid"] == "ledpanel-setup"
    assert data["auto_enable_ap_mode"] is True


def test_scan_lists_networks_strongest_first_with_escaped_names_read_back(web):
    data = web.get("/wifi/scan").json()["data"]
    assert [n["ssid"] for n in data["networks"]] == [HOME, OPEN_NET, CAFE]
    assert data["networks"][0] == {"ssid": HOME, "signal": 72, "security": "WPA2",
                                   "in_use": False}
    assert data["networks"][1]["security"] == ""
    assert data["saved"] == []
    assert ["-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY", "device", "wifi", "list", "--rescan",
            "yes"] in web.fake.calls()


def test_connect_passes_the_password_on_stdin_and_never_answers_or_logs_it(web):
    answer = web.post("/wifi/connect", {"ssid": HOME, "password": HOME_PASSWORD})
    assert answer.status_code == 200, answer.text
    assert HOME_PASSWORD not in answer.text
    assert web.fake.state()["active"] == HOME
    connect = [c for c in web.fake.calls() if "connect" in c][-1]
    assert connect[:1] == ["--ask"] and connect[-2:] == ["ifname", "wlan0"]
    assert not any(HOME_PASSWORD in arg or arg == "password" for c in web.fake.calls()
                   for arg in c)
    assert HOME_PASSWORD not in web.output()  # type: ignore[operator]
    for file in web.instance.base.rglob("*"):
        if file.is_file():
            assert HOME_PASSWORD.encode() not in file.read_bytes(), file
    status = web.get("/wifi/status").json()["data"]
    assert (status["connected"], status["ssid"], status["signal"], status["address"]) == (
        True, HOME, 72, "192.168.1.50")


def test_an_open_network_is_joined_without_asking(web):
    assert web.post("/wifi/connect", {"ssid": OPEN_NET}).status_code == 200
    assert "--ask" not in [c for c in web.fake.calls() if "connect" in c][-1]
    assert web.fake.state()["active"] == OPEN_NET


def test_a_wrong_password_is_nmclis_refusal_in_the_envelope(web):
    answer = web.post("/wifi/connect", {"ssid": HOME, "password": "not the password"})
    body = answer.json()
    assert answer.status_code == 502 and body["error_code"] == "WIFI_COMMAND_FAILED"
    assert "Secrets were required" in body["message"]
    assert "not the password" not in answer.text
    assert web.fake.state()["active"] is None


def test_a_network_out_of_range_is_the_requests_fault_not_a_server_error(web):
    assert web.post("/wifi/ap/enable").status_code == 200
    answer = web.post("/wifi/connect", {"ssid": "Not Here", "password": "long enough"})
    body = answer.json()
    assert answer.status_code == 400 and body["error_code"] == "INVALID_FIELD"
    assert "Not Here" in body["message"] and "in range" in body["message"]
    assert body["details"] == {"field": "ssid"}
    assert "long enough" not in answer.text
    assert web.fake.state()["active"] == "ledpanel-setup"  # the access point is up again


def test_a_failed_join_from_the_setup_access_point_opens_it_again(web):
    assert web.post("/wifi/ap/enable").status_code == 200
    answer = web.post("/wifi/connect", {"ssid": HOME, "password": "not the password"})
    assert answer.status_code == 502
    assert web.fake.state()["active"] == "ledpanel-setup"


@pytest.mark.parametrize("body", [
    {}, {"ssid": ""}, {"ssid": 5}, {"ssid": "x" * 33}, {"ssid": "bad\nname"},
    {"ssid": HOME, "password": "short"}, {"ssid": HOME, "password": "line\nbreak!!"},
    {"ssid": HOME, "password": 12345678},
])
def test_bad_ssid_or_password_is_a_400_naming_the_field(web, body):
    answer = web.post("/wifi/connect", body)
    assert answer.status_code == 400 and answer.json()["error_code"] == "INVALID_FIELD"
    assert answer.json()["details"]["field"] in ("ssid", "password")
    assert web.fake.state()["active"] is None


def test_disconnect_and_forget(web):
    web.post("/wifi/connect", {"ssid": HOME, "password": HOME_PASSWORD})
    answer = web.post("/wifi/disconnect", {"forget": HOME})
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"] == {"disconnected": HOME, "forgotten": HOME}
    assert web.fake.state()["active"] is None and web.fake.state()["saved"] == []
    again = web.post("/wifi/disconnect", {"forget": HOME})
    assert again.status_code == 400 and again.json()["details"]["field"] == "forget"


def test_the_setup_access_point_opens_open_and_closes(web):
    answer = web.post("/wifi/ap/enable")
    assert answer.status_code == 200 and "10.42.0.1" in answer.json()["message"]
    assert web.fake.state()["active"] == "ledpanel-setup"
    add = next(c for c in web.fake.calls() if c[:2] == ["connection", "add"])
    assert "802-11-wireless.mode" in add  # an open network: no security settings
    assert not any(a.startswith(("wifi-sec", "802-11-wireless-security")) for a in add)
    assert web.get("/wifi/status").json()["data"]["ap_active"] is True
    assert web.post("/wifi/ap/disable").json()["message"] == "the setup access point is closed"
    assert web.fake.state()["active"] is None
    assert web.post("/wifi/ap/disable").json()["message"] == "the setup access point was not open"


def test_the_radio_is_read_and_switched(web):
    assert web.get("/wifi/radio").json()["data"] == {"enabled": True}
    assert web.post("/wifi/radio", {"enabled": False}).json()["data"] == {"enabled": False}
    assert web.fake.state()["radio"] is False
    refused = web.post("/wifi/radio", {"enabled": "off"})
    assert refused.status_code == 400 and refused.json()["error_code"] == "INVALID_FIELD"


def test_auto_enable_is_stored_and_restarts_the_monitor_through_sudo(web):
    config = web.instance.config_dir / "wifi_config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"auto_enable_ap_mode": True, "ap_password": "kept as is"}))
    assert web.get("/wifi/ap/auto-enable").json()["data"] == {"auto_enable_ap_mode": True}
    answer = web.post("/wifi/ap/auto-enable", {"auto_enable_ap_mode": False})
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"] == {"auto_enable_ap_mode": False, "monitor_restarted": True}
    assert json.loads(config.read_text()) == {"auto_enable_ap_mode": False,
                                              "ap_password": "kept as is"}
    sudo, systemctl = fake_commands.calls_of(web.sudo_calls)[-2:]
    assert sudo[:2] == ["sudo", "-n"] and os.path.isabs(sudo[2])
    assert sudo[3:] == ["restart", MONITOR_UNIT] and systemctl == ["systemctl", "restart",
                                                                   MONITOR_UNIT]
    assert web.get("/wifi/status").json()["data"]["auto_enable_ap_mode"] is False
    refused = web.post("/wifi/ap/auto-enable", {"auto_enable_ap_mode": "yes"})
    assert refused.status_code == 400
    assert json.loads(config.read_text())["auto_enable_ap_mode"] is False


def test_a_broken_wifi_config_is_a_409_not_a_500(web):
    config = web.instance.config_dir / "wifi_config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("{broken")
    try:
        answer = web.post("/wifi/ap/auto-enable", {"auto_enable_ap_mode": True})
        assert answer.status_code == 409 and answer.json()["error_code"] == "CONFIG_INVALID_JSON"
        assert config.read_text() == "{broken"
    finally:
        config.unlink()


def test_without_nmcli_every_route_says_wifi_needs_networkmanager(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    daemon, url = start_web(Instance(tmp_path))
    try:
        for method, path in (("get", "/wifi/status"), ("get", "/wifi/scan"),
                             ("post", "/wifi/connect"), ("post", "/wifi/ap/enable"),
                             ("get", "/wifi/radio")):
            body = {"ssid": CAFE, "password": "espresso-1"} if path.endswith("connect") else {}
            answer = getattr(requests, method)(f"{url}/api/v3{path}", json=body, timeout=30)
            assert answer.status_code == 503, (path, answer.text)
            assert answer.json()["error_code"] == "WIFI_UNAVAILABLE"
            assert "NetworkManager" in answer.json()["message"]
    finally:
        daemon.stop()
