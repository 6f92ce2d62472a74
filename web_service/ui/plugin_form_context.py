"""What the plugin settings form needs from the services: schema, prepared config, fonts.

The form shows exactly what GET /plugins/config answers (defaults applied, secrets
masked), so a save of an untouched form stores what was already there. The manifest's
``web_ui_actions`` are offered as buttons whether or not the plugin has a schema.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from shared.config.prepare import prepare_plugin_config
from shared.config.secrets import mask_secrets
from shared.errors import ConfigFileInvalid, ManifestError
from shared.fonts.uploads import FontUploads
from shared.plugin_system.manifest import load_manifest
from web_service.services import services
from web_service.ui.plugin_form import build_form, safe_link
from web_service.ui.skin_picker import skin_picker


def plugin_form_context(plugin_id: str) -> dict[str, Any]:
    """Return the template context of one plugin's settings form."""
    svc = services()
    schema = _drawn_schema(plugin_id, svc.catalog.schema_for(plugin_id))
    problem = None
    try:
        section = svc.store.load().get(plugin_id)
    except ConfigFileInvalid as err:  # fixed in the Config Editor; the form still opens
        section, problem = None, err.message
    prepared = prepare_plugin_config(section if isinstance(section, dict) else {}, schema)
    shown = mask_secrets(prepared, schema, svc.store.load_secrets().get(plugin_id))
    form = build_form(plugin_id, schema, shown if isinstance(shown, dict) else {},
                      fonts=font_families())
    every_field = _walk(form.fields)
    uses_timezones = any(f.widget == "timezone-selector" for f in every_field)
    # An action a file-manager widget already offers (with its params) is not repeated.
    drawn = {str(a.get("id")) for f in every_field if f.widget == "plugin-file-manager"
             for a in (f.config.get("actions") or []) if isinstance(a, dict)}
    plugin_dir = Path(svc.catalog.record(plugin_id)["path"])
    actions = manifest_actions(plugin_dir, skip=drawn)
    skins = skin_picker(svc.settings.paths.root, plugin_id, plugin_dir,
                        section if isinstance(section, dict) else {})
    return {"plugin_id": plugin_id, "form": form, "safe_link": safe_link,
            "timezones": timezones() if uses_timezones else (), "problem": problem,
            "actions": actions, "skin_picker": skins}


# Settings another tab manages: left out of the plugin's form, so a save from it (a merge
# onto the stored section) never sends back a copy that is stale by then.
MANAGED_ELSEWHERE = {"starlark-apps": ("apps",)}  # each app's entry: the Scripted apps tab


def _drawn_schema(plugin_id: str, schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The schema the form draws: without the settings another tab manages."""
    leave_out = MANAGED_ELSEWHERE.get(plugin_id, ())
    if not leave_out or schema is None or not isinstance(schema.get("properties"), dict):
        return schema
    kept = {k: v for k, v in schema["properties"].items() if k not in leave_out}
    return {**schema, "properties": kept}


@dataclass(frozen=True)
class ActionButton:
    """One manifest ``web_ui_actions`` entry, as the plugin tab offers it."""

    id: str
    title: str
    description: str


MAX_ACTIONS = 20  # buttons drawn per plugin; a manifest listing more is cut short


def manifest_actions(plugin_dir: Path, skip: Collection[str] = ()) -> list[ActionButton]:
    """Return the script actions the plugin's manifest declares, in its order.

    Only entries POST /plugins/action can run are offered (a string id, a script
    action); ids in ``skip`` and repeated ids are left out. A manifest that cannot be
    read offers none. The message fields (``success_message`` ...) are never read.
    """
    try:
        declared = load_manifest(plugin_dir).get("web_ui_actions")
    except ManifestError:
        return []
    found: list[ActionButton] = []
    seen = set(skip)
    for entry in declared[:MAX_ACTIONS * 4] if isinstance(declared, list) else []:
        if not isinstance(entry, dict) or entry.get("type", "script") != "script":
            continue
        action_id, script = entry.get("id"), entry.get("script")
        if not isinstance(action_id, str) or not action_id or action_id in seen:
            continue
        if not isinstance(script, str) or not script:
            continue
        seen.add(action_id)
        title, description = entry.get("title"), entry.get("description")
        found.append(ActionButton(
            id=action_id,
            title=title.strip() if isinstance(title, str) and title.strip() else action_id,
            description=description.strip() if isinstance(description, str) else ""))
        if len(found) == MAX_ACTIONS:
            break
    return found


def font_families() -> list[str]:
    """Return the font families a font-selector offers (shipped and uploaded)."""
    fonts = FontUploads(services().settings.paths.fonts_upload_dir).catalog()
    return [str(f["family"]) for f in fonts if f.get("family")]


@cache
def timezones() -> tuple[str, ...]:
    """Return the IANA time zone names, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


def _walk(fields: list[Any]) -> list[Any]:
    found = []
    for field in fields:
        found.append(field)
        found.extend(_walk(field.children))
        for row in [field.columns, *field.rows]:
            found.extend(_walk(row))
    return found
