"""The mqtt routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    BOOLEAN,
    INTEGER,
    STRING,
    obj,
    text,
)

# The MQTT settings as shown (the password masked) and the bridge's state.
MQTT_SETTINGS = obj(
    {
        "enabled": BOOLEAN,
        "host": STRING,
        "port": INTEGER,
        "username": STRING,
        "password": STRING,
        "tls": BOOLEAN,
        "base_topic": STRING,
        "discovery_prefix": STRING,
        "state": STRING,
    },
    required=("enabled", "host", "port", "state"),
)

# The fields a save or a test connection may send.
MQTT_FIELDS = obj(
    {
        "enabled": BOOLEAN,
        "host": text(0, 253),
        "port": {"type": "integer", "minimum": 1, "maximum": 65535},
        "username": text(0, 256),
        "password": text(0, 256),
        "tls": BOOLEAN,
        "base_topic": STRING,
        "discovery_prefix": STRING,
    }
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/mqtt"): RouteDoc(
        data=MQTT_SETTINGS,
        example={
            "enabled": False,
            "host": "",
            "port": 1883,
            "username": "",
            "password": "",
            "tls": False,
            "base_topic": "ledpanel/panel",
            "discovery_prefix": "homeassistant",
            "state": "disabled",
        },
        errors={409: ("CONFIG_INVALID_JSON",)},
    ),
    ("POST", "/api/v3/mqtt"): RouteDoc(
        body_example={"enabled": True, "host": "broker.local", "port": 1883},
        body=MQTT_FIELDS,
        data=MQTT_SETTINGS,
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "UNKNOWN_FIELD",
            ),
            409: ("CONFIG_INVALID_JSON",),
            503: ("CONFIG_LOCKED",),
        },
    ),
    ("POST", "/api/v3/mqtt/test"): RouteDoc(
        body=MQTT_FIELDS,
        data=obj({"connected": BOOLEAN}, required=("connected",)),
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "UNKNOWN_FIELD",
            )
        },
    ),
}
