"""What the harness found: one ``Finding`` per problem, warning or error."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

WARNING = "warning"
ERROR = "error"


@dataclass
class Finding:
    """One problem: which check, how serious, a one-line message, and details."""

    check: str
    severity: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the finding as plain JSON-ready values."""
        return asdict(self)
