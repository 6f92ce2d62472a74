"""``ledpanel logs``: follow the daemons' logs (display, web, MQTT bridge) from a shell.

On a device the daemons' lines are in journald under their units: this runs
``journalctl -f -u ledpanel-display.service -u ledpanel-web.service -u
ledpanel-mqtt.service`` (``--no-follow``
prints and ends; ``--priority`` is journald's filter, which the daemons' ``<N>`` line
prefixes make work). Under ``scripts/dev`` there is no unit: when the dev log files
``<cache dir>/logs/<daemon>.log`` of the display and the web exist, those of the daemons
asked for are read instead (the bridge's is there when the run has it),
each one's newest ``--lines`` lines (one daemon's after the other's), then what is
appended, as it comes (a file rotated to ``.log.1`` or emptied by a new run is read again
from its start), each line with the daemon's name in front as ``scripts/dev`` prints it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from shared.cli.common import CliError, bus_dir
from shared.files.tail import read_from, read_tail
from shared.logs.daemon_logs import CORE_DAEMONS, DAEMONS, UNITS, at_least, log_file, parse_line

# Our level names (what the Logs tab shows) to journald's priority names.
PRIORITIES = {"debug": "debug", "info": "info", "warning": "warning", "error": "err",
              "critical": "crit"}
TAIL_BYTES = 1024 * 1024
CHUNK = 256 * 1024
POLL_SECONDS = 0.2
NAME_WIDTH = 7  # len("display"), as scripts/dev pads it


def add_command(commands: argparse._SubParsersAction) -> None:
    """Add ``ledpanel logs`` to the command line."""
    logs = commands.add_parser("logs", help="follow the display and web daemons' logs")
    logs.add_argument("--lines", "-n", type=_count, default=50,
                      help="how many of the newest lines to show first (default 50)")
    logs.add_argument("--unit", choices=DAEMONS, action="append",
                      help="only this daemon (display or web; default both)")
    logs.add_argument("--priority", "-p", type=str.lower, choices=tuple(PRIORITIES),
                      help="only lines at this level or more severe")
    logs.add_argument("--no-follow", action="store_true",
                      help="print the newest lines and end instead of following")
    logs.add_argument("--cache-dir", help="bus directory whose logs/ a dev run writes "
                                          "(default: $LEDPANEL_CACHE_DIR, the device's, "
                                          "the checkout's)")
    logs.set_defaults(func=cmd_logs)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError("must be 0 to 100000")
    return value


def cmd_logs(args: argparse.Namespace) -> int:
    """Follow (or print) the logs from the dev files when a dev run wrote them, else journald."""
    daemons = tuple(dict.fromkeys(args.unit or DAEMONS))
    folder = bus_dir(args.cache_dir)
    # A dev run writes a file per daemon (the MQTT bridge's only when it runs it).
    files = {daemon: log_file(folder, daemon) for daemon in daemons}
    present = {daemon: path for daemon, path in files.items() if path.is_file()}
    if present and all(log_file(folder, core).is_file() for core in CORE_DAEMONS):
        return follow_files(present, args.lines, args.priority, follow=not args.no_follow)
    return run_journalctl(daemons, args.lines, args.priority, follow=not args.no_follow,
                          folder=folder)


def journalctl_argv(daemons: tuple[str, ...], lines: int, priority: str | None, *,
                    follow: bool, journalctl: str) -> list[str]:
    """Return the ``journalctl`` command line for these daemons."""
    argv = [journalctl, "--no-pager", "-n", str(lines)]
    argv += ["-f"] if follow else []
    argv += [arg for daemon in daemons for arg in ("-u", UNITS[daemon])]
    return argv + (["-p", PRIORITIES[priority]] if priority else [])


def run_journalctl(daemons: tuple[str, ...], lines: int, priority: str | None, *,
                   follow: bool, folder: Path) -> int:
    """Run journalctl for the daemons' units; its exit status is ours."""
    journalctl = shutil.which("journalctl")
    if journalctl is None:
        raise CliError(f"no dev log files in {folder / 'logs'} and no journalctl on this "
                       "machine: start the daemons with scripts/dev (or as the installed "
                       "services), or name the dev run's folder with --cache-dir")
    sys.stdout.flush()
    try:
        return subprocess.call(journalctl_argv(daemons, lines, priority, follow=follow,
                                               journalctl=journalctl))
    except OSError as err:
        raise CliError(f"journalctl cannot be run: {err.strerror or err}") from err


@dataclass
class DevFile:
    """One daemon's dev log file, read from where the last read ended."""

    daemon: str
    path: Path
    inode: int = -1
    offset: int = 0
    level: str = field(default="INFO")  # of the record the next continuation belongs to

    def newest(self, lines: int) -> list[tuple[str, str]]:
        """Return the last ``lines`` lines (with their levels), standing at the file's end."""
        try:
            tail = read_tail(self.path, TAIL_BYTES)
        except OSError:
            return []
        self.inode, self.offset = tail.inode, tail.end
        found = [self._levelled(raw) for raw in tail.lines]
        return found[-lines:] if lines else []

    def appended(self) -> list[tuple[str, str]]:
        """Return the whole lines written since the last read (a rotated or emptied file is
        read again from its start)."""
        try:
            chunk = read_from(self.path, self.offset, CHUNK)
            if chunk.inode != self.inode or chunk.size < self.offset:
                chunk = read_from(self.path, 0, CHUNK)
        except OSError:
            return []
        self.inode, self.offset = chunk.inode, chunk.end
        return [self._levelled(raw) for raw in chunk.lines]

    def _levelled(self, raw: bytes) -> tuple[str, str]:
        text = raw.decode("utf-8", "replace")
        parsed = parse_line(text)
        if parsed is not None:
            self.level = parsed.level
        return self.level, text


def follow_files(paths: dict[str, Path], lines: int, priority: str | None, *,
                 follow: bool) -> int:
    """Print the newest lines of the dev log files, then what they get until interrupted."""
    minimum = (priority or "debug").upper()
    files = [DevFile(daemon, path) for daemon, path in paths.items()]
    for source in files:
        _print(source.daemon, source.newest(lines), minimum)
    while follow:
        time.sleep(POLL_SECONDS)  # a log file gives no sign of new lines: look again
        for source in files:
            _print(source.daemon, source.appended(), minimum)
    return 0


def _print(daemon: str, lines: list[tuple[str, str]], minimum: str) -> None:
    shown = [f"{daemon:<{NAME_WIDTH}} | {text}\n" for level, text in lines
             if at_least(level, minimum)]
    if shown:
        sys.stdout.write("".join(shown))
        sys.stdout.flush()


