"""Plugin config preparation and validation: one routine, used everywhere.

Load, both save paths, GET /plugins/config, save notifications and hot reload all call
``prepare_plugin_config``, so a plugin sees the same config whichever way it arrives.

Order: (a) legacy booleans become their object form, (b) schema defaults are applied.

Legacy boolean rule: where the schema declares a property as an object (and does not
also allow a boolean) and the stored value is ``true`` or ``false``, the value becomes
``{"enabled": <value>}``; the same holds for the core-owned ``dynamic_duration`` key
whether or not the schema declares it. So a legacy ``dynamic_duration: true`` means
"enabled", never "disabled".
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from shared.errors import PluginSchemaError

# Per-plugin keys the core owns: accepted whatever the plugin's schema says.
# vegas_include (bool): show this plugin in the Vegas ticker; vegas_mode ("scroll",
# "fixed" or "static"): how its content joins the ticker; vegas_panel_count (int >= 1):
# panel widths a fixed segment takes; vegas_order (int): position in the ticker.
CORE_PLUGIN_KEYS_SCHEMA: dict[str, Any] = {
    "enabled": {"type": "boolean"},
    "display_duration": {"type": "number", "minimum": 1},
    "live_priority": {"type": "boolean"},
    "skin": {"type": ["string", "null"]},
    "skin_options": {"type": "object"},
    "dynamic_duration": {"type": "object"},
    "vegas_include": {"type": "boolean"},
    "vegas_mode": {"enum": ["scroll", "fixed", "static"]},
    "vegas_panel_count": {"type": "integer", "minimum": 1},
    "vegas_order": {"type": "integer"},
}
CORE_PLUGIN_KEYS = frozenset(CORE_PLUGIN_KEYS_SCHEMA)
_LEGACY_BOOLEAN_CORE_KEYS = ("dynamic_duration",)


def prepare_plugin_config(section: dict[str, Any], schema: dict[str, Any] | None) -> dict[str, Any]:
    """Return the prepared config for a plugin: legacy booleans normalised, defaults applied."""
    prepared = copy.deepcopy(section) if isinstance(section, dict) else {}
    for key in _LEGACY_BOOLEAN_CORE_KEYS:
        if isinstance(prepared.get(key), bool):
            prepared[key] = {"enabled": prepared[key]}
    if isinstance(schema, dict) and schema:
        _normalize_legacy_booleans(prepared, schema)
        _apply_defaults(prepared, schema)
    return prepared


def validate_plugin_config(
    section: dict[str, Any], schema: dict[str, Any] | None, *, plugin_id: str = "plugin"
) -> list[dict[str, str]]:
    """Return one ``{"field", "message"}`` per problem; empty when the config is valid.

    A schema that is not a valid JSON Schema is the plugin's fault, not the config's:
    it raises PluginSchemaError (422, ``INVALID_PLUGIN_SCHEMA``) naming ``plugin_id``
    and the problem.
    """
    if not isinstance(section, dict):
        return [{"field": "", "message": "plugin config must be a JSON object"}]
    declared = (schema.get("properties") or {}) if isinstance(schema, dict) else {}
    if not isinstance(declared, dict):
        declared = {}
    # A core-owned key the plugin's schema declares is checked by that schema alone.
    core_part = {k: v for k, v in section.items() if k in CORE_PLUGIN_KEYS and k not in declared}
    errors = _errors(_core_validator(), core_part)
    if schema:
        problem = schema_problem(schema)
        if problem is not None:
            raise invalid_schema(plugin_id, problem)
        plugin_part = {k: v for k, v in section.items() if k not in core_part}
        try:
            errors += _errors(_validator(schema), plugin_part)
        except Exception as err:  # a $ref to nowhere, say: found only while validating
            raise invalid_schema(plugin_id, f"{type(err).__name__}: {err}") from err
    return errors


def schema_problem(schema: Any) -> str | None:
    """Return what makes ``schema`` an invalid JSON Schema, or None when it is valid.

    Checked against the meta-schema of the draft it declares (``$schema``, default
    2020-12). Results are remembered per schema content, so a check costs a lookup
    after the first.
    """
    if not isinstance(schema, dict):
        return "a JSON Schema here must be a JSON object"
    try:
        text = json.dumps(schema, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as err:
        return f"not JSON: {err}"
    return _schema_problem(text)


def invalid_schema(plugin_id: str, problem: str, file: str | None = None) -> PluginSchemaError:
    """Return the error for a plugin whose config schema is not a valid JSON Schema."""
    where = file or "its config schema"
    details = {"plugin_id": plugin_id, "problem": problem}
    if file:
        details["file"] = file
    return PluginSchemaError(f"{plugin_id}: {where} is not a valid JSON Schema: {problem}",
                             details=details)


@functools.lru_cache(maxsize=256)
def _schema_problem(text: str) -> str | None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    schema = json.loads(text)
    try:
        cls = validator_for(schema, default=Draft202012Validator)
    except Exception:  # a "$schema" that is not a string: judged by the default draft
        cls = Draft202012Validator
    try:
        cls.check_schema(schema)
    except SchemaError as err:
        where = "/".join(str(part) for part in err.absolute_path)
        return f"{err.message} (at {where})" if where else err.message
    return None


# jsonschema is imported on first validation, not at start: it is slow to import and
# the daemons' start time matters more than the first save.
@functools.cache
def _core_validator() -> Any:
    from jsonschema import Draft7Validator

    return Draft7Validator({"type": "object", "properties": CORE_PLUGIN_KEYS_SCHEMA})


def _validator(schema: dict[str, Any]) -> Any:
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    cls = validator_for(schema, default=Draft202012Validator)
    return cls(schema)


def _errors(validator: Any, instance: dict[str, Any]) -> list[dict[str, str]]:
    found = []
    for err in sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path)):
        path = ".".join(str(p) for p in err.absolute_path)
        if err.validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else ""
            path = f"{path}.{missing}" if path and missing else missing or path
        found.append({"field": path, "message": _message(err)})
    return found


def _message(err: Any) -> str:
    """Return the validator's message, without the value when the field is a secret.

    jsonschema quotes the offending value ("'abc' does not match '^[0-9]+$'"): for an
    ``x-secret`` field that would put the stored secret into an answer or a log.
    """
    if _secret_path(err):
        return f"the secret value does not pass the schema's {err.validator!r} rule"
    return str(err.message)


def _secret_path(err: Any) -> bool:
    schema = err.schema if isinstance(err.schema, dict) else {}
    if schema.get("x-secret") is True:
        return True
    # An object or array holding a secret, quoted whole ("{...} is not of type 'array'").
    instance = err.instance
    return (isinstance(instance, (dict, list)) and repr(instance) in str(err.message)
            and '"x-secret": true' in json.dumps(schema))


def _types(prop: dict[str, Any]) -> set[str]:
    declared = prop.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {kind for kind in declared if isinstance(kind, str)}
    return {"object"} if "properties" in prop else set()


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    # A broken schema ("properties": [1]) prepares nothing rather than failing:
    # validation reports it (PluginSchemaError).
    properties = schema.get("properties")
    return properties if isinstance(properties, dict) else {}


def _normalize_legacy_booleans(config: dict[str, Any], schema: dict[str, Any]) -> None:
    for key, prop in _properties(schema).items():
        if not isinstance(prop, dict) or key not in config:
            continue
        types = _types(prop)
        value = config[key]
        if isinstance(value, bool) and "object" in types and "boolean" not in types:
            config[key] = {"enabled": value}
        elif isinstance(value, dict) and "object" in types:
            _normalize_legacy_booleans(value, prop)


def _apply_defaults(config: dict[str, Any], schema: dict[str, Any]) -> None:
    for key, prop in _properties(schema).items():
        if not isinstance(prop, dict):
            continue
        if key not in config:
            if "default" in prop:
                config[key] = copy.deepcopy(prop["default"])
            elif prop.get("properties") and "object" in _types(prop):
                nested: dict[str, Any] = {}
                _apply_defaults(nested, prop)
                if nested:
                    config[key] = nested
                continue
            else:
                continue
        if isinstance(config[key], dict) and prop.get("properties"):
            _apply_defaults(config[key], prop)
