"""Turn a flat HTML form post into a nested plugin config, typed by the plugin's schema."""

from __future__ import annotations

from typing import Any

from shared.config.coerce import set_path
from shared.errors import ValidationError

_TRUE = {"on", "true", "1", "yes"}
_FALSE = {"off", "false", "0", "no", ""}


def form_to_section(form: dict[str, Any], schema: dict[str, Any] | None) -> dict[str, Any]:
    """Return the nested config a form describes; dotted names nest, types follow the schema.

    Boolean fields the schema declares but the form omits are unchecked checkboxes: false.
    """
    section: dict[str, Any] = {}
    for name, raw in form.items():
        if name.startswith("__") or name == "plugin_id":
            continue
        parts = name.split(".")
        prop = _prop_at(schema, parts)
        set_path(section, parts, _coerce(name, raw, prop))
    for parts in _boolean_paths(schema or {}, []):
        if ".".join(parts) not in form:
            set_path(section, parts, False)
    return section


def _prop_at(schema: dict[str, Any] | None, parts: list[str]) -> dict[str, Any]:
    node: Any = schema or {}
    for part in parts:
        node = (node.get("properties") or {}).get(part) if isinstance(node, dict) else None
        if node is None:
            return {}
    return node if isinstance(node, dict) else {}


def _boolean_paths(schema: dict[str, Any], prefix: list[str]) -> list[list[str]]:
    found = []
    for key, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict):
            continue
        if prop.get("type") == "boolean":
            found.append(prefix + [key])
        elif prop.get("properties"):
            found.extend(_boolean_paths(prop, prefix + [key]))
    return found


def _coerce(name: str, raw: Any, prop: dict[str, Any]) -> Any:
    kind = prop.get("type")
    values = raw if isinstance(raw, list) else [raw]
    if kind == "array":
        item_kind = (prop.get("items") or {}).get("type")
        flat = [v for value in values for v in str(value).split(",") if v.strip() != ""]
        return [_scalar(name, v.strip(), item_kind) for v in flat]
    return _scalar(name, values[-1], kind)


def _scalar(name: str, value: Any, kind: Any) -> Any:
    text = str(value).strip()
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            number = float(text)
            return int(number) if number.is_integer() and "." not in text else number
    except ValueError as err:
        raise ValidationError(f"{name}: {text!r} is not a number",
                              error_code="INVALID_FIELD", details={"field": name}) from err
    if kind == "boolean":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValidationError(f"{name}: {text!r} is not true or false",
                              error_code="INVALID_FIELD", details={"field": name})
    return value
