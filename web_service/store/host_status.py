"""The repository host's status for the store: reachable, token configured, API quota.

One ``GET {api}/rate_limit`` with a short timeout. The token (config_secrets.json,
section ``github``, key ``api_token``) is sent as ``Authorization: token <t>`` to the
API base only, and never appears in the answer or a log line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import requests

logger = logging.getLogger(__name__)

TIMEOUT = (3.0, 5.0)
MAX_BYTES = 64 * 1024


def api_token(secrets: Mapping[str, Any]) -> str | None:
    """Return the repository host token from the secrets, or None."""
    section = secrets.get("github")
    token = section.get("api_token") if isinstance(section, dict) else None
    return token.strip() if isinstance(token, str) and token.strip() else None


def host_status(api_url: str, token: str | None,
                session: requests.Session | None = None) -> dict[str, Any]:
    """Return ``{reachable, api_url, token_configured, rate_limit, error}``."""
    answer: dict[str, Any] = {"reachable": False, "api_url": api_url,
                              "token_configured": token is not None,
                              "rate_limit": None, "error": None}
    headers = {"Accept": "application/vnd.github+json"}
    if token is not None:
        headers["Authorization"] = f"token {token}"
    # loaded when the host is first asked, not with the web daemon
    from shared.http_fetch import FetchError, get_bytes
    from web_service.store.destinations import store_session
    from web_service.store.errors import StoreError

    own = session is None
    session = session or store_session()
    try:
        body = get_bytes(session, f"{api_url}/rate_limit", timeout=TIMEOUT,
                         max_bytes=MAX_BYTES, headers=headers)
    except (FetchError, StoreError) as err:
        answer["error"] = _without(str(err), token)
        logger.info("store: repository host %s not reachable: %s", api_url, answer["error"])
        return answer
    finally:
        if own:
            session.close()
    answer["reachable"] = True
    answer["rate_limit"] = _core(body)
    return answer


def _core(body: bytes) -> dict[str, int | None] | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    resources = data.get("resources")
    core = resources.get("core") if isinstance(resources, dict) else None
    if not isinstance(core, dict):
        core = data.get("rate")
    if not isinstance(core, dict):
        return None
    return {key: core[key] if type(core.get(key)) is int else None
            for key in ("limit", "remaining", "reset")}


def _without(text: str, token: str | None) -> str:
    return text.replace(token, "********") if token else text
