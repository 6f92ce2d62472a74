"""ledpanel-web: serve the web UI and API with a production WSGI server."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import TYPE_CHECKING

from shared.daemon_lock import WEB, AlreadyRunning, DaemonLock
from shared.errors import LedpanelError
from shared.paths import ensure_writable_dir, resolve_paths
from shared.version import CORE_VERSION

if TYPE_CHECKING:
    from web_service.plugin_catalog import PluginCatalog

logger = logging.getLogger("ledpanel.web")

DEFAULT_PORT = 5000
EXIT_ALREADY_RUNNING = 3


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(prog="ledpanel-web", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on")
    parser.add_argument("--port", type=int, default=None,
                        help="port to listen on (default: web.port from the config, 5000)")
    parser.add_argument("--config-dir")
    parser.add_argument("--cache-dir")
    parser.add_argument("--plugins-dir")
    parser.add_argument("--threads", type=int, default=8, help="request threads")
    parser.add_argument("--log-level", default="INFO")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the web daemon until interrupted."""
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    paths = resolve_paths(config_dir=args.config_dir, cache_dir=args.cache_dir,
                          plugins_dir=args.plugins_dir)
    try:
        ensure_writable_dir(paths.cache_dir)
        lock = DaemonLock.acquire(paths.cache_dir, WEB)
    except AlreadyRunning as err:
        logger.error("cannot start: %s", err.message)
        return EXIT_ALREADY_RUNNING
    except LedpanelError as err:
        logger.error("cannot start: %s", err.message)
        return 2

    from waitress import create_server

    from shared.config.store import ConfigStore
    from web_service.app import create_app
    from web_service.settings import WebSettings

    try:
        store = ConfigStore(paths)
        store.ensure()
        port = (args.port if args.port is not None
                else _configured_port(store.main_snapshot().data))
    except LedpanelError as err:
        logger.error("cannot start: %s", err.message)
        return 2
    app = create_app(WebSettings(paths=paths, host=args.host, port=port))
    server = create_server(app, host=args.host, port=port, threads=args.threads,
                           ident="ledpanel")
    logger.info("ledpanel-web %s listening on http://%s:%s (config %s, bus %s)", CORE_VERSION,
                args.host, server.effective_port, paths.config_dir, paths.cache_dir)
    # Read the plugin catalog once in the background (it imports jsonschema), so the
    # first request does not pay for it and start-up does not wait for it.
    catalog = app.extensions["ledpanel"].catalog
    threading.Thread(target=_warm, args=(catalog,), name="warm-catalog", daemon=True).start()
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        lock.release()
    logger.info("ledpanel-web stopped")
    return 0


def _warm(catalog: PluginCatalog) -> None:
    try:
        catalog.installed()
    except Exception:  # a broken plugin folder is reported when a request asks
        logger.debug("catalog warm-up failed", exc_info=True)


def _configured_port(config: dict) -> int:
    web = config.get("web")
    port = web.get("port") if isinstance(web, dict) else None
    if isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536:
        return port
    return DEFAULT_PORT


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
