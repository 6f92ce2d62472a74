"""What a command does: a request on the bus, or a config save, as the web does it.

``Actions`` holds the bus and the config store of one instance. Every method either
finishes its write or raises (``OSError``/``AtomicWriteError`` when the bus or the
config could not be written: the command stays unacknowledged; ``CommandError`` or
``LedpanelError`` when it is refused).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from mqtt_service.payloads import CommandError
from shared.bus import core as keys
from shared.bus import display_control
from shared.bus.config_signal import announce_config_change
from shared.bus.core import Bus
from shared.bus.display_status import read_display
from shared.config.reserved import plugin_sections
from shared.config.save_rules import plan_main_save
from shared.config.store import ConfigStore
from shared.errors import LedpanelError
from shared.ids import is_plain_segment
from shared.supervision import dev_control, privileged
from shared.supervision.supervisor import DEV, SYSTEMD, supervisor_kind

logger = logging.getLogger(__name__)

SOURCE = "mqtt"
DEV_ANSWER_TIMEOUT = 30.0  # seconds, as the web waits for scripts/dev


MAX_PLUGINS = 200  # options of Home Assistant's select, at most


def enabled_plugins(config: Mapping[str, Any], bus: Bus | None = None) -> list[str]:
    """Return the ids of the plugins the panel can show, sorted: those the running
    display has loaded (bundled plugins enabled by default included), else, while no
    display runs, those config.json enables."""
    if bus is not None:
        record, holder = read_display(bus)
        loaded = record.get("loaded_plugins") if isinstance(record, dict) else None
        if holder is not None and isinstance(loaded, list):
            ids = {p for p in loaded if isinstance(p, str) and is_plain_segment(p)}
            return sorted(ids)[:MAX_PLUGINS]
    return sorted(plugin_id for plugin_id, section in plugin_sections(config).items()
                  if section.get("enabled") is True)[:MAX_PLUGINS]


class Actions:
    """The effects of the commands on one instance."""

    def __init__(self, bus: Bus, store: ConfigStore,
                 report: Callable[[str, str], None] = lambda _command, _problem: None
                 ) -> None:
        self.bus = bus
        self.store = store
        self.report = report  # (command, problem): a failure found after the command

    def enabled(self) -> list[str]:
        try:
            return enabled_plugins(self.store.main_snapshot().data, self.bus)
        except LedpanelError:
            return []

    def next_entry(self) -> str:
        """Ask the display for the next rotation entry now; return the request id."""
        return display_control.request_next(self.bus, SOURCE)

    def power(self, on: bool) -> str:
        """Turn the panel on or off by hand; return the request id."""
        return display_control.request_power(self.bus, on, SOURCE)

    def on_demand(self, payload: dict[str, Any]) -> str:
        """Queue an on-demand start or stop, as ``POST /display/on-demand/*`` does."""
        return self.bus.request(keys.DISPLAY_ON_DEMAND_REQUEST, payload)

    def brightness(self, value: int) -> list[str]:
        """Save the brightness under the config lock, as the web's save does, and tell
        the display; return the changed sections."""
        changed: list[str] = []

        def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict]:
            new_main, new_secrets, sections = plan_main_save(
                main, secrets, {"brightness": value}, form=False, schema_for=lambda _id: None)
            changed.extend(sections)
            return new_main, new_secrets

        try:
            self.store.update(plan, pure=True)
        except LedpanelError as err:
            if isinstance(err.__cause__, OSError):
                raise err.__cause__ from err
            raise CommandError(f"the brightness was not saved: {err.message}") from err
        if changed:
            announce_config_change(self.bus, changed)
        return changed

    def restart_display(self) -> str:
        """Restart the display daemon the way the web's system action does: systemctl
        through sudo under systemd, a request file under scripts/dev. The request goes
        out now; its outcome is awaited in the background and a failure reported."""
        kind = supervisor_kind()
        if kind == SYSTEMD:
            work: Callable[[], None] = self._restart_systemd
        elif kind == DEV:
            request_id = dev_control.send(self.bus.directory, "restart_display_service")
            work = lambda: self._await_dev(request_id)  # noqa: E731
        else:
            raise CommandError("nothing supervises the display (neither systemd nor "
                               "scripts/dev), so it cannot be restarted from here")
        threading.Thread(target=work, name="restart-display", daemon=True).start()
        return kind

    def _restart_systemd(self) -> None:
        try:
            privileged.run_privileged(privileged.RESTART_DISPLAY)
        except LedpanelError as err:
            self.report("restart", err.message)

    def _await_dev(self, request_id: str) -> None:
        answer = dev_control.wait_answer(self.bus.directory, request_id, DEV_ANSWER_TIMEOUT)
        if answer is None:
            self.report("restart", "the development supervisor did not answer; is "
                                   "scripts/dev still running?")
        elif not answer["ok"]:
            self.report("restart", answer["message"] or "the restart failed")
