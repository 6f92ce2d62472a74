"""Settings one web app instance is built from."""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.paths import Paths, resolve_paths


@dataclass(frozen=True)
class WebSettings:
    """Everything create_app needs; tests build their own."""

    paths: Paths = field(default_factory=resolve_paths)
    host: str = "127.0.0.1"
    port: int = 5000
    # How long an on-demand call waits for the display daemon's acknowledgement.
    ack_timeout: float = 2.0
