"""Run the display and web daemons together for development (standard library only).

Both logs are interleaved line by line with the daemon's name in front, and each is
also written to its own file, ``<cache dir>/logs/display.log`` and ``web.log``
(emptied at start, renamed to ``.log.1`` past 1 MiB), where the web's Logs tab and
``GET /api/v3/logs`` read them (``shared/logs/daemon_logs.py``). Ctrl-C or
SIGTERM stops both: SIGTERM to each, then SIGKILL for any still alive after the grace
period. If one daemon exits on its own the other is stopped too and the supervisor
exits non-zero, naming the one that died and its exit code.

Both children get ``LEDPANEL_SUPERVISOR=dev``: the web's system actions (the Overview's
buttons, ``POST /api/v3/system/action``) then ask this supervisor, through request
files in ``<cache dir>/dev-supervisor/`` (``shared/supervision/dev_control.py``), to
stop, start or restart the display, or restart the web. A display stopped on request
stays stopped, and the web keeps running, until a start.

The MQTT bridge (``python -m mqtt_service``, ``ledpanel-mqtt``) runs beside them,
supervised the same way, its log in ``mqtt.log``; it stays idle until MQTT is switched
on in the config, and ``--no-mqtt`` leaves it out.

With ``--preview`` the developer preview server (``python -m preview_service``, port
5001 or ``--preview-port``) runs beside them, supervised the same way, its log in
``preview.log``.

Usage: scripts/dev [--emulator] [--host H] [--port P] [--config-dir D] [--cache-dir D]
                   [--plugins-dir D] [--no-mqtt] [--preview [--preview-port P]]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from shared import cli_args
from shared.cli.common import stored_port
from shared.logs.daemon_logs import LogFileWriter, log_file
from shared.paths import resolve_paths
from shared.supervision import dev_control

ROOT = Path(__file__).resolve().parent.parent
Announce = Callable[["Child", threading.Event], None]
NAME_WIDTH = 7  # len("display")
_print_lock = threading.Lock()


def emit(name: str, line: str) -> None:
    """Print one log line prefixed with the process name."""
    with _print_lock:
        sys.stdout.write(f"{name:<{NAME_WIDTH}} | {line}\n")
        sys.stdout.flush()


def note(message: str) -> None:
    """Print one line of the supervisor's own."""
    with _print_lock:
        sys.stdout.write(f"ledpanel: {message}\n")
        sys.stdout.flush()


@dataclass
class Child:
    """One supervised daemon."""

    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None
    reader: threading.Thread | None = field(default=None, repr=False)
    log: LogFileWriter | None = field(default=None, repr=False)
    wanted: bool = True  # False while stopped on request: its exit is no failure

    def start(self, env: dict[str, str]) -> None:
        # A session of its own, so the terminal's Ctrl-C reaches only the supervisor,
        # which then stops the children in order.
        self.process = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )

    def start_reader(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        self.reader = threading.Thread(
            target=_pump, args=(self.name, self.process.stdout, self.log), daemon=True
        )
        self.reader.start()

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, signum: int) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signum)


def _die_with_parent() -> None:
    # If the supervisor itself is killed (SIGKILL, closed terminal), the kernel sends
    # the child SIGTERM instead of leaving it running on the port.
    import ctypes

    pr_set_pdeathsig = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _pump(name: str, stream: IO[bytes], log: LogFileWriter | None) -> None:
    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        emit(name, line)
        if log is not None:
            try:
                log.write(line)
            except OSError as err:  # the terminal keeps the output; the file stops
                note(f"{name}: cannot write {log.path} any more: {err.strerror or err}")
                log = None
    stream.close()


def open_logs(children: Sequence[Child], cache_dir: Path) -> None:
    """Give each child its log file under ``cache_dir``; one that cannot be made is said."""
    for child in children:
        path = log_file(cache_dir, child.name)
        try:
            child.log = LogFileWriter(path)
        except OSError as err:
            note(f"{child.name}: no log file ({path}: {err.strerror or err}); the web's "
                 "Logs tab reads journald instead")


def stop_all(children: Sequence[Child], grace: float) -> None:
    """Send SIGTERM to every child, wait up to ``grace`` seconds, then SIGKILL the rest."""
    for child in children:
        child.signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        assert child.process is not None
        try:
            child.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            note(f"{child.name} did not stop within {grace:g} s; killing it")
            child.signal(signal.SIGKILL)
            child.process.wait()
    for child in children:
        if child.reader is not None:
            child.reader.join(timeout=2)


def start_child(child: Child, env: dict[str, str]) -> None:
    """Start ``child`` and the thread printing its output."""
    child.start(env)
    child.start_reader()
    child.wanted = True


def act(action: str, children: Sequence[Child], env: dict[str, str], grace: float) -> str:
    """Do one request of the web's (``dev_control.DEV_ACTIONS``); return what was done."""
    display, web = children[0], children[-1]
    target = web if action == "restart_web_service" else display
    if action == "start_display" and display.running():
        return "the display was running already"
    if action != "start_display":
        target.wanted = False
        stop_all([target], grace)
    if action == "stop_display":
        note("display stopped on request; the web keeps running")
        return "display stopped"
    start_child(target, env)
    verb = "started" if action == "start_display" else "restarted"
    note(f"{target.name} {verb} on request")
    return f"{target.name} {verb}"


def serve_requests(children: Sequence[Child], env: dict[str, str], grace: float,
                   cache_dir: Path) -> None:
    """Act on every request the web left in the control folder, and answer each."""
    for request_id, action in dev_control.take_requests(cache_dir):
        try:
            done, message = True, act(action, children, env, grace)
        except OSError as err:
            done, message = False, f"{action} failed: {err}"
            note(message)
        with contextlib.suppress(OSError):
            dev_control.answer(cache_dir, request_id, done, message)


def supervise(children: Sequence[Child], grace: float = 10.0,
              announce: Announce | None = None, cache_dir: Path | None = None) -> int:
    """Run ``children`` until a signal or until one exits; return the exit status.

    ``announce``, if given, runs in a thread of its own with the last child (the web)
    and the event set when the supervisor stops. With ``cache_dir`` the web's requests
    in its control folder are served (``dev_control``)."""
    stop = threading.Event()
    received: list[int] = []

    def on_signal(signum: int, _frame: object) -> None:
        received.append(signum)
        stop.set()
        if len(received) > 1:  # a second Ctrl-C: no more waiting
            for child in children:
                child.signal(signal.SIGKILL)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)

    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LEDPANEL_SUPERVISOR": "dev"}
    if cache_dir is not None:
        dev_control.clear(cache_dir)
    try:
        for child in children:
            child.start(env)
    except OSError as err:
        note(f"cannot start {child.name} ({shlex.join(child.argv)}): {err}")
        stop_all([c for c in children if c.process is not None], grace)
        return 1
    for child in children:
        child.start_reader()
    if announce is not None:
        threading.Thread(target=announce, args=(children[-1], stop), name="announce",
                         daemon=True).start()

    dead = watch(children, stop, env, grace, cache_dir)
    if dead is not None:
        assert dead.process is not None
        if dead.reader is not None:
            dead.reader.join(timeout=2)  # print its last words before ours
        code = dead.process.returncode
        others = [c for c in children if c is not dead]
        note(
            f"{dead.name} exited with code {code}; stopping "
            + ", ".join(c.name for c in others)
        )
        stop_all(others, grace)
        return code if code > 0 else 1
    name = signal.Signals(received[0]).name if received else "signal"
    note(f"{name} received; stopping both daemons")
    stop_all(children, grace)
    return 0


def watch(children: Sequence[Child], stop: threading.Event, env: dict[str, str],
          grace: float, cache_dir: Path | None) -> Child | None:
    """Serve requests until ``stop`` is set (None) or a child exits unasked (it)."""
    while not stop.wait(0.2):
        if cache_dir is not None:
            serve_requests(children, env, grace, cache_dir)
        dead = next((c for c in children if c.wanted and c.process is not None
                     and c.process.poll() is not None), None)
        if dead is not None:
            return dead
    return None


def web_announcer(host: str, port: int) -> Announce:
    """Return the announcer that prints the web UI's address once the web answers (its
    health check), so a web that fails at start never shows an address that is dead."""
    connect = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]"}.get(host, host)
    if ":" in connect and not connect.startswith("["):
        connect = f"[{connect}]"
    health = f"http://{connect}:{port}/api/v3/health"
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::", "") else connect

    def announce(web: Child, stop: threading.Event) -> None:
        while not stop.is_set() and web.process is not None and web.process.poll() is None:
            try:
                with urllib.request.urlopen(health, timeout=2) as answer:
                    if answer.status == 200:
                        with _print_lock:
                            print(f"ledpanel web UI: http://{shown}:{port}", flush=True)
                        return
            except (OSError, ValueError):  # not listening yet, or not answering yet
                pass
            stop.wait(0.25)

    return announce


def build_children(args: argparse.Namespace) -> list[Child]:
    """Return the display and web commands for the parsed options."""
    dirs: list[str] = []
    for flag in ("config_dir", "cache_dir", "plugins_dir"):
        value = getattr(args, flag)
        if value:
            dirs += [f"--{flag.replace('_', '-')}", value]
    display = (
        shlex.split(args.display_cmd)
        if args.display_cmd
        else [sys.executable, "-m", "display_service",
              "--emulator" if args.emulator else "--headless", *dirs]
    )
    web = (
        shlex.split(args.web_cmd)
        if args.web_cmd
        else [
            sys.executable, "-m", "web_service",
            "--host", args.host, "--port", str(args.port), *dirs,
        ]
    )
    children = [Child("display", display), Child("web", web)]
    if not args.no_mqtt:  # the MQTT bridge: idle (no connection) until MQTT is switched on
        mqtt = (shlex.split(args.mqtt_cmd) if args.mqtt_cmd
                else [sys.executable, "-m", "mqtt_service", *dirs])
        children.insert(1, Child("mqtt", mqtt))
    if args.preview:  # between the two: the web stays last (the address announcer's)
        preview = (shlex.split(args.preview_cmd) if args.preview_cmd
                   else [sys.executable, "-m", "preview_service",
                         "--port", str(args.preview_port),
                         *(["--plugins-dir", args.plugins_dir] if args.plugins_dir else [])])
        children.insert(1, Child("preview", preview))
    return children


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse flags and ``LEDPANEL_WEB_*``; a bad value is one line and exit status 2."""
    parser = cli_args.OneLineParser(
        prog="scripts/dev", description="Run both ledpanel daemons in development mode."
    )
    parser.add_argument("--host", help="web address (LEDPANEL_WEB_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=cli_args.port,
                        help="web port (LEDPANEL_WEB_PORT, else web.port from the config)")
    parser.add_argument("--emulator", action="store_true",
                        help="run the display in emulator mode (RGBMatrixEmulator) instead of "
                             "headless")
    parser.add_argument("--config-dir", help="passed to both daemons")
    parser.add_argument("--cache-dir", help="passed to both daemons (the bus directory)")
    parser.add_argument("--plugins-dir", help="passed to both daemons")
    parser.add_argument(
        "--grace", type=float, default=10.0, help="seconds between SIGTERM and SIGKILL"
    )
    parser.add_argument("--display-cmd", help="replace the display command (shell words)")
    parser.add_argument("--web-cmd", help="replace the web command (shell words)")
    parser.add_argument("--mqtt-cmd", help="replace the MQTT bridge's command (shell words)")
    parser.add_argument("--no-mqtt", action="store_true",
                        help="leave the MQTT bridge (ledpanel-mqtt) out")
    parser.add_argument("--preview", action="store_true",
                        help="also run the developer preview server (ledpanel-preview)")
    parser.add_argument("--preview-port", type=int, default=5001,
                        help="the preview server's port (default 5001)")
    parser.add_argument("--preview-cmd", help="replace the preview command (shell words)")
    args = parser.parse_args(argv)
    try:
        args.host = args.host or cli_args.from_env("LEDPANEL_WEB_HOST", str) or "127.0.0.1"
        if args.port is None:
            args.port = (cli_args.from_env("LEDPANEL_WEB_PORT", cli_args.port)
                         or stored_port(args.config_dir))
        cli_args.check_dirs(args)
    except cli_args.UsageError as err:
        cli_args.fail(parser.prog, str(err))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    note("starting both daemons; the web UI's address follows once it answers. "
         "Ctrl-C stops both (a second Ctrl-C kills them)")
    children = build_children(args)
    cache_dir = resolve_paths(cache_dir=args.cache_dir).cache_dir
    open_logs(children, cache_dir)
    return supervise(children, grace=args.grace, announce=web_announcer(args.host, args.port),
                     cache_dir=cache_dir)


if __name__ == "__main__":
    sys.exit(main())
