"""POST /system/action under systemd: the real web daemon, sudo and systemctl faked on PATH."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.daemons import Daemon, Instance, start_web
from tests.fake_commands import FakeBin

pytestmark = pytest.mark.daemons

JOB_FAILED = ("Job for ledpanel-display.service failed because the control process exited "
              "with error code.\nSee \"systemctl status ledpanel-display.service\" and "
              "\"journalctl -xeu ledpanel-display.service\" for details.\n")


class Web:
    def __init__(self, fakes: FakeBin, daemon: Daemon, url: str) -> None:
        self.fakes, self.daemon, self.url = fakes, daemon, url

    def act(self, action: object) -> requests.Response:
        return requests.post(f"{self.url}/api/v3/system/action", json={"action": action},
                             timeout=30)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Web]:
    base = tmp_path_factory.mktemp("systemd")
    fakes = FakeBin(base / "bin")
    fakes.add_sudo()
    for name in ("systemctl", "reboot", "poweroff"):
        fakes.add(name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", fakes.path_env())
        patch.setenv("LEDPANEL_SUPERVISOR", "systemd")
        daemon, url = start_web(Instance(base))
    try:
        yield Web(fakes, daemon, url)
    finally:
        daemon.stop()


@pytest.fixture
def fresh(web: Web) -> Web:
    web.fakes.calls_file.write_text("")
    for name in ("systemctl", "reboot", "poweroff"):
        web.fakes.add(name)
    web.fakes.add_sudo()
    return web


@pytest.mark.parametrize(("action", "ran", "said"), [
    ("start_display", ["systemctl", "start", "ledpanel-display.service"],
     "display service started"),
    ("stop_display", ["systemctl", "stop", "ledpanel-display.service"],
     "display service stopped"),
    ("restart_display_service", ["systemctl", "restart", "ledpanel-display.service"],
     "display service restarted"),
    ("enable_autostart", ["systemctl", "enable", "ledpanel-display.service",
                          "ledpanel-web.service"], "start when the system boots"),
    ("disable_autostart", ["systemctl", "disable", "ledpanel-display.service",
                           "ledpanel-web.service"], "no longer start"),
    ("reboot_system", ["reboot"], "rebooting"),
    ("shutdown_system", ["poweroff"], "shutting down"),
])
def test_each_action_runs_its_command_through_sudo(fresh: Web, action: str, ran: list[str],
                                                   said: str) -> None:
    answer = fresh.act(action)
    assert answer.status_code == 200, answer.text
    assert said in answer.json()["message"]
    assert answer.json()["data"]["command"] == "sudo -n " + " ".join(ran)
    program = str(fresh.fakes.folder / ran[0])
    assert fresh.fakes.calls() == [["sudo", "-n", program, *ran[1:]], ran]


def test_restarting_the_web_answers_first_then_restarts_it(fresh: Web) -> None:
    answer = fresh.act("restart_web_service")
    assert answer.status_code == 202, answer.text
    assert "reconnects" in answer.json()["message"]
    wanted = ["systemctl", "--no-block", "restart", "ledpanel-web.service"]
    deadline = time.monotonic() + 10
    while wanted not in fresh.fakes.calls():
        assert time.monotonic() < deadline, fresh.fakes.calls()
        time.sleep(0.05)
    assert fresh.fakes.calls()[0][:2] == ["sudo", "-n"]


def test_a_failing_command_answers_with_its_output(fresh: Web) -> None:
    fresh.fakes.add("systemctl", stderr=JOB_FAILED, code=1)
    answer = fresh.act("start_display")
    assert answer.status_code == 502, answer.text
    body = answer.json()
    assert body["status"] == "error"
    assert body["error_code"] == "ACTION_FAILED"
    assert "exit code 1" in body["message"]
    assert "journalctl -xeu ledpanel-display.service" in body["message"]
    assert body["details"]["output"] == JOB_FAILED.strip()
    assert body["details"]["exit_code"] == 1


def test_a_missing_sudo_rule_says_how_to_fix_it(fresh: Web) -> None:
    fresh.fakes.add("sudo", stderr="sudo: a password is required\n", code=1)
    answer = fresh.act("reboot_system")
    assert answer.status_code == 502, answer.text
    assert "run scripts/install again" in answer.json()["message"]
    assert ["reboot"] not in fresh.fakes.calls()


@pytest.mark.parametrize("action", ["format_disk", None, 3, ["stop_display"]])
def test_an_unknown_action_is_refused_listing_the_known_ones(fresh: Web,
                                                             action: object) -> None:
    answer = fresh.act(action)
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error_code"] == "UNKNOWN_ACTION"
    assert "stop_display" in body["message"] and "git_pull" in body["message"]
    assert "enable_autostart" in body["details"]["actions"]
    assert fresh.fakes.calls() == []


def test_update_code_starts_the_core_update_unit(fresh: Web) -> None:
    answer = fresh.act("git_pull")
    assert answer.status_code == 202, answer.text
    assert answer.json()["data"]["update"]["phase"] == "starting"
    assert ["systemctl", "start", "--no-block", "ledpanel-update.service"] in fresh.fakes.calls()


def test_the_units_tell_the_web_it_runs_under_systemd() -> None:
    units = Path(__file__).resolve().parents[3] / "systemd"
    for name in ("ledpanel-display.service", "ledpanel-web.service"):
        assert "Environment=LEDPANEL_SUPERVISOR=systemd" in (units / name).read_text()
