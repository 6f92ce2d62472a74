"""``ledpanel update``: start a core update through the web service, follow it, print the
verdict.

The web daemon restarts during an update, so while it does not answer the state file in
the bus folder is read instead (when this user may read it), and the command keeps
waiting until a verdict comes or the lost-timeout passes. Exit 0 for ``updated`` and
``up_to_date``, 1 for any other verdict or a lost update.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from shared.cli.common import Unreachable, api, bus_dir, web_url
from shared.core_update.limits import LOST_TIMEOUT
from shared.core_update.state import UP_TO_DATE, UPDATED, read_state, report

POLL_SECONDS = 0.5


def add_command(commands: Any, web: argparse.ArgumentParser) -> None:
    """Add ``update`` to the ``ledpanel`` command's sub-commands."""
    update = commands.add_parser("update", parents=[web],
                                 help="update the core (rolled back if unhealthy)")
    update.add_argument("--stash", action="store_true",
                        help="stash local changes outside plugins/ and plugin-repos/ "
                             "instead of refusing")
    update.add_argument("--no-wait", action="store_true",
                        help="start the update and return without following it")
    update.set_defaults(func=cmd_update)


def cmd_update(args: argparse.Namespace) -> int:
    url = web_url(args)
    started = api(url, "POST", "/system/update", {"stash": args.stash, "trigger": "cli"})
    print(started.get("message") or "update started", flush=True)
    if args.no_wait:
        return 0
    update_id = (started.get("data") or {}).get("id")
    shown = _follow(args, url, update_id)
    print(f"{shown.get('result') or 'lost'}: {shown.get('message')}")
    if shown.get("stashed"):
        print(shown["stashed"])
    return 0 if shown.get("result") in (UPDATED, UP_TO_DATE) and not shown.get("lost") else 1


def _follow(args: argparse.Namespace, url: str, update_id: Any) -> dict[str, Any]:
    """Poll the state until a verdict (or lost); print each new phase."""
    deadline = time.monotonic() + LOST_TIMEOUT
    last_phase = None
    while True:
        shown = _state(args, url)
        if shown is not None and shown.get("id") == update_id:
            if shown.get("phase") not in (last_phase, "done"):
                last_phase = shown.get("phase")
                print(f"  {last_phase}: {shown.get('message')}", flush=True)
            if not shown.get("running"):
                return shown
        if time.monotonic() > deadline:
            return {"result": None, "lost": True, "message": report(
                {"result": None, "started_at": 0.0}).get("message")}
        time.sleep(POLL_SECONDS)


def _state(args: argparse.Namespace, url: str) -> dict[str, Any] | None:
    try:
        return api(url, "GET", "/system/update").get("data")
    except Unreachable:  # the web restarts during the update: read the bus instead
        state = read_state(bus_dir(getattr(args, "cache_dir", None)))
        return report(state) if state is not None else None
