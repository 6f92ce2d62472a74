"""The weekly automatic update on an installed device: the core first (never stashing),
then the plugins only after the core update's verdict is updated or up to date.

``sudo`` is faked by a script that runs the updater as the ``ledpanel-update`` unit
would (synchronously), on a real install checkout."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from shared.core_update.state import read_state
from shared.paths import Paths
from tests.fake_commands import fake_command
from tests.shared.core_update.repos import ROOT, Repos, make_repos
from web_service.app import create_app
from web_service.settings import WebSettings
from web_service.store.auto_core import start_core_first
from web_service.store.auto_update import auto_updater


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Repos, Flask]]:
    repos = make_repos(tmp_path)
    for name, value in repos.env().items():
        if name.startswith(("LEDPANEL_", "GIT_")) or name == "PATH":
            monkeypatch.setenv(name, value)
    fake_command(repos.bin, "sudo", extra=(
        "import subprocess\n"
        "subprocess.run([sys.executable, '-m', 'shared.core_update', '--root', "
        f"{str(repos.install)!r}, '--cache-dir', {str(repos.cache)!r}], cwd={str(ROOT)!r})\n"))
    paths = Paths(root=repos.install, config_dir=tmp_path / "config", cache_dir=repos.cache)
    yield repos, create_app(WebSettings(paths=paths, ack_timeout=0.5))


def test_the_core_is_updated_first_then_the_plugins(installed: tuple[Repos, Flask]) -> None:
    repos, app = installed
    new = repos.release("second", {"core.py": "VERSION = 2\n"})
    assert "started; plugins follow its verdict" in (start_core_first(app) or "")
    state = read_state(repos.cache)
    assert state and (state["result"], state["trigger"]) == ("updated", "auto")
    assert repos.head() == new
    timer = auto_updater(app)
    assert timer.tick() == "plugins"
    assert read_state(repos.cache)["plugins_handled"] is True  # type: ignore[index]
    assert timer.tick() is None  # once only


def test_local_core_changes_block_and_plugins_are_left_alone(
        installed: tuple[Repos, Flask]) -> None:
    repos, app = installed
    old = repos.head()
    (repos.install / "core.py").write_text("edited on the device\n")
    repos.release("second", {"core.py": "VERSION = 2\n"})
    start_core_first(app)
    assert read_state(repos.cache)["result"] == "blocked"  # type: ignore[index]
    assert repos.head() == old
    assert (repos.install / "core.py").read_text() == "edited on the device\n"
    timer = auto_updater(app)
    assert timer.tick() == "core_refused"
    summary = timer.status({})["last_run"]["summary"]
    assert "core update blocked" in summary and "plugins not updated" in summary


def test_a_development_run_updates_plugins_only(installed: tuple[Repos, Flask],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    repos, app = installed
    monkeypatch.setenv("LEDPANEL_SUPERVISOR", "dev")
    repos.release("second", {"core.py": "VERSION = 2\n"})
    assert start_core_first(app) is None
    assert read_state(repos.cache) is None
