"""The core's version, its git checkout, what an update would bring, and the update.

``GET /system/version``, ``GET /system/git-info``, ``GET /system/check-update``,
``GET /system/update`` (the state the Overview polls) and ``POST /system/update`` (start
one; ``POST /system/action`` ``git_pull`` starts the same).
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint

from shared.core_update.git import GitError
from shared.core_update.host_steps import supervisor
from shared.core_update.preview import check_update, git_info, is_checkout
from shared.errors import LedpanelError
from shared.version import CORE_VERSION
from web_service.api.requests import json_object
from web_service.envelope import Reply, ok
from web_service.services import services
from web_service.system.core_update import start_core_update, update_status

bp = Blueprint("system_update", __name__)


def _root() -> Path:
    return services().settings.paths.root


def _git_refused(err: GitError) -> LedpanelError:
    return LedpanelError(f"{err}; check the network and `git -C {_root()} status`",
                         error_code="GIT_ERROR", status=502)


@bp.get("/system/version")
def version() -> Reply:
    """Return the core version, the commit it runs and how it is supervised."""
    commit = None
    if is_checkout(_root()):
        try:
            commit = git_info(_root())["commit"]
        except GitError:
            commit = None
    return ok({"version": CORE_VERSION, "commit": commit, "supervisor": supervisor()})


@bp.get("/system/git-info")
def info() -> Reply:
    """Return the checkout's branch, commit, upstream, remote and local changes."""
    try:
        return ok(git_info(_root()))
    except GitError as err:
        raise _git_refused(err) from err


@bp.get("/system/check-update")
def check() -> Reply:
    """Return the commits an update would bring and whether dependency files change."""
    if not is_checkout(_root()):
        raise LedpanelError(f"{_root()} is not a git checkout; it cannot be updated",
                            error_code="NOT_A_CHECKOUT", status=409)
    try:
        return ok(check_update(_root()))
    except GitError as err:
        raise _git_refused(err) from err


@bp.get("/system/update")
def status() -> Reply:
    """Return how the last core update went (``running``, ``result``, ``lost``...)."""
    return ok(update_status())


@bp.post("/system/update")
def start() -> Reply:
    """Start a core update; ``stash`` (default false) lets it stash local core changes,
    ``trigger`` (``button`` or ``cli``) says who asked, in the history."""
    body = json_object()
    stash = body.get("stash", False)
    if not isinstance(stash, bool):
        raise LedpanelError("stash must be true or false", error_code="INVALID_FIELD",
                            status=400)
    trigger = body.get("trigger", "button")
    if trigger not in ("button", "cli"):
        raise LedpanelError("trigger must be button or cli", error_code="INVALID_FIELD",
                            status=400)
    started = start_core_update(trigger=trigger, stash=stash)
    return ok(started["update"], started["message"], status=202)
