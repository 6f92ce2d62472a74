"""``ledpanel-mqtt``: the MQTT bridge's command line.

A bad flag or ``LEDPANEL_*`` directory variable is one line on stderr and exit status 2
before anything starts; a second bridge on the same bus folder exits with status 3.
"""

from __future__ import annotations

import argparse
import sys

from shared import cli_args


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the bridge's flags; directory flags outrank the ``LEDPANEL_*`` variables."""
    parser = cli_args.OneLineParser(
        prog="ledpanel-mqtt",
        description="Connect the panel to an MQTT broker (config.json's mqtt section).")
    parser.add_argument("--config-dir", help="config directory (LEDPANEL_CONFIG_DIR)")
    parser.add_argument("--cache-dir", help="bus and cache directory (LEDPANEL_CACHE_DIR)")
    parser.add_argument("--plugins-dir", help="plugins directory (LEDPANEL_PLUGINS_DIR)")
    parser.add_argument("--log-level", type=cli_args.log_level, default="INFO",
                        help="DEBUG, INFO, WARNING or ERROR (default INFO)")
    args = parser.parse_args(argv)
    try:
        cli_args.check_dirs(args)
    except cli_args.UsageError as err:
        cli_args.fail(parser.prog, str(err))
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the bridge until SIGTERM or SIGINT."""
    args = parse_args(argv)
    from mqtt_service.daemon import run

    sys.exit(run(args))


if __name__ == "__main__":
    main()
