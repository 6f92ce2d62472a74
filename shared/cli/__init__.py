"""The ``ledpanel`` command: status, config validation, on-demand and logs from a shell.

It talks to the web daemon's REST API; ``status`` reads the bus files when the web is
unreachable and prints the same report. Exit status: 0 when all is well, 1 when a
command failed (its one-line reason on stderr, never a traceback), 2 for bad usage,
3 from ``status`` when the web or the display service is not running.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from shared import cli_args
from shared.cli.apps import add_command as add_apps_command
from shared.cli.common import CliError
from shared.cli.logs import add_command as add_logs_command
from shared.cli.on_demand import cmd_on_demand_start, cmd_on_demand_stop
from shared.cli.plugin import add_command as add_plugin_command
from shared.cli.sign_in import add_commands as add_sign_in_commands
from shared.cli.skin import add_command as add_skin_command
from shared.cli.status import cmd_status
from shared.cli.update import add_command as add_update_command
from shared.cli.validate import cmd_config_validate
from shared.version import CORE_VERSION

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    web = cli_args.OneLineParser(add_help=False)
    web.add_argument("--url", type=cli_args.web_url,
                     help="web service base URL (default: where the running web daemon "
                          "says it listens, else $LEDPANEL_WEB_URL, else http://127.0.0.1 on "
                          "$LEDPANEL_WEB_PORT or web.port from the config)")
    web.add_argument("--cache-dir", help="bus directory: where the running web daemon "
                                         "published its address, and what status reads "
                                         "when the web is unreachable")
    web.add_argument("--config-dir", help="config directory, for web.port "
                                          "(default: $LEDPANEL_CONFIG_DIR or config/)")
    parser = cli_args.OneLineParser(prog="ledpanel", description="Control a ledpanel device.")
    parser.add_argument("--version", action="version", version=f"ledpanel {CORE_VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    status = commands.add_parser("status", parents=[web], help="show what the panel does")
    status.add_argument("--json", action="store_true",
                        help="print the report as JSON (same shape with the web up or down)")
    status.set_defaults(func=cmd_status)
    config = commands.add_parser("config", help="work with config/config.json")
    config_commands = config.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    validate = config_commands.add_parser(
        "validate", help="check config.json with the rules every save runs")
    validate.add_argument("--config-dir", help="directory holding config.json")
    validate.add_argument("--plugins-dir", help="directory plugins are installed in")
    validate.set_defaults(func=cmd_config_validate)
    on_demand = commands.add_parser("on-demand", help="show one plugin now")
    od_commands = on_demand.add_subparsers(dest="sub", required=True, metavar="COMMAND")
    start = od_commands.add_parser("start", parents=[web], help="start on-demand")
    start.add_argument("plugin", help="plugin id")
    start.add_argument("--mode", help="display mode (default: the plugin's first)")
    start.add_argument("--duration", type=cli_args.positive_seconds, help="seconds to show it")
    start.add_argument("--pinned", action="store_true", help="keep it until stopped")
    start.set_defaults(func=cmd_on_demand_start)
    od_commands.add_parser("stop", parents=[web], help="stop on-demand").set_defaults(
        func=cmd_on_demand_stop)
    add_sign_in_commands(commands)
    add_update_command(commands, web)
    add_logs_command(commands)
    add_apps_command(commands)
    add_plugin_command(commands)
    add_skin_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ledpanel`` command line; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        code = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here, while it can still be handled
        return code
    except SystemExit as exit_:  # argparse: --help, --version, usage errors
        return exit_.code if isinstance(exit_.code, int) else 1
    except cli_args.UsageError as err:
        print(f"ledpanel: {err}", file=sys.stderr)
        return cli_args.EXIT_USAGE
    except CliError as err:
        print(f"ledpanel: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (ledpanel status | head -3)
        # Python flushes stdout again at exit: point it at nothing so that is quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
