"""The preview server's Flask app: its plugins directory, worker and change counter.

Served on loopback (the default), it answers only requests naming a loopback host
(``localhost``, ``127.0.0.1``, ``[::1]``), so a web page that rebinds its own name to
127.0.0.1 cannot drive renders of the author's plugins.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, Response, jsonify, request

from preview_service.routes import bp
from preview_service.watch import ChangeCounter
from preview_service.worker_client import WorkerClient

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


def create_app(plugins_dir: Path, worker: WorkerClient, watch: ChangeCounter,
               loopback_only: bool = True) -> Flask:
    """Return the app serving ``plugins_dir`` with ``worker`` and the change counter."""
    app = Flask(__name__)
    app.config.update(PLUGINS_DIR=Path(plugins_dir), WORKER=worker, WATCH=watch)
    app.register_blueprint(bp)
    if loopback_only:
        app.before_request(_loopback_host)
    return app


def _loopback_host() -> tuple[Response, int] | None:
    name = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    if name.lower() in LOOPBACK_NAMES:
        return None
    return jsonify({"error": "host_refused", "message": "use a loopback address"}), 403
