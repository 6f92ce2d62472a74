"""Save rule 2: a form-encoded save of the main config, where a missing checkbox is false.

Field names are dotted paths (``display.hardware.rows``, ``brightness``). The sections a
form covers are named by the hidden ``__form_section`` field (one or more dotted paths,
comma-separated or repeated); without it, by the top-level prefixes of the submitted
fields. Boolean keys in those sections that the form leaves out are set to false, except
the legacy plugin_system toggles, and a post carrying only such a toggle unchecks
nothing. Fields under a plugin id are typed and unchecked by that plugin's schema.
"""

from __future__ import annotations

import copy
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
    """Return the stored main config with a form-encoded save applied (rules 1 and 2)."""
    template = load_template() if template is None else template
    fields = form_fields(form)
    result = copy.deepcopy(stored_main)
    plugin_forms: dict[str, dict[str, Any]] = {}
    for name, raw in fields.items():
        top, _, rest = name.partition(".")
        if is_plugin_key(top) and rest:
            plugin_forms.setdefault(top, {})[rest] = raw
            continue
        check_path(name, template, stored_main)
        value = coerce_value(name, raw, kind_for(name, template, stored_main))
        if value is not KEEP:
            set_path(result, name.split("."), value)
    sections = form_sections(form)
    if not is_legacy_toggle_only(fields):
        for section in sections:
            top = section.split(".")[0]
            if not is_plugin_key(top):
                _uncheck_missing(result, section, fields, template, stored_main)
            elif top in plugin_forms or isinstance(stored_main.get(top), dict):
                plugin_forms.setdefault(top, {})
            else:
                raise _unknown_section(section)
    for plugin_id, plugin_form in plugin_forms.items():
        schema = schema_for(plugin_id) if schema_for else None
        partial = form_to_section(plugin_form, schema)
        stored = result.get(plugin_id)
        result[plugin_id] = deep_merge(stored if isinstance(stored, dict) else {}, partial)
    return result


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
