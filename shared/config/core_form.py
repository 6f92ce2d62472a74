"""Save rule 2: a form-encoded save of the main config, where a missing checkbox is false.

Field names are dotted paths (``display.hardware.rows``, ``brightness``). The sections a
form covers are named by the hidden ``__form_section`` field (one or more dotted paths,
comma-separated or repeated); without it, by the top-level prefixes of the submitted
fields. Boolean keys in those sections that the form leaves out are set to false, except
the legacy plugin_system toggles, and a post carrying only such a toggle unchecks
nothing. Fields under a plugin id are typed and unchecked by that plugin's schema.

A field name is a dotted path of letters, digits, ``_`` and ``-`` (a trailing ``[]`` is
dropped); its first part must be a core key or an installed plugin's id, else the save is
refused naming the field, so a form can never create a new top-level key.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from shared.config.coerce import (
    KEEP,
    check_path,
    coerce_value,
    flatten,
    kind_for,
    set_path,
    value_at,
)
from shared.config.merge import deep_merge
from shared.config.reserved import LEGACY_KEYS, LEGACY_TOGGLE_PATHS, is_plugin_key
from shared.config.schema_form import form_to_section
from shared.config.template import load_template
from shared.errors import ValidationError

FORM_SECTION_FIELD = "__form_section"

_FIELD_NAME_RE = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*")
# Errors of ``schema_for`` that mean "no installed plugin has this id".
_NOT_A_PLUGIN = frozenset({"UNKNOWN_PLUGIN", "INVALID_PLUGIN_ID", "MISSING_PLUGIN_ID"})

SchemaFor = Callable[[str], "dict[str, Any] | None"]


def form_fields(body: dict[str, Any]) -> dict[str, Any]:
    """Return the submitted fields under dotted names, without control fields."""
    return {name: value for name, value in flatten(body).items() if not name.startswith("__")}


def form_sections(body: dict[str, Any]) -> list[str]:
    """Return the dotted paths of the sections a form save covers."""
    named = body.get(FORM_SECTION_FIELD)
    if named:
        values = named if isinstance(named, list) else [named]
        sections = [part.strip() for value in values for part in str(value).split(",")]
        return [section for section in dict.fromkeys(sections) if section]
    return list(dict.fromkeys(name.split(".")[0] for name in form_fields(body)))


def is_legacy_toggle_only(fields: dict[str, Any]) -> bool:
    """Return whether a post carries nothing but legacy plugin_system toggles."""
    return bool(fields) and all(name in LEGACY_TOGGLE_PATHS for name in fields)


def apply_form_body(
    stored_main: dict[str, Any],
    form: dict[str, Any],
    *,
    template: dict[str, Any] | None = None,
    schema_for: SchemaFor | None = None,
) -> dict[str, Any]:
    """Return the stored main config with a form-encoded save applied (rules 1 and 2).

    Field names are dotted paths of letters, digits, ``_`` and ``-``; the top-level part
    must be a core key or an installed plugin's id (``schema_for`` raises ValidationError
    ``UNKNOWN_PLUGIN`` for an id that is not installed; without ``schema_for`` only
    plugins with a stored section are known). Anything else is refused, naming the field.
    """
    template = load_template() if template is None else template
    fields = form_fields(form)
    result = copy.deepcopy(stored_main)
    plugin_forms: dict[str, dict[str, Any]] = {}
    schemas: dict[str, dict[str, Any] | None] = {}

    def plugin_schema(plugin_id: str, field: str) -> dict[str, Any] | None:
        if plugin_id not in schemas:
            schemas[plugin_id] = _installed_schema(plugin_id, field, stored_main, schema_for)
        return schemas[plugin_id]

    for name, raw in fields.items():
        _check_field_name(name)
        top, _, rest = name.partition(".")
        if is_plugin_key(top):
            plugin_schema(top, name)
            if not rest:
                raise _invalid_field(name, "names a plugin section, not a setting")
            plugin_forms.setdefault(top, {})[rest] = raw
            continue
        check_path(name, template, stored_main)
        value = coerce_value(name, raw, kind_for(name, template, stored_main), form=True)
        if value is not KEEP:
            set_path(result, name.split("."), value)
    sections = form_sections(form)
    if not is_legacy_toggle_only(fields):
        for section in sections:
            top = section.split(".")[0]
            if not is_plugin_key(top):
                _uncheck_missing(result, section, fields, template, stored_main)
            elif top in plugin_forms or isinstance(stored_main.get(top), dict):
                plugin_schema(top, FORM_SECTION_FIELD)
                plugin_forms.setdefault(top, {})
            else:
                raise _unknown_section(section)
    for plugin_id, plugin_form in plugin_forms.items():
        partial = form_to_section(plugin_form, schemas[plugin_id])
        stored = result.get(plugin_id)
        result[plugin_id] = deep_merge(stored if isinstance(stored, dict) else {}, partial)
    return result


def _check_field_name(name: str) -> None:
    if not _FIELD_NAME_RE.fullmatch(name):
        raise _invalid_field(
            name, "is not a valid field name (dotted names of letters, digits, _ and -)"
        )


def _installed_schema(
    plugin_id: str, field: str, stored_main: dict[str, Any], schema_for: SchemaFor | None
) -> dict[str, Any] | None:
    """Return the schema of an installed plugin, or refuse ``field`` when there is none."""
    if schema_for is None:
        if isinstance(stored_main.get(plugin_id), dict):
            return None
    else:
        try:
            return schema_for(plugin_id)
        except ValidationError as err:
            if err.error_code not in _NOT_A_PLUGIN:
                raise
    raise ValidationError(
        f"{field}: {plugin_id!r} is neither a core setting nor an installed plugin",
        error_code="UNKNOWN_FIELD",
        details={"field": field},
    )


def _invalid_field(name: str, problem: str) -> ValidationError:
    return ValidationError(f"{name} {problem}", error_code="INVALID_FIELD", details={"field": name})


def _uncheck_missing(
    result: dict[str, Any],
    section: str,
    fields: dict[str, Any],
    template: dict[str, Any],
    stored_main: dict[str, Any],
) -> None:
    parts = section.split(".")
    in_template, in_stored = value_at(template, parts), value_at(stored_main, parts)
    if in_template is None and in_stored is None:
        raise _unknown_section(section)
    for path in sorted(_boolean_paths(in_template, section) | _boolean_paths(in_stored, section)):
        if path not in fields and path not in LEGACY_KEYS:
            set_path(result, path.split("."), False)


def _boolean_paths(node: Any, prefix: str) -> set[str]:
    if isinstance(node, bool):
        return {prefix}
    if not isinstance(node, dict):
        return set()
    found: set[str] = set()
    for key, value in node.items():
        found |= _boolean_paths(value, f"{prefix}.{key}")
    return found


def _unknown_section(section: str) -> ValidationError:
    return ValidationError(
        f"{FORM_SECTION_FIELD} names {section!r}, which is not a config section",
        error_code="INVALID_FIELD",
        details={"field": FORM_SECTION_FIELD},
    )
