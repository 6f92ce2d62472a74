"""Fonts: the catalog (shipped and uploaded), a preview PNG, upload and delete.

Uploaded fonts live in ``Paths.fonts_upload_dir``; ``shared.fonts.uploads`` alone
checks, writes and removes them there. After each change the display is told on the
bus (``fonts_changed``) and rescans its fonts between two frames.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from shared.errors import ValidationError
from shared.fonts.uploads import (
    MAX_FONT_BYTES,
    FontUploads,
    catalog_entry,
    check_name_given,
    notify_display,
)
from web_service.envelope import Reply, ok
from web_service.services import services

bp = Blueprint("fonts", __name__)


def _uploads() -> FontUploads:
    return FontUploads(services().settings.paths.fonts_upload_dir)


@bp.get("/fonts/catalog")
def catalog() -> Reply:
    """List the shipped and uploaded fonts with their kind and sizes."""
    return ok({"fonts": _uploads().catalog(), "max_upload_bytes": MAX_FONT_BYTES})


@bp.get("/fonts/preview")
def font_preview() -> Response:
    """Render sample text in one font as a PNG (query ``font``, ``size``, ``text``)."""
    uploads = _uploads()
    info, _builtin = uploads.find(check_name_given(request.args.get("font")))
    from shared.fonts import preview  # Pillow, only when a preview is drawn

    size = preview.preview_size(info, preview.check_size(request.args.get("size")))
    text = preview.check_text(request.args.get("text"))
    png = preview.render_png(uploads.read(info), info, size, text)
    response = Response(png, content_type="image/png")
    response.headers["X-Font-Family"] = info.family
    response.headers["X-Font-Size"] = str(size)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/fonts/upload")
def upload() -> Reply:
    """Store an uploaded BDF, PCF, TTF or OTF font (multipart ``font_file``, ``font_family``)."""
    uploads = _uploads()
    part = request.files.get("font_file")
    if part is None:
        raise ValidationError("no font in the upload (multipart field 'font_file')",
                              error_code="NO_FILES", details={"field": "font_file"})
    checked = uploads.check(part.filename, request.form.get("font_family"),
                            part.read(MAX_FONT_BYTES + 1))
    info = uploads.store(checked)
    problem = notify_display(services().bus, "added", info.family)
    return ok({"font": catalog_entry(info, False), "display_told": problem is None},
              f"font {info.family} uploaded" + (f"; the display was not told: {problem}"
                                                 if problem else ""))


@bp.delete("/fonts/<font_family>")
def delete(font_family: str) -> Reply:
    """Delete an uploaded font; built-in fonts stay."""
    removed = _uploads().delete(font_family)
    problem = notify_display(services().bus, "deleted", removed["family"])
    return ok({**removed, "display_told": problem is None}, f"font {removed['family']} deleted")
