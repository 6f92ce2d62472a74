"""Record every state-changing API call in the operation history, in one place.

One ``after_request`` hook sees every answer, the guard's refusals and error envelopes
included, and records each ``POST``/``PUT``/``PATCH``/``DELETE`` under ``/api/v3`` (the
sign-in routes are there too): the route's endpoint name as ``what``, method, path,
status, ``success`` or ``error`` with the envelope's ``error_code``, the client's
address and the ``plugin_id`` the call named (URL, query, JSON body or form). Never the
body itself, a query string, a header or a config value: nothing recorded is a secret.
Reads are not recorded; clearing the history is (it leaves that one entry).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import HTTPException

from shared.history import API, ERROR, SUCCESS, WEB, HistoryReader, HistoryWriter, history_dir
from shared.ids import is_plain_segment
from web_service.services import EXTENSION_KEY, WebServices

logger = logging.getLogger(__name__)

HISTORY_KEY = "ledpanel.history"
RECORDED_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RECORDED_PREFIX = "/api/v3/"
MAX_ENVELOPE = 64 * 1024  # an error envelope larger than this is not parsed for its code
_PARSED_BODY = "ledpanel_json_body"  # where web_service.api.requests keeps the parsed body
WHAT_KEY = "ledpanel_history_what"  # flask.g: a view's more precise ``what`` (checked name)


@dataclass(frozen=True)
class WebHistory:
    """The web's history writer and the reader of every daemon's history."""

    writer: HistoryWriter
    reader: HistoryReader


def install_history(app: Flask) -> None:
    """Keep the history services in ``app`` and record its state-changing API calls."""
    web: WebServices = app.extensions[EXTENSION_KEY]
    directory = history_dir(web.settings.paths.cache_dir)
    app.extensions[HISTORY_KEY] = WebHistory(HistoryWriter(directory, WEB),
                                             HistoryReader(directory))
    app.after_request(_record)


def history() -> WebHistory:
    """Return the current app's history services."""
    return cast(WebHistory, current_app.extensions[HISTORY_KEY])


def _record(response: Response) -> Response:
    if request.method not in RECORDED_METHODS or not request.path.startswith(RECORDED_PREFIX):
        return response
    try:
        failed = response.status_code >= 400
        history().writer.record(
            API, g.get(WHAT_KEY) or request.endpoint or "unknown", ERROR if failed else SUCCESS,
            plugin_id=_plugin_id(), method=request.method, path=request.path,
            status=response.status_code, error_code=_error_code(response) if failed else None,
            client=request.remote_addr)
    except Exception:  # isolation boundary: recording must never change the answer
        logger.exception("history: recording %s %s failed", request.method, request.path)
    return response


def _plugin_id() -> str | None:
    """Return the plugin id the call named, when it is one plain name."""
    candidates: list[Any] = [(request.view_args or {}).get("plugin_id"),
                             request.args.get("plugin_id")]
    body = g.get(_PARSED_BODY)  # parsed by the view or the body check; never parsed here
    if isinstance(body, dict):
        candidates.append(body.get("plugin_id"))
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        try:  # parsed already by the view or the body check (from the cached body)
            candidates.append(request.form.get("plugin_id"))
        except HTTPException:  # a form werkzeug refuses names no plugin
            pass
    return next((c for c in candidates if is_plain_segment(c) and len(c) <= 100), None)


def _error_code(response: Response) -> str | None:
    if response.is_streamed or not response.is_json:
        return None
    if (response.content_length or MAX_ENVELOPE + 1) > MAX_ENVELOPE:
        return None
    body = response.get_json(silent=True)
    code = body.get("error_code") if isinstance(body, dict) else None
    return code if isinstance(code, str) else None
