"""Plugin sections of a save: prepared and validated against their schemas, all or none.

Save rule 3: a plugin section is merged onto the stored one (secrets included; a sent
``skin_options`` replaces the stored one whole), prepared (legacy booleans, schema
defaults) and validated; if any fails, the whole save
is refused before anything is written. Rule 7: a plugin whose schema file is broken can
still be switched on or off.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from shared.config.merge import deep_merge, same_json
from shared.config.prepare import prepare_plugin_config, validate_plugin_config
from shared.config.reserved import SECRETS_RESERVED
from shared.errors import PluginSchemaError, ValidationError

JsonObject = dict[str, Any]
SchemaFor = Callable[[str], "JsonObject | None"]


def prepare_and_validate_sections(
    sections: dict[str, JsonObject],
    stored_main: JsonObject,
    schema_for: SchemaFor,
    *,
    stored_secrets: JsonObject | None = None,
) -> dict[str, JsonObject]:
    """Merge each plugin section onto its stored one, prepare and validate it; all or none.

    The stored secrets are merged in too (the reserved legacy sections aside). A plugin
    whose schema is broken raises PluginSchemaError (422) naming it.
    """
    prepared: dict[str, JsonObject] = {}
    errors: dict[str, list[dict[str, str]]] = {}
    for plugin_id, partial in sections.items():
        if not isinstance(partial, dict):
            errors[plugin_id] = [{"field": "", "message": "plugin config must be a JSON object"}]
            continue
        base = _object(stored_main.get(plugin_id))
        if stored_secrets and plugin_id not in SECRETS_RESERVED:
            base = deep_merge(base, _object(stored_secrets.get(plugin_id)))
        schema = schema_for(plugin_id)
        section = prepare_plugin_config(_merge_section(base, partial), schema)
        problems = validate_plugin_config(section, schema, plugin_id=plugin_id)
        if problems:
            errors[plugin_id] = problems
        else:
            prepared[plugin_id] = section
    if errors:
        raise ValidationError(
            "invalid plugin configuration, nothing was saved: " + _describe(errors),
            error_code="INVALID_PLUGIN_CONFIG",
            details={"errors": errors},
        )
    return prepared


# Core-owned keys a save replaces whole instead of merging: a skin's options belong to
# the skin chosen with them, so keys the previous skin used must not linger.
REPLACED_WHOLE = ("skin_options",)


def _merge_section(base: JsonObject, partial: JsonObject) -> JsonObject:
    merged = deep_merge(base, partial)
    for key in REPLACED_WHOLE:
        if isinstance(partial.get(key), dict):
            merged[key] = copy.deepcopy(partial[key])
    return merged


def installed_schemas(
    sections: dict[str, JsonObject], schema_for: SchemaFor, stored_main: JsonObject
) -> dict[str, JsonObject | None]:
    """Return the schemas of the installed plugins among ``sections``.

    A plugin that is not installed is left out (kept unchecked), and so is one whose
    schema file is broken when the section changes nothing but ``enabled`` (rule 7).
    """
    schemas: dict[str, JsonObject | None] = {}
    for plugin_id, section in sections.items():
        try:
            schemas[plugin_id] = schema_for(plugin_id)
        except PluginSchemaError:
            if not enabled_only(_object(stored_main.get(plugin_id)), section):
                raise
        except ValidationError as err:
            if err.error_code != "UNKNOWN_PLUGIN":
                raise
    return schemas


def enabled_only(stored_section: JsonObject, new_section: Any) -> bool:
    """Return whether ``new_section`` differs from the stored one in ``enabled`` alone."""
    if not isinstance(new_section, dict) or not isinstance(new_section.get("enabled"), bool):
        return False
    rest = {k: v for k, v in new_section.items() if k != "enabled"}
    stored_rest = {k: v for k, v in stored_section.items() if k != "enabled"}
    return same_json(stored_rest, rest)


def _describe(errors: dict[str, list[dict[str, str]]]) -> str:
    parts = []
    for plugin_id, problems in errors.items():
        shown = "; ".join(f"{p['field'] or '(section)'}: {p['message']}" for p in problems[:5])
        more = f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
        parts.append(f"{plugin_id} ({shown}{more})")
    return ", ".join(parts)


def _object(value: Any) -> JsonObject:
    return value if isinstance(value, dict) else {}
