"""Secrets: schema fields marked ``x-secret`` live in config_secrets.json, not config.json.

The secrets file shares the plugin-id namespace with the main config and is deep-merged
into it at load, except for the reserved legacy sections (``github``, ``youtube``). An
array whose items hold an ``x-secret`` field is kept there whole (a list cannot be
merged item by item).

No answer of the web service carries a secret: ``mask_secrets`` shows a set secret as
``SECRET_MASK``, and a save that sends the mask back keeps the stored secret.
"""

from __future__ import annotations

import copy
from typing import Any

from shared.config.merge import deep_merge
from shared.config.reserved import SECRETS_RESERVED
from shared.errors import ValidationError

# What an answer shows for a secret that is set; sent back, it means "keep it".
SECRET_MASK = "********"


def split_secrets(
    section: dict[str, Any], schema: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return ``(public, secret)``: the section without and with only its x-secret fields."""
    public = copy.deepcopy(section)
    secret = _take_secrets(public, schema or {})
    return public, secret


def merge_secrets(main: dict[str, Any], secrets: dict[str, Any]) -> dict[str, Any]:
    """Return the main config with the secrets deep-merged in (reserved sections left out)."""
    overlay = {key: value for key, value in secrets.items() if key not in SECRETS_RESERVED}
    return deep_merge(main, overlay)


def section_with_secrets(main: dict[str, Any], secrets: dict[str, Any], key: str) -> Any:
    """Return ``merge_secrets(main, secrets).get(key)`` without copying the other sections."""
    def only(config: dict[str, Any]) -> dict[str, Any]:
        return {key: config[key]} if key in config else {}

    return merge_secrets(only(main), only(secrets)).get(key)


def keep_secrets_secret(
    main: dict[str, Any], secrets: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Move any value whose path is stored in the secrets file out of ``main`` into it.

    A config read with ``load()`` (secrets merged in) and saved back must not leak the
    secrets into config.json; a changed value at such a path becomes the new secret.
    Neither argument is changed: only the sections a value moves out of are copied, and
    with nothing to move the very arguments are returned.
    """
    new_main, new_secrets = main, secrets
    for key, stored in secrets.items():
        if key in SECRETS_RESERVED or not isinstance(stored, dict):
            continue
        section = main.get(key)
        if not isinstance(section, dict) or not any(name in section for name in stored):
            continue
        if new_main is main:
            new_main, new_secrets = dict(main), dict(secrets)
        new_main[key], new_secrets[key] = copy.deepcopy(section), copy.deepcopy(stored)
        _move_known(new_main[key], new_secrets[key])
    return new_main, new_secrets


def mask_secrets(value: Any, schema: dict[str, Any] | None,
                 stored: Any = None) -> Any:
    """Return a copy of a plugin section with every secret that is set shown as the mask.

    Secrets are the ``x-secret`` fields of ``schema`` (in nested objects, array items
    and ``additionalProperties`` too) and every path ``stored`` (the plugin's part of
    the secrets file) holds, in case the schema no longer marks it. Empty values stay
    as they are, so a form can tell "not set" from "set".
    """
    return _mask(copy.deepcopy(value), schema if isinstance(schema, dict) else {}, stored)


def restore_masked(value: Any, stored: Any, path: str = "") -> Any:
    """Return ``value`` with every ``SECRET_MASK`` replaced by the stored value at its
    path; a mask with nothing stored is dropped.

    List items are matched by position, unless the list's objects carry ``ROW_KEY``
    (the settings form tags each row with the index it was drawn from, so a removed
    row cannot hand its secret to the next one): then each row is matched by that
    index, the key is stripped, and a mask in a row of unknown origin is refused. A
    plain value (a list of secret strings) travels as ``{ROW_KEY: i, VALUE_KEY: v}``
    and is unwrapped the same way.
    """
    if isinstance(value, dict):
        base = stored if isinstance(stored, dict) else {}
        restored: dict[str, Any] = {}
        for key, item in value.items():
            if item == SECRET_MASK and key not in base:
                continue
            restored[key] = restore_masked(item, base.get(key), _join(path, key))
        return restored
    if isinstance(value, list):
        base_list = stored if isinstance(stored, list) else []
        if any(isinstance(item, dict) and ROW_KEY in item for item in value):
            return [_restore_row(item, base_list, _join(path, i))
                    for i, item in enumerate(value)]
        return [restore_masked(item, base_list[i] if i < len(base_list) else None,
                               _join(path, i))
                for i, item in enumerate(value)]
    return copy.deepcopy(stored) if value == SECRET_MASK else value


# The key a form's table row carries: the index of the stored item it was drawn from.
ROW_KEY = "__row"
# Beside ROW_KEY, the value of a row that is a plain value rather than an object.
VALUE_KEY = "__value"


def _restore_row(item: Any, base_list: list[Any], path: str) -> Any:
    plain = isinstance(item, dict) and set(item) == {ROW_KEY, VALUE_KEY}
    if not isinstance(item, dict) or plain:
        row = item[VALUE_KEY] if plain else item
        origin = item.get(ROW_KEY) if plain else None
    else:
        row = {key: sub for key, sub in item.items() if key != ROW_KEY}
        origin = item.get(ROW_KEY)
    if isinstance(origin, int) and not isinstance(origin, bool) \
            and 0 <= origin < len(base_list):
        return restore_masked(row, base_list[origin], path)
    masked = _first_mask(row, path)
    if masked is not None:
        raise ValidationError(
            f"{masked}: this row's stored secret is unknown; type the secret again",
            error_code="INVALID_FIELD", details={"field": masked})
    return row


def _first_mask(value: Any, path: str) -> str | None:
    """Return the path of the first mask inside ``value``, or None."""
    if value == SECRET_MASK:
        return path
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for key, sub in items:
        found = _first_mask(sub, _join(path, key))
        if found is not None:
            return found
    return None


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _mask(value: Any, schema: dict[str, Any], stored: Any) -> Any:
    if schema.get("x-secret") or (stored is not None and not isinstance(stored, dict | list)):
        return SECRET_MASK if _is_set(value) else value
    if isinstance(value, dict):
        props = _object(schema.get("properties"))
        extra = schema.get("additionalProperties")
        stored_map = stored if isinstance(stored, dict) else {}
        for key in list(value):
            sub = props.get(key, extra if isinstance(extra, dict) else {})
            value[key] = _mask(value[key], sub if isinstance(sub, dict) else {},
                               stored_map.get(key))
        return value
    if isinstance(value, list):
        items = _object(schema.get("items"))
        # An array the schema describes is stored whole (see the module): its schema
        # says which fields are secret. One it does not describe is secret throughout.
        stored_list = stored if isinstance(stored, list) and not items else []
        return [_mask(item, items, stored_list[i] if i < len(stored_list) else None)
                for i, item in enumerate(value)]
    return value


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _is_set(value: Any) -> bool:
    return value not in (None, "") and value != [] and value != {}


def _holds_secret(schema: dict[str, Any]) -> bool:
    """Return whether values of ``schema`` may hold an x-secret field anywhere."""
    if schema.get("x-secret"):
        return True
    subs = list((schema.get("properties") or {}).values())
    subs += [schema.get("items"), schema.get("additionalProperties")]
    return any(isinstance(sub, dict) and _holds_secret(sub) for sub in subs)


def _take_secrets(section: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    secret: dict[str, Any] = {}
    for key, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict) or key not in section:
            continue
        if prop.get("x-secret") and section[key] == SECRET_MASK:
            del section[key]  # the mask sent back: the stored secret stays
        elif prop.get("x-secret") or (isinstance(section[key], list)
                                      and isinstance(prop.get("items"), dict)
                                      and _holds_secret(prop["items"])):
            secret[key] = section.pop(key)
        elif isinstance(section[key], dict) and prop.get("properties"):
            nested = _take_secrets(section[key], prop)
            if nested:
                secret[key] = nested
    return secret


def _move_known(section: dict[str, Any], stored: dict[str, Any]) -> None:
    for key, value in stored.items():
        if key not in section:
            continue
        if isinstance(value, dict) and isinstance(section[key], dict):
            _move_known(section[key], value)
        elif section[key] == SECRET_MASK:  # the mask sent back: keep the stored secret
            del section[key]
        else:
            stored[key] = section.pop(key)
