"""The skin picker in a plugin's settings form (docs/PLUGINS.md, "Skins").

Offered when the plugin's manifest says ``"supports_skins": true``: the usable installed
skins that fit the plugin, read from their manifests (no skin code runs in the web),
and the stored ``skin`` and ``skin_options``. The form saves them with the plugin's
other settings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.errors import ManifestError
from shared.plugin_api.skins.manifest import SkinInfo, discover_skins, skins_dirs
from shared.plugin_system.manifest import load_manifest


@dataclass(frozen=True)
class SkinPicker:
    """What the picker draws: the choices, the chosen skin, its options as JSON text."""

    skins: list[SkinInfo]
    chosen: str
    chosen_missing: bool
    options_text: str


def supports_skins(plugin_dir: Path) -> bool:
    """Whether the plugin's manifest says it renders through skins."""
    try:
        return load_manifest(plugin_dir).get("supports_skins") is True
    except ManifestError:
        return False


def skin_picker(root: Path, plugin_id: str, plugin_dir: Path,
                section: dict[str, Any]) -> SkinPicker | None:
    """The picker for one plugin, or None when the plugin does not support skins."""
    if not supports_skins(plugin_dir):
        return None
    offered = [info for info in discover_skins(skins_dirs(root)).values()
               if info.ok and info.supports_plugin(plugin_id)]
    chosen = section.get("skin")
    chosen = chosen if isinstance(chosen, str) else ""
    options = section.get("skin_options")
    return SkinPicker(
        skins=offered, chosen=chosen,
        chosen_missing=bool(chosen) and chosen not in {info.name for info in offered},
        options_text=json.dumps(options if isinstance(options, dict) else {}, indent=1))
