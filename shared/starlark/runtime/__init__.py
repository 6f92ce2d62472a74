"""The scripted-app runtime: load a pixlet-format app, run it within limits, read its schema.

``load_app(path)`` -> App; ``run_app(app, config, width=, height=, limits=)`` -> Frames
(from the render package); ``app_schema(app)`` -> pixlet's schema JSON or None;
``schema_handler(app, name, value)`` calls a field's handler for the settings form.
Every failure is an ``AppError`` with a one-line message; ``NothingToShow`` (one of
them) is an app skipping its turn by returning ``[]``, which is not a failure.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shared.starlark.runtime.app_files import App, load_app
    from shared.starlark.runtime.errors import AppError, NothingToShow
    from shared.starlark.runtime.frames import run_app
    from shared.starlark.runtime.limits import Limits
    from shared.starlark.runtime.modules.app_cache import AppCache
    from shared.starlark.runtime.modules.http_module import Fetcher, PublicFetcher
    from shared.starlark.runtime.run import app_schema, evaluate_main, schema_handler

# Each name's module, imported on first use: a process that only needs the errors (the
# display, the web) never loads the interpreter and the widget tree (~15 MB).
_HOMES = {
    "App": "app_files", "load_app": "app_files", "AppError": "errors",
    "NothingToShow": "errors", "run_app": "frames", "Limits": "limits",
    "AppCache": "modules.app_cache", "Fetcher": "modules.http_module",
    "PublicFetcher": "modules.http_module", "app_schema": "run", "evaluate_main": "run",
    "schema_handler": "run",
}

__all__ = ["App", "AppCache", "AppError", "Fetcher", "Limits", "NothingToShow", "PublicFetcher",
           "app_schema", "evaluate_main", "load_app", "run_app", "schema_handler"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
