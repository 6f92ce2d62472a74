"""Through the real daemons: a plugin's dependency is there for the plugin in the display,
absent from the web daemon's environment, gone with the plugin; a .pth package is refused
and never runs; a requirements.txt reaching outside the plugin is refused, its target
unread. pip is real and offline (the daemons inherit ``PIP_NO_INDEX``/``PIP_FIND_LINKS``)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemons import ROOT
from tests.web_service.store.ops_daemons import OpsStack, ops_stack, push_plugin, serve_registry
from tests.web_service.store.repo_host import RepoHost
from tests.web_service.store.wheels import (
    build_wheel,
    offline_pip_env,
    remove_from_shared_environment,
)

pytestmark = pytest.mark.timeout(300)

MANAGER = '''"""A store test plugin drawing in the colour its dependency gives."""
from src.plugin_system.base_plugin import BasePlugin
import ledpanel_probe_dep


class SampleStorePlugin(BasePlugin):
    def update(self):
        pass

    def display(self, force_clear=False):
        self.display_manager.draw.rectangle([0, 0, 3, 3], fill=ledpanel_probe_dep.COLOUR)
        self.display_manager.update_display()
'''


@pytest.fixture
def ops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[OpsStack]:
    wheels = tmp_path / "wheels"
    build_wheel(wheels, "ledpanel-probe-dep", "1.0",
                {"ledpanel_probe_dep/__init__.py": "COLOUR = (0, 255, 0)\n"})
    build_wheel(wheels, "ledpanel-pth-probe", "1.0", {
        "ledpanel_pth_probe.pth": f"import os; open({str(tmp_path / 'pth-ran')!r}, 'w')\n"})
    for key, value in offline_pip_env(wheels).items():
        monkeypatch.setenv(key, value)  # before the daemons start: they inherit it
    (tmp_path / "secret.txt").write_text("SECRET-FIRST-LINE\n")
    with RepoHost() as host:
        push_plugin(host, "probe", requirements="ledpanel-probe-dep==1.0\n",
                    extra={"manager.py": MANAGER.encode()})
        push_plugin(host, "pthplug", requirements="ledpanel-pth-probe\n")
        push_plugin(host, "reacher", requirements=f"pytz\n-r {tmp_path / 'secret.txt'}\n")
        serve_registry(host, "probe", "pthplug", "reacher")
        try:
            with ops_stack(tmp_path / "instance", host) as stack:
                yield stack
        finally:
            remove_from_shared_environment("ledpanel-probe-dep", "ledpanel-pth-probe")


def _importable_in_a_fresh_daemon_interpreter(module: str) -> bool:
    """Whether ``module`` imports in the interpreter and environment the web daemon runs."""
    return subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                          capture_output=True, timeout=60).returncode == 0


def test_a_plugins_dependency_lives_and_leaves_with_the_plugin(ops: OpsStack,
                                                               tmp_path: Path) -> None:
    answer = ops.post("install", {"plugin_id": "probe", "wait": 60})
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["display"]["result"] == "loaded"
    assert "probe" in ops.state()["loaded_plugins"], "the display imported its dependency"
    deps = ops.instance.plugins_dir / "probe" / ".ledpanel-deps"
    assert (deps / "ledpanel_probe_dep" / "__init__.py").is_file()
    assert not _importable_in_a_fresh_daemon_interpreter("ledpanel_probe_dep")

    answer = ops.post("install", {"plugin_id": "pthplug", "wait": 60})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error_code"] == "UNSAFE_REQUIREMENTS"
    assert ".pth" in answer.json()["message"]
    assert not (ops.instance.plugins_dir / "pthplug").exists()
    assert _importable_in_a_fresh_daemon_interpreter("os")
    assert not (tmp_path / "pth-ran").exists(), "no interpreter ran the .pth file"

    answer = ops.post("install", {"plugin_id": "reacher", "wait": 60})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error_code"] == "UNSAFE_REQUIREMENTS"
    assert answer.json()["message"].startswith("reacher: requirements.txt line 2: ")
    assert "SECRET" not in answer.text

    job = ops.run("uninstall", {"plugin_id": "probe"})
    assert job["state"] == "done", job
    assert not deps.exists() and not (ops.instance.plugins_dir / "probe").exists()
