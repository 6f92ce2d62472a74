"""The update unit's time limit exceeds the worst case of one update and its rollback,
and an update with no verdict past the lost-timeout is reported lost."""

from __future__ import annotations

import re
import time
from pathlib import Path

from shared.core_update import limits
from shared.core_update.state import report

UNIT = Path(__file__).resolve().parents[3] / "systemd" / "ledpanel-update.service"


def _unit_timeout_seconds() -> float:
    match = re.search(r"^TimeoutStartSec=(\d+)min$", UNIT.read_text(), re.MULTILINE)
    assert match, "TimeoutStartSec=<N>min not found in the update unit"
    return int(match.group(1)) * 60.0


def test_the_worst_case_is_27_and_a_half_minutes_under_the_units_30() -> None:
    assert limits.WORST_CASE_SECONDS == 27.5 * 60
    assert _unit_timeout_seconds() == limits.UNIT_TIMEOUT_SECONDS == 30 * 60
    assert limits.WORST_CASE_SECONDS < _unit_timeout_seconds()
    # both reinstalls (the pull's and the rollback's) are in it, each a whole budget
    steps = dict(limits.WORST_CASE_STEPS)
    assert steps["pull: dependency reinstall"] == steps["rollback: dependency reinstall"] == 600
    assert limits.LOST_TIMEOUT > _unit_timeout_seconds()


def test_no_verdict_after_the_lost_timeout_is_lost_and_says_what_to_do() -> None:
    started = time.time() - limits.LOST_TIMEOUT - 1
    shown = report({"result": "verifying", "phase": "verifying", "started_at": started})
    assert shown["lost"] is True and shown["running"] is False
    assert "Update Code again" in shown["message"]
    fresh = report({"result": "verifying", "phase": "verifying", "started_at": time.time()})
    assert fresh["lost"] is False and fresh["running"] is True
    done = report({"result": "updated", "phase": "done", "started_at": started})
    assert done["lost"] is False and done["running"] is False
