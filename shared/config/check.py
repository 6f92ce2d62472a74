"""Every rule a whole config file must keep, collected instead of stopping at the first.

One implementation for every reader that checks a whole file: the raw editor's save
(``raw_save``, which refuses on the first error), ``ledpanel config validate`` (which
lists them all) and the display daemon when config.json changes under it (a hand edit
that breaks a rule is not applied, and the problems are reported). The rules are the
ones the other save paths run value by value: top-level keys (a core setting, or an
object for a plugin), the file's and each plugin section's size (``sizes``), only
known keys in core sections (``known_keys``), the template's types, schedules, ranges
and allowed values (``limits``, ``values``), plugin sections against their schemas,
the display hardware rules and finite numbers.

With ``stored``, only what differs from it is checked, the raw editor's rule: a problem
already stored never blocks a change elsewhere. Without it, everything is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import Any

from shared.config.coerce import check_kind, kind_for
from shared.config.hardware_rule import check_hardware_save
from shared.config.known_keys import unknown_core_keys
from shared.config.limits import check_finite, value_errors
from shared.config.merge import same_json
from shared.config.plugin_rules import installed_schemas, prepare_and_validate_sections
from shared.config.reserved import is_plugin_key, plugin_sections, section_error
from shared.config.sizes import size_errors
from shared.errors import LedpanelError, PluginSchemaError, ValidationError
from shared.schedules import section_problems

JsonObject = dict[str, Any]
SchemaFor = Callable[[str], "JsonObject | None"]
SCHEDULE_SECTIONS = ("schedule", "dim_schedule")
_MISSING = object()


def config_problems(
    config: JsonObject,
    *,
    stored: JsonObject | None = None,
    schema_for: SchemaFor | None = None,
    plugin_ids: Collection[str] | None = None,
    secrets: JsonObject | None = None,
    template: JsonObject,
    warnings: list[dict[str, str]] | None = None,
) -> list[LedpanelError]:
    """Return every rule ``config`` breaks, in the order the raw editor checks them.

    ``schema_for(plugin_id)`` gives an installed plugin's schema (raising
    ``UNKNOWN_PLUGIN`` for others, whose sections are left unchecked); ``secrets`` are
    merged into plugin sections before their schemas see them. Hardware warnings (board
    guidance; everything in emulator mode) are appended to ``warnings``.
    """
    changes = {k: v for k, v in config.items()
               if stored is None or k not in stored or not same_json(stored[k], v)}
    base = {} if stored is None else stored
    found: list[LedpanelError] = []
    for key, value in changes.items():
        error = section_error(key, value, plugin_ids)
        if error is not None:
            found.append(error)
    found += size_errors(config, stored)
    found += unknown_core_keys(changes, base, template)
    found += _core_type_errors(changes, base, template)
    found += _schedule_errors(changes)
    if schema_for is not None:
        found += _plugin_errors(changes, base, schema_for, secrets)
    found += value_errors(config, stored)
    try:
        reported = check_hardware_save(config, base)
    except ValidationError as err:
        found.append(err)
    else:
        if warnings is not None:
            warnings.extend(reported)
    for key in sorted(changes):
        try:
            check_finite(config[key], key)
        except ValidationError as err:
            found.append(err)
    return found


def problem_lines(errors: list[LedpanelError]) -> list[str]:
    """Return one ``key: message`` line per problem (grouped errors are split up)."""
    lines: list[str] = []
    for err in errors:
        details = err.details if isinstance(err.details, dict) else {}
        if details.get("problems"):
            lines += [f"{p['setting']}: {p['message']}" for p in details["problems"]]
        elif isinstance(details.get("errors"), dict) and err.error_code != "INVALID_FIELD":
            for plugin_id, items in details["errors"].items():
                lines += [f"{plugin_id}{'.' if p['field'] else ''}{p['field']}: {p['message']}"
                          for p in items]
        elif isinstance(details.get("errors"), list):
            lines += [f"{p['field']}: {p['message']}" for p in details["errors"]]
        else:
            lines.append(_with_colon(err.message, details.get("field")))
    return list(dict.fromkeys(lines))


def _with_colon(message: str, field: Any) -> str:
    """Return ``field: rest`` for messages written as ``field rest``."""
    if isinstance(field, str) and message.startswith(f"{field} "):
        return f"{field}: {message[len(field) + 1:]}"
    return message


def _core_type_errors(changes: JsonObject, stored: JsonObject,
                      template: JsonObject) -> Iterator[LedpanelError]:
    for key, value in changes.items():
        if is_plugin_key(key) or key.startswith("__"):
            continue
        yield from _kind_errors(key, value, stored.get(key, _MISSING), template, stored)


def _kind_errors(name: str, value: Any, stored: Any, template: JsonObject,
                 stored_main: JsonObject) -> Iterator[LedpanelError]:
    if stored is not _MISSING and same_json(stored, value):
        return
    kind = kind_for(name, template, stored_main)
    if isinstance(value, dict) and kind in (None, "object"):
        node = stored if isinstance(stored, dict) else {}
        for key, item in value.items():
            yield from _kind_errors(f"{name}.{key}", item, node.get(key, _MISSING), template,
                                    stored_main)
        return
    try:
        check_kind(name, value, kind)
    except ValidationError as err:
        yield err


def _schedule_errors(changes: JsonObject) -> Iterator[LedpanelError]:
    for key in SCHEDULE_SECTIONS:
        if key not in changes:
            continue
        problems = section_problems(changes[key], key)
        if problems:
            field, message = problems[0]
            yield ValidationError(f"{field} {message}", error_code="INVALID_FIELD", details={
                "field": field, "errors": [{"field": f, "message": m} for f, m in problems]})


def _plugin_errors(changes: JsonObject, stored: JsonObject, schema_for: SchemaFor,
                   secrets: JsonObject | None) -> Iterator[LedpanelError]:
    """Check each changed section of an installed plugin against its schema (save rule 3;
    a broken schema blocks nothing but ``enabled``, rule 7)."""
    for plugin_id, section in plugin_sections(changes).items():
        try:
            schemas = installed_schemas({plugin_id: section}, schema_for, stored)
            if plugin_id in schemas:  # not installed: kept as written
                prepare_and_validate_sections({plugin_id: section}, {}, schemas.__getitem__,
                                              stored_secrets=secrets)
        except (ValidationError, PluginSchemaError) as err:
            yield err
