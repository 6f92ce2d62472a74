"""One route's entry in the description: what it takes and what it answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from web_service.openapi.schemas import ANY_OBJECT, Schema


@dataclass(frozen=True)
class Param:
    """A query parameter."""

    name: str
    schema: Schema
    description: str = ""
    required: bool = False


@dataclass(frozen=True)
class RouteDoc:
    """A route of /api/v3 as the description gives it.

    ``errors`` maps an HTTP status to the route's own ``error_code`` values (the codes
    every route may answer are added by the document); ``body`` is a JSON request body,
    ``form`` a multipart one; ``body_example`` an example JSON body; ``data`` the success
    envelope's ``data``; ``success`` the success statuses; ``produces`` a media type
    other than the JSON envelope for a success (a ZIP, an image); ``example`` an example
    of ``data``.
    """

    errors: dict[int, tuple[str, ...]] = field(default_factory=dict)
    body: Schema | None = None
    body_required: bool = False
    body_example: Any = None
    form: Schema | None = None
    query: tuple[Param, ...] = ()
    data: Schema = field(default_factory=lambda: ANY_OBJECT)
    success: tuple[int, ...] = (200,)
    produces: str = ""
    example: Any = None

    def codes(self) -> set[str]:
        """Every ``error_code`` of the route's own."""
        return {code for codes in self.errors.values() for code in codes}
