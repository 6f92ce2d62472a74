"""The slow blocks of ``GET /api/v3/system/status``, rebuilt only from what changed.

The inputs are read on every request: the bus records through the display link (one
``lstat`` each, parsed again only when the file changed), the display lock's holder,
config.json's snapshot and the secrets file's identity. A block is computed again only
when one of its inputs is not the very value it was computed from, so an answer always
says what the files say now. Time-based figures (the web's uptime, the host figures)
are not cached: the view reads them fresh each time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.bus.display_status import display_report, hardware_report
from shared.config.health import config_report
from shared.config.store import ConfigStore
from shared.errors import LedpanelError
from web_service.display_link import DisplayLink

Block = dict[str, Any]


class _Memo:
    """The last value of a function, kept with the inputs it was computed from."""

    def __init__(self, compute: Callable[..., Any]) -> None:
        self._compute = compute
        self._last: tuple[tuple[Any, ...], Any] | None = None

    def __call__(self, *inputs: Any) -> Any:
        last = self._last
        if last is not None and _same_inputs(last[0], inputs):
            return last[1]
        value = self._compute(*inputs)
        self._last = (inputs, value)  # one assignment: threads see old or new
        return value


def _same_inputs(old: tuple[Any, ...], new: tuple[Any, ...]) -> bool:
    """Return whether every input is the same object (dicts) or an equal scalar."""
    return len(old) == len(new) and all(
        a is b or (type(a) is type(b) and not isinstance(a, dict | list) and a == b)
        for a, b in zip(old, new, strict=True))


class StatusBlocks:
    """The ``display``, ``hardware`` and ``config`` blocks of one web app's status."""

    def __init__(self, display: DisplayLink, store: ConfigStore) -> None:
        self.display = display
        self.store = store
        self._display = _Memo(display_report)
        self._hardware = _Memo(self._hardware_block)
        self._config = _Memo(lambda _snapshot, display: config_report(self.store, display))

    def blocks(self) -> tuple[Block, Block | None, Block]:
        """Return ``(display, hardware, config)`` as the files say now (read, never change)."""
        link = self.display
        state, holder = link.state()
        display = self._display(state, holder, link.errors_record(), link.safe_mode_record())
        try:
            snapshot: Any = self.store.main_snapshot()
        except LedpanelError:  # an unreadable config.json is reported under "config"
            snapshot = None
        hardware = self._hardware(link.hardware(), snapshot, display["service"])
        try:
            self.store.check_secrets()
        except LedpanelError:
            snapshot = None
        if snapshot is None:  # a file problem: the report is built afresh while it lasts
            return display, hardware, config_report(self.store, display)
        return display, hardware, self._config(snapshot, display)

    def _hardware_block(self, record: Any, snapshot: Any, service: str) -> Block | None:
        hardware = hardware_report(record)
        if hardware is None:
            return None
        restart = [] if snapshot is None else self.display.restart_settings(
            snapshot.data, service=service, hardware=hardware)
        hardware.update(restart_required=bool(restart), restart_settings=restart)
        return hardware
