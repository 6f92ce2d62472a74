"""``ledpanel-display``: the display daemon's command line.

A bad flag or ``LEDPANEL_*`` directory variable is one line on stderr and exit status
2 before anything starts.
"""

from __future__ import annotations

import time

STARTED_AT = time.time()  # before the other imports, for the first-frame figure

import argparse  # noqa: E402
import gc  # noqa: E402
import sys  # noqa: E402

from shared import cli_args  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the daemon's flags; directory flags outrank the ``LEDPANEL_*`` variables."""
    parser = cli_args.OneLineParser(
        prog="ledpanel-display", description="Render the enabled plugins on the LED panel."
    )
    parser.add_argument("--config-dir", help="config directory (LEDPANEL_CONFIG_DIR)")
    parser.add_argument("--cache-dir", help="bus and cache directory (LEDPANEL_CACHE_DIR)")
    parser.add_argument("--plugins-dir", help="plugins directory (LEDPANEL_PLUGINS_DIR)")
    parser.add_argument(
        "--headless", action="store_true",
        help="render to an in-memory canvas, no hardware (wins over emulator mode)"
    )
    parser.add_argument(
        "--emulator", action="store_true",
        help="render to RGBMatrixEmulator (adapter: display.emulator_adapter); rules only warn",
    )
    parser.add_argument("--log-level", type=cli_args.log_level, default="INFO",
                        help="DEBUG, INFO, WARNING or ERROR (default INFO)")
    parser.add_argument(
        "--hang-seconds", type=cli_args.positive_seconds,
        help="restart without a plugin whose display() runs this long "
             "(LEDPANEL_HANG_SECONDS; default 8)",
    )
    args = parser.parse_args(argv)
    try:
        cli_args.check_dirs(args)
        if args.hang_seconds is None:
            args.hang_seconds = cli_args.from_env("LEDPANEL_HANG_SECONDS",
                                                  cli_args.positive_seconds)
    except cli_args.UsageError as err:
        cli_args.fail(parser.prog, str(err))
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the display daemon until SIGTERM or SIGINT."""
    args = parse_args(argv)
    # No collector passes while the start builds its long-lived objects: they are cycles
    # the collector would walk again and again for nothing. The render loop freezes what
    # the start made and turns the collector back on before its first pass.
    gc.disable()
    from display_service.daemon import run

    sys.exit(run(args, started_at=STARTED_AT))


if __name__ == "__main__":
    main()
