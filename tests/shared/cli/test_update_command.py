"""``ledpanel update`` against the web app served on loopback over a real install
checkout; a development run, so the real updater runs detached."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from shared.core_update.state import read_state
from shared.paths import Paths
from tests.display_service.helpers import wait_until
from tests.shared.core_update.repos import ROOT, Repos, make_repos
from web_service.app import create_app
from web_service.settings import WebSettings

server_of: dict[str, Any] = {}  # the served app's server, by URL (to take it down)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Repos, str]]:
    repos = make_repos(tmp_path)
    for name, value in repos.env(LEDPANEL_SUPERVISOR="dev").items():
        if name.startswith(("LEDPANEL_", "GIT_")) or name == "PATH":
            monkeypatch.setenv(name, value)
    paths = Paths(root=repos.install, config_dir=tmp_path / "config", cache_dir=repos.cache)
    app = create_app(WebSettings(paths=paths, ack_timeout=0.5))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    server_of[url] = server
    yield repos, url
    server.shutdown()
    thread.join(5)


def ledpanel(repos: Repos, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shared.cli", "update", "--url", url, *args],
                          cwd=ROOT, env=repos.env(LEDPANEL_SUPERVISOR="dev"),
                          capture_output=True, text=True, timeout=120, check=False)


def test_update_follows_the_update_and_prints_the_verdict(served: tuple[Repos, str]) -> None:
    repos, url = served
    new = repos.release("second", {"core.py": "VERSION = 2\n"})
    done = ledpanel(repos, url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "update started" in done.stdout
    assert "updated: updated" in done.stdout
    assert repos.head() == new


def test_local_changes_block_unless_stashed(served: tuple[Repos, str]) -> None:
    repos, url = served
    (repos.install / "core.py").write_text("mine\n")
    new = repos.release("second", {"pyproject.toml": "[project]\nname = 'y'\n"})
    blocked = ledpanel(repos, url)
    assert blocked.returncode == 1 and "blocked: local changes" in blocked.stdout
    stashed = ledpanel(repos, url, "--stash")
    assert stashed.returncode == 0, stashed.stdout + stashed.stderr
    assert "stashed local changes to core.py" in stashed.stdout
    assert repos.head() == new


def test_a_broken_release_prints_rolled_back(served: tuple[Repos, str]) -> None:
    repos, url = served
    old = repos.head()
    repos.release("broken", {"core.py": "x\n"}, healthy=False)
    done = ledpanel(repos, url)
    assert done.returncode == 1 and "rolled_back:" in done.stdout
    assert repos.head() == old


def test_while_the_web_is_down_the_command_reads_the_bus(served: tuple[Repos, str],
                                                         tmp_path: Path) -> None:
    repos, url = served
    go = tmp_path / "go"
    # the release's health check waits until the test has taken the web down
    repos.release("second", {"check.sh": f"while [ ! -e {go} ]; do sleep 0.05; done\n"})
    command = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "update", "--url", url], cwd=ROOT,
        env=repos.env(LEDPANEL_SUPERVISOR="dev"), stdout=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: (read_state(repos.cache) or {}).get("phase") == "verifying",
                   timeout=30)
        server_of[url].shutdown()
        go.touch()
        out, _ = command.communicate(timeout=60)
    finally:
        command.kill()
    assert command.returncode == 0, out
    assert "updated: updated" in out
