"""``ledpanel-display``: the display daemon's command line."""

from __future__ import annotations

import argparse
import sys
import time

STARTED_AT = time.time()  # before the heavy imports, for the first-frame figure


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the daemon's flags; directory flags outrank the ``LEDPANEL_*`` variables."""
    parser = argparse.ArgumentParser(
        prog="ledpanel-display", description="Render the enabled plugins on the LED panel."
    )
    parser.add_argument("--config-dir", help="config directory (LEDPANEL_CONFIG_DIR)")
    parser.add_argument("--cache-dir", help="bus and cache directory (LEDPANEL_CACHE_DIR)")
    parser.add_argument("--plugins-dir", help="plugins directory (LEDPANEL_PLUGINS_DIR)")
    parser.add_argument(
        "--headless", action="store_true", help="render to an in-memory canvas, no hardware"
    )
    parser.add_argument(
        "--emulator", action="store_true",
        help="render to RGBMatrixEmulator (adapter: display.emulator_adapter); rules only warn",
    )
    parser.add_argument(
        "--log-level",
        default="INFO",
        type=str.upper,
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="log level (default INFO)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Run the display daemon until SIGTERM or SIGINT."""
    args = parse_args(argv)
    from display_service.daemon import run

    sys.exit(run(args, started_at=STARTED_AT))


if __name__ == "__main__":
    main()
