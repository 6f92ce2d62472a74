"""What the layers beyond the core ones say of themselves, and of a "next" asked while
they show: a follower panel (``display_service/sync/``), a notification
(``display_service/notify/``) and a custom app (``custom_app_reason.py``).

``reason.REASONS`` and ``control.display_control.SKIPS`` hold one function per layer;
``install()`` adds these to them once, when the render loop is imported.
"""

from __future__ import annotations

from display_service.control.controller import LIVE, ROTATION, SYNC
from display_service.control.display_control import SKIPS
from display_service.loop import custom_app_reason
from display_service.loop.compose import NOTIFICATION
from display_service.loop.reason import REASONS
from display_service.notify.layer import notification_reason
from display_service.sync.link import reason as sync_reason
from display_service.sync.link import refuse_next, with_sync_note
from display_service.sync.wall import WALL

NOTIFICATION_NEXT = ("a notification is showing; dismiss it (DELETE /api/v3/notify/<id>) to "
                     "return to what it paused")
_installed: list[bool] = []


def install() -> None:
    """Add the layers' sentences (once: a second call changes nothing)."""
    if _installed:
        return
    _installed.append(True)
    REASONS[SYNC] = REASONS[WALL] = sync_reason  # "follower of panel <name>"
    SKIPS[SYNC] = SKIPS[WALL] = refuse_next  # the leader decides what comes next
    # A notification is dismissed by its id ("next" is refused); the layers below go on.
    REASONS[NOTIFICATION] = lambda scene: notification_reason(
        scene, scene.loop.notifier.showing())
    SKIPS[NOTIFICATION] = lambda handler, now: NOTIFICATION_NEXT
    custom_app_reason.install()  # the status's reason names a custom app and its source
    for layer in (ROTATION, LIVE):  # a follower on its own content says why
        REASONS[layer] = with_sync_note(REASONS[layer])
