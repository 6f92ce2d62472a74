"""Whole-file replacement from the raw config editor (POST /config/raw/main), as pure
functions: the file is stored as written, but what it changes must be right.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

from shared.config.brightness import settle_brightness
from shared.config.check import config_problems
from shared.config.save_rules import JsonObject, SchemaFor, changed_sections
from shared.config.template import load_template
from shared.errors import ValidationError


def plan_raw_save(
    stored_main: JsonObject,
    replacement: Any,
    *,
    schema_for: SchemaFor | None = None,
    plugin_ids: Collection[str] | None = None,
    stored_secrets: JsonObject | None = None,
    warnings: list[dict[str, str]] | None = None,
    template: JsonObject | None = None,
) -> tuple[JsonObject, list[str]]:
    """Return ``(new_main, changed_sections)`` for a whole-file replacement.

    The file is stored as written, but what it changes must keep every rule
    (``check.config_problems`` against the stored config: top-level keys, the template's
    types, schedules, ranges and allowed values, installed plugins' schemas with the
    stored secrets merged in, the hardware rules, finite numbers); the first problem
    found is raised. What it leaves as stored is not checked, so a stored problem (or a
    plugin whose schema file is broken) never blocks saving the rest. Sections of
    plugins that are not installed are kept unchecked, so a backup can be restored
    after an uninstall. The two brightness keys are kept equal (``settle_brightness``).
    The caller runs auto-update setup when ``needs_auto_update_setup(changed)`` (rule 5).
    """
    if not isinstance(replacement, dict):
        raise ValidationError(
            "the config file must hold a JSON object", error_code="INVALID_CONFIG"
        )
    problems = config_problems(
        replacement, stored=stored_main, schema_for=schema_for, plugin_ids=plugin_ids,
        secrets=stored_secrets, warnings=warnings,
        template=load_template() if template is None else template)
    if problems:
        raise problems[0]
    new_main = settle_brightness(stored_main, copy.deepcopy(replacement))
    return new_main, changed_sections(stored_main, new_main)
