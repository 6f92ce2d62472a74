"""Every time limit of one core update, and the worst case they add up to.

The ``ledpanel-update`` unit's ``TimeoutStartSec`` must exceed ``WORST_CASE_SECONDS``
(27.5 min): a test reads both. The worst case is a pull whose health check fails, so
every step runs to its limit and a rollback follows.
"""

from __future__ import annotations

GIT_LOCAL_TIMEOUT = 30.0  # one local git command: status, stash, merge, reset
FETCH_TIMEOUT = 90.0  # git fetch from the origin
PIP_BUDGET = 600.0  # every dependency reinstall of one pull, or of one rollback
RESTART_TIMEOUT = 45.0  # systemctl restart of both daemons
HEALTH_START_TIMEOUT = 60.0  # both daemons answer and the display renders a frame
STABLE_WINDOW = 90.0  # then neither daemon restarts for this long (no crash loop)
UNIT_TIMEOUT_SECONDS = 30 * 60  # TimeoutStartSec of systemd/ledpanel-update.service

# What the web waits past the start of an update before it calls it lost: the unit is
# stopped by systemd at its limit, so no verdict after that will ever come.
LOST_TIMEOUT = UNIT_TIMEOUT_SECONDS + 60.0

WORST_CASE_STEPS: tuple[tuple[str, float], ...] = (
    ("preflight: git status", GIT_LOCAL_TIMEOUT),
    ("preflight: git stash", GIT_LOCAL_TIMEOUT),
    ("pull: git fetch", FETCH_TIMEOUT),
    ("pull: git merge", GIT_LOCAL_TIMEOUT),
    ("pull: dependency reinstall", PIP_BUDGET),
    ("restart both daemons", RESTART_TIMEOUT),
    ("health check: start", HEALTH_START_TIMEOUT),
    ("health check: no crash loop", STABLE_WINDOW),
    ("rollback: git reset", GIT_LOCAL_TIMEOUT),
    ("rollback: dependency reinstall", PIP_BUDGET),
    ("rollback: restart both daemons", RESTART_TIMEOUT),
)
WORST_CASE_SECONDS = sum(seconds for _step, seconds in WORST_CASE_STEPS)
