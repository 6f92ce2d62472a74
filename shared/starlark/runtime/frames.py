"""run_app: an app's ``main`` turned into frames by the render package, within limits."""

from __future__ import annotations

from typing import Any

from shared.starlark.runtime.app_files import App
from shared.starlark.runtime.errors import AppError, NothingToShow
from shared.starlark.runtime.limits import Limits
from shared.starlark.runtime.modules.app_cache import AppCache
from shared.starlark.runtime.modules.http_module import Fetcher
from shared.starlark.runtime.run import evaluate_main, services_for


def run_app(app: App, config: dict[str, str] | None = None, *, width: int = 64,
            height: int = 32, limits: Limits | None = None, cache: AppCache | None = None,
            fetch: Fetcher | None = None, http_cache: AppCache | None = None,
            local_zone: str = "UTC", language: str = "en") -> Any:
    """Call ``main(config)`` and render its Root into Frames; AppError names any failure.

    Give the same ``cache`` and ``http_cache`` to each render of one app so its
    ``cache.star`` values and the answers it fetched with ``ttl_seconds`` are kept.
    """
    from shared.starlark.render.errors import TooManyFrames
    from shared.starlark.render.root import Root, render_frames

    limits = limits or app.limits
    services = services_for(app, width, height, limits, cache, fetch,
                            local_zone=local_zone, language=language)
    if http_cache is not None:
        services.http_cache = http_cache
    result = evaluate_main(app, config or {}, services, limits)
    if isinstance(result, list) and len(result) == 1:
        result = result[0]
    if isinstance(result, list) and not result:
        raise NothingToShow(f"{app.main_file}: main returned nothing to show")
    if not isinstance(result, Root):
        raise AppError(f"{app.main_file}: main returned {_kind(result)}, not a render.Root")
    try:
        return render_frames(result, width=width, height=height,
                             max_frames=limits.max_frames, refuse_over=limits.refuse_frames)
    except TooManyFrames as refused:
        raise AppError(f"{app.main_file}: the app has {refused.count} frames, more than "
                       f"the {refused.allowed} allowed") from refused


def _kind(value: object) -> str:
    if value is None:
        return "None"
    names = {str: "a string", int: "a number", float: "a number", dict: "a dict",
             list: "a list", bool: "a bool"}
    return names.get(type(value), type(value).__name__)
