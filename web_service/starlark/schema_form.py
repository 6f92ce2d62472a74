"""A pixlet app schema turned into the JSON-Schema subset the plugin settings form draws.

Pixlet passes every setting to ``main(config)`` as text. Fields the form can draw:

- ``text`` (Text): a text input; ``datetime`` (DateTime): a text input of an RFC 3339
  time; ``location`` (Location): a text area holding pixlet's location JSON;
- ``onoff`` (Toggle): a switch (``"true"``/``"false"`` once saved);
- ``dropdown`` (Dropdown) and ``radio`` (Radio): a choice of the options' values,
  labelled with their display text;
- ``color`` (Color): a colour picker (``#rrggbb``).

The others need a service pixlet's hosts provide (OAuth2 sign-in, photo upload, a
handler run per keystroke or choice: LocationBased, Typeahead, Generated, Notification)
and are listed in ``unsupported`` with a note; the app runs with their defaults.
"""

from __future__ import annotations

from typing import Any

MAX_FIELDS = 100
MAX_OPTIONS = 500
_TEXT = 2000

_NOTES = {
    "oauth2": "signs in to another service through pixlet's host; not available here",
    "png": "takes a photo upload through pixlet's host; not available here",
    "locationbased": "asks the app for choices near a location; not available here",
    "typeahead": "asks the app for suggestions while typing; not available here",
    "generated": "asks the app to make more settings; not available here",
    "notification": "sends phone notifications through Tidbyt's servers; not available "
                    "here",
}


def schema_form(pixlet: dict[str, Any] | None) -> dict[str, Any]:
    """``{"schema": <JSON Schema object>, "unsupported": [{id, name, type, note}]}``."""
    properties: dict[str, Any] = {}
    unsupported: list[dict[str, str]] = []
    fields = pixlet.get("schema") if isinstance(pixlet, dict) else None
    for field in (fields if isinstance(fields, list) else [])[:MAX_FIELDS]:
        if not isinstance(field, dict) or not isinstance(field.get("id"), str) \
                or not field["id"]:
            continue
        kind = _text(field.get("type"))
        prop = _property(kind, field)
        if prop is None:
            unsupported.append({"id": field["id"], "name": _text(field.get("name")),
                                "type": kind, "note": _NOTES.get(
                                    kind, f"a {kind or 'nameless'} field cannot be drawn")})
        else:
            properties[field["id"]] = prop
    return {"schema": {"type": "object", "properties": properties,
                       "x-propertyOrder": list(properties)},
            "unsupported": unsupported}


def form_values(pixlet: dict[str, Any] | None, config: dict[str, str]) -> dict[str, Any]:
    """The stored settings as the form's types: a toggle's text as a boolean."""
    toggles = {f.get("id") for f in _fields(pixlet) if f.get("type") == "onoff"}
    return {key: (value == "true") if key in toggles else value
            for key, value in config.items()}


def defaults(pixlet: dict[str, Any] | None) -> dict[str, str]:
    """Each field's default as pixlet passes it (text)."""
    return {f["id"]: f["default"] for f in _fields(pixlet)
            if isinstance(f.get("id"), str) and isinstance(f.get("default"), str)}


def _property(kind: str, field: dict[str, Any]) -> dict[str, Any] | None:
    base: dict[str, Any] = {"title": _text(field.get("name")) or field["id"],
                            "description": _text(field.get("description"))}
    default = field.get("default")
    if kind == "onoff":
        return {**base, "type": "boolean", "x-widget": "toggle-switch",
                "default": default == "true"}
    prop: dict[str, Any] = {**base, "type": "string"}
    if isinstance(default, str):
        prop["default"] = default[:_TEXT]
    if kind in ("text", "datetime"):
        prop["x-widget"] = "text-input"
        if kind == "datetime":
            prop["description"] = (prop["description"] + " (an RFC 3339 time, such as "
                                   "2025-01-31T18:00:00Z)").strip()
    elif kind == "location":
        prop["x-widget"] = "textarea"
        prop["description"] = (prop["description"] + " (pixlet's location JSON: lat, lng, "
                               "locality, timezone)").strip()
    elif kind == "color":
        prop["x-widget"] = "color-picker"
    elif kind in ("dropdown", "radio"):
        options = _options(field.get("options"))
        if not options:
            return None
        prop["enum"] = [value for value, _ in options]
        prop["x-enum-labels"] = [label for _, label in options]
        prop["x-widget"] = "select-dropdown" if kind == "dropdown" else "radio-group"
    else:
        return None
    return prop


def _options(value: Any) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for option in (value if isinstance(value, list) else [])[:MAX_OPTIONS]:
        if isinstance(option, dict) and isinstance(option.get("value"), str):
            label = option.get("display") or option.get("text") or option["value"]
            found.append((option["value"][:_TEXT], _text(label)))
    return found


def _fields(pixlet: dict[str, Any] | None) -> list[dict[str, Any]]:
    fields = pixlet.get("schema") if isinstance(pixlet, dict) else None
    return [f for f in (fields if isinstance(fields, list) else []) if isinstance(f, dict)]


def _text(value: Any) -> str:
    return value[:_TEXT] if isinstance(value, str) else ""
