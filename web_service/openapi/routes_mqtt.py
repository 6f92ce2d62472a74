"""The mqtt routes of /api/v3: what each takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import (
    ANY_OBJECT,
    BOOLEAN,
    INTEGER,
    STRING,
    obj,
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
        body=ANY_OBJECT,
    ),
    ("POST", "/api/v3/mqtt/test"): RouteDoc(
        errors={
            400: (
                "INVALID_JSON",
                "INVALID_FIELD",
                "UNKNOWN_FIELD",
            )
        },
        body=ANY_OBJECT,
    ),
}
