"""Dependency reinstalls share one time budget; the supervisor is named or detected."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from shared.core_update.host_steps import Budget, StepError, reinstall, supervisor
from tests.fake_commands import calls, fake_command


def test_every_reinstall_of_one_budget_shares_it(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("flask\n")
    (tmp_path / "web_service").mkdir()
    (tmp_path / "web_service" / "requirements.txt").write_text("waitress\n")
    bin_dir = tmp_path / ".venv" / "bin"
    fake_command(bin_dir, "python", extra="import time\ntime.sleep(0.6)")  # a slow pip
    began = time.monotonic()
    with pytest.raises(StepError, match="took longer than|no time left"):
        reinstall(tmp_path, Budget(1.0))
    # the first install took 0.6 s of the 1 s; the second was stopped at the budget's end
    assert time.monotonic() - began < 3
    assert len(calls(bin_dir, "python")) == 2


def test_a_budget_large_enough_runs_each_dependency_file(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("flask\n")
    bin_dir = tmp_path / ".venv" / "bin"
    fake_command(bin_dir, "python")
    reinstall(tmp_path, Budget(30))
    assert [c[-2:] for c in calls(bin_dir, "python")] == [
        ["--editable", str(tmp_path)], ["-r", str(tmp_path / "requirements.txt")]]


def test_a_failing_pip_names_its_output(tmp_path: Path) -> None:
    fake_command(tmp_path / ".venv" / "bin", "python", exit_code=1,
                 output="ERROR: No matching distribution found for nothing\n")
    with pytest.raises(StepError, match="No matching distribution"):
        reinstall(tmp_path, Budget(30))


def test_the_supervisor_is_named_else_detected() -> None:
    assert supervisor({"LEDPANEL_SUPERVISOR": "dev", "INVOCATION_ID": "x"}) == "dev"
    assert supervisor({"LEDPANEL_SUPERVISOR": "systemd"}) == "systemd"
    assert supervisor({"INVOCATION_ID": "abc"}) == "systemd"
