"""scripts/bootstrap.sh, the one-line install: clone (or fetch an archive), then install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_commands import write_fake
from tests.system.install_sandbox import ROOT, Sandbox

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="sets ownership: needs root")

BOOTSTRAP = ROOT / "scripts" / "bootstrap.sh"
# What the script itself needs on a fresh image without git.
TOOLS = ("bash", "tar", "gzip", "mkdir", "rm", "mv", "id", "dirname", "ls", "env")

CURL = '''
import io, tarfile
data = io.BytesIO()
with tarfile.open(fileobj=data, mode="w:gz") as archive:
    archive.add(os.environ["FAKE_ARCHIVE_SOURCE"], arcname="ledpanel-main")
sys.stdout.buffer.write(data.getvalue())
'''


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                   cwd=cwd, check=True, capture_output=True)


def bootstrap(box: Sandbox, path: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PATH": path, "FAKE_COMMANDS_LOG": str(box.log),
            "FAKE_ROOT": str(box.root), "LEDPANEL_MATRIX_SOURCE": str(box.lib),
            "LEDPANEL_REPO": str(box.source), "LEDPANEL_ROOT": str(box.root),
            "LEDPANEL_PYTHON": sys.executable, **env}
    return subprocess.run(["bash", str(BOOTSTRAP)], env=full, capture_output=True, text=True,
                          timeout=120, check=False)


def test_clones_the_repository_and_installs(tmp_path: Path) -> None:
    box = Sandbox(tmp_path)
    git(box.source, "init", "-q", "-b", "main")
    git(box.source, "add", "-A")
    git(box.source, "commit", "-q", "-m", "release")
    done = bootstrap(box, f"{box.bin}{os.pathsep}{os.environ['PATH']}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "cloning" in done.stderr and "Installed." in done.stdout
    assert (box.root / "opt/ledpanel/.git").is_dir()
    again = bootstrap(box, f"{box.bin}{os.pathsep}{os.environ['PATH']}")
    assert "already in" in again.stderr
    assert "Nothing to do: everything was already installed." in again.stdout


def tools_without_git(tmp_path: Path) -> Path:
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in TOOLS:
        found = shutil.which(name)
        assert found, name
        (tools / name).symlink_to(found)
    return tools


def test_without_git_it_installs_git_with_apt_then_clones(tmp_path: Path) -> None:
    box = Sandbox(tmp_path)
    git(box.source, "init", "-q", "-b", "main")
    git(box.source, "add", "-A")
    git(box.source, "commit", "-q", "-m", "release")
    real_git = shutil.which("git")
    assert real_git
    done = bootstrap(box, f"{box.bin}{os.pathsep}{tools_without_git(tmp_path)}",
                     FAKE_APT_GIT=real_git)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "git is missing: installing it with apt-get" in done.stderr
    assert ["install", "-y", "-q", "git"] == [c["argv"] for c in box.calls()
                                              if c["cmd"] == "apt-get"][1]
    assert (box.root / "opt/ledpanel/.git").is_dir() and "Installed." in done.stdout


def test_without_git_and_apt_it_fetches_the_archive(tmp_path: Path) -> None:
    box = Sandbox(tmp_path)
    tools = tools_without_git(tmp_path)
    write_fake(box.bin, "curl", CURL)
    box.bin.joinpath("python3").unlink()  # the installer below runs as LEDPANEL_PYTHON
    done = bootstrap(box, f"{box.bin}{os.pathsep}{tools}", FAKE_APT_FAIL="1",
                     FAKE_ARCHIVE_SOURCE=str(box.source))
    assert "git is missing: installing it with apt-get" in done.stderr
    assert "fetching an archive instead" in done.stderr
    assert (box.root / "opt/ledpanel/scripts/install").is_file()
    # The installer ran from the fetched copy and stopped where apt-get failed, saying so.
    assert done.returncode == 1 and "--from packages" in done.stdout
    assert [c["argv"][-1] for c in box.calls() if c["cmd"] == "curl"] == [
        f"{box.source}/archive/refs/heads/main.tar.gz"]
