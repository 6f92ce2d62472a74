"""Write a small app folder and run it: the helpers the runtime's tests share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.starlark.runtime import App, Limits, evaluate_main, load_app
from shared.starlark.runtime.modules.catalog import Services


def write_app(folder: Path, source: str, files: dict[str, bytes | str] | None = None,
              name: str = "app") -> Path:
    """An app folder holding ``<name>.star`` and ``files`` (relative paths)."""
    app_dir = folder / name
    app_dir.mkdir(parents=True, exist_ok=True)
    (app_dir / f"{name}.star").write_text(source, encoding="utf-8")
    for relative, content in (files or {}).items():
        target = app_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            target.write_bytes(content)
    return app_dir


def main_value(folder: Path, source: str, config: dict[str, str] | None = None, *,
               files: dict[str, bytes | str] | None = None, limits: Limits | None = None,
               **services: Any) -> Any:
    """What the app's ``main(config)`` returns, as Python values."""
    app: App = load_app(write_app(folder, source, files))
    limits = limits or Limits()
    return evaluate_main(app, config or {}, Services(folder=app.folder, **services), limits)
