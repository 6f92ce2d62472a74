"""GET /api/v3/skins: the installed scoreboard skins, read from their manifests only.

The web never imports a skin's code; a skin whose ``skin.json`` is broken is listed
with its problems so the user sees why it is not offered.
"""

from __future__ import annotations

from flask import Blueprint, request

from shared.ids import require_plain_segment
from shared.plugin_api.skins.manifest import discover_skins, skins_dirs
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
