"""The preview server's Flask app: its plugins directory, worker and change counter."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from preview_service.routes import bp
from preview_service.watch import ChangeCounter
from preview_service.worker_client import WorkerClient


def create_app(plugins_dir: Path, worker: WorkerClient, watch: ChangeCounter) -> Flask:
    """Return the app serving ``plugins_dir`` with ``worker`` and the change counter."""
    app = Flask(__name__)
    app.config.update(PLUGINS_DIR=Path(plugins_dir), WORKER=worker, WATCH=watch)
    app.register_blueprint(bp)
    return app
