"""Saves of the schedule routes: GET/POST /config/schedule and /config/dim-schedule.

Pure: the web view passes the stored config and the request body and saves the result
through the one config writer. The two sections share a shape (``shared.schedules``).

A body may use either shape, or both at once:

- **Nested**: ``enabled``, ``mode``, ``start_time``, ``end_time`` (and ``dim_brightness``
  for the dim schedule) plus ``days: {"<day>": {"enabled", "start_time", "end_time"}}``,
  the shape GET returns. Dotted names (``days.monday.start_time``) are the same fields.
- **Flat form keys**: ``<day>_enabled``, ``<day>_start`` and ``<day>_end`` (also
  ``<day>_start_time``, ``<day>_end_time``) for a day's values; ``schedule_enabled``
  (power) or ``dim_enabled`` (dim) for ``enabled``.

A JSON body changes only the fields it sends. A form-encoded body (or one carrying
``__form_section``) treats a missing checkbox as unchecked: ``enabled`` when absent is
false, and a day's ``enabled`` is false when the body sends that day's times without it.
Times are ``HH:MM`` (24-hour) and are stored as two-digit ``HH:MM``; ``mode`` is
``global`` or ``per-day`` (``per_day`` is accepted and stored as ``per-day``).

Every refusal is a ValidationError (400) naming the field as the client sent it, and
then nothing is written. Unknown fields are refused, so a typo cannot pass unnoticed.
The whole resulting section must be valid too: a bad value left in the stored section
by a hand edit is named (``schedule.days.monday.start_time``) until the save fixes it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from shared.config.coerce import FALSE_WORDS, TRUE_WORDS
from shared.config.limits import check_limit, limit_for
from shared.config.template import load_template
from shared.errors import ValidationError
from shared.schedules import (
    DAYS,
    day_values,
    format_time,
    normalize_mode,
    parse_time,
    section_problems,
)

POWER, DIM = "schedule", "dim_schedule"
FORM_SECTION_FIELD = "__form_section"

_TOP_FIELDS = ("enabled", "mode", "start_time", "end_time")
_DAY_FIELDS = ("enabled", "start_time", "end_time")
_FLAT_DAY_SUFFIXES = {"enabled": "enabled", "start": "start_time", "end": "end_time",
                      "start_time": "start_time", "end_time": "end_time"}
_ENABLED_ALIAS = {POWER: "schedule_enabled", DIM: "dim_enabled"}

JsonObject = dict[str, Any]


def schedule_view(stored_main: JsonObject, key: str,
                  template: JsonObject | None = None) -> JsonObject:
    """Return a schedule section in the full per-day shape: every day listed.

    ``stored_main`` is only read (it may be a shared snapshot).
    """
    section = _stored_section(stored_main, key, template)
    view = {k: section.get(k) for k in _top_fields(key)}
    view["mode"] = normalize_mode(section.get("mode")) or section.get("mode")
    view["days"] = {day: day_values(section, day) for day in DAYS}
    return view


def plan_schedule_save(stored_main: JsonObject, body: Any, key: str, *, form: bool,
                       template: JsonObject | None = None) -> tuple[JsonObject, list[str]]:
    """Return ``(new_main, changed_sections)`` for a POST to a schedule route."""
    if not isinstance(body, dict):
        raise ValidationError("the request body must be a JSON object", error_code="INVALID_JSON")
    form = form or FORM_SECTION_FIELD in body
    fields = _fields(body, key)
    section = copy.deepcopy(_stored_section(stored_main, key, template))
    if form:
        _uncheck_missing(fields)
    days = section.get("days")
    if not isinstance(days, dict):
        days = section["days"] = {}
    for (day, name), (sent, raw) in fields.items():
        target = section if day is None else days.setdefault(day, {})
        if not isinstance(target, dict):
            target = days[day] = {}
        target[name] = _value(key, name, sent, raw)
    problems = section_problems(section, key)
    if problems:
        field, message = problems[0]
        raise ValidationError(f"{field} {message}", error_code="INVALID_FIELD",
                              details={"field": field, "errors": [
                                  {"field": f, "message": m} for f, m in problems]})
    new_main = copy.deepcopy(stored_main)
    new_main[key] = section
    changed = [key] if stored_main.get(key) != section else []
    return new_main, changed


def _top_fields(key: str) -> tuple[str, ...]:
    return (*_TOP_FIELDS, "dim_brightness") if key == DIM else _TOP_FIELDS


def _stored_section(stored_main: JsonObject, key: str,
                    template: JsonObject | None) -> JsonObject:
    stored = stored_main.get(key)
    if isinstance(stored, dict):
        return stored
    default = (load_template() if template is None else template).get(key)
    return copy.deepcopy(default) if isinstance(default, dict) else {}


Field = tuple[str | None, str]  # (day or None for the section, field name)


def _fields(body: JsonObject, key: str) -> dict[Field, tuple[str, Any]]:
    """Return every field of the body by its place in the section, with the name sent."""
    found: dict[Field, tuple[str, Any]] = {}
    for sent, raw in _flatten(body):
        place = _place(sent, key)
        if place is None:
            raise ValidationError(f"{sent} is not a field of {key}", error_code="UNKNOWN_FIELD",
                                  details={"field": sent})
        if isinstance(raw, list):  # a repeated form field: the last value counts
            raw = raw[-1] if raw else ""
        found[place] = (sent, raw)
    return found


def _flatten(body: JsonObject) -> list[tuple[str, Any]]:
    leaves: list[tuple[str, Any]] = []
    for name, value in body.items():
        name = str(name).removesuffix("[]")
        if name.startswith("__"):
            continue
        if name == "days":
            if not isinstance(value, dict):
                raise ValidationError("days must be an object keyed by day",
                                      error_code="INVALID_FIELD", details={"field": "days"})
            for day, values in value.items():
                if not isinstance(values, dict):
                    raise ValidationError(f"days.{day} must be an object",
                                          error_code="INVALID_FIELD",
                                          details={"field": f"days.{day}"})
                leaves += [(f"days.{day}.{field}", item) for field, item in values.items()]
        else:
            leaves.append((name, value))
    return leaves


def _place(sent: str, key: str) -> Field | None:
    if sent in _top_fields(key):
        return (None, sent)
    if sent == _ENABLED_ALIAS[key]:
        return (None, "enabled")
    parts = sent.split(".")
    if len(parts) == 3 and parts[0] == "days" and parts[1] in DAYS and parts[2] in _DAY_FIELDS:
        return (parts[1], parts[2])
    day, _, suffix = sent.partition("_")
    if day in DAYS and suffix in _FLAT_DAY_SUFFIXES:
        return (day, _FLAT_DAY_SUFFIXES[suffix])
    return None


def _uncheck_missing(fields: dict[Field, tuple[str, Any]]) -> None:
    """Form bodies: an absent checkbox is unchecked (a day's only when that day was sent)."""
    fields.setdefault((None, "enabled"), ("enabled", False))
    for day in {day for day, _name in fields if day is not None}:
        fields.setdefault((day, "enabled"), (f"{day}_enabled", False))


def _value(key: str, name: str, sent: str, raw: Any) -> Any:
    if name == "enabled":
        return _boolean(sent, raw)
    if name == "mode":
        mode = normalize_mode(raw)
        if mode is None:
            raise _invalid(sent, raw, "must be global or per-day")
        return mode
    if name == "dim_brightness":
        return _brightness(sent, raw, key)
    try:
        return format_time(parse_time(raw))
    except ValueError as err:
        raise _invalid(sent, raw, str(err)) from None


def _boolean(sent: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    word = raw.strip().lower() if isinstance(raw, str) else None
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise _invalid(sent, raw, "must be true or false")


def _brightness(sent: str, raw: Any, key: str) -> int:
    value: Any = raw
    if isinstance(raw, str) and re.fullmatch(r"[+-]?[0-9]{1,20}", raw.strip()):
        value = int(raw.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        if not (isinstance(value, float) and value.is_integer()):
            raise _invalid(sent, raw, "must be a whole number from 1 to 100")
        value = int(value)
    check_limit(sent, value, limit_for(f"{key}.dim_brightness"))
    return value


def _invalid(sent: str, raw: Any, problem: str) -> ValidationError:
    shown = repr(raw) if isinstance(raw, str | int | float | bool) or raw is None else (
        type(raw).__name__)
    return ValidationError(f"{sent} {problem} (got {shown})", error_code="INVALID_FIELD",
                           details={"field": sent})
