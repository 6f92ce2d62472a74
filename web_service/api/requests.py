"""Request parsing shared by the API views: bodies, fields and their types."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from shared.errors import ValidationError


def json_object() -> dict[str, Any]:
    """Return the JSON body as a dict, or raise ValidationError naming the problem."""
    if not request.data:
        return {}
    body = parse_json(request.get_data(as_text=True))
    if not isinstance(body, dict):
        raise ValidationError("request body must be a JSON object", error_code="INVALID_JSON")
    return body


def parse_json(text: str) -> Any:
    """Parse JSON text strictly: NaN and Infinity are refused (they are not JSON)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise ValidationError(
            f"request body is not valid JSON: {err.msg} at line {err.lineno} column {err.colno}",
            error_code="INVALID_JSON") from err


def _refuse_constant(name: str) -> Any:
    raise ValidationError(f"request body is not valid JSON: {name} is not a JSON number",
                          error_code="INVALID_JSON")


def is_form() -> bool:
    """Return whether the request body is form-encoded."""
    return request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")


def body_object() -> dict[str, Any]:
    """Return the body as a dict, from JSON or a form (multi-valued fields become lists)."""
    if is_form():
        form: dict[str, Any] = {}
        for key in request.form:
            values = request.form.getlist(key)
            form[key] = values if len(values) > 1 else values[0]
        return form
    return json_object()


def optional(body: dict[str, Any], name: str, kind: type | tuple[type, ...],
             default: Any = None) -> Any:
    """Return ``body[name]`` checked against ``kind``; None and absent give ``default``."""
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ValidationError(f"{name} must not be a boolean", error_code="INVALID_FIELD")
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ValidationError(f"{name} must be of type {names}", error_code="INVALID_FIELD")
    return value
