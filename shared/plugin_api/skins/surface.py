"""The ``src.skin_system`` names skins and scoreboard plugins import."""

from shared.plugin_api.skins.api import ScoreboardSkin, SkinContext, build_context
from shared.plugin_api.skins.loading import SkinLoadError, load_skin
from shared.plugin_api.skins.manifest import (
    SKIN_API_VERSION,
    VIEW_MODEL_VERSION,
    discover_skins,
    skins_dirs,
)
from shared.plugin_api.skins.runner import RENDER_BUDGET, SkinRunner

__all__ = [
    "RENDER_BUDGET", "SKIN_API_VERSION", "VIEW_MODEL_VERSION", "ScoreboardSkin", "SkinContext",
    "SkinLoadError", "SkinRunner", "build_context", "discover_skins", "load_skin", "skins_dirs",
]
