"""The preview server's routes (documented in docs/PLUGINS.md, "Preview server").

``GET /api/sizes``; ``GET /api/plugins``; ``GET /api/plugins/<id>`` (schema, modes);
``GET /api/plugins/<id>/version`` (the live-reload counter); ``POST /api/render-matrix``
(up to 12 sizes) and ``POST /api/render`` (one size). Renders run in the worker; a
worker that hangs past the deadline answers 504 ``timeout``, one that died 502
``worker_exited``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from preview_service.plugins import (
    BadManifest,
    UnknownPlugin,
    find_plugin,
    list_plugins,
    plugin_schema,
)
from preview_service.sizes import SIZE_SAMPLE, BadSize, parse_size, parse_sizes
from preview_service.worker_client import WorkerFailed

bp = Blueprint("preview", __name__)
FAILED_STATUS = {"timeout": 504, "worker_exited": 502}


def _fail(status: int, error: str, message: str = "") -> tuple[Response, int]:
    return jsonify({"error": error, "message": message}), status


@bp.errorhandler(UnknownPlugin)
def _unknown(err: UnknownPlugin) -> tuple[Response, int]:
    return _fail(404, "unknown_plugin", str(err))


@bp.errorhandler(BadManifest)
def _bad_manifest(err: BadManifest) -> tuple[Response, int]:
    return _fail(400, "bad_manifest", "the plugin's manifest breaks the loading rules")


@bp.errorhandler(BadSize)
def _bad_size(err: BadSize) -> tuple[Response, int]:
    return _fail(400, "bad_size", str(err))


@bp.get("/")
def page() -> str:
    return render_template("preview.html", sizes=SIZE_SAMPLE,
                           plugins=list_plugins(current_app.config["PLUGINS_DIR"]))


@bp.get("/api/sizes")
def sizes() -> Response:
    return jsonify({"sizes": [list(size) for size in SIZE_SAMPLE]})


@bp.get("/api/plugins")
def plugins() -> Response:
    return jsonify({"plugins": list_plugins(current_app.config["PLUGINS_DIR"])})


@bp.get("/api/plugins/<plugin_id>")
def plugin(plugin_id: str) -> Response:
    info = find_plugin(current_app.config["PLUGINS_DIR"], plugin_id)
    return jsonify({"id": info.id, "name": info.manifest.get("name") or info.id,
                    "display_modes": list(info.manifest.get("display_modes") or []),
                    "schema": plugin_schema(info)})


@bp.get("/api/plugins/<plugin_id>/version")
def version(plugin_id: str) -> Response:
    info = find_plugin(current_app.config["PLUGINS_DIR"], plugin_id)
    return jsonify({"version": current_app.config["WATCH"].version(info.directory.name)})


def _render(body: dict[str, Any], sizes: list[tuple[int, int]]) -> tuple[Response, int]:
    info = find_plugin(current_app.config["PLUGINS_DIR"], body.get("plugin_id"))
    config = body.get("config") or {}
    if not isinstance(config, dict):
        return _fail(400, "bad_config", "config must be an object")
    frames = body.get("frames", 1)
    if isinstance(frames, bool) or not isinstance(frames, int) or not 1 <= frames <= 60:
        return _fail(400, "bad_frames", "frames must be 1-60")
    payload = {"plugin_dir": str(info.directory), "sizes": [list(s) for s in sizes],
               "config": config,
               "mode": body.get("mode") if isinstance(body.get("mode"), str) else None,
               "frames": frames}
    try:
        answer = current_app.config["WORKER"].request(payload)
    except WorkerFailed as err:
        return _fail(FAILED_STATUS[err.reason], err.reason, "the plugin's worker was restarted")
    return jsonify({"plugin_id": info.id, "results": answer["results"]}), 200


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    return body if isinstance(body, dict) else {}


@bp.post("/api/render-matrix")
def render_matrix() -> tuple[Response, int]:
    body = _body()
    return _render(body, parse_sizes(body.get("sizes") or [list(s) for s in SIZE_SAMPLE]))


@bp.post("/api/render")
def render_one() -> tuple[Response, int]:
    body = _body()
    return _render(body, [parse_size(body.get("size"))])
