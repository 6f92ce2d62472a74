"""Plugin manifests: read manifest.json, check it against manifest.schema.json, fill defaults.

Strict and lenient checks
-------------------------
``manifest_errors(data)`` is the strict check: every way the manifest breaks the
schema (the spec's field table), one message per problem, each starting with the
field it is about (``"compatible_versions: is required"``). Store and developer
tools use it, and ``validate_manifest(..., strict=True)``.

Discovery uses the lenient split ``check_manifest(data) -> (errors, warnings)``,
because community manifests often omit ``compatible_versions`` or carry a loose
``version``. The rule is by field:

- A problem in a field the core acts on when it loads or runs a plugin
  (``RUNTIME_FIELDS``: id, entry_point, class_name, display_modes,
  default_duration, update_interval, display, requires, web_ui_actions) is an
  error: the plugin is skipped. The id must also be one plain path segment and the
  entry point a relative ``.py`` path inside the plugin directory.
- A problem anywhere else (name, version, author, compatible_versions and the
  other descriptive or registry metadata) is a warning: it is logged and shown,
  and the plugin still loads. Code reading those fields must not trust their type.
- A missing entry_point is a warning, not an error: it defaults to ``manager.py``
  (``with_defaults``).

A manifest ``fonts`` block is never read: plugins load their own font files.
The non-spec key ``enabled_by_default`` (boolean) marks a plugin that is enabled
when the config has no ``enabled`` value for it (see ``resolve_enabled``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported on first use: it is slow to import
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError as SchemaError

from shared.errors import ManifestError
from shared.files.jsontext import syntax_place
from shared.ids import is_plain_segment
from shared.plugin_system import manifest_memo

MANIFEST_FILE = "manifest.json"
DEFAULT_ENTRY_POINT = "manager.py"
SCHEMA_FILE = Path(__file__).with_name("manifest.schema.json")
RUNTIME_FIELDS = frozenset(
    {
        "id",
        "entry_point",
        "class_name",
        "display_modes",
        "default_duration",
        "update_interval",
        "display",
        "requires",
        "web_ui_actions",
    }
)
STORE_REQUIRED = ("id", "name", "class_name", "display_modes")
_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


@lru_cache(maxsize=1)
def manifest_schema() -> dict[str, Any]:
    """Return the manifest JSON Schema."""
    with open(SCHEMA_FILE, encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(manifest_schema())


def load_manifest(plugin_dir: Path) -> dict[str, Any]:
    """Read ``<plugin_dir>/manifest.json``; raise ManifestError when it is missing or bad."""
    path = Path(plugin_dir) / MANIFEST_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise ManifestError(f"{plugin_dir}: {MANIFEST_FILE} not found") from err
    except (OSError, UnicodeDecodeError) as err:
        raise ManifestError(f"{plugin_dir}: {MANIFEST_FILE} cannot be read: {err}") from err
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        place = syntax_place(err)
        raise ManifestError(
            f"{plugin_dir}: {MANIFEST_FILE} is not valid JSON: {place.msg} "
            f"(line {place.lineno}, column {place.colno})"
        ) from err
    if not isinstance(data, dict):
        raise ManifestError(f"{plugin_dir}: {MANIFEST_FILE} must hold a JSON object")
    return data


def with_defaults(manifest: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of ``manifest`` with defaults filled in (entry_point ``manager.py``)."""
    filled = dict(manifest)
    if filled.get("entry_point") is None:
        filled["entry_point"] = DEFAULT_ENTRY_POINT
    return filled


def manifest_errors(data: Any) -> list[str]:
    """Return every schema problem of a manifest, each message naming its field."""
    return [message for _field, message in _problems(data)]


def check_manifest(data: Any) -> tuple[list[str], list[str]]:
    """Split a manifest's problems into load-blocking errors and warnings (lenient rule)."""
    errors: list[str] = []
    warnings: list[str] = []
    for field, message in _problems(data):
        if field == "entry_point" and message.endswith(": is required"):
            warnings.append(f"{message} (using {DEFAULT_ENTRY_POINT})")
        elif field in RUNTIME_FIELDS or field == "":
            errors.append(message)
        else:
            warnings.append(message)
    return errors, warnings


def validate_manifest(data: Any, plugin_label: str, *, strict: bool = True) -> list[str]:
    """Raise ManifestError naming the plugin and fields; return the warnings when lenient."""
    if strict:
        errors, warnings = manifest_errors(data), list[str]()
    else:
        errors, warnings = check_manifest(data)
    if errors:
        raise ManifestError(
            f"{plugin_label}: invalid manifest: {'; '.join(errors)}",
            details={"plugin": plugin_label, "errors": errors},
        )
    return warnings


def store_errors(manifest: Any) -> list[str]:
    """Return the problems against the store's own rules (id, name, class_name, display_modes)."""
    if not isinstance(manifest, dict):
        return ["manifest: must be an object"]
    found = []
    for field in STORE_REQUIRED:
        value = manifest.get(field)
        if value is None:
            found.append(f"{field}: is required")
        elif field == "display_modes":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                found.append("display_modes: must be a list of strings")
            elif not value:
                found.append("display_modes: must name at least one mode")
        elif not isinstance(value, str) or not value:
            found.append(f"{field}: must be a non-empty string")
    return found


def default_enabled(manifest: dict[str, Any]) -> bool:
    """Return True when the manifest marks the plugin enabled by default."""
    return manifest.get("enabled_by_default") is True


def resolve_enabled(section: Any, manifest: dict[str, Any]) -> bool:
    """Return whether a plugin is enabled: its config ``enabled``, else the manifest default."""
    value = section.get("enabled") if isinstance(section, dict) else None
    return value if isinstance(value, bool) else default_enabled(manifest)


def entry_point_problem(entry_point: Any) -> str | None:
    """Return why ``entry_point`` is not a relative ``.py`` path inside the plugin, or None."""
    if not isinstance(entry_point, str) or not entry_point:
        return None  # the schema reports type problems
    path = PurePosixPath(entry_point)
    if "\\" in entry_point or "\x00" in entry_point or path.is_absolute():
        return f"entry_point: {entry_point!r} must be a relative path inside the plugin"
    if any(part in ("", ".", "..") for part in entry_point.split("/")):
        return f"entry_point: {entry_point!r} must be a relative path inside the plugin"
    stem_parts = path.with_suffix("").parts
    if path.suffix != ".py" or not all(part.isidentifier() for part in stem_parts):
        return f"entry_point: {entry_point!r} must name a Python file with an importable name"
    return None


def _problems(data: Any) -> list[tuple[str, str]]:
    """Return (top-level field, message) for every problem; field "" for the whole manifest.

    Verdicts are remembered across starts when a memo is in use (``manifest_memo``).
    """
    memo = manifest_memo.active()
    key = memo.key(data) if memo is not None else ""
    remembered = memo.get(key) if memo is not None else None
    if remembered is not None:
        return list(remembered)
    problems = _check(data)
    if memo is not None:
        memo.put(key, problems)
    return problems


def _check(data: Any) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for err in sorted(_validator().iter_errors(data), key=_sort_key):
        found.extend(_describe(err))
    if isinstance(data, dict):
        plugin_id = data.get("id")
        if isinstance(plugin_id, str) and plugin_id and not is_plain_segment(plugin_id):
            found.append(("id", f"id: {plugin_id!r} is not a plain name (one path segment)"))
        entry_problem = entry_point_problem(data.get("entry_point"))
        if entry_problem:
            found.append(("entry_point", entry_problem))
    unique: list[tuple[str, str]] = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique


def _sort_key(err: SchemaError) -> list[str]:
    return [str(part) for part in err.absolute_path]


def _join(path: list[Any]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _describe(err: SchemaError) -> list[tuple[str, str]]:
    path = list(err.absolute_path)
    where = _join(path) or "manifest"
    top = str(path[0]) if path else ""
    kind, expected, value = err.validator, err.validator_value, err.instance
    if kind == "required":
        present = value if isinstance(value, dict) else {}
        missing = [name for name in expected if name not in present]
        return [(top or name, f"{_join([*path, name])}: is required") for name in missing]
    if kind == "type":
        names = expected if isinstance(expected, list) else [expected]
        words = " or ".join(_TYPE_WORDS.get(str(name), str(name)) for name in names)
        return [(top, f"{where}: must be {words}")]
    if kind == "pattern":
        label = err.schema.get("x-pattern-name") if isinstance(err.schema, dict) else None
        return [(top, f"{where}: {value!r} does not match {label or 'pattern ' + expected}")]
    if kind == "minimum":
        return [(top, f"{where}: {value!r} is less than the minimum of {expected}")]
    if kind == "minItems":
        return [(top, f"{where}: must have at least {expected} item(s)")]
    if kind == "minLength":
        return [(top, f"{where}: must not be empty")]
    return [(top, f"{where}: {err.message}")]
