"""The one rule for plugin ids used as path segments."""

from __future__ import annotations

from shared.errors import ValidationError

# The longest file name the filesystems we run on accept (NAME_MAX, in bytes): a longer
# segment can name no file, and asking the filesystem for one fails (ENAMETOOLONG).
SEGMENT_MAX_BYTES = 255


def is_plain_segment(value: object) -> bool:
    """Return True when ``value`` is one plain path segment, safe to join onto a directory.

    Refused: non-strings, the empty string, ``.`` and ``..`` (and any other name with a
    leading dot, which would be hidden), ``/``, ``\\`` and NUL anywhere, and a name
    longer than ``SEGMENT_MAX_BYTES`` once encoded.
    """
    if not isinstance(value, str) or not value:
        return False
    if value.startswith(".") or len(value.encode("utf-8", "surrogatepass")) > SEGMENT_MAX_BYTES:
        return False
    return not any(ch in value for ch in ("/", "\\", "\x00"))


def require_plain_segment(value: object, what: str = "plugin_id") -> str:
    """Return ``value`` when it is one plain path segment, else raise ValidationError (400).

    No id at all (absent, empty, not text) is ``MISSING_PLUGIN_ID``; an id that is not
    one plain segment is ``INVALID_PLUGIN_ID``. ``details.field`` is ``what``.
    """
    if not isinstance(value, str) or not value:
        raise ValidationError(f"{what} is required", error_code="MISSING_PLUGIN_ID",
                              details={"field": what})
    if not is_plain_segment(value):
        shown = value if len(value) <= 80 else f"{value[:60]}...({len(value)} characters)"
        raise ValidationError(f"{what} {shown!r} is not a plain name",
                              error_code="INVALID_PLUGIN_ID", details={"field": what})
    return value
