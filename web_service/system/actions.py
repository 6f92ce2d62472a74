"""``POST /system/action``: each action's name, what it does under each supervisor.

Under systemd an action is a privileged command of ``privileged.PRIVILEGED_COMMANDS``;
under scripts/dev it is a request to the development supervisor (``dev_control``);
Update Code (``git_pull``) is the core update under both. Restarting the web answers
first and acts once the answer is sent (``Outcome.after``): the restart kills the
process that would answer.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.errors import LedpanelError, ValidationError
from shared.supervision import dev_control, privileged
from shared.supervision.supervisor import DEV, SYSTEMD
from web_service.system import core_update

logger = logging.getLogger(__name__)

# The existing system's names, so scripts written for it keep working.
ACTIONS = ("start_display", "stop_display", "restart_display_service", "restart_web_service",
           "reboot_system", "shutdown_system", "enable_autostart", "disable_autostart",
           "git_pull")
SYSTEMD_COMMANDS = {
    "start_display": (privileged.START_DISPLAY, "display service started"),
    "stop_display": (privileged.STOP_DISPLAY, "display service stopped"),
    "restart_display_service": (privileged.RESTART_DISPLAY, "display service restarted"),
    "enable_autostart": (privileged.ENABLE_AUTOSTART,
                         "both services now start when the system boots"),
    "disable_autostart": (privileged.DISABLE_AUTOSTART,
                          "the services no longer start when the system boots"),
    "reboot_system": (privileged.REBOOT_SYSTEM, "rebooting; the page reconnects when the "
                      "panel is back"),
    "shutdown_system": (privileged.SHUTDOWN_SYSTEM, "shutting down; unplug the panel once "
                        "its lights are off"),
}
RESTARTING_WEB = "restarting the web service; the page reconnects when it is back"
DEV_ANSWER_TIMEOUT = 30.0  # seconds; the supervisor's stop grace (10 s) twice, and more
# How long after the answer is handed to the server the web's own restart begins, so
# the answer's bytes leave before the process does.
AFTER_ANSWER_DELAY = 0.5


@dataclass
class Outcome:
    """What an action did, and what runs once its answer is sent."""

    data: dict[str, Any]
    message: str
    status: int = 200
    after: Callable[[], None] | None = None


def check_action(value: Any) -> str:
    """Return ``value`` if it names an action; else a 400 listing the known ones."""
    if isinstance(value, str) and value in ACTIONS:
        return value
    raise ValidationError(f"unknown action {str(value)[:80]!r}; use one of: "
                          + ", ".join(ACTIONS), error_code="UNKNOWN_ACTION",
                          details={"actions": list(ACTIONS)})


def perform(action: str, kind: str | None, cache_dir: Path) -> Outcome:
    """Do ``action`` under the supervisor ``kind``; raise ``LedpanelError`` when refused
    or when it failed."""
    if action == "git_pull":
        started = core_update.start_core_update(trigger="button", stash=True)
        return Outcome(started, str(started.get("message") or "core update started"), 202)
    if kind == SYSTEMD:
        return _under_systemd(action)
    if kind == DEV:
        return _under_dev(action, cache_dir)
    raise LedpanelError("the web service was started by hand, not by systemd or scripts/dev, "
                        "so there is nothing to ask; start and stop the daemons yourself",
                        error_code="NO_SUPERVISOR", status=409)


def _under_systemd(action: str) -> Outcome:
    data = {"action": action, "supervisor": SYSTEMD}
    if action == "restart_web_service":
        return Outcome(data, RESTARTING_WEB, 202, after=lambda: _later(
            lambda: privileged.start_detached(privileged.RESTART_WEB)))
    command, done = SYSTEMD_COMMANDS[action]
    output = privileged.run_privileged(command)
    return Outcome({**data, "command": privileged.shown(command), "output": output}, done)


def _under_dev(action: str, cache_dir: Path) -> Outcome:
    data = {"action": action, "supervisor": DEV}
    if action not in dev_control.DEV_ACTIONS:
        raise LedpanelError(f"{action} is not available on a development run (scripts/dev): "
                            "it acts on the system only when the panel runs under systemd",
                            error_code="NOT_ON_DEV_RUN", status=409)
    if action == "restart_web_service":
        return Outcome(data, RESTARTING_WEB, 202, after=lambda: _later(
            lambda: dev_control.send(cache_dir, action)))
    request_id = dev_control.send(cache_dir, action)
    answer = dev_control.wait_answer(cache_dir, request_id, DEV_ANSWER_TIMEOUT)
    if answer is None:
        raise LedpanelError(f"the development supervisor did not answer within "
                            f"{DEV_ANSWER_TIMEOUT:g} s; is scripts/dev still running?",
                            error_code="SUPERVISOR_SILENT", status=504)
    if not answer["ok"]:
        raise LedpanelError(answer["message"] or f"{action} failed; see the scripts/dev output",
                            error_code="ACTION_FAILED", status=502)
    return Outcome(data, answer["message"])


def _later(work: Callable[[], object]) -> None:
    def run() -> None:
        try:
            work()
        except (LedpanelError, OSError) as err:
            logger.error("the web service could not restart itself: %s", err)

    timer = threading.Timer(AFTER_ANSWER_DELAY, run)
    timer.daemon = True
    timer.start()
