"""The command topics' handlers: payload checked, then the action on the bus or config.

``HANDLERS`` maps each command name (``topics.COMMANDS``, plus ``custom``) to a function
``(actions, argument, payload) -> detail``; the detail is a short line for the log and
the operation history. A refused payload raises ``CommandError``.
"""

from __future__ import annotations

from collections.abc import Callable

from mqtt_service import payloads
from mqtt_service.actions import SOURCE, Actions
from mqtt_service.payloads import CommandError
from shared.notify.custom_fields import name_problem, parse_custom_app
from shared.notify.custom_requests import remove_custom_app, set_custom_app
from shared.notify.fields import parse_notification
from shared.notify.icon_source import missing_icon
from shared.notify.requests import submit_notification

Handler = Callable[[Actions, str, bytes], str]


def _power(actions: Actions, _arg: str, payload: bytes) -> str:
    on = payloads.power(payload)
    actions.power(on)
    return "power on" if on else "power off"


def _brightness(actions: Actions, _arg: str, payload: bytes) -> str:
    value = payloads.brightness(payload)
    actions.brightness(value)
    return f"brightness {value}"


def _plugin(actions: Actions, _arg: str, payload: bytes) -> str:
    plugin_id = payloads.plugin_id(payloads.text(payload), actions.enabled())
    actions.on_demand({"action": "start", "plugin_id": plugin_id, "mode": None,
                       "duration": None, "pinned": False})
    return f"on-demand {plugin_id}"


def _on_demand(actions: Actions, _arg: str, payload: bytes) -> str:
    request = payloads.on_demand(payload, actions.enabled())
    actions.on_demand(request)
    if request["action"] == "stop":
        return "on-demand stop"
    return f"on-demand {request['plugin_id']}"


def _next(actions: Actions, _arg: str, _payload: bytes) -> str:
    actions.next_entry()
    return "next"


def _restart(actions: Actions, _arg: str, _payload: bytes) -> str:
    return f"restart display ({actions.restart_display()})"


def _notify(actions: Actions, _arg: str, payload: bytes) -> str:
    checked, problem = parse_notification(payloads.notification(payload))
    if checked is None:
        raise CommandError(problem or "the notification was refused")
    if problem := missing_icon(checked, actions.store.paths.assets_dir):
        raise CommandError(problem)
    return f"notification {submit_notification(actions.bus, checked, SOURCE)}"


def _custom(actions: Actions, name: str, payload: bytes) -> str:
    if not payloads.text(payload, payloads.MAX_PAYLOAD):  # empty: remove the app
        problem = name_problem(name)
        if problem is not None:
            raise CommandError(problem)
        remove_custom_app(actions.bus, name, SOURCE)
        return f"custom app {name} removed"
    checked, problem = parse_custom_app(name, payloads.json_object(payload))
    if checked is None:
        raise CommandError(problem or "the custom app was refused")
    if problem := missing_icon(checked, actions.store.paths.assets_dir):
        raise CommandError(problem)
    set_custom_app(actions.bus, name, checked, SOURCE)
    return f"custom app {name} set"


HANDLERS: dict[str, Handler] = {
    "power": _power,
    "brightness": _brightness,
    "plugin": _plugin,
    "on_demand": _on_demand,
    "next": _next,
    "restart": _restart,
    "notify": _notify,
    "custom": _custom,
}
