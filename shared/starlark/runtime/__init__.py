"""The scripted-app runtime: load a pixlet-format app, run it within limits, read its schema.

``load_app(path)`` -> App; ``run_app(app, config, width=, height=, limits=)`` -> Frames
(from the render package); ``app_schema(app)`` -> pixlet's schema JSON or None;
``schema_handler(app, name, value)`` calls a field's handler for the settings form.
Every failure is an ``AppError`` with a one-line message; ``NothingToShow`` (one of
them) is an app skipping its turn by returning ``[]``, which is not a failure.
"""

from __future__ import annotations

from shared.starlark.runtime.app_files import App, load_app
from shared.starlark.runtime.errors import AppError, NothingToShow
from shared.starlark.runtime.frames import run_app
from shared.starlark.runtime.limits import Limits
from shared.starlark.runtime.modules.app_cache import AppCache
from shared.starlark.runtime.modules.http_module import Fetcher, PublicFetcher
from shared.starlark.runtime.run import app_schema, evaluate_main, schema_handler

__all__ = ["App", "AppCache", "AppError", "Fetcher", "Limits", "NothingToShow", "PublicFetcher",
           "app_schema", "evaluate_main", "load_app", "run_app", "schema_handler"]
