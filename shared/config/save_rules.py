"""The save rules of POST /config/main, as pure functions: nothing here writes a file.

1. A JSON body changes only the keys it sends; a missing checkbox is not unchecked.
2. Missing means unchecked only for form bodies (see ``core_form``) and for bodies
   marked with ``__form_section``; a post carrying only a legacy plugin_system toggle
   is not a General save.
3. Plugin sections are prepared and validated like POST /plugins/config; if any fails,
   the whole save is rejected before anything is written. Every top-level key outside
   the reserved core keys is a plugin section and must be a JSON object.
4. Hardware rules: ``hardware_rule.check_hardware_save`` (through ``check``), for every
   save path, reported
   for the settings a save changes. Ranges of single numeric settings are in ``limits``
   and checked for every save path.
5. Raw-editor saves run auto-update setup like the General form: ``raw_save``
   reports the changed sections and ``needs_auto_update_setup`` says when. A raw save
   checks what it changes; what it leaves as stored never blocks it.
6. A blank Vegas cycle bound keeps the stored value (``coerce.BLANK_KEEPS_STORED``).
7. A broken plugin can always be switched off: ``plan_enabled_save`` (the toggle) sets
   ``enabled`` alone and consults no schema, and the other save paths store a change
   to ``enabled`` alone without validation when the plugin's schema file is broken
   (``PluginSchemaError``); any other change of its section is refused (422).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection
from typing import Any

from shared.config.brightness import settle_brightness
from shared.config.check import config_problems
from shared.config.coerce import KEEP, coerce_value, kind_for
from shared.config.core_form import FORM_SECTION_FIELD, apply_form_body, form_fields
from shared.config.limits import check_finite
from shared.config.merge import deep_merge, merge_changed
from shared.config.plugin_rules import (
    enabled_only,
    installed_schemas,
    prepare_and_validate_sections,
)
from shared.config.reserved import (
    is_plugin_key,
    plugin_sections,
    require_object_sections,
    section_error,
    unknown_key_error,
)
from shared.config.secrets import split_secrets
from shared.config.template import load_template
from shared.errors import PluginSchemaError, ValidationError

__all__ = [
    "FORM_SECTION_FIELD",
    "apply_form_body",
    "apply_json_body",
    "changed_sections",
    "needs_auto_update_setup",
    "plan_enabled_save",
    "installed_schemas",
    "plan_main_save",
    "prepare_and_validate_sections",
    "split_plugin_sections",
]

JsonObject = dict[str, Any]
SchemaFor = Callable[[str], "JsonObject | None"]


def apply_json_body(
    stored_main: JsonObject, body: JsonObject, *, template: JsonObject | None = None
) -> JsonObject:
    """Return the stored config with a JSON body deep-merged in (only the keys sent).

    Values of core keys are checked against the template's types; text that reads as
    the right type ("32", "true") is accepted, anything else raises ValidationError.
    Only the top-level values the body touches are copies: the others are
    ``stored_main``'s own, so change the result by assigning top-level keys only.
    """
    template = load_template() if template is None else template
    return merge_changed(stored_main, _typed(body, "", template, stored_main))


def split_plugin_sections(
    body: JsonObject, plugin_ids: Collection[str] | None = None
) -> tuple[JsonObject, dict[str, JsonObject]]:
    """Return ``(core_part, plugin_part)`` of a body; control fields (``__*``) are dropped.

    Every key outside the reserved core keys is a plugin section; a value there that is
    not a JSON object raises ValidationError naming the key (an unknown key, with the
    close one, when it names no installed plugin: ``plugin_ids``). With ``plugin_ids``,
    a section for a plugin that is not installed is refused too.
    """
    require_object_sections(body, plugin_ids)
    if plugin_ids is not None:
        for key, value in plugin_sections(body).items():
            if key not in plugin_ids:
                raise unknown_key_error(key, value, plugin_ids)
    plugins = plugin_sections(body)
    core = {k: v for k, v in body.items() if k not in plugins and not k.startswith("__")}
    return core, plugins


def needs_auto_update_setup(changed: list[str]) -> bool:
    """Return whether a save changed the automatic-update settings (save rule 5)."""
    return "auto_update" in changed


def plan_main_save(
    stored_main: JsonObject,
    stored_secrets: JsonObject,
    body: JsonObject,
    *,
    form: bool,
    schema_for: SchemaFor,
    template: JsonObject | None = None,
    warnings: list[dict[str, str]] | None = None,
    plugin_ids: Collection[str] | None = None,
) -> tuple[JsonObject, JsonObject, list[str]]:
    """Return ``(new_main, new_secrets, changed_sections)`` for a POST /config/main body.

    Hardware warnings (rule 4) are appended to ``warnings`` when it is given.
    ``plugin_ids`` (the installed plugins) lets a misspelt key be named as such. The two
    brightness keys stay one value (``settle_brightness``). Neither stored object is
    changed; ``new_main`` shares the sections the body leaves alone with ``stored_main``.
    """
    if not isinstance(body, dict):
        raise ValidationError("the request body must be a JSON object", error_code="INVALID_JSON")
    template = load_template() if template is None else template
    new_main, sections = _apply_body(stored_main, body, form=form, schema_for=schema_for,
                                     template=template, plugin_ids=plugin_ids)
    _refuse_replaced_sections(stored_main, new_main)
    schemas = _section_schemas(sections, stored_main, new_main, schema_for)
    prepared = prepare_and_validate_sections(
        sections, stored_main, schemas.__getitem__, stored_secrets=stored_secrets
    )
    new_secrets = _store_sections(prepared, schemas, new_main, stored_secrets)
    settle_brightness(stored_main, new_main)
    # The whole-file rules on what changed, the hardware rules among them (rule 4): what
    # the raw editor and the display refuse, this save refuses too (the checks above
    # name form and JSON fields first).
    problems = config_problems(new_main, stored=stored_main, schema_for=schema_for,
                               plugin_ids=plugin_ids, secrets=new_secrets, template=template,
                               warnings=warnings)
    if problems:
        raise problems[0]
    changed = changed_sections(stored_main, new_main, stored_secrets, new_secrets)
    refuse_non_finite(changed, new_main, new_secrets)
    return new_main, new_secrets, changed


def _apply_body(
    stored_main: JsonObject, body: JsonObject, *, form: bool, schema_for: SchemaFor,
    template: JsonObject, plugin_ids: Collection[str] | None,
) -> tuple[JsonObject, dict[str, JsonObject]]:
    """Return the config with the body's core settings applied, and the plugin sections
    it sends (form bodies: rule 2; JSON bodies: rules 1 and 3)."""
    if form or FORM_SECTION_FIELD in body:
        new_main = apply_form_body(stored_main, body, template=template, schema_for=schema_for)
        touched = {name.split(".")[0] for name in form_fields(body)}
        touched |= {str(s).split(".")[0] for s in _as_list(body.get(FORM_SECTION_FIELD))}
        return new_main, {k: new_main[k] for k in touched if k in plugin_sections(new_main)}
    core, sections = split_plugin_sections(body, plugin_ids)
    return apply_json_body(stored_main, core, template=template), sections


def _section_schemas(sections: dict[str, JsonObject], stored_main: JsonObject,
                     new_main: JsonObject, schema_for: SchemaFor
                     ) -> dict[str, JsonObject | None]:
    """Return each sent section's schema. A section whose plugin's schema is broken may
    only switch it on or off (rule 7): it is stored in ``new_main`` as it is and dropped
    from ``sections``; any other change raises."""
    schemas: dict[str, JsonObject | None] = {}
    for plugin_id in list(sections):
        try:
            schemas[plugin_id] = schema_for(plugin_id)
        except PluginSchemaError:
            merged = deep_merge(_object(stored_main.get(plugin_id)), sections[plugin_id])
            if not enabled_only(_object(stored_main.get(plugin_id)), merged):
                raise
            del sections[plugin_id]
            new_main[plugin_id] = merged
    return schemas


def _store_sections(prepared: dict[str, JsonObject], schemas: dict[str, JsonObject | None],
                    new_main: JsonObject, stored_secrets: JsonObject) -> JsonObject:
    """Put each prepared section in ``new_main`` without its secrets; return the secrets
    file's new content (``stored_secrets`` is not changed)."""
    new_secrets = dict(stored_secrets)  # only the sections below are replaced
    for plugin_id, section in prepared.items():
        public, secret = split_secrets(section, schemas[plugin_id])
        new_main[plugin_id] = public
        if secret:
            new_secrets[plugin_id] = deep_merge(_object(new_secrets.get(plugin_id)), secret)
    return new_secrets


def plan_enabled_save(
    stored_main: JsonObject, plugin_id: str, enabled: bool
) -> tuple[JsonObject, list[str]]:
    """Return ``(new_main, changed_sections)`` with one plugin switched on or off.

    Only ``<plugin_id>.enabled`` is set (a section that is not an object becomes one);
    no schema is read, so a plugin whose schema file is broken can always be disabled.
    """
    if not isinstance(enabled, bool):
        raise ValidationError("enabled must be true or false", error_code="INVALID_FIELD",
                              details={"field": "enabled"})
    if not is_plugin_key(plugin_id):
        raise ValidationError(f"{plugin_id!r} is a core setting, not a plugin",
                              error_code="UNKNOWN_PLUGIN", details={"field": "plugin_id"})
    new_main = copy.deepcopy(stored_main)
    section = new_main.get(plugin_id)
    if not isinstance(section, dict):
        section = new_main[plugin_id] = {}
    section["enabled"] = enabled
    return new_main, changed_sections(stored_main, new_main)


def changed_sections(
    old_main: JsonObject,
    new_main: JsonObject,
    old_secrets: JsonObject | None = None,
    new_secrets: JsonObject | None = None,
) -> list[str]:
    """Return the sorted top-level keys whose value differs in the main or secrets file."""
    changed = _differing(old_main, new_main) | _differing(old_secrets or {}, new_secrets or {})
    return sorted(changed)


def _differing(old: JsonObject, new: JsonObject) -> set[str]:
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def _typed(body: JsonObject, prefix: str, template: JsonObject, stored: JsonObject) -> JsonObject:
    typed: JsonObject = {}
    for key, value in body.items():
        name = f"{prefix}{key}"
        if not prefix and (key.startswith("__") or is_plugin_key(key)):
            if not key.startswith("__"):
                error = section_error(key, value, None)
                if error is not None:
                    raise error
                typed[key] = value
            continue
        kind = kind_for(name, template, stored)
        if isinstance(value, dict) and kind in (None, "object"):
            typed[key] = _typed(value, f"{name}.", template, stored)
            continue
        coerced = coerce_value(name, value, kind)
        if coerced is not KEEP:
            typed[key] = coerced
    return typed


def refuse_non_finite(changed: list[str], *configs: JsonObject) -> None:
    for config in configs:
        for key in changed:
            if key in config:
                check_finite(config[key], key)


def _refuse_replaced_sections(stored_main: JsonObject, new_main: JsonObject) -> None:
    for key in plugin_sections(stored_main):
        if not isinstance(new_main.get(key), dict):
            raise ValidationError(
                f"{key} is a plugin section and must stay a JSON object",
                error_code="INVALID_PLUGIN_CONFIG",
                details={"errors": {key: [{"field": "", "message": "must be an object"}]}},
            )


def _object(value: Any) -> JsonObject:
    return value if isinstance(value, dict) else {}


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
