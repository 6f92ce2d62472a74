"""The Wi-Fi monitor: its decisions under an injected clock, and a real run of
``python -m web_service.wifi.monitor`` against the fake nmcli."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.daemons import ROOT
from tests.web_service.wifi.wifi_helpers import CAFE, HOME, FakeNmcli, use_fake_nmcli
from web_service.wifi.monitor import CLOSE, OPEN, Decider, Observation, Timing

AP = "ledpanel-setup"
OFFLINE, ONLINE = Observation(online=False, ap_up=False), Observation(online=True, ap_up=False)
AP_ALONE, AP_KNOWN_NEAR = Observation(False, True, False), Observation(False, True, True)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def decider(**timing: float) -> tuple[Decider, Clock]:
    clock = Clock()
    return Decider(clock, Timing(**{"interval": 15, "open_after": 90, "close_after": 30,
                                    "min_ap_time": 180, **timing})), clock


def steps(decide: Decider, clock: Clock, seen: Observation, seconds: float,
          every: float = 15) -> list[str | None]:
    """Look every ``every`` seconds for ``seconds``; return the decisions."""
    out = []
    for _ in range(int(seconds // every)):
        clock.now += every
        out.append(decide.step(seen))
    return out


def test_the_access_point_opens_only_after_open_after_seconds_offline():
    decide, clock = decider()
    assert decide.step(OFFLINE) is None  # the first look starts the count
    assert steps(decide, clock, OFFLINE, 75) == [None] * 5
    clock.now += 15
    assert decide.step(OFFLINE) == OPEN


def test_a_connection_in_between_starts_the_count_again():
    decide, clock = decider()
    decide.step(OFFLINE)
    steps(decide, clock, OFFLINE, 75)
    clock.now += 15
    assert decide.step(ONLINE) is None
    assert steps(decide, clock, OFFLINE, 90) == [None] * 6
    clock.now += 15
    assert decide.step(OFFLINE) == OPEN


def test_an_access_point_it_opened_closes_once_a_saved_network_stays_in_range():
    decide, clock = decider()
    decide.step(OFFLINE)
    clock.now += 90
    assert decide.step(OFFLINE) == OPEN
    # In range at once, but the access point stays up its minimum time.
    assert set(steps(decide, clock, AP_KNOWN_NEAR, 165)) == {None}
    clock.now += 15
    assert decide.step(AP_KNOWN_NEAR) == CLOSE


def test_a_saved_network_that_comes_and_goes_does_not_close_it():
    decide, clock = decider()
    decide.step(OFFLINE)
    clock.now += 90
    decide.step(OFFLINE)
    clock.now += 300
    for _ in range(10):  # in range 15 s, gone 15 s: never 30 s in a row
        assert steps(decide, clock, AP_KNOWN_NEAR, 15) == [None]
        assert steps(decide, clock, AP_ALONE, 15) == [None]


def open_then_close(decide: Decider, clock: Clock, in_range_for: float) -> None:
    """Offline until it opens, then a saved network in range until it closes."""
    decide.step(OFFLINE)
    clock.now += 90
    assert decide.step(OFFLINE) == OPEN
    clock.now += 300
    decide.step(AP_KNOWN_NEAR)
    assert set(steps(decide, clock, AP_KNOWN_NEAR, in_range_for - 15)) == {None}
    clock.now += 15
    assert decide.step(AP_KNOWN_NEAR) == CLOSE


def test_a_close_that_brings_no_connection_doubles_the_next_wait_until_online():
    decide, clock = decider()
    open_then_close(decide, clock, 30)
    # The saved network's password changed: each round the access point stays longer.
    open_then_close(decide, clock, 60)
    open_then_close(decide, clock, 120)
    clock.now += 15
    decide.step(ONLINE)
    open_then_close(decide, clock, 30)


def test_an_access_point_opened_by_hand_is_left_alone():
    decide, clock = decider()
    assert decide.step(ONLINE) is None
    assert steps(decide, clock, AP_KNOWN_NEAR, 600) == [None] * 40
    assert not decide.ours


def test_an_access_point_up_when_it_starts_is_its_own():
    decide, clock = decider()  # restarted (auto_enable_ap_mode saved) while it was up
    assert decide.step(AP_KNOWN_NEAR) is None and decide.ours
    assert set(steps(decide, clock, AP_KNOWN_NEAR, 165)) == {None}
    clock.now += 15
    assert decide.step(AP_KNOWN_NEAR) == CLOSE


def wait_for(fake: FakeNmcli, active: str | None, process: subprocess.Popen[str],
             timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while fake.state()["active"] != active:
        assert process.poll() is None, process.communicate()[0]
        assert time.monotonic() < deadline, f"active stayed {fake.state()['active']!r}"
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_answer(url: str, process: subprocess.Popen[str]) -> requests.Response:
    deadline = time.monotonic() + 30
    while True:
        try:
            return requests.get(url, headers={"Host": "connectivitycheck.gstatic.com"},
                                allow_redirects=False, timeout=5)
        except requests.ConnectionError:
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)


def wait_refused(url: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            requests.get(url, timeout=5)
        except requests.ConnectionError:
            return
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)


def start_monitor(config_dir: Path, *timing: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "web_service.wifi.monitor", "--config-dir", str(config_dir),
         *timing], cwd=ROOT, env=dict(os.environ), text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@pytest.mark.daemons
def test_the_monitor_opens_the_access_point_and_closes_it_for_a_saved_network(
        tmp_path, monkeypatch):
    fake = use_fake_nmcli(tmp_path, monkeypatch, saved=[HOME],
                          networks=[{"ssid": CAFE, "signal": 40, "security": ""}])
    monkeypatch.setenv("LEDPANEL_CACHE_DIR", str(tmp_path / "cache"))
    port = free_port()
    process = start_monitor(tmp_path / "config", "--interval", "0.1", "--open-after", "0.5",
                            "--close-after", "0.3", "--min-ap-time", "0.5",
                            "--portal-host", "127.0.0.1", "--portal-port", str(port))
    try:
        wait_for(fake, AP, process)
        # A phone's probe on port 80 (here: ``port``) is sent to the WiFi tab.
        answer = wait_answer(f"http://127.0.0.1:{port}/generate_204", process)
        assert answer.status_code == 302
        assert answer.headers["Location"] == "http://10.42.0.1:5000/#wifi"
        fake.update(networks=[{"ssid": HOME, "signal": 70, "security": ""}])
        wait_for(fake, HOME, process)  # closed; NetworkManager joined the saved network
        wait_refused(f"http://127.0.0.1:{port}/generate_204", process)
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0]
    assert process.returncode == 0, output
    assert "opening the setup access point" in output
    assert "closing the setup access point" in output


@pytest.mark.daemons
def test_with_auto_enable_off_the_monitor_does_nothing(tmp_path, monkeypatch):
    fake = use_fake_nmcli(tmp_path, monkeypatch)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "wifi_config.json").write_text(
        json.dumps({"auto_enable_ap_mode": False, "ap_password": "never read"}))
    done = subprocess.run([sys.executable, "-m", "web_service.wifi.monitor", "--config-dir",
                           str(tmp_path / "config")], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0 and "auto_enable_ap_mode is false" in done.stderr
    assert fake.calls() == []
