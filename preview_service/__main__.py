"""``ledpanel-preview`` / ``python -m preview_service``: serve the preview page and API.

Loopback (127.0.0.1) port 5001 by default; ``--port 0`` picks a free port. The
plugins directory is ``--plugins-dir``, else ``LEDPANEL_PLUGINS_DIR``, else the
project's. Once listening it prints ``preview: serving http://HOST:PORT/`` on stdout.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence

from waitress import create_server

from preview_service.app import create_app
from preview_service.watch import start_watching
from preview_service.worker_client import WorkerClient
from shared.paths import resolve_paths

DEFAULT_PORT = 5001


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ledpanel-preview",
                                     description="Preview a plugin at many panel sizes.")
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 5001)")
    parser.add_argument("--plugins-dir", help="the plugins to preview")
    parser.add_argument("--deadline", type=float, default=10.0,
                        help="seconds a render may take before its worker is killed")
    return parser.parse_args(argv)


def _stop(_signum: int, _frame: object) -> None:
    raise SystemExit(0)  # through main's finally: the worker is stopped too


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    plugins_dir = resolve_paths(plugins_dir=args.plugins_dir).plugins_dir(None)
    counter, _observer = start_watching(plugins_dir)
    worker = WorkerClient(deadline=args.deadline)
    loopback = args.host in ("127.0.0.1", "localhost", "::1")
    server = create_server(create_app(plugins_dir, worker, counter, loopback), host=args.host,
                           port=args.port, threads=4)
    signal.signal(signal.SIGTERM, _stop)
    port = getattr(server, "effective_port", args.port)
    sys.stdout.write(f"preview: serving http://{args.host}:{port}/\n")
    sys.stdout.flush()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        worker.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
