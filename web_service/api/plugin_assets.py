"""Plugin files over HTTP: uploaded images (upload, list, delete) and a plugin's static files.

Every plugin id and file name is one plain path segment; every path is checked on its
resolved form, so nothing outside the plugin's own folders is read, written or removed.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from flask import Blueprint, Response, request

from shared.errors import NotFoundError, ValidationError
from shared.files.regular_file import FileTooLarge, NotRegularFile, read_regular
from shared.ids import is_plain_segment, require_plain_segment
from shared.plugin_system.uploads import PluginUploads, invalid_path
from web_service.api.requests import body_object
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("plugin_assets", __name__)

STATIC_DIR = "static"
STATIC_LIMIT = 8 * 1024 * 1024


def _uploads(plugin_id: object) -> PluginUploads:
    plugin_id = require_plain_segment(plugin_id)
    svc = services()
    svc.catalog.record(plugin_id)
    return PluginUploads(svc.settings.paths.assets_dir, plugin_id)


@bp.post("/plugins/assets/upload")
def upload() -> Reply:
    """Store uploaded images for a plugin (multipart ``files`` and ``plugin_id``)."""
    uploads = _uploads(request.form.get("plugin_id"))
    files = request.files.getlist("files") or request.files.getlist("file")
    if not files:
        raise ValidationError("no files in the upload (multipart field 'files')",
                              error_code="NO_FILES", details={"field": "files"})
    stored = uploads.add_all([(f.filename or "upload", f.read(), f.mimetype or None)
                              for f in files])
    return ok({"plugin_id": uploads.plugin_id, "files": stored},
              f"{len(stored)} file(s) uploaded")


@bp.get("/plugins/assets/list")
def list_assets() -> Reply:
    """List a plugin's uploaded files with their metadata."""
    uploads = _uploads(request.args.get("plugin_id"))
    return ok({"plugin_id": uploads.plugin_id, "files": uploads.list()})


@bp.post("/plugins/assets/delete")
def delete() -> Reply:
    """Delete one uploaded file of a plugin (body ``plugin_id`` and ``path`` or ``name``)."""
    body = body_object()
    uploads = _uploads(body.get("plugin_id"))
    target = body.get("path") if body.get("path") is not None else body.get("name")
    if not isinstance(target, str) or not target:
        raise ValidationError("path or name is required", error_code="INVALID_PATH",
                              details={"field": "path"})
    entry = uploads.delete(uploads.name_for(target))
    return ok({"plugin_id": uploads.plugin_id, "deleted": entry}, f"{entry['name']} deleted")


@bp.get("/plugins/<plugin_id>/static/<path:subpath>")
def static_file(plugin_id: str, subpath: str) -> Response:
    """Serve a file from the plugin's ``static/`` folder (regular files only)."""
    require_plain_segment(plugin_id)
    parts = subpath.split("/")
    if not all(is_plain_segment(part) for part in parts):
        raise invalid_path(subpath)
    plugin_dir = Path(services().catalog.record(plugin_id, missing_status=404)["path"])
    base = (plugin_dir / STATIC_DIR).resolve()
    target = base.joinpath(*parts).resolve()
    if not base.is_relative_to(plugin_dir.resolve()) or not target.is_relative_to(base):
        raise ValidationError(f"{subpath[:200]!r} resolves outside the plugin's static folder",
                              error_code="INVALID_PATH", details={"field": "path"})
    try:
        data = read_regular(target, STATIC_LIMIT)
    except (FileNotFoundError, NotADirectoryError, NotRegularFile) as err:
        raise NotFoundError(f"{plugin_id} has no static file {subpath!r}") from err
    except FileTooLarge as err:
        raise ValidationError(f"{subpath!r} is larger than {STATIC_LIMIT} bytes",
                              error_code="FILE_TOO_LARGE", status=413) from err
    content_type = mimetypes.guess_type(parts[-1])[0] or "application/octet-stream"
    response = Response(data, content_type=content_type)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
