"""The skins route of /api/v3: what it takes and answers (docs/API.md has the prose)."""

from __future__ import annotations

from web_service.openapi.route_doc import Param, RouteDoc
from web_service.openapi.schemas import BOOLEAN, STRING, array, described, nullable, obj

NAMES = array(STRING)
# One skin folder as its skin.json reads; a broken one has ok false and its problems.
SKIN = obj(
    {
        "name": STRING, "display_name": STRING, "version": STRING,
        "skin_api_version": STRING, "description": STRING, "modes": NAMES,
        "plugins": NAMES, "sports": NAMES, "has_preview": BOOLEAN, "ok": BOOLEAN,
        "problems": NAMES,
    },
    required=("name", "display_name", "version", "skin_api_version", "description", "modes",
              "plugins", "sports", "has_preview", "ok", "problems"),
)

ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/api/v3/skins"): RouteDoc(
        data=obj({"skins": array(SKIN), "plugin_id": nullable(STRING)},
                 required=("skins", "plugin_id")),
        query=(Param("plugin_id", described(
            STRING, "keep the usable skins that fit this plugin; empty: no filter")),),
        errors={400: ("INVALID_PLUGIN_ID",)},
        example={"plugin_id": "hockey-scoreboard", "skins": [{
            "name": "neon", "display_name": "Neon", "version": "1.0.0",
            "skin_api_version": "1.0.0", "description": "A green bar and big scores",
            "modes": ["live", "recent", "upcoming"], "plugins": ["hockey-scoreboard"],
            "sports": [], "has_preview": True, "ok": True, "problems": []}]},
    ),
    ("GET", "/api/v3/skins/<name>/preview.png"): RouteDoc(
        errors={404: ("SKIN_NOT_FOUND", "SKIN_PREVIEW_NOT_FOUND")},
        produces="image/png",
    ),
}
