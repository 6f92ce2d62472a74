"""Secrets: schema fields marked ``x-secret`` live in config_secrets.json, not config.json.

The secrets file shares the plugin-id namespace with the main config and is deep-merged
into it at load, except for the reserved legacy sections (``github``, ``youtube``).
"""

from __future__ import annotations

import copy
from typing import Any

from shared.config.merge import deep_merge
from shared.config.reserved import SECRETS_RESERVED


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


def keep_secrets_secret(
    main: dict[str, Any], secrets: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Move any value whose path is stored in the secrets file out of ``main`` into it.

    A config read with ``load()`` (secrets merged in) and saved back must not leak the
    secrets into config.json; a changed value at such a path becomes the new secret.
    """
    main = copy.deepcopy(main)
    secrets = copy.deepcopy(secrets)
    for key, stored in secrets.items():
        if key in SECRETS_RESERVED or not isinstance(stored, dict):
            continue
        if isinstance(main.get(key), dict):
            _move_known(main[key], stored)
    return main, secrets


def _take_secrets(section: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    secret: dict[str, Any] = {}
    for key, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict) or key not in section:
            continue
        if prop.get("x-secret"):
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
        else:
            stored[key] = section.pop(key)
