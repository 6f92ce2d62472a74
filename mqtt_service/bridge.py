"""The bridge's main loop: follow the settings, publish the state, take commands.

One thread wakes when a watched bus record or a config file changes (and every
``TICK`` seconds, for the CPU temperature and a display that died without a word),
reads the settings again (a change closes the link and opens one with the new ones),
and publishes the state and plugin list when they differ from the last published.
Commands arrive on paho's network thread (``Link``) and go to ``commands.HANDLERS``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from mqtt_service import state_topic
from mqtt_service.actions import Actions
from mqtt_service.commands import HANDLERS
from mqtt_service.ha_bridge import HaBridge
from mqtt_service.link import DISABLED, Link, StateRecord
from mqtt_service.outbox import Message, Outbox
from mqtt_service.payloads import CommandError
from mqtt_service.rate import BURST, PER_SECOND, RateLimit
from shared.bus import core as keys
from shared.bus.core import Bus, BusWatcher, watch_directory
from shared.config.store import ConfigStore
from shared.errors import LedpanelError
from shared.history import ERROR, MQTT, MQTT_COMMAND, SUCCESS, HistoryWriter, history_dir
from shared.mqtt import topics
from shared.mqtt.settings import MqttSettings, read_settings

logger = logging.getLogger(__name__)

TICK = 30.0  # seconds between looks that no file event prompts
WATCHED = (keys.DISPLAY_STATE, keys.PLUGIN_ERRORS)
CONFIG_FILES = ("config", "config_secrets")
NOT_RUNNING = "the MQTT bridge is not running"


class Bridge:
    """The MQTT bridge of one instance (its bus folder and config store)."""

    def __init__(self, bus: Bus, store: ConfigStore) -> None:
        self.bus = bus
        self.store = store
        self.record = StateRecord(bus)
        self.history = HistoryWriter(history_dir(bus.directory), MQTT)
        self.actions = Actions(bus, store, report=self._refused_later)
        self.rate = RateLimit()
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.settings: MqttSettings | None = None
        self.link: Link | None = None
        self.ha: HaBridge | None = None
        self._published: dict[str, bytes] = {}
        self._temperature: tuple[float, float | None] = (0.0, None)

    def run(self) -> None:
        """Run until ``stop()``."""
        watchers: list[BusWatcher] = [
            self.bus.watch(WATCHED, self._poke),
            watch_directory(self.store.paths.config_dir, CONFIG_FILES, self._poke)]
        try:
            while not self.stopping.is_set():
                self.wake.clear()
                self.step()
                self.wake.wait(TICK)
        finally:
            for watcher in watchers:
                watcher.stop()
            self._close(clear=False)
            self.record.set(NOT_RUNNING, None)

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()

    def step(self) -> None:
        """Apply new settings, then publish what changed."""
        config, secrets = self._config(), self._secrets()
        if config is None or secrets is None:
            if self.settings is None:  # nothing to go on yet: say why
                self.record.set("the config files cannot be read; see the bridge's log", None)
            return
        self._apply(read_settings(config, secrets), config)
        if self.link is not None:
            self._publish_state(config)

    def _poke(self, _key: str) -> None:
        self.wake.set()

    def _config(self) -> dict[str, Any] | None:
        try:
            return self.store.main_snapshot().data
        except LedpanelError as err:  # a file mid-edit: the running settings stand
            logger.warning("mqtt: config.json cannot be read now: %s", err.message)
            return None

    def _secrets(self) -> dict[str, Any] | None:
        try:
            return self.store.load_secrets()
        except LedpanelError as err:  # mid-edit too: not "no password"
            logger.warning("mqtt: the secrets file cannot be read now: %s", err.message)
            return None

    # -- settings and the link ---------------------------------------------------

    def _apply(self, settings: MqttSettings, config: dict[str, Any]) -> None:
        if settings == self.settings:
            return
        for problem in settings.problems:
            logger.warning("mqtt: %s; its default is used", problem)
        self._close(clear=self.ha is not None and self.ha.must_forget(settings))
        self.settings = settings
        if not settings.usable:
            self.record.set(DISABLED if not settings.enabled else
                            "enabled, but no broker host is set", None)
            return
        self._published.clear()
        self.ha = HaBridge(settings, config, self.bus.directory,
                           state_topic.plugins_payload(self.bus, config))
        self.link = Link(settings, self.record, Outbox(), self._command, self._connected,
                         self._other)
        self.link.start()

    def _close(self, *, clear: bool) -> None:
        link, self.link = self.link, None
        ha, self.ha = self.ha, None
        if link is None:
            return
        if clear and ha is not None and link.connected.is_set():
            try:
                ha.forget(link.client)
            except Exception:  # the disconnect goes on: the last will says offline
                logger.exception("mqtt: removing the Home Assistant discovery failed")
        link.stop()

    def _connected(self, link: Link) -> None:
        ha = self.ha
        if ha is not None:
            ha.connected(link.client, state_topic.plugins_payload(self.bus, self._config() or {}))

    def _other(self, client: Any, topic: str, payload: bytes) -> None:
        ha = self.ha
        if ha is not None:
            ha.message(client, topic, payload)

    # -- state --------------------------------------------------------------------

    def _publish_state(self, config: dict[str, Any]) -> None:
        link = self.link
        assert link is not None
        state = state_topic.panel_state(self.bus, config, self._cpu_temperature())
        self._put(link, topics.STATE, state_topic.encode(state))
        plugins = state_topic.plugins_payload(self.bus, config)
        if self._put(link, topics.PLUGINS, state_topic.encode(plugins)) \
                and self.ha is not None and link.connected.is_set():
            self.ha.plugins_changed(link.client, plugins, config)

    def _put(self, link: Link, suffix: str, payload: bytes) -> bool:
        """Publish ``payload`` when it differs from the last; return whether it did."""
        if self._published.get(suffix) == payload:
            return False
        self._published[suffix] = payload
        link.publish(Message(link.topic(suffix), payload, retain=True))
        return True

    def _cpu_temperature(self) -> float | None:
        at, value = self._temperature
        if time.monotonic() - at >= TICK or at == 0.0:
            value = state_topic.cpu_temperature()
            self._temperature = (time.monotonic(), value)
        return value

    # -- commands (paho's thread) -----------------------------------------------------

    def _command(self, command: str, argument: str, payload: bytes, topic: str) -> None:
        if not self.rate.take():
            self._refuse(command, topic, f"too many commands: at most {PER_SECOND:g} a second "
                                         f"(bursts of {BURST}) are taken")
            return
        try:
            detail = HANDLERS[command](self.actions, argument, payload)
        except CommandError as err:
            self._refuse(command, topic, str(err))
            return
        except LedpanelError as err:
            if isinstance(err.__cause__, OSError):
                raise err.__cause__ from err
            self._refuse(command, topic, err.message)
            return
        logger.info("mqtt: %s: %s", topic, detail)
        self.history.record(MQTT_COMMAND, command, SUCCESS, topic=topic, detail=detail)

    def _refuse(self, command: str, topic: str, problem: str) -> None:
        logger.warning("mqtt: %s refused: %s", topic, problem)
        self.history.record(MQTT_COMMAND, command, ERROR, topic=topic, detail=problem)
        link = self.link
        if link is not None:
            body = {"topic": topic, "command": command, "error": problem, "at": time.time()}
            link.publish(Message(link.topic(topics.ERROR), state_topic.encode(body),
                                 retain=False))

    def _refused_later(self, command: str, problem: str) -> None:
        link = self.link
        topic = topics.topic(link.settings.base_topic, topics.COMMANDS.get(command, command)) \
            if link else command
        self._refuse(command, topic, problem)
