"""One core update, step by step, as the specification's States and transitions say.

1. preflight: tracked files changed outside ``plugins/`` and ``plugin-repos/`` (mode-only
   changes are not changes) give ``blocked``, unless the request allows a stash (Update
   Code does, the automatic update never): then only those files are stashed.
2. pull: fetch the followed branch; nothing new is ``up_to_date``; a fast-forward merge
   that fails half-way is a partial pull: the old commit is put back if it can be, the
   daemons are not restarted and the verdict is ``rollback_failed``.
3. dependency files that changed are reinstalled (one 600 s budget); a failure rolls
   back before any restart.
4. both daemons restarted; a restart that fails means the health check never started:
   ``rollback_failed``, the old files put back, nothing restarted again.
5. ``verifying`` while the health check runs: healthy is ``updated``; unhealthy rolls
   back to the old commit, reinstalls its dependency files (a fresh 600 s budget shared
   by every reinstall of the rollback), restarts both daemons: ``rolled_back``, or
   ``rollback_failed`` when one of those fails.

Plugins are never touched here; the automatic update updates them afterwards, only after
``updated`` or ``up_to_date``. The state file is rewritten at every step and the verdict
is one entry in the operation history.
"""

from __future__ import annotations

import fcntl
import logging
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.core_update import git, health, host_steps
from shared.core_update import state as files
from shared.core_update.git import GitError
from shared.core_update.host_steps import Budget, StepError
from shared.core_update.state import (
    BLOCKED,
    FAILED,
    ROLLBACK_FAILED,
    ROLLED_BACK,
    UP_TO_DATE,
    UPDATED,
    VERIFYING,
)
from shared.history import CORE_UPDATE, ERROR, SUCCESS, UPDATER, HistoryWriter, history_dir

logger = logging.getLogger(__name__)

HealthCheck = Callable[[Path, Path], str | None]


@dataclass
class Update:
    """One run: where the install and the bus are, what was asked, what happened."""

    root: Path
    cache_dir: Path
    request: dict[str, Any]
    supervisor: str
    check: HealthCheck = health.check
    state: dict[str, Any] = field(default_factory=dict)

    def step(self, phase: str, message: str, **fields: Any) -> None:
        self.state.update(phase=phase, message=message, **fields)
        logger.info("core update: %s", message)
        files.write_state(self.cache_dir, self.state)

    def finish(self, result: str, message: str) -> dict[str, Any]:
        self.state.update(phase="done", result=result, message=message,
                          finished_at=time.time())
        (logger.info if result in (UPDATED, UP_TO_DATE) else logger.warning)(
            "core update: %s: %s", result, message)
        files.write_state(self.cache_dir, self.state)
        HistoryWriter(history_dir(self.cache_dir), UPDATER).record(
            CORE_UPDATE, self.request["trigger"],
            SUCCESS if result in (UPDATED, UP_TO_DATE) else ERROR,
            update_result=result, from_commit=self.state.get("from"),
            to_commit=self.state.get("to"), detail=message)
        return self.state


def run(root: Path, cache_dir: Path, request: dict[str, Any], *,
        check: HealthCheck = health.check) -> dict[str, Any]:
    """Run one update (one at a time per bus folder); return its final state."""
    folder = files.folder(cache_dir)
    if not files.usable_folder(cache_dir):
        logger.error("core update: %s is not a folder (a link?); remove it and start the "
                     "update again", folder)
        return {"result": FAILED, "message": f"{folder} is not a folder"}
    lock_path = folder / files.LOCK_FILE
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o664)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            logger.warning("core update: another update is running; not starting a second")
            return files.read_state(cache_dir) or {}
        update = Update(root, cache_dir, request, host_steps.supervisor(), check)
        update.state = {"id": request.get("id") or uuid.uuid4().hex[:12],
                        "trigger": request["trigger"], "stash": request["stash"],
                        "plugins_after": request["plugins_after"], "result": None,
                        "started_at": time.time()}
        try:
            return _flow(update)
        except GitError as err:
            return update.finish(ROLLBACK_FAILED if update.state.get("to") else FAILED,
                                 f"{err}; check `git -C {root} status` and update again")
        except Exception as err:  # the one boundary: a verdict is always written
            logger.exception("core update: stopped by an unexpected error")
            return update.finish(ROLLBACK_FAILED if update.state.get("to") else FAILED,
                                 f"the update stopped on an unexpected error ({err!r}); "
                                 f"check `git -C {root} status` and the logs")
    finally:
        os.close(fd)


def _flow(update: Update) -> dict[str, Any]:
    root = update.root
    update.step("preflight", "checking for local changes")
    old = git.head(root)
    update.state["from"] = old
    changed = git.local_changes(root)
    if changed:
        shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more"
                                           if len(changed) > 5 else "")
        if not update.request["stash"] or update.request["trigger"] == "auto":
            return update.finish(BLOCKED, f"local changes outside plugins/ and plugin-repos/ "
                                 f"({shown}): commit or discard them, then update again; "
                                 "the automatic update never stashes them")
        git.stash(root, changed, f"ledpanel update {time.strftime('%Y-%m-%d %H:%M')}")
        update.state["stashed"] = (f"stashed local changes to {shown} (`git stash list` "
                                   "shows them); plugins/ and plugin-repos/ left as they were")
    update.step("pulling", "fetching the new release")
    try:
        git.fetch(root)
        new = git.upstream(root)
    except GitError as err:
        return update.finish(FAILED, f"could not fetch the new release, nothing changed: {err}")
    if new == old or not git.incoming(root, old, new):
        return update.finish(UP_TO_DATE, f"already on the newest release ({old[:12]})")
    if not git.is_ancestor(root, old, new):
        return update.finish(BLOCKED, f"the checkout has commits of its own ({old[:12]}) that "
                             f"the release {new[:12]} does not contain; move them to a branch "
                             f"or reset to {new[:12]}, then update again")
    deps = git.dependency_changes(root, old, new)
    update.state.update(to=new, dependencies_changed=bool(deps))
    try:
        git.merge(root, new)
    except GitError as err:
        return _partial_pull(update, old, err)
    return _install_and_verify(update, old, new, deps)


def _partial_pull(update: Update, old: str, err: GitError) -> dict[str, Any]:
    try:
        git.restore(update.root, old)
        where = f"the files of {old[:12]} were put back"
    except GitError as again:
        where = f"the old files could not be put back ({again})"
    return update.finish(ROLLBACK_FAILED, f"the pull stopped half-way ({err}); {where}. "
                         "The daemons were not restarted and plugins not updated. Run "
                         f"`git -C {update.root} status`, then Update Code again")


def _install_and_verify(update: Update, old: str, new: str,
                        deps: list[str]) -> dict[str, Any]:
    if deps:
        update.step("installing", f"reinstalling dependencies ({', '.join(deps)} changed)")
        try:
            host_steps.reinstall(update.root, Budget())
        except StepError as err:
            return _roll_back(update, old, deps, f"the dependencies did not install: {err}",
                              restart=False)
    update.step("restarting", f"restarting both daemons on {new[:12]}")
    try:
        update.state["restart"] = host_steps.restart_daemons(update.supervisor)
    except StepError as err:
        return _never_verified(update, old, err)
    update.step("verifying", "checking the new release is healthy", result=VERIFYING)
    problem = update.check(update.root, update.cache_dir)
    if problem is None:
        return update.finish(UPDATED, f"updated {old[:12]} -> {new[:12]}; "
                             f"{update.state['restart']}")
    return _roll_back(update, old, deps, f"the new release failed its health check: {problem}",
                      restart=True)


def _never_verified(update: Update, old: str, err: StepError) -> dict[str, Any]:
    try:
        git.restore(update.root, old)
        where = f"the files of {old[:12]} were put back but are not running"
    except GitError as again:
        where = f"the old files could not be put back ({again})"
    return update.finish(ROLLBACK_FAILED, f"the daemons could not be restarted, so the health "
                         f"check never started ({err}); {where}. Run `sudo systemctl restart "
                         "ledpanel-display ledpanel-web` and check the version")


def _roll_back(update: Update, old: str, deps: list[str], why: str, *,
               restart: bool) -> dict[str, Any]:
    update.step("rolling_back", f"{why}; going back to {old[:12]}")
    try:
        git.restore(update.root, old)
        if deps:
            host_steps.reinstall(update.root, Budget())  # a fresh budget for the rollback
        done = host_steps.restart_daemons(update.supervisor) if restart else "no restart needed"
    except (GitError, StepError) as err:
        return update.finish(ROLLBACK_FAILED, f"{why}; the rollback failed too ({err}). Run "
                             f"`git -C {update.root} reset --keep {old[:12]}` and "
                             "`sudo systemctl restart ledpanel-display ledpanel-web`")
    return update.finish(ROLLED_BACK, f"{why}; rolled back to {old[:12]} ({done}); plugins "
                         "were left as they were")
