"""The answers a route gives, as OpenAPI responses: the success envelope around its
``data`` and the error envelope with its ``error_code`` values (docs/API.md, "Answers")."""

from __future__ import annotations

from typing import Any

from web_service.openapi.route_doc import RouteDoc
from web_service.openapi.schemas import ANYTHING, BINARY, NULL, STRING, Schema

# The codes any route may answer, whatever it does: the guard's checks, sign-in, body
# limits, HTTP-level errors and the one unexpected failure.
COMMON_ERRORS: dict[int, tuple[str, ...]] = {
    # INVALID_FIELD: a body naming a key that web pages read as part of every object
    # (``__proto__``, ``constructor``, ``prototype``), refused in every body.
    400: ("INVALID_JSON", "INVALID_FORM", "INVALID_FIELD"),
    401: ("SIGN_IN_REQUIRED", "TOKEN_INVALID"),
    403: ("HOST_NOT_ALLOWED", "CROSS_SITE_REFUSED", "TOKEN_SCOPE"),
    404: ("NOT_FOUND",),
    405: ("METHOD_NOT_ALLOWED",),
    413: ("PAYLOAD_TOO_LARGE",),
    415: ("UNSUPPORTED_CHARSET", "UNSUPPORTED_MEDIA_TYPE"),
    500: ("INTERNAL_ERROR",),
}
COMMON_CODES = tuple(code for codes in COMMON_ERRORS.values() for code in codes)


def success_envelope(data: Schema) -> Schema:
    """The success envelope with ``data`` of this shape."""
    return {"type": "object", "additionalProperties": False,
            "required": ["status", "data", "message", "error_code"],
            "properties": {"status": {"const": "success"}, "data": data,
                           "message": STRING, "error_code": NULL}}


def error_envelope(codes: list[str]) -> Schema:
    """The error envelope whose ``error_code`` is one of ``codes``."""
    return {"type": "object", "additionalProperties": False,
            "required": ["status", "data", "message", "error_code"],
            "properties": {"status": {"const": "error"}, "data": NULL,
                           "message": STRING,
                           "error_code": {"type": "string", "enum": codes},
                           "details": ANYTHING}}


def _error_example(code: str) -> dict[str, Any]:
    return {"status": "error", "data": None, "message": f"refused: {code}",
            "error_code": code}


def _success(route: RouteDoc, status: int) -> dict[str, Any]:
    if route.produces:  # no envelope: a file, or a JSON document whose shape is ``data``
        schema = route.data if route.produces == "application/json" else BINARY
        return {"description": f"{status}: the document itself ({route.produces})",
                "content": {route.produces: {"schema": schema}}}
    media: dict[str, Any] = {"schema": success_envelope(route.data)}
    if route.example is not None:
        media["example"] = {"status": "success", "data": route.example, "message": "",
                            "error_code": None}
    return {"description": f"{status}: done" if status != 202 else
            "202: queued; the display service has not answered yet",
            "content": {"application/json": media}}


# Answers that say when to try again.
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again",
                               "schema": {"type": "integer", "minimum": 0}}}


def _error(codes: list[str], described: tuple[str, ...], status: str) -> dict[str, Any]:
    names = ", ".join(described) if described else "an error every route may answer"
    answer: dict[str, Any] = {
        "description": f"{status}: {names}",
        "content": {"application/json": {
            "schema": error_envelope(codes),
            "example": _error_example(described[0] if described else "INTERNAL_ERROR")}}}
    if status == "429":
        answer["headers"] = RETRY_AFTER
    return answer


# A route in a rate-limit group (web_service/rate_limit/groups.py) may answer this too.
RATE_LIMITED = "RATE_LIMITED"


def responses(route: RouteDoc, limited: bool = False) -> dict[str, Any]:
    """Every answer of ``route``: its successes, its own errors by status, the rest;
    ``limited``: the route is in a rate-limit group, so 429 ``RATE_LIMITED`` too."""
    errors = dict(route.errors)
    if limited and RATE_LIMITED not in errors.get(429, ()):
        errors[429] = (*errors.get(429, ()), RATE_LIMITED)
    codes = sorted({code for own in errors.values() for code in own} | set(COMMON_CODES))
    answers: dict[str, Any] = {str(status): _success(route, status)
                               for status in route.success}
    for status, own in sorted(errors.items()):
        answers[str(status)] = _error(codes, own, str(status))
    answers["default"] = _error(codes, (), "another status")
    return answers
