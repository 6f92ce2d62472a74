"""display_service/privileges.py: root is dropped once the panel is open, before any plugin
loads, or the status says why not; after a drop the hang watch exits for systemd.

A test cannot become root and back, so the decision and the order are shown with the
system calls replaced (``SystemCalls``), and the "cannot drop" record with a real daemon.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from display_service import daemon, privileges
from display_service.config_source import ConfigSource
from display_service.loop.inbox import Inbox
from display_service.plugins import containment
from shared.bus.core import HARDWARE_STATUS, Bus
from shared.config.store import ConfigStore
from shared.paths import resolve_paths
from tests.daemons import ROOT, Instance, start_display

LEDPANEL = SimpleNamespace(pw_name="ledpanel", pw_uid=999, pw_gid=998,
                           pw_dir="/home/ledpanel")


@dataclass
class FakeSystem:
    """Stands in for the kernel: who we are, and every identity call, in order."""

    euid: int = 0
    users: dict[str, Any] = field(default_factory=lambda: {"ledpanel": LEDPANEL})
    refuse: str | None = None  # the call that fails with EPERM
    log: list[str] = field(default_factory=list)
    environ: dict[str, str] = field(default_factory=lambda: {"HOME": "/root"})
    ids: dict[str, tuple[int, int, int]] = field(default_factory=lambda: {
        "uid": (0, 0, 0), "gid": (0, 0, 0)})

    def calls(self) -> privileges.SystemCalls:
        return privileges.SystemCalls(
            geteuid=lambda: self.euid, getpwnam=self.getpwnam, getpwuid=self.getpwuid,
            getgrouplist=lambda user, gid: [gid, 44, gid],
            setgroups=lambda groups: self._call("setgroups", groups),
            setresgid=lambda *gid: self._call("setresgid", gid),
            setresuid=lambda *uid: self._call("setresuid", uid),
            getresgid=lambda: self.ids["gid"], getresuid=lambda: self.ids["uid"],
            no_new_privs=lambda: self._call("no_new_privs", None), environ=self.environ)

    def getpwnam(self, name: str) -> Any:
        return self.users[name]

    def getpwuid(self, uid: int) -> Any:
        found = [u for u in self.users.values() if u.pw_uid == uid]
        if not found:
            raise KeyError(uid)
        return found[0]

    def _call(self, name: str, value: Any) -> None:
        if name == self.refuse:
            raise PermissionError(errno.EPERM, "Operation not permitted")
        self.log.append(f"{name} {value}")
        if name == "setresuid":
            self.ids["uid"], self.euid = value, value[0]
        elif name == "setresgid":
            self.ids["gid"] = value


@pytest.fixture(autouse=True)
def _not_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(privileges, "_dropped_to", None)


def test_root_switches_groups_then_group_then_user_and_locks_the_way_back() -> None:
    system = FakeSystem()
    block = privileges.drop_root("ledpanel", system.calls())
    assert system.log == ["setgroups [44, 998]", "setresgid (998, 998, 998)",
                          "setresuid (999, 999, 999)", "no_new_privs None"]
    assert block == {"dropped": True, "user": "ledpanel", "reason": None,
                     "summary": "plugins run as ledpanel (root dropped after the panel "
                                "opened)"}
    assert privileges.dropped_to() == "ledpanel"
    assert system.environ == {"HOME": "/home/ledpanel", "USER": "ledpanel",
                              "LOGNAME": "ledpanel"}


def test_the_user_comes_from_the_environment_else_ledpanel() -> None:
    assert privileges.target_user({}) == "ledpanel"
    assert privileges.target_user({"LEDPANEL_DISPLAY_USER": " panel "}) == "panel"
    system = FakeSystem()
    system.environ["LEDPANEL_DISPLAY_USER"] = "root"
    block = privileges.drop_root(calls=system.calls())
    assert (block["dropped"], block["user"], system.log) == (False, "root", [])
    assert "LEDPANEL_DISPLAY_USER=root keeps root" in block["reason"]


@pytest.mark.parametrize(("system", "user", "said"), [
    (FakeSystem(euid=999), "ledpanel", "not started as root: plugins run as ledpanel"),
    (FakeSystem(), "panel", "user 'panel' does not exist, so plugins run as root; create "
                            "it (scripts/install does) or name another in "
                            "LEDPANEL_DISPLAY_USER"),
    (FakeSystem(users={"toor": SimpleNamespace(pw_name="toor", pw_uid=0, pw_gid=0,
                                               pw_dir="/")}), "toor", "is root (uid 0)"),
])
def test_nothing_is_switched_when_there_is_nothing_or_no_one_to_drop_to(
        system: FakeSystem, user: str, said: str) -> None:
    block = privileges.drop_root(user, system.calls())
    assert system.log == [] and block["dropped"] is False
    assert said in block["reason"] and block["summary"] == block["reason"]
    assert privileges.dropped_to() is None


def test_a_refused_or_ignored_switch_is_reported_and_not_taken_for_a_drop() -> None:
    refused = FakeSystem(refuse="setresuid", users={"root": SimpleNamespace(
        pw_name="root", pw_uid=0, pw_gid=0, pw_dir="/root"), "ledpanel": LEDPANEL})
    block = privileges.drop_root("ledpanel", refused.calls())
    assert block["dropped"] is False and block["user"] == "root"
    assert "switching to user 'ledpanel' failed (Operation not permitted)" in block["reason"]
    ignored = FakeSystem()
    calls = ignored.calls()
    calls.getresuid = lambda: (999, 999, 0)  # the saved id still root
    assert privileges.drop_root("ledpanel", calls)["dropped"] is False
    assert privileges.dropped_to() is None


def test_a_drop_without_no_new_privs_says_so(caplog: pytest.LogCaptureFixture) -> None:
    system = FakeSystem(refuse="no_new_privs")
    block = privileges.drop_root("ledpanel", system.calls())
    assert block["dropped"] is True and "no_new_privs refused" in block["reason"]
    privileges.log(block)
    assert caplog.records[-1].levelname == "WARNING"


PROBE = textwrap.dedent('''
    import os
    from pathlib import Path

    from shared.plugin_api.base_plugin import BasePlugin

    with open(os.environ["ORDER_EVENTS"], "a") as events:  # at import: plugin code runs
        events.write("plugin imported\\n")


    class Probe(BasePlugin):
        def update(self):
            pass

        def display(self, force_clear=False):
            return False
''')


def test_the_panel_opens_then_root_is_dropped_then_plugins_load(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = tmp_path / "events"
    monkeypatch.setenv("ORDER_EVENTS", str(events))
    instance = _probe_instance(tmp_path)
    system = FakeSystem()
    system.log = _Recorder(events)  # type: ignore[assignment]
    monkeypatch.setattr(privileges, "SYSTEM", system.calls())
    from display_service.matrix import select

    real_open = select.open_backend

    def open_backend(*args: Any, **kwargs: Any) -> Any:
        opened = real_open(*args, **kwargs)
        events.open("a").write("panel opened\n")
        return opened

    monkeypatch.setattr(select, "open_backend", open_backend)
    paths = resolve_paths(config_dir=str(instance.config_dir),
                          cache_dir=str(instance.cache_dir),
                          plugins_dir=str(instance.plugins_dir))
    source = ConfigSource(ConfigStore(paths))
    config, _ = daemon.read_config(source)
    bus = Bus(paths.cache_dir)
    loop = daemon.build_loop(argparse.Namespace(headless=True, emulator=False), paths, bus,
                             config, source, Inbox(), None)
    assert loop.plugins.instances
    assert events.read_text().splitlines() == [
        "panel opened", "setgroups [44, 998]", "setresgid (998, 998, 998)",
        "setresuid (999, 999, 999)", "no_new_privs None", "plugin imported"]
    assert bus.read(HARDWARE_STATUS)["privileges"]["dropped"] is True


class _Recorder(list):  # type: ignore[type-arg]
    """The fake kernel's log, written to the events file as it grows."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def append(self, item: str) -> None:
        super().append(item)
        with self.path.open("a") as events:
            events.write(item + "\n")


def _probe_instance(tmp_path: Path) -> Instance:
    instance = Instance(tmp_path)
    folder = instance.plugins_dir / "probe"
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({
        "id": "probe", "name": "Probe", "version": "1.0.0", "author": "tests",
        "entry_point": "manager.py", "class_name": "Probe", "display_modes": ["probe"],
        "compatible_versions": [">=3.0.0"]}))
    (folder / "manager.py").write_text(PROBE)
    config = json.loads((ROOT / "config" / "config.template.json").read_text())
    config["probe"] = {"enabled": True}
    instance.write_config(config)
    return instance


def test_after_a_drop_the_hang_restart_exits_for_systemd_instead_of_exec(
        monkeypatch: pytest.MonkeyPatch) -> None:
    done: list[tuple[str, Any]] = []

    def fake_exit(status: int) -> None:
        done.append(("exit", status))
        raise SystemExit(status)

    def fake_execv(path: str, argv: list[str]) -> None:
        done.append(("exec", argv))
        raise SystemExit(0)

    monkeypatch.setattr(os, "_exit", fake_exit)
    monkeypatch.setattr(os, "execv", fake_execv)
    with pytest.raises(SystemExit):
        containment.restart()
    assert done[-1][0] == "exec"  # still root (or never was): in place, as before
    monkeypatch.setattr(privileges, "_dropped_to", "ledpanel")
    with pytest.raises(SystemExit):
        containment.restart()
    assert done[-1] == ("exit", privileges.EXIT_RESTART)


def test_a_real_daemon_that_cannot_drop_says_why_in_its_status(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    instance = Instance(tmp_path)
    root = os.geteuid() == 0
    if root:  # here the reason is a user that does not exist
        monkeypatch.setenv("LEDPANEL_DISPLAY_USER", "no-such-ledpanel-user")
    display = start_display(instance)
    try:
        status = Bus(instance.cache_dir).wait_for(
            HARDWARE_STATUS, lambda record: bool(record and "privileges" in record),
            timeout=30)
        assert status, display.output()
        block = status["privileges"]
        assert block["dropped"] is False
        if root:
            assert block["user"] == "root"
            assert block["reason"].startswith("user 'no-such-ledpanel-user' does not exist")
            assert "WARNING display_service.privileges: user 'no-such-ledpanel-user'" \
                in _wait_output(display, "display_service.privileges: ")
        else:
            assert block["reason"].startswith("not started as root")
    finally:
        assert display.stop() == 0, display.output()


def _wait_output(display: Any, text: str) -> str:
    deadline = time.monotonic() + 20
    while text not in display.output() and time.monotonic() < deadline:
        time.sleep(0.05)
    return display.output()
