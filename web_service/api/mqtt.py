"""GET/POST /mqtt (the MQTT bridge's settings and its connection) and POST /mqtt/test.

The settings are config.json's ``mqtt`` section with the username and password in the
secrets file (``shared.config.mqtt_save``); the bridge (``ledpanel-mqtt``) follows
the files and reports its connection on the bus (``mqtt_state``). The test connects
once from this process: paho is imported only inside that request, so the web starts
without it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from shared.bus import core as keys
from shared.bus.daemon_lock import MQTT, lock_holder
from shared.config.mqtt_save import check_body, plan_mqtt_save, settings_view
from shared.config.secrets import SECRET_MASK
from shared.errors import ValidationError
from shared.mqtt.settings import SECTION, read_settings
from web_service.api.requests import body_object
from web_service.envelope import Reply, ok
from web_service.services import WebServices, services

bp = Blueprint("mqtt", __name__)

NOT_RUNNING = "the MQTT bridge is not running"
MAX_STATE = 300


@bp.get("/mqtt")
def get_mqtt() -> Reply:
    """Return the settings (password masked) and the connection ``state``."""
    svc = services()
    main = svc.store.main_snapshot().data
    view = settings_view(main, svc.store.load_secrets())
    return ok({**view, "state": connection_state(svc, view["enabled"])})


@bp.post("/mqtt")
def post_mqtt() -> Reply:
    """Save any of the settings' fields; all or nothing."""
    svc = services()
    body = body_object()

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> tuple[dict, dict, list[str]]:
        return plan_mqtt_save(main, secrets, body)

    saved = svc.save_config(plan)
    view = settings_view(saved.main, svc.store.load_secrets())
    message = "MQTT settings saved" if saved.changed else "Nothing changed"
    return ok({**view, "state": connection_state(svc, view["enabled"])}, message)


@bp.post("/mqtt/test")
def test_mqtt() -> Reply:
    """Connect once with the stored settings, changed by any fields in the body."""
    svc = services()
    checked = check_body(body_object())
    main = dict(svc.store.main_snapshot().data)
    secrets = dict(svc.store.load_secrets())
    section = {**_object(main.get(SECTION)), **checked}
    creds = {**_object(secrets.get(SECTION))}
    for name in ("username", "password"):
        value = section.pop(name, None)
        if value is not None and value != SECRET_MASK:
            creds[name] = value
    settings = read_settings({SECTION: section}, {SECTION: creds})
    if not settings.host:
        raise ValidationError("host must be set to test a connection",
                              error_code="INVALID_FIELD", details={"field": "host"})
    from shared.mqtt.probe import probe  # paho, only for this request

    connected, sentence = probe(settings)
    return ok({"connected": connected, "broker": f"{settings.host}:{settings.port}"},
              sentence)


def connection_state(svc: WebServices, enabled: bool) -> str:
    """Return ``disabled``, the bridge's reported state, or that it is not running."""
    if not enabled:
        return "disabled"
    if lock_holder(svc.bus.directory, MQTT) is None:
        return NOT_RUNNING
    record = svc.bus.read(keys.MQTT_STATE) or {}
    state = record.get("state")
    return state[:MAX_STATE] if isinstance(state, str) and state else "connecting"


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
