"""Whole-file replacement from the raw config editor (POST /config/raw/main), as pure
functions: the file is stored as written, but what it changes must be right.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

from shared.config.brightness import settle_brightness
from shared.config.check import config_problems
from shared.config.merge import deep_merge
from shared.config.reserved import SECRETS_RESERVED, plugin_sections
from shared.config.save_rules import JsonObject, SchemaFor, changed_sections
from shared.config.secrets import split_secrets
from shared.config.template import load_template
from shared.errors import LedpanelError, ValidationError


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


def split_raw_secrets(
    new_main: JsonObject, stored_secrets: JsonObject, schema_for: SchemaFor,
    plugin_ids: Collection[str],
) -> tuple[JsonObject, JsonObject]:
    """Return ``(main, secrets)`` with installed plugins' ``x-secret`` fields moved out.

    A secret typed into the raw editor lands in config_secrets.json, as from every other
    save path, so config.json and every answer built from it stay free of it. A plugin
    whose schema cannot be read keeps its section as written.
    """
    main, secrets = copy.deepcopy(new_main), copy.deepcopy(stored_secrets)
    for plugin_id, section in plugin_sections(main).items():
        if plugin_id not in plugin_ids or plugin_id in SECRETS_RESERVED:
            continue
        try:
            schema = schema_for(plugin_id)
        except LedpanelError:
            continue
        public, secret = split_secrets(section, schema)
        if secret:
            main[plugin_id] = public
            stored = secrets.get(plugin_id)
            secrets[plugin_id] = deep_merge(stored if isinstance(stored, dict) else {}, secret)
    return main, secrets
