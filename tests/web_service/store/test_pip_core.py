"""The privileged pip wrapper runs only for the core's two requirements folders, and only
when no one but root (or the user running it) can change what it would run."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "ledpanel-pip-core"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A project copy: the wrapper, both requirements files, a python that records args."""
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    (project / "web_service").mkdir()
    shutil.copy2(SCRIPT, project / "scripts" / "ledpanel-pip-core")
    (project / "requirements.txt").write_text("flask\n")
    (project / "web_service" / "requirements.txt").write_text("flask\n")
    venv = project / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text(f'#!/bin/sh\necho "$@" > "{project}/ran"\n')
    (venv / "python").chmod(0o755)
    return project


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(root / "scripts" / "ledpanel-pip-core"), *args],
                          capture_output=True, text=True, timeout=60, cwd=root.parent)


@pytest.mark.parametrize("folder", ["project", "project/web_service", "project/scripts/.."])
def test_core_folders_are_installed(root: Path, folder: str) -> None:
    result = _run(root, folder)
    assert result.returncode == 0, result.stderr
    expected = (root.parent / folder).resolve() / "requirements.txt"
    assert (root / "ran").read_text().split() == [
        "-m", "pip", "install", "--disable-pip-version-check", "-r", str(expected)]


@pytest.mark.parametrize("folder", ["/tmp", "project/scripts", "project/web_service/..x",
                                    "project/../project/web_service/../..", ""])
def test_other_folders_are_refused(root: Path, folder: str) -> None:
    result = _run(root, folder)
    assert result.returncode == 2
    assert "ledpanel-pip-core:" in result.stderr
    assert not (root / "ran").exists()


def test_a_link_to_the_core_file_from_elsewhere_is_refused(root: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "requirements.txt").symlink_to(root / "requirements.txt")
    result = _run(root, str(elsewhere))
    assert result.returncode == 2 and not (root / "ran").exists()


def test_a_linked_requirements_file_in_the_root_is_refused(root: Path, tmp_path: Path) -> None:
    (tmp_path / "evil.txt").write_text("evil\n")
    (root / "requirements.txt").unlink()
    (root / "requirements.txt").symlink_to(tmp_path / "evil.txt")
    result = _run(root, str(root))
    assert result.returncode == 2 and "not a regular file" in result.stderr
    assert not (root / "ran").exists()


def test_no_arguments_is_a_usage_error(root: Path) -> None:
    result = _run(root)
    assert result.returncode == 2 and "usage" in result.stderr


@pytest.mark.parametrize("where", [".venv/bin", ".venv/bin/python", ".venv",
                                   "requirements.txt", "scripts/ledpanel-pip-core"])
def test_a_file_others_can_write_is_refused(root: Path, where: str) -> None:
    path = root / where
    path.chmod(path.stat().st_mode | stat.S_IWGRP)
    result = _run(root, str(root))
    assert result.returncode == 2, result.stderr
    assert f"refusing to run: {path} is writable by its group or by others" in result.stderr
    assert not (root / "ran").exists()


def test_a_planted_file_in_the_venv_is_refused(root: Path) -> None:
    site = root / ".venv" / "lib" / "site-packages"
    site.mkdir(parents=True)
    (site / "pip.py").write_text("print('owned')\n")
    (site / "pip.py").chmod(0o666)
    result = _run(root, str(root))
    assert result.returncode == 2 and "pip.py is writable" in result.stderr
    assert not (root / "ran").exists()


def test_a_folder_above_the_root_others_can_write_is_refused(root: Path) -> None:
    root.parent.chmod(0o777)  # world-writable without the sticky bit: the root can be swapped
    try:
        result = _run(root, str(root))
    finally:
        root.parent.chmod(0o700)
    assert result.returncode == 2
    assert f"{root.parent} is writable by its group or by others" in result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_file_owned_by_another_user_is_refused_when_run_as_root(root: Path) -> None:
    os.chown(root / ".venv" / "bin" / "python", 65534, 65534)
    result = _run(root, str(root))
    assert result.returncode == 2
    assert "python is owned by uid 65534, not by root" in result.stderr
    assert not (root / "ran").exists()


def test_the_wrapper_runs_isolated_from_the_callers_environment(root: Path,
                                                                 tmp_path: Path) -> None:
    planted = tmp_path / "planted"
    planted.mkdir()
    (planted / "signal.py").write_text(f"open({str(tmp_path / 'owned')!r}, 'w').close()\n")
    script = root / "scripts" / "ledpanel-pip-core"
    assert script.read_text().splitlines()[0] == "#!/usr/bin/python3 -I"
    result = subprocess.run([str(script), str(root)], capture_output=True, text=True,
                            timeout=60, env={**os.environ, "PYTHONPATH": str(planted)})
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "owned").exists() and (root / "ran").exists()


def test_a_symlinked_venv_is_refused(root: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere-venv"
    (root / ".venv").rename(elsewhere)
    (root / ".venv").symlink_to(elsewhere, target_is_directory=True)
    result = _run(root, str(root))
    assert result.returncode == 2
    assert (f"refusing to run: {root / '.venv'} is a symbolic link (to {elsewhere}); it must "
            "be a folder") in result.stderr
    assert not (root / "ran").exists()


def test_a_link_to_the_system_python_is_accepted(root: Path) -> None:
    (root / ".venv" / "bin" / "python3").symlink_to("/usr/bin/python3")
    result = _run(root, str(root))
    assert result.returncode == 0, result.stderr


def _outside(tmp_path: Path, mode: int = 0o755) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir(mode=mode)
    folder.chmod(mode)
    return folder


def test_a_link_out_of_the_venv_to_a_writable_file_is_refused(root: Path,
                                                              tmp_path: Path) -> None:
    target = _outside(tmp_path) / "python"
    target.write_text("#!/bin/sh\n")
    target.chmod(0o777)
    link = root / ".venv" / "bin" / "python3"
    link.symlink_to(target)
    result = _run(root, str(root))
    assert result.returncode == 2
    assert (f"refusing to run: {link} leads to {target}: {target} is writable by its group "
            "or by others") in result.stderr
    assert not (root / "ran").exists()


def test_a_link_through_a_writable_folder_is_refused(root: Path, tmp_path: Path) -> None:
    # the hop in the middle could be re-pointed by anyone in the folder's group
    middle = _outside(tmp_path, 0o775) / "python"
    middle.symlink_to("/usr/bin/python3")
    link = root / ".venv" / "bin" / "python3"
    link.symlink_to(middle)
    result = _run(root, str(root))
    assert result.returncode == 2
    assert f"{link} leads to {middle}: {middle.parent} is writable" in result.stderr
    assert not (root / "ran").exists()


def test_a_link_to_a_folder_outside_the_venv_is_refused(root: Path, tmp_path: Path) -> None:
    site = root / ".venv" / "lib" / "site-packages"
    site.mkdir(parents=True)
    (site / "pip").symlink_to(_outside(tmp_path), target_is_directory=True)
    result = _run(root, str(root))
    assert result.returncode == 2
    assert f"{site / 'pip'} leads to {tmp_path / 'outside'}, a folder outside" in result.stderr
    assert not (root / "ran").exists()


def test_an_editable_install_outside_the_venv_is_checked(root: Path, tmp_path: Path) -> None:
    site = root / ".venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    source = _outside(tmp_path)
    (source / "pip.py").write_text("print('owned')\n")
    (site / "mine.pth").write_text(f"# an editable install\nimport os\n{source}\n")
    assert _run(root, str(root)).returncode == 0  # a folder as safe as the venv passes
    (root / "ran").unlink()
    (source / "pip.py").chmod(0o666)
    result = _run(root, str(root))
    assert result.returncode == 2
    assert (f"refusing to run: {site / 'mine.pth'} puts {source} on the path: "
            f"{source / 'pip.py'} is writable by its group or by others") in result.stderr
    assert not (root / "ran").exists()
