"""``ledpanel on-demand start|stop``."""

from __future__ import annotations

import argparse
from typing import Any

from shared.cli.common import api, web_url


def cmd_on_demand_start(args: argparse.Namespace) -> int:
    body = {"plugin_id": args.plugin, "mode": args.mode, "duration": args.duration,
            "pinned": args.pinned}
    return _print_state(api(web_url(args), "POST", "/display/on-demand/start", body))


def cmd_on_demand_stop(args: argparse.Namespace) -> int:
    return _print_state(api(web_url(args), "POST", "/display/on-demand/stop", {}))


def _print_state(envelope: dict[str, Any]) -> int:
    state = (envelope.get("data") or {}).get("state", "unknown")
    print(f"{state} ({envelope['message']})" if envelope.get("message") else state)
    return 0
