"""What the plugin settings form needs from the services: schema, prepared config, fonts.

The form shows exactly what GET /plugins/config answers (defaults applied, secrets
masked), so a save of an untouched form stores what was already there.
"""

from __future__ import annotations

import zoneinfo
from functools import cache
from typing import Any

from shared.config.prepare import prepare_plugin_config
from shared.config.secrets import mask_secrets
from shared.errors import ConfigFileInvalid
from shared.fonts.uploads import FontUploads
from web_service.plugin_form import build_form, safe_link
from web_service.services import services


def plugin_form_context(plugin_id: str) -> dict[str, Any]:
    """Return the template context of one plugin's settings form."""
    svc = services()
    schema = svc.catalog.schema_for(plugin_id)
    problem = None
    try:
        section = svc.store.load().get(plugin_id)
    except ConfigFileInvalid as err:  # fixed in the Config Editor; the form still opens
        section, problem = None, err.message
    prepared = prepare_plugin_config(section if isinstance(section, dict) else {}, schema)
    shown = mask_secrets(prepared, schema, svc.store.load_secrets().get(plugin_id))
    form = build_form(plugin_id, schema, shown if isinstance(shown, dict) else {},
                      fonts=font_families())
    uses_timezones = any(f.widget == "timezone-selector" for f in _walk(form.fields))
    return {"plugin_id": plugin_id, "form": form, "safe_link": safe_link,
            "timezones": timezones() if uses_timezones else (), "problem": problem}


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
