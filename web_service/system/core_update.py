"""Update Code (``git_pull``): a stand-in until the core update with rollback lands.

It answers 501 so the button and scripts get a plain answer instead of a crash.
"""

from __future__ import annotations

from shared.errors import LedpanelError


def start_core_update() -> dict[str, object]:
    """Start the core update; not available yet."""
    raise LedpanelError("Update Code is not available in this version yet; update with "
                        "git pull in the install folder, then restart both services",
                        error_code="NOT_IMPLEMENTED", status=501)
