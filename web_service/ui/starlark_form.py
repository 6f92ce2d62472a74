"""One scripted app's settings form, drawn by the plugin form renderer.

The app's pixlet schema is asked of the capped worker (the web never runs app code in
its own process), turned into the JSON-Schema form the plugin settings form draws
(``web_service.starlark.schema_form``), and drawn with the stored values (the app's
defaults where nothing is stored). ``static/starlark_tab.js`` reads it back with the
plugin form's ``collect`` and saves it with PATCH /api/v3/starlark/apps/<app_id>.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from shared.starlark.installed.app_ids import mode_of, valid_app_id
from shared.starlark.installed.folder import AppsFolder, InstalledApp, apps_root
from web_service.services import services
from web_service.starlark.config_entry import entry_of, section_of
from web_service.starlark.schema_form import form_values, schema_form
from web_service.ui.plugin_form import build_form

bp = Blueprint("starlark_form", __name__)
SCHEMA_SECONDS = 5.0  # a fresh worker's imports come first; the schema itself is quick


@bp.get("/v3/partials/starlark-app-config/<path:app_id>")
def app_config(app_id: str) -> tuple[str, int]:
    """Render one installed app's settings form (404 fragment for an unknown app)."""
    app = _installed(app_id)
    if app is None:
        return render_template("partials/_not_found.html",
                               message=f"No scripted app {app_id!r} is installed."), 404
    return render_template("partials/starlark_app_config.html", **app_form_context(app)), 200


def app_form_context(app: InstalledApp) -> dict[str, Any]:
    """Return the template context of one app's settings form."""
    svc = services()
    entry = entry_of(section_of(svc.store.main_snapshot().data), app.id)
    pixlet, problem = _pixlet_schema(app)
    converted = schema_form(pixlet)
    values = form_values(pixlet, entry["config"])  # the form fills in the defaults
    # The radio groups' names carry the form's id: one per app, so apps never share one.
    form = build_form(mode_of(app.id), converted["schema"], values, fonts=[])
    return {"app": app, "entry": entry, "form": form, "problem": problem,
            "unsupported": converted["unsupported"], "plugin_id": mode_of(app.id)}


def _installed(app_id: str) -> InstalledApp | None:
    if not valid_app_id(app_id):
        return None
    return AppsFolder(apps_root(services().settings.paths)).get(app_id)


def _pixlet_schema(app: InstalledApp) -> tuple[dict[str, Any] | None, str | None]:
    """The app's pixlet schema (None when it declares none), or why it could not be read.

    The worker's client (and Pillow with it) is imported here, when a form is first
    drawn, so the web's start does not pay for it."""
    from shared.starlark.isolated import AppRenderer
    from shared.starlark.runtime import AppError

    folder = AppsFolder(apps_root(services().settings.paths))
    renderer = AppRenderer()
    try:
        return renderer.schema(str(folder.main_path(app)), seconds=SCHEMA_SECONDS), None
    except AppError as err:
        return None, str(err)
    finally:
        renderer.close()
