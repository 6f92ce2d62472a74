"""Small builders for the JSON Schemas the route tables use."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

# Free-form data: an object whose keys this description does not fix.
ANY_OBJECT: Schema = {"type": "object", "additionalProperties": True}
# Anything at all: data whose shape depends on what is stored (a plugin's config, ...).
ANYTHING: Schema = {}
STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
NUMBER: Schema = {"type": "number"}
BOOLEAN: Schema = {"type": "boolean"}
NULL: Schema = {"type": "null"}
# An uploaded file (a multipart part).
BINARY: Schema = {"type": "string", "format": "binary"}


def obj(properties: dict[str, Schema], required: tuple[str, ...] = (),
        extra: bool = True) -> Schema:
    """An object with these ``properties``; ``extra`` says whether other keys may appear."""
    schema: Schema = {"type": "object", "properties": properties,
                      "additionalProperties": extra}
    if required:
        schema["required"] = list(required)
    return schema


def array(items: Schema) -> Schema:
    """A list of ``items``."""
    return {"type": "array", "items": items}


def nullable(schema: Schema) -> Schema:
    """``schema`` or null."""
    return {"anyOf": [schema, NULL]}


def enum(*values: str) -> Schema:
    """One of these strings."""
    return {"type": "string", "enum": list(values)}


def described(schema: Schema, description: str) -> Schema:
    """``schema`` with a description."""
    return {**schema, "description": description}


def text(min_length: int, max_length: int) -> Schema:
    """A string of ``min_length`` to ``max_length`` characters."""
    return {"type": "string", "minLength": min_length, "maxLength": max_length}
