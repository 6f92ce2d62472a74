"""The core update on real git repositories: an origin, a clone as the install, the
updater run as the unit runs it, systemctl and the venv's pip faked."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from shared.core_update.state import read_state
from shared.history import HistoryReader, history_dir
from tests.fake_commands import fake_command
from tests.shared.core_update.repos import Repos, git, make_repos, run_update

UNITS = ["restart", "ledpanel-display.service", "ledpanel-web.service"]
BRIDGE = ["try-restart", "ledpanel-mqtt.service"]  # the MQTT bridge, only when it runs


@pytest.fixture
def repos(tmp_path: Path) -> Repos:
    return make_repos(tmp_path)


def verdict(repos: Repos) -> dict:
    state = read_state(repos.cache)
    assert state is not None
    return state


def test_nothing_new_is_up_to_date_and_restarts_nothing(repos: Repos) -> None:
    done = run_update(repos)
    assert done.returncode == 0, done.stderr
    assert verdict(repos)["result"] == "up_to_date"
    assert repos.systemctl_calls() == []


def test_a_healthy_release_is_pulled_restarted_and_recorded(repos: Repos) -> None:
    old = repos.head()
    new = repos.release("second", {"core.py": "VERSION = 2\n"})
    done = run_update(repos, {"trigger": "button", "stash": False})
    assert done.returncode == 0, done.stderr
    state = verdict(repos)
    assert (state["result"], state["from"], state["to"]) == ("updated", old, new)
    assert repos.head() == new
    assert repos.systemctl_calls() == [UNITS, BRIDGE]
    assert repos.pip_calls() == []  # no dependency file changed
    entries, _ = HistoryReader(history_dir(repos.cache)).entries(limit=5, kind="core_update")
    assert [(e["what"], e["result"], e["update_result"]) for e in entries] == [
        ("button", "success", "updated")]


def test_changed_dependency_files_are_reinstalled(repos: Repos) -> None:
    repos.release("new dependency", {"pyproject.toml": "[project]\nname = 'y'\n"})
    assert run_update(repos).returncode == 0
    pip = repos.pip_calls()
    assert len(pip) == 1 and pip[0][:3] == ["-m", "pip", "install"]
    assert pip[0][-2:] == ["--editable", str(repos.install)]
    assert verdict(repos)["dependencies_changed"] is True


def test_a_release_failing_its_health_check_is_rolled_back(repos: Repos) -> None:
    old = repos.head()
    (repos.install / "plugin-repos" / "clock" / "manifest.json").write_text('{"mine": 1}\n')
    repos.release("broken", {"pyproject.toml": "[project]\nname = 'z'\n", "core.py": "x\n"},
                  healthy=False)
    done = run_update(repos)
    assert done.returncode == 1
    state = verdict(repos)
    assert state["result"] == "rolled_back"
    assert "health check" in state["message"] and "broken" in state["message"]
    assert repos.head() == old
    assert (repos.install / "core.py").read_text() == "VERSION = 1\n"
    # the pull's reinstall, then the rollback's of the old dependency files
    assert len(repos.pip_calls()) == 2
    assert repos.systemctl_calls() == [UNITS, BRIDGE, UNITS, BRIDGE]
    # the plugin folder's own change was left alone
    assert "mine" in (repos.install / "plugin-repos" / "clock" / "manifest.json").read_text()


def test_local_core_changes_block_the_automatic_update(repos: Repos) -> None:
    old = repos.head()
    (repos.install / "core.py").write_text("VERSION = 'edited'\n")
    repos.release("second", {"core.py": "VERSION = 2\n"})
    # the automatic update never stashes, even when asked to
    run_update(repos, {"trigger": "auto", "stash": True, "plugins_after": True})
    state = verdict(repos)
    assert state["result"] == "blocked" and "core.py" in state["message"]
    assert repos.head() == old
    entries, _ = HistoryReader(history_dir(repos.cache)).entries(limit=5, kind="core_update")
    assert [(e["what"], e["result"], e["update_result"]) for e in entries] == [
        ("auto", "error", "blocked")]
    assert (repos.install / "core.py").read_text() == "VERSION = 'edited'\n"
    assert repos.systemctl_calls() == []


def test_changes_in_plugin_folders_and_modes_do_not_block(repos: Repos) -> None:
    (repos.install / "plugin-repos" / "clock" / "manifest.json").write_text('{"mine": 1}\n')
    (repos.install / "plugins" / "dev-link").mkdir()
    (repos.install / "plugins" / ".gitkeep").write_text("changed\n")
    os.chmod(repos.install / "core.py", 0o755)  # mode only
    new = repos.release("second", {"core.py": "VERSION = 2\n"})
    run_update(repos, {"trigger": "auto", "stash": False})
    assert verdict(repos)["result"] == "updated"
    assert repos.head() == new
    assert "mine" in (repos.install / "plugin-repos" / "clock" / "manifest.json").read_text()
    assert (repos.install / "plugins" / ".gitkeep").read_text() == "changed\n"


def test_update_code_stashes_core_changes_only(repos: Repos) -> None:
    (repos.install / "pyproject.toml").write_text("[project]\nname = 'edited'\n")
    (repos.install / "plugin-repos" / "clock" / "manifest.json").write_text('{"mine": 1}\n')
    new = repos.release("second", {"core.py": "VERSION = 2\n"})
    run_update(repos, {"trigger": "button", "stash": True})
    state = verdict(repos)
    assert state["result"] == "updated" and repos.head() == new
    assert "stashed local changes to pyproject.toml" in state["stashed"]
    assert "plugin-repos/ left as they were" in state["stashed"]
    assert "ledpanel update" in git(repos.install, "stash", "list")
    assert "mine" in (repos.install / "plugin-repos" / "clock" / "manifest.json").read_text()
    assert git(repos.install, "stash", "show", "--name-only") == "pyproject.toml"


def test_a_pull_cut_off_half_way_is_rollback_failed_without_restart(repos: Repos) -> None:
    old = repos.head()
    repos.release("second", {"core.py": "VERSION = 2\n"})
    real_git = shutil.which("git")
    # git dies in the middle of the merge: one file written, the index still locked
    fake_command(repos.bin, "git", extra=(
        "import os\n"
        "if 'merge' in argv:\n"
        f"    root = argv[argv.index('-C') + 1]\n"
        "    open(os.path.join(root, 'core.py'), 'w').write('VERS')\n"
        "    open(os.path.join(root, '.git', 'index.lock'), 'w').close()\n"
        "    sys.stderr.write('fatal: killed\\n'); sys.exit(128)\n"
        f"os.execv({real_git!r}, [{real_git!r}, *argv])\n"))
    done = run_update(repos)
    assert done.returncode == 1
    state = verdict(repos)
    assert state["result"] == "rollback_failed"
    assert "half-way" in state["message"] and "not restarted" in state["message"]
    assert repos.systemctl_calls() == []
    assert repos.head() == old


def test_a_restart_that_fails_means_the_check_never_started(repos: Repos) -> None:
    old = repos.head()
    fake_command(repos.bin, "systemctl", exit_code=1, output="Failed to restart: denied\n")
    repos.release("second", {"core.py": "VERSION = 2\n"})
    run_update(repos)
    state = verdict(repos)
    assert state["result"] == "rollback_failed"
    assert "health check never started" in state["message"]
    assert repos.head() == old
    assert (repos.install / "core.py").read_text() == "VERSION = 1\n"


def test_on_a_development_run_the_restart_is_skipped_and_said(repos: Repos) -> None:
    repos.release("second", {"core.py": "VERSION = 2\n"})
    run_update(repos, LEDPANEL_SUPERVISOR="dev")
    state = verdict(repos)
    assert state["result"] == "updated" and "restart skipped" in state["message"]
    assert repos.systemctl_calls() == []


def test_the_state_file_is_whole_json_at_the_end(repos: Repos) -> None:
    run_update(repos)
    text = (repos.cache / "core_update" / "state.json").read_text()
    assert json.loads(text)["phase"] == "done"


def test_a_link_in_place_of_the_state_folder_is_refused(repos: Repos, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    repos.cache.mkdir()
    (repos.cache / "core_update").symlink_to(elsewhere)
    (elsewhere / "request.json").write_text('{"trigger": "cli"}')  # root must not remove it
    repos.release("second", {"core.py": "VERSION = 2\n"})
    done = run_update(repos)
    assert done.returncode == 1 and "is not a folder" in done.stderr
    assert [p.name for p in elsewhere.iterdir()] == ["request.json"]
    assert repos.systemctl_calls() == []


def test_a_checkout_git_cannot_read_fails_with_git_s_words(repos: Repos) -> None:
    shutil.rmtree(repos.install / ".git" / "refs")
    (repos.install / ".git" / "HEAD").write_text("garbage\n")
    run_update(repos)
    state = verdict(repos)
    assert state["result"] == "failed" and "git -C" in state["message"]


def test_a_commit_of_the_checkout_s_own_is_blocked_not_a_partial_pull(repos: Repos) -> None:
    (repos.install / "core.py").write_text("local fix\n")
    git(repos.install, "commit", "-q", "-am", "a local fix")
    mine = repos.head()
    repos.release("second", {"core.py": "VERSION = 2\n"})
    run_update(repos)
    state = verdict(repos)
    assert state["result"] == "blocked" and "commits of its own" in state["message"]
    assert repos.head() == mine and repos.systemctl_calls() == []
