"""Render the sample apps (test data in ../apps) from copies, each with its schema defaults."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from shared.starlark.runtime import AppError, Limits, app_schema, load_app, run_app

APPS = Path(__file__).resolve().parent.parent / "apps"


@dataclass(frozen=True)
class Outcome:
    """One app's result: frames rendered, or the one-line error."""

    name: str
    frames: int
    error: str = ""


def sample_names() -> list[str]:
    """The apps of the index that need no network or secret."""
    index = json.loads((APPS / "index.json").read_text(encoding="utf-8"))
    return [entry["name"] for entry in index if not entry["network_or_secret"]]


def render_sample(name: str, work: Path, limits: Limits | None = None) -> Outcome:
    """Copy the app into ``work`` and render it at 64x32 with its schema's defaults."""
    folder = work / name
    shutil.copytree(APPS / name, folder)
    try:
        app = load_app(folder)
        schema = app_schema(app) or {"schema": []}
        config = {field["id"]: field["default"] for field in schema["schema"]
                  if isinstance(field, dict) and "default" in field}
        frames = run_app(app, config, width=64, height=32, limits=limits)
    except AppError as err:
        return Outcome(name, 0, str(err))
    return Outcome(name, len(frames.images))
