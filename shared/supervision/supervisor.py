"""Which supervisor runs the daemons: ``systemd``, ``dev`` (scripts/dev) or none.

``LEDPANEL_SUPERVISOR`` says it (the units set ``systemd``, scripts/supervise.py sets
``dev``); unset, systemd is recognised the usual way: ``INVOCATION_ID`` in the
environment (systemd gives it to every unit's process) on a host booted with systemd
(``/run/systemd/system`` exists). A web started by hand has neither.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

SYSTEMD = "systemd"
DEV = "dev"
KINDS = (SYSTEMD, DEV)
ENV = "LEDPANEL_SUPERVISOR"


def supervisor_kind(env: Mapping[str, str] | None = None,
                    booted_marker: Path = Path("/run/systemd/system")) -> str | None:
    """Return ``systemd``, ``dev`` or None (the web started by hand)."""
    env = os.environ if env is None else env
    said = env.get(ENV, "").strip().lower()
    if said in KINDS:
        return said
    if env.get("INVOCATION_ID") and _is_dir(booted_marker):
        return SYSTEMD
    return None


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False
