"""One background fetch: a GET of a scoreboard's JSON, retried while retrying may help.

A try that fails for the network, a timeout, HTTP 429 or 5xx is repeated, at most
``max_retries`` more times (the caller caps it), after pauses of 1, 2, 4 ... seconds (at
most ``RETRY_PAUSE_CAP``) that end early when ``stop`` is set. Any other failure ends it
at once. The answer must be a JSON object with an ``events`` list, the shape of the
scoreboards the existing system's sports plugins fetch this way; anything else fails.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from typing import Any

import requests

from shared.http_fetch import FetchError, get_bytes

MAX_RESPONSE_BYTES = 8 * 1024 * 1024
RETRY_PAUSE_CAP = 8.0


def fetch_events(
    session: requests.Session,
    url: str,
    *,
    params: Mapping[str, Any],
    headers: Mapping[str, str],
    timeout: float,
    max_retries: int,
    stop: threading.Event,
) -> tuple[dict[str, Any] | None, str | None, int]:
    """Return ``(data, None, retries)``, or ``(None, why, retries)`` when it failed; never raise."""
    error = "not tried"
    for attempt in range(max_retries + 1):
        if attempt and stop.wait(min(2.0 ** (attempt - 1), RETRY_PAUSE_CAP)):
            return None, "the background service is shut down", attempt
        try:
            body = get_bytes(session, url, params=params, headers=headers, timeout=timeout,
                             max_bytes=MAX_RESPONSE_BYTES)
        except FetchError as err:
            error = str(err)
            if err.retryable:
                continue
            return None, error, attempt
        try:
            return events_payload(body), None, attempt
        except ValueError as err:
            return None, str(err), attempt
    return None, error, max_retries


def events_payload(body: bytes) -> dict[str, Any]:
    """Return the JSON object of a scoreboard answer; ValueError unless it has ``events``."""
    try:
        data = json.loads(body)
    except ValueError as err:
        raise ValueError(f"the answer is not JSON: {err}") from err
    if not isinstance(data, dict):
        raise ValueError(f"the answer is a JSON {type(data).__name__}, not an object")
    if not isinstance(data.get("events"), list):
        raise ValueError("the answer has no 'events' list")
    return data
