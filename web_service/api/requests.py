"""Request parsing shared by the API views: bodies, fields and their types.

Every request body is read here, and only here: the text is decoded as its
``Content-Type`` charset says (UTF-8 when it says none; an unknown charset is a 415,
bytes that are not text in it a 400, never replacement characters), and JSON is
parsed within ``shared.files.jsontext``'s limits (depth, integer digits, finite numbers,
no underflow to 0, no lone surrogates), so a hostile body is one 400 naming the problem on
every route. Keys a browser's JavaScript treats as an object's own machinery
(``__proto__``, ``constructor``, ``prototype``) are refused in JSON bodies and form field
names alike: our pages would misread a setting stored under one.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any
from urllib.parse import parse_qsl

from flask import g, request

from shared.config.coerce import FALSE_WORDS, TRUE_WORDS
from shared.errors import ValidationError
from shared.files.jsontext import (
    MAX_DEPTH,
    JsonLimitError,
    parse_strict,
    syntax_place,
)
from web_service.access.page_token import MAX_FORM_FIELDS, TOKEN_FIELD

_PARSED = "ledpanel_json_body"  # flask.g: the body parsed once per request
_CHANGES = ("POST", "PUT", "PATCH", "DELETE")
# Names JavaScript reads as an object's machinery, not as data.
SCRIPT_KEYS = frozenset({"__proto__", "constructor", "prototype"})


def check_body() -> None:
    """Refuse a hostile JSON or form body before any view runs (before_app_request).

    Every state-changing route is covered this way, one that ignores its body too; the
    parsed JSON is kept for the view (``json_body``).
    """
    if request.method not in _CHANGES or not request.get_data():
        return
    if is_form():
        body_object()
    elif request.mimetype == "application/json" or request.mimetype.endswith("+json"):
        json_body()


def json_body() -> Any:
    """Return the body parsed as JSON (any content type), once per request."""
    if _PARSED not in g:
        setattr(g, _PARSED, parse_json(body_text()))
    return g.get(_PARSED)


def json_object() -> dict[str, Any]:
    """Return the JSON body as a dict, or raise ValidationError naming the problem."""
    if not request.get_data():
        return {}
    body = json_body()
    if not isinstance(body, dict):
        raise ValidationError("request body must be a JSON object", error_code="INVALID_JSON")
    return body


def body_text() -> str:
    """Return the body as text in the charset its ``Content-Type`` names (default UTF-8)."""
    charset = request.mimetype_params.get("charset", "utf-8")
    data = request.get_data()
    try:
        codec = codecs.lookup(charset).name
        return data.decode(codec)
    except LookupError:  # no such codec, or one that is not a text encoding ("hex")
        raise ValidationError(f"request body charset {charset[:40]!r} is not supported; "
                              "send UTF-8", error_code="UNSUPPORTED_CHARSET",
                              status=415) from None
    except UnicodeDecodeError as err:
        raise ValidationError(
            f"request body is not valid {codec} text: byte 0x{data[err.start]:02x} at "
            f"offset {err.start}", error_code="INVALID_JSON",
            details={"offset": err.start}) from None


def parse_json(text: str) -> Any:
    """Parse JSON text strictly (``shared.files.jsontext``): NaN, Infinity, numbers that do not
    fit, deep nesting and lone surrogates are refused with INVALID_JSON naming them."""
    try:
        value = parse_strict(text)
    except json.JSONDecodeError as err:
        place = syntax_place(err)
        raise ValidationError(
            f"request body is not valid JSON: {place.msg} at line {place.lineno} "
            f"column {place.colno}",
            error_code="INVALID_JSON") from err
    except JsonLimitError as err:
        raise ValidationError(f"request body is not valid JSON: {err}",
                              error_code="INVALID_JSON") from None
    found = _script_key(value)
    if found is not None:
        _refuse_script_key(*found)
    return value


def _script_key(value: Any, prefix: str = "") -> tuple[str, str] | None:
    """Return the path and name of the first ``SCRIPT_KEYS`` key in a parsed body (its
    depth is bounded by the parser), or None."""
    items: Any = ()
    if isinstance(value, dict):
        for key in value:
            if key in SCRIPT_KEYS:
                return (f"{prefix}.{key}" if prefix else key), key
        items = ((f"{prefix}.{key}" if prefix else key, item) for key, item in value.items())
    elif isinstance(value, list):
        items = ((f"{prefix}[{index}]", item) for index, item in enumerate(value))
    for path, item in items:
        found = _script_key(item, path)
        if found is not None:
            return found
    return None


def _refuse_script_key(field: str, key: str) -> None:
    raise ValidationError(f"{field}: {key!r} cannot be a setting's name (web pages read it "
                          "as part of every object); rename it", error_code="INVALID_FIELD",
                          details={"field": field})


def is_form() -> bool:
    """Return whether the request body is form-encoded."""
    return request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")


def body_object() -> dict[str, Any]:
    """Return the body as a dict, from JSON or a form (multi-valued fields become lists).

    A dotted form field name nests (``display.hardware.rows``), so it is held to the
    JSON depth limit too. Our pages' token (checked by the guard) is no setting: left out.
    """
    if not is_form():
        return json_object()
    form: dict[str, Any] = {}
    for key, value in _form_pairs():
        if key == TOKEN_FIELD:
            continue
        if key.count(".") >= MAX_DEPTH:
            raise ValidationError(f"form field name nested deeper than {MAX_DEPTH} levels",
                                  error_code="INVALID_FORM")
        for part in key.split("."):
            if part in SCRIPT_KEYS:
                _refuse_script_key(key, part)
        if key in form:
            previous = form[key]
            form[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
        else:
            form[key] = value
    return form


def _form_pairs() -> list[tuple[str, str]]:
    """Return the form's fields in order; an urlencoded body is decoded as sent."""
    if request.mimetype == "multipart/form-data":
        _check_multipart()
        if any(not isinstance(key, str) or not key for key in request.form):  # no name=
            raise ValidationError("multipart form body has a field without a name; every "
                                  "part needs one in its Content-Disposition",
                                  error_code="INVALID_FORM")
        return [(key, value) for key in request.form for value in request.form.getlist(key)]
    text = body_text()
    try:
        return parse_qsl(text, keep_blank_values=True, encoding=codecs.lookup(
            request.mimetype_params.get("charset", "utf-8")).name, errors="strict",
            max_num_fields=MAX_FORM_FIELDS)
    except UnicodeDecodeError as err:
        raise ValidationError(f"form field is not valid text in the body's charset: {err}",
                              error_code="INVALID_FORM") from None
    except ValueError as err:  # too many fields
        raise ValidationError(f"form has more than {MAX_FORM_FIELDS} fields",
                              error_code="INVALID_FORM") from err


def _check_multipart() -> None:
    """Refuse a multipart body the parser would read as an empty form: no boundary, or
    not one field or file in it (a save would go ahead with nothing, answered as done)."""
    boundary = request.mimetype_params.get("boundary", "")
    problem = None
    if not boundary:
        problem = "has no boundary in its Content-Type"
    elif not request.form and not request.files:
        problem = "holds no form field"
    if problem is not None:
        raise ValidationError(f"multipart form body {problem}; send the form again, or "
                              "send JSON", error_code="INVALID_FORM")


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
        return int(text) if re.fullmatch(r"[+-]?[0-9]+", text) else float(text)
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


def query_text(name: str, limit: int = 200) -> str:
    """A query-string argument as text ("" when absent); longer than ``limit`` is
    ``INVALID_FIELD``."""
    value = request.args.get(name, "")
    if len(value) > limit:
        raise ValidationError(f"{name} must be at most {limit} characters",
                              error_code="INVALID_FIELD", details={"field": name})
    return value
