"""GET /api/v3/skins: the installed scoreboard skins, read from their manifests only.

The web never imports a skin's code; a skin whose ``skin.json`` is broken is listed
with its problems so the user sees why it is not offered.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from shared.errors import NotFoundError
from shared.files.regular_file import read_regular
from shared.ids import require_plain_segment
from shared.plugin_api.skins.manifest import PREVIEW_FILE, discover_skins, skins_dirs
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("skins", __name__)


@bp.get("/skins")
def list_skins() -> Reply:
    """List the installed skins with their problems; ?plugin_id= keeps those fitting a plugin."""
    plugin_id = request.args.get("plugin_id") or None  # empty: no filter
    if plugin_id is not None:
        plugin_id = require_plain_segment(plugin_id)
    found = discover_skins(skins_dirs(services().settings.paths.root))
    skins = [info.as_dict() for info in found.values()
             if plugin_id is None or (info.ok and info.supports_plugin(plugin_id))]
    return ok({"skins": skins, "plugin_id": plugin_id})


MAX_PREVIEW_BYTES = 512 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@bp.get("/skins/<name>/preview.png")
def skin_preview(name: str) -> Response:
    """Return a skin's preview.png (the picture the skin picker shows)."""
    info = discover_skins(skins_dirs(services().settings.paths.root)).get(name)
    if info is None:
        raise NotFoundError(f"no skin {name[:64]!r} is installed", error_code="SKIN_NOT_FOUND",
                            details={"name": name[:64]})
    try:
        data = read_regular(info.folder / PREVIEW_FILE, MAX_PREVIEW_BYTES)
    except OSError:
        data = b""
    if not data.startswith(PNG_SIGNATURE):
        raise NotFoundError(f"skin {info.name!r} has no readable {PREVIEW_FILE}",
                            error_code="SKIN_PREVIEW_NOT_FOUND", details={"name": info.name})
    answer = Response(data, status=200, mimetype="image/png")
    answer.headers["Cache-Control"] = "no-cache"
    return answer
