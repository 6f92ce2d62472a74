"""schema.star: an app's settings as pixlet's schema JSON (version, schema fields, options).

Each constructor gives the field's JSON object directly (empty values left out, as
pixlet's encoder does); a handler function is kept by its name.
"""

from __future__ import annotations

from typing import Any

from shared.starlark.runtime.modules.base import ModuleSource

_FIELD_TYPES = {
    "Text": "text", "Toggle": "onoff", "Dropdown": "dropdown", "Color": "color",
    "Location": "location", "LocationBased": "locationbased", "Typeahead": "typeahead",
    "OAuth2": "oauth2", "PhotoSelect": "png", "DateTime": "datetime",
    "Generated": "generated", "Radio": "radio", "Notification": "notification",
}
_RENAMES = {"desc": "description"}
_ORDER = ("type", "id", "name", "description", "icon", "visibility", "default", "sounds",
          "options", "palette", "source", "handler", "client_id", "authorization_endpoint",
          "scopes")


def _starlark_text() -> str:
    lines = [
        "def _name(f):",
        "    return f if type(f) == 'string' else str(f).split('.')[-1]",
        "",
        "def _field(kind, **kwargs):",
        "    if 'handler' in kwargs:",
        "        kwargs['handler'] = _name(kwargs['handler'])",
        "    return _py_field(kind, kwargs)",
        "",
        "def _option(display, value):",
        "    return struct(display = display, text = display, value = value)",
        "",
        "def _handler(handler, type = None):",
        "    return {'handler': _name(handler), 'type': type}",
        "",
    ]
    fields = ", ".join(f"{name} = partial(_field, {kind!r})"
                       for name, kind in _FIELD_TYPES.items())
    lines.append(
        f"schema = struct({fields}, Option = _option, Sound = _py_sound, "
        "Schema = _py_schema, Handler = _handler, Visibility = _py_visibility, "
        "HandlerType = struct(String = 'string', Options = 'options', Schema = 'schema'))")
    return "\n".join(lines) + "\n"


def field(kind: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One schema field's JSON object."""
    found: dict[str, Any] = {"type": kind}
    for key, value in arguments.items():
        name = _RENAMES.get(key, key)
        if value is None or value == "" or value == [] or value is False and name != "default":
            continue
        if name == "default" and isinstance(value, bool):
            value = "true" if value else "false"
        found[name] = value if name in ("options", "sounds", "palette", "scopes",
                                        "visibility") else _text(value)
    if kind == "onoff" and "default" not in found:
        found["default"] = "false"
    return {key: found[key] for key in _ORDER if key in found} | {
        key: value for key, value in found.items() if key not in _ORDER}


def _text(value: Any) -> Any:
    return value if isinstance(value, str) else str(value)


def schema(version: str = "1", fields: list[Any] | None = None, handlers: Any = None,
           notifications: list[Any] | None = None) -> dict[str, Any]:
    """The whole schema object."""
    built: dict[str, Any] = {"version": str(version), "schema": list(fields or [])}
    if notifications:
        built["notifications"] = list(notifications)
    return built


def module() -> ModuleSource:
    """schema.star."""
    return ModuleSource(_starlark_text(), {
        "_py_field": field, "_py_schema": schema,
        "_py_sound": lambda id, title, path="": {"id": id, "title": title, "path": path},
        "_py_visibility": lambda type, condition, variable, value="": {
            "type": type, "condition": condition, "variable": variable, "value": value},
    })
