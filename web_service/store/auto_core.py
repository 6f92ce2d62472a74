"""The weekly automatic update updates the core first, then the plugins.

Only on an installed device (under systemd): on a development run the automatic update
stays plugins only. ``start_core_first`` starts the core update (never stashing: local
core changes make it ``blocked``) with ``plugins_after`` set; the web restarts during
it. ``plugins_due``, called at every tick of the auto-update timer, sees that core
update's verdict once: after ``updated`` or ``up_to_date`` the plugins are updated;
after any other verdict (or a lost update) they are left as they were, and the summary
says why. Handled is marked in the core update's state file, so a restart never runs
the plugins twice.
"""

from __future__ import annotations

import logging

from flask import Flask

from shared.core_update import state as files
from shared.core_update.host_steps import SYSTEMD, supervisor
from shared.core_update.preview import is_checkout
from shared.errors import AtomicWriteError, LedpanelError
from web_service.services import EXTENSION_KEY, WebServices
from web_service.system.core_update import start_core_update

logger = logging.getLogger(__name__)


def start_core_first(app: Flask) -> str | None:
    """Start the core update; return what happened, or None when the plugins are updated
    straight away: the install is no git checkout, or this is a development run (a
    developer's checkout is never pulled by a timer)."""
    web: WebServices = app.extensions[EXTENSION_KEY]
    if not is_checkout(web.settings.paths.root) or supervisor() != SYSTEMD:
        return None
    try:
        started = start_core_update(trigger="auto", stash=False, plugins_after=True, app=app)
    except LedpanelError as err:
        logger.warning("auto update: the core update did not start (%s); plugins not "
                       "updated this week", err.message)
        return f"core update not started ({err.message}); plugins not updated"
    return f"core update {started['update'].get('id')} started; plugins follow its verdict"


def plugins_due(app: Flask) -> tuple[bool, str] | None:
    """Return (update the plugins?, why) once after the automatic core update's verdict;
    None while there is nothing to do."""
    web: WebServices = app.extensions[EXTENSION_KEY]
    cache_dir = web.settings.paths.cache_dir
    state = files.read_state(cache_dir)
    if (state is None or not state.get("plugins_after") or state.get("plugins_handled")
            or not (files.is_final(state) or files.is_lost(state))):
        return None
    result = state.get("result") if files.is_final(state) else "lost"
    state["plugins_handled"] = True
    try:
        files.write_state(cache_dir, state)
    except AtomicWriteError as err:
        logger.warning("auto update: cannot mark the core update handled (%s); plugins "
                       "wait", err)
        return None
    if result in (files.UPDATED, files.UP_TO_DATE):
        return True, f"core {result.replace('_', ' ')}"
    logger.warning("auto update: the core update ended %s; plugins left as they were",
                   result)
    return False, f"core update {result}: {state.get('message')}; plugins not updated"
