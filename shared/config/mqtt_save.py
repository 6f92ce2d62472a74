"""``GET|POST /api/v3/mqtt``'s shapes: the settings as shown, and a checked save plan.

The answer holds exactly ``enabled``, ``host``, ``port``, ``username``, ``password``
(``SECRET_MASK`` when one is stored, else empty), ``tls``, ``base_topic`` (the base
topic in force: the stored one, or the default) and ``discovery_prefix``. A save takes
any of those fields; each is checked and the first problem refuses the whole save,
naming the field. A password sent back as the mask keeps the stored one. ``username``
and ``password`` go to the secrets file, the rest to config.json's ``mqtt`` section.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from shared.config.secrets import SECRET_MASK
from shared.errors import ValidationError
from shared.mqtt.settings import (
    MAX_CREDENTIAL,
    MAX_HOST,
    SECTION,
    default_base_topic,
    read_settings,
    topic_problem,
)

FIELDS = ("enabled", "host", "port", "username", "password", "tls", "base_topic",
          "discovery_prefix")
SECRET_FIELDS = ("username", "password")
_HOST = re.compile(r"^[A-Za-z0-9._:\[\]-]+$")


def settings_view(main: Mapping[str, Any], secrets: Mapping[str, Any]) -> dict[str, Any]:
    """Return the settings as the API shows them, the password masked."""
    settings = read_settings(main, secrets)
    return {"enabled": settings.enabled, "host": settings.host, "port": settings.port,
            "username": settings.username,
            "password": SECRET_MASK if settings.password else "",
            "tls": settings.tls, "base_topic": settings.base_topic,
            "discovery_prefix": settings.discovery_prefix}


def invalid(field: str, problem: str) -> ValidationError:
    return ValidationError(f"{field} {problem}", error_code="INVALID_FIELD",
                           details={"field": field})


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise invalid(field, "must be true or false")
    return value


def _host(value: Any, field: str) -> str:
    if not isinstance(value, str) or len(value.strip()) > MAX_HOST:
        raise invalid(field, f"must be a host name or address of at most {MAX_HOST} characters")
    value = value.strip()
    if value and not _HOST.match(value):
        raise invalid(field, "must be a host name or address (letters, digits, '.', '-', ':')")
    return value


def _port(value: Any, field: str) -> int:
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        raise invalid(field, "must be a port number from 1 to 65535")
    return value


def _credential(value: Any, field: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_CREDENTIAL or "\0" in value:
        raise invalid(field, f"must be a text of at most {MAX_CREDENTIAL} characters")
    return value


def _topic(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise invalid(field, "must be a text")
    value = value.strip()
    if field == "base_topic" and value in ("", default_base_topic()):
        return ""  # the default, which follows the device name
    problem = topic_problem(value, field)
    if problem:
        raise ValidationError(problem, error_code="INVALID_FIELD", details={"field": field})
    return value


CHECKS: dict[str, Callable[[Any, str], Any]] = {
    "enabled": _flag, "tls": _flag, "host": _host, "port": _port, "username": _credential,
    "password": _credential, "base_topic": _topic, "discovery_prefix": _topic,
}


def check_body(body: Mapping[str, Any]) -> dict[str, Any]:
    """Return the body's fields checked; raise ValidationError naming the first bad one."""
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise ValidationError(f"{unknown[0]} is not an MQTT setting; the fields are "
                              + ", ".join(FIELDS), error_code="UNKNOWN_FIELD",
                              details={"field": unknown[0]})
    return {name: CHECKS[name](body[name], name) for name in FIELDS if name in body}


def plan_mqtt_save(main: dict[str, Any], secrets: dict[str, Any], body: Mapping[str, Any]
                   ) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """Return ``(new_main, new_secrets, changed_sections)`` for a checked body."""
    checked = check_body(body)
    if checked.get("password") == SECRET_MASK:
        del checked["password"]  # the mask sent back: the stored one stays
    stored = _object(main.get(SECTION))
    section = {**stored, **{k: v for k, v in checked.items() if k not in SECRET_FIELDS}}
    stored_creds = _object(secrets.get(SECTION))
    creds = {**stored_creds, **{k: v for k, v in checked.items() if k in SECRET_FIELDS}}
    if section.get("enabled") is True and not str(section.get("host") or "").strip():
        raise invalid("host", "must be set to switch MQTT on")
    new_main = {**main, SECTION: section}
    new_secrets = {**secrets, SECTION: creds} if creds or SECTION in secrets else secrets
    changed = [SECTION] if section != stored or creds != stored_creds else []
    return new_main, new_secrets, changed


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
