"""``python -m mqtt_service.ha_forget``: remove the panel from Home Assistant by hand.

For a panel whose discovery configs stayed retained on a broker: MQTT was switched off
while the broker was away, or the panel is being retired. It connects once to the
broker in config.json's ``mqtt`` section (``enabled`` need not be true), with a client
id of its own and no will, publishes the empty retained configs of every entity this or
an older version published, waits for the broker to take them and says what happened
in one line (exit status 0 when removed, 1 otherwise). While the bridge runs with MQTT
switched on it refuses: switching MQTT off removes the panel, and the bridge would not
know its configs were gone. The run is in the operation history (source ``mqtt``).
"""

from __future__ import annotations

import argparse
import sys

from mqtt_service.discovery import clear_messages
from mqtt_service.ha_announcer import publish_all
from shared import cli_args
from shared.bus.daemon_lock import MQTT, lock_holder
from shared.config.store import ConfigStore
from shared.errors import LedpanelError
from shared.history import ERROR, MQTT_COMMAND, SUCCESS, HistoryWriter, history_dir
from shared.history import MQTT as MQTT_SOURCE
from shared.mqtt.client_options import client_id, make_client
from shared.mqtt.probe import connect_once
from shared.mqtt.settings import MqttSettings, read_settings
from shared.paths import resolve_paths

TIMEOUT = 10.0  # seconds to connect, and again for the broker to take the configs
BRIDGE_RUNS = ("the MQTT bridge is running with MQTT switched on: switch MQTT off in the "
               "web UI instead, which removes the panel from Home Assistant")


def forget(settings: MqttSettings, timeout: float = TIMEOUT) -> str | None:
    """Clear the panel's discovery configs on the broker; return None when the broker
    took them all, else a sentence saying what went wrong."""
    if not settings.host:
        return "no broker host is set (mqtt.host in config.json)"
    client = make_client(settings, identity=client_id(settings.base_topic, "-forget"),
                         will=False, persistent=False)
    try:
        problem = connect_once(client, settings, timeout)
        if problem is None and not publish_all(client, clear_messages(settings), timeout):
            problem = "the broker did not take every empty config in time"
        return problem
    finally:
        client.disconnect()
        client.loop_stop()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = cli_args.OneLineParser(
        prog="python -m mqtt_service.ha_forget",
        description="Remove the panel from Home Assistant: clear its retained MQTT "
                    "discovery configs on the broker in config.json's mqtt section.")
    parser.add_argument("--config-dir", help="config directory (LEDPANEL_CONFIG_DIR)")
    parser.add_argument("--cache-dir", help="bus and cache directory (LEDPANEL_CACHE_DIR)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help=f"seconds to wait for the broker (default {TIMEOUT:g})")
    args = parser.parse_args(argv)
    args.plugins_dir = None
    try:
        cli_args.check_dirs(args)
    except cli_args.UsageError as err:
        cli_args.fail(parser.prog, str(err))
    if not 0 < args.timeout <= 300:
        cli_args.fail(parser.prog, "--timeout must be more than 0 and at most 300 seconds")
    return args


def run(args: argparse.Namespace) -> tuple[int, str]:
    """Do it; return the exit status and the line to print."""
    paths = resolve_paths(config_dir=args.config_dir, cache_dir=args.cache_dir)
    store = ConfigStore(paths)
    try:
        settings = read_settings(store.main_snapshot().data, store.load_secrets())
    except LedpanelError as err:
        return 1, f"cannot read the settings: {err.message}"
    if settings.usable and lock_holder(paths.cache_dir, MQTT) is not None:
        return 1, BRIDGE_RUNS
    problem = forget(settings, args.timeout)
    history = HistoryWriter(history_dir(paths.cache_dir), MQTT_SOURCE)
    history.record(MQTT_COMMAND, "ha_forget", ERROR if problem else SUCCESS,
                   topic=settings.discovery_prefix, detail=problem or "discovery cleared")
    if problem:
        return 1, f"the panel was not removed from Home Assistant: {problem}"
    return 0, (f"removed the panel from Home Assistant ({len(clear_messages(settings))} "
               f"configs cleared under {settings.discovery_prefix}/ on "
               f"{settings.host}:{settings.port})")


def main(argv: list[str] | None = None) -> None:
    status, line = run(parse_args(argv))
    print(line, file=sys.stderr if status else sys.stdout)
    sys.exit(status)


if __name__ == "__main__":
    main()
