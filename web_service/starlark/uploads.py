"""An app sent to the web: ``.star`` text in JSON, or a ``.star``/``.zip`` file in a form.

Each becomes a checked ``Package`` (``shared.starlark.installed.package``); a package
that cannot be installed is 400 ``INVALID_APP`` with the package's one-line reason. An
uploaded file is read to at most ``MAX_UPLOAD_BYTES`` (a package's unpacked limit: a
ZIP is never larger than what it holds); the routes raise the request cap to that
(``UPLOAD_CAP``) and a larger body is 413.
"""

from __future__ import annotations

import re
from typing import IO, Any

from werkzeug.datastructures import FileStorage

from shared.errors import ValidationError
from shared.ids import is_plain_segment
from shared.starlark.installed.package import (
    MAX_TOTAL_BYTES,
    Package,
    PackageError,
    from_star,
    from_zip,
)

MAX_UPLOAD_BYTES = MAX_TOTAL_BYTES
FORM_OVERHEAD = 64 * 1024  # boundaries and the other fields around the file
UPLOAD_CAP = MAX_UPLOAD_BYTES + FORM_OVERHEAD
MAX_NAME = 200


def from_json_source(body: dict[str, Any], app_id: str | None) -> Package:
    """A package of the ``source`` text (``filename`` optional, ``app.star`` by default)."""
    source = body.get("source")
    if not isinstance(source, str) or not source.strip():
        raise ValidationError("source must be the app's .star text (or send a multipart "
                              "'file')", error_code="INVALID_FIELD", details={"field": "source"})
    name = body.get("filename")
    filename = checked_name(name) if name not in (None, "") else f"{app_id or 'app'}.star"
    return package_of(source.encode("utf-8", "surrogatepass"), filename, app_id)


def from_upload(part: FileStorage | None, app_id: str | None) -> Package:
    """A package of the form's ``file`` (a ``.star`` or ``.zip`` by its name)."""
    if part is None or not part.filename:
        raise ValidationError("no file in the upload (multipart field 'file')",
                              error_code="NO_FILES", details={"field": "file"})
    filename = checked_name(part.filename)
    return package_of(_read_capped(part.stream), filename, app_id)


def package_of(data: bytes, filename: str, app_id: str | None) -> Package:
    """A checked package of a ``.star`` or ``.zip`` file's bytes."""
    lowered = filename.lower()
    try:
        if lowered.endswith(".zip"):
            return from_zip(data, filename, app_id)
        if lowered.endswith(".star"):
            return from_star(data, filename, app_id)
        raise PackageError(f"{filename} is neither a .star file nor a .zip of an app")
    except PackageError as err:
        raise ValidationError(str(err), error_code="INVALID_APP",
                              details={"file": filename}) from None


def checked_name(value: object) -> str:
    """The uploaded file's own name (no folders), one plain path segment, or 400."""
    text = value if isinstance(value, str) else ""
    base = re.split(r"[\\/]", text)[-1].strip()
    if not is_plain_segment(base) or len(base) > MAX_NAME or any(
            ord(ch) < 32 for ch in base):
        shown = base[:60] if base else "(none)"
        raise ValidationError(f"file name {shown!r} is not a plain file name",
                              error_code="INVALID_PATH", details={"field": "file"})
    return base


def _read_capped(stream: IO[bytes]) -> bytes:
    data = stream.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValidationError(f"the file is larger than the {MAX_UPLOAD_BYTES // 2**20} MiB "
                              "an app may have", error_code="FILE_TOO_LARGE", status=413)
    return data
