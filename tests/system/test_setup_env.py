"""scripts/setup-env: extras only add, so switching between the ways of starting never
reinstalls what is already there. pip is replaced by a recorder inside a stand-in
environment (the install itself is pip's business; what we decide is when to call it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SETUP_ENV = Path(__file__).resolve().parents[2] / "scripts" / "setup-env"

FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "$*" >> "$PIP_LOG"; exit 0; fi
if [ "$1" = "-m" ] && [ "$2" = "compileall" ]; then exit 0; fi
exec {python} "$@"
"""


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    python = venv / "bin" / "python"
    python.write_text(FAKE_PYTHON.format(python=sys.executable))
    python.chmod(0o755)
    return venv


def setup(venv: Path, profile: str, extras: str = "") -> list[str]:
    """Run setup-env; return the pip commands it ran."""
    log = venv.parent / "pip.log"
    log.unlink(missing_ok=True)
    env = {**os.environ, "LEDPANEL_VENV": str(venv), "PIP_LOG": str(log),
           "LEDPANEL_EXTRAS": extras}
    done = subprocess.run(["bash", str(SETUP_ENV), profile], env=env, text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return log.read_text().splitlines() if log.exists() else []


def extras_of(command: str) -> set[str]:
    target = command.split("-e ", 1)[1]
    return set(target[target.index("[") + 1:-1].split(",")) if "[" in target else set()


def test_switching_extras_on_and_off_installs_once_each_way(venv: Path) -> None:
    first = setup(venv, "dev", "emulator")  # scripts/dev --emulator
    assert len(first) == 1 and extras_of(first[0]) == {"emulator"}
    assert setup(venv, "dev") == []  # plain scripts/dev: the emulator stays, no reinstall
    assert setup(venv, "dev", "emulator") == []  # and back again
    test = setup(venv, "test")  # the test tools are new: one install, keeping the emulator
    assert len(test) == 1 and extras_of(test[0]) == {"emulator", "test"}
    assert setup(venv, "dev") == [] and setup(venv, "test") == []


def test_a_broken_stamp_means_one_install_not_a_failure(venv: Path) -> None:
    assert len(setup(venv, "dev")) == 1
    (venv / ".ledpanel-install").write_text("garbage\n\n")
    again = setup(venv, "dev")
    assert len(again) == 1 and extras_of(again[0]) == set()
    assert setup(venv, "dev") == []
