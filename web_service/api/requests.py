"""Request parsing shared by the API views: bodies, fields and their types."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from shared.config.coerce import FALSE_WORDS, TRUE_WORDS
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
        raise invalid_field(name, "must not be a boolean")
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise invalid_field(name, f"must be of type {names}")
    return value


def optional_number(body: dict[str, Any], name: str, *, form: bool) -> int | float | None:
    """Return ``body[name]`` as a number; a form sends text (``"30"``, ``"2.5"``).

    In a form a blank field counts as absent. Anything else that is not a number
    raises ValidationError naming the field.
    """
    text = _form_text(body, name) if form else None
    if text is None:
        return optional(body, name, (int, float))
    if not text:
        return None
    try:
        return int(text) if text.lstrip("+-").isdigit() else float(text)
    except ValueError:
        raise invalid_field(name, f"must be a number (got {text[:40]!r})") from None


def optional_bool(body: dict[str, Any], name: str, *, form: bool, default: bool) -> bool:
    """Return ``body[name]`` as a boolean; a form sends ``on``/``off``, ``true``/``false``,
    ``1``/``0`` or ``yes``/``no`` (a blank field counts as absent)."""
    text = _form_text(body, name) if form else None
    if text is None:
        return bool(optional(body, name, bool, default=default))
    if not text:
        return default
    if text.lower() in TRUE_WORDS or text.lower() in FALSE_WORDS:
        return text.lower() in TRUE_WORDS
    raise invalid_field(name, f"must be true or false (got {text[:40]!r})")


def optional_text(body: dict[str, Any], name: str, *, form: bool) -> str | None:
    """Return ``body[name]`` as text; in a form a blank field counts as absent."""
    text = _form_text(body, name) if form else None
    if text is None:
        return optional(body, name, str)
    return text or None


def invalid_field(name: str, problem: str) -> ValidationError:
    """Return the 400 ``INVALID_FIELD`` error for a request field, naming it."""
    return ValidationError(f"{name} {problem}", error_code="INVALID_FIELD",
                           details={"field": name})


def _form_text(body: dict[str, Any], name: str) -> str | None:
    """Return a form field's text (a repeated field: the last value), None when absent."""
    value = body.get(name)
    if isinstance(value, list):  # a hidden "off" before its checkbox: the last counts
        value = value[-1] if value else ""
    return value.strip() if isinstance(value, str) else None
