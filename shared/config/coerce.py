"""Typing of submitted core config values: the template's value is the type to match.

Form fields arrive as text ("32", "on", "0.5"); JSON bodies posted from a form may do
the same. Each value is coerced to the type of the template's value at that path (or a
hint for keys whose template value does not tell), else of the stored value.
"""

from __future__ import annotations

import fnmatch
import math
import re
from collections.abc import Callable
from typing import Any

from shared.config.limits import check_limit
from shared.config.values import check_value
from shared.errors import ValidationError

TRUE_WORDS = frozenset({"on", "true", "1", "yes"})
FALSE_WORDS = frozenset({"off", "false", "0", "no"})

# Returned by coerce_value when the stored value is to be kept as it is.
KEEP = object()

# Save rule 6: a blank Vegas cycle bound does not reject a Display save; the stored
# value is kept.
BLANK_KEEPS_STORED: frozenset[str] = frozenset(
    {"vegas_scroll.vegas_min_cycle_duration", "vegas_scroll.vegas_max_cycle_duration"}
)

# Types for paths whose template value is null or an empty map, and for legacy keys.
# "number?" also allows null (a blank field).
TYPE_HINTS: dict[str, str] = {
    "location.latitude": "number?",
    "location.longitude": "number?",
    "display_durations.*": "number",
    "plugin_system.auto_discover": "bool",
    "plugin_system.auto_load_enabled": "bool",
    "plugin_system.development_mode": "bool",
    "target_fps": "int",
}


def flatten(body: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Return the leaves of a nested body under dotted names (``a.b.c``)."""
    flat: dict[str, Any] = {}
    for key, value in body.items():
        name = f"{prefix}{str(key).removesuffix('[]')}"
        if isinstance(value, dict) and value:
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def value_at(config: Any, parts: list[str]) -> Any:
    """Return the value at a path, or None when any step is missing."""
    node = config
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def set_path(config: dict[str, Any], parts: list[str], value: Any) -> None:
    """Set a value at a path, creating (or replacing non-object) steps on the way."""
    for part in parts[:-1]:
        child = config.get(part)
        if not isinstance(child, dict):
            child = config[part] = {}
        config = child
    config[parts[-1]] = value


def check_path(name: str, template: dict[str, Any], stored: dict[str, Any]) -> None:
    """Refuse a dotted path that runs through a value that is not an object."""
    parts = name.split(".")
    for depth in range(1, len(parts)):
        for source in (template, stored):
            node = value_at(source, parts[:depth])
            if node is not None and not isinstance(node, dict):
                raise _invalid(name, ".".join(parts[:depth]), "names a setting, not a section")


def kind_for(name: str, template: dict[str, Any], stored: dict[str, Any]) -> str | None:
    """Return the expected kind of a dotted path (``bool``, ``int``, ``list:int``...)."""
    parts = name.split(".")
    kind = _kind_of(value_at(template, parts))
    if kind:
        return kind
    for pattern, hint in TYPE_HINTS.items():
        if fnmatch.fnmatchcase(name, pattern):
            return hint
    return _kind_of(value_at(stored, parts))


def coerce_value(name: str, raw: Any, kind: str | None, *, form: bool = False) -> Any:
    """Return ``raw`` as a value of ``kind``, or raise ValidationError naming the field.

    Only a form body (``form=True``) may send a list for a single value (a repeated
    field, such as a hidden "off" input before its checkbox): the last value counts. In
    a JSON body a list where the template has a single value is refused. Numbers must
    be finite and inside the setting's range (``limits``); text must be allowed there
    (``values``: choices such as ``sync.follower_position``, times of day).
    """
    raw = _single(name, raw, kind, form=form)
    text = raw.strip() if isinstance(raw, str) else None
    if text == "" and name in BLANK_KEEPS_STORED:
        return KEEP
    if kind is None:
        return raw
    if kind.startswith("list"):
        if isinstance(raw, dict):
            raise _invalid(name, raw, "must be a list, not an object")
        item_kind = kind.partition(":")[2] or None
        return [coerce_value(f"{name}[{i}]", item, item_kind, form=form)
                for i, item in enumerate(_list(raw))]
    convert = _CONVERTERS.get(kind)
    return raw if convert is None else convert(name, raw, text, kind)


def _single(name: str, raw: Any, kind: str | None, *, form: bool) -> Any:
    """Return the one value of a field that is not a list: a form's last, else refuse."""
    if not isinstance(raw, list) or (kind or "").startswith("list"):
        return raw
    if form:
        return raw[-1] if raw else ""
    if kind is not None:
        problem = "must be an object" if kind == "object" else "must be a single value"
        raise _invalid(name, raw, f"{problem}, not a list")
    return raw


def _to_bool(name: str, raw: Any, text: str | None, kind: str) -> bool:
    if isinstance(raw, bool):
        return raw
    word = text.lower() if text is not None else str(raw)
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise _invalid(name, raw, "must be true or false")


def _to_number(name: str, raw: Any, text: str | None, kind: str) -> Any:
    number = _number(name, raw, text, kind)
    check_limit(name, number)
    return number


def _to_str(name: str, raw: Any, text: str | None, kind: str) -> str:
    if isinstance(raw, str):
        check_value(name, raw)
        return raw
    raise _invalid(name, raw, "must be text")


def _to_object(name: str, raw: Any, text: str | None, kind: str) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    raise _invalid(name, raw, "must be an object")


# A single-valued kind -> its conversion; any other kind keeps the value as sent.
_CONVERTERS: dict[str, Callable[[str, Any, str | None, str], Any]] = {
    "bool": _to_bool, "int": _to_number, "number": _to_number, "number?": _to_number,
    "str": _to_str, "object": _to_object,
}


_KIND_NAMES = {"bool": "true or false", "int": "a whole number", "number": "a number",
               "number?": "a number or null", "str": "text", "object": "an object"}


def check_kind(name: str, value: Any, kind: str | None) -> None:
    """Refuse ``value`` unless it already is of ``kind`` (``kind_for``), naming the field.

    The raw editor stores values as written, so text that would read as the right type
    (``"32"``) is refused here rather than converted as ``coerce_value`` does.
    """
    if kind is None or _is_kind(value, kind):
        return
    if kind.startswith("list") and isinstance(value, list):
        item_kind = kind.partition(":")[2] or None
        for index, item in enumerate(value):
            check_kind(f"{name}[{index}]", item, item_kind)
        return
    wanted = "a list" if kind.startswith("list") else _KIND_NAMES.get(kind, kind)
    raise _invalid(name, value, f"must be {wanted}")


def _is_kind(value: Any, kind: str) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return number
    if kind == "number?":
        return value is None or number
    if kind == "str":
        return isinstance(value, str)
    if kind == "object":
        return isinstance(value, dict)
    if kind.startswith("list"):
        item_kind = kind.partition(":")[2]
        return isinstance(value, list) and (
            not item_kind or all(_is_kind(item, item_kind) for item in value))
    return True


def _kind_of(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        item_kind = _kind_of(value[0]) if value else None
        return f"list:{item_kind}" if item_kind and not item_kind.startswith("list") else "list"
    return "object"


def _number(name: str, raw: Any, text: str | None, kind: str) -> Any:
    if kind == "number?" and (raw is None or text == ""):
        return None
    number = _finite(name, raw, text)
    # Whole numbers keep every digit ("12345678901234567891" is not rounded).
    exact: int | None = None
    if isinstance(raw, int):
        exact = raw
    elif text is not None and _looks_integral(text):
        exact = int(text)
    if kind == "int":
        if exact is not None:
            return exact
        if not number.is_integer():
            raise _invalid(name, raw, "must be a whole number")
        return int(number)
    return exact if exact is not None else number


def _finite(name: str, raw: Any, text: str | None) -> float:
    """Return a number or numeric text as a finite float, or refuse it naming the field."""
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        raise _invalid(name, raw, "must be a number")
    try:
        number = float(text) if text is not None else float(raw)
    except ValueError:
        raise _invalid(name, raw, "must be a number") from None
    except OverflowError:
        # An int too large for a float (10**400): no setting can use it.
        raise _invalid(name, raw, "is too large") from None
    if not math.isfinite(number):
        raise _invalid(name, raw, "must be a finite number")
    return number


def _looks_integral(text: str) -> bool:
    return re.fullmatch(r"[+-]?[0-9]+", text) is not None


def _list(raw: Any) -> list[Any]:
    if isinstance(raw, list):
        return raw
    if isinstance(raw, str):
        return [item.strip() for item in raw.split(",") if item.strip()]
    return [raw]


def _invalid(name: str, raw: Any, problem: str) -> ValidationError:
    return ValidationError(
        f"{name} {problem} (got {_shown(raw)})",
        error_code="INVALID_FIELD",
        details={"field": name},
    )


def _shown(raw: Any) -> str:
    if isinstance(raw, int) and not isinstance(raw, bool) and raw.bit_length() > 64:
        return "a number with more than 19 digits"
    if isinstance(raw, str | int | float | bool) or raw is None:
        shown = repr(raw)
        return shown if len(shown) <= 60 else shown[:57] + "..."
    return "an array" if isinstance(raw, list) else type(raw).__name__
