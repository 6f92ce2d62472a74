"""Whole-file replacement from the raw config editor (POST /config/raw/main), as pure
functions: the file is stored as written, but what it changes must be right.
"""

from __future__ import annotations

import copy
from typing import Any

from shared.config.coerce import check_kind, kind_for, value_at
from shared.config.limits import check_config_limits
from shared.config.merge import same_json
from shared.config.reserved import is_plugin_key, plugin_sections, require_object_sections
from shared.config.save_rules import (
    JsonObject,
    SchemaFor,
    changed_sections,
    check_hardware,
    installed_schemas,
    prepare_and_validate_sections,
    refuse_non_finite,
)
from shared.config.template import load_template
from shared.errors import ValidationError
from shared.schedules import section_problems

SCHEDULE_SECTIONS = ("schedule", "dim_schedule")


def plan_raw_save(
    stored_main: JsonObject,
    replacement: Any,
    *,
    schema_for: SchemaFor | None = None,
    stored_secrets: JsonObject | None = None,
    warnings: list[dict[str, str]] | None = None,
    template: JsonObject | None = None,
) -> tuple[JsonObject, list[str]]:
    """Return ``(new_main, changed_sections)`` for a whole-file replacement.

    The file is stored as written, but what it changes must be right: a plugin section
    must be a JSON object; a core value must have the template's type
    (``check_changed_core_types``); a schedule section must pass
    ``shared.schedules.section_problems``; the section of an installed plugin must pass
    its schema (when ``schema_for`` is given, with the stored secrets merged in), so
    the raw editor cannot store what a plugin would refuse; every limited core value
    must be in range (``limits``); and the hardware settings must keep the hardware
    rules (rule 4; warnings are appended to ``warnings``). What it leaves as stored is
    not checked, so a stored problem (or a plugin whose schema file is broken) never
    blocks saving the rest. Sections of plugins that are not installed (``schema_for``
    raises ``UNKNOWN_PLUGIN``) are kept unchecked, so a backup can be restored after
    an uninstall. The caller runs auto-update setup when
    ``needs_auto_update_setup(changed)`` (rule 5).
    """
    if not isinstance(replacement, dict):
        raise ValidationError(
            "the config file must hold a JSON object", error_code="INVALID_CONFIG"
        )
    changes = {k: v for k, v in replacement.items()
               if k not in stored_main or not same_json(stored_main[k], v)}
    # Only what this save changes must be an object: a scalar left in the file by an
    # older version must not block every raw save until someone removes it.
    require_object_sections(changes)
    template = load_template() if template is None else template
    check_changed_core_types(changes, stored_main, template)
    _check_schedule_sections(changes)
    if schema_for is not None:
        sections = plugin_sections(changes)
        schemas = installed_schemas(sections, schema_for, stored_main)
        installed = {k: v for k, v in sections.items() if k in schemas}
        prepare_and_validate_sections(
            installed, {}, schemas.__getitem__, stored_secrets=stored_secrets
        )
    check_config_limits(replacement, stored_main)
    found = check_hardware(replacement, stored_main, replacement)
    if warnings is not None and found:
        warnings.extend(found)
    new_main = copy.deepcopy(replacement)
    changed = changed_sections(stored_main, new_main)
    refuse_non_finite(changed, new_main)
    return new_main, changed


def check_changed_core_types(
    config: JsonObject, stored_main: JsonObject, template: JsonObject
) -> None:
    """Refuse a core value of ``config`` whose type is not the template's (``kind_for``,
    as JSON bodies are checked), for the values that differ from ``stored_main``.

    Raises ValidationError (400, ``INVALID_FIELD``) naming the dotted field. Plugin
    sections and control fields are left out.
    """
    for key, value in config.items():
        if is_plugin_key(key) or key.startswith("__"):
            continue
        _check_changed_kind(key, value, value_at(stored_main, [key]), key in stored_main,
                            template, stored_main)


def _check_changed_kind(name: str, value: Any, stored: Any, was_stored: bool,
                        template: JsonObject, stored_main: JsonObject) -> None:
    if was_stored and same_json(stored, value):
        return
    kind = kind_for(name, template, stored_main)
    if isinstance(value, dict) and kind in (None, "object"):
        stored_node = stored if isinstance(stored, dict) else {}
        for key, item in value.items():
            _check_changed_kind(f"{name}.{key}", item, stored_node.get(key), key in stored_node,
                                template, stored_main)
        return
    check_kind(name, value, kind)


def _check_schedule_sections(changes: JsonObject) -> None:
    for key in SCHEDULE_SECTIONS:
        if key not in changes:
            continue
        problems = section_problems(changes[key], key)
        if problems:
            field, message = problems[0]
            raise ValidationError(f"{field} {message}", error_code="INVALID_FIELD",
                                  details={"field": field, "errors": [
                                      {"field": f, "message": m} for f, m in problems]})
