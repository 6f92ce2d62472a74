"""The render loop's side of sync: settings, the client, and what the panel shows.

The loop (``inbox``: its ``Inbox``, with ``notify`` and ``take``) calls ``configure``
with each config it takes, ``apply`` on every pass (it takes the inbox key the
client's thread sets), ``switched`` when what the panel shows changed (the
compositor's switch, on the render thread: the moment a leader publishes),
``next_due`` for its wait and ``close`` when it stops.

A leader publishes every switch (``seq`` increasing, the slot's start on its wall
clock) and its status every ``HEARTBEAT`` seconds from the render loop, so a leader
whose loop hangs stops being followed. A follower shows the followed leader's plugin
and mode through the controller's follow layer (its own rotation paused); a mode it
does not have, a leader showing no plugin mode, or no live leader leaves it on its own
rotation, and ``state``/``detail`` say which.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from display_service.control.controller import SYNC, Controller
from display_service.sync import messages
from display_service.sync.client import CONNECTED, SyncClient
from display_service.sync.follower import Follower
from display_service.sync.settings import (
    FOLLOWER,
    LEADER,
    STANDALONE,
    SyncSettings,
    read_sync_settings,
)
from display_service.sync.wall import WALL, Frame, WallBackend, WallView

logger = logging.getLogger(__name__)

SYNC_KEY = "sync:messages"  # the inbox key the client's network thread sets
HEARTBEAT = 1.0
FOLLOWING, OWN_CONTENT, LEADER_LOST = "following", "own content", "leader lost"
WAITING, CONNECTING, UNUSABLE = "waiting for a leader", "connecting", "no broker"


def reason(scene: Any) -> str:
    """Return the ``reason`` sentence while a follower shows its leader's entry or its
    part of the leader's wall."""
    link = getattr(scene.loop, "sync", None)
    text = f"follower of panel {getattr(link, 'leader', None) or 'unknown'}"
    if scene.layer == WALL and link is not None:
        text += f" (the {link.settings.position} part of its picture)"
    return text


_NOTED = "_ledpanel_sync_note"


def with_sync_note(describe: Callable[[Any], str]) -> Callable[[Any], str]:
    """Wrap a layer's reason (rotation, live): a follower on its own content says why."""
    if getattr(describe, _NOTED, False):
        return describe

    @functools.wraps(describe)  # keeps what other wrappers marked on it
    def described(scene: Any) -> str:
        link = getattr(scene.loop, "sync", None)
        note = link.note() if isinstance(link, SyncLink) else None
        return describe(scene) + (f"; {note}" if note else "")

    setattr(described, _NOTED, True)
    return described


def refuse_next(_handler: Any, _now: float) -> str:
    """Return why a ``next`` request does nothing while a follower shows its leader."""
    return ("this panel follows its leader panel, which decides what comes next; "
            "ask the leader for next")


class SyncLink:
    """This panel's part in its group, driven by the render loop."""

    def __init__(self, controller: Controller, inbox: Any,
                 wall: Callable[[], float] = time.time,
                 client_factory: Callable[..., SyncClient] = SyncClient,
                 backend: Any = None, view: WallView | None = None) -> None:
        self.controller = controller
        self.backend = backend  # a leader's WallBackend, when it has a wall
        self.view = view  # where a follower at a side shows its part of the wall
        self.new_frame = False  # a wall frame to draw now
        self._frame: Frame | None = None
        self.inbox = inbox
        self.wall = wall
        self.client_factory = client_factory
        self.settings = SyncSettings()
        self.client: SyncClient | None = None
        self.follower: Follower | None = None
        self.state: str | None = None
        self.leader: str | None = None
        self.detail: str | None = None
        self.seq = int(wall() * 1000)  # a leader's: increasing across its restarts
        self.shown_seq: int | None = None  # the seq of the switch the panel shows
        self.pending_seq: int | None = None  # the seq followed, shown at the next switch
        self.switched_at: float | None = None
        self._following: tuple[str, int, float] | None = None
        self._heartbeat_due: float | None = None
        self._now = 0.0
        self._last_key: tuple[Any, ...] | None = ("<start>",)

    # -- configuration -----------------------------------------------------------

    def configure(self, config: dict[str, Any], now: float) -> bool:
        """Take the config's sync settings; (re)connect when they changed."""
        settings = read_sync_settings(config)
        if settings == self.settings:
            return False
        self.close()
        self.settings = settings
        for problem in settings.problems:
            logger.warning("sync: %s; using its default", problem)
        self.state, self.leader, self.detail = None, None, None
        if settings.role == STANDALONE:
            return True
        if not settings.active:
            self.state, self.detail = UNUSABLE, settings.why_inactive()
            logger.warning("sync: %s but %s: no sync", settings.role, self.detail)
            return True
        self._start(settings, now)
        return True

    def _start(self, settings: SyncSettings, now: float) -> None:
        try:
            client = self.client_factory(settings, lambda: self.inbox.notify(SYNC_KEY))
            client.start()
        except (ValueError, OSError) as err:  # a host paho refuses, a TLS setup it cannot make
            self.state, self.detail = UNUSABLE, f"cannot connect to the broker: {err}"
            logger.error("sync: %s", self.detail)
            return
        self.client, self.state = client, CONNECTING
        if settings.role == FOLLOWER:
            self.follower = Follower(settings.leader)
        else:
            self._heartbeat_due = now
            self._last_key = ("<start>",)  # the next ``switched`` publishes what it shows
            if isinstance(self.backend, WallBackend):
                self.backend.sink = lambda side, payload: client.publish(f"frame-{side}",
                                                                         payload)
        logger.info("sync: %s %s of group %s%s", settings.role, settings.name, settings.group,
                    f", following {settings.leader}" if settings.leader else "")

    def close(self, final: bool = False) -> None:
        """Leave the group: a leader says offline; a follower goes back to its rotation.

        ``final`` (the daemon stops): wait for the goodbye to go out, within seconds.
        """
        client, self.client = self.client, None
        if isinstance(self.backend, WallBackend):
            self.backend.sink = None
        if client is not None:
            client.close(wait=final)
        self._frame = None
        if self.view is not None:
            self.view.frame = None
        if self.follower is not None:
            self.follower = None
            self.controller.unfollow(self._now)
        self._following, self._heartbeat_due = None, None

    # -- the render loop's pass --------------------------------------------------

    def apply(self, now: float) -> bool:
        """Apply what arrived and what time did; return whether the state changed."""
        self._now = now
        self.inbox.take(SYNC_KEY)
        client = self.client
        if client is None:
            return False
        before = (self.state, self.leader, self.detail)
        if self.follower is not None:
            for message in client.take():
                self.follower.take(message, now)
            self._frame = client.take_frame() or self._frame
            self._follow(client, now)
        else:
            self._lead(client, now)
        return (self.state, self.leader, self.detail) != before

    def _lead(self, client: SyncClient, now: float) -> None:
        self.state = client.state
        if self._heartbeat_due is not None and now >= self._heartbeat_due:
            self._heartbeat_due = now + HEARTBEAT
            client.publish(messages.STATUS, messages.status_payload(True, HEARTBEAT,
                                                                    self.wall()))

    def _follow(self, client: SyncClient, now: float) -> None:
        assert self.follower is not None
        leader = self.follower.choose(now)
        state: str
        detail: str | None
        if self._on_wall(leader):
            self._following = None
            self.controller.unfollow(now)
            state, detail = FOLLOWING, f"the {self.settings.position} part of its picture"
        else:
            state, detail = self._target(leader, client, now)
        if (state, leader, detail) != (self.state, self.leader, self.detail):
            self._log(state, leader, detail)
        self.state, self.leader, self.detail = state, leader, detail

    def _on_wall(self, leader: str | None) -> bool:
        """Show the newest wall frame of ``leader`` when there is one; return whether the
        panel shows its part of the leader's wall."""
        view, frame = self.view, self._frame
        if view is None or self.settings.position not in ("left", "right"):
            return False
        if leader is None:
            self._frame = view.frame = None  # a leader back sends its picture again
            return False
        if frame is not None and frame.leader == leader and frame is not view.frame:
            view.frame, self.new_frame = frame, True
        if view.frame is not None and view.frame.leader != leader:
            view.frame = None
        return view.frame is not None

    def _target(self, leader: str | None, client: SyncClient,
                now: float) -> tuple[str, str | None]:
        """Show what ``leader`` shows when this panel can; return the state and detail."""
        assert self.follower is not None
        switch = self.follower.switch(leader) if leader else None
        if leader is None or switch is None or switch.plugin_id is None or switch.mode is None:
            self._following = None
            self.controller.unfollow(now)
            return self._alone(leader, client)
        key = (leader, switch.seq, switch.started_at)
        if key == self._following and self.controller.followed is not None:
            return FOLLOWING, None
        if self.controller.follow(switch.plugin_id, switch.mode, now):
            self._following, self.pending_seq = key, switch.seq
            return FOLLOWING, None
        self._following = None
        return OWN_CONTENT, (f"leader {leader} shows {switch.plugin_id}/{switch.mode}, "
                             "which this panel does not have")

    def _alone(self, leader: str | None, client: SyncClient) -> tuple[str, str | None]:
        assert self.follower is not None
        if leader is not None and self.follower.switch(leader) is None:
            return WAITING, f"leader {leader} has not said what it shows yet"
        if leader is not None:
            return OWN_CONTENT, f"leader {leader} shows no plugin mode"
        if self.follower.had_leader:
            return LEADER_LOST, f"leader {self.follower.current} lost"
        if client.state != CONNECTED:
            return CONNECTING, client.state
        return WAITING, None

    def _log(self, state: str, leader: str | None, detail: str | None) -> None:
        if state == FOLLOWING:
            logger.info("sync: following leader %s%s", leader, f" ({detail})" if detail else "")
        elif state == LEADER_LOST:
            logger.warning("sync: %s (no heartbeat for %g s or offline); own rotation",
                           detail, HEARTBEAT * 3)
        else:
            logger.info("sync: %s%s; own rotation", state, f": {detail}" if detail else "")

    # -- switches, deadlines, the record ------------------------------------------

    def switched(self, key: tuple[Any, ...] | None) -> None:
        """The panel may have switched: ``key`` is the compositor's for the layers below
        notifications (``(plugin_id, mode, ...)``, a one-word layer, or None when blank).

        A notification shown or gone above the same slot is no switch: followers keep
        the leader's content underneath.
        """
        if key == self._last_key:
            return
        self._last_key = key
        plugin_id, mode = (key[0], key[1]) if key is not None and len(key) > 1 else (None, None)
        self.switched_at = self.wall()
        if self.settings.role == LEADER and self.client is not None:
            self.seq += 1
            self.shown_seq = self.seq
            self.client.publish(messages.SWITCH, messages.switch_payload(
                self.seq, plugin_id, mode, self.switched_at, self.switched_at))
        elif self.follower is not None:
            followed = self.controller.layer() == SYNC
            self.shown_seq = self.pending_seq if followed else None

    def note(self) -> str | None:
        """Return why a follower shows its own content (None while it follows, or for
        a panel that is no follower)."""
        if self.settings.role != FOLLOWER or self.state in (None, FOLLOWING):
            return None
        said = {WAITING: self.detail or "waiting for a leader panel",
                CONNECTING: "connecting to the broker"}.get(self.state or "", self.detail)
        return f"follower, {said}" if said else None

    def next_due(self) -> float | None:
        """Return when the link needs the loop again (heartbeat, a leader's loss)."""
        if self.follower is not None:
            return self.follower.next_due(self._now)
        return self._heartbeat_due

    def snapshot(self) -> dict[str, Any]:
        """Return the ``sync`` block of ``display_state``."""
        settings = self.settings
        if settings.role == STANDALONE:
            return {"role": STANDALONE, "state": None, "leader": None}
        return {
            "role": settings.role, "name": settings.name, "group": settings.group,
            "position": settings.position, "state": self.state, "leader": self.leader,
            "detail": self.detail, "seq": self.shown_seq, "switched_at": self.switched_at,
            "connection": self.client.state if self.client is not None else None,
            "ignored": self.client.refused if self.client is not None else 0,
            "wall": (self.settings.position if self.view is not None and self.view.active()
                     else None),
        }
