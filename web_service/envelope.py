"""The one JSON envelope every API answer uses, and the one error handler."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from shared.errors import LedpanelError

logger = logging.getLogger(__name__)

Reply = tuple[Response, int]


def ok(data: Any = None, message: str = "", status: int = 200) -> Reply:
    """Return a success envelope."""
    return jsonify({"status": "success", "data": data, "message": message,
                    "error_code": None}), status


# The longest error message sent: one that quotes a huge input is clipped to this.
MAX_MESSAGE_CHARS = 1000


def error(message: str, error_code: str, status: int, details: Any = None) -> Reply:
    """Return an error envelope (the message clipped to ``MAX_MESSAGE_CHARS``)."""
    if len(message) > MAX_MESSAGE_CHARS:
        message = f"{message[:MAX_MESSAGE_CHARS - 40]}... ({len(message)} characters in all)"
    body: dict[str, Any] = {"status": "error", "data": None, "message": message,
                            "error_code": error_code}
    if details is not None:
        body["details"] = details
    return jsonify(body), status


_HTTP_CODES = {400: "BAD_REQUEST", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
               413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE", 429: "RATE_LIMITED"}


def install_error_handlers(app: Flask) -> None:
    """Render every error as the envelope; no traceback ever reaches a client."""

    @app.errorhandler(LedpanelError)
    def _ours(err: LedpanelError) -> Reply:
        if err.status >= 500 and not getattr(err, "logged", False):  # logged where it arose
            logger.error("%s: %s", err.error_code, err.message)
        return error(err.message, err.error_code, err.status, err.details)

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Reply:
        status = err.code or 500
        return error(err.description or err.name, _HTTP_CODES.get(status, err.name.upper()
                                                                  .replace(" ", "_")), status)

    @app.errorhandler(Exception)
    def _unhandled(err: Exception) -> Reply:
        logger.exception("unhandled error")
        return error("internal error; see the web service log", "INTERNAL_ERROR", 500)
