"""run_app and app_schema: call an app's ``main`` or ``get_schema`` within its limits."""

from __future__ import annotations

import re
from typing import Any, Literal

import starlark

from shared.starlark.runtime import config_object, interpreter
from shared.starlark.runtime.app_files import App
from shared.starlark.runtime.errors import AppError, one_line, starlark_message
from shared.starlark.runtime.limits import Deadline, Limits
from shared.starlark.runtime.module_loader import ModuleLoader
from shared.starlark.runtime.modules.app_cache import AppCache
from shared.starlark.runtime.modules.catalog import CATALOG, Services
from shared.starlark.runtime.modules.http_module import Fetcher, PublicFetcher

_NO_ARGS_MAIN = re.compile(r"^def\s+main\s*\(\s*\)", re.M)


def evaluate_main(app: App, config: dict[str, str], services: Services,
                  limits: Limits) -> Any:
    """What ``main(config)`` returns (widgets as Python objects); AppError on failure."""
    if not re.search(r"^def\s+main\s*\(", app.source, re.M):
        raise AppError(f"{app.main_file}: the app has no function main")
    deadline = Deadline(limits.seconds, services.clock)
    loader = ModuleLoader(app, services, deadline, limits)
    call = "main()" if _NO_ARGS_MAIN.search(app.source) else "main(make_config(ledpanel_config))"
    text = (f'load("{app.main_file}", "main")\n'
            f'load("{config_object.CONFIG_MODULE}", "make_config")\n{call}\n')
    runner = starlark.Module()
    runner["ledpanel_config"] = {str(k): str(v) for k, v in config.items()}
    with _translated(loader, deadline):
        ast = starlark.parse("<runner>", text, interpreter.dialect())
        return starlark.eval_with(interpreter.options(deadline, limits), runner, ast,
                                  interpreter.globals_(), loader.file_loader()).value


def app_schema(app: App, *, limits: Limits | None = None) -> dict[str, Any] | None:
    """The app's settings schema in pixlet's JSON shape, or None without ``get_schema``."""
    if not re.search(r"^def\s+get_schema\s*\(", app.source, re.M):
        return None
    limits = limits or app.limits
    deadline = Deadline(limits.seconds)
    loader = ModuleLoader(app, Services(folder=app.folder), deadline, limits)
    with _translated(loader, deadline):
        module = loader.load(app.main_file)
        found = module.call_with(interpreter.options(deadline, limits), "get_schema").value
    if isinstance(found, list):  # a bare list of fields, as some apps return
        found = {"version": "1", "schema": found}
    if not isinstance(found, dict) or "schema" not in found:
        raise AppError(f"{app.main_file}: get_schema did not return a schema.Schema")
    return found


def schema_handler(app: App, handler: str, value: str, *,
                   limits: Limits | None = None) -> Any:
    """Call a schema field's handler (LocationBased, Typeahead, Generated) with ``value``.

    Options come back as pixlet writes them (``display``, ``text``, ``value``); a
    Generated handler's schema as ``app_schema`` gives one.
    """
    if not re.fullmatch(r"[A-Za-z_]\w*", handler) or \
            not re.search(rf"^def\s+{handler}\s*\(", app.source, re.M):
        raise AppError(f"{app.main_file}: the app has no schema handler {handler[:40]!r}")
    limits = limits or app.limits
    deadline = Deadline(limits.seconds)
    loader = ModuleLoader(app, Services(folder=app.folder), deadline, limits)
    with _translated(loader, deadline):
        module = loader.load(app.main_file)
        found = module.call_with(interpreter.options(deadline, limits), handler, value).value
    if isinstance(found, list):
        return [_option(item) for item in found]
    return found


def _option(item: Any) -> Any:
    if isinstance(item, dict) and "display" in item and "text" not in item:
        return {"display": item["display"], "text": item["display"], **item}
    return item


class _translated:
    """Turn whatever an evaluation raises into one AppError line."""

    def __init__(self, loader: ModuleLoader, deadline: Deadline) -> None:
        self.loader = loader
        self.deadline = deadline

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 _tb: object) -> Literal[False]:
        if error is None or not isinstance(error, Exception):
            return False
        if self.deadline.hit:
            raise AppError(self.deadline.message()) from None
        if isinstance(error, AppError):
            return False
        if isinstance(error, starlark.StarlarkError):
            raise AppError(_explain(starlark_message(str(error), CATALOG), self.loader)) from None
        raise AppError(one_line(f"{type(error).__name__}: {error}")) from None


_WIDGETS = ("Marquee", "Circle", "PieChart", "Plot", "Emoji", "Animation", "Sequence", "Image",
            "Text", "WrappedText", "Box", "Row", "Column", "Stack", "Padding", "Root")
_ANIMATIONS = ("Transformation", "Keyframe", "Translate", "Scale", "Rotate", "Origin")
_NO_ATTRIBUTE = re.compile(r"Object of type `struct` has no attribute `(\w+)`")


def _explain(message: str, loader: ModuleLoader) -> str:
    missing = _NO_ATTRIBUTE.search(message)
    if missing and missing.group(1) in _WIDGETS + _ANIMATIONS:
        owner = "render" if missing.group(1) in _WIDGETS else "animation"
        return f"{message.split(': ')[0]}: {owner}.{missing.group(1)} is not available " \
               "in this runtime"
    if "Module has no symbol `main`" in message:
        return f"{loader.app.main_file}: the app has no function main"
    if "call stack" in message.lower() or "stack overflow" in message.lower():
        return f"{message.split(': ')[0]}: calls nested deeper than " \
               f"{loader.limits.max_callstack} (runaway recursion?)"
    return message


def services_for(app: App, width: int, height: int, limits: Limits,
                 cache: AppCache | None, fetch: Fetcher | None, **extra: Any) -> Services:
    """The Services of one render."""
    if cache is None:  # not ``cache or``: an empty AppCache is falsy, and must be kept
        cache = AppCache(limits.max_cache_entries, limits.max_cache_bytes)
    return Services(folder=app.folder, width=width, height=height, cache=cache,
                    fetch=fetch or PublicFetcher(limits.http_max_bytes),
                    http_timeout=limits.http_timeout, **extra)
