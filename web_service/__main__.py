"""ledpanel-web: serve the web UI and API with a production WSGI server.

Input: ``--host`` (else ``LEDPANEL_WEB_HOST``, else 0.0.0.0), ``--port`` (else
``LEDPANEL_WEB_PORT``, else ``web.port`` from the config, else 5000; 0 picks a free
port), the directory flags and their ``LEDPANEL_*`` variables. A bad value, a port in
use or an address that cannot be bound is one line on stderr and exit status 2;
another ledpanel-web on the same bus directory is exit status 3.
"""

from __future__ import annotations

import argparse
import errno
import functools
import gc
import logging
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared import cli_args
from shared.bus.core import WEB_STATE, Bus
from shared.bus.daemon_lock import WEB, DaemonLock, lock_at_start
from shared.bus.dir_guard import BusDirGuard
from shared.errors import AtomicWriteError, LedpanelError
from shared.logs.setup import setup_logging
from shared.paths import Paths, export_dirs, resolve_paths
from shared.version import CORE_VERSION

if TYPE_CHECKING:
    from flask import Flask

    from shared.config.store import ConfigStore
    from web_service.plugin_catalog import PluginCatalog

logger = logging.getLogger("ledpanel.web")

DEFAULT_HOST = "0.0.0.0"
EXIT_USAGE = 2


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line and the ``LEDPANEL_WEB_*`` variables; exit 2 when bad."""
    parser = cli_args.OneLineParser(prog="ledpanel-web", description=__doc__.splitlines()[0])
    parser.add_argument("--host", help=f"address to listen on (LEDPANEL_WEB_HOST, default "
                                       f"{DEFAULT_HOST})")
    parser.add_argument("--port", type=cli_args.port, default=None,
                        help="port (LEDPANEL_WEB_PORT, else web.port from the config, 5000)")
    parser.add_argument("--config-dir", help="config directory (LEDPANEL_CONFIG_DIR)")
    parser.add_argument("--cache-dir", help="bus and cache directory (LEDPANEL_CACHE_DIR)")
    parser.add_argument("--plugins-dir", help="plugins directory (LEDPANEL_PLUGINS_DIR)")
    parser.add_argument("--threads", type=cli_args.threads, default=8, help="request threads")
    parser.add_argument("--log-level", type=cli_args.log_level, default="INFO",
                        help="DEBUG, INFO, WARNING or ERROR (default INFO)")
    args = parser.parse_args(argv)
    try:
        args.port = args.port if args.port is not None else cli_args.from_env(
            "LEDPANEL_WEB_PORT", cli_args.port)
        args.host = args.host or cli_args.from_env("LEDPANEL_WEB_HOST", str) or DEFAULT_HOST
        cli_args.check_dirs(args)
    except cli_args.UsageError as err:
        cli_args.fail(parser.prog, str(err))
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the web daemon until interrupted."""
    args = parse_args(argv)
    setup_logging(args.log_level)
    paths = resolve_paths(config_dir=args.config_dir, cache_dir=args.cache_dir,
                          plugins_dir=args.plugins_dir)
    lock = lock_at_start(paths.cache_dir, WEB, logger)
    if isinstance(lock, int):
        return lock
    # No collector passes while the imports and the app build their long-lived objects
    # (cycles it would walk again and again for nothing); frozen and on again after.
    gc.disable()
    try:
        built = _build_app(args, paths)
    finally:
        gc.freeze()
        gc.enable()
    if isinstance(built, int):
        return built
    app, port, config = built
    server = _listen(app, args.host, port, args.threads)
    if server is None:
        return EXIT_USAGE
    return _serve(app, server, paths, lock, args.host, config)


def _build_app(args: argparse.Namespace, paths: Paths
               ) -> tuple[Flask, int, dict[str, Any]] | int:
    """Return the app, the port to listen on and the config it starts on (else exit 2)."""
    from shared.config.store import ConfigStore
    from shared.plugin_system.discovery import plugins_dir_for
    from web_service.dev_server_stub import keep_dev_server_unloaded

    keep_dev_server_unloaded()  # before Flask: waitress serves, not Werkzeug's dev server
    from web_service.app import create_app
    from web_service.settings import WebSettings

    try:
        store = ConfigStore(paths)
        config = _start_config(store)
        port = args.port if args.port is not None else cli_args.configured_port(config)
    except LedpanelError as err:
        logger.error("cannot start: %s", err.message)
        return EXIT_USAGE
    # Action scripts the web starts inherit this: they see the directories we were given.
    export_dirs(paths, plugins_dir_for(paths, config))
    _recover_store(plugins_dir_for(paths, config), paths.dev_plugins_dir)
    return create_app(WebSettings(paths=paths, host=args.host, port=port)), port, config


def _listen(app: Flask, host: str, port: int, threads: int) -> Any:
    """Bind the server, or say in one line why it cannot be (None)."""
    from waitress import create_server

    from web_service import connection_guard as bounds

    socket_map: dict[int, Any] = {}
    try:
        server = create_server(app, map=socket_map, host=host, port=port, threads=threads,
                               ident="ledpanel", connection_limit=bounds.CONNECTION_LIMIT)
    except (OSError, ValueError) as err:  # waitress: ValueError for a name it cannot resolve
        logger.error("cannot start: %s", _bind_problem(host, port, err))
        return None
    # Slow or greedy clients get their share and a deadline, never the whole server.
    bounds.guard_servers(socket_map, bounds.ConnectionGuard())
    return server


def _serve(app: Flask, server: Any, paths: Paths, lock: DaemonLock, host: str,
           config: dict[str, Any]) -> int:
    """Say where we listen, start the background work and serve until interrupted."""
    from web_service.store.app_jobs import stop_store_jobs
    from web_service.store.auto_update import start_auto_update, stop_auto_update

    listening = {"host": host, "port": int(server.effective_port)}
    app.extensions["ledpanel"].listening = listening
    bus = Bus(paths.cache_dir)
    announced = {"service": "running", "pid": os.getpid(), "started_at": time.time(),
                 **listening}
    _announce(bus, announced)
    # A bus folder deleted and made again: take the lock there again and say where we are.
    folder = BusDirGuard(paths.cache_dir, lock, lambda: _announce(bus, announced)).start()
    logger.info("ledpanel-web %s listening on http://%s:%s (config %s, bus %s)", CORE_VERSION,
                host, server.effective_port, paths.config_dir, paths.cache_dir)
    # Read the plugin catalog once in the background (it imports jsonschema), so the
    # first request does not pay for it and start-up does not wait for it.
    catalog = app.extensions["ledpanel"].catalog
    threading.Thread(target=_warm, args=(catalog,), name="warm-catalog", daemon=True).start()
    start_auto_update(app, config)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, functools.partial(_interrupt, app))
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        folder.stop()
        server.close()
        stop_auto_update(app)
        stop_store_jobs(app)
        _announce(bus, {"service": "stopped", "pid": os.getpid(), **listening})
        lock.release()
    logger.info("ledpanel-web stopped")
    return 0


def _announce(bus: Bus, state: dict[str, Any]) -> None:
    """Publish where the web listens; a bus file that cannot be written only costs that."""
    try:
        bus.publish(WEB_STATE, state)
    except AtomicWriteError as err:  # a folder or worse in its place
        logger.warning("bus: cannot write %s (%s); plugins will not know the web address",
                       WEB_STATE, err)


def _start_config(store: ConfigStore) -> dict[str, Any]:
    """Return the config to start on. A config.json that cannot be used is served anyway
    (the raw editor is where it gets repaired), on the newest usable backup's port."""
    from shared.config.backups import newest_usable_backup
    from shared.errors import ConfigFileInvalid

    try:
        store.ensure()
        return store.main_snapshot().data
    except ConfigFileInvalid as err:
        found = newest_usable_backup(store.paths)
        logger.error("config: %s; serving anyway so it can be repaired (port from %s)",
                     err.message, found[1].name if found else "the default")
        return found[0] if found else {}


def _bind_problem(host: str, port: int, err: OSError | ValueError) -> str:
    """Say in one line why ``host:port`` cannot be listened on, and what to do."""
    where = f"{host}:{port}"
    code = getattr(err, "errno", None)
    if code == errno.EADDRINUSE:
        return (f"port {port} on {host} is already in use by another program; stop it or "
                "choose another port with --port, LEDPANEL_WEB_PORT or web.port in the config")
    if code == errno.EACCES:
        return (f"not allowed to listen on {where} (ports below 1024 need root); choose a port "
                "from 1024 up with --port, LEDPANEL_WEB_PORT or web.port")
    if isinstance(err, socket.gaierror | ValueError) or code == errno.EADDRNOTAVAIL:
        return (f"cannot listen on host {host!r}: not an address of this machine; use an IP "
                "address such as 0.0.0.0 or 127.0.0.1 (--host or LEDPANEL_WEB_HOST)")
    return f"cannot listen on {where}: {getattr(err, 'strerror', None) or err}"


def _recover_store(*plugins_dirs: Path) -> None:
    """Finish the store operations a crash interrupted, before any store job runs.

    Cheap when there is nothing to do (two missing folders); never fatal.
    """
    from web_service.store.install.staging import recover

    for folder in dict.fromkeys(plugins_dirs):
        try:
            if folder.is_dir():
                recover(folder)
        except (OSError, LedpanelError) as err:
            logger.warning("store: could not tidy %s after a crash: %s", folder, err)


def _warm(catalog: PluginCatalog) -> None:
    try:
        catalog.installed()
    except Exception:  # a broken plugin folder is reported when a request asks
        logger.debug("catalog warm-up failed", exc_info=True)


def _interrupt(app: Any, signum: int, frame: object) -> None:
    """The first SIGTERM or SIGINT stops the server; more while it stops are only noted,
    so the shutdown (lock, bus record, jobs) is never cut short half-way."""
    from web_service.streams.routes import stop_streams  # loaded with the app already

    for each in (signal.SIGTERM, signal.SIGINT):
        signal.signal(each, _already_stopping)
    stop_streams(app)  # open streams end now: the server's shutdown waits on none of them
    raise KeyboardInterrupt


def _already_stopping(signum: int, frame: object) -> None:
    logger.info("already stopping (signal %d)", signum)


if __name__ == "__main__":
    sys.exit(main())
