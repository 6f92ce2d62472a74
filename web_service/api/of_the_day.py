"""The of-the-day plugin's JSON data files: upload and delete (``of_the_day/`` in its folder).

Every plugin id and file name is one plain path segment; the files are checked in
``shared.plugin_system.of_the_day``, which alone writes and removes there. Each change
also saves the plugin's config section (the categories that name the files) through the
one config save path; when that save fails, the file change is undone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, request

from shared.errors import NotFoundError, ValidationError
from shared.ids import require_plain_segment
from shared.plugin_system import of_the_day
from shared.plugin_system.of_the_day_config import (
    Category,
    Plan,
    check_display_name,
    plan_add_categories,
    plan_remove_category,
)
from web_service.api.requests import body_object
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("of_the_day", __name__)

def _files(plugin_id: object) -> of_the_day.OfTheDayFiles:
    plugin_id = require_plain_segment(plugin_id if plugin_id is not None
                                      else of_the_day.PLUGIN_ID)
    try:
        record = services().catalog.record(plugin_id, missing_status=404)
    except NotFoundError as err:
        raise NotFoundError(f"the of-the-day plugin {plugin_id!r} is not installed",
                            error_code=err.error_code) from None
    return of_the_day.OfTheDayFiles(Path(record["path"]), plugin_id)


@bp.post("/of-the-day/json/upload")
def upload() -> Reply:
    """Store uploaded JSON data files and add their new categories to the plugin's config."""
    svc = services()
    files = _files(request.form.get("plugin_id", request.args.get("plugin_id")))
    uploaded = request.files.getlist("file") + request.files.getlist("files")
    if not uploaded:
        raise ValidationError("no file in the upload (multipart field 'file')",
                              error_code="NO_FILES", details={"field": "file"})
    checked = []
    for part in uploaded:  # all are checked before any is stored
        name = of_the_day.check_name(part.filename)
        checked.append((name, of_the_day.parse_data(
            name, part.read(of_the_day.MAX_FILE_BYTES + 1))))
    display_name = check_display_name(request.form.get("display_name"), len(checked))
    categories = [Category.for_file(name, display_name) for name, _ in checked]
    added: list[str] = []

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> Plan:
        result, added[:] = plan_add_categories(main, secrets, files.plugin_id, categories,
                                               schema_for=svc.catalog.schema_for)
        return result

    stored = files.store(checked, then=lambda: svc.save_config(plan))
    return ok({"plugin_id": files.plugin_id, "files": stored,
               "config": {"categories_added": added}}, f"{len(stored)} file(s) stored")


@bp.route("/of-the-day/json/delete", methods=["POST", "DELETE"])
def delete() -> Reply:
    """Delete one JSON data file of the of-the-day plugin and its category in the config."""
    svc = services()
    fields: dict[str, Any] = {**request.args.to_dict(), **body_object()}
    files = _files(fields.get("plugin_id"))
    name = of_the_day.check_name(_requested_name(fields))
    removed: list[str] = []

    def plan(main: dict[str, Any], secrets: dict[str, Any]) -> Plan:
        result, removed[:] = plan_remove_category(main, secrets, files.plugin_id,
                                                  Category.for_file(name).name,
                                                  schema_for=svc.catalog.schema_for)
        return result

    deleted = files.delete(name, then=lambda: svc.save_config(plan))
    return ok({"plugin_id": files.plugin_id, "deleted": deleted,
               "config": {"categories_removed": removed}}, f"{deleted['name']} deleted")


def _requested_name(fields: dict[str, Any]) -> Any:
    """Return the file name to delete: ``filename`` or ``name``, else ``file_id``.

    ``file_id`` is what the existing system's file widget sends: the name without
    ``.json``.
    """
    for key in ("filename", "name"):
        if fields.get(key) is not None:
            return fields[key]
    file_id = fields.get("file_id")
    if isinstance(file_id, str) and file_id and not file_id.endswith(of_the_day.SUFFIX):
        return file_id + of_the_day.SUFFIX
    return file_id
