"""Turn a plugin's config schema and prepared config into form fields for the templates.

The form is drawn on the server (``templates/widgets/``) and read back by
``static/plugin_form.js``. Each field names its widget, its template, and the *kind*
of value the browser collects from it, so a save posts the same JSON shape that GET
/plugins/config answered: integers as numbers, false booleans, empty strings kept,
numeric-looking strings left as strings, nested objects and arrays of objects.

A widget is chosen by ``x-widget`` when the schema names one, else by the property's
type (an array of exactly three integers 0-255 is a colour: a colour picker). An
``x-widget`` this module does not know falls back to the type's own widget with a note, so
no field is ever drawn blank.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

# Every widget name a schema may give in ``x-widget``, with the template that draws it.
WIDGET_TEMPLATES: dict[str, str] = {
    "text-input": "text", "email-input": "text", "url-input": "text",
    "password-input": "text", "date-picker": "text", "time-picker": "text",
    "number-input": "text", "base-widget": "text", "color-picker": "text",
    "slider": "slider", "textarea": "textarea", "toggle-switch": "toggle",
    "select-dropdown": "select", "font-selector": "select", "timezone-selector": "timezone",
    "radio-group": "radio", "checkbox-group": "checks", "day-selector": "checks",
    "vendor-calendar-picker": "calendars", "array-table": "table", "custom-feeds": "table",
    "time-range": "group", "schedule-picker": "group",
    "file-upload": "files", "file-upload-single": "files",
    "plugin-file-manager": "file_manager", "notification": "notification",
}
# Widgets drawn for values no other widget fits: an object without properties, a
# mixed array, an unknown type. Not plugin-facing names.
INTERNAL_TEMPLATES = {"group": "group", "json": "json"}

INPUT_TYPES = {"text-input": "text", "email-input": "email", "url-input": "url",
               "password-input": "password", "date-picker": "date", "time-picker": "time",
               "number-input": "number", "base-widget": "text", "color-picker": "color"}
STRING_FORMATS = {"email": "email-input", "uri": "url-input", "url": "url-input",
                  "date": "date-picker", "time": "time-picker"}
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
TEXTAREA_OVER = 200
# The top-level enable switch lives on the plugin tab itself (one switch, one owner).
SKIPPED_TOP_KEYS = frozenset({"enabled"})


@dataclass
class Field:
    """One control of the form (or a group of them)."""

    key: str
    path: list[str | int]
    widget: str
    template: str
    kind: str  # how plugin_form.js reads the value back
    label: str
    value: Any
    schema: dict[str, Any]
    description: str = ""
    note: str = ""
    input_type: str = "text"
    options: list[tuple[str, str]] = field(default_factory=list)  # (JSON value, label)
    children: list[Field] = field(default_factory=list)
    columns: list[Field] = field(default_factory=list)  # array-table: one per item key
    rows: list[list[Field]] = field(default_factory=list)
    attrs: dict[str, Any] = field(default_factory=dict)
    secret: bool = False
    cell: bool = False  # drawn inside an array-table row
    config: dict[str, Any] = field(default_factory=dict)  # x-widget-config

    @property
    def name(self) -> str:
        """The dotted path the server names in a refused save (``feeds.0.url``)."""
        return ".".join(str(part) for part in self.path)

    @property
    def path_json(self) -> str:
        return json.dumps(self.path)

    @property
    def nullable(self) -> bool:
        declared = self.schema.get("type")
        return isinstance(declared, list) and "null" in declared

    @property
    def value_json(self) -> str:
        return json.dumps(self.value)

    @property
    def text(self) -> str:
        """The value as a text or number input shows it."""
        if self.value is None:
            return ""
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        if self.kind == "rgb":
            return rgb_to_hex(self.value)
        return str(self.value) if not isinstance(self.value, dict | list) else self.value_json

    def row_json(self, index: int) -> str:
        """One stored table row as JSON, so a save keeps the keys no column shows."""
        rows = self.value if isinstance(self.value, list) else []
        return json.dumps(rows[index]) if index < len(rows) else "null"

    def chosen(self, option_json: str) -> bool:
        """Return whether an option (JSON-encoded) is the value or one of its items."""
        values = self.value if isinstance(self.value, list) else [self.value]
        return any(json.dumps(v) == option_json for v in values)


@dataclass
class Form:
    """A plugin's whole form: its top-level fields and what the page needs besides."""

    plugin_id: str
    fields: list[Field]
    has_schema: bool


def build_form(plugin_id: str, schema: dict[str, Any] | None, config: dict[str, Any],
               fonts: list[str] | None = None) -> Form:
    """Return the form for a plugin's schema filled with its prepared config."""
    props = (schema or {}).get("properties")
    fields: list[Field] = []
    if isinstance(props, dict):
        for key, prop in props.items():
            if key in SKIPPED_TOP_KEYS or not isinstance(prop, dict):
                continue
            fields.append(build_field([key], prop, config.get(key, prop.get("default")),
                                      fonts or []))
    return Form(plugin_id, fields, isinstance(props, dict))


def schema_type(prop: dict[str, Any], value: Any) -> str:
    """Return the property's JSON type (the first non-null one; guessed from the value)."""
    declared = prop.get("type")
    if isinstance(declared, list):
        declared = next((t for t in declared if t != "null"), None)
    if isinstance(declared, str):
        return declared
    if "properties" in prop:
        return "object"
    if "enum" in prop:
        return "string"
    for kind, python in (("boolean", bool), ("integer", int), ("number", float),
                         ("string", str), ("array", list), ("object", dict)):
        if isinstance(value, python):
            return kind
    return "string"


def default_widget(prop: dict[str, Any], kind: str) -> str:
    """Return the widget a property gets when its schema names none."""
    items = _items(prop)
    if kind == "boolean":
        return "toggle-switch"
    if "enum" in prop:
        return "select-dropdown"
    if kind in ("integer", "number"):
        return "number-input"
    if kind == "string":
        if prop.get("x-secret"):
            return "password-input"
        if prop.get("format") in STRING_FORMATS:
            return STRING_FORMATS[prop["format"]]
        if isinstance(prop.get("maxLength"), int) and prop["maxLength"] > TEXTAREA_OVER:
            return "textarea"
        return "text-input"
    if kind == "array":
        if "enum" in items:
            return "checkbox-group"
        if is_rgb_schema(prop):
            return "color-picker"
        return "array-table" if schema_type(items, None) in SCALAR_KINDS | {"object"} else "json"
    if kind == "object":
        return "group" if isinstance(prop.get("properties"), dict) else "json"
    return "json"


def is_rgb_schema(prop: dict[str, Any]) -> bool:
    """Return whether an array property is one colour: exactly 3 integers from 0 to 255
    (``minItems`` = ``maxItems`` = 3), as community plugins declare ``text_color``."""
    items = _items(prop)
    bounds = (prop.get("minItems"), prop.get("maxItems"), items.get("minimum"),
              items.get("maximum"))
    return items.get("type") == "integer" and all(
        _is_number(value) and value == wanted for value, wanted in zip(
            bounds, (3, 3, 0, 255), strict=True))


SCALAR_KINDS = frozenset({"string", "integer", "number", "boolean"})
_TEXT = frozenset({"string", "integer", "number"})
# The types each widget can hold; a widget named for another type falls back.
WIDGET_KINDS: dict[str, frozenset[str]] = {
    **{name: _TEXT for name in ("text-input", "base-widget", "textarea", "email-input",
                                "url-input", "password-input", "date-picker", "time-picker",
                                "font-selector", "timezone-selector")},
    "number-input": frozenset({"integer", "number"}), "slider": frozenset({"integer", "number"}),
    "toggle-switch": frozenset({"boolean"}), "color-picker": frozenset({"string", "array"}),
    **{name: frozenset({"array"}) for name in (
        "checkbox-group", "day-selector", "vendor-calendar-picker", "array-table",
        "custom-feeds", "file-upload")},
    "time-range": frozenset({"object"}), "schedule-picker": frozenset({"object"}),
    "file-upload-single": frozenset({"string", "object"}),
}


def fits(widget: str, kind: str, prop: dict[str, Any]) -> bool:
    """Return whether a widget can hold a property of this type."""
    if widget in ("select-dropdown", "radio-group"):
        return "enum" in prop
    if widget in ("time-range", "schedule-picker"):
        return kind == "object" and isinstance(prop.get("properties"), dict)
    allowed = WIDGET_KINDS.get(widget)
    return allowed is None or kind in allowed  # the rest keep any value as it is


def build_field(path: list[str | int], prop: dict[str, Any], value: Any,
                fonts: list[str]) -> Field:
    """Return the field for one property at ``path``."""
    kind = schema_type(prop, value)
    fallback = default_widget(prop, kind)
    wanted = prop.get("x-widget")
    note = ""
    widget = fallback
    if isinstance(wanted, str) and wanted:
        if wanted not in WIDGET_TEMPLATES:
            note = f"unknown widget {wanted!r}: shown as {fallback}"
        elif not fits(wanted, kind, prop):
            note = f"widget {wanted!r} does not fit a {kind}: shown as {fallback}"
        else:
            widget = wanted
    key = str(path[-1])
    made = Field(key=key, path=path, widget=widget,
                 template=WIDGET_TEMPLATES.get(widget) or INTERNAL_TEMPLATES[widget],
                 kind=kind, label=str(prop.get("title") or key.replace("_", " ")),
                 value=value, schema=prop, description=str(prop.get("description") or ""),
                 note=note, secret=bool(prop.get("x-secret")))
    config = prop.get("x-widget-config") or prop.get("x-options")
    made.config = config if isinstance(config, dict) else {}
    _fill(made, prop, fonts)
    return made


_LIMITS = ("minimum", "maximum", "multipleOf", "maxLength", "minLength", "pattern")


def _fill(made: Field, prop: dict[str, Any], fonts: list[str]) -> None:
    """Set the widget-specific parts of a field: options, limits, children, rows.

    The steps run in this order because each reads what the one before set: the limits
    decide whether a slider can show the value, the input type whether a date or colour
    can, and the options whether a stored value is still a listed choice.
    """
    items = _items(prop)
    for limit in _LIMITS:
        if limit in prop:
            made.attrs[limit] = prop[limit]
    _choose_input(made)
    _fit_input(made)
    _list_options(made, prop, items, fonts)
    _keep_stored_choices(made)
    if made.template == "group":
        _fill_group(made, prop, fonts)
    if made.template == "table":
        _fill_table(made, items, fonts)
    if made.template in ("files", "file_manager", "notification", "json"):
        made.kind = "json"


def _choose_input(made: Field) -> None:
    """Set the HTML input type: the widget's, a password for a secret, number or range
    for a number in a text or slider widget; a colour picker on a list reads ``[r, g, b]``."""
    made.input_type = INPUT_TYPES.get(made.widget, "text")
    if made.input_type == "password" or made.secret:
        made.input_type = "password"
    if made.widget == "color-picker" and made.kind == "array":
        made.kind = "rgb"
    if made.template in ("text", "slider") and made.kind in ("integer", "number") \
            and made.widget != "color-picker":
        made.input_type = "number" if made.template == "text" else "range"


def _list_options(made: Field, prop: dict[str, Any], items: dict[str, Any],
                  fonts: list[str]) -> None:
    """Set the choices: the schema's enum (with its labels), else the weekdays for a day
    selector; a font selector also lists the installed fonts."""
    enum = prop.get("enum") or items.get("enum")
    if isinstance(enum, list):
        labels = prop.get("x-enum-labels") or prop.get("enumNames") or items.get("enumNames")
        made.options = _options(enum, labels)
    if made.widget == "day-selector" and not made.options:
        made.options = _options(list(DAYS), [d.title() for d in DAYS])
    if made.widget == "font-selector":
        _list_fonts(made, enum if isinstance(enum, list) else [], fonts)


def _list_fonts(made: Field, listed: list[Any], fonts: list[str]) -> None:
    """List the installed fonts and the schema's; a stored font that is neither stays."""
    names = list(dict.fromkeys([*fonts, *(n for n in listed if isinstance(n, str))]))
    made.options = made.options or _options(names, None)
    if made.value is not None and not made.chosen(json.dumps(made.value)):
        made.options.append((json.dumps(made.value), f"{made.value} (not installed)"))


def _keep_stored_choices(made: Field) -> None:
    """Make choice widgets read back a list or one choice, and keep every stored value
    the schema no longer lists as an option, so a save does not drop it."""
    if made.template in ("checks", "calendars"):
        made.kind = "list"
        for item in made.value if isinstance(made.value, list) else []:
            if not any(option == json.dumps(item) for option, _ in made.options):
                made.options.append((json.dumps(item), str(item)))
    if made.template in ("select", "radio"):
        made.kind = "choice"
        if made.value is None:
            made.options.insert(0, ("", "(choose)"))
        elif not any(made.chosen(o[0]) for o in made.options):
            made.options.insert(0, (json.dumps(made.value), f"{made.value} (not a listed choice)"))


# What a date, time or colour input can show; anything else it would rewrite on save.
_SHOWABLE = {"date": re.compile(r"\d{4}-\d{2}-\d{2}"), "time": re.compile(r"\d{2}:\d{2}"),
             "color": re.compile(r"#[0-9a-fA-F]{6}")}


def _fit_input(made: Field) -> None:
    """Draw a text input where the browser's own input would not show the stored value.

    A range input clamps to its bounds (0-100 when the schema gives none) and a date,
    time or colour input blanks or blackens a value it cannot parse; an untouched save
    would then store what the browser made of it.
    """
    if made.template == "slider":
        _fit_slider(made)
    elif made.kind == "rgb":
        if not _is_rgb(made.value):
            made.input_type, made.kind = "text", "json"
    else:
        pattern = _SHOWABLE.get(made.input_type)
        if pattern is not None and made.value is not None and not (
                isinstance(made.value, str) and pattern.fullmatch(made.value)):
            made.input_type = "text"


def _fit_slider(made: Field) -> None:
    """Draw a plain input instead of a slider missing a bound or holding a value outside."""
    low, high = made.attrs.get("minimum"), made.attrs.get("maximum")
    number = isinstance(made.value, int | float) and not isinstance(made.value, bool)
    if not _is_number(low) or not _is_number(high) or (
            made.value is not None and not (number and low <= made.value <= high)):
        made.template, made.input_type = "text", "number" if number or \
            made.value is None else "text"


def _is_rgb(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 3 and all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _fill_group(made: Field, prop: dict[str, Any], fonts: list[str]) -> None:
    props = prop.get("properties")
    if not isinstance(props, dict):
        made.template, made.kind = "json", "json"
        return
    made.kind = "group"
    value = made.value if isinstance(made.value, dict) else {}
    for key, sub in props.items():
        if isinstance(sub, dict):
            sub = _timeish(key, sub, made.widget)
            made.children.append(build_field([*made.path, key], sub,
                                             value.get(key, sub.get("default")), fonts))


def _timeish(key: str, sub: dict[str, Any], widget: str) -> dict[str, Any]:
    """Inside a time-range or schedule-picker, a time-named string is a time picker."""
    if widget in ("time-range", "schedule-picker") and "x-widget" not in sub \
            and sub.get("type") == "string" and "time" in key and "enum" not in sub:
        return {**sub, "x-widget": "time-picker"}
    if widget == "schedule-picker" and key == "days" and sub.get("type") == "array" \
            and "x-widget" not in sub:
        return {**sub, "x-widget": "day-selector"}
    return sub


def _fill_table(made: Field, items: dict[str, Any], fonts: list[str]) -> None:
    made.kind = "rows"
    item_props = items.get("properties") if isinstance(items.get("properties"), dict) else None
    if item_props is None and schema_type(items, None) not in SCALAR_KINDS:
        made.template, made.kind = "json", "json"
        return
    rows = made.value if isinstance(made.value, list) else []
    made.attrs["scalar"] = item_props is None
    made.columns = _cells(made, items, item_props, {}, "__row__", fonts)
    made.rows = [_cells(made, items, item_props, row, index, fonts)
                 for index, row in enumerate(rows)]


def _cells(made: Field, items: dict[str, Any], item_props: dict[str, Any] | None,
           row: Any, index: int | str, fonts: list[str]) -> list[Field]:
    """Return one table row's cells (a scalar item is one cell named ``value``)."""
    if item_props is None:
        value = row if index != "__row__" else items.get("default", _blank(items))
        cell = build_field([*made.path, index], items, value, fonts)
        cell.label = "value"
        return [_as_cell(cell)]
    row = row if isinstance(row, dict) else {}
    cells = []
    for key, sub in item_props.items():
        if isinstance(sub, dict):
            value = row.get(key, sub.get("default", _blank(sub)))
            cells.append(_as_cell(build_field([*made.path, index, key], sub, value, fonts)))
    return cells


def _as_cell(cell: Field) -> Field:
    # A cell is one input; anything richer than a scalar is edited as JSON text.
    cell.cell = True
    if cell.template not in ("text", "toggle", "select", "textarea", "slider"):
        cell.template, cell.kind = "json", "json"
    if cell.template == "slider":
        cell.template = "text"
    return cell


def _items(prop: dict[str, Any]) -> dict[str, Any]:
    items = prop.get("items")
    return items if isinstance(items, dict) else {}


def _blank(prop: dict[str, Any]) -> Any:
    return {"boolean": False, "integer": None, "number": None, "array": [],
            "object": {}}.get(schema_type(prop, None), "")


def _options(values: list[Any], labels: Any) -> list[tuple[str, str]]:
    names = labels if isinstance(labels, list) and len(labels) == len(values) else values
    return [(json.dumps(v), str(n)) for v, n in zip(values, names, strict=True)]


def rgb_to_hex(value: Any) -> str:
    """Return ``#rrggbb`` for an ``[r, g, b]`` list (black for anything else)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) >= 3 and all(
            isinstance(c, int) and not isinstance(c, bool) for c in value[:3]):
        return "#" + "".join(f"{max(0, min(255, c)):02x}" for c in value[:3])
    return "#000000"


def safe_link(url: Any) -> str | None:
    """Return ``url`` when it is an http(s) link, else None (no javascript: and friends)."""
    if isinstance(url, str) and url.strip().lower().startswith(("http://", "https://")):
        return url.strip()
    return None
