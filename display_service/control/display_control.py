"""Apply ``display_control`` requests: the next entry now, the panel on or off by hand.

**next** acts on the layer shown, looked up in ``SKIPS`` (layer -> function; a part
that adds a layer adds what "next" means for it): the rotation or live content ends
the shown entry now and starts the next one (wrapping; a list of one starts its entry
afresh). An on-demand request in front is not skipped: it was asked for explicitly,
so "next" is refused with the way out (stop it). The full-screen ticker shows the
whole rotation at once and a panel that is off shows nothing: both refuse "next".

**power** by hand sits above the power schedule (``loop.schedules.PanelSchedule``):
off blanks the panel, on-demand included, until turned on; on while the schedule
says off shows content until the schedule's next boundary, where the schedule rules
again; on while the schedule says on just ends an off. The state by hand is kept in
the ``display_power`` record, so a restarted display carries it on (an on whose
boundary passed while the display was down is over).

Each request's outcome is published in ``display_state`` under
``requests.<request_id>`` like on-demand outcomes, so the web and the MQTT bridge can
wait for it (``shared.bus.display_control.answer``).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

from display_service.control.controller import Controller
from display_service.control.on_demand import KEEP_OUTCOMES, STALE_AFTER
from display_service.state import BusWriter, StatePublisher
from shared.bus.core import DISPLAY_POWER
from shared.bus.display_control import DONE, ERROR, NEXT, POWER
from shared.bus.display_status import timestamp

logger = logging.getLogger("display_service.control.display_control")
_UNSET = object()


def _short(value: Any) -> str | None:
    """Return a request's text field for the log and the record, bounded (untrusted)."""
    return value[:64] if isinstance(value, str) else None


class Panel(Protocol):
    """The panel's power as ``loop.schedules.PanelSchedule`` keeps it."""

    manual: bool | None

    @property
    def power_on(self) -> bool: ...

    def set_manual(self, on: bool | None) -> None: ...

    def power_until(self) -> float | None: ...


def _skip_entry(handler: ControlHandler, now: float) -> str | None:
    handler.controller.skip(now)
    return None


def _refuse_on_demand(handler: ControlHandler, now: float) -> str | None:
    return ("an on-demand request is showing; stop it (POST /api/v3/display/on-demand/stop) "
            "to return to the rotation")


SKIPS: dict[str, Callable[[ControlHandler, float], str | None]] = {
    "rotation": _skip_entry,
    "live": _skip_entry,
    "on_demand": _refuse_on_demand,
    "full_screen": lambda handler, now: ("the full-screen ticker shows the whole rotation "
                                         "at once; there is no next entry"),
    "off": lambda handler, now: "the panel is off; turn it on first",
}


class ControlHandler:
    """Turn ``display_control`` requests into controller and panel changes, with outcomes."""

    def __init__(self, controller: Controller, panel: Panel, writer: BusWriter,
                 publisher: StatePublisher, layer: Callable[[], str],
                 wall: Callable[[], float] = time.time) -> None:
        self.controller = controller
        self.panel = panel
        self.writer = writer
        self.publisher = publisher
        self.layer = layer  # what the panel shows now (the compositor's layer)
        self.wall = wall
        self._outcomes: OrderedDict[str, dict[str, Any]] = OrderedDict()
        # The power by hand the record says (None: no record; _UNSET: not known).
        self._written: object = None
        self._last: dict[str, Any] = {}

    def outcomes(self) -> dict[str, dict[str, Any]]:
        """Return the outcomes of the most recent requests, keyed by ``request_id``."""
        return dict(self._outcomes)

    def handle(self, request: dict[str, Any], now: float) -> None:
        """Apply one request and record its outcome."""
        request_id = request.get("request_id")
        request_id = str(request_id)[:64] if request_id is not None else None
        action = request.get("action")
        self.publisher.mark_dirty()
        requested_at = timestamp(request.get("requested_at"))
        if requested_at is not None and self.wall() - requested_at > STALE_AFTER:
            problem: str | None = "request is stale; ignored"
        elif action == NEXT:
            problem = self._next(now)
        elif action == POWER:
            problem = self._power(request)
        else:
            problem = f"unknown action {action!r} (expected next or power)"
        source = _short(request.get("source"))
        logger.info("display control %s (request %s, from %s): %s", action, request_id,
                    source, problem or "done")
        self._record(request_id, action, problem)

    def _next(self, now: float) -> str | None:
        layer = self.layer()
        skip = SKIPS.get(layer)
        if skip is None:
            return f"next is not possible while showing {layer}"
        return skip(self, now)

    def _power(self, request: dict[str, Any]) -> str | None:
        on = request.get("on")
        if not isinstance(on, bool):
            return f"on must be true or false, not {on!r}"
        self.panel.set_manual(on)
        self._last = {"request_id": _short(request.get("request_id")),
                      "source": _short(request.get("source"))}
        self.sync()
        return None

    def _record(self, request_id: str | None, action: Any, problem: str | None) -> None:
        if request_id is None:
            return
        entry = self.controller.current(self.publisher.clock())
        shown = self.layer() != "off" and entry is not None
        self._outcomes[request_id] = {
            "action": action if isinstance(action, str) else None,
            "state": ERROR if problem else DONE,
            "error": problem,
            "plugin_id": entry.plugin_id if shown and entry else None,
            "mode": entry.mode if shown and entry else None,
            "power": "on" if self.panel.power_on else "off",
        }
        self._outcomes.move_to_end(request_id)
        while len(self._outcomes) > KEEP_OUTCOMES:
            self._outcomes.popitem(last=False)

    def sync(self) -> None:
        """Write or remove ``display_power`` when the power by hand changed."""
        manual = self.panel.manual
        if manual == self._written:
            return
        self._written = manual
        self.publisher.mark_dirty()
        if manual is None:
            self.writer.remove(DISPLAY_POWER)
            return
        until = self.panel.power_until() if manual else None
        self.writer.put(DISPLAY_POWER, {"on": manual, "until": until, "set_at": self.wall(),
                                        "request_id": self._last.get("request_id"),
                                        "source": self._last.get("source")})

    def restore(self, record: Any) -> None:
        """Carry on the power by hand a previous run left in ``display_power``."""
        on = record.get("on") if isinstance(record, dict) else None
        until = timestamp(record.get("until")) if isinstance(record, dict) else None
        if record is not None and not isinstance(on, bool):
            logger.warning("display_power record is malformed; the schedule decides: %.200r",
                           record)
            on = None
        elif on is True and until is not None and self.wall() >= until:
            on = None  # the schedule's boundary passed while the display was down
        self.panel.set_manual(on)
        manual = self.panel.manual
        # The record stays as written when it says what is now in force; else it goes.
        kept = isinstance(record, dict) and record.get("on") is manual and manual is not None
        self._written = manual if kept else _UNSET
        if manual is not None:
            logger.info("power by hand carried on after a restart: panel %s",
                        "on" if manual else "off")
        self.sync()
