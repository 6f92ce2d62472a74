"""Checking a password someone typed: throttled per client address, the same everywhere
a password is asked for (sign-in, a password change, switching sign-in on)."""

from __future__ import annotations

import logging
import math

from flask import request

from shared.errors import LedpanelError
from web_service.access.sign_in import sign_in

logger = logging.getLogger(__name__)


class RateLimited(LedpanelError):
    """429: this address must wait ``details["retry_after"]`` seconds (also sent as the
    ``Retry-After`` header, see ``web_service.api.auth``)."""

    error_code = "RATE_LIMITED"
    status = 429

    def __init__(self, seconds: int) -> None:
        super().__init__(f"too many wrong passwords from this address; wait {seconds} s, "
                         "then try again (other devices are not held up)",
                         details={"retry_after": seconds})


def check_password(password: str) -> None:
    """Raise RateLimited while this client must wait, a 401 when ``password`` is wrong."""
    state = sign_in()
    client = request.remote_addr or "unknown"
    wait = state.throttle.wait_seconds(client)
    if wait > 0:
        logger.warning("sign-in: %s is refused for %.0f s more (too many wrong passwords)",
                       client, wait)
        raise RateLimited(max(1, math.ceil(wait)))
    if not state.credentials.verify_password(password):
        state.throttle.failed(client)
        logger.warning("sign-in: wrong password from %s", client)
        raise LedpanelError("wrong password", error_code="WRONG_PASSWORD", status=401)
