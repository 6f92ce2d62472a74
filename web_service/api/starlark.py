"""Scripted (pixlet) apps: status, installed apps, their settings and previews.

Thin views over ``web_service.starlark``; the apps repository's routes are in
``starlark_repository``. Every app id is checked (``apps.require_app_id``) before it
names a folder or a file.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, request
from flask.sansio.blueprints import BlueprintSetupState

from shared.errors import NotFoundError, ValidationError
from shared.starlark.installed.render_status import runtime_version
from web_service.api.requests import body_object, is_form, optional_bool
from web_service.envelope import Reply, ok
from web_service.services import services
from web_service.starlark import apps, config_entry, uploads
from web_service.starlark.schema_form import form_values, schema_form
from web_service.starlark.status import read_preview

bp = Blueprint("starlark", __name__)
logger = logging.getLogger(__name__)
PREFIX = "/starlark"
UPLOAD_ENDPOINTS = ("starlark.create_app", "starlark.upload")
SCHEMA_SECONDS = 5.0


def _raise_cap() -> None:
    """An app ZIP may be larger than the app's request cap: the two upload routes take up
    to ``uploads.UPLOAD_CAP`` (first of the request hooks, so every form parse sees it)."""
    if request.endpoint in UPLOAD_ENDPOINTS:
        request.max_content_length = uploads.UPLOAD_CAP


@bp.record_once
def _install_cap(state: BlueprintSetupState) -> None:
    state.app.before_request_funcs.setdefault(None, []).insert(0, _raise_cap)


@bp.get(f"{PREFIX}/status")
def status() -> Reply:
    """Return the app runtime's version, the render settings and every installed app."""
    svc = services()
    section = config_entry.section_of(svc.store.main_snapshot().data)
    return ok({"runtime": runtime_version(), "renderer": "built-in",
               "settings": config_entry.settings_of(section), "apps": apps.app_answers(svc)})


@bp.post(f"{PREFIX}/renderer/install")
def install_renderer() -> Reply:
    """Answer that the renderer is built in: there is nothing to install."""
    body_object()  # a body is optional, but a malformed one is still an error
    return ok({"renderer": "built-in", "runtime": runtime_version(), "installed": True},
              "the app renderer is built in; nothing to install")


@bp.get(f"{PREFIX}/apps")
def list_apps() -> Reply:
    """List the installed apps."""
    return ok(apps.app_answers(services()))


@bp.post(f"{PREFIX}/apps")
def create_app() -> Reply:
    """Install an app from JSON ``source`` text or a multipart ``file`` (.star or .zip)."""
    return _install_from_request()


@bp.post(f"{PREFIX}/upload")
def upload() -> Reply:
    """Install an app from a multipart ``file`` (.star or .zip)."""
    if request.mimetype != "multipart/form-data":
        raise ValidationError("send the app as a multipart form with a 'file' field",
                              error_code="NO_FILES", details={"field": "file"})
    return _install_from_request()


def _install_from_request() -> Reply:
    svc = services()
    body = body_object()
    form = is_form()
    raw_id = body.get("app_id")
    app_id = apps.require_app_id(raw_id) if raw_id not in (None, "") else None
    replace = optional_bool(body, "replace", form=form, default=False)
    if request.mimetype == "multipart/form-data":
        package = uploads.from_upload(request.files.get("file"), app_id)
    else:
        package = uploads.from_json_source(body, app_id)
    app, _ = apps.install(svc, package, source="upload", replace=replace)
    return ok(apps.app_answer(svc, app), f"app {app.id} installed", 201)


@bp.get(f"{PREFIX}/apps/<app_id>")
def get_app(app_id: str) -> Reply:
    """Return an app, its settings entry, its pixlet schema and the form drawn from it."""
    svc = services()
    app = apps.installed_app(svc, request.view_args["app_id"])  # type: ignore[index]
    entry = config_entry.entry_of(config_entry.section_of(svc.store.main_snapshot().data),
                                  app.id)
    schema, problem = _schema(str(apps.folder_of(svc).main_path(app)))
    form = schema_form(schema)
    return ok({"app": apps.app_answer(svc, app), "entry": entry, "schema": schema,
               "schema_error": problem, "form": form["schema"],
               "unsupported": form["unsupported"],
               "form_values": form_values(schema, entry["config"])})


def _schema(main: str) -> tuple[dict[str, Any] | None, str | None]:
    """The app's schema from the worker (never this process), or the error saying why.
    The runtime is imported here, on first use: the web starts without it."""
    from shared.starlark.isolated import AppRenderer
    from shared.starlark.runtime import AppError

    renderer = AppRenderer()
    try:
        return renderer.schema(main, seconds=SCHEMA_SECONDS), None
    except AppError as err:
        return None, str(err)
    finally:
        renderer.close()


@bp.route(f"{PREFIX}/apps/<app_id>", methods=["PATCH", "POST"])
def change_app(app_id: str) -> Reply:
    """Change an app's ``enabled``, ``duration`` or ``config``; answer the new entry."""
    svc = services()
    body = body_object()
    entry = apps.change_settings(svc, app_id, body)
    return ok({"app_id": app_id, "entry": entry}, f"app {app_id} settings saved")


@bp.delete(f"{PREFIX}/apps/<app_id>")
def delete_app(app_id: str) -> Reply:
    """Remove an installed app and its settings."""
    body_object()
    apps.remove(services(), app_id)
    return ok({"app_id": app_id}, f"app {app_id} removed")


@bp.get(f"{PREFIX}/apps/<app_id>/preview")
def preview(app_id: str) -> Response:
    """Return the app's last frames as shown on the panel (animated WebP)."""
    svc = services()
    app = apps.installed_app(svc, request.view_args["app_id"])  # type: ignore[index]
    data = read_preview(svc.settings.paths.cache_dir, app.id)
    if data is None:
        raise NotFoundError(f"app {app.id!r} has not been rendered yet",
                            error_code="NOT_RENDERED", details={"app_id": app.id})
    answer = Response(data, status=200, mimetype="image/webp")
    answer.headers["Cache-Control"] = "no-cache"
    return answer
